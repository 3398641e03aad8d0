from django.core.management.base import BaseCommand, CommandError

from clubsite.kit.csv import write_csv
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
        rows = (
            [
                "" if row.rank is None else row.rank,
                row.seat.number,
                row.seat.player.full_name,
                _num(row.wins),
                _num(row.losses),
                row.spread,
            ]
            for row in play.standings(division, options["through"])
        )
        write_csv(self.stdout, [["rank", "number", "name", "wins", "losses", "spread"], *rows], lineterminator="\n")


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)
