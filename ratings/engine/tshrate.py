"""Rate a tsh `.t` file: the pure core of the `tsh_rate` command."""

from __future__ import annotations

from dataclasses import dataclass

from events.play.core.tsh import TshFile
from ratings.engine.common import DEFAULT_CAREER_GAMES, DivisionInput, DivisionRating, RatingOptions
from ratings.engine.naspa import NASPA, EloSystem, rate_division
from ratings.engine.wespa import WESPA

ELO_SYSTEMS: dict[str, EloSystem] = {"naspa": NASPA, "wespa": WESPA}
SYSTEMS = ("naspa", "wespa", "absp")


@dataclass
class TshRatingRow:
    number: int  # 1-based player number in the file
    name: str
    old_rating: int
    new_rating: int
    expected_wins: float | None  # None for ABSP, which has no expectation
    actual_wins: float


def division_input(
    tfile: TshFile, through: int | None = None, lifeg_default: int = DEFAULT_CAREER_GAMES
) -> DivisionInput:
    """The rated games of a `.t` file, each once.

    A game is rated when both sides name a real opponent (> 0), both have a score
    for that round, and the round is within `through` (1-based; None = all).
    """
    players = tfile.players
    seen: set[tuple[int, int, int]] = set()
    a: list[int] = []
    b: list[int] = []
    sa: list[int] = []
    sb: list[int] = []
    rnd: list[int] = []
    for i, p in enumerate(players):
        last = len(p.scores) if through is None else min(len(p.scores), through)
        for r in range(last):
            opp = p.opponents[r]
            if opp <= 0:
                continue
            j = opp - 1
            other = players[j]
            if r >= len(other.scores):
                continue
            key = (r, min(i, j), max(i, j))
            if key in seen:
                continue
            seen.add(key)
            a.append(i)
            b.append(j)
            sa.append(p.scores[r])
            sb.append(other.scores[r])
            rnd.append(r)
    career = [p.lifeg if p.lifeg is not None else lifeg_default for p in players]
    return DivisionInput(
        pre_ratings=[p.rating for p in players],
        career_games=career,
        player_a=a,
        player_b=b,
        score_a=sa,
        score_b=sb,
        round_index=rnd,
    )


def rate_tsh_division(
    tfile: TshFile,
    system: str = "naspa",
    max_rounds: int | None = None,
    through: int | None = None,
    lifeg_default: int = DEFAULT_CAREER_GAMES,
    third_rated: bool = False,
) -> DivisionRating:
    """Full per-player detail of rating a `.t` file with an Elo-family system."""
    if system not in ELO_SYSTEMS:
        raise ValueError(f"unknown Elo rating system {system!r}")
    inp = division_input(tfile, through, lifeg_default)
    if max_rounds is None:
        max_rounds = max(tfile.rounds_played(), 1)
    options = RatingOptions(max_rounds=max_rounds, third_rated=third_rated, through_round=through)
    return rate_division(inp, options, ELO_SYSTEMS[system])


def rate_tsh(
    tfile: TshFile,
    system: str = "naspa",
    max_rounds: int | None = None,
    through: int | None = None,
    lifeg_default: int = DEFAULT_CAREER_GAMES,
    third_rated: bool = False,
) -> list[TshRatingRow]:
    """One row per player: old and new rating, expected and actual wins.

    system: 'naspa' | 'wespa' | 'absp'. max_rounds: scheduled rounds (decides
    NASPA segments; default the rounds in the file). through: last round rated.
    """
    if system == "absp":
        return _rate_tsh_absp(tfile, through)
    result = rate_tsh_division(tfile, system, max_rounds, through, lifeg_default, third_rated)
    return [
        TshRatingRow(
            number=p.number,
            name=p.name,
            old_rating=r.pre_rating,
            new_rating=r.new_rating,
            expected_wins=r.expected_wins,
            actual_wins=r.actual_wins,
        )
        for p, r in zip(tfile.players, result.players, strict=True)
    ]


def _rate_tsh_absp(tfile: TshFile, through: int | None) -> list[TshRatingRow]:
    from ratings.engine.absp import rate_event

    inp = division_input(tfile, through)
    # A player with a score (a game or a bye) has a result in the event: tsh rates them even
    # without a rated game. Rounds are rated from the first, so a first score is in any range.
    present = [bool(p.scores) for p in tfile.players]
    result = rate_event(
        [float(r or 0) for r in inp.pre_ratings],
        list(inp.player_a),
        list(inp.player_b),
        list(inp.score_a),
        list(inp.score_b),
        present,
    )
    return [
        TshRatingRow(
            number=p.number,
            name=p.name,
            old_rating=p.rating,
            new_rating=r.new_rating,
            expected_wins=r.expected_wins,
            actual_wins=r.actual_wins,
        )
        for p, r in zip(tfile.players, result, strict=True)
    ]
