"""Game records: a GCG file attached to a game (read by events.core.gcg)."""

from django.conf import settings
from django.db import models

__all__ = ["GcgRecord"]


class GcgRecord(models.Model):
    """The move-by-move record of one game, as uploaded (checked by events.core.gcg before it is stored)."""

    game = models.OneToOneField("events.Game", on_delete=models.CASCADE, related_name="gcg_record")
    text = models.TextField()
    filename = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"Game record of game {self.game_id}"
