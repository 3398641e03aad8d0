"""ABSP (UK) ratings, newcomers rated as tsh's ABSP code rates them.

A game is worth the opponent's rating +50 for a win, -50 for a loss, 0 for a tie. The
published rating is a weighted average of the player's last 150 game values, the newest
weighing 225 and each older one a point less (the 150th newest, 76).

An event's rating (`rate_event`) is the average of the player's game values there, worked
in three passes as tsh works them:

1. Each newcomer (pre-rating 0) is estimated from their games against rated players, each
   at the opponent's rating, not held to any band. The estimate is rounded (halves up) and
   is at least 80; a newcomer with no game against a rated player is estimated at 80.
2. Each newcomer is rated again from all their games: rated opponents at their rating,
   newcomers at their first-pass estimate. At least 80, rounded halves up.
3. Each rated player is rated from their games against rated players, the opponent's rating
   held to within 40 points of the player's own. At least 40, rounded halves up. A rated
   player with no such game (only byes, or only newcomers) keeps their rating (still at
   least 40).

A rated player's game against a newcomer is left out of the rated player's rating. tsh's
ABSP code means to count it at the newcomer's new rating, but it looks that rating up in a
place it never writes (the new rating is stored per round with the player's extra fields),
finds nothing and skips the game; the site rates as tsh does.

A game in which either side scored 0 is not rated: tsh reads a score of 0 as no score. A
player is rated only if they have a result in the event (a game or a bye); a newcomer with
results but no rated game is rated 80, as tsh shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.engine.common import round_half_up

CLAMP = 40.0
WIN_BONUS = 50.0
GAMES_IN_RATING = 150
NEWEST_WEIGHT = 225  # weights run 225, 224, ... 76 over the last 150 games
RATED_FLOOR = 40  # the least event rating of a rated player
NEWCOMER_FLOOR = 80  # the least event rating (and first-pass estimate) of a newcomer


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
    new_rating: int  # the event rating, rounded; the pre-rating kept without a result; 0 = still unrated
    games: int  # games that entered the event rating
    actual_wins: float
    expected_wins: float | None  # ABSP has no expectation
    game_values: list[float]
    event_rating: float | None = None  # unrounded, after the floor; None without a result in the event


def _event_rating(values: list[float], keep: float, floor: int) -> float:
    """Average of the values (`keep` without any), at least `floor`."""
    return max(sum(values) / len(values) if values else keep, floor)


def rate_event(
    pre_ratings: Sequence[float],
    player_a: Sequence[int],
    player_b: Sequence[int],
    score_a: Sequence[int],
    score_b: Sequence[int],
    present: Sequence[bool] | None = None,
) -> list[AbspResult]:
    """Event ratings of one division (the three passes in the module's docstring).

    Games in the order they were played (each player's values keep it). `present`: which
    players have a result in the event (a game or a bye); by default those with a game.
    """
    n = len(pre_ratings)
    if present is not None and len(present) != n:
        raise ValueError("one presence per player")
    took_part = [bool(p) for p in present] if present is not None else [False] * n
    # Each player's rated games in order: (opponent, +1 win / 0 tie / -1 loss).
    games: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    wins = [0.0] * n
    for a, b, sa, sb in zip(player_a, player_b, score_a, score_b, strict=True):
        sign = (sa > sb) - (sa < sb)
        wins[a] += (1 + sign) / 2
        wins[b] += (1 - sign) / 2
        took_part[a] = took_part[b] = True
        if sa and sb:  # a score of 0 is no score to tsh
            games[a].append((b, sign))
            games[b].append((a, -sign))
    rated = [bool(r) for r in pre_ratings]

    def values(i: int, newcomer_at: Sequence[float] | None) -> list[float]:
        """Player i's game values; newcomers valued at `newcomer_at` (None: left out)."""
        own = float(pre_ratings[i]) if rated[i] else 0.0
        out = []
        for opp, sign in games[i]:
            if rated[opp]:
                at = clamped_opponent(own, float(pre_ratings[opp])) if own else float(pre_ratings[opp])
            elif newcomer_at is None:
                continue
            else:
                at = newcomer_at[opp]
            out.append(at + WIN_BONUS * sign)
        return out

    # Pass 1: newcomers from their games against rated players only.
    estimate = [0.0] * n
    for i in range(n):
        if took_part[i] and not rated[i]:
            estimate[i] = round_half_up(_event_rating(values(i, None), 0.0, NEWCOMER_FLOOR))
    results = []
    for i, pre in enumerate(pre_ratings):
        if not took_part[i]:
            v: list[float] = []
            event, new = None, (round_half_up(float(pre)) if rated[i] else 0)
        elif rated[i]:
            # Pass 3: a rated player's games against newcomers are left out (see above).
            v = values(i, None)
            event = _event_rating(v, float(pre), RATED_FLOOR)
            new = round_half_up(event)
        else:
            # Pass 2: newcomers again, other newcomers at their first-pass estimate.
            v = values(i, estimate)
            event = _event_rating(v, 0.0, NEWCOMER_FLOOR)
            new = round_half_up(event)
        results.append(
            AbspResult(
                pre_rating=pre,
                new_rating=new,
                games=len(v),
                actual_wins=wins[i],
                expected_wins=None,
                game_values=v,
                event_rating=event,
            )
        )
    return results
