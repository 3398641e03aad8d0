"""The rating calculator: one player's new rating from their opponents' ratings and their results,
computed by the same engine a rating run uses (`rate_division_arrays`), nothing re-implemented.

The player and each opponent are the players of a one-off division; the player meets opponent i in
round i, so an event of more than 16 games is rated in segments as NASPA rates long events. The
opponents are given no multiplier (career games below zero gives K = 0): their ratings stay as they
are, so they earn no acceleration bonus and send the player no feedback. The player's own bonus
still sends each rated opponent 1/20 of it, which the result reports but which never changes the
player's rating.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from clubsite.kit.errors import ServiceError
from clubsite.kit.wins import format_wins
from ratings.engine.common import DEFAULT_CAREER_GAMES, expected_score, segment_bounds, wespa_expected_score
from ratings.engine.naspa import FEEDBACK_DIVISOR

from .systems import BadSettings, rate_division_arrays

MAX_GAMES = 60
LOWEST_RATING = 1
HIGHEST_RATING = 3000
# Career games that give a player no multiplier (ratings.engine.common.multiplier).
NO_MULTIPLIER = -1
SEGMENTED_SYSTEMS = ("naspa",)
EXPECTATION = {"naspa": expected_score, "wespa": wespa_expected_score}

WIN, TIE, LOSS = 1.0, 0.5, 0.0
_RESULTS = {
    "W": WIN,
    "WIN": WIN,
    "WON": WIN,
    "1": WIN,
    "L": LOSS,
    "LOSS": LOSS,
    "LOST": LOSS,
    "0": LOSS,
    "T": TIE,
    "TIE": TIE,
    "D": TIE,
    "DRAW": TIE,
    "0.5": TIE,
    ".5": TIE,
    "½": TIE,
}
_SPLIT = re.compile(r"[\s,;:]+")


@dataclass(frozen=True)
class OpponentLine:
    rating: int
    result: float | None  # None when the line gives only the rating (wins given as a total)


@dataclass(frozen=True)
class CalculatedGame:
    opponent_rating: int
    result: float
    expected: float | None  # at the player's pre-rating; None when not one segment of an Elo system


@dataclass(frozen=True)
class Calculation:
    system: str
    old_rating: int  # 0 = unrated
    new_rating: int  # 0 = still unrated
    games: list[CalculatedGame]
    career_games: int
    career_games_assumed: bool
    expected_wins: float | None
    actual_wins: float
    k: int  # 0 for a newcomer and for systems without one
    bonus: float
    feedback_to_each_opponent: float
    performance: float | None
    segments: int
    third_rated: bool

    @property
    def change(self) -> int:
        return self.new_rating - self.old_rating if self.old_rating else 0


def _rating(text: str, what: str, field: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise ServiceError(f"{what}: “{text}” is not a rating.", field=field)
    if not value.is_integer() or not LOWEST_RATING <= value <= HIGHEST_RATING:
        raise ServiceError(f"{what}: a rating is a whole number from {LOWEST_RATING} to {HIGHEST_RATING}.", field=field)
    return int(value)


def parse_opponents(text: str) -> list[OpponentLine]:
    """One opponent a line: their rating, then the result (W, L or T; 1, 0 or ½), or the rating alone."""
    lines = []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        parts = [p for p in _SPLIT.split(raw.strip()) if p]
        if not parts:
            continue
        if len(parts) > 2:
            raise ServiceError(f"Line {number}: give the opponent's rating and your result, e.g. “1650 W”.", "games")
        rating = _rating(parts[0], f"Line {number}", "games")
        result = None
        if len(parts) == 2:
            result = _RESULTS.get(parts[1].upper())
            if result is None:
                raise ServiceError(f"Line {number}: “{parts[1]}” is not a result; use W, L or T.", "games")
        lines.append(OpponentLine(rating, result))
    if not lines:
        raise ServiceError("Give at least one opponent's rating, one a line.", "games")
    if len(lines) > MAX_GAMES:
        raise ServiceError(f"At most {MAX_GAMES} games at a time.", "games")
    return lines


def _results(lines: list[OpponentLine], wins: float | None, system: str) -> list[float]:
    given = [line.result for line in lines]
    if all(r is not None for r in given):
        if wins is not None and not math.isclose(wins, sum(given)):
            total = sum(given)
            raise ServiceError(
                f"The results add up to {format_wins(total)} wins, not {format_wins(wins)}; give one or the other.",
                "wins",
            )
        return given
    if any(r is not None for r in given):
        raise ServiceError("Give a result on every line, or on none and the total of wins below.", "games")
    if wins is None:
        raise ServiceError("Give your result against each opponent, or your total of wins.", "wins")
    n = len(lines)
    if wins < 0 or wins > n or (wins * 2) % 1:
        raise ServiceError(f"Wins are a number from 0 to {n}, in halves for a tie.", "wins")
    if system in SEGMENTED_SYSTEMS and len(segment_bounds(n)) > 1:
        raise ServiceError(
            f"{n} games are rated in segments, so the order matters: give your result against each opponent.", "wins"
        )
    whole = int(wins)
    return [WIN] * whole + [TIE] * (1 if wins > whole else 0) + [LOSS] * (n - whole - (1 if wins > whole else 0))


def calculate(
    rating: int | None,
    opponents: list[OpponentLine],
    *,
    wins: float | None = None,
    career_games: int | None = None,
    system: str = "naspa",
    settings: dict | None = None,
    third_rated: bool = False,
) -> Calculation:
    """The player's new rating after these games. `rating` None or 0 = unrated; `career_games`
    None = unknown (the reference assumes 100)."""
    old = rating or 0
    if old and not LOWEST_RATING <= old <= HIGHEST_RATING:
        raise ServiceError(f"Your rating is a whole number from {LOWEST_RATING} to {HIGHEST_RATING}.", "rating")
    if career_games is not None and career_games < 0:
        raise ServiceError("Career games cannot be below 0.", "career_games")
    results = _results(opponents, wins, system)
    n = len(opponents)
    career = DEFAULT_CAREER_GAMES if career_games is None else career_games
    pre = np.array([float(old)] + [float(o.rating) for o in opponents])
    careers = np.array([career] + [NO_MULTIPLIER] * n, dtype=np.int64)
    me = np.zeros(n, dtype=np.int64)
    them = np.arange(1, n + 1, dtype=np.int64)
    won = np.array(results)
    # Scores only carry the result: 1-0 a win, 0-1 a loss, 0-0 a tie.
    score_me = (won > 0.5).astype(np.int64)
    score_them = (won < 0.5).astype(np.int64)
    try:
        out = rate_division_arrays(
            system,
            pre,
            careers,
            [{} for _ in range(n + 1)],
            me,
            them,
            score_me,
            score_them,
            np.arange(n, dtype=np.int64),
            max_rounds=n,
            third_rated=third_rated,
            options=settings or {},
        )
    except BadSettings as error:
        raise ServiceError(f"The rating list's settings cannot be used: {error}.")
    segments = len(segment_bounds(n, split=system in SEGMENTED_SYSTEMS))
    expect = EXPECTATION.get(system) if old and segments == 1 else None
    expected = float(out.expected[0])
    performance = float(out.performance[0])
    bonus = float(out.bonus[0])
    return Calculation(
        system=system,
        old_rating=old,
        new_rating=int(out.new_rating[0]),
        games=[
            CalculatedGame(o.rating, r, expect(old, o.rating) if expect else None)
            for o, r in zip(opponents, results, strict=True)
        ],
        career_games=career,
        career_games_assumed=career_games is None,
        expected_wins=None if math.isnan(expected) or system not in EXPECTATION else expected,
        actual_wins=float(out.actual[0]),
        k=int(out.k[0]),
        bonus=bonus,
        feedback_to_each_opponent=bonus / FEEDBACK_DIVISOR if system in EXPECTATION and bonus else 0.0,
        performance=None if math.isnan(performance) else performance,
        segments=segments,
        third_rated=third_rated,
    )
