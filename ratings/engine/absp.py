"""ABSP (UK) ratings.

A game is worth the opponent's rating +50 for a win, -50 for a loss, 0 for a tie,
with the opponent's rating held to within 40 points of the player's own. The
tournament rating is the average over the event's games; the published rating is
a weighted average of the player's last 150 game values, the newest weighing 225
and each older one a point less (the 150th newest, 76).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.engine.common import round_half_up

CLAMP = 40.0
WIN_BONUS = 50.0
GAMES_IN_RATING = 150
NEWEST_WEIGHT = 225  # weights run 225, 224, ... 76 over the last 150 games


def clamped_opponent(own: float, opponent: float) -> float:
    return min(max(opponent, own - CLAMP), own + CLAMP)


def game_value(own: float, opponent: float, result: float) -> float:
    """result: 1 win, 0.5 tie, 0 loss. An unrated player (own 0) is not clamped."""
    opp = clamped_opponent(own, opponent) if own else opponent
    return opp + WIN_BONUS * (2.0 * result - 1.0)


def tournament_rating(own: float, opponents: Sequence[float], results: Sequence[float]) -> float:
    """Average game value over the event (unrounded)."""
    if len(opponents) != len(results):
        raise ValueError("one result per opponent")
    if not opponents:
        raise ValueError("no games")
    values = [game_value(own, o, r) for o, r in zip(opponents, results, strict=True)]
    return sum(values) / len(values)


def published_rating(game_values: Sequence[float]) -> float:
    """Weighted average of the last 150 game values (oldest first in the input)."""
    recent = list(game_values)[-GAMES_IN_RATING:]
    if not recent:
        raise ValueError("no games")
    # The newest game weighs 225, the one before 224, ...
    weights = [NEWEST_WEIGHT - age for age in range(len(recent))][::-1]
    return sum(w * v for w, v in zip(weights, recent, strict=True)) / sum(weights)


@dataclass
class AbspResult:
    pre_rating: float
    new_rating: int  # the event's tournament rating, rounded; 0 without rated games
    games: int
    actual_wins: float
    expected_wins: float | None  # ABSP has no expectation
    game_values: list[float]


def rate_event(
    pre_ratings: Sequence[float],
    player_a: Sequence[int],
    player_b: Sequence[int],
    score_a: Sequence[int],
    score_b: Sequence[int],
) -> list[AbspResult]:
    """Tournament ratings of one event. Games against an unrated opponent carry no
    information about a rated player and are left out of that player's values."""
    values: list[list[float]] = [[] for _ in pre_ratings]
    wins = [0.0] * len(pre_ratings)
    for a, b, sa, sb in zip(player_a, player_b, score_a, score_b, strict=True):
        ra = 1.0 if sa > sb else 0.5 if sa == sb else 0.0
        for me, opp, result in ((a, b, ra), (b, a, 1.0 - ra)):
            wins[me] += result
            if pre_ratings[opp] or not pre_ratings[me]:
                values[me].append(game_value(pre_ratings[me], pre_ratings[opp], result))
    results = []
    for i, pre in enumerate(pre_ratings):
        v = values[i]
        results.append(
            AbspResult(
                pre_rating=pre,
                new_rating=round_half_up(sum(v) / len(v)) if v else 0,
                games=len(v),
                actual_wins=wins[i],
                expected_wins=None,
                game_values=v,
            )
        )
    return results
