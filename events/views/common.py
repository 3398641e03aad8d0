"""What the event pages share: finding the event a person may see or manage."""

from django.core.exceptions import PermissionDenied
from django.db.models import F, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode

from .. import services
from ..models import (
    Category,
    Event,
    EventStatus,
    Fee,
    Prize,
)
from ..permissions import can_manage_event

PAGE_SIZE = 20
ENTRIES_PAGE_SIZE = 100


def _public_events():
    return Event.objects.exclude(status=EventStatus.DRAFT).select_related("club", "association")


def _event_for(request, slug: str) -> Event:
    """A published event, or a draft for those who manage it."""
    event = get_object_or_404(
        Event.objects.select_related("club", "association", "owner", "rating_list", "rule_book_version__book"),
        slug=slug,
    )
    if event.status == EventStatus.DRAFT and not can_manage_event(request.user, event):
        raise Http404("No such event")
    return event


def _managed_event(request, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("club", "association", "owner"), slug=slug)
    if not can_manage_event(request.user, event):
        raise PermissionDenied("Only the event's organiser can do this.")
    return event


def _categories(event: Event) -> list[Category]:
    return list(
        event.categories.prefetch_related(
            Prefetch("fees", queryset=Fee.objects.order_by("position", "amount", "pk")),
            Prefetch("prizes", queryset=Prize.objects.order_by("position", F("rank_from").asc(nulls_last=True), "pk")),
        )
    )


def _facts_to_give(event: Event, player, eligibility) -> dict:
    """What the event and entry pages say when the player's record lacks a fact a category's rule needs (a school
    level, a date of birth): which facts, for which categories, and the profile page that asks for them and comes
    back to the entry once saved."""
    facts, categories = services.facts_needed(eligibility, player) if player else ([], [])
    if not facts:
        return {"facts_needed": None}
    query = urlencode([("next", reverse("events:enter", args=[event.slug])), *(("need", fact) for fact in facts)])
    return {
        "facts_needed": {
            "facts": [services.FACTS[fact] for fact in facts],
            "categories": categories,
            "url": f"{reverse('players:profile')}?{query}",
        }
    }
