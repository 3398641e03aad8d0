"""Types shared by the pairing systems, and what they need from the history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from events.play.core.results import Game, GameKind, PlayerId
from events.play.core.standings import Entrant, StandingsOptions

__all__ = [
    "MAX_SEED",
    "SEED_REFUSAL",
    "SEED_RULE",
    "PairingPlayer",
    "PairingOptions",
    "PairingResult",
    "PairingError",
    "History",
]

# Pairing needs the same facts about a player as standings do.
PairingPlayer = Entrant

# A seed is recorded with the round it drew, so anyone can draw it again: a whole number from 0 to the largest
# a 64-bit signed integer holds. Every door (the pair-round page, the API) takes this bound from here.
MAX_SEED = 2**63 - 1
# The bound in a director's words: the number itself means nothing at a venue, but "18 digits" does.
SEED_RULE = (
    f"a seed is a whole number from 0 to {MAX_SEED:,} (any number of up to 18 digits will do); "
    "leave it empty and the site draws one"
)
SEED_REFUSAL = SEED_RULE[:1].upper() + SEED_RULE[1:] + "."  # as a form or the API says it


@dataclass(frozen=True)
class PairingOptions:
    """How to pair one round.

    round: the round being paired (1-based).
    total_rounds: scheduled rounds; needed for Gibsonization.
    based_on_round: pair from the standings after this round. None means the
        previous round; Fontes-style events pair from two rounds back so the
        next round can be posted before the current one ends.
    avoid_repeats: False pairs King of the Hill and Random purely by order
        ("with repeats") and lets Swiss pair any two players however often
        they met.
    max_repeats: how many times two players may already have met and still be
        paired; a pairing that cannot keep within it raises PairingError.
        King of the Hill treats pairs within it as fresh, as tsh's `koth`
        does; Swiss, as tsh's `ns`, keeps a win group together with repeats
        within it rather than float players (preferring fresh opponents
        inside the group); random pairing keeps repeats to a minimum.
    seed: seed for random pairing and for drawing who starts; None draws a
        fresh one, recorded in the result so the round can be reproduced.
    start_round: first round of a round robin or initial Fontes block.
    cycles: round robin cycles (2 for a double round robin).
    fontes_rounds: N for initial Fontes (odd): groups of N + 1.
    initial_snaked: initial Fontes groups snake through the rating bands
        (tsh's `initial_snaked`); False draws each group's players at random
        from the bands with `seed` (tsh's default). Every round of the block
        must be paired with the same setting and seed.
    gibson: pair a leader who can no longer be caught with the best-placed
        player out of prize contention (King of the Hill and Swiss).
    gibson_spread: spread a chaser may make up per round left (Gibson test).
    prize_places: how many places carry prizes, for "out of contention".
    prize_bands: Chew pairings' prize bands, as tsh's `prize_bands`: the last
        place of each band, increasing (1, 2, 3, 8 contends for 1st, 2nd,
        3rd, then 4th to 8th). None takes tsh's default: every place from 1
        to a quarter of the field.
    assign_firsts: decide who starts each game (else the higher-placed player
        is listed first). As with tsh's `assign_firsts`, Swiss then also
        prefers to pair a player due to start with one due to reply (ahead
        of the opponent half the group away).
    standings: standings rules of the event (byes, spread cap, ...).
    """

    round: int
    total_rounds: int | None = None
    based_on_round: int | None = None
    avoid_repeats: bool = True
    max_repeats: int = 0
    seed: int | None = None
    start_round: int = 1
    cycles: int = 1
    fontes_rounds: int = 3
    initial_snaked: bool = False
    gibson: bool = False
    gibson_spread: int = 200
    prize_places: int = 1
    prize_bands: tuple[int, ...] | None = None
    assign_firsts: bool = True
    standings: StandingsOptions = StandingsOptions()

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"round must be 1 or more, got {self.round}")
        if self.based_on_round is not None and not 0 <= self.based_on_round < self.round:
            raise ValueError("based_on_round must be an earlier round (0 = before play)")
        if self.max_repeats < 0:
            raise ValueError("max_repeats cannot be negative")
        if self.cycles < 1:
            raise ValueError("a round robin needs at least one cycle")
        if self.fontes_rounds < 1 or self.fontes_rounds % 2 == 0:
            raise ValueError("initial Fontes needs an odd number of rounds")
        if self.prize_bands is not None and (
            not self.prize_bands
            or self.prize_bands[0] < 1
            or any(b <= a for a, b in zip(self.prize_bands, self.prize_bands[1:], strict=False))
        ):
            raise ValueError("prize bands must be increasing places, the first at least 1")
        if self.seed is not None and not 0 <= self.seed <= MAX_SEED:
            raise ValueError(SEED_RULE)

    @property
    def standings_round(self) -> int:
        return self.round - 1 if self.based_on_round is None else self.based_on_round


@dataclass(frozen=True)
class PairingResult:
    """Pairs in board order, the player going first listed first."""

    pairs: list[tuple[PlayerId, PlayerId]]
    bye: PlayerId | None = None
    repeats: int = 0  # pairs that have met before
    warnings: list[str] = field(default_factory=list)
    seed: int | None = None  # the seed used for draws
    gibsonized: PlayerId | None = None
    chew_gibsons: list[PlayerId] = field(default_factory=list)  # Gibsonized by Chew pairings' own rule


class PairingError(Exception):
    """No acceptable pairing; `best` is the least-repeat pairing found, if any."""

    def __init__(self, message: str, best: PairingResult | None = None) -> None:
        super().__init__(message)
        self.best = best


class History:
    """Facts about earlier rounds that pairing needs.

    Counts every game before `before_round`, pending ones included: a
    pairing posted but not yet played is still a meeting and a start.
    """

    def __init__(self, games: Iterable[Game], before_round: int) -> None:
        self.games: list[Game] = [g for g in games if g.round < before_round]
        # Per player, so that looking up a pair (done for every possible pair
        # of a field) is two dictionary reads.
        self._met: dict[PlayerId, Counter[PlayerId]] = {}
        self._last_round: dict[PlayerId, set[PlayerId]] = {}
        # Starts and replies as tsh's SynchFirsts counts them (p1, p2): only games played against an opponent.
        # A bye, a forfeit or a void game is opponent 0 in tsh (its p12 is 0), so it is neither a start nor
        # a reply; a game whose start is not recorded is tsh's "indeterminate" (p12 4), counted apart.
        self.firsts: Counter[PlayerId] = Counter()
        self.seconds: Counter[PlayerId] = Counter()
        self.unknown_firsts: Counter[PlayerId] = Counter()
        self.byes: Counter[PlayerId] = Counter()
        # Rounds without an opponent, as tsh counts them when it gives a bye (Division::CountByes counts
        # every round whose opponent is 0): byes, forfeits and void games (tsh writes all three as
        # opponent 0, for both players of a game forfeited against a present opponent), and rounds a
        # player missed (see `rounds_without_opponent`).
        self._unopposed: Counter[PlayerId] = Counter()
        self._rounds_of: dict[PlayerId, set[int]] = {}
        self._played_rounds = {g.round for g in self.games}
        for g in self.games:
            for p in g.players:
                self._rounds_of.setdefault(p, set()).add(g.round)
                if g.kind is not GameKind.NORMAL:
                    self._unopposed[p] += 1
            b = g.player_b
            if b is not None and g.kind is not GameKind.VOID:
                a = g.player_a
                self._met.setdefault(a, Counter())[b] += 1
                self._met.setdefault(b, Counter())[a] += 1
                if g.round == before_round - 1:
                    self._last_round.setdefault(a, set()).add(b)
                    self._last_round.setdefault(b, set()).add(a)
                if g.kind is GameKind.NORMAL and g.first is not None:
                    self.firsts[g.first] += 1
                    self.seconds[b if g.first == a else a] += 1
                elif g.kind is GameKind.NORMAL:
                    self.unknown_firsts[a] += 1
                    self.unknown_firsts[b] += 1
            if g.kind is GameKind.BYE:
                self.byes[g.player_a] += 1

    def rounds_without_opponent(self, player: PlayerId) -> int:
        """Rounds `player` had no opponent in, as tsh counts byes when it chooses who sits out.

        Byes, forfeits (on either side) and void games count, and so does every round in which others
        played and `player` has no game at all (absent, or not yet entered), as tsh pairs such a player
        with nobody.
        """
        absent = len(self._played_rounds - self._rounds_of.get(player, set()))
        return self._unopposed[player] + absent

    def met(self, a: PlayerId, b: PlayerId) -> int:
        """How many times a and b have been paired."""
        opponents = self._met.get(a)
        return opponents[b] if opponents else 0

    def met_last_round(self, a: PlayerId, b: PlayerId) -> bool:
        return b in self._last_round.get(a, ())

    def opponents(self, a: PlayerId) -> Mapping[PlayerId, int]:
        """Everyone a has been paired with, and how often."""
        return self._met.get(a, {})

    def last_round_opponents(self, a: PlayerId) -> Collection[PlayerId]:
        return self._last_round.get(a, ())

    def player_ids(self) -> set[PlayerId]:
        return {p for g in self.games for p in g.players}


def count_repeats(pairs: Sequence[tuple[PlayerId, PlayerId]], history: History) -> int:
    return sum(1 for a, b in pairs if history.met(a, b))
