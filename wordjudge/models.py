"""Lexicons (word lists the association licenses), word judge sessions at a venue, and their log.

The rules live in wordjudge.services; reading and judging words in wordjudge.core.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Lexicon(models.Model):
    """One word list, named as events name their lexicon (e.g. CSW, NWL); re-uploading bumps `version`."""

    name = models.CharField(max_length=40, unique=True, help_text="As events name it, e.g. CSW or NWL")
    # zlib of the sorted, newline-joined uppercase words (wordjudge.core.pack).
    words = models.BinaryField(editable=False)
    word_count = models.PositiveIntegerField(default=0, editable=False)
    version = models.PositiveIntegerField(default=0, editable=False)
    uploaded_at = models.DateTimeField(null=True, editable=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class JudgeSession(models.Model):
    """The word judge opened for an event: the tablet at the venue uses `token` until it is closed."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="judge_sessions")
    token = models.CharField(max_length=64, unique=True, editable=False)
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(closed_at__isnull=True), name="one_open_judge_session_per_event"
            )
        ]

    def __str__(self):
        return f"Word judge for {self.event} opened {self.opened_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Judgement(models.Model):
    """One challenge ruled on: the words of the play as typed (normalised) and the verdict on the whole play."""

    session = models.ForeignKey(JudgeSession, on_delete=models.CASCADE, related_name="judgements")
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="judgements")
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    words = models.CharField(max_length=300)  # space-separated, uppercase
    acceptable = models.BooleanField()
    lexicon_name = models.CharField(max_length=40)
    lexicon_version = models.PositiveIntegerField()
    judged_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-judged_at", "-pk"]

    def __str__(self):
        return f"{self.words}: {'acceptable' if self.acceptable else 'not acceptable'}"

    @property
    def verdict(self) -> str:
        return "ACCEPTABLE" if self.acceptable else "NOT ACCEPTABLE"
