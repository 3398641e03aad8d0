from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.shortcuts import redirect
from django.urls import reverse

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin, TabularInline
from clubsite.kit.errors import ServiceError

from . import joining, lookup, services
from .matching import Person
from .models import (
    Association,
    Club,
    Membership,
    MembershipOffer,
    PaymentMethod,
    Player,
    PlayerClaim,
    PlayerMerge,
    RenewalRequest,
    RenewalStatus,
    User,
)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["email", "username", "first_name", "is_staff", "is_active", "date_joined"]
    search_fields = ["email", "username", "first_name", "last_name"]


class MembershipOfferInline(TabularInline):
    """The membership types people may join, with their fees and proof (the Join page offers those online)."""

    model = MembershipOffer
    extra = 0


@admin.register(Association)
class AssociationAdmin(ModelAdmin):
    inlines = [MembershipOfferInline]
    list_display = ["name", "short_name", "country", "joins_need_approval"]
    search_fields = ["name", "short_name"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Club)
class ClubAdmin(ModelAdmin):
    list_display = ["name", "association", "city", "country"]
    list_filter = ["association", "country"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}


class MembershipInline(TabularInline):
    model = Membership
    extra = 0


class CurrentMemberFilter(admin.SimpleListFilter):
    title = "membership"
    parameter_name = "membership"

    def lookups(self, request, model_admin):
        return [("current", "Current"), ("expiring", "Expiring within 30 days"), ("none", "Not current")]

    def queryset(self, request, queryset):
        current = Membership.objects.current().values("player_id")
        if self.value() == "current":
            return queryset.filter(pk__in=current)
        if self.value() == "expiring":
            return queryset.filter(pk__in=Membership.objects.expiring_within(30).values("player_id"))
        if self.value() == "none":
            return queryset.exclude(pk__in=current)
        return queryset


class PlayerAddForm(forms.ModelForm):
    """The admin's "add player": a person the matching rule (players.matching) finds on record already is not added
    again unless staff say it is a different person."""

    different_person = forms.BooleanField(
        label="A different person",
        required=False,
        help_text="Tick to add a new record although the records named above look like this person.",
    )

    # No Meta: the admin builds the form for Player with all its fields on this base.

    def clean(self):
        data = super().clean()
        if self.instance.pk or data.get("different_person") or not (data.get("full_name") or "").strip():
            return data
        person = Person(
            full_name=data["full_name"],
            family_name=data.get("family_name") or "",
            date_of_birth=data.get("date_of_birth"),
            email=data.get("email") or "",
        )
        found = lookup.find_person(person)
        if found.is_sure:
            raise forms.ValidationError(
                f"This person is on record already ({lookup.described(found.record)}: the same {found.why}). "
                "Open that record instead, or tick “A different person” to add a new one."
            )
        if found.is_likely:
            raise forms.ValidationError(
                f"This may be a member already: {lookup.likely_text(found)}. Open that record instead, or tick "
                "“A different person” to add a new one."
            )
        return data


@admin.register(Player)
class PlayerAdmin(ModelAdmin):
    list_display = ["member_number", "full_name", "display_name", "club", "country", "email", "user"]
    list_filter = [CurrentMemberFilter, "club", "country", "school_level"]
    search_fields = ["full_name", "display_name", "email", "=member_number"]
    list_select_related = ["club", "user"]
    raw_id_fields = ["user"]
    readonly_fields = ["member_number", "created_at"]
    inlines = [MembershipInline]

    actions = ["merge_two"]

    @admin.action(description="Merge two records of one person")
    def merge_two(self, request, queryset):
        numbers = list(queryset.order_by("member_number").values_list("member_number", flat=True)[:3])
        if len(numbers) != 2:
            self.message_user(request, "Select exactly two records of one person to merge.", messages.ERROR)
            return None
        return redirect(f"{reverse('players:merge')}?a={numbers[0]}&b={numbers[1]}")

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = PlayerAddForm  # adding: warned of the person's records already there
        return super().get_form(request, obj, **kwargs)

    def save_model(self, request, obj, form, change):
        if not change:
            # New records take their member number from the same allocator as everything else.
            obj.member_number = services.allocate_member_number()
        super().save_model(request, obj, form, change)


@admin.register(Membership)
class MembershipAdmin(ModelAdmin):
    list_display = ["player", "type", "starts_on", "expires_on", "fee", "paid_on", "reminder_sent_on"]
    list_filter = ["type", "association", "expires_on", "paid_on"]
    search_fields = ["player__full_name", "=player__member_number", "payment_reference"]
    list_select_related = ["player"]
    raw_id_fields = ["player"]
    date_hierarchy = "expires_on"


@admin.register(RenewalRequest)
class RenewalRequestAdmin(ReadOnlyAdmin):
    """Members ask to renew from their account; staff record payments here or on the renewals page
    (/members/renewals/, with method, reference and date). Both go through the same service."""

    list_display = [
        "player",
        "type",
        "is_join",
        "amount",
        "status",
        "requested_at",
        "paid_on",
        "payment_method",
        "recorded_by",
        "approved_at",
    ]
    list_filter = ["status", "is_join", "type", "association"]
    search_fields = ["player__full_name", "=player__member_number", "payment_reference"]
    list_select_related = ["player", "recorded_by"]
    actions = ["paid_in_person", "paid_by_bank_transfer", "approve_joins", "cancel"]

    def _paid(self, request, queryset, method):
        for renewal in queryset.filter(status=RenewalStatus.REQUESTED):
            try:
                membership = services.record_renewal_payment(request.user, renewal, method=method)
            except ServiceError as error:
                self.message_user(request, f"{renewal.player}: {error.message}", messages.ERROR)
                continue
            if membership is None:
                self.message_user(request, f"{renewal.player}: paid; the join waits for approval.")
            else:
                self.message_user(request, f"{renewal.player}: member until {membership.expires_on or 'life'}.")

    @admin.action(description="Approve selected joins")
    def approve_joins(self, request, queryset):
        for renewal in queryset:
            try:
                joined = joining.approve_join(request.user, renewal)
            except ServiceError as error:
                self.message_user(request, f"{renewal.player}: {error.message}", messages.ERROR)
            else:
                done = "a member now" if joined.membership_id else "a member once paid in full"
                self.message_user(request, f"{renewal.player}: approved, {done}.")

    @admin.action(description="Record payment received today in person")
    def paid_in_person(self, request, queryset):
        self._paid(request, queryset, PaymentMethod.IN_PERSON)

    @admin.action(description="Record payment received today by bank transfer")
    def paid_by_bank_transfer(self, request, queryset):
        self._paid(request, queryset, PaymentMethod.BANK_TRANSFER)

    @admin.action(description="Cancel selected renewal requests")
    def cancel(self, request, queryset):
        for renewal in queryset:
            try:
                services.cancel_renewal(request.user, renewal)
            except ServiceError as error:
                self.message_user(request, f"{renewal.player}: {error.message}", messages.ERROR)


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin):
    """The log of merged records: made only by the merge (players.merging), through the players' action."""

    list_display = ["old_member_number", "old_full_name", "kept", "merged_by", "merged_at", "reason"]
    search_fields = ["=old_member_number", "old_full_name", "=kept__member_number", "kept__full_name"]
    list_select_related = ["kept", "merged_by"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ModelAdmin):
    # Staff decide from the list: who asks (by the address they log in with), for which record, and why.
    list_display = ["user__email", "player", "player__member_number", "status", "message", "created_at"]
    list_display_links = ["user__email"]
    list_filter = ["status"]
    search_fields = ["user__email", "player__full_name", "=player__member_number"]
    list_select_related = ["user", "player", "decided_by"]
    actions = ["approve", "reject"]

    def _decide(self, request, queryset, approve):
        done = 0
        for claim in queryset:
            try:
                services.decide_claim(request.user, claim, approve)
            except ServiceError as error:
                self.message_user(request, f"{claim}: {error.message}", messages.ERROR)
            else:
                done += 1
        if done:
            verb = "Approved" if approve else "Rejected"
            self.message_user(request, f"{verb} {done} claim{'s' if done != 1 else ''}; the members are told by email.")

    @admin.action(description="Approve selected claims")
    def approve(self, request, queryset):
        self._decide(request, queryset, True)

    @admin.action(description="Reject selected claims")
    def reject(self, request, queryset):
        self._decide(request, queryset, False)
