"""A director imports a tsh file in the browser: upload, a preview that saves nothing, members chosen, confirm."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import EventStatus
from events.play.core import tsh
from events.play.models import Division, DivisionPlayer, Game
from players.models import Player
from tests.events.factories import EventFactory
from tests.factories import AssociationFactory, PlayerFactory, UserFactory

from .test_tsh_interchange import shared

pytestmark = pytest.mark.django_db
ANON = "e4c5_team_pairings_api_tests_anon1.t"


@pytest.fixture
def event(director):
    AssociationFactory()
    event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=6, rated=False)
    event.directors.add(director)
    return event


def upload(client, event, text: str, **extra):
    files = {"t_file": SimpleUploadedFile("a.t", text.encode())}
    return client.post(reverse("events:play_import_tsh", args=[event.slug]), {**files, **extra})


def test_the_preview_lists_each_player_with_its_line_and_saves_nothing(client, director, event):
    text = shared(ANON)
    client.force_login(director)
    players_before = Player.objects.count()
    response = upload(client, event, text, division_name="Open")
    assert response.status_code == 200
    preview = response.context["preview"]
    f = tsh.parse_t(text)
    assert [(r.number, r.line, r.name) for r in preview.rows] == [(p.number, p.number, p.name) for p in f.players]
    assert preview.rounds == 6 and preview.games == sum(1 for p in f.players for o in p.opponents if o > 0) // 2
    assert preview.new_players == 42
    assert "42 players, 6 rounds" in response.content.decode()
    assert not Division.objects.filter(event=event).exists()
    assert Player.objects.count() == players_before


def test_the_director_maps_players_to_members_and_the_import_is_what_tsh_holds(client, director, event):
    text = shared(ANON)
    f = tsh.parse_t(text)
    # Two members already hold the names of the file's players 1 and 3; a second "Randy Ross" makes player 2 a
    # choice between two members.
    cynthia = PlayerFactory(full_name="Cynthia Gonzalez")
    robert = PlayerFactory(full_name="Robert Stewart")
    randy_1, randy_2 = PlayerFactory(full_name="Randy Ross"), PlayerFactory(full_name="Randy Ross")
    client.force_login(director)
    preview_page = upload(client, event, text)
    rows = {r.number: r for r in preview_page.context["preview"].rows}
    assert rows[1].match == cynthia and rows[3].match == robert
    assert rows[2].match is None and {c.pk for c in rows[2].candidates} == {randy_1.pk, randy_2.pk}
    token = preview_page.context["token"]
    response = client.post(
        reverse("events:play_import_tsh", args=[event.slug]),
        {"token": token, "confirm": "1", "player_1": cynthia.pk, "player_2": randy_2.pk, "player_3": "new"},
    )
    division = Division.objects.get(event=event)
    assert response.status_code == 302 and response.url == reverse(
        "events:play_standings", args=[event.slug, division.pk]
    )
    seats = {s.number: s.player_id for s in DivisionPlayer.objects.filter(division=division)}
    assert seats[1] == cynthia.pk and seats[2] == randy_2.pk and seats[3] not in (robert.pk,)
    assert len(seats) == len(f.players)
    assert Game.objects.filter(division=division, player_b__isnull=False).count() == sum(
        1 for p in f.players for o in p.opponents if o > p.number
    )
    # The standings show every player, and the file's scores.
    standings = client.get(response.url)
    assert standings.status_code == 200 and "Cynthia Gonzalez" in standings.content.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("One, A 1500 2; 400\nTwo, B 1500 1; 300\nThree, C 1500 9; 350\n", "Line 3"),
        ("One, A 1500 2; 400\nTwo, B\x00 1500 1; 300\n", "Line 2"),
        ("One, A 1500 2; 400\nTwo, B 1500 1; 300 extra\n", "Line 2"),
    ],
)
def test_a_bad_file_is_refused_naming_its_line_and_nothing_is_saved(client, director, event, text, message):
    client.force_login(director)
    response = upload(client, event, text)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert any(message in e for e in errors.get("__all__", []) + errors.get("t_file", [])), errors
    assert not Division.objects.filter(event=event).exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(client, director, event):
    client.force_login(director)
    response = upload(client, event, "x" * (tsh.MAX_FILE_BYTES + 1))
    assert "over 2 MB" in str(response.context["form"].errors)


def test_only_the_event_s_directors_may_import(client, event):
    client.force_login(UserFactory())
    assert upload(client, event, "One, A 1500\n").status_code == 403
    assert client.get(reverse("events:play_import_tsh", args=[event.slug])).status_code == 403


def test_a_forgotten_upload_asks_for_the_files_again(client, director, event):
    client.force_login(director)
    response = client.post(reverse("events:play_import_tsh", args=[event.slug]), {"token": "nope", "confirm": "1"})
    assert response.status_code == 302
    assert not Division.objects.filter(event=event).exists()


def test_a_player_who_may_be_a_member_is_never_made_a_new_player_unasked(client, director, event):
    """The one matching rule: "Ross, Randy" may be either member of that name (or "Randy Ross" written the other
    way): the preview asks, and a confirmation that leaves the choice open is refused, saving nothing."""
    text = "Ross, Randy 1500 2; 400\nOther, Player 1500 1; 350\n"
    first, second = PlayerFactory(full_name="Randy Ross"), PlayerFactory(full_name="Ross Randy")
    client.force_login(director)
    page = upload(client, event, text)
    row = {r.number: r for r in page.context["preview"].rows}[1]
    assert row.match is None and [c.pk for c in row.candidates] == [first.pk, second.pk]
    html = page.content.decode()
    assert '<option value="" selected>May be a member: choose</option>' in html
    assert "A different person: a new player" in html
    url = reverse("events:play_import_tsh", args=[event.slug])
    token = page.context["token"]
    before = Player.objects.count()
    refused = client.post(url, {"token": token, "confirm": "1", "player_1": "", "player_2": "new"}, follow=True)
    assert "Choose the member, or a new player for a different person, for player 1 (Ross, Randy)." in (
        refused.content.decode()
    )
    assert not Division.objects.filter(event=event).exists() and Player.objects.count() == before
    done = client.post(url, {"token": token, "confirm": "1", "player_1": "new", "player_2": "new"})
    assert done.status_code == 302 and Player.objects.count() == before + 2  # a different person, said so


ARCHIVE = "liwords_wtf5-tsh.golden.tsh"


def test_a_division_of_a_tsh_archive_is_previewed_and_imported(client, director, event):
    text = shared(ARCHIVE)
    client.force_login(director)
    url = reverse("events:play_import_tsh", args=[event.slug])
    unnamed = client.post(url, {"archive_file": SimpleUploadedFile("event.tsh", text.encode())})
    assert "Name the division to import: the archive holds CSW, NWL." in str(unnamed.context["form"].errors)
    named = client.post(url, {"archive_file": SimpleUploadedFile("event.tsh", text.encode()), "division_name": "nwl"})
    preview = named.context["preview"]
    config_text, files = tsh.split_archive(text)
    expected = tsh.parse_t(files["NWL.t"])
    assert [r.name for r in preview.rows] == [p.name for p in expected.players]
    # Each player's line is the archive's own line.
    lines = text.splitlines()
    assert all(lines[r.line - 1].startswith(r.name) for r in preview.rows)
    choices = {f"player_{r.number}": "new" for r in preview.rows}
    done = client.post(url, {"token": named.context["token"], "confirm": "1", **choices})
    assert done.status_code == 302
    assert Division.objects.get(event=event).name == "NWL"
    assert DivisionPlayer.objects.filter(division__event=event).count() == len(expected.players)


def test_a_file_and_an_archive_together_are_refused(client, director, event):
    client.force_login(director)
    response = client.post(
        reverse("events:play_import_tsh", args=[event.slug]),
        {
            "t_file": SimpleUploadedFile("a.t", b"One, A 1500\n"),
            "archive_file": SimpleUploadedFile("x.tsh", b"# tsh archive file\n"),
        },
    )
    assert "Choose a .t file" in str(response.context["form"].errors)


def test_the_preview_counts_a_late_arrival_forfeit_as_the_late_player_s_not_as_a_bye(director, event):
    """A late-arrival forfeit goes to tsh as opponent 0 on both lines; the preview reads what the import makes of it."""
    from events.play import services as play
    from events.play.services import tsh_io
    from events.play.services.tsh_preview import preview_tsh

    source = tsh_io.import_tsh(director, "One, A 1500 2 0; 400 50\nTwo, B 1400 1 0; 300 50\n", event=event)
    game = Game.objects.get(division=source.division, round_number=1)
    play.set_unplayed(director, game, "late_forfeit", reason="Arrived 20 minutes late", forfeited_by="b")
    text = tsh_io.export_tsh(source.division)
    preview = preview_tsh(director, text, event=event, division_name="Again")
    rows = {r.number: r for r in preview.rows}
    assert (rows[1].games, rows[1].byes, rows[1].forfeits) == (0, 1, 0)  # round 2's bye; round 1 won by forfeit
    assert (rows[2].games, rows[2].byes, rows[2].forfeits) == (0, 1, 1)
    assert (preview.games, preview.byes, preview.forfeits) == (0, 2, 1)


def test_an_archive_of_thousands_of_tiny_blocks_is_refused_unread(client, director, event):
    client.force_login(director)
    blocks = "".join(f"#begin_file name=d{k}.t\nA, B 1500\n#end_file\n" for k in range(5000))
    response = client.post(
        reverse("events:play_import_tsh", args=[event.slug]),
        {"archive_file": SimpleUploadedFile("many.tsh", blocks.encode()), "division_name": "d1"},
    )
    assert "Line 301: more than 100 files in one archive" in str(response.context["form"].errors)


def test_importing_into_an_existing_event_makes_room_takes_missing_caps_and_adds_no_category(director, event):
    """Found walking the site: an 18-round division in a 5-game event showed "8 of 5 rounds", config.tsh's spread
    caps were dropped (standings not tsh's), and its prize lines made a new, enterable category."""
    from events.models import Category
    from events.play.services import tsh_io
    from tests.events.factories import CategoryFactory

    CategoryFactory(event=event, name="Open")
    event.number_of_games = 5
    event.save()
    config_text = shared("e4c5_team_pairings_tournament1_config.tsh")
    report = tsh_io.import_tsh(
        director, shared("e4c5_team_pairings_tournament1_a.t"), config_text=config_text, event=event
    )
    event.refresh_from_db()
    assert event.number_of_games == 18
    assert event.standings_spread_cap() == tsh.parse_config(config_text).spread_cap == (200,) + (700,) * 17
    assert list(Category.objects.filter(event=event).values_list("name", flat=True)) == ["Open"]
    notes = " ".join(report.notes)
    assert (
        "it now has 18" in notes and "caps the spread" in notes and "13 prize line(s) for a are not brought in" in notes
    )


def test_an_event_s_own_caps_are_kept_and_the_difference_noted(director, event):
    from events.play.services import tsh_io

    event.spread_cap = 300
    event.save()
    config_text = "division A a.t\nconfig spread_cap = 500\n"
    report = tsh_io.import_tsh(
        director, "One, A 1500 2; 400\nTwo, B 1500 1; 300\n", config_text=config_text, event=event
    )
    event.refresh_from_db()
    assert event.spread_cap == 300
    assert "config.tsh caps spread otherwise than the event does" in " ".join(report.notes)


# Four players, two rounds: Ann's 420 went down to 400 for 61 seconds over (the site's `played` and `overtime` fields),
# Cy was 2:05 over in round 2 (his overtime alone: 30 points off), and Di's line carries tsh's own penalty field.
PENALTIES = (
    "Able, Ann 1500 2 3; 400 380; overtime 61; played 420\n"
    "Bold, Bea 1500 1 4; 380 410\n"
    "Calm, Cy 1500 4 1; 350 395; overtime 0 125\n"
    "Deft, Di 1500 3 2; 360 300; penalty 0 -10\n"
)


def test_the_preview_shows_each_player_s_penalties_and_counts_them_saving_nothing(client, director, event):
    from events.play.services.tsh_preview import PreviewPenalty

    client.force_login(director)
    players, games = Player.objects.count(), Game.objects.count()
    response = upload(client, event, PENALTIES)
    assert response.status_code == 200
    preview = response.context["preview"]
    assert {r.number: r.penalties for r in preview.rows} == {
        1: [PreviewPenalty(round=1, points=20, overtime=61)],
        2: [],
        3: [PreviewPenalty(round=2, points=30, overtime=125)],
        4: [PreviewPenalty(round=2, points=-10, counted=False)],
    }
    assert (preview.penalties, preview.time_penalties, preview.tsh_penalties) == (3, 2, 1)
    html = " ".join(response.content.decode().split())
    assert "0 forfeits, 3 penalties (2 for time, 1 in tsh’s penalty field)." in html
    assert "Round 1: −20 for time (1:01 over)" in html and "Round 2: −30 for time (2:05 over)" in html
    assert "Round 2: -10 in tsh’s penalty field, not counted" in html
    assert not Division.objects.filter(event=event).exists()
    assert (Player.objects.count(), Game.objects.count()) == (players, games)


def test_a_file_without_penalties_says_so(client, director, event):
    client.force_login(director)
    response = upload(client, event, "One, A 1500 2; 400\nTwo, B 1500 1; 300\n")
    assert response.context["preview"].penalties == 0
    assert "0 forfeits, 0 penalties." in " ".join(response.content.decode().split())
