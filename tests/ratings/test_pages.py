"""Public rating pages: the list, CSV, monthly lists, a player's history and chart, event reports."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Player
from ratings import services
from ratings.models import PlayerRating, RatingChange
from tests.factories import ClubFactory, PlayerFactory, UserFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = pytest.mark.django_db


def rated_list(size: int = 8, events: int = 2, club=None):
    """A list with `size` seeded players who played `events` rated round robins."""
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(size, club=club)
    for i, p in enumerate(players):
        seed(rating_list, p, 2000 - 50 * i, games=60)
    for n in range(events):
        event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(30 * (events - n)))
        play(event, round_robin(players, upsets={(0, size - 1)} if n else set()))
        services.rate_event(event)
    return rating_list, players


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def test_rating_list_shows_rank_name_club_rating_and_games(client):
    club = ClubFactory(name="Jurong Green")
    rating_list, players = rated_list(club=club)
    top = PlayerRating.objects.filter(rating_list=rating_list).order_by("-rating").select_related("player").first()

    response = client.get(reverse("ratings:list"))

    rows = list(response.context["page"])
    assert [r.rank for r in rows] == list(range(1, 9))
    assert rows[0].player == top.player and rows[0].rating == top.rating
    html = response.content.decode()
    assert top.player.name in html and "Jurong Green" in html and str(top.games) in html


def test_only_active_players_are_listed_by_default(client):
    rating_list, players = rated_list(size=4, events=1)
    dormant = PlayerFactory(full_name="Dormant Dan")
    seed(rating_list, dormant, 2500)  # seeded, never played on the list
    old = PlayerFactory(full_name="Old Olga")
    PlayerRating.objects.create(rating_list=rating_list, player=old, rating=1900, games=200, last_played=days_ago(400))

    default = client.get(reverse("ratings:list_detail", args=[rating_list.slug]))
    everyone = client.get(reverse("ratings:list_detail", args=[rating_list.slug]), {"all": "on"})

    names = [r.player.name for r in default.context["page"]]
    assert "Dormant Dan" not in names and "Old Olga" not in names and len(names) == 4
    all_names = [r.player.name for r in everyone.context["page"]]
    assert all_names[0] == "Dormant Dan" and "Old Olga" in all_names
    assert everyone.context["page"][0].rank == 1


def test_search_and_filters_keep_the_players_rank(client):
    rating_list, players = rated_list(size=6, events=1)
    club = ClubFactory()
    target = Player.objects.get(pk=players[3].pk)
    target.full_name, target.club, target.country = "Zed Quinlan", club, "MY"
    target.save()
    rank = next(
        r.rank
        for r in services.rank_players(rating_list, services.rated_players(rating_list))
        if r.player_id == target.pk
    )

    for params in ({"q": "quinlan"}, {"club": club.slug}, {"country": "MY"}):
        response = client.get(reverse("ratings:list_detail", args=[rating_list.slug]), params)
        rows = list(response.context["page"])
        assert [(r.player_id, r.rank) for r in rows] == [(target.pk, rank)], params


def test_the_list_is_paginated(client):
    rating_list, players = rated_list(size=4, events=1)
    extra = PlayerFactory.create_batch(60)
    PlayerRating.objects.bulk_create(
        PlayerRating(rating_list=rating_list, player=p, rating=1000 + i, games=30, last_played=days_ago(5))
        for i, p in enumerate(extra)
    )
    first = client.get(reverse("ratings:list"))
    second = client.get(reverse("ratings:list"), {"page": 2})
    assert len(first.context["page"]) == 50
    assert len(second.context["page"]) == 14
    assert second.context["page"][0].rank == 51
    assert "page=2" in first.content.decode()


def test_pages_read_by_rating_band_follow_the_whole_order(client):
    """Players level on rating straddle page boundaries; every page is the matching slice of the full order,
    with the same ranks, on the page and through the API."""
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(130)
    PlayerRating.objects.bulk_create(
        PlayerRating(rating_list=rating_list, player=p, rating=1500 + 10 * (i // 7), games=30, last_played=days_ago(5))
        for i, p in enumerate(players)
    )
    whole = services.rank_players(rating_list, services.rated_players(rating_list))
    expected = [(r.player_id, r.rank) for r in whole]

    shown = []
    for number in (1, 2, 3):
        response = client.get(reverse("ratings:list_detail", args=[rating_list.slug]), {"page": number})
        shown += [(r.player_id, r.rank) for r in response.context["page"]]
    assert shown == expected
    assert response.context["page"].paginator.count == 130

    api = []
    for number in (1, 2, 3):
        data = client.get("/api/ratings/", {"list": rating_list.slug, "page": number}).json()
        api += [row["rank"] for row in data["results"]]
    assert api == [rank for _pid, rank in expected] and data["count"] == 130


def test_a_page_of_a_search_is_read_by_rating_band_too(client):
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(60)
    for i, p in enumerate(players):
        Player.objects.filter(pk=p.pk).update(full_name=f"{'Tan' if i % 2 else 'Lim'} {i:03}")
    PlayerRating.objects.bulk_create(
        PlayerRating(rating_list=rating_list, player=p, rating=1500 + i // 3, games=30, last_played=days_ago(5))
        for i, p in enumerate(players)
    )
    ranks = {r.player_id: r.rank for r in services.rank_players(rating_list, services.rated_players(rating_list))}
    rows = services.rated_players(rating_list, q="tan")
    pages = services.RatingPages(rows)

    assert pages.count() == 30
    assert [r.pk for r in pages[10:25]] == [r.pk for r in rows[10:25]]
    assert pages[30:40] == [] and [r.pk for r in pages[25:40]] == [r.pk for r in rows[25:30]]
    page = client.get(reverse("ratings:list_detail", args=[rating_list.slug]), {"q": "tan"}).context["page"]
    assert [(r.player_id, r.rank) for r in page] == [(r.player_id, ranks[r.player_id]) for r in rows]


def test_csv_download_follows_the_filters(client):
    rating_list, players = rated_list(size=4, events=1)
    seed(rating_list, PlayerFactory(full_name="Inactive Ivy"), 1234)
    response = client.get(reverse("ratings:list_csv", args=[rating_list.slug]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4"]
    assert {"member_number", "name", "club", "rating", "games", "provisional"} <= set(rows[0])
    everyone = client.get(reverse("ratings:list_csv", args=[rating_list.slug]), {"all": "on"})
    assert "Inactive Ivy" in everyone.content.decode()


def test_rating_list_costs_the_same_queries_for_many_players(client):
    small, _ = rated_list(size=4, events=1)
    first = count_queries(client, reverse("ratings:list_detail", args=[small.slug]))
    few = count_queries(client, reverse("ratings:list_detail", args=[small.slug]))
    big, _ = rated_list(size=16, events=2)
    count_queries(client, reverse("ratings:list_detail", args=[big.slug]))
    many = count_queries(client, reverse("ratings:list_detail", args=[big.slug]))
    # The whole list's counts by rating are kept in the cache (here the database's table: a read, and on the
    # first visit the writes that keep them) until the list's ratings are next written.
    assert few == many <= 8 and first <= few + 6


def test_the_whole_lists_counts_are_kept_until_its_ratings_are_written(client):
    """The list's counts by rating (its ranks and pages) are kept in the cache under the list's version: a write
    of its ratings bumps the version, and the page counts the players again."""
    from ratings.models import PlayerRating, RatingList

    rating_list, players = rated_list(size=4, events=1)
    url = reverse("ratings:list_detail", args=[rating_list.slug]) + "?all=1"
    assert client.get(url).context["page"].paginator.count == 4
    PlayerRating.objects.filter(rating_list=rating_list, player=players[0]).update(rating=0)
    assert client.get(url).context["page"].paginator.count == 4  # not written through the services: kept
    RatingList.objects.filter(pk=rating_list.pk).update(version=rating_list.version + 1)
    assert client.get(url).context["page"].paginator.count == 3


def test_player_history_shows_each_rated_event(client, django_assert_max_num_queries):
    rating_list, players = rated_list(size=4, events=3)
    player = players[0]
    url = reverse("ratings:player_history", args=[rating_list.slug, player.member_number])
    with django_assert_max_num_queries(8):
        response = client.get(url)
    history = response.context["history"]
    assert len(history) == 3
    assert [c.pre for c in history[1:]] == [c.post for c in history[:-1]]
    assert history[-1].post == PlayerRating.objects.get(rating_list=rating_list, player=player).rating
    html = response.content.decode()
    assert reverse("ratings:player_chart", args=[rating_list.slug, player.member_number]) in html

    more_list, more_players = rated_list(size=10, events=6)
    assert count_queries(client, url) == count_queries(
        client, reverse("ratings:player_history", args=[more_list.slug, more_players[0].member_number])
    )


def test_the_chart_is_an_svg_drawn_on_the_server(client):
    rating_list, players = rated_list(size=4, events=2)
    response = client.get(reverse("ratings:player_chart", args=[rating_list.slug, players[1].member_number]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert "<svg" in svg and "Rating" in svg
    assert "<script" not in svg or "src=" not in svg.split("<script", 1)[1].split(">", 1)[0]
    assert "kozea.github.io" not in svg and "cdn" not in svg.lower()


def test_an_unlisted_player_is_hidden_from_others(client):
    rating_list, players = rated_list(size=4, events=1)
    Player.objects.filter(pk=players[0].pk).update(listed_in_directory=False)
    url = reverse("ratings:player_history", args=[rating_list.slug, players[0].member_number])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory(is_staff=True))
    assert client.get(url).status_code == 200


def test_event_report_values(client, django_assert_max_num_queries):
    rating_list, players = rated_list(size=4, events=1)
    event = RatingChange.objects.first().event
    with django_assert_max_num_queries(8):
        response = client.get(reverse("ratings:event_report", args=[event.slug]))
    rows = response.context["divisions"][0]["rows"]
    assert len(rows) == 4
    for row in rows:
        stored = PlayerRating.objects.get(rating_list=rating_list, player=row.player)
        assert row.post == stored.rating
        assert row.change == row.post - row.pre
        assert row.games == 3 and row.performance is not None
    assert [r.post for r in rows] == sorted((r.post for r in rows), reverse=True)
    html = response.content.decode()
    assert f"{rows[0].change:+d}" in html

    bigger, _ = rated_list(size=12, events=1)
    big_event = RatingChange.objects.filter(rating_list=bigger).first().event
    assert count_queries(client, reverse("ratings:event_report", args=[event.slug])) == count_queries(
        client, reverse("ratings:event_report", args=[big_event.slug])
    )


def test_player_page_and_home_page_show_ratings(client):
    rating_list, players = rated_list(size=4, events=1)
    rating = PlayerRating.objects.get(rating_list=rating_list, player=players[0])
    page = client.get(players[0].get_absolute_url()).content.decode()
    assert rating_list.name in page and str(rating.rating) in page
    assert reverse("ratings:player_chart", args=[rating_list.slug, players[0].member_number]) in page
    assert f"Rating history on {rating_list.name}</span>" in page  # the chart's link says where it leads
    home = client.get(reverse("home"))
    assert [r.player_id for r in home.context["ratings_top"]][:1] == [
        PlayerRating.objects.filter(rating_list=rating_list).order_by("-rating").first().player_id
    ]


def test_monthly_snapshots(client):
    rating_list, players = rated_list(size=4, events=1)
    snapshot = services.take_snapshot(rating_list, days_ago(0).replace(day=1))
    seed(rating_list, PlayerFactory(full_name="Never Played"), 1700)
    again = services.take_snapshot(rating_list, days_ago(0).replace(day=1))  # taking it again replaces it
    assert again.pk == snapshot.pk
    assert again.entries.filter(rank__isnull=False).count() == 4
    assert again.entries.count() == 5

    index = client.get(reverse("ratings:snapshots", args=[rating_list.slug]))
    assert snapshot.taken_on.strftime("%B %Y").split()[0] in index.content.decode()
    detail = client.get(reverse("ratings:snapshot", args=[rating_list.slug, snapshot.taken_on.isoformat()]))
    assert [e.rank for e in detail.context["page"]] == [1, 2, 3, 4]
    assert client.get(reverse("ratings:snapshot", args=[rating_list.slug, "2001-01-01"])).status_code == 404


def test_monthly_snapshot_task_files_every_list():
    from ratings.tasks import take_monthly_snapshots

    rated_list(size=4, events=1)
    RatingListFactory()
    assert take_monthly_snapshots.delay().get() == 2


def test_no_list_yet(client):
    response = client.get(reverse("ratings:list"))
    assert response.status_code == 200
    assert "No rating list" in response.content.decode()


def test_run_page_shows_a_progress_bar_and_polls_without_a_cdn(client):
    rating_list, players = rated_list(size=4, events=1)
    run = rating_list.runs.first()
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'role="progressbar"' in html and "100%" in html
    progress = client.get(reverse("ratings:run_progress", args=[run.pk])).json()
    assert progress == {"status": "done", "status_display": "Done", "progress": 100, "finished": True, "error": ""}

    queued = rating_list.runs.create(from_date=days_ago(1), status="queued")
    html = client.get(queued.get_absolute_url()).content.decode()
    # The page names its progress address; the site's own script (no CDN, nothing inline) follows it.
    assert f'data-progress-url="{reverse("ratings:run_progress", args=[queued.pk])}"' in html
    assert 'src="/static/clubsite/site.js"' in html and "<script>" not in html


def test_staff_re_rate_from_a_date(client, on_commit):
    rating_list, players = rated_list(size=4, events=2)
    url = reverse("ratings:rerate", args=[rating_list.slug])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(UserFactory(is_staff=True))
    assert client.get(url).status_code == 200
    with on_commit(execute=True):
        response = client.post(url, {"from_date": days_ago(100).isoformat()})
    run = rating_list.runs.order_by("-pk").first()
    assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
    run.refresh_from_db()
    assert run.status == "done" and run.events_rated == 2
    future = client.post(url, {"from_date": (days_ago(0) + timedelta(days=3)).isoformat()})
    assert "not in the future" in future.content.decode()


def test_director_rates_an_event_from_its_report(client, on_commit):
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(4)
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(players))
    url = reverse("ratings:event_rate", args=[event.slug])
    client.force_login(UserFactory())
    client.post(url)
    assert not RatingChange.objects.exists()
    client.force_login(event.owner)
    with on_commit(execute=True):
        response = client.post(url)
    assert response.status_code == 302
    assert RatingChange.objects.filter(division__event=event).count() == 4


def test_run_page_lists_what_the_run_wrote(client):
    rating_list, players = rated_list(size=4, events=2)
    runs = list(rating_list.runs.order_by("pk"))
    latest = client.get(runs[-1].get_absolute_url())
    assert len(latest.context["changes"]) == 4
    assert "Bonus" in latest.content.decode() and "Feedback" in latest.content.decode()
    services.rerate_from(rating_list, days_ago(365))
    superseded = client.get(runs[-1].get_absolute_url())
    assert superseded.context["changes"] == []
    assert "replaced by a later run" in superseded.content.decode()


def test_tied_ratings_share_a_rank_on_every_page(client):
    rating_list = RatingListFactory()
    ratings = [2000] * 3 + [1900] * 49 + [1800] * 2  # 54 players: page 2 starts inside the 1900s
    PlayerRating.objects.bulk_create(
        PlayerRating(rating_list=rating_list, player=p, rating=r, games=30, last_played=days_ago(5))
        for p, r in zip(PlayerFactory.create_batch(len(ratings)), ratings, strict=True)
    )
    url = reverse("ratings:list_detail", args=[rating_list.slug])
    first = [r.rank for r in client.get(url).context["page"]]
    second = [r.rank for r in client.get(url, {"page": 2}).context["page"]]
    assert first[:4] == [1, 1, 1, 4] and set(first[3:]) == {4}
    assert second == [4, 4, 53, 53]
    csv_rows = list(
        csv.DictReader(io.StringIO(client.get(reverse("ratings:list_csv", args=[rating_list.slug])).content.decode()))
    )
    assert [int(r["rank"]) for r in csv_rows] == [1] * 3 + [4] * 49 + [53] * 2
