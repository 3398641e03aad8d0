"""Staff views of tournament play: looked at here, changed on the director pages (events.play.services)."""

from django.contrib import admin

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin, TabularInline

from .models import CheckIn, Division, DivisionPlayer, Game, GameChange, GcgRecord, LuckyDraw, PrizeDecision, Round
from .services import results as result_services


@admin.register(Division)
class DivisionAdmin(ModelAdmin):
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


class GameChangeInline(ChangeText, TabularInline):
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
