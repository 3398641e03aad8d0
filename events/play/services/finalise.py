"""Finalising a division locks its results; the ratings app hears of it through a signal."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from events.play.models import Division, Game, GameStatus, RoundStatus
from events.signals import division_finalised

from .common import PlayError, check_open, lock_division, require_director


@transaction.atomic
def finalise_division(actor, division: Division) -> Division:
    """Locks the division's results; when every division of a rated event is final, rating starts."""
    division = lock_division(division.pk)
    require_director(actor, division.event)
    check_open(division)
    rounds = list(division.rounds.all())
    if not rounds:
        raise PlayError("No rounds have been played in this division.")
    drafts = [r.number for r in rounds if r.status == RoundStatus.DRAFT]
    if drafts:
        raise PlayError(f"Round {drafts[0]} is still a draft: publish or delete it first.")
    open_games = Game.objects.filter(division=division).exclude(status=GameStatus.CONFIRMED)
    if open_games.exists():
        listing = ", ".join(
            f"round {g.round_number} board {g.board or '-'}" for g in open_games.order_by("round_number", "board")[:10]
        )
        raise PlayError(f"Some results are not confirmed yet: {listing}.")
    division.finalised_at = timezone.now()
    division.save(update_fields=["finalised_at"])
    division_finalised.send(sender=Division, division=division, actor=actor)
    return division
