"""Helpers shared by the pairing tests: made-up fields and simulated rounds."""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.play.core.pairing import PairingOptions, PairingPlayer, PairingResult, pair_round
from events.play.core.results import Game, GameKind, PlayerId


def field_of(n: int, top_rating: int = 2000) -> list[PairingPlayer]:
    """n players, id = seed = 1..n, ratings falling with the seed."""
    return [PairingPlayer(id=k, rating=top_rating - 10 * k, seed=k) for k in range(1, n + 1)]


def win(round_number: int, winner: PlayerId, loser: PlayerId, margin: int = 50, first: PlayerId | None = None) -> Game:
    return Game(round=round_number, player_a=winner, player_b=loser, score_a=400 + margin, score_b=400, first=first)


def bye(round_number: int, player: PlayerId) -> Game:
    return Game(round=round_number, player_a=player, kind=GameKind.BYE)


def play(
    result: PairingResult, round_number: int, rng: random.Random, strength: dict[PlayerId, int] | None = None
) -> list[Game]:
    """Games for a paired round: random scores, nudged by `strength` if given."""
    games: list[Game] = []
    for a, b in result.pairs:
        edge = 0 if strength is None else (strength[a] - strength[b]) // 10
        sa = max(0, min(900, int(rng.gauss(400 + edge, 70))))
        sb = max(0, min(900, int(rng.gauss(400 - edge, 70))))
        games.append(Game(round=round_number, player_a=a, player_b=b, score_a=sa, score_b=sb, first=a))
    if result.bye is not None:
        games.append(bye(round_number, result.bye))
    return games


def run_event(
    system: str, players: Sequence[PairingPlayer], rounds: int, seed: int = 1, **options: object
) -> tuple[list[Game], list[PairingResult]]:
    """Pair and play `rounds` rounds of `system`; returns the games and each round's pairing."""
    rng = random.Random(seed)
    strength = {p.id: p.rating for p in players}
    games: list[Game] = []
    results: list[PairingResult] = []
    for r in range(1, rounds + 1):
        result = pair_round(system, players, games, PairingOptions(round=r, seed=seed, **options))  # type: ignore[arg-type]
        results.append(result)
        games += play(result, r, rng, strength)
    return games, results


def assert_complete(result: PairingResult, players: Sequence[PairingPlayer]) -> None:
    """Every player appears exactly once, in a pair or as the bye."""
    seen = [p for pair in result.pairs for p in pair] + ([result.bye] if result.bye is not None else [])
    assert sorted(seen) == sorted(p.id for p in players)
    assert (result.bye is not None) == (len(players) % 2 == 1)
