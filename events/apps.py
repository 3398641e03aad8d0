from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"

    def ready(self):
        from money.payables import register

        from . import receivers  # noqa: F401  (the event's lifecycle follows play)
        from .payables import ENTRY, GROUP

        register(ENTRY)
        register(GROUP)

    def load_demo(self, stdout):
        """Demo announcements and entries (after the members' demo)."""
        from . import demo

        demo.load(stdout)

    def home_page_context(self, request):
        from django.utils import timezone

        from .models import Event, EventStatus
        from .services import with_shown_status

        upcoming = (
            Event.objects.exclude(status__in=[EventStatus.DRAFT, EventStatus.CANCELLED, EventStatus.COMPLETED])
            .filter(ends_on__gte=timezone.localdate())
            .select_related("club")
            .order_by("starts_on", "title")[:5]
        )
        return {"home_sections": ["events/_home_upcoming.html"], "upcoming_events": with_shown_status(list(upcoming))}

    def player_page_context(self, player):
        from clubsite.kit.queries import in_order

        from .models import Entry, EntryStatus, EventStatus

        latest = (
            Entry.objects.filter(player=player, status__in=[EntryStatus.CONFIRMED, EntryStatus.PENDING_PAYMENT])
            .exclude(event__status__in=[EventStatus.DRAFT, EventStatus.CANCELLED])
            .order_by("-event__starts_on", "-pk")
            .values_list("pk", flat=True)[:20]
        )
        return {
            "player_sections": ["events/_player_entries.html", "events/history/_player_links.html"],
            "player_event_entries": in_order(latest, Entry.objects.select_related("event", "category")),
        }

    def account_page_context(self, request, player):
        from django.utils import timezone

        from .models import ACTIVE_ENTRY_STATUSES
        from .permissions import directed_events
        from .services import own_entries

        # Current entries: events not yet over, the soonest first (past ones are on My entries).
        entries = (
            own_entries(request.user)
            .filter(status__in=ACTIVE_ENTRY_STATUSES, event__ends_on__gte=timezone.localdate())
            .select_related("event", "category", "player")
            .order_by("event__starts_on", "event_id", "accepted_at", "pk")[:10]
        )
        # Events this person organises or directs (directors need the link to My events too).
        managed = directed_events(request.user).count()
        return {
            "account_sections": ["events/_account_entries.html"],
            "my_event_entries": list(entries),
            "my_managed_events": managed,
        }
