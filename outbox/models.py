"""The outbox: every email is a row written in the transaction of the change that causes it, one recipient each."""

from django.db import models
from django.utils import timezone


class MessageStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"


class Message(models.Model):
    """One email to one person. A failed message is retried until MAX_ATTEMPTS, then waits for staff to resend it."""

    # Sending moves pending or failed to sent or failed; staff's "resend" moves failed back to pending.
    TRANSITIONS = {
        MessageStatus.PENDING: {MessageStatus.SENT, MessageStatus.FAILED},
        MessageStatus.FAILED: {MessageStatus.SENT, MessageStatus.FAILED, MessageStatus.PENDING},
        MessageStatus.SENT: set(),
    }

    to = models.CharField(max_length=254, help_text="The one recipient of this message")
    from_email = models.CharField(max_length=254, blank=True, help_text="Empty: the site's default sender")
    reply_to = models.CharField(max_length=254, blank=True, help_text="Where replies go (e.g. the event's organiser)")
    subject = models.CharField(max_length=500)
    body = models.TextField()
    html = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=MessageStatus.choices, default=MessageStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # When the sweep sends it if nothing else has: a grace period after creation, the back-off after a failure,
    # empty once sent or given up.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]

    def __str__(self):
        return f"{self.subject} → {self.to}"


class Drain(models.Model):
    """One row: when the task that sends all pending mail (`outbox.tasks.drain_outbox`) was last queued and has not
    started yet. A burst of mail then queues one task, not one per message; the task empties it as it starts."""

    queued_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"drain queued at {self.queued_at}" if self.queued_at else "no drain queued"
