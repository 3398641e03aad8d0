"""Division assignment by rating (DOMAIN §4.4). Pure: candidates and bands in, placements out.

Divisions are listed strongest first. A player goes to the division whose band holds their rating;
unrated players go to the division named for them (else the last); a player may ask to play up in a
stronger division, never down; a director's placement stands whatever the rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Band:
    name: str
    min_rating: int | None = None  # inclusive; None = no lower bound
    max_rating: int | None = None  # inclusive; None = no upper bound
    takes_unrated: bool = False

    def holds(self, rating: int) -> bool:
        return (self.min_rating is None or rating >= self.min_rating) and (
            self.max_rating is None or rating <= self.max_rating
        )


@dataclass(frozen=True)
class Candidate:
    id: int
    rating: int  # 0 = unrated
    play_up_to: str | None = None  # a stronger division the player asked for
    fixed_to: str | None = None  # a director's placement
    fixed_reason: str = ""


@dataclass(frozen=True)
class Placement:
    id: int
    division: str
    reason: str


class AssignmentError(ValueError):
    pass


# play_up_to value for "one division stronger than my rating gives me".
UP_ONE = "+1"


def assign_by_bands(candidates: Sequence[Candidate], bands: Sequence[Band]) -> list[Placement]:
    if not bands:
        raise AssignmentError("Set up at least one division first.")
    order = {b.name: i for i, b in enumerate(bands)}
    unrated_home = next((b.name for b in bands if b.takes_unrated), bands[-1].name)
    placements = []
    for c in candidates:
        if c.fixed_to is not None:
            if c.fixed_to not in order:
                raise AssignmentError(f"Player {c.id} is placed in {c.fixed_to!r}, which is not a division.")
            placements.append(Placement(c.id, c.fixed_to, c.fixed_reason or "placed by the director"))
            continue
        if c.rating <= 0:
            home, reason = unrated_home, "unrated"
        else:
            home = next((b.name for b in bands if b.holds(c.rating)), None)
            if home is None:
                raise AssignmentError(f"No division's band holds rating {c.rating}: make the bands cover every rating.")
            reason = f"rating {c.rating}"
        wanted = bands[order[home] - 1].name if c.play_up_to == UP_ONE and order[home] > 0 else c.play_up_to
        if wanted is not None and wanted in order and order[wanted] < order[home]:
            placements.append(Placement(c.id, wanted, f"{reason}; plays up at their request"))
        else:
            placements.append(Placement(c.id, home, reason))
    return placements


def split_bands(ratings: Sequence[int], names: Sequence[str]) -> list[Band]:
    """Bands that cut the rated players into len(names) divisions of about equal size.

    Players with equal ratings stay together, so sizes can differ by a little more than one.
    """
    k = len(names)
    if k < 1:
        raise AssignmentError("Ask for at least one division.")
    rated = sorted((r for r in ratings if r > 0), reverse=True)
    if k == 1 or not rated:
        return [Band(names[0], takes_unrated=k == 1)] + [Band(n) for n in names[1:]]
    bands: list[Band] = []
    upper: int | None = None
    for i, name in enumerate(names[:-1]):
        cut = rated[min(len(rated) - 1, round(len(rated) * (i + 1) / k) - 1)]
        bands.append(Band(name, min_rating=cut, max_rating=upper))
        upper = cut - 1
    bands.append(Band(names[-1], min_rating=None, max_rating=upper, takes_unrated=True))
    return bands


# Ratings run from 1 to about 3000: open-ended bands are measured against this range.
RATING_FLOOR, RATING_CEILING = 0, 3000


def _span(min_rating: int | None, max_rating: int | None) -> tuple[int, int]:
    return (RATING_FLOOR if min_rating is None else min_rating, RATING_CEILING if max_rating is None else max_rating)


def band_overlap(a: Band, b: Band) -> int:
    """How many ratings two bands share (open ends count up to RATING_CEILING)."""
    (lo_a, hi_a), (lo_b, hi_b) = _span(a.min_rating, a.max_rating), _span(b.min_rating, b.max_rating)
    return max(0, min(hi_a, hi_b) - max(lo_a, lo_b) + 1)


def match_prize_tables(divisions: Sequence[Band], categories: Sequence[Band]) -> dict[str, str | None]:
    """Which category (prize table) each division plays for, by division name.

    - One category: every division plays for it.
    - Categories with rating limits: the category whose limits share the most ratings with the
      division's band (a tie goes to the category in the same position, then the earlier one);
      a division open to any rating is left unmatched.
    - Categories without rating limits: by order, when there are as many divisions as categories.
    - Otherwise nothing is matched: the director links each division by hand.
    """
    if not categories:
        return {d.name: None for d in divisions}
    if len(categories) == 1:
        return {d.name: categories[0].name for d in divisions}
    limited = any(c.min_rating is not None or c.max_rating is not None for c in categories)
    if not limited:
        if len(divisions) == len(categories):
            return {d.name: c.name for d, c in zip(divisions, categories, strict=True)}
        return {d.name: None for d in divisions}
    matched: dict[str, str | None] = {}
    for i, d in enumerate(divisions):
        if d.min_rating is None and d.max_rating is None:
            matched[d.name] = None
            continue
        scores = [(band_overlap(d, c), j == i, -j) for j, c in enumerate(categories)]
        best = max(range(len(categories)), key=lambda j: scores[j])
        matched[d.name] = categories[best].name if scores[best][0] > 0 else None
    return matched
