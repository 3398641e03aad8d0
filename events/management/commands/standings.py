import csv
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

from events.core import standings as pure_standings
from events.models import Division, DivisionPlayer
from events.play import services as play

from ._common import find_division


class Command(BaseCommand):
    help = (
        "Prints a division's standings as CSV: rank,number,name,wins,losses,spread. "
        "Players who withdrew before the round asked for come last with an empty rank."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="event slug")
        parser.add_argument("--division")
        parser.add_argument("--through", type=int, help="standings after this round")

    def handle(self, *args, **options):
        if options["through"] is not None and options["through"] < 0:
            raise CommandError("--through must be 0 or more.")
        division = find_division(options["event"], options["division"])
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(["rank", "number", "name", "wins", "losses", "spread"])
        seats = {s.player_id: s for s in DivisionPlayer.objects.filter(division=division).select_related("player")}
        for row in division_standings(division, seats, options["through"]):
            seat = seats[row.player]
            writer.writerow(
                [
                    "" if row.rank is None else row.rank,
                    seat.number,
                    seat.player.full_name,
                    _num(row.wins),
                    _num(row.losses),
                    row.spread,
                ]
            )


def division_standings(
    division: Division, seats: dict[int, DivisionPlayer], through_round: int | None
) -> list[pure_standings.Standing]:
    """The standings after a round as they were then: a withdrawn player is ranked through the
    round after which they withdrew; the event's per-round spread caps apply."""
    entrants = [
        pure_standings.Entrant(id=s.player_id, rating=s.rating, seed=s.number, withdrawn_after=s.withdrawn_after_round)
        for s in seats.values()
    ]
    options = replace(play.standings_options(division.event), spread_cap=division.event.standings_spread_cap())
    games = play.division_games(division, confirmed_only=True)
    return pure_standings.compute_standings(entrants, games, options, through_round)


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)
