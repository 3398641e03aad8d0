"""The authorization matrix (tests/authorization_matrix.py) holds for every URL pattern and every role.

Every URL pattern of the site (django.urls.get_resolver(), recursively, the admin and the API included) must have
its row: a new page without one fails here. Each row's answers are then asked of the site, role by role, each
request in a savepoint rolled back after it (tests.site_world.isolated), so one answer's write (a withdrawn entry, a
published round) never changes the next. Where the site answers otherwise than it should and the fix belongs to a
file being changed by someone else right now, the answer it gives is listed in KNOWN with the reason, and must still
be what it gives.
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests import site_world
from tests.authorization_matrix import ADMIN_MODELS, ADMIN_PAGES, ADMIN_SITE, ADMIN_WRITES, MATRIX, ROLES, row
from tests.events.factories import fast_passwords  # noqa: F401

# (URL name, method, role) -> (what the site answers today, why it is not yet what the matrix says). Each fix
# belongs to a file being changed by someone else right now.
LUCKY_DRAW = (
    "302",
    "events/play/views/venue.py: a draw POSTed by someone who does not direct the event is sent back to the page "
    "without a word (nothing is drawn); it should be refused, 403 (the log-in page for the anonymous)",
)
LEAVE_WAITLIST = (
    "302",
    "events/services/entries.py: leave_waitlist checks the entry's state before whose it is, so a stranger is told "
    "the entry is not on the waiting list instead of being refused",
)
GAME_STATE_FIRST = (
    "events/play/services/results.py: confirm_result and dispute_result check the game's state before who asks, so "
    "someone who may not confirm or dispute it is told there is nothing to confirm or dispute instead of 403"
)
KNOWN: dict[tuple[str, str, str], tuple[str, str]] = {
    **{("events:play_lucky_draw", "post", role): LUCKY_DRAW for role in ("anonymous", "player", "teacher")},
    **{("events:leave_waitlist", "post", role): LEAVE_WAITLIST for role in ("teacher", "director")},
    ("events:play_confirm", "post", "teacher"): ("302", GAME_STATE_FIRST),
    **{
        ("events:play_dispute", "post", role): ("302", GAME_STATE_FIRST)
        for role in ("teacher", "organiser", "director", "staff")
    },
    **{("play-game-confirm", "post", role): ("400", GAME_STATE_FIRST) for role in ("player", "teacher")},
    **{
        ("play-game-dispute", "post", role): ("400", GAME_STATE_FIRST)
        for role in ("player", "teacher", "organiser", "director", "staff")
    },
}

ADMIN_MODEL_PAGE = re.compile(r"^admin/(\w+)/(\w+)/(?:<path:object_id>/)?(\w*)/?$")


def admin_row(name: str, route: str) -> dict | None:
    """The row of an admin page: its own (ADMIN_SITE), or its model's (ADMIN_MODELS); None when it has neither."""
    if name in ADMIN_SITE:
        return ADMIN_SITE[name]
    found = ADMIN_MODEL_PAGE.match(route)
    if not found:
        return None
    app_label, model, page = found.groups()
    if "<path:object_id>" in route and not page:
        page = ""  # an object's old address: forwarded to its change page
    elif not page:
        page = "changelist"
    rule = ADMIN_MODELS.get(f"{app_label}.{model}")
    if rule is None:
        return None
    others = ["login"] * (len(ROLES) - 1)
    post = ADMIN_WRITES[rule].get(page)
    return row(" ".join([*others, str(ADMIN_PAGES[rule][page])]), " ".join([*others, str(post)]) if post else None)


def rows() -> dict[str, tuple[str, dict | None]]:
    """Every URL pattern by name (the API's format suffixes share their route's name): (route, its row or None)."""
    found = {}
    for name, route, _pattern in site_world.url_patterns():
        if "(?P<format>" in route or "<drf_format_suffix:format>" in route:
            continue  # the same view as the route without the suffix
        entry = admin_row(name, route) if route.startswith("admin/") else MATRIX.get(name)
        found.setdefault(name, (route, entry))
    return found


def test_every_url_pattern_has_a_row():
    missing = sorted(name for name, (_route, entry) in rows().items() if entry is None)
    assert missing == [], "URL patterns without a row in tests/authorization_matrix.py: " + ", ".join(missing)
    unknown = sorted(set(MATRIX) - set(rows()))
    assert unknown == [], "rows for URL patterns the site no longer has: " + ", ".join(unknown)
    sizes = {
        len(entry[m])
        for entry in [*MATRIX.values(), *ADMIN_SITE.values()]
        for m in ("get", "post", "patch")
        if m in entry
    }
    assert sizes == {len(ROLES)}


def answer(response) -> str:
    if response.status_code in (301, 302):
        path = urlsplit(response["Location"]).path
        return "login" if path in (settings.LOGIN_URL, "/admin/login/") else "302"
    return str(response.status_code)


def value(world, text):
    """A body's value: "@name" is the world's object's primary key, "@name.attribute" its attribute."""
    if isinstance(text, list):
        return [value(world, item) for item in text]
    if not (isinstance(text, str) and text.startswith("@")):
        return text
    name, _, attribute = text[1:].partition(".")
    return getattr(world.objects[name], attribute or "pk")


def url_of(world, name: str, route: str) -> str | None:
    if route.startswith("admin/"):
        kwargs = site_world.admin_kwargs(name, route)
    elif route.startswith("api/") and site_world.route_parameters(route):
        kwargs = site_world.api_kwargs(world, name)
    else:
        kwargs = site_world.url_kwargs(world, name, route)
    return None if kwargs is None else site_world.url_for(name, route, kwargs)


def ask(client, method: str, url: str, body: dict | None, api: bool):
    with site_world.isolated(client):
        if method == "get":
            return client.get(url)
        if api:
            return getattr(client, method)(url, json.dumps(body or {}), content_type="application/json")
        return getattr(client, method)(url, body or {})


@pytest.mark.django_db
def test_the_site_answers_as_the_matrix_says(client):
    client.raise_request_exception = False
    world = site_world.build()
    started, asked = time.perf_counter(), 0
    wrong, known = [], {}
    urls = {name: (url_of(world, name, route), route, entry) for name, (route, entry) in rows().items() if entry}
    for role in ROLES:
        client.logout()
        if world.users[role] is not None:
            client.force_login(world.users[role])
        column = ROLES.index(role)
        for name, (url, route, entry) in urls.items():
            assert url is not None, f"{name}: the site world names nothing for its path"
            body = {k: value(world, v) for k, v in entry.get("body", {}).items()}
            for method in ("get", "post", "patch"):
                if method not in entry:
                    continue
                expected = entry[method][column]
                got = answer(ask(client, method, url, body if method != "get" else None, route.startswith("api/")))
                asked += 1
                if (name, method, role) in KNOWN:
                    known[(name, method, role)] = got
                elif got != expected:
                    wrong.append(f"{method.upper()} {url} ({name}) as {role}: {got}, should be {expected}")
    print(f"\nthe matrix: {len(urls)} URL patterns × {len(ROLES)} roles, {asked} requests, "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    assert wrong == [], f"{len(wrong)} answers are not the matrix's:\n" + "\n".join(wrong)
    changed = {key: (got, KNOWN[key][0]) for key, got in known.items() if got != KNOWN[key][0]}
    assert changed == {}, f"KNOWN answers that changed (fixed? take them off KNOWN): {changed}"
