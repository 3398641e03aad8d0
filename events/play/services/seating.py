"""Seating players: divisions by rating, a director's placements, play-up requests, late entrants and
withdrawals."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from events.models import Category, Entry, EntryStatus, Event
from events.play.core.divisions import (
    UP_ONE,
    AssignmentError,
    Band,
    Candidate,
    assign_by_bands,
    match_prize_tables,
    split_bands,
)
from events.play.models import Division, DivisionPlayer, Game, Round, RoundStatus
from events.services.eligibility import refusal_for
from events.services.places import ratings_list_of
from ratings.models import RatingList
from ratings.services import ratings_as_of

from .common import PlayError, check_open, lock_division, require_director
from .reads import withdrawn_when
from .rounds import missed_round, missed_rounds_rule
from .tsh_io import check_division_name


def seat_late(
    division: Division, player, *, entry=None, rating: int | None = None, reason: str = "", joined_in_round: int = 1
) -> DivisionPlayer:
    """A seat for a player who joins a division after it was assigned (a waiting-list place at reporting time, a
    late entrant), at their rating as of the day divisions are assigned by (`rating_day`) unless one is given.

    Before round 1 the division's seats are numbered again by rating (`renumber_seats`), so a late arrival is
    seeded where their rating puts them, not below everyone. Once play has begun, numbers stay as the players,
    printed sheets and tsh files know them: the late player takes the next one, and pairing seeds by their
    rating all the same (rating before seed number, events.play.core.standings)."""
    if rating is None:
        event = division.event
        rating = ratings_on(event, [player.pk], rating_day(event)).get(player.pk, 0)
    number = (division.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = DivisionPlayer.objects.create(
        division=division,
        player=player,
        entry=entry,
        number=number,
        rating=rating,
        assigned_reason=reason,
        joined_in_round=joined_in_round,
    )
    if joined_in_round == 1 and not division.rounds.exists():
        renumber_seats([division.pk])
        seat.refresh_from_db(fields=["number"])
    return seat


@transaction.atomic
def add_late_entrant(actor, division: Division, player, *, rating: int | None = None) -> DivisionPlayer:
    """A player joining after the division was assigned: seeded by rating (`seat_late`), their rating looked up
    on the event's list unless the director gives one; rounds already played are scored as the division sets."""
    division = lock_division(division.pk)
    require_director(actor, division.event)
    check_open(division)
    if DivisionPlayer.objects.filter(division=division, player=player).exists():
        raise PlayError(f"{player} is already in {division.name}.")
    if division.category_id:
        # Late entry is one more door of the one eligibility rule.
        refusal = refusal_for(division.category, player, for_self=False)
        if refusal:
            raise PlayError(refusal)
    rounds = list(division.rounds.order_by("number"))
    seat = seat_late(division, player, rating=rating, reason="late entrant", joined_in_round=len(rounds) + 1)
    Game.objects.bulk_create(missed_round(division, rnd, seat) for rnd in rounds)
    return seat


@transaction.atomic
def withdraw_player(actor, seat: DivisionPlayer) -> DivisionPlayer:
    """From the next round on, the player is not paired; their rounds are scored as the division sets.

    Refused while a draft round waits: it pairs the player for the round they are leaving before (delete the
    draft, withdraw them, and pair the round again)."""
    division = lock_division(seat.division_id)
    require_director(actor, division.event)
    check_open(division)
    draft = division.rounds.filter(status=RoundStatus.DRAFT).order_by("number").first()
    if draft is not None:
        raise PlayError(
            f"Round {draft.number} is a draft that pairs every player: delete it, withdraw the player, "
            "then pair the round again."
        )
    seat = DivisionPlayer.objects.select_for_update().get(pk=seat.pk)
    last = division.rounds.exclude(status=RoundStatus.DRAFT).aggregate(n=Max("number"))["n"] or 0
    seat.withdrawn_after_round = last
    seat.save(update_fields=["withdrawn_after_round"])
    return seat


def withdrawal_said(seat: DivisionPlayer) -> str:
    """What a withdrawal does, as the director is told when making it: the rounds it leaves out, and what each
    counts for in the standings, on the round pages, the wall and in the tsh file."""
    after = seat.withdrawn_after_round
    return (
        f"{seat.player.name} is {withdrawn_when(after)}: not paired from round {after + 1} on, and each "
        f"later round counts as a {missed_rounds_rule(seat.division)}."
    )


def ratings_on(event: Event, player_ids: Iterable[int], day) -> dict[int, int]:
    """Each player's rating at the start of `day` on the list the event's entrants are known by (`ratings_list_of`,
    as at registration and on the entrants list); unrated players are absent."""
    rating_list = RatingList.objects.filter(pk=ratings_list_of(event)).first()
    if rating_list is None:
        return {}
    return {pid: rating for pid, (rating, _games) in ratings_as_of(rating_list, day, list(player_ids)).items()}


def rating_day(event: Event):
    """The ratings divisions are assigned by, unless the director picks another day: as of the day
    registration closes (in the event's time zone), or today when no closing time is set or the closing day is
    still to come (ratings of a day not yet here are today's, and a page should not claim otherwise)."""
    today = timezone.localdate()
    if event.registration_closes_at:
        return min(timezone.localtime(event.registration_closes_at, event.zone).date(), today)
    return today


@dataclass
class AssignmentReport:
    placed: dict[str, list[tuple[str, int, str]]]  # division -> (name, rating, reason)
    as_of: object
    prize_tables: dict[str, str | None] = field(default_factory=dict)  # division -> category whose prizes it plays for


def _category_band(category: Category) -> Band:
    return Band(category.name, category.min_rating, category.max_rating)


def prize_table_for(band: Band, categories: list[Category]) -> Category | None:
    """The category a division with this band plays for (events.play.core.divisions.match_prize_tables)."""
    by_name = {c.name: c for c in categories}
    name = match_prize_tables([band], [_category_band(c) for c in categories])[band.name]
    return by_name.get(name) if name else None


def _is_the_category(division: Division, categories: dict[int, Category]) -> bool:
    """A division made from a category and still cut as announced: its players are those who entered it."""
    category = categories.get(division.category_id)
    return category is not None and (division.rating_min, division.rating_max) == (
        category.min_rating,
        category.max_rating,
    )


def split_counts(sizes: list[int], k: int) -> list[int]:
    """How many of `k` divisions each category gets, by its number of entrants: at least one each, the rest in
    proportion (largest remainder; a tie to the earlier category)."""
    counts = [1] * len(sizes)
    total = sum(sizes) or 1
    for _ in range(k - len(sizes)):
        # The next division goes to the category whose players per division would stay highest.
        best = max(range(len(sizes)), key=lambda i: (sizes[i] * k / total - counts[i], -i))
        counts[best] += 1
    return counts


def _split(event: Event, entries: list[Entry], rating: dict, categories: list[Category], k: int) -> list[str]:
    """(Re)makes the event's divisions as `k` of about equal size, within each category that has entrants, each
    division linked to the category its players entered; returns their names. A category's players never share a
    division, nor its prizes, with another's: with fewer divisions than such categories, nothing is split."""
    if k < 1 or k > 26:
        raise PlayError("Split into between 1 and 26 divisions.", field="split_into")
    entered = [c for c in categories if any(e.category_id == c.pk for e in entries)]
    if len(entered) > k:
        raise PlayError(
            f"The entrants are in {len(entered)} categories ({', '.join(c.name for c in entered)}), each with its "
            f"own prizes: split into at least {len(entered)} divisions, so that no division mixes categories.",
            field="split_into",
        )
    names = [chr(ord("A") + i) for i in range(k)]
    groups: list[tuple[Category | None, list[Band]]] = []
    if len(entered) <= 1:
        # One category (or none): cut the whole field; each division plays for the category it overlaps most.
        bands = split_bands([rating.get(e.player_id, 0) for e in entries], names)
        tables = match_prize_tables(bands, [_category_band(c) for c in categories])
        by_name = {c.name: c for c in categories}
        for band in bands:
            groups.append((entered[0] if entered else by_name.get(tables[band.name] or ""), [band]))
    else:
        first = 0
        for category, count in zip(
            entered, split_counts([sum(e.category_id == c.pk for e in entries) for c in entered], k), strict=True
        ):
            ratings = [rating.get(e.player_id, 0) for e in entries if e.category_id == category.pk]
            groups.append((category, split_bands(ratings, names[first : first + count])))
            first += count
    Division.objects.filter(event=event).exclude(name__in=names).delete()
    position = 0
    for category, bands in groups:
        for band in bands:
            Division.objects.update_or_create(
                event=event,
                name=band.name,
                defaults=dict(
                    position=position,
                    rating_min=band.min_rating,
                    rating_max=band.max_rating,
                    takes_unrated=band.takes_unrated,
                    category=category,
                ),
            )
            position += 1
    return names


def _home_divisions(entry: Entry, divisions: list[Division]) -> list[Division]:
    """The divisions an entrant may be placed in by rating: those playing for the category they entered, else
    those playing for no category's prizes in particular. Refused when there are none (never a division of
    another category's prizes)."""
    linked = [d for d in divisions if d.category_id is not None]
    if not linked:
        return divisions
    own = [d for d in divisions if d.category_id == entry.category_id]
    if own:
        return own
    open_ = [d for d in divisions if d.category_id is None]
    if open_:
        return open_
    raise PlayError(
        f"No division plays for the prizes of {entry.category.name if entry.category_id else 'no category'}, which "
        f"{entry.player.full_name} entered: link a division to it on the divisions page, or split again."
    )


def _placements(entries: list[Entry], divisions: list[Division], rating: dict, fixed: dict) -> dict:
    """Each entry's division and reason, by rating among the divisions of its own category (`_home_divisions`);
    a play-up request within them is honoured, a director's placement anywhere in the event stands."""
    named = {d.name for d in divisions}
    placements = {}
    pools: dict[tuple[int, ...], tuple[list[Division], list[Candidate]]] = {}
    for e in entries:
        seat = fixed.get(e.pk)
        if seat is not None and seat.division.name in named:
            placements[e.pk] = (seat.division.name, seat.assigned_reason or "placed by the director")
            continue
        home = _home_divisions(e, divisions)
        request = getattr(e, "play_up", None)
        candidate = Candidate(
            id=e.pk,
            rating=rating.get(e.player_id, 0),
            play_up_to=(request.division_name or UP_ONE) if request else None,
        )
        pools.setdefault(tuple(d.pk for d in home), (home, []))[1].append(candidate)
    for home, candidates in pools.values():
        bands = [Band(d.name, d.rating_min, d.rating_max, d.takes_unrated) for d in home]
        try:
            placements.update({p.id: (p.division, p.reason) for p in assign_by_bands(candidates, bands)})
        except AssignmentError as error:
            raise PlayError(f"{error} (divisions {', '.join(b.name for b in bands)})") from None
    return placements


@transaction.atomic
def assign_divisions(actor, event: Event, *, split_into: int | None = None, as_of=None) -> AssignmentReport:
    """Places every confirmed entrant in a division by their rating as of `as_of`.

    With `split_into`, the divisions are (re)made as K divisions of about equal size (`_split`): within each
    category when the entrants are in several, each linked to that category (its prize table); with one, cut
    across the field and linked to the category whose rating limits each overlaps most. Otherwise the event's
    divisions and their bands are used. With no divisions yet, one is made per category, with the category's
    rating limits as its band; while the divisions are the categories as announced, everyone plays in the
    category they entered. In every case an entrant is placed only among the divisions that play for the
    category they entered (or for none), so that nobody plays for another category's prizes; a director's
    placement stands. Refused once play has started.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    require_director(actor, event)
    if Round.objects.filter(division__event=event).exists():
        raise PlayError("Play has started: divisions can no longer be reassigned.")
    as_of = as_of or rating_day(event)
    entries = list(
        Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
        .select_related("player", "play_up", "category")
        .order_by("accepted_at", "pk")
    )
    if not entries:
        raise PlayError("There are no confirmed entrants to place.")
    rating = ratings_on(event, [e.player_id for e in entries], as_of)
    categories = list(event.categories.order_by("position", "pk"))
    fixed = {
        s.entry_id: s
        for s in DivisionPlayer.objects.filter(division__event=event, placed_by_director=True).select_related(
            "division"
        )
    }

    if split_into is not None:
        names = _split(event, entries, rating, categories, split_into)
        DivisionPlayer.objects.filter(division__event=event).exclude(division__name__in=names).update(
            placed_by_director=False
        )
        fixed = {k: s for k, s in fixed.items() if s.division.name in names}
    divisions = list(event.divisions.order_by("position", "name"))
    if not divisions:
        # One division per category, cut as the category is announced.
        divisions = [
            Division.objects.create(
                event=event,
                category=c,
                name=c.name[:50],
                position=i,
                rating_min=c.min_rating,
                rating_max=c.max_rating,
            )
            for i, c in enumerate(categories)
        ]
    by_name = {d.name: d for d in divisions}
    by_category = {d.category_id: d for d in divisions if d.category_id}
    category_by_pk = {c.pk: c for c in categories}

    linked = [d for d in divisions if d.category_id]
    if (
        split_into is None
        and by_category
        and len(by_category) == len(linked)
        and all(_is_the_category(d, category_by_pk) for d in linked)
        and not any(d.rating_min is not None or d.rating_max is not None for d in divisions if not d.category_id)
    ):
        # Divisions are the categories: everyone plays in the category they entered.
        placements = {
            e.pk: (by_category[e.category_id].name, "category entered") for e in entries if e.category_id in by_category
        }
    else:
        placements = _placements(entries, divisions, rating, fixed)

    DivisionPlayer.objects.filter(division__event=event).delete()
    report = AssignmentReport(
        placed={d.name: [] for d in divisions},
        as_of=as_of,
        prize_tables={d.name: category_by_pk[d.category_id].name if d.category_id else None for d in divisions},
    )
    seats, numbers = [], {d.name: 0 for d in divisions}
    # Seed numbers by rating; equal ratings in alphabetical order of family name.
    ordered = sorted(entries, key=lambda e: (-rating.get(e.player_id, 0), e.player.sort_key))
    for e in ordered:
        if e.pk not in placements:
            continue
        name, reason = placements[e.pk]
        numbers[name] += 1
        seats.append(
            DivisionPlayer(
                division=by_name[name],
                player=e.player,
                entry=e,
                number=numbers[name],
                rating=rating.get(e.player_id, 0),
                assigned_reason=reason,
                placed_by_director=e.pk in fixed,
            )
        )
        report.placed[name].append((e.player.full_name, rating.get(e.player_id, 0), reason))
    DivisionPlayer.objects.bulk_create(seats)
    for e in entries:
        e.division = by_name[placements[e.pk][0]] if e.pk in placements else None
    Entry.objects.bulk_update(entries, ["division"])
    return report


@transaction.atomic
def place_entrant(actor, entry, division: Division, reason: str) -> DivisionPlayer:
    """A director's placement, kept with its reason (and kept when divisions are reassigned).

    The player keeps their rating as of the day divisions are assigned by (`rating_day`), and the
    divisions the placement changes are numbered 1..n again, as assignment numbers them."""
    division = lock_division(division.pk)
    event = division.event
    require_director(actor, event)
    if entry.event_id != division.event_id:
        raise PlayError("That entrant is not in this event.")
    if not reason.strip():
        raise PlayError("Give a reason for placing the player by hand.", field="reason")
    if division.rounds.exists():
        raise PlayError("Play has started in that division.")
    previous = DivisionPlayer.objects.filter(entry=entry).values_list("division_id", flat=True).first()
    if previous and previous != division.pk and Round.objects.filter(division_id=previous).exists():
        raise PlayError("Play has started in the player's division.")
    DivisionPlayer.objects.filter(entry=entry).delete()
    rating = ratings_on(event, [entry.player_id], rating_day(event)).get(entry.player_id, 0)
    number = (division.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = DivisionPlayer.objects.create(
        division=division,
        player=entry.player,
        entry=entry,
        number=number,
        rating=rating,
        assigned_reason=reason.strip(),
        placed_by_director=True,
    )
    entry.division = division
    entry.save(update_fields=["division"])
    renumber_seats({division.pk, previous} - {None})
    seat.refresh_from_db(fields=["number"])
    return seat


def renumber_seats(division_ids: Iterable[int]) -> None:
    """Seat numbers 1..n in each division, by rating then name (as `assign_divisions` seeds them).
    Only before play: games refer to players by seat."""
    seats = list(DivisionPlayer.objects.filter(division_id__in=list(division_ids)).select_related("player"))
    if not seats:
        return
    # Out of the way first: (division, number) is unique at every step.
    DivisionPlayer.objects.filter(pk__in=[s.pk for s in seats]).update(number=F("number") + 100_000)
    by_division: dict[int, list[DivisionPlayer]] = {}
    for s in seats:
        by_division.setdefault(s.division_id, []).append(s)
    for group in by_division.values():
        group.sort(key=lambda s: (-s.rating, s.player.sort_key))
        for n, s in enumerate(group, start=1):
            s.number = n
    DivisionPlayer.objects.bulk_update(seats, ["number"])


# save_division's `category` when not given: a new division is matched by its band, an existing one keeps its link.
MATCH = object()


def _event_category(event: Event, category) -> Category | None:
    if category is None or category == "":
        return None
    pk = category.pk if isinstance(category, Category) else category
    found = Category.objects.filter(event=event, pk=pk).first()
    if found is None:
        raise PlayError("Choose one of this event's categories.", field="category")
    return found


@transaction.atomic
def save_division(
    actor,
    event: Event,
    name: str,
    *,
    rating_min: int | None = None,
    rating_max: int | None = None,
    takes_unrated: bool = False,
    category=MATCH,
) -> Division:
    """Creates a division of the event, or changes the rating band of the one with that name.

    `category` is the category whose prizes the division plays for (a Category, its pk, or None for
    none); when not given, a new division is linked by its band (events.play.core.divisions.match_prize_tables).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    require_director(actor, event)
    name = check_division_name((name or "").strip())  # it travels into .t files and config.tsh
    if not name:
        raise PlayError("Name the division.", field="name")
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise PlayError("The band's lowest rating is above its highest.", field="rating_min")
    division = Division.objects.filter(event=event, name=name).first()
    if division and division.rounds.exists():
        raise PlayError(f"Play has started in {name}: its band can no longer change.", field="name")
    if division is None:
        last = event.divisions.aggregate(n=Max("position"))["n"]
        position = 0 if last is None else last + 1
        division = Division(event=event, name=name, position=position)
    division.rating_min, division.rating_max, division.takes_unrated = rating_min, rating_max, takes_unrated
    if category is not MATCH:
        division.category = _event_category(event, category)
    elif division.pk is None:
        categories = list(event.categories.order_by("position", "pk"))
        division.category = prize_table_for(Band(name, rating_min, rating_max), categories)
    division.save()
    return division


@transaction.atomic
def link_prize_table(actor, division: Division, category) -> Division:
    """The director's choice of the category (prize table) a division plays for; None for none."""
    division = lock_division(division.pk)
    require_director(actor, division.event)
    check_open(division)
    division.category = _event_category(division.event, category)
    division.save(update_fields=["category"])
    return division


@transaction.atomic
def publish_assignments(actor, event: Event) -> None:
    require_director(actor, event)
    if not DivisionPlayer.objects.filter(division__event=event).exists():
        raise PlayError("Assign divisions before publishing them.")
    event.divisions.update(assignments_published=True)
