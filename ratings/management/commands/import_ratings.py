"""Seed a rating list from a ratings file (the published list layout; see ratings.services.imports)."""

from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from clubsite.kit.errors import ServiceError
from players.models import User
from ratings import services
from ratings.models import MatchKind, RatingList


class Command(BaseCommand):
    help = (
        "Reads a ratings file into a rating list and matches names to members. With --apply, a file whose "
        "every name is matched (or new) is applied at once; otherwise staff review it on the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("rating_list", help="the rating list's slug")
        parser.add_argument("file")
        parser.add_argument("--user", required=True, help="email of the staff account doing the import")
        parser.add_argument("--as-of", type=date.fromisoformat, help="date the ratings are valid from (YYYY-MM-DD)")
        parser.add_argument("--apply", action="store_true", help="apply at once when no line needs review")

    def handle(self, *args, **options):
        rating_list = RatingList.objects.filter(slug=options["rating_list"]).first()
        if rating_list is None:
            raise CommandError(f"No rating list {options['rating_list']!r}.")
        actor = User.objects.filter(email__iexact=options["user"]).first()
        if actor is None:
            raise CommandError(f"No account with the email {options['user']!r}.")
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
        try:
            imp = services.prepare_rating_import(actor, rating_list, text, filename=path.name, as_of=options["as_of"])
        except ServiceError as error:
            raise CommandError(error.message)
        lines = list(imp.lines.values_list("match", flat=True))
        review = lines.count(MatchKind.REVIEW)
        self.stdout.write(
            f"{len(lines)} lines: {lines.count(MatchKind.EXACT)} matched, {review} to review, "
            f"{lines.count(MatchKind.NEW)} new players."
        )
        if options["apply"] and not review:
            try:
                services.apply_rating_import(actor, imp, {})
            except ServiceError as error:
                raise CommandError(error.message)
            self.stdout.write(f"Applied: {len(lines)} ratings are on {rating_list.name}.")
        else:
            self.stdout.write(f"Review and apply it at {reverse('ratings:import_review', args=[imp.pk])}")
