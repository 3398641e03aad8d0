from django.conf import settings
from django.contrib import admin

from .models import Counter

admin.site.site_header = f"{settings.SITE_NAME} administration"
admin.site.site_title = f"{settings.SITE_NAME} admin"


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records that change only through the services (results, ratings history, audit trails)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Counter)
class CounterAdmin(ReadOnlyAdmin):
    list_display = ["name", "value"]
    search_fields = ["name"]
