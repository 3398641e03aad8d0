"""Import members from a spreadsheet saved as CSV (players.memberimport), as the members import page does."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubsite.kit.errors import ServiceError
from players import memberimport
from players.lookup import described
from players.memberfile import BY_KEY, guess_mapping
from players.models import User


class Command(BaseCommand):
    help = (
        "Previews a members file: what each line makes or matches, and what is wrong. With --apply, imports it all "
        "at once, or nothing if any line is refused or left to choose."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--user", required=True, help="email of the staff account doing the import")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="FIELD=COLUMN",
            help=f"a field's column, by its name in the file or its number from 1 (fields: {', '.join(BY_KEY)}); "
            "without --map the columns are guessed from their names",
        )
        parser.add_argument("--rating-list", help="the name of the rating list the file's ratings go on")
        parser.add_argument(
            "--choose",
            action="append",
            default=[],
            metavar="LINE=MEMBER",
            help="for a line that may be a member on record: that member's number, or new",
        )
        parser.add_argument("--apply", action="store_true", help="import the file")

    def handle(self, *args, **options):
        actor = User.objects.filter(email__iexact=options["user"]).first()
        if actor is None:
            raise CommandError(f"No account with the email {options['user']!r}.")
        path = Path(options["file"])
        try:
            with path.open("rb") as f:
                data = f.read(memberimport.MAX_FILE_BYTES + 1)
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}") from None
        try:
            text = memberimport.decode(data)
            header = memberimport.read_table(text).header
            call = {
                "mapping": self._mapping(options["map"], header),
                "rating_list": self._rating_list(options["rating_list"]),
                "decisions": self._decisions(options["choose"]),
            }
            if options["apply"]:
                done = memberimport.apply(actor, text, **call)
                self.stdout.write(
                    f"Imported: {len(done.created)} new members, {done.matched} on record already, "
                    f"{done.memberships} memberships, {done.ratings} ratings."
                )
                return
            found = memberimport.preview(actor, text, **call)
        except ServiceError as error:
            raise CommandError("\n".join(error.messages)) from None
        self._report(found)

    def _mapping(self, pairs: list[str], header: tuple[str, ...]) -> dict[str, int]:
        if not pairs:
            return guess_mapping(header)
        mapping = {}
        names = [h.casefold() for h in header]
        for pair in pairs:
            key, _, column = pair.partition("=")
            if key not in BY_KEY:
                raise CommandError(f"--map {pair}: no field {key!r} (fields: {', '.join(BY_KEY)}).")
            if column.isdigit() and 1 <= int(column) <= len(header):
                mapping[key] = int(column) - 1
            elif column.casefold() in names:
                mapping[key] = names.index(column.casefold())
            else:
                raise CommandError(f"--map {pair}: the file has no column {column!r}.")
        return mapping

    def _rating_list(self, name: str | None) -> int | None:
        if not name:
            return None
        for pk, list_name in memberimport.rating_lists():
            if list_name.casefold() == name.casefold():
                return pk
        raise CommandError(f"No rating list {name!r} can take ratings (none of that name, or it has rated events).")

    def _decisions(self, pairs: list[str]) -> dict[int, str]:
        decisions = {}
        for pair in pairs:
            line, _, member = pair.partition("=")
            if not line.isdigit() or len(line) > 9:
                raise CommandError(f"--choose {pair}: write the line's number, = and the member number or new.")
            decisions[int(line)] = member.strip()
        return decisions

    def _report(self, found) -> None:
        for error in found.errors:
            self.stdout.write(error)
        for row in found.rows:
            if row.to_choose:
                offered = "; or ".join(described(r) for r in row.found.likely)
                self.stdout.write(f"line {row.line.number}: may be {offered} (--choose {row.line.number}=NUMBER|new)")
        counts = found.counts
        self.stdout.write(
            f"{len(found.rows)} lines: {counts['new']} new members, {counts['matched']} on record, {counts['choose']} "
            f"to choose, {counts['memberships']} memberships, {counts['ratings']} ratings; "
            f"{len(found.errors)} problems. Nothing is saved without --apply."
        )
