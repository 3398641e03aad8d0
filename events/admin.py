"""Staff views of events and entries. Status changes go through events.services (admin actions)."""

from django.contrib import admin, messages

from clubsite.admin import ReadOnlyAdmin
from clubsite.errors import ServiceError

from . import services
from .models import (
    Category,
    CheckIn,
    Division,
    DivisionPlayer,
    Entry,
    Event,
    Fee,
    Game,
    GameChange,
    GcgRecord,
    GroupEntry,
    LuckyDraw,
    Payment,
    PlayUpRequest,
    Prize,
    PrizeDecision,
    Round,
)
from .play.services import results as result_services


def _each(request, objects, call, done: str):
    count = 0
    for obj in objects:
        try:
            call(request.user, obj)
            count += 1
        except ServiceError as error:
            messages.error(request, f"{obj}: {error.message}")
    if count:
        messages.success(request, f"{done}: {count}.")


class CategoryInline(admin.TabularInline):
    model = Category
    extra = 0
    show_change_link = True
    fields = ["name", "position", "quota", "school_level", "min_age", "max_age", "min_rating", "max_rating"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["title", "starts_on", "status", "club", "owner"]
    list_filter = ["status", "kind", "club"]
    search_fields = ["title", "slug", "venue"]
    date_hierarchy = "starts_on"
    readonly_fields = ["status", "published_at", "registration_closed_at", "cancelled_at", "created_at", "updated_at"]
    filter_horizontal = ["directors"]
    inlines = [CategoryInline]
    actions = ["publish", "open_registration", "close_registration", "cancel"]

    @admin.action(description="Publish")
    def publish(self, request, queryset):
        _each(request, queryset, services.publish_event, "Published")

    @admin.action(description="Open registration now")
    def open_registration(self, request, queryset):
        _each(request, queryset, services.open_registration, "Opened")

    @admin.action(description="Close registration now")
    def close_registration(self, request, queryset):
        _each(request, queryset, services.close_registration, "Closed")

    @admin.action(description="Cancel (every entrant is told)")
    def cancel(self, request, queryset):
        _each(request, queryset, services.cancel_event, "Cancelled")


class FeeInline(admin.TabularInline):
    model = Fee
    extra = 0


class PrizeInline(admin.TabularInline):
    model = Prize
    extra = 0


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "quota"]
    list_select_related = ["event"]
    search_fields = ["name", "event__title"]
    inlines = [FeeInline, PrizeInline]


class PaymentInline(admin.TabularInline):
    model = Payment
    extra = 0
    can_delete = False
    readonly_fields = ["amount", "method", "reference", "note", "recorded_by", "recorded_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "category", "status", "accepted_at", "amount_due", "amount_paid"]
    list_filter = ["status", "event"]
    list_select_related = ["player", "event", "category"]
    search_fields = ["player__full_name", "player__member_number", "event__title"]
    raw_id_fields = ["division"]
    readonly_fields = [
        "event",
        "category",
        "player",
        "group",
        "entered_by",
        "fee",
        "amount_due",
        "status",
        "accepted_at",
        "amount_paid",
        "payment_due_at",
        "offered_at",
        "offer_expires_at",
        "offer_reminded_at",
        "confirmed_at",
        "ended_at",
        "rules_accepted_at",
    ]
    inlines = [PaymentInline]
    actions = ["cancel"]

    def has_add_permission(self, request):
        return False  # entries are made by registering (services.register_entry)

    @admin.action(description="Cancel the selected entries")
    def cancel(self, request, queryset):
        _each(request, queryset, services.cancel_entry, "Cancelled")


@admin.register(GroupEntry)
class GroupEntryAdmin(admin.ModelAdmin):
    list_display = ["contact_name", "school", "event", "created_at"]
    list_select_related = ["event"]
    search_fields = ["contact_name", "school", "email"]
    raw_id_fields = ["submitted_by"]


# --- tournament play: looked at here, changed on the director pages (events.play.services) -------


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "rating_min", "rating_max", "takes_unrated", "finalised_at"]
    list_filter = ["takes_unrated", "assignments_published", ("finalised_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "event__title", "event__slug"]
    list_select_related = ["event"]
    readonly_fields = ["finalised_at"]
    raw_id_fields = ["event", "category"]


@admin.register(DivisionPlayer)
class DivisionPlayerAdmin(ReadOnlyAdmin):
    list_display = ["number", "player", "division", "rating", "placed_by_director", "assigned_reason"]
    list_filter = ["placed_by_director"]
    search_fields = ["player__full_name", "=player__member_number", "division__event__title"]
    list_select_related = ["player", "division__event"]


@admin.register(PlayUpRequest)
class PlayUpRequestAdmin(ReadOnlyAdmin):
    list_display = ["entry", "division_name", "created_at"]
    search_fields = ["entry__player__full_name", "entry__event__title"]
    list_select_related = ["entry__player", "entry__event"]


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyAdmin):
    list_display = ["entry", "checked_in_at", "checked_in_by", "by_self"]
    search_fields = ["entry__player__full_name", "entry__event__title"]
    list_select_related = ["entry__player", "entry__event", "checked_in_by"]


@admin.register(PrizeDecision)
class PrizeDecisionAdmin(ReadOnlyAdmin):
    """A director's decisions on tied prizes, made on the prizes page; kept, never edited."""

    list_display = ["division", "prize", "seat", "reason", "decided_by", "decided_at"]
    search_fields = ["division__event__title", "seat__player__full_name", "reason"]
    list_select_related = ["division__event", "seat__player", "decided_by"]


@admin.register(LuckyDraw)
class LuckyDrawAdmin(ReadOnlyAdmin):
    """Draws are made through the lucky draw page; kept here to be checked, never edited."""

    list_display = ["division", "seed", "winners_wanted", "drawn_by", "drawn_at"]
    search_fields = ["division__event__title", "division__name"]
    list_select_related = ["division__event", "drawn_by"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["division", "number", "status", "pairing_system", "pairing_seed", "published_at"]
    list_filter = ["status", "pairing_system"]
    search_fields = ["division__event__title", "division__name"]
    list_select_related = ["division__event"]


class ChangeText:
    """A result change as people read it: who by name, and the result before and after."""

    @admin.display(description="by")
    def who(self, change):
        return result_services.person_name(change.changed_by) or "—"

    @admin.display(description="before")
    def before_text(self, change):
        return result_services.describe_snapshot(change.before, result_services.change_names(change))

    @admin.display(description="after")
    def after_text(self, change):
        return result_services.describe_snapshot(change.after, result_services.change_names(change))


class GameChangeInline(ChangeText, admin.TabularInline):
    model = GameChange
    extra = 0
    can_delete = False
    fields = ["changed_at", "who", "action", "reason", "before_text", "after_text"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["division", "round_number", "board", "player_a", "score_a", "score_b", "player_b", "kind", "status"]
    list_filter = ["status", "kind"]
    search_fields = ["player_a__full_name", "player_b__full_name", "division__event__title"]
    list_select_related = ["division__event", "player_a", "player_b"]
    inlines = [GameChangeInline]


@admin.register(GameChange)
class GameChangeAdmin(ChangeText, ReadOnlyAdmin):
    list_display = ["game", "action", "who", "changed_at", "reason", "before_text", "after_text"]
    list_filter = ["action"]
    search_fields = ["reason", "game__player_a__full_name", "game__player_b__full_name"]
    list_select_related = ["game__player_a", "game__player_b", "changed_by__player"]


@admin.register(GcgRecord)
class GcgRecordAdmin(ReadOnlyAdmin):
    """Attached on the game's page by its players or directors (checked there); kept here to be looked up."""

    list_display = ["game", "filename", "uploaded_by", "uploaded_at"]
    search_fields = ["game__player_a__full_name", "game__player_b__full_name", "game__division__event__title"]
    list_select_related = ["game", "uploaded_by"]
