"""The ratings app's answers to what events announce: rate a finished event, re-rate after a correction, work
the live ratings out again when a division's results change; seed a list with the ratings a members import gives."""

from django.dispatch import receiver

from events.signals import division_finalised, result_corrected, results_changed
from players.merging import records_merging
from players.signals import members_imported

from . import services
from .services.live import refresh_after_commit


@receiver(division_finalised, dispatch_uid="ratings.rate_when_finalised")
def rate_when_finalised(sender, division, actor=None, **kwargs):
    services.queue_rating_if_complete(division.event, actor=actor)


@receiver(result_corrected, dispatch_uid="ratings.rerate_after_correction")
def rerate_after_correction(sender, game, actor=None, **kwargs):
    services.result_corrected(game.division.event)


@receiver(results_changed, dispatch_uid="ratings.refresh_live_ratings")
def refresh_live_ratings(sender, division, **kwargs):
    refresh_after_commit(division)


@receiver(records_merging, dispatch_uid="ratings.follow_merged_records")
def follow_merged_records(sender, keep, drop, actor=None, **kwargs):
    from .services.merging import follow_merge

    follow_merge(keep, drop, actor)


@receiver(members_imported, dispatch_uid="ratings.seed_from_members_import")
def seed_from_members_import(sender, actor, rating_list, ratings, as_of, **kwargs):
    if rating_list is not None and ratings:
        services.seed_from_members_import(actor, rating_list, ratings, as_of)
