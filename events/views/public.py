"""Public pages: the event list, an event's announcement, calendar feeds."""

from django.db.models import Count, Max, Min
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from clubsite.kit.paging import BoundedPaginator, max_page
from clubsite.kit.queries import in_order
from clubsite.kit.roles import is_organiser, player_of
from players import visibility

from .. import calendar, services
from ..forms import (
    EventFilterForm,
)
from ..models import (
    ACTIVE_ENTRY_STATUSES,
    Entry,
    EntryStatus,
    Fee,
    PaymentMethod,
)
from ..permissions import can_manage_event
from .common import ENTRIES_PAGE_SIZE, PAGE_SIZE, _categories, _event_for, _facts_to_give, _public_events


def event_list(request):
    form = EventFilterForm(request.GET or None)
    today = timezone.localdate()
    events = _public_events()
    past = False
    if form.is_valid():
        data = form.cleaned_data
        past = data.get("when") == "past"
        if data.get("club"):
            events = events.filter(club=data["club"])
        if data.get("kind"):
            events = events.filter(kind=data["kind"])
        if data.get("month"):
            month = data["month"]
            events = events.filter(starts_on__year=month.year, starts_on__month=month.month)
    if past:
        events = events.filter(ends_on__lt=today).order_by("-starts_on", "title")
    else:
        events = events.filter(ends_on__gte=today).order_by("starts_on", "title")
    page = BoundedPaginator(events.values_list("pk", flat=True), PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = in_order(page.object_list, events)
    # Places, categories and fees of the events shown only (a query each): counting every event's entries first is
    # slow on a long history.
    shown = [e.pk for e in services.with_shown_status(page.object_list)]
    fees = {
        row["category__event_id"]: row
        for row in Fee.objects.filter(category__event__in=shown)
        .order_by()
        .values("category__event_id")
        .annotate(low=Min("amount"), high=Max("amount"))
    }
    for event in page.object_list:
        event.fee_low, event.fee_high = (
            (fees[event.pk]["low"], fees[event.pk]["high"]) if event.pk in fees else (None, None)
        )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "events/event_list.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "past": past,
            "can_create": is_organiser(request.user),
        },
    )


def event_detail(request, slug: str):
    event = _event_for(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    current = services.places(event)
    for category in categories:
        category.places_left = current.left_in(event, category)
        category.places_taken = current.taken.get(category.pk, 0)
    manager = can_manage_event(request.user, event)
    # The entrants a page at a time (in category order, first come first), so a large event's page
    # costs what a small one's does: one query reads the page and counts them all (a window count), one
    # its players by id (joined to all the event's entries before the page is cut, they cost a read of
    # every player).
    entrants, entrants_page = [], None
    if event.entrants_public or manager:
        from django.db.models import Prefetch, Window

        from players.models import Player

        ordered = (
            Entry.objects.filter(event=event, status__in=[EntryStatus.CONFIRMED, EntryStatus.PENDING_PAYMENT])
            .select_related("category")
            .only("player", "category__name", "school", "name_listed_on")  # what the list shows
            .prefetch_related(Prefetch("player", queryset=Player.objects.only(*visibility.ENTRANT_FIELDS)))
            .order_by("category__position", "category_id", "accepted_at", "pk")
            .annotate(entrants_total=Window(Count("pk")))
        )
        paginator = BoundedPaginator(ordered, ENTRIES_PAGE_SIZE)
        number = request.GET.get("page", "1")
        number = min(max(1, int(number)), max_page(ENTRIES_PAGE_SIZE)) if number.isdigit() else 1
        entrants = list(ordered[(number - 1) * ENTRIES_PAGE_SIZE : number * ENTRIES_PAGE_SIZE])
        if entrants or number == 1:
            paginator.count = entrants[0].entrants_total if entrants else 0
            entrants_page = paginator.page(number)
            entrants_page.object_list = entrants
        else:  # past the last page: show the last one
            entrants_page = paginator.get_page(number)
            entrants = list(entrants_page)
        ratings = services.player_ratings(event, [e.player_id for e in entrants])
        first = entrants_page.start_index()
        for number, entry in enumerate(entrants, start=first):  # ready to print: no filters per row
            entry.number = number
            entry.shown_name = visibility.entrant_name(
                request.user,
                entry.player,
                name_listed=entry.name_listed_on is not None,
                school=entry.school,
                sees_names=manager,
            )
            entry.rating = ratings.get(entry.player_id)
            entry.rating_shown = entry.rating or "unrated"
    waiting = Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED).count()
    player = player_of(request.user)
    my_entry = None
    if player:
        my_entry = Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).first()
    refusal = services.registration_refusal(event)
    # A player none of whose categories they may enter is told so here, not after "Enter myself"; and when their
    # record lacks what a category asks (a school level), asked for it.
    eligibility = services.categories_for(event, player) if player and not my_entry and not refusal else []
    no_category = bool(eligibility) and all(why for _, why in eligibility)
    places_left = current.left_in_event(event, categories)
    shown, shown_label = services.shown_status(event, places_left)
    context = {
        "event": event,
        "categories": categories,
        "places_left": places_left,
        "shown_status": shown,
        "shown_label": shown_label,
        "entrants": entrants,
        "entrants_page": entrants_page,
        "waiting": waiting,
        "my_entry": my_entry,
        "registration_refusal": refusal,
        "no_category": no_category,
        "can_manage": manager,
        "has_rating_report": event.rated_on.exists(),
        "for_students": services.is_for_students(event),
        "payment_methods": [label for value, label in _method_labels() if value in (event.payment_methods or [])],
        **_facts_to_give(event, player, eligibility),
    }
    return render(request, "events/event_detail.html", context)


def _method_labels():
    return PaymentMethod.choices


def event_ics(request, slug: str):
    event = _event_for(request, slug)
    response = HttpResponse(calendar.to_ical([event], request), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.ics"'
    return response


def calendar_feed(request):
    today = timezone.localdate()
    events = _public_events().filter(ends_on__gte=today - timezone.timedelta(days=90)).order_by("starts_on")[:500]
    return HttpResponse(calendar.to_ical(list(events), request), content_type="text/calendar; charset=utf-8")
