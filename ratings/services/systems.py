"""One division through the rating engine of a list's system, on arrays.

No database here: the cascade in ratings.services.rating reads the games, calls
`rate_division_arrays` once per division, and writes what comes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np

from ratings.engine.common import NASPA_EXPECTATION, WESPA_EXPECTATION, FloatArray, IntArray, group_by
from ratings.engine.kernels import FORMULAS, performance_search


class UnknownSystem(ValueError):
    pass


class BadSettings(ValueError):
    """A rating list's settings that its system cannot use."""


@dataclass
class DivisionResult:
    """Per player of the division (arrays indexed like the input)."""

    new_rating: IntArray
    expected: FloatArray
    actual: FloatArray
    games: IntArray
    k: FloatArray
    bonus: FloatArray
    feedback: FloatArray
    performance: FloatArray  # NaN when the player has no rated game
    deviation: list[float | None]
    state: list[dict[str, Any]]  # carried to the player's next event


def performance_ratings(
    system: str, opp_rating_entries: FloatArray, entry_player: IntArray, wins: FloatArray, games: IntArray
) -> FloatArray:
    """The whole rating at which each player's expected wins against the opponents met equal
    the wins scored (no wins counts as 5% of the games, all wins as 95%, as for newcomers).
    NaN for a player without games."""
    n = games.size
    g = games.astype(np.float64)
    target = np.where(wins == 0, 0.05 * g, np.where(wins == g, 0.95 * g, wins))
    order, starts = group_by(entry_player, n)  # each player's games in round order
    expectation = WESPA_EXPECTATION if system == "wespa" else NASPA_EXPECTATION
    opp = np.ascontiguousarray(np.asarray(opp_rating_entries, dtype=np.float64)[order])
    return performance_search(starts, opp, np.ascontiguousarray(target), expectation.table, FORMULAS[expectation.name])


def _elo(system: str):
    if system == "naspa":
        from ratings.engine.naspa import NASPA

        return NASPA
    if system == "wespa":
        from ratings.engine.wespa import WESPA

        return WESPA
    raise UnknownSystem(system)


def rate_division_arrays(
    system: str,
    pre: FloatArray,
    career: IntArray,
    state: list[dict[str, Any]],
    player_a: IntArray,
    player_b: IntArray,
    score_a: IntArray,
    score_b: IntArray,
    round_index: IntArray,
    max_rounds: int,
    third_rated: bool = False,
    options: dict[str, Any] | None = None,
    day: date | None = None,
) -> DivisionResult:
    """Rate one division. pre 0 = unrated; games in any order; round_index 0-based; `day`: when its
    event began (Glicko-2 widens the deviation of players idle since an earlier rating period)."""
    from ratings.engine.common import game_wins

    order = np.argsort(round_index, kind="stable")
    a, b, rnd = player_a[order], player_b[order], round_index[order]
    wins_a = game_wins(score_a[order], score_b[order])
    n = pre.size
    entry_player = np.concatenate((a, b))
    entry_opp = np.concatenate((b, a))
    entry_wins = np.concatenate((wins_a, 1.0 - wins_a))
    games = np.bincount(entry_player, minlength=n).astype(np.int64)
    actual = np.bincount(entry_player, weights=entry_wins, minlength=n)

    if system in ("naspa", "wespa"):
        from ratings.engine.naspa import rate_event_arrays

        ev = rate_event_arrays(pre, career, a, b, wins_a, rnd, max_rounds, _elo(system), third_rated)
        # Newcomers count at their initial rating, as the engine rated them.
        effective = np.where(np.isnan(ev.performance), pre, ev.performance)
        perf = performance_ratings(system, effective[entry_opp], entry_player, actual, games)
        newcomer = ~np.isnan(ev.performance)
        perf[newcomer] = np.floor(ev.performance[newcomer] + 0.5)
        return DivisionResult(
            new_rating=ev.new_rating.astype(np.int64),
            expected=ev.expected,
            actual=ev.actual,
            games=ev.games,
            k=ev.k,
            bonus=ev.bonus,
            feedback=ev.feedback,
            performance=perf,
            deviation=[None] * n,
            state=[{} for _ in range(n)],
        )
    if system == "absp":
        states = [{**s, "seed_games": int(c)} if not s else s for s, c in zip(state, career.tolist(), strict=True)]
        return _rate_absp(pre, states, a, b, score_a[order], score_b[order], games, actual)
    if system == "glicko2":
        return _rate_glicko2(pre, state, a, b, wins_a, games, actual, options or {}, day)
    raise UnknownSystem(system)


def _rate_absp(pre, state, a, b, sa, sb, games, actual) -> DivisionResult:
    """ABSP: the new rating is the weighted average of the player's last 150 game values.

    The event's game values and rating come from `absp.rate_event` (tsh's three passes: newcomers
    from their rated games, then again with other newcomers at that estimate; rated players from
    games against rated players only).

    A seeded player without recorded game values counts their earlier games (up to 150) as
    played at their seeded rating.
    """
    from ratings.engine import absp

    n = pre.size
    results = absp.rate_event(pre.tolist(), a.tolist(), b.tolist(), sa.tolist(), sb.tolist())
    new = pre.astype(np.int64).copy()
    rated_games = np.zeros(n, dtype=np.int64)
    performance = np.full(n, np.nan)
    states: list[dict[str, Any]] = []
    for i, r in enumerate(results):
        values = list(state[i].get("values", []))
        if not values and pre[i] > 0:
            values = [float(pre[i])] * min(int(state[i].get("seed_games", absp.GAMES_IN_RATING)), absp.GAMES_IN_RATING)
        if r.game_values:
            values = (values + r.game_values)[-absp.GAMES_IN_RATING :]
            new[i] = max(1, int(np.floor(absp.published_rating(values) + 0.5)))
            rated_games[i] = r.games
            performance[i] = r.event_rating  # the event's rating as tsh gives it (floored at 40, a newcomer's at 80)
        states.append({"values": values} if values else {})
    return DivisionResult(
        new_rating=new,
        expected=np.full(n, np.nan),
        actual=actual,
        games=rated_games,
        k=np.zeros(n),
        bonus=np.zeros(n),
        feedback=np.zeros(n),
        performance=performance,
        deviation=[None] * n,
        state=states,
    )


def _rate_glicko2(pre, state, a, b, wins_a, games, actual, options, day: date | None = None) -> DivisionResult:
    """Glicko-2 with each division one update; an unrated player starts at 1500.

    Rating periods are calendar months (`rating_period_months` of them per period; default 1). A
    player whose last rated month (kept in their state as "month") fell in a period before the one before
    this division's has their deviation widened once per idle period in between (Glickman's step 6
    alone, φ* = sqrt(φ² + σ²)), never past initial_rd, before this division rates anybody: their
    opponents see the widened deviation too. The update's own step 6 covers the division's period.
    Two events in one period are two updates, with no widening between them. Without `day` (or for a
    player rated before periods were kept) nothing is widened.

    Options (the list's settings): tau, initial_rd, initial_volatility, rating_period_months.
    """
    from ratings.engine import glicko2

    n = pre.size
    try:
        tau = float(options.get("tau", glicko2.DEFAULT_TAU))
        start_rd = float(options.get("initial_rd", 350.0))
        start_vol = float(options.get("initial_volatility", 0.06))
    except (TypeError, ValueError):
        raise BadSettings("tau, initial_rd and initial_volatility must be numbers")
    if not (tau > 0 and start_rd > 0 and start_vol > 0):
        raise BadSettings("tau, initial_rd and initial_volatility must be above 0")
    months = options.get("rating_period_months", 1)
    if type(months) is not int or months < 1:
        raise BadSettings("rating_period_months must be a whole number of months, 1 or more")
    month = glicko2.rating_period(day) if day is not None else None
    before = []
    for i in range(n):
        if pre[i] <= 0:
            before.append(glicko2.Glicko2Rating(1500.0, start_rd, start_vol))
            continue
        me = glicko2.Glicko2Rating(
            float(pre[i]), float(state[i].get("rd", start_rd)), float(state[i].get("vol", start_vol))
        )
        last = state[i].get("month")
        if month is not None and isinstance(last, int):
            me = glicko2.idle(me, month // months - last // months - 1, start_rd)
        before.append(me)
    opponents: list[list] = [[] for _ in range(n)]
    scores: list[list[float]] = [[] for _ in range(n)]
    for x, y, w in zip(a.tolist(), b.tolist(), wins_a.tolist(), strict=True):
        opponents[x].append(before[y])
        scores[x].append(w)
        opponents[y].append(before[x])
        scores[y].append(1.0 - w)
    new = pre.astype(np.int64).copy()
    expected = np.zeros(n)
    deviation: list[float | None] = [None] * n
    states: list[dict[str, Any]] = [dict(s) for s in state]
    for i in range(n):
        if not opponents[i]:
            continue
        me = before[i]
        mu = (me.rating - 1500.0) / glicko2.SCALE
        for opp in opponents[i]:
            phi = opp.rd / glicko2.SCALE
            g = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / np.pi**2)
            expected[i] += 1.0 / (1.0 + np.exp(-g * (mu - (opp.rating - 1500.0) / glicko2.SCALE)))
        after = glicko2.update(me, opponents[i], scores[i], tau)
        new[i] = max(1, int(np.floor(after.rating + 0.5)))
        deviation[i] = after.rd
        states[i] = {"rd": after.rd, "vol": after.volatility}
        if month is not None:
            states[i]["month"] = month
    entry_player = np.concatenate((a, b))
    entry_opp = np.concatenate((b, a))
    start = np.array([r.rating for r in before])
    performance = performance_ratings("naspa", start[entry_opp], entry_player, actual, games)
    return DivisionResult(
        new_rating=new,
        expected=expected,
        actual=actual,
        games=games,
        k=np.zeros(n),
        bonus=np.zeros(n),
        feedback=np.zeros(n),
        performance=performance,
        deviation=deviation,
        state=states,
    )
