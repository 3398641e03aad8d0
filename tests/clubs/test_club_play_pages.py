"""The pages of club play: a night's games, entering a table, the ladder, the member's page, a club tournament drafted
by the club director; their queries do not grow with the data, and their forms answer whatever is typed."""

import pytest
from django.urls import reverse
from hypothesis import given

from clubs.play_forms import GameForm, TableForm
from clubs.services import play
from events.models import Event, EventKind
from events.permissions import can_direct_event
from tests.clubs.play_helpers import club_director, club_night, member
from tests.factories import ClubFactory
from tests.test_form_fuzz import FUZZ, form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    club = ClubFactory(name="Tel Aviv Scrabble Club", slug="tel-aviv")
    people = [member(club, name) for name in ("Ann Lee", "Bob Tan", "Cy Ng", "Di Wu")]
    night = club_night(club, players=people)
    night.people = people
    night.director = club_director(club)
    return night


def _play(night, rounds: int):
    ann, bob, cy, di = night.people
    for _ in range(rounds):
        play.submit_game(night.director, night, ann, bob, 400, 350)
        play.submit_game(cy.user, night, cy, di, 300, 320)
        play.enter_table(
            night.director, night, [play.TableRow(p, "", 300 + 10 * n, n) for n, p in enumerate(night.people)]
        )


def test_the_night_and_the_ladder_read_a_fixed_number_of_queries(client, night, django_assert_max_num_queries):
    client.force_login(night.people[0].user)
    pages = [
        reverse("clubs:night_play", args=[night.club.slug, night.pk]),
        reverse("clubs:ladder", args=[night.club.slug]),
        reverse("players:detail", args=[night.people[0].member_number]),
    ]
    _play(night, 1)
    counts = []
    for url in pages:
        with django_assert_max_num_queries(40) as few:
            assert client.get(url).status_code == 200
        counts.append(len(few.captured_queries))
    _play(night, 3)
    for url, count in zip(pages, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client.get(url).status_code == 200


def test_the_director_enters_a_table_and_a_refusal_is_shown_beside_its_row(client, night):
    client.force_login(night.director)
    url = reverse("clubs:table_new", args=[night.club.slug, night.pk])
    ann, bob = night.people[:2]
    data = {"player_1": ann.pk, "score_before_1": 300, "tiles_left_1": 3, "player_2": bob.pk, "score_before_2": 280}
    page = client.post(url, {**data, "went_out": ann.pk})
    assert "their tiles left must be 0" in page.context["form"].errors["tiles_left_1"][0]
    assert client.post(url, {**data, "tiles_left_1": 0, "went_out": ann.pk}).status_code == 302
    seats = night.tables.get().seats.order_by("place")
    assert [(s.player, s.final) for s in seats] == [(ann, 300), (bob, 280)]


def test_a_member_entering_two_other_players_game_is_told_on_the_form(client, night):
    ann, bob, cy = night.people[:3]
    client.force_login(ann.user)
    url = reverse("clubs:night_play", args=[night.club.slug, night.pk])
    page = client.post(url, {"player_a": bob.pk, "player_b": cy.pk, "score_a": 400, "score_b": 350})
    assert page.status_code == 200
    assert "You can only submit a game you played" in page.context["form"].errors["player_a"][0]
    assert not night.games.exists()


def test_the_table_sheet_has_a_print_button_and_a_way_back_that_do_not_print(client, night):
    page = client.get(reverse("clubs:table_sheet", args=[night.club.slug, night.pk])).content.decode()
    bar = page[page.index('<div class="d-print-none') : page.index("<h1")]
    assert "data-print>Print</button>" in bar
    assert f'href="{reverse("clubs:night_play", args=[night.club.slug, night.pk])}"' in bar


def test_the_member_page_shows_the_ladder_and_club_rating(client, night):
    _play(night, 1)
    html = client.get(reverse("players:detail", args=[night.people[0].member_number])).content.decode()
    assert "Club ladder:" in html and "Club rating:" in html


def test_a_club_director_drafts_a_members_only_club_tournament_and_directs_it(client, night):
    client.force_login(night.director)
    url = reverse("clubs:tournament_new", args=[night.club.slug])
    response = client.post(url, {"title": "Club Cup", "starts_on": "2030-03-05", "club_members_only": "on"})
    event = Event.objects.get(title="Club Cup")
    assert response["Location"] == reverse("events:edit", args=[event.slug])
    assert (event.club, event.kind, event.club_members_only, event.owner) == (
        night.club,
        EventKind.CLUB,
        True,
        night.director,
    )
    assert can_direct_event(night.director, event)
    client.force_login(night.people[0].user)
    assert client.get(url).status_code == 403
    other = ClubFactory()
    client.force_login(night.director)
    assert client.get(reverse("clubs:tournament_new", args=[other.slug])).status_code == 403


@FUZZ
@given(data=form_data(["player_a", "player_b", "score_a", "score_b", "first", "ahead_before_tiles", "confirm_unusual"]))
def test_the_game_form_answers_whatever_is_typed(data):
    form = GameForm(data)
    form.is_valid()


@FUZZ
@given(data=form_data([f"{f}_{n}" for n in range(1, 5) for f in ("player", "drawn", "score_before", "tiles_left")]))
def test_the_table_form_answers_whatever_is_typed(data):
    form = TableForm(data)
    if form.is_valid():
        assert all(len(form.cleaned_data[f"drawn_{n}"]) <= 10 for n in range(1, 5))


def test_the_demo_clubs_have_games_tables_a_ladder_and_club_ratings(client):
    import io

    from django.apps import apps

    from clubs.models import ClubGame, ClubRating, ClubTable
    from players import demo as members_demo
    from players.models import Club

    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("clubs").load_demo(out)
    for club in Club.objects.filter(slug__in=["toa-payoh", "jurong-green"]):
        assert ClubGame.objects.filter(night__club=club).count() > 10
        assert ClubRating.objects.filter(club=club).count() > 3
        page = client.get(reverse("clubs:detail", args=[club.slug]))
        assert "Ladder" in page.text and page.context["club_ladder_top"]
    assert ClubTable.objects.exists()
    assert "Club play:" in out.getvalue()
