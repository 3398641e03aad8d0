"""Game records (GCG files) attached to games: who may attach one, checking and storing it.

A player of the game or a director of its event may attach or replace a record, and remove it.
The file is read by events.play.core.gcg before it is stored; a file it refuses is refused here with the
line at fault.
"""

from __future__ import annotations

from django.db import transaction

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import player_of
from events.permissions import can_direct_event
from events.play.core import gcg
from events.play.models import Game, GameKind, GcgRecord, RoundStatus

from .common import PlayError


class GameRecordRefused(PlayError):
    """A file that is not a readable game record."""


def can_attach_record(user, game: Game) -> bool:
    """A director of the game's event, or one of its two players (signed in with their own account)."""
    if not (user and user.is_authenticated):
        return False
    if can_direct_event(user, game.division.event):
        return True
    player = player_of(user)
    return player is not None and player.pk in (game.player_a_id, game.player_b_id)


def _check(user, game: Game) -> None:
    if not can_attach_record(user, game):
        raise NotAllowed("Only the players of this game and the event's directors can attach its record.")
    if game.kind != GameKind.NORMAL or game.player_b_id is None:
        raise PlayError("Only a game that was played can have a game record.")
    if game.round.status == RoundStatus.DRAFT:
        raise PlayError("This round is not published yet.")


def attach_record(user, game: Game, data: bytes | str, filename: str = "") -> GcgRecord:
    """Checks the file (refused with the line at fault) and stores it as the game's record."""
    _check(user, game)
    try:
        text = gcg.decode(data) if isinstance(data, bytes) else data
        gcg.parse(text)
    except gcg.GcgError as error:
        raise GameRecordRefused(f"This is not a game record we can read: {error}.", field="file") from None
    with transaction.atomic():
        record, _ = GcgRecord.objects.update_or_create(
            game=game, defaults={"text": text, "filename": filename[:200], "uploaded_by": user}
        )
    return record


def remove_record(user, game: Game) -> None:
    _check(user, game)
    GcgRecord.objects.filter(game=game).delete()


def read_record(record: GcgRecord | None) -> gcg.GameRecord | None:
    """The stored record read again (it was checked when stored; None if it no longer reads)."""
    if record is None:
        return None
    try:
        return gcg.parse(record.text)
    except gcg.GcgError:
        return None
