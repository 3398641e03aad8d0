"""What the play pages share: finding the event, division and round a person may see or direct."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse

from clubsite.kit.conditional import private_copy
from clubsite.kit.html import escape
from events.models import Event, EventStatus
from events.permissions import can_direct_event
from events.play.models import Division, Round, RoundStatus
from events.play.services import polls


def _event(request, slug: str) -> Event:
    """A public event, or a draft for its directors; `event.directing` says whether the user directs it.

    A GET takes it from the polls' cache (services.polls: at most a second old, with its directors, as the page's
    fingerprint saw it), once a request; a write reads it afresh, as it may change it. A director's copy is
    marked private: it shows drafts, which no fingerprint covers."""
    reading = request.method in ("GET", "HEAD")
    held = getattr(request, "_play_event", None) if reading else None
    if held is not None and held.slug == slug and hasattr(held, "directing"):
        return held
    if held is not None and held.slug == slug:
        event = held  # taken for the page's fingerprint (`read_event`), not yet checked
    elif reading:
        state = polls.event_state(slug)
        if state is None:
            raise Http404("No such event")
        event = state.event
    else:
        event = get_object_or_404(Event.objects.select_related("rating_list"), slug=slug)
    event.directing = can_direct_event(request.user, event)
    if event.status == EventStatus.DRAFT and not event.directing:
        raise Http404("No such event")
    if event.directing:
        private_copy(request)  # a director's copy shows drafts, which no polled fingerprint covers
    if reading:
        request._play_event = event
    return event


def read_event(request, state: polls.EventState) -> Event:
    """The event of a GET's fingerprint, kept for `_event` to check and use."""
    event = state.event
    if request.method in ("GET", "HEAD"):
        request._play_event = event
    return event


def polled_page_version(request, slug: str, pk: int, **kwargs):
    """What a division's page players poll shows, as a fingerprint (clubsite.kit.conditional): the rounds, results
    and seats of the division, the event's settings, the rating list behind the live ratings, and the page's
    query; from the cache (services.polls), so a poll reads nothing else. None for a draft or a division not of
    the event (the page says why). ("My game" has its own, the player's.)"""
    event = polls.event_state(slug)
    if event is None or not event.public:
        return None
    read_event(request, event)  # the page, if drawn, takes it from here
    version = polls.division_version(event, pk)
    if version is None:
        return None
    return version, event.fingerprint, request.GET.urlencode()


def _directed_event(request, slug: str) -> Event:
    event = _event(request, slug)
    if not event.directing:
        raise PermissionDenied("Only the event's directors can do this.")
    return event


def _division(event: Event, pk: int) -> Division:
    division = get_object_or_404(Division, pk=pk, event=event)
    division.event = event
    return division


def _round(division: Division, number: int, *, directing: bool) -> Round:
    rnd = get_object_or_404(Round, division=division, number=number)
    if rnd.status == RoundStatus.DRAFT and not directing:
        raise Http404("This round is not published yet.")
    rnd.division = division
    return rnd


def _rounds(division: Division, *, directing: bool) -> list[Round]:
    rounds = division.rounds.order_by("number")
    return list(rounds if directing else rounds.exclude(status=RoundStatus.DRAFT))


def _through(request, rounds: list[Round]) -> int | None:
    value = request.GET.get("through", "")
    if value.isdigit() and any(r.number == int(value) for r in rounds):
        return int(value)
    return None


def url_with_number(name: str, *args):
    """A function giving the URL `name` with `args` and one last number, reversed once: a page linking each
    of hundreds of rows (a game, a seat) reverses the same pattern hundreds of times otherwise. Escaped."""
    marker = 987654321  # a number no row has
    head, tail = (escape(part) for part in reverse(name, args=[*args, marker]).split(str(marker), 1))
    return lambda number: f"{head}{number}{tail}"
