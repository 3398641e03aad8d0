"""A division's prizes: the event's Prize table for the division's category, awarded by events.play.core.prizes.

Place prizes cover each place from `rank_from` to `rank_to`; a high game prize goes to the highest
winning score; a class prize covers a band of pre-event ratings (`class_min_rating`–`class_max_rating`)
and/or names a rating class in its description ("Class B: trophy", matched against the tsh `class` of
each seat), `rank_from` being the place inside the class (1 when empty). Lucky draw prizes are listed
but drawn at the event. Four queries whatever the division's size (five when the director decides ties).

A player plays for the prizes of the category they entered and no other: one a director seated in a division
of another category's prizes keeps their place in its standings, and its prizes pass to the next player who
entered that category (`outside_category`).

Tied places share their prizes as the event says (`Event.prize_ties`): split equally, each the higher
prize, or the director's choice, kept as PrizeDecision rows (who, when, why; the latest counts). The
event's prize fund may be divided between divisions by the fees their players paid (`prize_fund_split`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Sum

from events.models import Category, Event, Prize, PrizeKind, PrizeTies
from events.play.core import prizes as pure_prizes
from events.play.core import results as pure_results
from events.play.core import standings as pure_standings
from events.play.models import Division, DivisionPlayer, PrizeDecision
from events.templatetags.events_tags import format_money

from .common import PlayError, require_director
from .reads import read_division

CLASS_LABEL = re.compile(r"^\s*class\s+([A-Za-z0-9]+)", re.IGNORECASE)


@dataclass
class AwardRow:
    prize: str
    description: str
    seats: list[DivisionPlayer]
    amount_each: object
    rank_label: str = ""
    note: str = ""
    tied_seats: list[DivisionPlayer] = field(default_factory=list)  # the tie this prize belongs to
    sharing: str = ""  # split ties: "=2 Alice and Bob share 2nd and 3rd: S$80.00 + S$60.00 → S$70.00 each"
    decision: PrizeDecision | None = None  # the director's latest decision for this prize, if any
    decided: bool = False  # the decision applies (its player is still in the tie)

    @property
    def awaits_director(self) -> bool:
        return bool(self.tied_seats) and not self.seats


@dataclass
class DivisionPrizes:
    division: Division
    category: Category | None
    awards: list[AwardRow] = field(default_factory=list)
    listed_only: list[Prize] = field(default_factory=list)  # lucky draws and prizes the site cannot award
    final: bool = False
    ties: str = PrizeTies.SPLIT
    decisions: list[PrizeDecision] = field(default_factory=list)  # every decision, newest first
    # Players seated here who entered another category: they play, but win none of this category's prizes.
    outside: list[DivisionPlayer] = field(default_factory=list)

    @property
    def awaiting_director(self) -> list[AwardRow]:
        return [a for a in self.awards if a.awaits_director]


def category_of(division: Division, categories: list[Category]) -> Category | None:
    """The category whose prizes a division plays for: its own, the event's only one, or the one named alike."""
    if division.category_id:
        return next((c for c in categories if c.pk == division.category_id), None)
    if len(categories) == 1:
        return categories[0]
    return next((c for c in categories if c.name == division.name), None)


def outside_category(division: Division, category: Category | None) -> set[int]:
    """The players of the division who entered another category than the one whose prizes it plays for (a
    director placed them here): a player never wins a prize of a category they did not enter. One query."""
    if category is None:
        return set()
    rows = DivisionPlayer.objects.filter(division=division, entry__category__isnull=False).exclude(
        entry__category=category
    )
    return set(rows.values_list("player_id", flat=True))


def prize_bands(division: Division) -> tuple[int, ...] | None:
    """The division's prize table as tsh's prize bands: the last place each place prize covers, in order
    (1st, 2nd, 3rd to 5th: 1, 2, 5); None without place prizes. Two queries."""
    categories = list(Category.objects.filter(event_id=division.event_id))
    category = category_of(division, categories)
    if category is None:
        return None
    places = {
        max(p.rank_from, p.rank_to or 0)
        for p in Prize.objects.filter(category=category, kind=PrizeKind.PLACE, rank_from__isnull=False)
    }
    places.discard(0)
    return tuple(sorted(places)) or None


def prize_places(division: Division) -> int:
    """How many places the division's prize table pays: the last place its place prizes cover (1, first
    place only, without a table). Gibsonization judges who is still in prize contention by it. Two queries."""
    bands = prize_bands(division)
    return bands[-1] if bands else 1


def class_label(prize: Prize) -> str | None:
    match = CLASS_LABEL.match(prize.description or "")
    return match.group(1) if match else None


def names(people: list[str]) -> str:
    """'Alice', 'Alice and Bob', 'Alice, Bob and Carol'."""
    return people[0] if len(people) == 1 else f"{', '.join(people[:-1])} and {people[-1]}"


def sharing_text(rank_label: str, seats: list[DivisionPlayer], covers: tuple[str, ...], pooled, each) -> str:
    """How tied players split the cash of the prizes their tie covers, with the sum."""
    if len(covers) > 1 and all(c.endswith(" place") for c in covers):
        what = names([c.removesuffix(" place") for c in covers])
    else:
        what = names(list(covers))
    text = f"{rank_label} {names([s.player.name for s in seats])} share {what}".strip()
    if pooled and each is not None:
        text += f": {' + '.join(format_money(a) for a in pooled)} → {format_money(each)} each"
    return text


def division_prizes(
    division: Division, *, one_prize_per_player: bool = True, ties: str | None = None
) -> DivisionPrizes:
    """The division's awards. `ties` defaults to the event's setting (Event.prize_ties)."""
    ties = ties or division.event.prize_ties
    categories = list(Category.objects.filter(event_id=division.event_id).prefetch_related("prizes"))
    category = category_of(division, categories)
    report = DivisionPrizes(division=division, category=category, final=bool(division.finalised_at), ties=ties)
    stored = list(category.prizes.all()) if category else []
    if not stored:
        return report

    place, classes, high_game = [], [], None
    for prize in stored:
        if prize.kind == PrizeKind.PLACE and prize.rank_from:
            last = prize.rank_to or prize.rank_from
            place.extend(
                pure_prizes.PlacePrize(n, prize.description, prize.amount) for n in range(prize.rank_from, last + 1)
            )
        elif prize.kind == PrizeKind.HIGH_GAME and high_game is None:
            high_game = pure_prizes.HighGamePrize(prize.description, prize.amount)
        elif prize.kind == PrizeKind.CLASS and (
            class_label(prize) or prize.class_min_rating is not None or prize.class_max_rating is not None
        ):
            label = class_label(prize)
            classes.append(
                pure_prizes.ClassPrize(
                    name=pure_prizes.class_title(prize.class_min_rating, prize.class_max_rating, label),
                    description=prize.description,
                    amount=prize.amount,
                    place=prize.rank_from or 1,
                    rating_class=label,
                    min_rating=prize.class_min_rating,
                    max_rating=prize.class_max_rating,
                )
            )
        else:
            report.listed_only.append(prize)

    latest: dict[str, PrizeDecision] = {}
    if ties == PrizeTies.DIRECTOR:
        report.decisions = list(
            PrizeDecision.objects.filter(division=division)
            .select_related("seat__player", "decided_by")
            .order_by("-decided_at", "-pk")
        )
        for d in report.decisions:
            latest.setdefault(d.prize, d)
    read = read_division(division)
    seats, entrants, games = read.seats, read.entrants, read.games
    outside = outside_category(division, category)
    report.outside = sorted((seats[p] for p in outside if p in seats), key=lambda seat: seat.number)
    table = pure_standings.compute_standings(entrants, games, read.options)
    awards = pure_prizes.award_prizes(
        table,
        entrants,
        games,
        place_prizes=place,
        class_prizes=classes,
        high_game=high_game,
        options=pure_prizes.PrizeOptions(
            one_prize_per_player=one_prize_per_player,
            ties=ties,
            decisions={prize: d.seat.player_id for prize, d in latest.items()},
        ),
        eligible={e.id for e in entrants if e.id not in outside} if outside else None,
    )
    won = any(
        g.kind is pure_results.GameKind.NORMAL and g.score_a is not None and g.score_a != g.score_b for g in games
    )
    for award in awards:
        note = award.note
        if award.prize == "High game" and not award.players and won and one_prize_per_player:
            note = "every winning score belongs to a player who already has a prize"
        if award.prize == "High game" and award.players:
            # The pure core names players by id; say it with seat numbers instead.
            score = award.rank_label
            note = f"score {score}" + (f"; {award.note.split('; ', 1)[1]}" if "; " in award.note else "")
        winners = [seats[p] for p in award.players if p in seats]
        tied = [seats[p] for p in award.tied_with if p in seats]
        report.awards.append(
            AwardRow(
                prize=award.prize,
                description=award.description,
                seats=winners,
                amount_each=award.amount_each,
                rank_label=award.rank_label,
                note=note,
                tied_seats=tied,
                sharing=sharing_text(
                    "" if award.prize == "High game" else award.rank_label,
                    winners,
                    award.covers,
                    award.pooled,
                    award.amount_each,
                )
                if award.covers
                else "",
                decision=latest.get(award.prize) if tied else None,
                decided=award.decided,
            )
        )
    return report


def decide_prize(actor, division: Division, prize: str, seat_id: int, reason: str) -> PrizeDecision:
    """The director gives one prize a tie covers to one of the tied players, saying why."""
    require_director(actor, division.event)
    if division.event.prize_ties != PrizeTies.DIRECTOR:
        raise PlayError("This event shares tied prizes by its rule, not by the director's decision.")
    reason = (reason or "").strip()
    if not reason:
        raise PlayError("Say why this player receives the prize.")
    row = next(
        (a for a in division_prizes(division, one_prize_per_player=division.event.one_prize_per_player).awards
         if a.prize == prize and a.tied_seats),
        None,
    )  # fmt: skip
    if row is None:
        raise PlayError(f"{prize or 'That prize'} is not covered by a tie in {division.name}.")
    seat = next((s for s in row.tied_seats if s.pk == seat_id), None)
    if seat is None:
        raise PlayError(f"Choose one of the players tied for {row.rank_label}.")
    return PrizeDecision.objects.create(
        division=division, prize=prize, seat=seat, reason=reason[:300], decided_by=actor
    )


def division_label(name: str) -> str:
    """'Division A' for a division named A; a longer name as it is."""
    return name if name.lower().startswith("division") or len(name) > 3 else f"Division {name}"


@dataclass
class FundSplit:
    """The event's prize fund divided between its divisions by the fees their players paid."""

    fund: Decimal
    paid: Decimal  # all fees paid
    shares: list[pure_prizes.FundShare]
    remainder: Decimal  # what rounding each share down to the cent left, shared out a cent at a time
    problem: str = ""  # why the fund cannot be divided yet


def prize_fund_split(event: Event) -> FundSplit | None:
    """None unless the event divides a prize fund by fees. Two queries."""
    if not (event.prize_fund_by_fees and event.prize_fund):
        return None
    divisions = list(Division.objects.filter(event=event).order_by("position", "pk").values_list("pk", "name"))
    totals = {
        row["division"]: row
        for row in DivisionPlayer.objects.filter(division__event=event)
        .values("division")
        .annotate(players=Count("pk"), paid=Sum("entry__amount_paid"))
    }
    rows = [
        (division_label(name), totals.get(pk, {}).get("players", 0), totals.get(pk, {}).get("paid") or Decimal(0))
        for pk, name in divisions
    ]
    paid = sum((r[2] for r in rows), Decimal(0))
    if not rows:
        return FundSplit(event.prize_fund, paid, [], Decimal(0), "There are no divisions yet.")
    if not paid:
        return FundSplit(event.prize_fund, paid, [], Decimal(0), "No fees have been recorded as paid yet.")
    shares, remainder = pure_prizes.explain_fund_split(event.prize_fund, rows)
    return FundSplit(event.prize_fund, paid, shares, remainder)
