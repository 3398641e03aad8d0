from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubsite.kit.errors import ServiceError
from events.play.core import tsh
from events.play.services import tsh_io
from events.play.services.tsh_archive import import_archive

from ._common import command_user


class Command(BaseCommand):
    help = (
        "Imports a tsh .t file, or a tsh archive (config.tsh and every .t in one file), into an event (created "
        "when missing): players, rounds and results."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--config", type=Path, help="the event's config.tsh")
        parser.add_argument("--event", dest="event_slug", help="slug of the event to create or fill")
        parser.add_argument("--division", help="division name (default: from config.tsh, else A)")
        parser.add_argument("--title", help="title of a new event")
        parser.add_argument(
            "--new",
            dest="new_players",
            type=int,
            action="append",
            default=[],
            metavar="NUMBER",
            help="a player (by number in the file) whose name may be a member's but who is a different person; "
            "repeat for each",
        )
        parser.add_argument("--as", dest="as_email", help="staff account to act as (default: first superuser)")

    def handle(self, *args, **options):
        try:
            for path in (options["file"], options["config"]):
                if path is not None and path.stat().st_size > tsh.MAX_FILE_BYTES:
                    raise CommandError(
                        f"{path}: over {tsh.MAX_FILE_BYTES // 1_000_000} MB, larger than any .t file of "
                        f"{tsh.MAX_PLAYERS} players and {tsh.MAX_ROUNDS} rounds. Nothing was imported."
                    )
            text = tsh.decode_tsh_bytes(options["file"].read_bytes())
            config = tsh.decode_tsh_bytes(options["config"].read_bytes()) if options["config"] else None
        except OSError as error:
            raise CommandError(str(error)) from None
        if "#begin_file" in text:
            self._archive(text, options)
            return
        try:
            report = tsh_io.import_tsh(
                command_user(options["as_email"]),
                text,
                config_text=config,
                event_slug=options["event_slug"],
                division_name=options["division"],
                title=options["title"],
                new_players=set(options["new_players"]),
            )
        except ServiceError as error:
            hint = " (--new NUMBER for a different person)" if "different people" in error.message else ""
            raise CommandError(f"{options['file']}: {error.message}{hint} Nothing was imported.") from None
        self.stdout.write(
            f"Imported {len(report.matched) + len(report.created)} players, {report.rounds} rounds and "
            f"{report.games} games into {report.event.slug} division {report.division.name}."
        )
        for number, name, player in report.matched:
            self.stdout.write(f"  matched  #{number} {name} -> member {player.member_number} {player.full_name}")
        if report.created:
            self.stdout.write("New players (review them: they may be members under another name):")
            for number, name, player in report.created:
                self.stdout.write(f"  new      #{number} {name} -> member {player.member_number}")

    def _archive(self, text: str, options) -> None:
        try:
            reports = import_archive(
                command_user(options["as_email"]), text, event_slug=options["event_slug"], title=options["title"]
            )
        except ServiceError as error:
            raise CommandError(f"{options['file']}: {error.message} Nothing was imported.") from None
        for report in reports:
            self.stdout.write(
                f"Imported {len(report.matched) + len(report.created)} players, {report.rounds} rounds and "
                f"{report.games} games into {report.event.slug} division {report.division.name}."
            )
