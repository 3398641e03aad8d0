"""Re-rate a rating list from a date, now (staff; the site offers the same in the background)."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from clubsite.kit.errors import ServiceError
from ratings import services
from ratings.models import RatingList


class Command(BaseCommand):
    help = "Re-rates every event on the list that began on or after --from, in order, in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("rating_list", help="the rating list's slug")
        parser.add_argument("--from", dest="from_date", type=date.fromisoformat, required=True, help="YYYY-MM-DD")

    def handle(self, *args, **options):
        rating_list = RatingList.objects.filter(slug=options["rating_list"]).first()
        if rating_list is None:
            raise CommandError(f"No rating list {options['rating_list']!r}.")
        try:
            run = services.rerate_from(rating_list, options["from_date"])
        except ServiceError as error:
            raise CommandError(error.message)
        self.stdout.write(f"Run {run.pk}: {run.events_rated} events, {run.players_rated} players re-rated.")
