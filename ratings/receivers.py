"""The ratings app's answers to what events announce: rate a finished event, re-rate after a correction."""

from django.dispatch import receiver

from events.signals import division_finalised, result_corrected

from . import services


@receiver(division_finalised, dispatch_uid="ratings.rate_when_finalised")
def rate_when_finalised(sender, division, actor=None, **kwargs):
    services.queue_rating_if_complete(division.event, actor=actor)


@receiver(result_corrected, dispatch_uid="ratings.rerate_after_correction")
def rerate_after_correction(sender, game, actor=None, **kwargs):
    services.result_corrected(game.division.event)
