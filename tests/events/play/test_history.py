"""A player's games across events: the list, head to head and records (events.play.services.history)."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.play.models import Game, GameKind, GameStatus, Round, RoundStatus
from ratings.models import RatingChange
from tests.events.play.history_helpers import played_event
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    return PlayerFactory(full_name="Ann Tan")


@pytest.fixture
def ben():
    return PlayerFactory(full_name="Ben Lim")


@pytest.fixture
def cy():
    return PlayerFactory(full_name="Cy Ong")


def games_url(player, **query):
    url = reverse("history:games", args=[player.member_number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_game_list_shows_each_game_from_the_players_side(client, ann, ben, cy):
    event = played_event(ann, [(ben, 450, 380), (cy, 350, 420)], title="Spring Open", starts_on=date(2024, 3, 2))
    page = client.get(games_url(ann)).content.decode()
    assert "2 games" in page
    # Each row links its event and its game's own page.
    assert f'<a href="{event.get_absolute_url()}">Spring Open</a>' in page
    for game in Game.objects.filter(division__event=event):
        assert f'<a href="{reverse("events:play_game", args=[event.slug, game.pk])}">' in page
    assert "Spring Open" in page
    assert "450–380" in page and "+70" in page and "Win" in page
    assert "350–420" in page and "-70" in page and "Loss" in page
    # Each game names its opponent, whichever side of the board the player sat, with a link to head to head.
    for opponent in (ben, cy):
        assert "Head to head with " + opponent.name in page
        assert reverse("history:versus", args=[ann.member_number, opponent.member_number]) in page
    assert "Head to head with Ann Tan" not in page
    # Seen from Ben's side the same game is his loss.
    page = client.get(games_url(ben)).content.decode()
    assert "380–450" in page and "-70" in page and "Loss" in page
    assert "Head to head with Ann Tan" in page


def test_the_game_list_escapes_every_name_and_title(client, ann):
    odd = PlayerFactory(full_name="Bo <b>O'Neil</b>", listed_in_directory=True)
    played_event(ann, [(odd, 400, 400)], title="Cup & <i>Plate</i>", lexicon="<CSW>")
    page = client.get(games_url(ann)).content.decode()
    assert "<b>O" not in page and "<i>Plate" not in page and "<CSW>" not in page
    assert "Bo &lt;b&gt;O&#x27;Neil&lt;/b&gt;" in page
    assert "Cup &amp; &lt;i&gt;Plate&lt;/i&gt;" in page and "&lt;CSW&gt;" in page
    assert "Tie" in page and "400–400" in page


def test_only_confirmed_games_of_published_rounds_are_listed(client, ann, ben, cy):
    event = played_event(ann, [(ben, 400, 300), (cy, 410, 310), (ben, 420, 320)])
    Game.objects.filter(division__event=event, round_number=2).update(status=GameStatus.SUBMITTED)
    Round.objects.filter(division__event=event, number=3).update(status=RoundStatus.DRAFT)
    division = event.divisions.get()
    rnd = Round.objects.create(division=division, number=4, status=RoundStatus.COMPLETE)
    Game.objects.create(
        division=division, round=rnd, round_number=4, kind=GameKind.BYE, status=GameStatus.CONFIRMED, player_a=ann
    )
    page = client.get(games_url(ann)).content.decode()
    assert "1 game" in page and "400–300" in page
    assert "410–310" not in page and "420–320" not in page


def test_filters_by_year_lexicon_opponent_and_result(client, ann, ben, cy):
    played_event(ann, [(ben, 400, 300), (cy, 300, 400)], starts_on=date(2023, 6, 1), lexicon="NWL")
    played_event(ann, [(ben, 401, 301), (cy, 350, 350)], starts_on=date(2024, 6, 1), lexicon="CSW")

    def shown(**query):
        content = client.get(games_url(ann, **query)).content.decode()
        return sorted(s for s in ("400–300", "300–400", "401–301", "350–350") if s in content)

    assert shown(year=2023) == ["300–400", "400–300"]
    assert shown(lexicon="CSW") == ["350–350", "401–301"]
    assert shown(opponent="lim") == ["400–300", "401–301"]
    assert shown(result="L") == ["300–400"]
    assert shown(result="T") == ["350–350"]
    assert shown(year=2024, result="W") == ["401–301"]
    # A year the player has no games in is not a choice: the filter is ignored, not an error.
    assert len(shown(year=1999)) == 4


def test_a_level_game_decided_by_the_score_before_tiles_counts_as_decided(client, ann, ben):
    played_event(ann, [(ben, 400, 400, {"ahead_before_tiles": "a"})])
    assert "Win" in client.get(games_url(ann)).content.decode()
    assert "Loss" in client.get(games_url(ben)).content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_game_list_takes_the_same_queries_for_5_and_200_games(client, ann):
    opponents = [PlayerFactory() for _ in range(20)]
    played_event(ann, [(opponents[i % 20], 400, 300 + i) for i in range(5)])
    few = _queries(client, games_url(ann))
    other = PlayerFactory()
    for chunk in range(8):  # 200 games over 8 events
        played_event(
            other, [(opponents[(chunk + i) % 20], 380, 300 + i) for i in range(25)], starts_on=date(2020 + chunk, 1, 5)
        )
    many = _queries(client, games_url(other))
    assert few == many <= 4  # the player, the filters' choices with the count, the page, its opponents
    assert "200 games" in client.get(games_url(other)).content.decode()
    # Filtered and on a later page, one more (the filtered games are counted), whatever the number of games.
    assert _queries(client, games_url(other, page=3, result="W", opponent="Player")) == many + 1
    assert _queries(client, games_url(ann, page=3, result="W", opponent="Player")) == many + 1
    assert "25 games match" in client.get(games_url(other, year=2021)).content.decode()
    assert _queries(client, reverse("history:records", args=[other.member_number])) == _queries(
        client, reverse("history:records", args=[ann.member_number])
    )


def test_the_list_is_paged_50_games_a_page(client, ann):
    opponents = [PlayerFactory() for _ in range(10)]
    played_event(ann, [(opponents[i % 10], 400 + i, 300) for i in range(60)])
    first = client.get(games_url(ann)).content.decode()
    assert "Page 1 of 2" in first and first.count("<tr>") == 1 + 50
    assert client.get(games_url(ann, page=2)).content.decode().count("<tr>") == 1 + 10


def test_hidden_members_pages_are_missing_and_their_names_are_not_links(client, ann, ben):
    played_event(ann, [(ben, 400, 300)])
    ben.listed_in_directory = False
    ben.save()
    for name in ("games", "head_to_head", "records"):
        assert client.get(reverse(f"history:{name}", args=[ben.member_number])).status_code == 404
    assert client.get(reverse("history:versus", args=[ann.member_number, ben.member_number])).status_code == 404
    page = client.get(games_url(ann)).content.decode()
    assert "Ben Lim" in page  # results are the public record
    assert reverse("history:versus", args=[ann.member_number, ben.member_number]) not in page
    # Not offered as an opponent either; Ben himself sees his own pages.
    assert "Ben Lim" not in client.get(reverse("history:head_to_head", args=[ann.member_number])).content.decode()
    ben.user = UserFactory()
    ben.save()
    client.force_login(ben.user)
    assert client.get(reverse("history:games", args=[ben.member_number])).status_code == 200


def test_head_to_head_record_and_game_by_game(client, ann, ben, cy):
    played_event(ann, [(ben, 400, 300), (ben, 300, 420), (cy, 500, 200)], starts_on=date(2023, 1, 7))
    played_event(ann, [(ben, 410, 350), (ben, 380, 380)], starts_on=date(2024, 1, 7))
    url = reverse("history:head_to_head", args=[ann.member_number])
    page = client.get(url).content.decode()
    assert f'<option value="{ben.member_number}">Ben Lim</option>' in page
    response = client.get(url, {"opponent": ben.member_number})
    versus = reverse("history:versus", args=[ann.member_number, ben.member_number])
    assert response.status_code == 302 and response.url == versus
    assert client.get(url, {"name": "lim"}).url == versus
    response = client.get(versus)
    assert response.context["summary"].spread == 100 - 120 + 60 + 0
    page = response.content.decode()
    assert "2–1–1" in page and "+40" in page
    assert "372.5" in page  # (400 + 300 + 410 + 380) / 4
    assert "362.5" in page  # (300 + 420 + 350 + 380) / 4
    assert "500–200" not in page
    assert page.count("<tr>") == 1 + 4
    other_side = client.get(reverse("history:versus", args=[ben.member_number, ann.member_number])).content.decode()
    assert "1–2–1" in other_side


def test_head_to_head_name_search_with_several_or_no_matches(client, ann, ben, cy):
    bea = PlayerFactory(full_name="Bea Lim")
    played_event(ann, [(ben, 400, 300), (bea, 400, 300), (cy, 400, 300)])
    url = reverse("history:head_to_head", args=[ann.member_number])
    page = client.get(url, {"name": "lim"}).content.decode()
    assert "Ben Lim" in page and "Bea Lim" in page and "Opponents whose name matches" in page
    assert "opponents listed in the directory has that name" in client.get(url, {"name": "zed"}).content.decode()


def test_records_by_year_and_lexicon_with_rating_peaks(client, ann, ben, cy):
    first = played_event(ann, [(ben, 400, 300), (cy, 380, 420)], starts_on=date(2023, 5, 1), lexicon="NWL")
    second = played_event(
        ann, [(ben, 520, 300), (cy, 410, 430), (ben, 350, 350)], starts_on=date(2024, 5, 1), lexicon="CSW"
    )
    rating_list = RatingListFactory(name="SA Ratings")
    for event, pre, post in ((first, 1500, 1540), (second, 1540, 1610)):
        RatingChange.objects.create(
            rating_list=rating_list,
            division=event.divisions.get(),
            player=ann,
            event_date=event.starts_on,
            pre=pre,
            post=post,
            career_games=10,
            games=2,
            actual=1,
        )
    from events.play.services import history

    records = history.records(ann)
    overall = records.overall
    assert (overall.games, overall.wins, overall.losses, overall.ties) == (5, 2, 2, 1)
    assert overall.high_game == 520 and overall.high_loss == 410
    assert overall.win_percentage == 50.0
    assert overall.spread == 100 - 40 + 220 - 20 + 0
    assert overall.rating_peak == 1610
    assert [(r.label, r.games, r.high_loss, r.rating_peak) for r in records.by_year] == [
        ("2024", 3, 410, 1610),
        ("2023", 2, 380, 1540),
    ]
    assert [(r.label, r.high_game) for r in records.by_lexicon] == [("CSW", 520), ("NWL", 400)]
    assert records.by_lexicon[0].average_score == pytest.approx((520 + 410 + 350) / 3)
    page = client.get(reverse("history:records", args=[ann.member_number])).content.decode()
    assert "Rating peak, SA Ratings" in page and "1610" in page


def test_records_add_up_years_across_lexicons_and_lexicons_across_years(client, ann, ben, cy):
    played_event(ann, [(ben, 400, 300), (cy, 380, 420)], starts_on=date(2023, 5, 1), lexicon="NWL")
    played_event(ann, [(ben, 500, 301)], starts_on=date(2023, 9, 1), lexicon="CSW")
    played_event(ann, [(cy, 350, 350), (ben, 330, 331)], starts_on=date(2024, 5, 1), lexicon="CSW")
    from events.play.services import history

    with CaptureQueriesContext(connection) as queries:
        records = history.records(ann)
    assert len(queries) == 4  # the games once, grouped; three kinds of rating peak
    overall = records.overall
    assert (overall.games, overall.record, overall.high_game, overall.high_loss) == (5, "2–2–1", 500, 380)
    assert overall.spread == 100 - 40 + 199 + 0 - 1
    assert overall.average_score == pytest.approx((400 + 380 + 500 + 350 + 330) / 5)
    assert overall.average_opponent_score == pytest.approx((300 + 420 + 301 + 350 + 331) / 5)
    by_year = {r.label: r for r in records.by_year}
    assert list(by_year) == ["2024", "2023"]
    assert (by_year["2023"].games, by_year["2023"].record, by_year["2023"].high_loss) == (3, "2–1", 380)
    assert by_year["2023"].average_score == pytest.approx((400 + 380 + 500) / 3)
    assert (by_year["2024"].games, by_year["2024"].record, by_year["2024"].spread) == (2, "0–1–1", -1)
    by_lexicon = {r.label: r for r in records.by_lexicon}
    assert list(by_lexicon) == ["CSW", "NWL"]
    assert (by_lexicon["CSW"].games, by_lexicon["CSW"].high_game, by_lexicon["CSW"].high_loss) == (3, 500, 330)
    assert by_lexicon["CSW"].win_percentage == pytest.approx(100 * 1.5 / 3)
    assert by_lexicon["NWL"].average_opponent_score == pytest.approx((300 + 420) / 2)
    # No games at all: an empty summary, not an error.
    empty = history.records(PlayerFactory()).overall
    assert (empty.games, empty.high_game, empty.average_score, empty.spread) == (0, None, None, None)


def test_the_player_page_links_to_the_games(client, ann):
    page = client.get(reverse("players:detail", args=[ann.member_number])).content.decode()
    assert reverse("history:games", args=[ann.member_number]) in page
    assert reverse("history:head_to_head", args=[ann.member_number]) in page
