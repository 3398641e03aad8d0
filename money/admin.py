"""Money in the admin: read only, because every change to money goes through money.services (which keeps its
log); payment settings are edited here."""

from django.contrib import admin

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin, TabularInline

from .models import Invoice, MoneyLog, Payment, PaymentSettings, Refund, Statement


@admin.register(PaymentSettings)
class PaymentSettingsAdmin(ModelAdmin):
    list_display = ["association", "receipt_prefix", "paynow_proxy_type", "paynow_proxy", "gst_registration"]
    search_fields = ["association__name", "receipt_prefix"]


class RefundInline(TabularInline):
    model = Refund
    extra = 0
    can_delete = False
    fields = ["number", "amount", "reason", "refunded_at", "refunded_by"]
    readonly_fields = fields


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["number", "received_on", "description", "method", "amount", "applied", "refunded", "payer_name"]
    list_filter = ["method", "association"]
    search_fields = ["number", "reference", "payer_name", "payer_email", "external_id", "payer_reference"]
    date_hierarchy = "received_on"
    inlines = [RefundInline]


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin):
    list_display = ["number", "refunded_at", "payment", "amount", "reason", "refunded_by"]
    search_fields = ["number", "payment__number", "reason"]


@admin.register(MoneyLog)
class MoneyLogAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor", "action", "payment", "amount", "why"]
    list_filter = ["action"]
    search_fields = ["payment__number", "why"]


@admin.register(Statement)
class StatementAdmin(ReadOnlyAdmin):
    list_display = ["filename", "association", "uploaded_at", "uploaded_by", "confirmed_at"]
    search_fields = ["filename"]


@admin.register(Invoice)
class InvoiceAdmin(ReadOnlyAdmin):
    list_display = ["number", "document", "issued_on", "billing_name", "po_number", "amount_due", "status"]
    list_filter = ["document", "status"]
    search_fields = ["number", "reference", "billing_name", "po_number"]
    date_hierarchy = "issued_on"
