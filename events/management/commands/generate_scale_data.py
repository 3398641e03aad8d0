from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = (
        "Builds a large realistic history (for benchmarks): clubs, members, rated events with entries, rounds "
        "and games, then rates it on its list."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=50_000)
        parser.add_argument("--events", type=int, default=5_000)
        parser.add_argument("--games", type=int, default=1_000_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-rating", action="store_true", help="skip rating the history afterwards")

    def handle(self, *args, **o):
        from bench.scale_data import generate, rate_history
        from events.models import Event

        if o["players"] < 300 or o["events"] < 1 or o["games"] < 5 * o["events"]:
            raise CommandError("Ask for at least 300 players, 1 event and five games per event.")
        if Event.objects.filter(slug=f"scale-{o['seed']}-1").exists():
            raise CommandError(
                f"Scale data with seed {o['seed']} is already in this database: use another --seed or a fresh database."
            )
        if connection.vendor != "postgresql":
            self.stderr.write(
                "Note: without PostgreSQL this works but is slow; set DATABASE_URL=postgres://… for the full size."
            )
        report = generate(
            players=o["players"], events=o["events"], games=o["games"], seed=o["seed"], log=self.stdout.write
        )
        self.stdout.write(
            f"Built {report.players} players, {report.events} events, {report.entries} entries and "
            f"{report.games} games in {report.seconds:.1f}s."
        )
        if not o["no_rating"]:
            seconds = rate_history(log=self.stdout.write)
            self.stdout.write(f"Rated the whole history in {seconds:.1f}s.")
