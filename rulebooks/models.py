"""Rule books: the association's (or a club's) rules of play, published as numbered, dated versions. A version is
never changed once published: a change is a new version, and an event and every entry name the version they follow
and agreed to."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from clubsite.kit.text import NOTE_TEXT, TextLimit
from players.models import Association, Club

# A whole rule book in one text: the association's is about 15,000 characters, WESPA's about 100,000.
BOOK_TEXT = 200_000


class RuleBook(models.Model):
    """A rule book: the association's own (no club), or a club's. A club's book may amend another (`based_on`: its
    club-play relaxations of the association's book)."""

    association = models.ForeignKey(Association, on_delete=models.PROTECT, related_name="rule_books")
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rule_books",
        help_text="Empty: the association's own rule book",
    )
    based_on = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="amended_by",
        help_text="The rule book this one amends or adopts, if any",
    )
    title = models.CharField(max_length=200)
    slug = models.SlugField(unique=True, max_length=80)
    summary = models.CharField(max_length=300, blank=True, help_text="One line for the list of rule books")
    position = models.PositiveSmallIntegerField(default=0, help_text="Lower comes first in the list")

    class Meta:
        ordering = ["position", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("rulebooks:book", args=[self.slug])


class RuleBookVersion(models.Model):
    """One published version of a rule book: numbered from 1, dated, its text and what changed since the last.
    Written once by rulebooks.services.publish_version and never changed after."""

    book = models.ForeignKey(RuleBook, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    effective_on = models.DateField(help_text="The date from which this version applies")
    text = models.TextField(validators=[TextLimit(BOOK_TEXT, "rule book's text")], help_text="Markdown")
    text_html = models.TextField(editable=False, help_text="The text as the page shows it")
    changes = models.TextField(
        "what changed",
        blank=True,
        validators=[TextLimit(NOTE_TEXT, "note of what changed")],
        help_text="Markdown: what changed since the version before",
    )
    changes_html = models.TextField(blank=True, editable=False)
    # The lines that changed since the version before, as a unified diff (made once, when published).
    diff = models.TextField(blank=True, editable=False)
    published_at = models.DateTimeField()
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["book", "-number"]
        constraints = [models.UniqueConstraint(fields=["book", "number"], name="rule_book_version_number_unique")]

    # The texts written in Markdown, each with the field that keeps it as the pages show it (rendered when published).
    MARKDOWN_FIELDS = {"text": "text_html", "changes": "changes_html"}

    def __str__(self):
        return f"{self.book.title}, version {self.number} of {self.effective_on.day} {self.effective_on:%B %Y}"

    def get_absolute_url(self):
        return reverse("rulebooks:version", args=[self.book.slug, self.number])

    def refusal_for(self, association_id: int | None, club_id: int | None) -> str:
        """Why an event of this association and club may not follow this version ('' when it may): an event follows
        its association's own rule books, or its club's."""
        book = self.book
        if association_id and book.association_id != association_id:
            return "Choose a rule book of the event's own association."
        if book.club_id and book.club_id != club_id:
            return f"{book.title} is {book.club}'s own rule book: only that club's events follow it."
        return ""
