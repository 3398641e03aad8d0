"""The tsh import through the API: preview, choices by member number, import; refusals name the field and line."""

import pytest
from django.urls import reverse

from events.play.core import tsh
from events.play.models import Division, DivisionPlayer
from players.models import Player
from tests.factories import PlayerFactory, UserFactory

from .test_tsh_import_pages import ANON, ARCHIVE, event  # noqa: F401 (the fixture)
from .test_tsh_interchange import shared

pytestmark = pytest.mark.django_db
URL = reverse("play-tsh-import-list")


def test_preview_then_import_with_a_member_chosen_by_number(client, director, event):  # noqa: F811
    text = shared(ANON)
    cynthia, other = PlayerFactory(full_name="Cynthia Gonzalez"), PlayerFactory(full_name="Cynthia Gonzalez")
    client.force_login(director)
    players_before = Player.objects.count()
    preview = client.post(URL, {"event": event.slug, "file": text, "division": "Open"}, content_type="application/json")
    assert preview.status_code == 200
    body = preview.json()
    assert body["division"] == "Open" and body["rounds"] == 6 and len(body["players"]) == 42
    first = body["players"][0]
    assert first["line"] == 1 and first["match"] is None
    assert {c["member_number"] for c in first["candidates"]} == {cynthia.member_number, other.member_number}
    assert Player.objects.count() == players_before and not Division.objects.filter(event=event).exists()

    # Without a choice for the player who may be a member, the import is refused and nothing is saved.
    refused = client.post(URL, {"event": event.slug, "file": text, "confirm": True}, content_type="application/json")
    assert refused.status_code == 400 and "player 1" in str(refused.json()).lower()
    assert not Division.objects.filter(event=event).exists()

    done = client.post(
        URL,
        {
            "event": event.slug,
            "file": text,
            "division": "Open",
            "confirm": True,
            "choices": {"1": cynthia.member_number},
        },
        content_type="application/json",
    )
    assert done.status_code == 201, done.json()
    division = Division.objects.get(event=event, name="Open")
    assert done.json()["division"] == division.pk and cynthia.member_number in done.json()["matched"]
    assert DivisionPlayer.objects.get(division=division, number=1).player == cynthia


def test_a_bad_line_is_a_400_naming_the_file_and_its_line(client, director, event):  # noqa: F811
    client.force_login(director)
    response = client.post(
        URL, {"event": event.slug, "file": "One, A 1500 2; 400\nTwo, B 1500 1; x\n"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "Line 2" in " ".join(response.json()["file"])


def test_an_archive_s_division_and_the_archive_s_refusals(client, director, event):  # noqa: F811
    client.force_login(director)
    text = shared(ARCHIVE)
    unnamed = client.post(URL, {"event": event.slug, "archive": text}, content_type="application/json")
    assert unnamed.status_code == 400 and "CSW, NWL" in " ".join(unnamed.json()["division"])
    named = client.post(URL, {"event": event.slug, "archive": text, "division": "CSW"}, content_type="application/json")
    _, files = tsh.split_archive(text)
    assert [p["name"] for p in named.json()["players"]] == [p.name for p in tsh.parse_t(files["CSW.t"]).players]


def test_only_the_event_s_directors_may_import(client, event):  # noqa: F811
    client.force_login(UserFactory())
    response = client.post(URL, {"event": event.slug, "file": "One, A 1500\n"}, content_type="application/json")
    assert response.status_code == 403
    assert client.post(URL, {"event": event.slug, "file": "x"}, content_type="application/json").status_code == 403
    client.logout()
    assert client.post(URL, {"event": event.slug, "file": "x"}, content_type="application/json").status_code in (
        401,
        403,
    )


def test_the_admin_s_event_page_leads_to_the_same_import(client, event):  # noqa: F811
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get(reverse("admin:events_event_change", args=[event.pk]))
    assert page.status_code == 200
    assert reverse("events:play_import_tsh", args=[event.slug]) in page.content.decode()
    assert client.get(reverse("events:play_import_tsh", args=[event.slug])).status_code == 200


def test_the_preview_lists_each_player_s_penalties_and_saves_nothing(client, director, event):  # noqa: F811
    from .test_tsh_import_pages import PENALTIES

    client.force_login(director)
    players = Player.objects.count()
    response = client.post(URL, {"event": event.slug, "file": PENALTIES}, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    assert (body["penalties"], body["time_penalties"]) == (3, 2)
    assert {p["number"]: p["penalties"] for p in body["players"]} == {
        1: [{"round": 1, "points": 20, "kind": "time", "overtime": 61}],
        2: [],
        3: [{"round": 2, "points": 30, "kind": "time", "overtime": 125}],
        4: [{"round": 2, "points": -10, "kind": "tsh", "overtime": 0}],
    }
    assert Player.objects.count() == players and not Division.objects.filter(event=event).exists()
