"""Server time and query count of the public pages, in-process with Django's test Client.

Each page is requested `warmup` times, then timed `runs` times (the time of `Client.get`: the
whole handling of the request, middleware and template rendering included, no network), then
requested once more inside `CaptureQueriesContext` to count its queries (kept out of the timed
runs, since capturing slows each query a little). Every page is measured at two sizes, so a
query count that grows with the data shows.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from datetime import timedelta

BIG_EVENT = "bench-upcoming-500"
SMALL_EVENT = "bench-upcoming-30"
SMALL_LIST = "bench-small-list"
MEMBER = "bench-member"
QUIET_MEMBER = "bench-member-quiet"


@dataclass
class PageFigures:
    name: str
    url: str
    size: str
    median_ms: float
    p95_ms: float
    queries: int
    status: int
    cpu_ms: float = 0.0  # median CPU time of this process (the database's own work not included)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[k]


def measure(client, name: str, url: str, size: str, *, runs: int, warmup: int = 2) -> PageFigures:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    status = 0
    for _ in range(warmup):
        status = client.get(url).status_code
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        status = response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return PageFigures(
        name,
        url,
        size,
        statistics.median(times) * 1000,
        percentile(times, 0.95) * 1000,
        len(queries),
        status,
        statistics.median(cpu) * 1000,
    )


# --- the data the pages need beyond the history ------------------------------------------------


def upcoming_event(slug: str, entrants: int, rating_list, *, title: str):
    """An upcoming rated event, registration open, with `entrants` confirmed entries (made once)."""
    from django.utils import timezone

    from clubsite.kit.text import markdown_html
    from events.models import Category, Entry, EntryStatus, Event, EventStatus
    from players.models import User
    from ratings.models import PlayerRating

    event = Event.objects.filter(slug=slug).first()
    if event is not None:
        return event
    now = timezone.now()
    today = timezone.localdate()
    owner = User.objects.get(username="scale-owner")
    event = Event.objects.create(
        slug=slug,
        title=title,
        owner=owner,
        association=rating_list.association,
        status=EventStatus.REGISTRATION_OPEN,
        venue="Community Club",
        starts_on=today + timedelta(days=60),
        ends_on=today + timedelta(days=61),
        number_of_games=12,
        pairing_system="swiss",
        rated=True,
        rating_list=rating_list,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=now + timedelta(days=50),
        payment_methods=["in_person", "bank_transfer"],
        description="A two-day rated open.",
        description_html=markdown_html("A two-day rated open."),  # as the event's service renders it on save
        published_at=now - timedelta(days=2),
    )
    category = Category.objects.create(event=event, name="Open", position=0)
    players = list(
        PlayerRating.objects.filter(rating_list=rating_list)
        .order_by("-last_played", "player_id")
        .values_list("player_id", flat=True)[:entrants]
    )
    Entry.objects.bulk_create(
        [
            Entry(
                event=event,
                category=category,
                player_id=pid,
                status=EntryStatus.CONFIRMED,
                accepted_at=now - timedelta(hours=24) + timedelta(seconds=i),
                confirmed_at=now - timedelta(hours=24) + timedelta(seconds=i),
            )
            for i, pid in enumerate(players)
        ],
        batch_size=1000,
    )
    return event


def small_list(rating_list, size: int = 30):
    """A second, small rating list (30 players copied from the big one) to compare query counts."""
    from ratings.models import PlayerRating, RatingList

    small, created = RatingList.objects.get_or_create(
        slug=SMALL_LIST,
        defaults={"association": rating_list.association, "name": "Small list", "position": 9},
    )
    if created:
        rows = PlayerRating.objects.filter(rating_list=rating_list).order_by("-last_played", "-rating")[:size]
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    rating_list=small,
                    player_id=r.player_id,
                    rating=r.rating,
                    games=r.games,
                    peak=r.peak,
                    last_played=r.last_played,
                )
                for r in rows
            ]
        )
    return small


def division_near(rating_list, size: int):
    """The generated division whose number of players is closest to `size` (the largest first)."""
    from django.db.models import Count, F, Func, IntegerField, Value

    from events.play.models import Division

    return (
        Division.objects.filter(event__rating_list=rating_list)
        .annotate(players=Count("seats"))
        .annotate(distance=Func(F("players") - Value(size), function="ABS", output_field=IntegerField()))
        .order_by("distance", "-players", "pk")
        .select_related("event")
        .first()
    )


def standings_url(division) -> str:
    """The division's public standings page."""
    from django.urls import reverse

    return reverse("events:play_standings", args=[division.event.slug, division.pk])


def player_numbers(rating_list) -> tuple[int, int, int, int]:
    """(member number, events) of the player with the most rated events, and of one with one event."""
    from django.db.models import Count

    from ratings.models import RatingChange

    counts = (
        RatingChange.objects.filter(rating_list=rating_list).values("player__member_number").annotate(n=Count("pk"))
    )
    busiest = counts.order_by("-n", "player__member_number").first()
    quiet = counts.filter(n=1).order_by("player__member_number").first() or counts.order_by("n").first()
    return busiest["player__member_number"], busiest["n"], quiet["player__member_number"], quiet["n"]


def member(username: str, *, busiest: bool):
    """An account (made once) for the scale player with the most entries, or for one with a single entry:
    the member's own pages at both sizes."""
    from django.contrib.auth.hashers import make_password
    from django.db.models import Count

    from players.models import Player, User

    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    players = Player.objects.filter(user__isnull=True).annotate(n=Count("entries"))
    if busiest:
        player = players.order_by("-n", "pk").first()
    else:
        player = players.filter(n=1).order_by("pk").first() or players.filter(n__gt=0).order_by("n", "pk").first()
    user = User.objects.create(username=username, email=f"{username}@example.org", password=make_password(None))
    Player.objects.filter(pk=player.pk).update(user=user)
    return user


def logged_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def run(rating_list, *, runs: int, log=print) -> list[PageFigures]:
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from events.models import Event, EventStatus
    from ratings import services

    big_event = upcoming_event(BIG_EVENT, 500, rating_list, title="Bench Open (500 entrants)")
    small_event = upcoming_event(SMALL_EVENT, 30, rating_list, title="Bench Cup (30 entrants)")
    small = small_list(rating_list)
    busiest, busiest_events, quiet, quiet_events = player_numbers(rating_list)
    big_division = division_near(rating_list, 300)
    small_division = division_near(rating_list, 30)
    big_n, small_n = (f"{d.seats.count()} players, {d.rounds.count()} rounds" for d in (big_division, small_division))

    # As the server's workers do once started (clubsite/wsgi.py): what is loaded by now is kept from the collector.
    gc.collect()
    gc.freeze()
    client = Client()
    figures = []

    def page(name, url, size, *, as_client=None):
        figures.append(measure(as_client or client, name, url, size, runs=runs))
        f = figures[-1]
        log(
            f"  {name} [{size}] {url}: median {f.median_ms:.1f} ms (CPU {f.cpu_ms:.1f}), p95 {f.p95_ms:.1f} ms, "
            f"{f.queries} queries"
        )

    page("rating list", "/ratings/", f"{rating_list.ratings.count()} rated")
    page("rating list", f"/ratings/lists/{small.slug}/", f"{small.ratings.count()} rated")
    # Deeper pages of the big list: ranks 951-1000, and the last page.
    page("rating list, page 20", "/ratings/?page=20", "ranks 951-1000")
    last = -(-services.RatingPages(services.rated_players(rating_list)).count() // 50)
    page("rating list, last page", f"/ratings/?page={last}", f"page {last}")
    page("player page", f"/members/{busiest}/", f"{busiest_events} events")
    page("player page", f"/members/{quiet}/", f"{quiet_events} event")
    page("event page", f"/events/{big_event.slug}/", f"{big_event.entries.count()} entrants")
    page("event page", f"/events/{small_event.slug}/", f"{small_event.entries.count()} entrants")
    for name, view in (
        ("standings", "events:play_standings"),
        ("cross-table", "events:play_cross_table"),
        ("round page", "events:play_round"),
    ):
        for division, n in ((big_division, big_n), (small_division, small_n)):
            args = [division.event.slug, division.pk] + ([1] if view == "events:play_round" else [])
            page(name, reverse(view, args=args), n)
    for name, view in (("player's games", "history:games"), ("player's records", "history:records")):
        page(name, reverse(view, args=[busiest]), f"{busiest_events} events")
        page(name, reverse(view, args=[quiet]), f"{quiet_events} event")
    today = timezone.localdate()
    public = Event.objects.exclude(status=EventStatus.DRAFT)
    page("event list", "/events/?when=past", f"{public.filter(ends_on__lt=today).count()} past events")
    page("event list", "/events/", f"{public.filter(ends_on__gte=today).count()} upcoming")

    # A member's own pages: the scale player with the most entries, and one with a single entry.
    from events.services import own_entries

    members = [member(MEMBER, busiest=True), member(QUIET_MEMBER, busiest=False)]
    sized = [(logged_in(m), f"{own_entries(m).count()} entries") for m in members]
    for name, url in (
        ("my entries", reverse("events:my_entries")),
        ("my entries (API)", "/api/my/entries/"),
        ("account page", reverse("players:me")),
        ("profile page", reverse("players:profile")),
        ("my payments", reverse("money:my_payments")),
        ("my games (API)", "/api/play/games/?mine=1"),
    ):
        for member_client, size in sized:
            page(name, url, size, as_client=member_client)

    # The organiser's pages of an event (the scale data's owner of every event).
    organiser = logged_in(big_event.owner)
    for name, url in (
        ("manage event", "events:manage"),
        ("event money", "money:event_money"),
        ("organiser's entries (API)", "/api/organiser/entries/?event={}"),
    ):
        for event in (big_event, small_event):
            target = url.format(event.slug) if url.startswith("/") else reverse(url, args=[event.slug])
            page(name, target, f"{event.entries.count()} entrants", as_client=organiser)
    return figures
