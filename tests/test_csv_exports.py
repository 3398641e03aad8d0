"""Every CSV download goes through clubsite.kit.csv.csv_response, which makes every cell formula-safe: text a
person typed (a display name, a school) never runs as a formula in the spreadsheet that opens it."""

import csv
import inspect
import io
import re
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubsite.kit.csv import csv_response, safe_cell
from tests.factories import PlayerFactory
from tests.ratings.factories import RatingListFactory, seed

ROOT = Path(__file__).resolve().parents[1]
APPS = ("clubsite", "outbox", "money", "players", "events", "ratings", "wordjudge")
# The CSV downloads there are, by URL name: a new one is added here once it goes through csv_response.
CSV_VIEWS = {"events:export", "money:treasurer_csv", "ratings:list_csv"}


def _views(patterns, namespace=""):
    """(URL name, view function) for every URL the site serves."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _views(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            callback = pattern.callback
            view = getattr(callback, "view_class", None) or getattr(callback, "cls", None) or callback
            yield f"{namespace}{pattern.name or ''}", inspect.unwrap(view)


def _source(view) -> str:
    try:
        return inspect.getsource(view)
    except (OSError, TypeError):
        return ""


def test_no_module_but_the_toolkit_writes_a_csv_response_of_its_own():
    written = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and path != ROOT / "clubsite/kit/csv.py" and "text/csv" in path.read_text()
    ]
    assert written == []


def test_no_module_but_the_toolkit_writes_csv():
    """Commands that print CSV (standings, tsh_rate, reconcile_payments) write it with write_csv, every cell safe as
    in a download: the file is as likely to be opened in a spreadsheet."""
    writers = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if path != ROOT / "clubsite/kit/csv.py" and re.search(r"csv\.writer\(|DictWriter\(", path.read_text())
    ]
    assert writers == []


@pytest.mark.django_db
def test_every_csv_the_site_answers_comes_from_a_listed_view(client):
    """Every URL of the site, asked by the people who see the most (staff; the organiser of the events), answers CSV
    only from a listed view, and that CSV has the helper's marks (formula-safe cells, kept by no cache)."""
    from tests import site_world

    world = site_world.build()
    answered = set()
    for role in ("staff", "organiser"):
        client.force_login(world.users[role])
        for name, route, _pattern in site_world.url_patterns():
            if route.startswith(("admin/", "api/")):
                continue
            kwargs = site_world.url_kwargs(world, name, route)
            with site_world.isolated(client):
                response = client.get(site_world.url_for(name, route, kwargs))
            if "csv" in response.get("Content-Type", "") or ".csv" in response.get("Content-Disposition", ""):
                answered.add(name)
                assert "no-store" in response["Cache-Control"], name
    assert answered == CSV_VIEWS


@pytest.mark.django_db
def test_a_name_that_is_a_formula_is_plain_text_in_a_commands_csv():
    from django.core.management import call_command

    from events.play.models import DivisionPlayer
    from tests.events.factories import EventFactory
    from tests.factories import PlayerFactory

    event = EventFactory(status="in_progress")
    division = event.divisions.create(name="A")
    DivisionPlayer.objects.create(division=division, player=PlayerFactory(full_name="=HYPERLINK(1)"), number=1)
    out = io.StringIO()
    call_command("standings", event.slug, stdout=out)
    (row,) = csv.DictReader(io.StringIO(out.getvalue()))
    assert row["name"] == "'=HYPERLINK(1)"


def test_every_view_answering_with_a_csv_goes_through_the_one_helper():
    through_helper = {name for name, view in _views(get_resolver().url_patterns) if "csv_response(" in _source(view)}
    assert through_helper == CSV_VIEWS
    csv_named = {name for name, _ in _views(get_resolver().url_patterns) if "csv" in name.lower()}
    assert csv_named <= CSV_VIEWS


def test_the_helper_makes_every_formula_plain_text_and_leaves_numbers_alone():
    starts = ["=1+1", "+A1", "-2+3", "+1 School", "@SUM(A1)", "\tx", "\rx"]
    response = csv_response("x.csv", [["name", "amount"], *[[text, -1.5] for text in starts]])
    assert response["Content-Type"].startswith("text/csv") and 'filename="x.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert [row[0] for row in rows[1:]] == ["'" + text for text in starts]
    assert {row[1] for row in rows[1:]} == {"-1.5"}
    assert safe_cell("Tan Ah Kow") == "Tan Ah Kow" and safe_cell(3) == 3
    # A phone number or a signed number computes nothing: written as typed.
    assert safe_cell("+65 9123 4567") == "+65 9123 4567" and safe_cell("-5") == "-5"


@pytest.mark.django_db
def test_a_display_name_that_is_a_formula_is_plain_text_in_the_rating_list_csv(client):
    rating_list = RatingListFactory()
    seed(rating_list, PlayerFactory(full_name="Ng Bee", display_name="=cmd|' /C calc'!A0"), 1700)
    response = client.get(reverse("ratings:list_csv", args=[rating_list.slug]), {"all": "on"})
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    assert row["name"] == "'=cmd|' /C calc'!A0"
