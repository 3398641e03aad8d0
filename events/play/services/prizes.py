"""A division's prizes: the event's Prize table for the division's category, awarded by events.core.prizes.

Place prizes cover each place from `rank_from` to `rank_to`; a high game prize goes to the highest
winning score; a class prize covers a band of pre-event ratings (`class_min_rating`–`class_max_rating`)
and/or names a rating class in its description ("Class B: trophy", matched against the tsh `class` of
each seat), `rank_from` being the place inside the class (1 when empty). Lucky draw prizes are listed
but drawn at the event. Three queries whatever the division's size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from events.core import prizes as pure_prizes
from events.core import results as pure_results
from events.core import standings as pure_standings
from events.models import Category, Division, DivisionPlayer, Prize, PrizeKind

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


@dataclass
class DivisionPrizes:
    division: Division
    category: Category | None
    awards: list[AwardRow] = field(default_factory=list)
    listed_only: list[Prize] = field(default_factory=list)  # lucky draws and prizes the site cannot award
    final: bool = False


def category_of(division: Division, categories: list[Category]) -> Category | None:
    """The category whose prizes a division plays for: its own, the event's only one, or the one named alike."""
    if division.category_id:
        return next((c for c in categories if c.pk == division.category_id), None)
    if len(categories) == 1:
        return categories[0]
    return next((c for c in categories if c.name == division.name), None)


def class_label(prize: Prize) -> str | None:
    match = CLASS_LABEL.match(prize.description or "")
    return match.group(1) if match else None


def division_prizes(
    division: Division, *, one_prize_per_player: bool = True, split_ties: bool = False
) -> DivisionPrizes:
    categories = list(Category.objects.filter(event_id=division.event_id).prefetch_related("prizes"))
    category = category_of(division, categories)
    report = DivisionPrizes(division=division, category=category, final=bool(division.finalised_at))
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

    read = read_division(division)
    seats, entrants, games = read.seats, read.entrants, read.games
    table = pure_standings.compute_standings(entrants, games, read.options)
    awards = pure_prizes.award_prizes(
        table,
        entrants,
        games,
        place_prizes=place,
        class_prizes=classes,
        high_game=high_game,
        options=pure_prizes.PrizeOptions(one_prize_per_player=one_prize_per_player, split_ties=split_ties),
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
        report.awards.append(
            AwardRow(
                prize=award.prize,
                description=award.description,
                seats=[seats[p] for p in award.players if p in seats],
                amount_each=award.amount_each,
                rank_label=award.rank_label,
                note=note,
            )
        )
    return report
