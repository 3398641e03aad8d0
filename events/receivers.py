"""The event's lifecycle follows play: the first round paired puts it in progress, every division finalised
completes it."""

from django.dispatch import receiver

from . import services
from .signals import division_finalised, play_started


@receiver(play_started, dispatch_uid="events.start_with_play")
def start_with_play(sender, division, actor=None, **kwargs):
    services.play_started(division.event)


@receiver(division_finalised, dispatch_uid="events.complete_when_final")
def complete_when_final(sender, division, actor=None, **kwargs):
    services.complete_if_final(division.event)
