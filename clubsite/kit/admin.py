from django import forms
from django.conf import settings
from django.contrib import admin
from django.db import models
from django.forms.formsets import TOTAL_FORM_COUNT
from django.forms.models import BaseInlineFormSet

from .models import Counter

admin.site.site_header = f"{settings.SITE_NAME} administration"
admin.site.site_title = f"{settings.SITE_NAME} admin"


class JSONFormField(forms.JSONField):
    """JSON typed into the admin: text nested too deeply for the parser (6,000 brackets) is refused as invalid JSON,
    as Django's own field refuses other bad JSON; it raised RecursionError, a server error."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except RecursionError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid", params={"value": "…"}) from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return forms.fields.InvalidJSONInput(data)


class ModelAdmin(admin.ModelAdmin):
    """Every admin of the site: JSON fields are read by JSONFormField."""

    formfield_overrides = {models.JSONField: {"form_class": JSONFormField}}


# The most rows an inline shows or takes, unless it says otherwise: more than any record has (thirty years of a
# member's memberships); rendered, they cost the admin's page well under a second.
MAX_INLINE_ROWS = 30


class BoundedInlineFormSet(BaseInlineFormSet):
    """Rows sent beyond the bound are refused without building any new row: Django built the first `absolute_max`
    of them and checked each against the database's constraints (three queries a row), so one crafted count cost
    a category's page well over a second. The refusal ("Please submit at most ...") is Django's own."""

    def total_form_count(self):
        if self.is_bound and self.management_form.cleaned_data[TOTAL_FORM_COUNT] > self.absolute_max:
            return self.initial_form_count()
        return super().total_form_count()


class TabularInline(admin.TabularInline):
    """Every inline of the site's admin: it builds at most MAX_INLINE_ROWS rows, whatever row count a request sends,
    and refuses more (Django's default built up to 2,000 rows for a crafted count, ten seconds a request)."""

    max_num = MAX_INLINE_ROWS  # an inline whose rows have a bound of their own (a category's prizes) says so
    formset = BoundedInlineFormSet

    def get_formset(self, request, obj=None, **kwargs):
        kwargs.setdefault("absolute_max", self.max_num or MAX_INLINE_ROWS)
        return super().get_formset(request, obj, **kwargs)


class ReadOnlyAdmin(ModelAdmin):
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
