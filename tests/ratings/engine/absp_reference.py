"""tsh's ABSP rating written out the way tsh works it, to hold the site's engine against.

It shares nothing with the engine: players are numbered from 1 with their opponents and
scores by round, as in a `.t` file, and each is rated one at a time in tsh's three passes
(newcomers from rated opponents; newcomers again, other newcomers at that first estimate;
rated players). Fields are kept where tsh keeps them: the first estimate on the player
(`tmpr`), the new rating among the extra fields by round (`etc["newr"][r0]`), and the
rated players' pass looks a newcomer's new rating up on the player itself (`newr`), where
tsh looks for it and where it never is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from events.play.core.tsh import UNPAIRED, TshFile


@dataclass
class Player:
    rating: int
    pairings: list[int | None]  # 1-based; 0 bye; None not paired yet
    scores: list[int]
    tmpr: int | None = None
    etc: dict[str, list[int | None]] = field(default_factory=dict)

    def found_newr(self) -> int | None:
        # The rated players' pass reads the newcomer's new rating from a field of the player
        # itself; tsh stores new ratings only under etc["newr"], so this is always empty.
        return None


def _cmp(x: int, y: int) -> int:
    return (x > y) - (x < y)


def _rate_one(players: list[Player | None], pid: int, max_r0: int, phase: int) -> None:
    p = players[pid]
    assert p is not None
    mine = p.rating
    total = 0.0
    counted = 0
    last_r0 = min(len(p.scores) - 1, max_r0)
    if last_r0 < 0:
        return  # no score at all in the rounds rated: no new rating
    for r0 in range(last_r0 + 1):
        opp_id = p.pairings[r0] if r0 < len(p.pairings) else None
        if not opp_id:
            continue
        opp = players[opp_id]
        assert opp is not None
        my_score = p.scores[r0]
        if not my_score:
            continue
        opp_score = opp.scores[r0] if r0 < len(opp.scores) else None
        if not opp_score:
            continue
        if phase == 1:
            opp_rating = opp.rating
        elif phase == 2:
            opp_rating = opp.rating or opp.tmpr
        else:
            opp_rating = opp.rating or opp.found_newr()
        if not opp_rating:
            continue
        counted += 1
        if mine and opp.rating:
            opp_rating = min(max(opp_rating, mine - 40), mine + 40)
        total += opp_rating
        total += 50 * _cmp(my_score, opp_score)
    new = total / counted if counted else mine
    new = max(new, 40 if mine else 80)
    new = int(new + 0.5)
    if phase == 1:
        p.tmpr = new
    else:
        p.etc.setdefault("newr", [])
        row = p.etc["newr"]
        row.extend([None] * (last_r0 + 1 - len(row)))
        row[last_r0] = new


def tsh_absp(
    ratings: list[int], pairings: list[list[int | None]], scores: list[list[int]], max_r0: int
) -> list[int | None]:
    """New rating of each player (None: tsh gives none) rating rounds 0..max_r0."""
    players: list[Player | None] = [None]
    for r, o, s in zip(ratings, pairings, scores, strict=True):
        players.append(Player(r, list(o), list(s)))
    ids = range(1, len(players))
    for pid in ids:
        if not players[pid].rating:  # type: ignore[union-attr]
            _rate_one(players, pid, max_r0, 1)
    for pid in ids:
        if not players[pid].rating:  # type: ignore[union-attr]
            _rate_one(players, pid, max_r0, 2)
    for pid in ids:
        if players[pid].rating:  # type: ignore[union-attr]
            _rate_one(players, pid, max_r0, 3)
    out: list[int | None] = []
    for pid in ids:
        p = players[pid]
        assert p is not None
        last_r0 = min(len(p.scores) - 1, max_r0)
        row = p.etc.get("newr", [])
        out.append(row[last_r0] if 0 <= last_r0 < len(row) else None)
    return out


def tsh_absp_file(tfile: TshFile, through: int | None = None) -> list[int | None]:
    """tsh_absp on a parsed `.t` file, rating rounds 1..through (1-based; None = all)."""
    max_r0 = (tfile.rounds_played() if through is None else through) - 1
    return tsh_absp(
        [p.rating for p in tfile.players],
        [[None if o == UNPAIRED else o for o in p.opponents] for p in tfile.players],
        [list(p.scores) for p in tfile.players],
        max_r0,
    )
