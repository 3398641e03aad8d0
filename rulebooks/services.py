"""Publishing rule books: every write of a rule book or a version goes through here (the staff page and the admin
alike). A version is written once and never changed: what changes is a new version, numbered after the last."""

import difflib
from datetime import date

from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff
from clubsite.kit.text import check_text, markdown_html

from .models import RuleBook, RuleBookVersion

# The diff kept with a version is for reading: past this many lines of it, the rest is left out (and said so).
MAX_DIFF_LINES = 5_000


class RuleBookError(ServiceError):
    """A rule book or a version refused, with a message naming what to fix."""


def can_publish(actor, book: RuleBook | None = None) -> bool:
    """Who publishes rule books: association staff (a club's book as well as the association's)."""
    return is_association_staff(actor)


def save_book(actor, book: RuleBook) -> RuleBook:
    """Staff add a rule book or change its title, summary or place in the list (its versions do not change)."""
    if not can_publish(actor, book):
        raise NotAllowed("Only association staff publish rule books.")
    if book.club_id and book.club.association_id != book.association_id:
        raise RuleBookError("The club belongs to another association.", field="club")
    if book.based_on_id and book.based_on_id == book.pk:
        raise RuleBookError("A rule book cannot amend itself.", field="based_on")
    with transaction.atomic():
        book.full_clean()
        book.save()
    return book


def latest_versions() -> QuerySet:
    """Each rule book with `current_number`, the number of its latest version (None before the first)."""
    latest = RuleBookVersion.objects.filter(book=OuterRef("pk")).order_by("-number").values("number")[:1]
    return RuleBook.objects.annotate(current_number=Subquery(latest))


def current_version(book: RuleBook) -> RuleBookVersion | None:
    return book.versions.order_by("-number").first()


def version_problems(book: RuleBook, text: str, changes: str, effective_on: date | None) -> list[tuple[str, str]]:
    """Everything publishing this text as `book`'s next version would be refused for, each with its field: the text
    is there and within bounds, and a version after the first differs from the last, says what changed and applies
    no earlier than it."""
    text, changes = (text or "").strip(), (changes or "").strip()
    problems = []
    if not text:
        problems.append(("text", "Write the rule book's text."))
    for field, value in (("text", text), ("changes", changes)):
        try:
            check_text(RuleBookVersion, field, value, RuleBookError)
        except RuleBookError as refusal:
            problems.append((field, refusal.message))
    if effective_on is not None and not 2000 <= effective_on.year <= 2100:
        problems.append(("effective_on", "Enter a date between the years 2000 and 2100."))
    last = book.versions.order_by("-number").only("number", "effective_on", "text").first() if book.pk else None
    if last is not None:
        if text == last.text:
            problems.append(
                ("text", f"This text is the same as version {last.number}: change the rules to publish a new version.")
            )
        if not changes:
            problems.append(("changes", f"Say what changed since version {last.number}."))
        if effective_on is not None and effective_on < last.effective_on:
            problems.append(
                (
                    "effective_on",
                    f"Version {last.number} applies from {last.effective_on.day} {last.effective_on:%B %Y}: "
                    "a new version applies from that date or later.",
                )
            )
    return problems


def publish_version(actor, book: RuleBook, *, text: str, changes: str = "", effective_on: date | None = None):
    """Staff publish a new version of `book`: numbered after the last, dated `effective_on` (today by default), its
    text and what changed rendered once here. Refused for every problem of version_problems at once; the book's row
    is locked first, so two publishers never take one number or both miss the other's version."""
    if not can_publish(actor, book):
        raise NotAllowed("Only association staff publish rule books.")
    text, changes = (text or "").strip(), (changes or "").strip()
    effective_on = effective_on or timezone.localdate()
    with transaction.atomic():
        book = RuleBook.objects.select_for_update().get(pk=book.pk)
        problems = version_problems(book, text, changes, effective_on)
        if problems:
            raise RuleBookError(problems[0][1], field=problems[0][0], problems=problems)
        last = book.versions.order_by("-number").only("number", "text").first()
        version = RuleBookVersion(
            book=book,
            number=(last.number if last else 0) + 1,
            effective_on=effective_on,
            text=text,
            text_html=markdown_html(text),
            changes=changes,
            changes_html=markdown_html(changes),
            diff=text_diff(last.text if last else "", text, last.number if last else 0),
            published_at=timezone.now(),
            published_by=actor if actor and actor.is_authenticated else None,
        )
        version.save()
    return version


def text_diff(before: str, after: str, number: int) -> str:
    """The lines that changed from version `number` (0: none before) to the new text, as a unified diff."""
    if not number:
        return ""
    lines = list(
        difflib.unified_diff(
            before.splitlines(),
            after.splitlines(),
            f"version {number}",
            f"version {number + 1}",
            lineterm="",
            n=2,
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… and {len(lines) - MAX_DIFF_LINES:,} more lines that changed"]
    return "\n".join(lines)


def versions_for(association_id: int | None, club_id: int | None = None) -> QuerySet:
    """The versions an event may name: those of the association's own rule books and of the event's club's."""
    versions = RuleBookVersion.objects.select_related("book").order_by("book__position", "book__title", "-number")
    if association_id is None:
        return versions
    own = Q(book__club__isnull=True) | Q(book__club=club_id) if club_id else Q(book__club__isnull=True)
    return versions.filter(own, book__association=association_id)
