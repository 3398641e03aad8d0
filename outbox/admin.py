from django.contrib import admin, messages

from clubsite.kit.admin import ReadOnlyAdmin

from . import services
from .models import Message, MessageStatus


class RetryFilter(admin.SimpleListFilter):
    title = "delivery"
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("failed", "Failed (all)"), ("given_up", "Failed, waiting for a resend"), ("waiting", "Not sent yet")]

    def queryset(self, request, queryset):
        if self.value() == "failed":
            return queryset.filter(status=MessageStatus.FAILED)
        if self.value() == "given_up":
            return queryset.filter(status=MessageStatus.FAILED, next_attempt_at__isnull=True)
        if self.value() == "waiting":
            return queryset.exclude(status=MessageStatus.SENT)
        return queryset


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    """Every email the site sent or will send; failed ones show their error and can be sent again."""

    list_display = ["created_at", "to", "subject", "status", "attempts", "short_error", "next_attempt_at", "sent_at"]
    list_filter = [RetryFilter, "status"]
    search_fields = ["to", "subject"]
    date_hierarchy = "created_at"
    actions = ["resend"]
    fields = [
        "to", "from_email", "subject", "status", "attempts", "last_error",
        "created_at", "next_attempt_at", "sent_at", "body", "html",
    ]  # fmt: skip

    @admin.display(description="last error")
    def short_error(self, obj):
        return (obj.last_error[:80] + "…") if len(obj.last_error) > 80 else obj.last_error

    @admin.action(description="Send the selected failed messages again")
    def resend(self, request, queryset):
        count = services.resend(queryset.values_list("pk", flat=True))
        skipped = queryset.count() - count
        self.message_user(request, f"{count} message(s) will be sent again.", messages.SUCCESS)
        if skipped:
            self.message_user(request, f"{skipped} selected message(s) had not failed and were left alone.")
