"""Rate a tsh `.t` file without touching the database: CSV on standard output."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubsite.kit.csv import write_csv
from clubsite.kit.wins import format_wins
from events.play.core.tsh import TshParseError, read_t
from ratings.engine.common import DEFAULT_CAREER_GAMES
from ratings.engine.tshrate import SYSTEMS, rate_tsh

HEADER = ["number", "name", "old_rating", "new_rating", "expected_wins", "actual_wins"]


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise ValueError(value)
    return number


class Command(BaseCommand):
    help = (
        "Rates a tsh .t file and prints CSV (number,name,old_rating,new_rating,expected_wins,actual_wins), "
        "one line per player in file order. Career games come from each player's `lifeg` field."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the division's .t file")
        parser.add_argument("--system", choices=SYSTEMS, default="naspa")
        parser.add_argument(
            "--max-rounds",
            type=_positive,
            help="scheduled rounds of the event (decides NASPA's segments); default the rounds in the file",
        )
        parser.add_argument("--through", type=_positive, help="rate rounds 1..R only")
        parser.add_argument(
            "--lifeg-default",
            type=int,
            default=DEFAULT_CAREER_GAMES,
            help=f"career games of a player without `lifeg` (default {DEFAULT_CAREER_GAMES})",
        )
        parser.add_argument("--third-rated", action="store_true", help="a 1/3-rated event")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            tfile = read_t(path)
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file")
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}")
        except TshParseError as error:
            raise CommandError(f"{path}: line {error.line}: {error.reason}")
        played = tfile.rounds_played()
        max_rounds = options["max_rounds"]
        through = options["through"]
        if max_rounds is not None and max_rounds < played:
            raise CommandError(f"--max-rounds {max_rounds} is fewer than the {played} rounds in the file")
        if through is not None and through > played:
            raise CommandError(f"--through {through} is after the last round in the file ({played})")
        try:
            rows = rate_tsh(
                tfile,
                system=options["system"],
                max_rounds=max_rounds,
                through=through,
                lifeg_default=options["lifeg_default"],
                third_rated=options["third_rated"],
            )
        except (ImportError, ValueError) as error:
            raise CommandError(f"{path}: cannot rate with {options['system']}: {error}")
        lines = (
            [
                row.number,
                row.name,
                row.old_rating,
                row.new_rating,
                "" if row.expected_wins is None else f"{row.expected_wins:.4f}",  # ABSP has none
                format_wins(row.actual_wins),
            ]
            for row in rows
        )
        write_csv(self.stdout, [HEADER, *lines], lineterminator="\n")
