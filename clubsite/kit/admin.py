from django.conf import settings
from django.contrib import admin

from .models import Counter

admin.site.site_header = f"{settings.SITE_NAME} administration"
admin.site.site_title = f"{settings.SITE_NAME} admin"


# The most rows an inline shows or takes: more than any record has (a member's memberships, a category's prizes).
MAX_INLINE_ROWS = 100


class TabularInline(admin.TabularInline):
    """Every inline of the site's admin: it builds at most MAX_INLINE_ROWS rows, whatever row count a request sends,
    and refuses more (Django's default built up to 2,000 rows for a crafted count, ten seconds a request)."""

    max_num = MAX_INLINE_ROWS

    def get_formset(self, request, obj=None, **kwargs):
        kwargs.setdefault("absolute_max", MAX_INLINE_ROWS)
        return super().get_formset(request, obj, **kwargs)


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
