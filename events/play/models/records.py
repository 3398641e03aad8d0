"""Game records: a GCG file attached to a game (read by events.play.core.gcg)."""

from django.conf import settings
from django.db import models

__all__ = ["GcgRecord"]


class GcgRecord(models.Model):
    """The move-by-move record of one game, as uploaded (checked by events.play.core.gcg before it is stored)."""

    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="gcg_record")
    text = models.TextField()
    filename = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "events_gcgrecord"  # the table it had before play became an app

    def __str__(self):
        return f"Game record of game {self.game_id}"
