"""tsh's King of the Hill, written out the way tsh searches, to hold the site's pairing against.

It shares nothing with the site's pairing but `History`: each player ranks the
opponents the repeat limit allows by distance in the order, then a rematch of
last round, then how often they met, then position; the highest unpaired player
takes their first choice not yet paired, and a dead end backs up to the last
choice made (a set of players found impossible to pair is not tried again).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from events.play.core.pairing.core import History
from events.play.core.results import Game, GameKind, PlayerId
from events.play.core.tsh import TshFile

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "tsh"
REAL_FILES = [
    "jvc56_tpa_86aeb79_test_data_a.t",
    "e4c5_team_pairings_api_tests_anon1.t",
    "e4c5_team_pairings_tournament1_a.t",
]


def tsh_koth(order: Sequence[PlayerId], history: History, limit: int) -> list[tuple[PlayerId, PlayerId]] | None:
    n = len(order)
    choices = []
    for i in range(n):
        allowed = [j for j in range(n) if j != i and history.met(order[i], order[j]) <= limit]
        allowed.sort(
            key=lambda j, i=i: (
                abs(i - j),
                int(history.met_last_round(order[i], order[j])),
                history.met(order[i], order[j]),
                j,
            )
        )
        choices.append(allowed)
    dead: set[tuple[int, ...]] = set()

    def search(unpaired: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not unpaired:
            return []
        if unpaired in dead:
            return None
        top = unpaired[0]
        for other in choices[top]:
            if other in unpaired[1:]:
                rest = search(tuple(p for p in unpaired if p not in (top, other)))
                if rest is not None:
                    return [(top, other), *rest]
        dead.add(unpaired)
        return None

    found = search(tuple(range(n)))
    return None if found is None else [(order[a], order[b]) for a, b in found]


def games_of(f: TshFile) -> list[Game]:
    """The file's games by player number: each pair once, a bye for a round without an opponent."""
    games: list[Game] = []
    for p in f.players:
        for index, (opponent, score) in enumerate(zip(p.opponents, p.scores, strict=False)):
            if opponent == 0:
                games.append(Game(round=index + 1, player_a=p.number, kind=GameKind.BYE))
            elif 0 < p.number < opponent:
                other = f.players[opponent - 1]
                games.append(
                    Game(
                        round=index + 1,
                        player_a=p.number,
                        player_b=opponent,
                        score_a=score,
                        score_b=other.scores[index],
                    )
                )
    return games
