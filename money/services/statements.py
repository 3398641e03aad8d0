"""Bank statement reconciliation: the treasurer uploads the bank's CSV export, reviews each transfer matched
to what it pays for by its reference and amount, assigns by hand the ones without a usable reference, and
confirms. Nothing counts until then; each line is then received through `receive` with its fingerprint as
the bank's id, so the same line, in this upload or any other, is counted once.

What a line pays for is looked up by its reference, one query or a few each (`money.payables.due_for`): a statement
naming many references is matched in the background (money.services.statement_matching) and its review reads the
matching kept in the cache (`Lookups`); confirming looks again, locked, at every reference it records a payment for.

A line's outcome, in the order the review totals them:

    paid in full       the amount is what is still due
    partly paid        less than is due
    overpaid           more than is due: the excess is held for the organiser to refund
    not payable        what it pays for has lapsed (or has nothing left to pay): the money is held
    reference unknown  no reference found, or it names nothing due to this association: assign one by hand
    already imported   a payment was recorded from this very bank line before
    not a credit       money going out (or nothing): skipped
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from functools import cached_property

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff

from ..core.references import make_reference, near_misses, parse_reference
from ..core.statements import PLAIN, LineError, Mapping, parse_mapping, parse_statement
from ..core.statements import _decode as decode_text
from ..models import Action, Method, MoneyLog, Payment, Statement
from ..payables import Due, due_for
from .ledger import MoneyError, receive

PAID_IN_FULL = "paid in full"
PARTLY_PAID = "partly paid"
OVERPAID = "overpaid"
NOT_PAYABLE = "not payable"
UNKNOWN = "reference unknown"
ALREADY_IMPORTED = "already imported"
NOT_A_CREDIT = "not a credit"
OUTCOMES = (PAID_IN_FULL, PARTLY_PAID, OVERPAID, NOT_PAYABLE, UNKNOWN, ALREADY_IMPORTED, NOT_A_CREDIT)
COUNTED = (PAID_IN_FULL, PARTLY_PAID, OVERPAID, NOT_PAYABLE)  # what confirming records as a payment

MAX_BYTES = 5 * 1024 * 1024
MAX_MAPPING = 500  # Statement.mapping's length
MAX_RECORDED = 2_000  # payments one confirmation records (each with its receipt and email), so it ends in time
_CHUNK = 5_000  # fingerprints asked for in one query
ZERO = Decimal("0")


@dataclass(frozen=True)
class Row:
    """One transaction of the statement and what confirming does with it."""

    line_no: int
    date: date
    amount: Decimal
    description: str
    fingerprint: str
    reference: str  # the reference it is matched by ("" when none was found)
    assigned: bool  # the reference was assigned by hand
    outcome: str  # one of OUTCOMES
    why: str = ""  # why a reference is unknown, or what it pays for is not payable
    due: Due | None = None  # what the reference names, as it stands before this statement
    balance: Decimal | None = None  # what was still due before this line (earlier lines of the file counted)
    payment: Payment | None = None  # already imported: that payment; after confirming: the one recorded

    @property
    def label(self) -> str:
        return f"{NOT_PAYABLE}: {self.why}" if self.outcome == NOT_PAYABLE and self.why else self.outcome

    @property
    def counted(self) -> bool:
        return self.outcome in COUNTED

    @property
    def assignable(self) -> bool:
        """A reference can be assigned to it by hand (or the one assigned changed)."""
        return self.amount > 0 and self.outcome != ALREADY_IMPORTED


@dataclass(frozen=True)
class Total:
    outcome: str
    count: int
    amount: Decimal


@dataclass(frozen=True)
class Review:
    statement: Statement
    rows: tuple[Row, ...]
    errors: tuple[LineError, ...]  # lines that could not be read: never counted
    lookups: Lookups | None = None  # the matching kept from the background, when the review reads one

    @cached_property
    def totals(self) -> tuple[Total, ...]:
        return totals(self.rows)

    @cached_property
    def counted(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.counted)

    @cached_property
    def unmatched(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.outcome == UNKNOWN)

    @property
    def matched_at(self) -> datetime | None:
        """When what the lines pay for was looked up, when the review reads a matching kept from then (None: now)."""
        return self.lookups.at if self.lookups else None


@dataclass(frozen=True)
class Lookups:
    """What each reference of a statement named when it was matched: the `Due` (None: nothing). Kept in the site's
    cache for `LOOKUPS_SECONDS` by the background matching, under `lookups_key`."""

    at: datetime
    dues: dict[str, Due | None] = field(default_factory=dict)


LOOKUPS_SECONDS = 60 * 60


def lookups_key(statement: Statement) -> str:
    return f"money:statement:{statement.pk}:lookups"


def kept_lookups(statement: Statement) -> Lookups | None:
    found = cache.get(lookups_key(statement))
    return found if isinstance(found, Lookups) else None


def totals(rows) -> tuple[Total, ...]:
    """Lines and amounts per outcome, every outcome listed."""
    found = []
    for outcome in OUTCOMES:
        these = [row for row in rows if row.outcome == outcome]
        found.append(Total(outcome, len(these), sum((row.amount for row in these), ZERO)))
    return tuple(found)


def check_staff(actor) -> None:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can reconcile bank statements.")


def _mapping(spec: str) -> Mapping:
    if not (spec or "").strip():
        return PLAIN
    if len(spec.strip()) > MAX_MAPPING:
        raise MoneyError(f"The mapping is longer than {MAX_MAPPING} characters.", field="mapping")
    try:
        return parse_mapping(spec)
    except ValueError as error:
        raise MoneyError(f"The mapping: {error}", field="mapping") from None


def _refused(errors: list[LineError], lead: str, tail: str = "") -> MoneyError:
    shown = [error.message for error in errors[:10]]
    if len(errors) > len(shown):
        shown.append(f"and {len(errors) - len(shown)} more lines")
    message = f"{lead} {'; '.join(shown)}.{' ' + tail if tail else ''}"
    return MoneyError(message, field="file", messages=[lead, *shown, *([tail] if tail else [])])


def upload(actor, association, filename: str, data: bytes | str, mapping_spec: str = "") -> Statement:
    """Reads a bank statement and keeps it as a draft for review: nothing is counted. A file or mapping that
    cannot be read at all is refused, naming the line or column at fault; single unreadable lines are kept
    and listed by the review."""
    check_staff(actor)
    if association is None:
        raise MoneyError("Choose the association whose bank account this statement is of.", field="association")
    if not data:
        raise MoneyError("The file is empty.", field="file")
    if len(data) > MAX_BYTES:
        raise MoneyError(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.", field="file")
    mapping = _mapping(mapping_spec)
    text = decode_text(data)
    try:
        parsed = parse_statement(text, mapping)
    except ValueError as error:
        raise MoneyError(str(error), field="file") from None
    if not parsed.lines:
        if parsed.errors:
            raise _refused(parsed.errors, "No line of the file could be read:")
        raise MoneyError("The file has no transactions after its header.", field="file")
    return Statement.objects.create(
        association=association,
        filename=(filename or "statement.csv").strip()[:200],
        content=text,
        mapping=(mapping_spec or "").strip(),
        uploaded_at=timezone.now(),
        uploaded_by=actor,
    )


def parse(statement: Statement):
    """The statement's file read again with its mapping (both were checked when it was uploaded)."""
    return parse_statement(statement.content, _mapping(statement.mapping))


def _match(line, statement: Statement, dues: dict, lock: bool) -> tuple[str, bool, Due | None, str]:
    """The reference a line is matched by, whether it was assigned by hand, what it names and, when that is
    nothing, why."""

    def lookup(reference: str) -> tuple[Due | None, str]:
        if reference not in dues:
            found = due_for(reference, lock=lock)
            dues[reference] = found[1] if found else None
        due = dues[reference]
        if due is None:
            return None, f"{reference} names nothing due."
        if due.association_id != statement.association_id:
            return None, f"{reference} is another association's."
        return due, ""

    assigned = (statement.assignments or {}).get(str(line.line_no), "")
    if assigned:
        due, why = lookup(assigned)
        return assigned, True, due, why
    references = [make_reference(kind, number) for kind, number in line.references]
    if not references:
        missed = near_misses(line.description)
        if missed:
            return "", False, None, f"{missed[0]} looks like a reference, but a character is wrong: assign it by hand."
        return "", False, None, "No reference in the description."
    for reference in references:
        due, why = lookup(reference)
        if due is not None:
            return reference, False, due, ""
    return references[0], False, None, lookup(references[0])[1]


def references_of(statement: Statement, lines) -> set[str]:
    """The references a review looks up for these lines: each credit's reference assigned by hand, else those found
    in its description."""
    assignments = statement.assignments or {}
    found: set[str] = set()
    for line in lines:
        if line.amount <= 0:
            continue
        assigned = assignments.get(str(line.line_no))
        if assigned:
            found.add(assigned)
        else:
            found.update(make_reference(kind, number) for kind, number in line.references)
    return found


def _imported(lines) -> dict[str, Payment]:
    """The payments recorded before from these lines (credits only), by fingerprint. A line's payment is received on
    the line's date, so they are looked for among the payments of the lines' days (a year's statement: a few
    hundred days), not by sending every fingerprint to the database."""
    wanted = {line.fingerprint for line in lines if line.amount > 0}
    days = {line.date for line in lines if line.amount > 0}
    if not wanted:
        return {}
    candidates = Payment.objects.filter(method__in=STATEMENT_METHODS, received_on__in=days).exclude(external_id="")
    ids = [pk for external_id, pk in candidates.values_list("external_id", "pk").iterator() if external_id in wanted]
    found: dict[str, Payment] = {}
    for start in range(0, len(ids), _CHUNK):
        found.update((p.external_id, p) for p in Payment.objects.filter(pk__in=ids[start : start + _CHUNK]))
    return found


def _unfit(line, today: date) -> LineError | None:
    """What receive would refuse of a credit line, refused here by line so the review shows it before confirming."""
    if line.amount > 0 and line.date > today:
        return LineError(line.line_no, "date", f"line {line.line_no}, date: {line.date} is in the future")
    if line.amount > 0 and line.amount != line.amount.quantize(Decimal("0.01")):
        return LineError(
            line.line_no, "amount", f"line {line.line_no}, amount: {line.amount} is not in dollars and cents"
        )
    return None


def _review(statement: Statement, *, lock: bool, parsed=None, lookups: Lookups | None = None) -> Review:
    """The review of the statement's lines. What a reference names is looked up (locked when `lock`) unless
    `lookups` gives it."""
    parsed = parsed or parse(statement)
    imported = _imported(parsed.lines)
    dues: dict[str, Due | None] = dict(lookups.dues) if lookups else {}
    pending: dict[str, Decimal] = defaultdict(lambda: ZERO)  # applied by earlier lines of this file
    rows = []
    errors = list(parsed.errors)
    today = timezone.localdate()
    for line in parsed.lines:
        if unfit := _unfit(line, today):
            errors.append(unfit)
            continue
        common = dict(
            line_no=line.line_no,
            date=line.date,
            amount=line.amount,
            description=line.description,
            fingerprint=line.fingerprint,
        )
        if line.amount <= 0:
            rows.append(Row(**common, reference="", assigned=False, outcome=NOT_A_CREDIT))
            continue
        if line.fingerprint in imported:
            payment = imported[line.fingerprint]
            rows.append(
                Row(**common, reference=payment.reference, assigned=False, outcome=ALREADY_IMPORTED, payment=payment)
            )
            continue
        reference, assigned, due, why = _match(line, statement, dues, lock)
        if due is None:
            rows.append(Row(**common, reference=reference, assigned=assigned, outcome=UNKNOWN, why=why))
            continue
        if not due.payable:
            outcome, balance = NOT_PAYABLE, ZERO
        else:
            balance = max(due.balance - pending[reference], ZERO)
            pending[reference] += min(line.amount, balance)
            if line.amount == balance:
                outcome = PAID_IN_FULL
            elif line.amount < balance:
                outcome = PARTLY_PAID
            else:
                outcome = OVERPAID
        rows.append(
            Row(
                **common,
                reference=reference,
                assigned=assigned,
                outcome=outcome,
                why=due.why_not if outcome == NOT_PAYABLE else "",
                due=due,
                balance=balance,
            )
        )
    errors.sort(key=lambda e: e.line_no)
    return Review(statement=statement, rows=tuple(rows), errors=tuple(errors), lookups=lookups)


def review(statement: Statement) -> Review:
    """What confirming the statement would do, line by line; no payment is saved. What the lines pay for is
    looked up as confirming would (locked, the clock applied: an unpaid place past its time has lapsed)."""
    with transaction.atomic():
        return _review(statement, lock=True)


def review_of(statement: Statement, parsed, lookups: Lookups | None) -> Review:
    """The review of the statement's lines as `parse` read them, with what `lookups` (a matching kept) gives; the
    references it lacks are looked up, locked, in the caller's transaction."""
    return _review(statement, lock=True, parsed=parsed, lookups=lookups)


def assign(actor, statement: Statement, line_no, reference: str) -> Statement:
    """Matches a line to a reference by hand ("" takes the assignment back). The reference must name
    something due to the statement's association; the line must be a credit not yet imported."""
    check_staff(actor)
    try:
        line_no = int(str(line_no).strip())
    except (TypeError, ValueError):
        raise MoneyError(f"{line_no!r} is not a line number.", field="line") from None
    reference = (reference or "").strip()
    with transaction.atomic():
        statement = Statement.objects.select_for_update().get(pk=statement.pk)
        if statement.confirmed_at:
            raise MoneyError("This statement is confirmed: its lines can no longer be assigned.")
        line = next((line for line in parse(statement).lines if line.line_no == line_no), None)
        if line is None or _unfit(line, timezone.localdate()):
            raise MoneyError(f"Line {line_no} is not a transaction of this statement.", field="line")
        if line.amount <= 0:
            raise MoneyError(f"Line {line_no} is not a credit: there is nothing to assign.", field="line")
        if payment := _imported([line]).get(line.fingerprint):
            raise MoneyError(
                f"Line {line_no} was imported before (receipt {payment.number}): it counts once.", field="line"
            )
        assignments = dict(statement.assignments or {})
        if not reference:
            assignments.pop(str(line_no), None)
        else:
            found = due_for(reference)
            if found is None:
                raise MoneyError(f"No amount due has the reference {reference!r}.", field="reference")
            if found[1].association_id != statement.association_id:
                raise MoneyError(f"{found[1].reference} is another association's.", field="reference")
            assignments[str(line_no)] = found[1].reference
        statement.assignments = assignments
        statement.save(update_fields=["assignments"])
    return statement


_PAYER = re.compile(r"\bFROM\b:?\s*(.+)", re.IGNORECASE)
_NOT_NAMES = {"OTHR", "REF", "TO", "FOR", "VIA", "PAYNOW", "FAST", "GIRO", "TRF", "TRANSFER", "PAYMENT", "IBG"}
_NAME_WORD = re.compile(r"[A-Za-z][A-Za-z.'&-]*")


def payer_name(description: str) -> str:
    """The payer's name when the bank writes it as "FROM <name>" ("PayNow Transfer From: TAN AH KOW OTHR
    E000123J" gives "Tan Ah Kow"), else ""."""
    found = _PAYER.search(description or "")
    if not found:
        return ""
    words = []
    for word in found.group(1).split():
        if not _NAME_WORD.fullmatch(word) or word.upper() in _NOT_NAMES or parse_reference(word):
            break
        words.append(word)
        if len(words) == 6:
            break
    name = " ".join(words)
    return name.title() if name.isupper() else name


def _summary(rows, errors) -> dict:
    counted = [row for row in rows if row.counted]
    return {
        "counted": len(counted),
        "amount": str(sum((row.amount for row in counted), ZERO)),
        "totals": [{"outcome": t.outcome, "count": t.count, "amount": str(t.amount)} for t in totals(rows)],
        "lines": [
            {
                "line": row.line_no,
                "date": row.date.isoformat(),
                "reference": row.reference,
                "amount": str(row.amount),
                "outcome": row.label,
                "receipt": row.payment.number if row.payment is not None else "",
            }
            for row in rows
        ],
        "errors": [error.message for error in errors],
    }


# A statement line is a PayNow transfer when the bank says so, else a bank transfer; either way its fingerprint is
# its id, so it counts once.
STATEMENT_METHODS = (Method.BANK_TRANSFER, Method.PAYNOW)


def method_of(description: str) -> str:
    return Method.PAYNOW if "PAYNOW" in description.upper().replace(" ", "") else Method.BANK_TRANSFER


def discard(actor, statement: Statement) -> None:
    """Drops an upload that was never confirmed (nothing in it was counted); a confirmed one stays, as the
    record of what it imported."""
    check_staff(actor)
    with transaction.atomic():
        statement = Statement.objects.select_for_update().get(pk=statement.pk)
        if statement.confirmed_at:
            raise MoneyError("A confirmed statement stays: it is the record of the payments it imported.")
        cache.delete(lookups_key(statement))
        statement.delete()


def confirm(actor, statement: Statement, *, with_errors: bool = False, parsed=None) -> Review:
    """Records a payment, with its receipt, for every credit line matched to something due and not imported
    before, all or none. Lines that could not be read count nothing: a statement with them is refused unless
    `with_errors` (import the rest; the same file corrected can be imported later, counting each line once).
    `parsed`: the file as `parse` read it, when the caller has read it already."""
    check_staff(actor)
    with transaction.atomic():
        statement = Statement.objects.select_for_update().get(pk=statement.pk)
        if statement.confirmed_at:
            raise MoneyError(f"This statement was confirmed on {timezone.localtime(statement.confirmed_at):%d %b %Y}.")
        # What it pays for is looked up again and stays locked, so the outcomes hold; a reference the matching kept
        # found naming nothing is not looked for again: its lines stay unmatched, for a later upload to count.
        kept = kept_lookups(statement)
        unknown = Lookups(kept.at, {r: None for r, due in kept.dues.items() if due is None}) if kept else None
        found = _review(statement, lock=True, parsed=parsed, lookups=unknown)
        if found.errors and not with_errors:
            raise _refused(
                list(found.errors),
                f"{len(found.errors)} line(s) could not be read:",
                "Correct the file and upload it again, or confirm importing the other lines without them.",
            )
        if len(found.counted) > MAX_RECORDED:
            raise MoneyError(
                f"This statement would record {len(found.counted):,} payments; one confirmation records at most "
                f"{MAX_RECORDED:,}. Upload it in parts (a month or a few weeks each) and confirm each part: a line "
                "is counted once, however it is split."
            )
        rows = []
        for row in found.rows:
            if row.counted:
                try:
                    received = receive(
                        reference=row.reference,
                        amount=row.amount,
                        method=method_of(row.description),
                        external_id=row.fingerprint,
                        received_on=row.date,
                        payer_name=payer_name(row.description),
                        actor=actor,
                        note=f"Bank statement {statement.filename}, line {row.line_no}",
                    )
                except ServiceError as error:
                    raise MoneyError(f"Line {row.line_no}: {error.message}", field=error.field) from None
                outcome = ALREADY_IMPORTED if received.duplicate else row.outcome
                row = replace(row, outcome=outcome, payment=received.payment)
            rows.append(row)
        done = Review(statement=statement, rows=tuple(rows), errors=found.errors)
        statement.confirmed_at = timezone.now()
        statement.confirmed_by = actor
        statement.summary = _summary(rows, found.errors)
        statement.save(update_fields=["confirmed_at", "confirmed_by", "summary"])
        MoneyLog.objects.create(
            at=statement.confirmed_at,
            actor=actor,
            action=Action.STATEMENT,
            amount=Decimal(statement.summary["amount"]),
            why=f"{statement.filename}: {statement.summary['counted']} payment(s) from {len(rows)} line(s)"[:300],
        )
    return done
