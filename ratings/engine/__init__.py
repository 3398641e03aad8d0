"""Rating engines: pure functions on plain data, no database.

NASPA (tsh's nsa2008) is the reference Elo system; WESPA is the same family with
another profile; ABSP and Glicko-2 are separate. `history.rate_history` re-rates
many events in order on flat arrays; `tshrate.rate_tsh` rates a tsh `.t` file.
"""

from ratings.engine.common import (
    DivisionInput,
    DivisionRating,
    PlayerRating,
    RatingOptions,
    SegmentRating,
    expected_score,
    multiplier,
    segment_bounds,
)
from ratings.engine.naspa import NASPA, EloSystem, apply_excess, rate_division
from ratings.engine.wespa import WESPA, rate_wespa

__all__ = [
    "NASPA",
    "WESPA",
    "DivisionInput",
    "DivisionRating",
    "EloSystem",
    "PlayerRating",
    "RatingOptions",
    "SegmentRating",
    "apply_excess",
    "expected_score",
    "multiplier",
    "rate_division",
    "rate_wespa",
    "segment_bounds",
]
