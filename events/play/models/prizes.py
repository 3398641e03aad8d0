"""Prize decisions a director makes by hand, for events whose tied places are left to the director."""

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = ["PrizeDecision"]


class PrizeDecision(models.Model):
    """Who receives one prize that a tie covers, with who decided, when and why.

    Decisions are kept: the latest one for a prize counts and earlier ones stay as its history.
    """

    division = models.ForeignKey("play.Division", on_delete=models.CASCADE, related_name="prize_decisions")
    prize = models.CharField(max_length=200, help_text="The prize as the prizes page names it, e.g. 2nd place")
    seat = models.ForeignKey("play.DivisionPlayer", on_delete=models.CASCADE, related_name="prize_decisions")
    reason = models.CharField(max_length=300)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "events_prizedecision"  # the table it had before play became an app
        ordering = ["division", "prize", "-decided_at", "-pk"]
        indexes = [models.Index(fields=["division", "prize"])]

    def __str__(self):
        return f"{self.prize}: seat {self.seat_id} ({self.reason})"
