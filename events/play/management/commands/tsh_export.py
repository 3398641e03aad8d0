from pathlib import Path

from django.core.management.base import BaseCommand

from events.play.services import tsh_io

from ._common import find_division


class Command(BaseCommand):
    help = "Writes a division of an event as a tsh .t file (to standard output, or --output FILE)."

    def add_arguments(self, parser):
        parser.add_argument("event", help="event slug")
        parser.add_argument("--division")
        parser.add_argument("--output", type=Path)

    def handle(self, *args, **options):
        text = tsh_io.export_tsh(find_division(options["event"], options["division"]))
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
