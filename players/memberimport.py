"""Staff bring an association's members onto the site from a spreadsheet (issue 24): the one service behind the
members import page, the members_import command and the admin's link to the page.

1. `decode`: the uploaded bytes as text: UTF-8, with or without the BOM Excel writes ("CSV UTF-8"); anything else,
   a file over MAX_FILE_BYTES or holding NUL bytes (a UTF-16 "Unicode text" save) is refused as a whole.
2. `preview`: the file read with the columns mapped to the site's fields (players.memberfile), each line matched by
   the one matching rule (players.lookup, one query for the whole file): the member it is (sure), the members it may
   be (likely: staff choose one, or say it is a new person), or a new member; what each line is refused for, by line
   and field. It saves nothing.
3. `apply`: the same preview again inside one transaction, refused as a whole while any line is refused or left to
   choose; then the new members (their numbers taken at once), the memberships not on record yet, and the ratings on
   the chosen list (sent to the ratings app by `members_imported`, which seeds the list as a ratings file does).

A person already on record is left as they are (the import adds a membership and a rating, never edits a record),
so importing the same file twice creates nobody twice and no membership twice. A member number the file gives that
is not on record is not taken: the new member gets the site's next number, as every new member does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.hooks import collect
from clubsite.kit.models import Counter
from clubsite.kit.roles import is_association_staff
from clubsite.kit.sequences import take_in_sequence

from . import lookup, matching, memberfile, services
from .matching import Match
from .memberfile import FIELDS, FileProblem, Line, Table
from .models import Association, Membership, MembershipType, Player, birth_date_problem
from .signals import members_imported

MAX_FILE_BYTES = 2 * 1024 * 1024  # a members file of thousands is a few hundred kB
NEW = "new"  # the decision that a line that may be a member on record is a different person
MAX_LISTED_ERRORS = 20
PLAYER_FIELDS = ("full_name", "family_name", "date_of_birth", "email")


class MembersFileError(ServiceError):
    pass


def _check_staff(actor) -> None:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can import members.")


def decode(data: bytes) -> str:
    """The file's text: UTF-8, Excel's BOM dropped. A file too large, or not UTF-8 text, is refused as a whole."""
    if len(data) > MAX_FILE_BYTES:
        raise MembersFileError(
            f"The file is {len(data) / 1024 / 1024:.1f} MB: a members file can be at most "
            f"{MAX_FILE_BYTES // 1024 // 1024} MB. Save only the members' columns, or split it in parts.",
            field="file",
        )
    if b"\x00" in data:
        raise MembersFileError(
            "The file holds NUL bytes, so it is not UTF-8 text (a spreadsheet's “Unicode text” is UTF-16): "
            "save it as “CSV UTF-8”.",
            field="file",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MembersFileError(
            f"The file is not UTF-8 text (byte {error.start + 1:,} cannot be read): save it as “CSV UTF-8”.",
            field="file",
        ) from None


def read_table(text: str) -> Table:
    try:
        return memberfile.read_table(text)
    except FileProblem as problem:
        raise MembersFileError(str(problem), field="file") from None


def rating_lists() -> list[tuple[int, str]]:
    """The rating lists the file's ratings may go on, (id, name): the ratings app says which (one query)."""
    return [tuple(choice) for choice in collect("member_import_rating_lists").get("rating_lists", [])]


@dataclass
class Row:
    """One line of the file as the import will take it."""

    line: Line
    found: Match | None = None  # the matching rule's answer (None for a refused line)
    player_id: int | None = None  # the member on record it is, sure or chosen
    record: matching.Record | None = None
    choice: str = ""  # for a likely line: "" (not chosen yet), NEW, or the chosen member number
    membership_on_record: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def is_new(self) -> bool:
        return self.found is not None and (self.found.is_new or (self.found.is_likely and self.choice == NEW))

    @property
    def to_choose(self) -> bool:
        return self.found is not None and self.found.is_likely and not self.choice

    @property
    def has_membership(self) -> bool:
        return "starts_on" in self.line.values


@dataclass
class Preview:
    table: Table
    mapping: dict[str, int]
    rows: list[Row]
    errors: list[str]  # every refusal, "line 14, date of birth: ..."; the mapping's first
    rating_list: tuple[int, str] | None = None

    @property
    def undecided(self) -> list[int]:
        return [row.line.number for row in self.rows if row.to_choose]

    def count(self, what: str) -> int:
        return self.counts[what]

    @property
    def counts(self) -> dict[str, int]:
        """How many lines make a new member, are on record, are to choose; memberships and ratings to add."""
        if getattr(self, "_counts", None) is None:
            rows = [r for r in self.rows if not r.line.errors]
            self._counts = {
                "new": sum(r.is_new for r in rows),
                "matched": sum(r.player_id is not None for r in rows),
                "choose": sum(r.to_choose for r in rows),
                "memberships": sum(r.has_membership and not r.membership_on_record for r in rows),
                "ratings": sum("rating" in r.line.values for r in rows) if self.rating_list else 0,
            }
        return self._counts


def check_mapping(table: Table, mapping: dict[str, int], rating_list: int | None) -> list[str]:
    """What is wrong with the columns chosen: an unknown field or column, a column used twice, no name."""
    known = {f.key: f for f in FIELDS}
    errors = []
    for key, column in mapping.items():
        if key not in known:
            errors.append(f"There is no field “{memberfile.shown(str(key))}” to import.")
        elif not 0 <= column < len(table.header):
            errors.append(f"{known[key].label.capitalize()}: the file has no column {column + 1}.")
    columns = [c for c in mapping.values()]
    for column in sorted({c for c in columns if columns.count(c) > 1}):
        errors.append(f"Column {column + 1} is chosen for more than one field: choose it for one only.")
    if "full_name" not in mapping:
        errors.append("Choose the column that holds the full name.")
    if "rating" in mapping and rating_list is None:
        errors.append("Choose the rating list the ratings go on (or no rating column).")
    return errors


def _check_person(line: Line, today: date) -> None:
    """The site's own rules for a person's details, as every door applies them: an email address, a plausible date
    of birth. With the lengths memberfile checks, these are the model's own checks of the fields an import fills."""
    v = line.values
    if email := v.get("email"):
        try:
            validate_email(email)
        except ValidationError:
            line.refuse("email", f"{memberfile.shown(email)} is not an email address")
    if problem := birth_date_problem(v.get("date_of_birth"), today):
        line.refuse("date of birth", problem)


def _new_player(line: Line) -> Player:
    """The record a new member's line makes, its fields as every door's (services.clean_profile; the line was
    checked as the model checks them, without its per-record cost on a file of thousands)."""
    fields = {k: line.values[k] for k in PLAYER_FIELDS if k in line.values}
    return Player(**services.clean_profile(fields))


def preview(
    actor,
    text: str,
    mapping: dict[str, int] | None = None,
    *,
    rating_list: int | None = None,
    decisions: dict[int, str] | None = None,
    association: Association | None = None,
) -> Preview:
    """What importing `text` would do, saving nothing. `mapping`: field -> column (0 first); None takes the guess
    from the column names. `decisions`: for lines that may be a member on record, line number -> that member's number
    (as text) or NEW. `rating_list`: the id of the list the file's ratings go on."""
    _check_staff(actor)
    table = read_table(text)
    mapping = memberfile.guess_mapping(table.header) if mapping is None else dict(mapping)
    chosen_list = None
    errors = check_mapping(table, mapping, rating_list)
    if rating_list is not None:
        chosen_list = dict(rating_lists()).get(rating_list)
        if chosen_list is None:
            errors.append("That rating list cannot take ratings (it has rated events already): choose another.")
    if errors:
        return Preview(table, mapping, [], errors)
    lines = memberfile.read_rows(table, mapping, dict(MembershipType.choices))
    today = timezone.localdate()
    for line in lines:
        _check_person(line, today)
    readable = [line for line in lines if not line.errors]
    answers = lookup.find_people(line.person for line in readable)  # one query for the whole file
    found = {line.number: answer for line, answer in zip(readable, answers, strict=True)}
    rows = [_row(line, found.get(line.number), (decisions or {}).get(line.number, "")) for line in lines]
    _same_people(rows)
    _memberships_on_record(rows, association)
    errors = [e for row in rows for e in row.line.errors]
    return Preview(table, mapping, rows, errors, (rating_list, chosen_list) if chosen_list else None)


def _row(line: Line, found: Match | None, decision) -> Row:
    row = Row(line, found)
    if found is None:
        return row
    number = line.values.get("member_number")
    if found.is_sure:
        row.player_id, row.record = found.record.id, found.record
        row.notes.append(f"on record as member {found.record.member_number} (same {found.why})")
        if not matching.same_name(line.values["full_name"], found.record.full_name):
            row.notes.append(f"named {found.record.full_name} on record: check the member number")
    elif found.is_likely:
        decision = str(decision or "").strip()
        offered = {str(r.member_number): r for r in found.likely}
        if decision == NEW:
            row.choice = NEW
        elif decision in offered:
            row.choice, row.record = decision, offered[decision]
            row.player_id = row.record.id
        elif decision:
            line.refuse("member", f"{memberfile.shown(decision)} is not one of the members offered: choose again")
    if number is not None and row.player_id is None:
        row.notes.append(f"member number {number} is not on record: the new member gets the site's next number")
    return row


def _same_people(rows: list[Row]) -> None:
    """Two lines that are one person: the same member on record, or the same new person (same name in either order,
    with the same date of birth or email)."""
    first: dict[object, int] = {}
    for row in rows:
        if row.line.errors or row.found is None:
            continue
        v = row.line.values
        if row.player_id is not None:
            keys = [("member", row.player_id)]
        elif row.is_new or row.to_choose:
            name = matching.name_key(v["full_name"])
            keys = [("born", name, v.get("date_of_birth")), ("email", name, v.get("email", "").casefold())]
            keys = [k for k in keys if k[2]]
        else:
            keys = []
        for key in keys:
            if key in first:
                row.line.refuse("full name", f"the same person as line {first[key]}: keep one line for each member")
                break
            first[key] = row.line.number


def default_association() -> Association | None:
    return Association.objects.order_by("pk").first()


def _memberships_on_record(rows: list[Row], association: Association | None) -> None:
    """Marks the lines whose membership (type and start) the member has already: one query for the file."""
    wanted = [r for r in rows if r.player_id is not None and r.has_membership]
    association = association or default_association()
    if not wanted or association is None:
        return
    held = set(
        Membership.objects.filter(association=association, player_id__in={r.player_id for r in wanted}).values_list(
            "player_id", "type", "starts_on"
        )
    )
    for row in wanted:
        v = row.line.values
        if (row.player_id, v.get("membership_type", MembershipType.ORDINARY), v["starts_on"]) in held:
            row.membership_on_record = True
            row.notes.append("this membership is on record already")


@dataclass
class Imported:
    created: list[Player]
    matched: int
    memberships: int
    ratings: int


def _refuse(errors: list[str], lead: str) -> None:
    shown = "; ".join(errors[:MAX_LISTED_ERRORS])
    more = f"; and {len(errors) - MAX_LISTED_ERRORS} more" if len(errors) > MAX_LISTED_ERRORS else ""
    raise MembersFileError(f"{lead} {shown}{more}.", messages=[lead, *errors])


def apply(
    actor,
    text: str,
    mapping: dict[str, int] | None = None,
    *,
    rating_list: int | None = None,
    decisions: dict[int, str] | None = None,
    association: Association | None = None,
    as_of: date | None = None,
) -> Imported:
    """Imports the file all at once, or nothing: the preview is worked out again under the member numbers' lock (an
    import or a sign-up alongside waits), and any refused line, or a line still to choose, refuses the whole file."""
    _check_staff(actor)
    association = association or default_association()
    with transaction.atomic():
        # Held to the end: no new record is made alongside this import's matching.
        list(Counter.objects.select_for_update().filter(name=services.MEMBER_NUMBER_COUNTER))
        p = preview(actor, text, mapping, rating_list=rating_list, decisions=decisions, association=association)
        if p.errors:
            _refuse(p.errors, "Nothing was imported:")
        if p.undecided:
            lines = ", ".join(map(str, p.undecided))
            _refuse(
                [f"line {n}: choose the member on record it is, or “a new member”" for n in p.undecided],
                f"Nothing was imported: choose for line{'s' if len(p.undecided) > 1 else ''} {lines}.",
            )
        new_rows = [row for row in p.rows if row.is_new]
        try:
            players = [_new_player(row.line) for row in new_rows]
        except ServiceError as error:  # memberfile and _check_person refuse first: kept as the last word
            raise MembersFileError(f"Nothing was imported: {error.message}") from None
        numbers = take_in_sequence(services.MEMBER_NUMBER_COUNTER, len(players), first=services.MEMBER_NUMBER_START + 1)
        for player, number in zip(players, numbers, strict=True):
            player.member_number = number
        created = Player.objects.bulk_create(players, batch_size=500)
        for row, player in zip(new_rows, created, strict=True):
            row.player_id = player.pk
        memberships = _memberships(p.rows, association)
        Membership.objects.bulk_create(memberships, batch_size=500)
        ratings = [(r.player_id, r.line.values["rating"]) for r in p.rows if "rating" in r.line.values]
        if p.rating_list and ratings:
            members_imported.send(
                sender=Player,
                actor=actor,
                rating_list=p.rating_list[0],
                ratings=ratings,
                as_of=as_of or timezone.localdate(),
            )
    return Imported(
        created, sum(r.player_id is not None and not r.is_new for r in p.rows), len(memberships), len(ratings)
    )


def _memberships(rows: list[Row], association: Association | None) -> list[Membership]:
    wanted = [r for r in rows if r.has_membership and not r.membership_on_record]
    if wanted and association is None:
        raise MembersFileError("There is no association on the site to record the memberships with.")
    memberships = []
    for row in wanted:
        v = row.line.values
        memberships.append(
            Membership(
                player_id=row.player_id,
                association=association,
                type=v.get("membership_type", MembershipType.ORDINARY),
                starts_on=v["starts_on"],
                expires_on=v.get("expires_on"),
                paid_on=v.get("paid_on"),
            )
        )
    return memberships
