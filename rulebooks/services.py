"""Publishing rule books: every write of a rule book or a version goes through here (the staff page and the admin
alike). A version is written once and never changed: what changes is a new version, numbered after the last."""

import difflib
from datetime import date

from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.text import slugify

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.hooks import collect
from clubsite.kit.roles import is_association_staff
from clubsite.kit.text import check_free_text, check_text, markdown_html
from players.models import Club

from .models import RuleBook, RuleBookVersion

# The diff kept with a version is for reading: past this many lines of it, the rest is left out (and said so).
MAX_DIFF_LINES = 5_000


class RuleBookError(ServiceError):
    """A rule book or a version refused, with a message naming what to fix."""


REFUSED = "Only association staff publish the association's rule books, and a club's director their club's."


def directs_club(actor, club) -> bool:
    """Whether `actor` directs `club`. The clubs app knows its officers and answers through its AppConfig hook
    `directs_club`: rulebooks comes before clubs and may not import it."""
    if not (actor and actor.is_authenticated) or club is None:
        return False
    return any(collect("directs_club", actor, club).get("directs_club", []))


def can_publish(actor, book: RuleBook | None = None, club: Club | None = None) -> bool:
    """Who publishes rule books: association staff (any book), and a club's director the books of their own club
    (`book`'s club, or `club` for a book not yet written)."""
    if is_association_staff(actor):
        return True
    if book is not None:
        club = book.club if book.club_id else None
    return directs_club(actor, club)


def save_book(actor, book: RuleBook) -> RuleBook:
    """Add a rule book or change its title, summary or place in the list (its versions do not change). A club's
    director may neither move a book to another club nor make it the association's: both the book as it was and as
    it would be must be theirs to publish."""
    before = RuleBook.objects.select_related("club").filter(pk=book.pk).first() if book.pk else None
    if not can_publish(actor, book) or (before is not None and not can_publish(actor, before)):
        raise NotAllowed(REFUSED)
    if book.club_id and book.club.association_id != book.association_id:
        raise RuleBookError("The club belongs to another association.", field="club")
    if book.based_on_id and book.based_on_id == book.pk:
        raise RuleBookError("A rule book cannot amend itself.", field="based_on")
    if book.based_on_id and book.based_on.association_id != book.association_id:
        raise RuleBookError("A rule book amends only a rule book of its own association.", field="based_on")
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
    """Publish a new version of `book`: numbered after the last, dated `effective_on` (today by default), its
    text and what changed rendered once here. Refused for every problem of version_problems at once; the book's row
    is locked first, so two publishers never take one number or both miss the other's version."""
    if not can_publish(actor, book):
        raise NotAllowed(REFUSED)
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


def club_book(club: Club) -> RuleBook | None:
    """The club's own rule book (a club publishes one, in versions), or None: it follows the association's."""
    return RuleBook.objects.filter(club=club).order_by("position", "pk").first()


def publish_club_book(
    actor, club: Club, *, title: str, based_on: RuleBook | None, text: str, effective_on: date | None = None
) -> RuleBookVersion:
    """A club publishes its own rule book (optionally amending one of its association's own books), with its first
    version, all at once or nothing. Later versions go through publish_version like any book's."""
    if not can_publish(actor, club=club):
        raise NotAllowed(REFUSED)
    title = check_free_text(title, "title", RuleBook._meta.get_field("title").max_length, RuleBookError, "title")
    problems = [] if title else [("title", "Give the rule book a title.")]
    if based_on is not None and (based_on.club_id or based_on.association_id != club.association_id):
        problems.append(("based_on", "A club's rule book amends one of its association's own rule books."))
    problems += version_problems(RuleBook(), text, "", effective_on)
    if problems:
        raise RuleBookError(problems[0][1], field=problems[0][0], problems=problems)
    with transaction.atomic():
        # The club's row is locked so that two directors publishing at once never give the club two books.
        club = Club.objects.select_for_update().get(pk=club.pk)
        if club_book(club) is not None:
            raise RuleBookError(f"{club.name} already publishes its rule book: publish a new version of it.")
        book = RuleBook(
            association_id=club.association_id,
            club=club,
            based_on=based_on,
            title=title,
            slug=_free_slug(f"{club.slug}-rules"),
            position=100,
        )
        save_book(actor, book)
        return publish_version(actor, book, text=text, effective_on=effective_on)


def _free_slug(wanted: str) -> str:
    base = slugify(wanted)[:70].strip("-") or "club-rules"
    taken = set(RuleBook.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug
