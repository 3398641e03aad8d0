"""Staff views of events and entries. Status changes go through events.services (admin actions)."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin, TabularInline
from clubsite.kit.errors import ServiceError
from events.forms import MAX_FEES, MAX_PRIZES
from events.models import (
    Answer,
    Category,
    DiscountCode,
    Entry,
    Event,
    Fee,
    GroupEntry,
    GuestEntry,
    Payment,
    PlayUpRequest,
    Prize,
    Question,
)
from events.services import discounts

from . import answers as rules
from . import services
from .services.questions import question_change_problems


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


class CategoryInline(TabularInline):
    model = Category
    extra = 0
    show_change_link = True
    fields = ["name", "position", "quota", "school_level", "min_age", "max_age", "min_rating", "max_rating"]


@admin.register(Event)
class EventAdmin(ModelAdmin):
    list_display = ["title", "starts_on", "status", "club", "owner"]
    list_filter = ["status", "kind", "club"]
    search_fields = ["title", "slug", "venue"]
    date_hierarchy = "starts_on"
    readonly_fields = [
        "status",
        "published_at",
        "registration_closed_at",
        "cancelled_at",
        "created_at",
        "updated_at",
        "tsh_files",
    ]
    filter_horizontal = ["directors"]
    inlines = [CategoryInline]
    actions = ["publish", "open_registration", "close_registration", "cancel", "copy"]

    @admin.display(description="tsh files")
    def tsh_files(self, obj):
        """The admin's door to the tsh import is the directors' page: one preview, one import, wherever begun."""
        if not obj.pk:
            return "Save the event first."
        return format_html(
            '<a href="{}">Import a tsh file</a> · <a href="{}">config.tsh</a> · <a href="{}">tsh archive</a>',
            reverse("events:play_import_tsh", args=[obj.slug]),
            reverse("events:play_download_config", args=[obj.slug]),
            reverse("events:play_download_archive", args=[obj.slug]),
        )

    def save_model(self, request, obj, form, change):
        services.render_texts(obj)  # the pages show the texts as rendered when saved
        super().save_model(request, obj, form, change)

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

    @admin.action(description="Copy as drafts a year on (categories, fees and prizes too)")
    def copy(self, request, queryset):
        _each(request, queryset, services.copy_event, "Copied as drafts")


class FeeInline(TabularInline):
    model = Fee
    extra = 0
    max_num = MAX_FEES  # as on the organiser's category form


class PrizeAdminForm(forms.ModelForm):
    """A prize row of the admin, described as the organiser's category form describes it (prize_description)."""

    class Meta:
        model = Prize
        fields = list(services.announcements.PRIZE_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["description"].required = False

    def clean(self):
        data = super().clean()
        try:
            data["description"] = services.prize_description(data.get("description"), data.get("amount"))
        except ValidationError as error:
            self.add_error("description", error)
        return data


class PrizeInline(TabularInline):
    model = Prize
    form = PrizeAdminForm
    extra = 0
    max_num = MAX_PRIZES


@admin.register(Category)
class CategoryAdmin(ModelAdmin):
    list_display = ["name", "event", "quota"]
    list_select_related = ["event"]
    search_fields = ["name", "event__title"]
    inlines = [FeeInline, PrizeInline]


class PaymentInline(TabularInline):
    model = Payment
    extra = 0
    can_delete = False
    readonly_fields = ["amount", "method", "reference", "note", "recorded_by", "recorded_at"]

    def has_add_permission(self, request, obj=None):
        return False


class AnswerForm(forms.ModelForm):
    """An answer corrected by staff, read by the one rule every door uses (events.answers.clean_answer)."""

    class Meta:
        model = Answer
        fields = ["value"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["value"].required = False  # whether an answer is needed is the question's to say

    def clean_value(self):
        try:
            return rules.clean_answer(self.instance.question.spec, self.cleaned_data.get("value"))
        except rules.AnswerError as refusal:
            raise ValidationError(f"{self.instance.question.label}: {refusal}") from None


class AnswerInline(TabularInline):
    """The entry's answers: given on the entry forms; staff may correct one (never add one to another event's
    question)."""

    model = Answer
    form = AnswerForm
    extra = 0
    fields = ["question", "value"]
    readonly_fields = ["question"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(ModelAdmin):
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
        "guest",
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
        "discount_code",
        "discount",
        "free_place",
    ]
    inlines = [PaymentInline, AnswerInline]
    actions = ["cancel", "reinstate", "give_free_place", "end_free_place"]

    def has_add_permission(self, request):
        return False  # entries are made by registering (services.register_entry)

    @admin.action(description="Cancel the selected entries")
    def cancel(self, request, queryset):
        _each(request, queryset, services.cancel_entry, "Cancelled")

    @admin.action(description="Reinstate the selected withdrawn entries (while their places are free)")
    def reinstate(self, request, queryset):
        _each(request, queryset, services.reinstate_withdrawal, "Reinstated")

    @admin.action(description="Give the selected entries free places (nothing to pay)")
    def give_free_place(self, request, queryset):
        _each(request, queryset, lambda user, e: discounts.give_free_place(user, e, "given by staff"), "Free places")

    @admin.action(description="Charge the selected free places their fee again")
    def end_free_place(self, request, queryset):
        _each(request, queryset, discounts.end_free_place, "Charged again")


class DiscountCodeAdminForm(forms.ModelForm):
    """A discount code saved through the organiser's one door (services.discounts.save_discount_code), its refusals
    shown on the form."""

    class Meta:
        model = DiscountCode
        fields = ["event", *discounts.CODE_FIELDS]

    def clean(self):
        data = super().clean()
        event = self.instance.event if self.instance.pk else data.get("event")
        if event is None or self.errors:
            return data
        values = {k: data.get(k) for k in discounts.CODE_FIELDS}
        values["category"] = values["category"].pk if values["category"] else None
        try:
            self.saved = discounts.save_discount_code(
                self.user, event, values, self.instance if self.instance.pk else None
            )
        except ServiceError as error:
            self.add_error(error.field if error.field in self.fields else None, error.message)
        return data


@admin.register(DiscountCode)
class DiscountCodeAdmin(ModelAdmin):
    form = DiscountCodeAdminForm
    list_display = ["code", "event", "category", "kind", "value", "max_uses", "expires_on"]
    list_select_related = ["event", "category"]
    search_fields = ["code", "event__title"]
    raw_id_fields = ["event", "category"]

    def get_readonly_fields(self, request, obj=None):
        return ["event"] if obj else []

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.user = request.user
        return form

    def save_model(self, request, obj, form, change):
        obj.pk = form.saved.pk  # saved by the service in the form's clean

    def delete_model(self, request, obj):
        _each(request, [obj], discounts.delete_discount_code, "Removed")

    def delete_queryset(self, request, queryset):
        _each(request, queryset, discounts.delete_discount_code, "Removed")


class QuestionAdminForm(forms.ModelForm):
    choices = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=rules.MAX_CHOICES * (rules.MAX_CHOICE + 2),
        help_text="For one or several choices: one a line.",
    )

    class Meta:
        model = Question
        fields = ["event", "category", "kind", "label", "help_text", "required", "choices", "position"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["choices"] = "\n".join(self.instance.choices or [])

    def clean(self):
        data = super().clean()
        event = data.get("event")
        if event is None:
            return data
        data["choices"] = rules.choice_list(data.get("choices") or "")
        category = data.get("category")
        stored = Question.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        problems = question_change_problems(
            event,
            stored,
            data.get("kind") or "",
            data.get("label") or "",
            data.get("help_text") or "",
            data["choices"],
            category.pk if category else None,
        )
        for field, message in problems:
            self.add_error(field if field in self.fields else None, message)
        return data


@admin.register(Question)
class QuestionAdmin(ModelAdmin):
    """The organisers' questions (organisers write them on the event's Questions page); changed here by the same
    checks, so no answer is lost."""

    form = QuestionAdminForm
    list_display = ["label", "event", "category", "kind", "required", "position"]
    list_select_related = ["event", "category"]
    search_fields = ["label", "event__title"]
    raw_id_fields = ["event", "category"]

    def delete_model(self, request, obj):
        try:
            services.delete_question(request.user, obj)
        except ServiceError as error:
            messages.error(request, error.message)

    def delete_queryset(self, request, queryset):
        _each(request, queryset, services.delete_question, "Removed")


@admin.register(GroupEntry)
class GroupEntryAdmin(ModelAdmin):
    list_display = ["contact_name", "school", "event", "created_at"]
    list_select_related = ["event"]
    search_fields = ["contact_name", "school", "email"]
    raw_id_fields = ["submitted_by"]


@admin.register(GuestEntry)
class GuestEntryAdmin(ReadOnlyAdmin):
    """Entries made without an account, as their guests gave them; they are confirmed, changed and withdrawn from the
    emailed link (events.services.guests), and the entry itself is on the entries' page."""

    list_display = ["full_name", "contact_name", "email", "event", "created_at", "confirmed_at"]
    list_select_related = ["event"]
    list_filter = ["event"]
    search_fields = ["full_name", "contact_name", "email"]


@admin.register(PlayUpRequest)
class PlayUpRequestAdmin(ReadOnlyAdmin):
    list_display = ["entry", "division_name", "created_at"]
    search_fields = ["entry__player__full_name", "entry__event__title"]
    list_select_related = ["entry__player", "entry__event"]
