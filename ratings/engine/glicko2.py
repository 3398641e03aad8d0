"""Glicko-2 (Glickman's algorithm, one rating period at a time).

Rating periods of a list are calendar months (or runs of `months` calendar months, see
`rating_period`). A player who played in no rating period between two of their events has their
deviation widened once per such idle period, as Glickman's step 6 alone does (`idle`):
φ* = sqrt(φ² + σ²), rating and volatility unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

SCALE = 173.7178  # Glicko-2 internal scale: rating 1500 +- SCALE * mu
DEFAULT_TAU = 0.5
CONVERGENCE = 0.000001


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def update(
    player: Glicko2Rating,
    opponents: Sequence[Glicko2Rating],
    scores: Sequence[float],
    tau: float = DEFAULT_TAU,
) -> Glicko2Rating:
    """The player's rating after one rating period (scores: 1 win, 0.5 tie, 0 loss)."""
    if len(opponents) != len(scores):
        raise ValueError("one score per opponent")
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not opponents:
        # No games: only the uncertainty grows.
        return Glicko2Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)

    v_inv = 0.0
    delta_sum = 0.0
    for opp, s in zip(opponents, scores, strict=True):
        mu_j = (opp.rating - 1500.0) / SCALE
        g_j = _g(opp.rd / SCALE)
        e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        v_inv += g_j * g_j * e_j * (1.0 - e_j)
        delta_sum += g_j * (s - e_j)
    v = 1.0 / v_inv
    delta = v * delta_sum

    # New volatility: root of f by the Illinois variant of regula falsi.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)

    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    return Glicko2Rating(1500.0 + SCALE * new_mu, SCALE * new_phi, new_sigma)


def rating_period(day: date, months: int = 1) -> int:
    """The number of the rating period a day falls in: periods are runs of `months` calendar months
    (1: every month is a period; 3: quarters), counted from January of year 0."""
    if months < 1:
        raise ValueError("a rating period is at least one month")
    return (day.year * 12 + day.month - 1) // months


def idle(player: Glicko2Rating, periods: int, max_rd: float | None = None) -> Glicko2Rating:
    """The player after `periods` rating periods without games: each one widens the deviation by
    Glickman's step 6 alone (φ* = sqrt(φ² + σ²)); rating and volatility stay. With `max_rd`, the
    deviation never grows past it (an unrated player's)."""
    for _ in range(max(periods, 0)):
        grown = update(player, [], [])
        if max_rd is not None and grown.rd > max_rd:
            return Glicko2Rating(player.rating, max(max_rd, player.rd), player.volatility)
        player = grown
    return player
