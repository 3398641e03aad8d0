"""Reading a division for the pure cores: its games as plain objects, the standings options, the standings."""

from __future__ import annotations

from dataclasses import dataclass

from events.core import results
from events.core import standings as pure_standings
from events.models import Division, DivisionPlayer, Event, Game, GameStatus


def standings_options(event: Event) -> pure_standings.StandingsOptions:
    return pure_standings.StandingsOptions(
        spread_rules=results.SpreadRules(bye_spread=event.bye_spread, forfeit_spread=event.forfeit_spread),
        spread_cap=event.spread_cap,
        ties_stand=event.ties_stand,
    )


GAME_FIELDS = (
    "round_number",
    "kind",
    "status",
    "player_a_id",
    "player_b_id",
    "score_a",
    "score_b",
    "spread_a",
    "first",
)


def pure_game(row: dict, *, scored: bool = True) -> results.Game:
    """A stored game as the pure cores see it. `scored=False` keeps only the pairing (a pending game)."""
    a, b = row["player_a_id"], row["player_b_id"]
    first = a if row["first"] == "a" else b if row["first"] == "b" else None
    kind = results.GameKind(row["kind"])
    award = None
    if kind in (results.GameKind.BYE, results.GameKind.FORFEIT, results.GameKind.LATE_FORFEIT):
        award = abs(row["spread_a"]) if row["spread_a"] is not None else None
    if kind is results.GameKind.NORMAL and not scored:
        return results.Game(row["round_number"], a, b, first=first)
    return results.Game(
        row["round_number"],
        a,
        b,
        row["score_a"] if kind is results.GameKind.NORMAL else None,
        row["score_b"] if kind is results.GameKind.NORMAL else None,
        kind=kind,
        first=first,
        award=award,
    )


def division_games(division: Division, *, confirmed_only: bool) -> list[results.Game]:
    """One query: the division's games as pure objects (unconfirmed ones as pending pairings)."""
    rows = Game.objects.filter(division=division).order_by("round_number", "board", "pk").values(*GAME_FIELDS)
    return [pure_game(r, scored=r["status"] == GameStatus.CONFIRMED or not confirmed_only) for r in rows]


@dataclass(frozen=True)
class StandingRow:
    standing: pure_standings.Standing
    seat: DivisionPlayer

    def __getattr__(self, name):
        return getattr(self.standing, name)


def standings(division: Division, through_round: int | None = None) -> list[StandingRow]:
    """Standings from confirmed results (two queries whatever the size of the division)."""
    seats = {s.player_id: s for s in DivisionPlayer.objects.filter(division=division).select_related("player")}
    people = [
        pure_standings.Entrant(
            id=s.player_id, rating=s.rating, seed=s.number, withdrawn=s.withdrawn_after_round is not None
        )
        for s in seats.values()
    ]
    table = pure_standings.compute_standings(
        people, division_games(division, confirmed_only=True), standings_options(division.event), through_round
    )
    return [StandingRow(row, seats[row.player]) for row in table]
