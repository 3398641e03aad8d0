"""Reconcile a bank statement from the command line, through the same services as the statements page:

    python manage.py reconcile_payments statement.csv [--dry-run] [--association SLUG] [--mapping SPEC]

prints `line,reference,amount,outcome` for each transaction of the file. With --dry-run nothing is saved;
otherwise each credit line matched to something due is recorded as a payment (once, however often the file
is imported). A file that cannot be read, or that has lines that cannot be read, is refused naming them,
and nothing is saved (--skip-unreadable imports the other lines)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubsite.kit.csv import write_csv
from clubsite.kit.errors import ServiceError

from ...association import association_model
from ...services import statements as service


def _actor(email: str | None):
    staff = get_user_model().objects.filter(is_staff=True, is_active=True)
    user = (
        staff.filter(email__iexact=email).first() if email else staff.filter(is_superuser=True).order_by("pk").first()
    )
    if user is None:
        raise CommandError(
            f"No staff account with the email {email!r}." if email else "No staff account to act as: pass --as EMAIL."
        )
    return user


def _association(slug: str | None):
    Association = association_model()
    if slug:
        found = Association.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"No association has the slug {slug!r}.")
        return found
    every = list(Association.objects.order_by("slug")[:2])
    if len(every) != 1:
        slugs = ", ".join(Association.objects.order_by("slug").values_list("slug", flat=True)) or "none yet"
        raise CommandError(f"Name the association with --association SLUG (the slugs: {slugs}).")
    return every[0]


class Command(BaseCommand):
    help = "Match a bank statement's transfers to what they pay for, and record them (see --dry-run)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the bank's CSV export")
        parser.add_argument("--dry-run", action="store_true", help="show what would be recorded; save nothing")
        parser.add_argument("--association", help="the association's slug (needed when there are several)")
        parser.add_argument("--mapping", default="", help="column mapping for a bank's own export, e.g. for DBS/POSB")
        parser.add_argument("--as", dest="as_email", help="staff account to act as (default: the first superuser)")
        parser.add_argument(
            "--skip-unreadable", action="store_true", help="import the other lines when some cannot be read"
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
        association = _association(options["association"])
        actor = _actor(options["as_email"])
        dry_run, skip = options["dry_run"], options["skip_unreadable"]
        try:
            with transaction.atomic():
                statement = service.upload(actor, association, path.name, data, options["mapping"])
                result = service.review(statement)
                blocked = bool(result.errors) and not skip
                if not dry_run and not blocked:
                    result = service.confirm(actor, statement, with_errors=skip)
                if dry_run or blocked:
                    transaction.set_rollback(True)  # not even the draft statement is kept
        except ServiceError as error:
            raise CommandError(f"{path.name}: {error.message}") from None
        lines = ([row.line_no, row.reference, row.amount, row.label] for row in result.rows)
        write_csv(self.stdout, [["line", "reference", "amount", "outcome"], *lines], lineterminator="\n")
        for error in result.errors:
            self.stderr.write(error.message)
        if blocked:
            raise CommandError(
                f"{len(result.errors)} line(s) of {path.name} could not be read: nothing was saved. Correct them, "
                "or pass --skip-unreadable to import the other lines."
            )
        counted = result.counted
        total = sum((row.amount for row in counted), 0)
        if dry_run:
            self.stderr.write(f"Dry run: {len(counted)} payment(s), {total} in all, would be recorded; nothing saved.")
        else:
            self.stderr.write(f"Recorded {len(counted)} payment(s), {total} in all (statement {statement.pk}).")
