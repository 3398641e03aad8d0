"""WESPA profile of the Elo family: logistic expectation on a 172-point scale,
NASPA's K table without proration at band edges, acceleration at 2/3 strength,
no segments."""

from __future__ import annotations

from ratings.engine.common import (
    WESPA_EXPECTATION,
    DivisionInput,
    DivisionRating,
    RatingOptions,
)
from ratings.engine.naspa import EloSystem, rate_division

WESPA = EloSystem(
    name="wespa",
    expectation=WESPA_EXPECTATION,
    prorate_at_band_edges=False,
    acceleration=2.0 / 3.0,
    feedback=True,
    floor=None,
    split_long_events=False,
)


def rate_wespa(inp: DivisionInput, options: RatingOptions | None = None) -> DivisionRating:
    return rate_division(inp, options, WESPA)
