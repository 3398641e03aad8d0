"""Staff views of ratings. Ratings, changes and runs are read-only here: they are written only by
ratings.services (rating runs, imports); admin actions call those services."""

from django.contrib import admin, messages
from django.utils import timezone

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin
from clubsite.kit.errors import ServiceError

from . import services
from .models import (
    PlayerRating,
    RatedEvent,
    RatingChange,
    RatingImport,
    RatingImportLine,
    RatingList,
    RatingRun,
    RatingSnapshot,
    SnapshotEntry,
)


@admin.register(RatingList)
class RatingListAdmin(ModelAdmin):
    list_display = ["name", "association", "lexicon", "system", "provisional_games", "active_months", "position"]
    list_filter = ["association", "system"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["snapshot_now"]

    def get_readonly_fields(self, request, obj=None):
        # The system of a list with rated events cannot change under its history.
        if obj is not None and obj.rated_events.exists():
            return ["system"]
        return []

    @admin.action(description="File a snapshot of the selected lists (today)")
    def snapshot_now(self, request, queryset):
        for rating_list in queryset:
            services.take_snapshot(rating_list, timezone.localdate())
        messages.success(request, f"Filed {queryset.count()} snapshot(s).")


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "rating_list", "rating", "games", "peak", "last_played", "seed_rating"]
    list_filter = ["rating_list"]
    search_fields = ["player__full_name", "player__display_name", "=player__member_number"]
    list_select_related = ["player", "rating_list"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["event", "division", "player", "pre", "post", "games", "actual", "expected", "rating_list"]
    list_filter = ["rating_list"]
    search_fields = ["player__full_name", "division__event__title"]
    list_select_related = ["division__event", "player", "rating_list"]

    @admin.display(ordering="division__event__title")
    def event(self, change):
        return change.division.event


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    list_display = ["pk", "rating_list", "event", "from_date", "status", "progress", "created_at", "finished_at"]
    list_filter = ["status", "rating_list"]
    list_select_related = ["rating_list", "event"]
    actions = ["run_again"]

    @admin.action(description="Re-rate the list again from the selected runs' dates")
    def run_again(self, request, queryset):
        for run in queryset.select_related("rating_list"):
            try:
                services.queue_rerate(request.user, run.rating_list, run.from_date)
            except ServiceError as error:
                messages.error(request, error.message)
                return
        messages.success(request, "Queued.")


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["rating_list", "taken_on", "created_at"]
    list_filter = ["rating_list"]


@admin.register(RatingImport)
class RatingImportAdmin(ReadOnlyAdmin):
    list_display = ["pk", "rating_list", "filename", "as_of", "status", "uploaded_by", "created_at"]
    list_filter = ["status", "rating_list"]


@admin.register(RatedEvent)
class RatedEventAdmin(ReadOnlyAdmin):
    list_display = ["event", "rating_list", "starts_on", "rated_at"]
    list_filter = ["rating_list"]
    search_fields = ["event__title", "event__slug"]
    list_select_related = ["event", "rating_list"]


@admin.register(SnapshotEntry)
class SnapshotEntryAdmin(ReadOnlyAdmin):
    list_display = ["snapshot", "rank", "player", "rating", "games", "last_played"]
    list_filter = ["snapshot__rating_list"]
    search_fields = ["player__full_name", "=player__member_number"]
    list_select_related = ["snapshot__rating_list", "player"]


@admin.register(RatingImportLine)
class RatingImportLineAdmin(ReadOnlyAdmin):
    list_display = ["rating_import", "line_number", "name", "rating", "games"]
    search_fields = ["name"]
    list_select_related = ["rating_import"]
