"""What the venue's polls are answered from: an event's and a division's fingerprints, kept in the cache for a
second.

Every phone asks for "my game" and its division's standings every 20 seconds, and every wall asks for its
division's version every 5: at a 900-player venue, about a hundred polls a second, nearly all asking "has anything
changed?". Each would otherwise read the event, the division and the division's fingerprint (wall.wall_version)
from the database. Here they are read at most once a second for everyone, whatever the number of phones: a poll
costs a cache read. A change saved through the models forgets the fingerprints it touches at once (and again
when it commits, in case a poll cached the old one meanwhile: `forget_*`, connected in the app's `ready`); one
made in bulk, past the models' signals, shows within `POLL_SECONDS`.

The event's row is kept too (with its rating list and directors), and the play pages read a GET's event from
here: it is what every one of them reads first, and a second-old copy of it is what the fingerprint that
answered the poll was made from. Everything else a page draws is read from the database. Kept apart from the
pages: no person's data, only fingerprints and the event, whose directors decide whether a poll may be
answered at all (a draft's never are).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch

from events.models import Event, EventStatus
from events.play.models import Division

from .wall import wall_version

# How long a fingerprint is trusted: the most a change waits before polls see it.
POLL_SECONDS = 1


@dataclass(frozen=True)
class EventState:
    pk: int
    public: bool  # not a draft: its polls may be answered from here
    fingerprint: tuple  # its settings (updated_at), its rating list's version, its owner and directors
    rated: bool
    rating_list_id: int | None
    event: Event  # the row, its rating list and its directors' ids read with it: a private copy each cache read


def event_state(slug: str) -> EventState | None:
    """The event's state as polls see it (None: no such event), read from the database at most once a second."""
    key = f"play:poll:event:{slug}"
    found = cache.get(key)
    if found is None:
        # The directors' ids only: who directs is all a page asks of them, and no account is kept here.
        directors = Prefetch("directors", queryset=get_user_model().objects.only("pk"))
        event = Event.objects.select_related("rating_list").prefetch_related(directors).filter(slug=slug).first()
        found = _state(event) if event else False
        cache.set(key, found, POLL_SECONDS)
    return found or None


def _state(event: Event) -> EventState:
    listed = event.rating_list.version if event.rating_list else None
    # Its directors see more than anyone (drafts): one appointed must not be answered from the copy they held.
    directors = sorted(d.pk for d in event.directors.all())
    return EventState(
        pk=event.pk,
        public=event.status != EventStatus.DRAFT,
        fingerprint=(event.updated_at.isoformat(), listed, event.owner_id, directors),
        rated=event.rated,
        rating_list_id=event.rating_list_id,
        event=event,
    )


def division_version(event: EventState, division_pk: int) -> str | None:
    """The division's `wall_version` (None: the event has no such division), at most a second old."""
    key = f"play:poll:division:{division_pk}"
    found = cache.get(key)
    if found is None:
        division = Division.objects.filter(pk=division_pk).only("pk", "event_id", "finalised_at").first()
        found = (division.event_id, wall_version(division)) if division else (None, None)
        cache.set(key, found, POLL_SECONDS)
    owner, version = found
    return version if owner == event.pk else None


def _forget(key: str) -> None:
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def forget_division(sender, instance, **kwargs) -> None:
    """A round, game or seat of a division (or the division) saved or deleted."""
    division_id = instance.pk if isinstance(instance, Division) else getattr(instance, "division_id", None)
    if division_id is not None:
        _forget(f"play:poll:division:{division_id}")


def forget_event(sender, instance, **kwargs) -> None:
    """The event saved or deleted, or its directors changed."""
    if isinstance(instance, Event) and instance.slug:
        _forget(f"play:poll:event:{instance.slug}")
