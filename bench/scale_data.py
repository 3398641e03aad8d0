"""A realistic history at scale: clubs, members with memberships, rated events in date order with
divisions of 10–300 players, entries, seats, rounds and confirmed games; then the whole history
rated on its list through the ratings services. Used by `bench/generate_scale_data.py` and the
benchmarks; never by the tests' own data.

Rows are written in large batches (COPY on PostgreSQL), so a million games take minutes, not hours.

What makes it realistic enough to measure with:
- members join over the years (a fifth are there from the start), each with a membership;
- most players play rarely and a few play most weekends (Zipf-like activity, capped), and an event
  draws mostly from its own club's members;
- division sizes are log-uniform between 10 and 300 (many club-sized, a few large), 5–20 rounds,
  scaled so the games add up to the target; an odd field gives one bye a round;
- results follow hidden strengths; a tenth of the events are 1/3-rated.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as clock

import numpy as np
from django.db import connection, transaction
from django.utils import timezone

from bench.bulk import copy_rows, flush_history, next_id, reset_sequences

LIST_SLUG = "scale-ratings"
ASSOCIATION_SLUG = "scale"
YEARS = 6

SURNAMES = (
    "Tan Lim Lee Ng Wong Goh Chua Koh Teo Ong Ho Sim Yeo Low Chia Kumar Rahman Pillai Fernandez Ismail "
    "Smith Jones Brown Taylor Wilson Evans Thomas Roberts Walker Wright Nguyen Garcia Cohen Levi Mensah"
).split()
GIVEN = (
    "Adrian Beatrice Chen Daniel Evelyn Farid Grace Irfan Kumar Lakshmi Marcus Nurul Oscar Priyanka Rachel "
    "Suresh Umar Vivian Xavier Yusof Alice Ben Clara David Emma Felix Hannah Ivan Julia Kevin Laura"
).split()


@dataclass
class ScaleReport:
    players: int
    events: int
    games: int
    entries: int
    seconds: float


def _aware(day: date, at: clock) -> datetime:
    return timezone.make_aware(datetime.combine(day, at))


def event_plan(events: int, games: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Division sizes (10–300, log-uniform) and rounds (5–20, scaled so the games add up)."""
    sizes = np.exp(rng.uniform(np.log(10), np.log(301), events)).astype(np.int64).clip(10, 300)
    rounds = rng.integers(5, 21, events)
    scale = games / float(((sizes // 2) * rounds).sum())
    rounds = np.clip(np.round(rounds * scale), 1, 40).astype(np.int64)
    return sizes, rounds


def generate(*, players: int, events: int, games: int, seed: int, log=print) -> ScaleReport:
    from clubsite.kit.models import Counter
    from events.models import Category, Entry, EntryStatus, Event
    from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
    from players.models import Association, Club, Membership, Player, User
    from players.services import MEMBER_NUMBER_COUNTER, MEMBER_NUMBER_START
    from ratings.models import RatingList

    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    now = timezone.now()
    today = timezone.localdate()
    first_day = today - timedelta(days=365 * YEARS)

    with transaction.atomic():
        association, _ = Association.objects.get_or_create(
            slug=ASSOCIATION_SLUG, defaults={"name": "Scale Test Association", "short_name": "STA"}
        )
        owner, _ = User.objects.get_or_create(
            username="scale-owner", defaults={"email": "scale-owner@example.org", "is_staff": True}
        )
        rating_list, _ = RatingList.objects.get_or_create(
            slug=LIST_SLUG, defaults={"association": association, "name": "Scale ratings", "lexicon": "CSW24"}
        )
        n_clubs = max(2, players // 500)
        first_club = next_id(Club)
        copy_rows(
            Club,
            ["id", "association_id", "name", "slug", "city", "country", "meets"],
            (
                (
                    first_club + i,
                    association.pk,
                    f"Scale Club {i + 1}",
                    f"scale-club-{seed}-{i + 1}",
                    "Singapore",
                    "SG",
                    "Tuesdays, 7 pm",
                )
                for i in range(n_clubs)
            ),
        )

        # Players: member numbers taken from the shared counter in one step.
        counter, _ = Counter.objects.select_for_update().get_or_create(
            name=MEMBER_NUMBER_COUNTER, defaults={"value": MEMBER_NUMBER_START}
        )
        first_number = counter.value + 1
        counter.value += players
        counter.save()
        first_player = next_id(Player)
        strength = rng.normal(1300, 350, players).clip(300, 2300)
        clubs = rng.integers(0, n_clubs, players)
        # A fifth of the members are there from the start; the others join over the years.
        joined = np.where(rng.random(players) < 0.2, 0, rng.integers(0, 365 * YEARS, players))
        # Zipf-like activity: most play rarely, a few play most weekends (up to ~50 events a year).
        activity = np.log(np.minimum(rng.pareto(1.2, players) + 0.05, 30.0))
        sur = rng.integers(0, len(SURNAMES), players)
        giv = rng.integers(0, len(GIVEN), players)
        copy_rows(
            Player,
            [
                "id",
                "full_name",
                "display_name",
                "member_number",
                "school",
                "school_level",
                "club_id",
                "country",
                "email",
                "phone",
                "id_last4",
                "listed_in_directory",
                "created_at",
            ],
            (
                (
                    first_player + i,
                    f"{GIVEN[giv[i]]} {SURNAMES[sur[i]]} {i + 1}",
                    "",
                    first_number + i,
                    "",
                    "none",
                    first_club + int(clubs[i]),
                    "SG",
                    "",
                    "",
                    "",
                    True,
                    now,
                )
                for i in range(players)
            ),
        )
        first_membership = next_id(Membership)

        def membership(i: int):
            starts = first_day + timedelta(days=int(joined[i]))
            # Members who are still around renew; the rest let it lapse a year after joining.
            expires = today + timedelta(days=int(joined[i]) % 365) if activity[i] > 0 else starts + timedelta(days=365)
            return (
                first_membership + i,
                first_player + i,
                association.pk,
                "ordinary",
                starts,
                max(expires, starts),
                20,
                starts,
                "in_person",
                "",
            )

        copy_rows(
            Membership,
            [
                "id",
                "player_id",
                "association_id",
                "type",
                "starts_on",
                "expires_on",
                "fee",
                "paid_on",
                "payment_method",
                "payment_reference",
            ],
            (membership(i) for i in range(players)),
        )
        log(f"  {players} players, {n_clubs} clubs, memberships: {time.perf_counter() - started:.1f}s")

        sizes, rounds = event_plan(events, games, rng)
        days = np.sort(rng.integers(0, 365 * YEARS - 1, events))
        third = rng.random(events) < 0.1

        first_event = next_id(Event)
        event_day = [date.fromordinal(first_day.toordinal() + int(d)) for d in days]
        copy_rows(
            Event,
            _EVENT_COLUMNS,
            (
                _event_row(
                    first_event + e,
                    seed,
                    e,
                    event_day[e],
                    int(rounds[e]),
                    bool(third[e]),
                    owner.pk,
                    association.pk,
                    rating_list.pk,
                    first_club + int(e % n_clubs),
                    now,
                )
                for e in range(events)
            ),
        )
        first_category = next_id(Category)
        copy_rows(
            Category,
            ["id", "event_id", "name", "position", "school_level", "notes"],
            ((first_category + e, first_event + e, "Open", 0, "", "") for e in range(events)),
        )
        first_division = next_id(Division)
        copy_rows(
            Division,
            [
                "id",
                "event_id",
                "category_id",
                "name",
                "position",
                "takes_unrated",
                "missed_rounds_as",
                "assignments_published",
                "finalised_at",
            ],
            (
                (
                    first_division + e,
                    first_event + e,
                    first_category + e,
                    "A",
                    0,
                    True,
                    "forfeit",
                    True,
                    _aware(event_day[e], clock(19)),
                )
                for e in range(events)
            ),
        )

        ids = {"entry": next_id(Entry), "seat": next_id(DivisionPlayer), "round": next_id(Round)}
        game_id = next_id(Game)
        buffers: dict[str, list] = {"entries": [], "seats": [], "rounds": [], "games": []}
        total_games = 0
        total_entries = 0
        pending = 0
        log_every = max(1, events // 10)
        for e in range(events):
            n = int(sizes[e])
            event_id, division_id, category_id = first_event + e, first_division + e, first_category + e
            day = int(days[e])
            # Who plays: members who have joined, weighted by activity, five times as likely from the host club.
            keys = activity + np.log(np.where(clubs == e % n_clubs, 5.0, 1.0)) + rng.gumbel(size=players)
            keys[joined > day] = -np.inf
            n = min(n, int(np.count_nonzero(joined <= day)))
            field = np.argpartition(-keys, n - 1)[:n]
            field = field[np.argsort(-strength[field], kind="stable")]  # seeded by strength
            accepted = _aware(event_day[e] - timedelta(days=7), clock(10))
            for number, p in enumerate(field.tolist(), start=1):
                buffers["entries"].append(
                    (
                        ids["entry"],
                        event_id,
                        category_id,
                        first_player + p,
                        EntryStatus.CONFIRMED,
                        accepted,
                        accepted,
                        0,
                        0,
                        "",
                        "",
                        "",
                        division_id,
                    )
                )
                buffers["seats"].append(
                    (ids["seat"], division_id, first_player + p, ids["entry"], number, 0, 1, "", False, "{}")
                )
                ids["entry"] += 1
                ids["seat"] += 1
            total_entries += n

            r_count = int(rounds[e])
            half = n // 2
            order = rng.random((r_count, n)).argsort(axis=1)
            a = field[order[:, 0 : 2 * half : 2]]
            b = field[order[:, 1 : 2 * half : 2]]
            edge = (strength[a] - strength[b]) / 4 + rng.normal(0, 80, a.shape)
            base = rng.normal(390, 40, a.shape)
            score_a = (base + edge / 2).clip(0, None).astype(np.int64)
            score_b = (base - edge / 2).clip(0, None).astype(np.int64)
            published = _aware(event_day[e], clock(9))
            for r in range(r_count):
                round_id = ids["round"]
                buffers["rounds"].append((round_id, division_id, r + 1, RoundStatus.COMPLETE, "swiss", None, published))
                ids["round"] += 1
                for board, (pa, pb, sa, sb) in enumerate(
                    zip(a[r].tolist(), b[r].tolist(), score_a[r].tolist(), score_b[r].tolist(), strict=True), start=1
                ):
                    buffers["games"].append(
                        (
                            game_id,
                            division_id,
                            round_id,
                            r + 1,
                            board,
                            GameKind.NORMAL,
                            GameStatus.CONFIRMED,
                            first_player + pa,
                            first_player + pb,
                            sa,
                            sb,
                            None,
                            "a" if board % 2 else "b",
                            0,
                            0,
                        )
                    )
                    game_id += 1
                if n % 2:
                    buffers["games"].append(
                        (
                            game_id,
                            division_id,
                            round_id,
                            r + 1,
                            None,
                            GameKind.BYE,
                            GameStatus.CONFIRMED,
                            first_player + int(field[order[r, -1]]),
                            None,
                            None,
                            None,
                            50,
                            "",
                            0,
                            0,
                        )
                    )
                    game_id += 1
            total_games += r_count * half
            pending += r_count * half
            if pending > 200_000 or e == events - 1:
                flush_history(buffers)
                pending = 0
            if (e + 1) % log_every == 0 or e == events - 1:
                log(f"  events {e + 1}/{events}, games {total_games}: {time.perf_counter() - started:.1f}s")
        reset_sequences([Club, Player, Membership, Event, Category, Division, Entry, DivisionPlayer, Round, Game])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return ScaleReport(players, events, total_games, total_entries, time.perf_counter() - started)


# The event columns the history sets; every other column takes the model's default (see bench.bulk.fill_defaults).
_EVENT_COLUMNS = [
    "id",
    "slug",
    "title",
    "owner_id",
    "association_id",
    "club_id",
    "kind",
    "status",
    "venue",
    "starts_on",
    "ends_on",
    "time_zone",
    "number_of_games",
    "pairing_system",
    "time_control_minutes",
    "lexicon",
    "rated",
    "rating_list_id",
    "third_rated",
    "created_at",
    "updated_at",
    "published_at",
]


def _event_row(pk, seed, e, day, rounds, third, owner, association, rating_list, club, now):
    title = f"Scale {'Open' if e % 4 else 'Masters'} {e + 1}"
    return (
        pk,
        f"scale-{seed}-{e + 1}",
        title,
        owner,
        association,
        club,
        "tournament",
        "completed",
        "Community Club",
        day,
        day,
        "Asia/Singapore",
        rounds,
        "swiss",
        25,
        "CSW24",
        True,
        rating_list,
        third,
        now,
        now,
        now,
    )


def rate_history(rating_list=None, *, log=print) -> float:
    """Rates every generated event on its list, in the order they began, through the ratings services.

    The events are entered in the list's ledger of rated events (as rating an event does) and the
    list is then re-rated from its first event with `rerate_from`: one computation and one
    transaction for the whole history, instead of one run per event. Returns the seconds taken.
    """
    from events.models import Event
    from ratings.models import RatedEvent, RatingList
    from ratings.services import rerate_from

    rating_list = rating_list or RatingList.objects.get(slug=LIST_SLUG)
    started = time.perf_counter()
    now = timezone.now()
    with transaction.atomic():
        ledger = set(RatedEvent.objects.filter(rating_list=rating_list).values_list("event_id", flat=True))
        missing = [
            (pk, day)
            for pk, day in Event.objects.filter(rating_list=rating_list, rated=True)
            .order_by("starts_on", "pk")
            .values_list("pk", "starts_on")
            if pk not in ledger
        ]
        first_id = next_id(RatedEvent)
        copy_rows(
            RatedEvent,
            ["id", "rating_list_id", "event_id", "starts_on", "rated_at"],
            ((first_id + i, rating_list.pk, pk, day, now) for i, (pk, day) in enumerate(missing)),
        )
        reset_sequences([RatedEvent])
    first = RatedEvent.objects.filter(rating_list=rating_list).order_by("starts_on").values_list("starts_on", flat=True)
    if not first:
        return 0.0
    rerate_from(rating_list, first[0])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    seconds = time.perf_counter() - started
    log(f"  rated {len(missing)} new events on {rating_list.name}: {seconds:.1f}s")
    return seconds
