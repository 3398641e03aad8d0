"""Staff appoint club officers here (through the same service as every door); the nights, attendances and pages
change only through the club's own pages, so staff read them here."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin
from clubsite.kit.errors import ServiceError

from . import services
from .models import Attendance, ClubNight, ClubPage, NightException, NightSeries, Officer


@admin.register(Officer)
class OfficerAdmin(ModelAdmin):
    list_display = ["club", "player", "role", "since"]
    list_filter = ["role"]
    search_fields = ["club__name", "player__full_name"]
    raw_id_fields = ["player"]

    def save_model(self, request, obj, form, change):
        """A change is the old office given up and the new one taken, together."""
        try:
            with transaction.atomic():
                if change:
                    services.remove_officer(request.user, Officer.objects.get(pk=obj.pk))
                officer = services.appoint_officer(request.user, obj.club, obj.player, obj.role)
        except ServiceError as error:
            raise PermissionDenied(error.message) from None
        obj.pk = officer.pk

    def delete_model(self, request, obj):
        try:
            services.remove_officer(request.user, obj)
        except ServiceError as error:
            messages.error(request, error.message)


@admin.register(ClubPage)
class ClubPageAdmin(ReadOnlyAdmin):
    list_display = ["club", "venue", "contact_email"]
    search_fields = ["club__name", "venue"]


@admin.register(NightSeries)
class NightSeriesAdmin(ReadOnlyAdmin):
    list_display = ["club", "title", "frequency", "first_on", "last_on"]
    search_fields = ["club__name", "title"]


@admin.register(ClubNight)
class ClubNightAdmin(ReadOnlyAdmin):
    list_display = ["club", "on", "title", "status"]
    list_filter = ["status"]
    search_fields = ["club__name", "title"]
    date_hierarchy = "on"


@admin.register(Attendance)
class AttendanceAdmin(ReadOnlyAdmin):
    list_display = ["night", "player", "status", "is_guest", "fee", "paid"]
    list_filter = ["status", "is_guest"]
    search_fields = ["player__full_name", "night__club__name"]
    list_select_related = ["night", "night__club", "player"]


@admin.register(NightException)
class NightExceptionAdmin(ReadOnlyAdmin):
    list_display = ["series", "on", "reason"]
    search_fields = ["series__club__name", "reason"]


from . import play_admin  # noqa: E402, F401  (games, tables, ratings: read only)
