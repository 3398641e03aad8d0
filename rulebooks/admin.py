"""Staff's admin of rule books. A version is published (added) here or on the staff page, through the one service,
and is never changed or deleted after: events and entries name it."""

from django import forms
from django.contrib import admin

from clubsite.kit.admin import ModelAdmin

from . import services
from .models import RuleBook, RuleBookVersion


@admin.register(RuleBook)
class RuleBookAdmin(ModelAdmin):
    list_display = ["title", "club", "based_on", "position"]
    list_filter = ["club"]
    search_fields = ["title", "slug", "summary"]
    prepopulated_fields = {"slug": ["title"]}

    def save_model(self, request, obj, form, change):
        services.save_book(request.user, obj)


class PublishVersionAdminForm(forms.ModelForm):
    """The service's checks run when the form is cleaned, so a refusal is shown beside its field."""

    class Meta:
        model = RuleBookVersion
        fields = ["book", "effective_on", "text", "changes"]

    def clean(self):
        data = super().clean()
        book = data.get("book")
        if book is not None and not self.errors:
            for field, message in services.version_problems(
                book, data.get("text") or "", data.get("changes") or "", data.get("effective_on")
            ):
                self.add_error(field if field in self.fields else None, message)
        return data


@admin.register(RuleBookVersion)
class RuleBookVersionAdmin(ModelAdmin):
    form = PublishVersionAdminForm
    list_display = ["book", "number", "effective_on", "published_at", "published_by"]
    list_filter = ["book"]
    list_select_related = ["book", "published_by"]
    search_fields = ["book__title", "changes"]
    readonly_fields = ["number", "published_at", "published_by"]

    def has_change_permission(self, request, obj=None):
        return False  # a published version stays as it was

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        published = services.publish_version(
            request.user, obj.book, text=obj.text, changes=obj.changes, effective_on=obj.effective_on
        )
        obj.pk, obj.number = published.pk, published.number
