"""Chew pairings as tsh's `cp` (ChewPair) makes them.

tsh's rule, read from its ChewPair command and the best-possible-finish code
it shares with Gibsonization:

* Prize bands split the places (tsh's `prize_bands`; the site passes the
  division's prize table, the last place of each place prize; without one,
  tsh's default, every place from 1 to a quarter of the field, each its own
  band); the last band's place is the last prize place. Ranks are shared by
  players level on wins, losses and spread.
* A player's best possible finish is worked out by playing the rounds left in
  their favour: they win every game by the most spread a game can make (500
  by default), players who cannot catch them win, those who could are made to
  lose, within flights of the capped size (2 with one round left, 4 with two,
  8 with three, 12 with four or more).
* Gibsons first: from the top, a player whom the next player cannot pass is
  Gibsonized; an even number of Gibsons play one another (fewest meetings,
  not last round's opponent, nearest), an odd last one plays the lowest player
  who cannot reach a prize place among those they met least.
* Then, band by band from the top of those left: the contenders for the top
  band left are the players who can still reach it (capped, and made even);
  they are paired with the fewest repeats that allow it, each leader with a
  player who can still catch them, the lowest such first; the contenders below
  the split Swiss (tsh's `ns`, see `swiss`). Players outside every prize band
  are paired as flights of those with a faint hope (within a win of the last
  prize place, when four rounds or fewer are left), then Swiss.

Where the site differs, and why:

* The bye is chosen before pairing by the site's one rule (the lowest-placed
  of those with fewest byes); tsh gives it after its Gibsons are paired (to an
  odd Gibson first). The site's own Gibson option is not used: cp's Gibsons
  are tsh's.
* tsh reads ranks "as of" several rounds (the based-on round, the round being
  paired, the last round); with every game before the round entered they are
  all the standings the site pairs from, which is what is used.
* Team play (`exagony`), Gibson-equivalent ranks and classes, flight caps
  other than tsh's default and "strict" Gibsons are not offered.
* When a search tsh would report as failed cannot pair a flight, the site
  pairs it with the fewest repeats, for the director to check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from events.play.core.results import PlayerId

from .core import History
from .swiss import can_resolve, resolve_preferences, start_pull, swiss_pairs

__all__ = ["ChewRecord", "chew_pairs", "default_prize_bands", "flight_cap"]

Pairs = list[tuple[PlayerId, PlayerId]]

# tsh's MaxSpread: the spread a player is taken to gain (or lose) per game still to play.
MAX_SPREAD = 500
BYE_SPREAD = 50
_NO_RANK = 10**6  # tsh's stand-in for a best finish not worked out


@dataclass(frozen=True)
class ChewRecord:
    """A player's record in the standings the round is paired from."""

    wins: float
    losses: float
    spread: int


def flight_cap(rounds_left: int) -> int:
    """tsh's default flight cap: how many may contend with so many rounds left (2, 4, 8, then 12)."""
    cap = 2 if rounds_left <= 1 else 12 if rounds_left >= 4 else (rounds_left - 1) * 4
    return cap + cap % 2


def default_prize_bands(field_size: int) -> tuple[int, ...]:
    """tsh's bands when none are set: each place from 1 to a quarter of the field."""
    return tuple(range(1, (field_size // 4 or 1) + 1))


def competition_ranks(order: Sequence[PlayerId], records: Mapping[PlayerId, ChewRecord]) -> dict[PlayerId, int]:
    """Ranks over `order`, shared by players level on wins, losses and spread (tsh's ranks)."""
    ranks: dict[PlayerId, int] = {}
    last: tuple[float, float, int] | None = None
    rank = 0
    for k, p in enumerate(order, start=1):
        r = records[p]
        key = (r.wins, r.losses, r.spread)
        if key != last:
            rank, last = k, key
        ranks[p] = rank
    return ranks


def chew_pairs(
    order: Sequence[PlayerId],
    records: Mapping[PlayerId, ChewRecord],
    ranks: Mapping[PlayerId, int],
    history: History,
    round_number: int,
    total_rounds: int,
    prize_bands: Sequence[int],
    max_spread: int = MAX_SPREAD,
    firsts: bool = False,
) -> tuple[Pairs, list[PlayerId]]:
    """Pair `order` (standings order, an even number) as tsh's `cp`; returns the pairs and the Gibsons.

    `firsts`: the event decides who starts; as tsh (whose `assign_firsts` switches on `track_firsts`),
    the Swiss parts and the pairing of Gibsons among themselves then prefer to pair a player due to
    start with one due to reply (`start_pull`).
    """
    return _Chew(order, records, ranks, history, round_number, total_rounds, prize_bands, max_spread, firsts).run()


@dataclass
class _Sim:
    wins: float
    spread: float
    left: int


class _Chew:
    def __init__(
        self,
        order: Sequence[PlayerId],
        records: Mapping[PlayerId, ChewRecord],
        ranks: Mapping[PlayerId, int],
        history: History,
        round_number: int,
        total_rounds: int,
        prize_bands: Sequence[int],
        max_spread: int,
        firsts: bool = False,
    ) -> None:
        if not prize_bands or list(prize_bands) != sorted(set(prize_bands)) or prize_bands[0] < 1:
            raise ValueError("prize bands must be increasing places from 1")
        if total_rounds < round_number:
            raise ValueError("Chew pairings need the number of rounds, at least this round")
        self.order = list(order)
        self.records = records
        self.rank = ranks
        self.history = history
        self.round0 = round_number - 1
        self.total_rounds = total_rounds
        self.bands = list(prize_bands)
        self.last_prize_rank = self.bands[-1]
        self.max_spread = max_spread
        self.firsts = firsts
        self.rounds_left = total_rounds - self.round0
        self.max_rank: dict[PlayerId, int] = {}
        self.pairs: Pairs = []
        self.gibsons: list[PlayerId] = []

    # --- best possible finishes -------------------------------------------------------------

    def calculate_bpfs(self, players: Sequence[PlayerId]) -> None:
        """Each player's best possible final rank among `players`, offset by the first one's rank."""
        if not players:
            return
        top = self.rank[players[0]]
        for i in range(len(players)):
            self.max_rank[players[i]] = self._best_finish(players, i) + top - 1

    def _best_finish(self, players: Sequence[PlayerId], index: int) -> int:
        if len(players) == 1:
            return 1
        games_left = self.total_rounds - self.round0
        sim = {p: _Sim(self.records[p].wins, self.records[p].spread, games_left) for p in players}
        ms = self.max_spread
        me = players[index]
        mine = sim[me]
        if games_left == 0:
            return index + 1

        def standing(p: PlayerId) -> tuple[float, float, int]:
            return (-sim[p].wins, -sim[p].spread, 0 if p == me else 1)

        final_wins = final_spread = 0.0
        for r in range(1, games_left + 1):
            final_wins = mine.wins + mine.left
            final_spread = mine.spread + mine.left * ms
            cap0 = min(flight_cap(games_left - r + 1) - 1, len(players) - 1)
            ranked = sorted(players, key=standing)  # stable: level players keep their order
            hi_win: list[PlayerId] = []
            lo_win: list[PlayerId] = []
            hi_lose: list[PlayerId] = []
            lo_lose: list[PlayerId] = []
            my_rank = 0
            for i, p in enumerate(ranked):
                if p == me:
                    my_rank = i
                    continue
                s = sim[p]
                below_catch = (s.wins, s.spread) < (final_wins - 1, final_spread)
                past_me = (s.wins, s.spread) > (final_wins, final_spread)
                if below_catch or past_me:
                    (hi_win if i <= cap0 else lo_win).insert(0, p)  # lowest ranked first
                else:
                    (hi_lose if i <= cap0 else lo_lose).append(p)  # highest ranked first
            groups = (hi_lose, hi_win, lo_lose, lo_win) if my_rank <= cap0 else (lo_lose, lo_win, hi_lose, hi_win)
            opponent = next((g.pop(0) for g in groups if g), None)
            mine.wins += 1
            mine.left -= 1
            if opponent is not None:
                mine.spread += ms
                sim[opponent].left -= 1
                sim[opponent].spread -= ms
            else:
                mine.spread += BYE_SPREAD
                final_spread += BYE_SPREAD - ms  # tsh lowers the best final spread by what the bye did not give
            self._pair_group(sim, hi_win, [hi_lose, hi_win, lo_win, lo_lose], False, final_wins, final_spread)
            self._pair_group(sim, hi_lose, [hi_win, hi_lose, lo_lose, lo_win], True, final_wins, final_spread)
            self._pair_group(sim, lo_win, [lo_lose, lo_win, hi_lose, hi_win], False, final_wins, final_spread)
            self._pair_group(sim, lo_lose, [lo_win, lo_lose, hi_win, hi_lose], True, final_wins, final_spread)
        ranked = sorted(players, key=standing)
        return ranked.index(me) + 1

    def _pair_group(
        self,
        sim: dict[PlayerId, _Sim],
        group: list[PlayerId],
        sources: list[list[PlayerId]],
        from_top: bool,
        final_wins: float,
        final_spread: float,
    ) -> None:
        """Play out `group` against the first players of `sources`, each result as bad for me as it can be."""
        ms = self.max_spread
        while group:
            p = group.pop(0) if from_top else group.pop()
            opp = next((g.pop(0) for g in sources if g), None)
            if opp is None:
                sim[p].wins += 1
                sim[p].left -= 1
                sim[p].spread += BYE_SPREAD
                continue
            hi, lo = sim[p], sim[opp]
            if (hi.wins, hi.spread) < (lo.wins, lo.spread):
                hi, lo = lo, hi

            def big(winner: _Sim, loser: _Sim) -> None:
                winner.wins += 1
                winner.spread += ms
                loser.spread -= ms

            if lo.wins > final_wins or hi.wins > final_wins or lo.wins == final_wins:
                # Either is out of my reach already, or both are level with my best: let the higher win big
                # (if only the lower is out of reach, it takes the big win).
                big(lo, hi) if lo.wins > final_wins else big(hi, lo)
            elif lo.wins == final_wins - 1:
                if lo.spread >= final_spread:
                    big(hi, lo) if hi.spread > lo.spread else big(lo, hi)
                else:  # the lower wins by as much as keeps them behind my best
                    margin = final_spread - lo.spread
                    lo.wins += 1
                    lo.spread += margin
                    hi.spread -= margin
            elif hi.wins == final_wins:
                delta = hi.spread - final_spread
                big(lo, hi) if 0 < delta <= ms * hi.left else big(hi, lo)
            else:  # the lower wins by as much as does not take them past the higher
                if lo.wins < hi.wins - 1:
                    margin = ms
                elif lo.wins < hi.wins and lo.spread > hi.spread:
                    margin = 1
                else:
                    margin = min(int((1 + hi.spread - lo.spread) / 2), ms)
                lo.wins += 1
                lo.spread += margin
                hi.spread -= margin
            lo.left -= 1
            hi.left -= 1

    # --- pairing ------------------------------------------------------------------------------

    def met(self, a: PlayerId, b: PlayerId) -> int:
        return self.history.met(a, b)

    def last(self, a: PlayerId, b: PlayerId) -> int:
        return int(self.history.met_last_round(a, b))

    def can_be_paired(self, repeats: int, players: Sequence[PlayerId], catch_up: bool) -> bool:
        """tsh's CanBePaired: a pairing within `repeats` exists (each pair able to catch up, if asked)."""

        def accepts(a: PlayerId, b: PlayerId) -> bool:
            if self.met(a, b) > repeats:
                return False
            if not catch_up:
                return True
            higher, lower = (b, a) if self.rank[a] > self.rank[b] else (a, b)
            return self.rank[higher] >= self.max_rank.get(lower, 0)

        choices = [
            [j for j in range(len(players)) if j != i and accepts(players[i], players[j])] for i in range(len(players))
        ]
        return can_resolve(choices)

    def resolve(
        self,
        players: Sequence[PlayerId],
        key: Callable[[int, int], tuple[int, ...]],
        accepts: Callable[[int, int], bool],
    ) -> Pairs | None:
        """tsh's PairGRT: each player lists whom `accepts` allows, ordered by `key`; then tsh's search."""
        n = len(players)
        choices = []
        for i in range(n):
            allowed = [j for j in range(n) if j != i and accepts(i, j)]
            choices.append(sorted(allowed, key=lambda j, i=i: key(i, j)))
        found = resolve_preferences(choices)
        return None if found is None else [(players[i], players[j]) for i, j in found]

    def swiss(self, players: Sequence[PlayerId], repeats: int) -> Pairs:
        wins = {p: self.records[p].wins for p in players}
        return swiss_pairs(players, wins, self.history, repeats, self.firsts)

    def run(self) -> tuple[Pairs, list[PlayerId]]:
        tobepaired = list(self.order)
        if len(tobepaired) % 2:
            raise ValueError("Chew pairings need an even number of players (the bye is given first)")
        self.pair_all_gibsons(tobepaired)
        full = list(tobepaired)
        self.max_rank = {}
        if not tobepaired:
            return self.pairs, self.gibsons
        faint_hope = flight_cap(self.rounds_left - 1)
        if self.rounds_left <= 4:
            faint_hope = self.last_prize_rank
            anchor = tobepaired[min(self.last_prize_rank, len(tobepaired)) - 1]
            faint_wins = self.records[anchor].wins - 1
            while faint_hope + 1 < len(tobepaired) and self.records[tobepaired[faint_hope + 1]].wins >= faint_wins:
                faint_hope += 1
            faint_hope = min(faint_hope + 1, len(tobepaired))
        while tobepaired:
            self.pair_contenders(tobepaired, faint_hope)
            if not tobepaired:
                break
            p0 = tobepaired[0]
            top_rank = self.rank[p0]
            if not self.max_rank.get(p0):
                self.calculate_bpfs(full)
            best = self.max_rank.get(p0, 0)
            if top_rank > self.last_prize_rank or (best and best < top_rank):
                continue
            self.pair_all_gibsons(tobepaired)
        return self.pairs, self.gibsons

    def prize_band(self, tobepaired: list[PlayerId]) -> tuple[int, int]:
        rank = self.rank[tobepaired[0]]
        splits = [0, *self.bands, self.rank[tobepaired[-1]]]
        for i in range(1, len(splits)):
            if splits[i - 1] + 1 <= rank <= splits[i]:
                return splits[i - 1] + 1, splits[i]
        raise AssertionError("no prize band holds the top player left")  # the last split is the lowest rank

    def count_contenders(self, max_rank: int, tobepaired: list[PlayerId]) -> tuple[int, bool, bool]:
        cap = flight_cap(self.rounds_left)
        capped, bpf = tobepaired, tobepaired
        if self.round0 >= 1 and len(tobepaired) > cap:
            capped, bpf = tobepaired[:cap], tobepaired[: cap + 2]
        self.calculate_bpfs(bpf)
        size = 0
        for i, p in enumerate(capped):
            if self.max_rank.get(p, 0) <= max_rank:
                size = i
        size += 1
        was_odd = size % 2 == 1
        size += size % 2
        return size, was_odd, self.round0 >= 1 and size > cap

    def pair_contenders(self, tobepaired: list[PlayerId], faint_hope: int) -> None:
        min_rank, max_rank = self.prize_band(tobepaired)
        at_bottom = max_rank == self.rank[tobepaired[-1]]
        if at_bottom:
            n = faint_hope - self.rank[tobepaired[0]]
            n = max(0, n + n % 2)
            n = min(n, flight_cap(self.rounds_left)) or len(tobepaired)
        else:
            n, _, over_cap = self.count_contenders(max_rank, tobepaired)
            if min_rank == 1 and over_cap:
                n = flight_cap(self.rounds_left)
        n = min(n, len(tobepaired))
        rest = tobepaired[n:]
        if n > 2 * len(rest) and len(rest) <= 6 and not self.can_be_paired(0, rest, False):
            n = len(tobepaired)
            if not self.max_rank.get(tobepaired[-1]):
                self.calculate_bpfs(tobepaired)
        flight = tobepaired[:n]
        repeats = self.fewest_repeats(flight, not at_bottom)
        if n == len(tobepaired):
            self.pairs += self.swiss(flight, repeats)
        else:
            split = self.split_contenders(flight, repeats)
            self.pair_leaders(flight[:split], repeats)
            if split < len(flight):
                self.pairs += self.swiss(flight[split:], repeats)
        del tobepaired[:n]

    def fewest_repeats(self, flight: list[PlayerId], catch_up: bool) -> int:
        repeats = 0
        while not self.can_be_paired(repeats, flight, catch_up):
            repeats += 1
            if repeats > self.round0:
                if not catch_up:
                    return repeats
                repeats = 0
                while not self.can_be_paired(repeats, flight, False):
                    repeats += 1
                    if repeats > self.round0:
                        break
                return repeats
        return repeats

    def split_contenders(self, flight: list[PlayerId], repeats: int) -> int:
        split = 2 if len(flight) >= 4 else 0
        while True:
            split += 2
            if split >= len(flight):
                return split
            if self.can_be_paired(repeats, flight[:split], True) and self.can_be_paired(repeats, flight[split:], True):
                return split

    def pair_leaders(self, leaders: list[PlayerId], repeats: int) -> None:
        if not leaders:
            return
        rank, best = self.rank, self.max_rank

        def cannot_catch(i: int, j: int) -> int:
            return int((best.get(leaders[j]) or _NO_RANK) > rank[leaders[i]])

        def with_catch_up(i: int, j: int) -> tuple[int, ...]:
            a, b = leaders[i], leaders[j]
            return cannot_catch(i, j), self.met(a, b), self.last(a, b), -j

        def catches(i: int, j: int) -> bool:
            a, b = leaders[i], leaders[j]
            higher, lower = (a, b) if i < j else (b, a)
            return self.met(a, b) <= repeats and (best.get(lower) or _NO_RANK) <= rank[higher]

        found = self.resolve(leaders, with_catch_up, catches)
        if found is None:
            found = self.resolve(
                leaders,
                lambda i, j: (self.met(leaders[i], leaders[j]), self.last(leaders[i], leaders[j]), -j),
                lambda i, j: self.met(leaders[i], leaders[j]) <= repeats,
            )
        if found is None:  # tsh gives up here; the site pairs them with the fewest repeats
            found = self.swiss(leaders, self.round0 + 1)
        self.pairs += found

    def pair_all_gibsons(self, tobepaired: list[PlayerId]) -> None:
        while tobepaired:
            possible = tobepaired
            if len(possible) > self.last_prize_rank + 3:
                possible = possible[: self.last_prize_rank + 3]
            self.calculate_bpfs(possible)
            count = self.count_gibsons(tobepaired)
            if not count:
                return
            even = count - count % 2
            if even:
                group = tobepaired[:even]
                found = self.resolve(
                    group,
                    lambda i, j, g=group: (
                        self.met(g[i], g[j]),
                        self.last(g[i], g[j]),
                        start_pull(g[i], g[j], self.history) if self.firsts else 0,
                        abs(i - j),
                        j,
                    ),
                    lambda i, j: True,
                )
                assert found is not None  # anyone may meet anyone
                self.pairs += found
                self.gibsons += group
                del tobepaired[:even]
            if count % 2:
                self.pair_one_gibson(tobepaired)

    def count_gibsons(self, players: list[PlayerId]) -> int:
        top = self.rank[players[0]]
        cursor = count = 0
        while cursor <= len(players) - 2:
            if self.max_rank.get(players[cursor + 1], 0) == cursor + top + 1:
                cursor += 1
                count = cursor
            else:
                break
        return count

    def pair_one_gibson(self, players: list[PlayerId]) -> None:
        gibson = players[0]
        self.calculate_bpfs(players)
        victim: int | None = None
        hopeless: int | None = None
        fewest: int | None = None
        for i in range(len(players) - 1, 0, -1):
            p = players[i]
            met = self.met(p, gibson)
            out = self.max_rank.get(p, 0) > self.last_prize_rank
            if fewest is None or fewest > met:
                fewest, victim = met, i
                if out:
                    hopeless = i
            elif out and fewest == met:
                hopeless = i
        chosen = hopeless if hopeless is not None else victim if victim is not None else len(players) - 1
        self.pairs.append((gibson, players[chosen]))
        self.gibsons.append(gibson)
        del players[chosen]
        del players[0]
