"""The money API: what is due for a payment reference (with its PayNow payload), payments with their
receipts, and refunds with their credit notes. Each is readable by the people it belongs to (the entrant,
whoever entered them, the teacher who submitted a group, the member renewing) and by the event's organiser
and association staff; refunds go through money.services.refund like every other way of giving money back."""

from django import forms
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from clubsite.kit.api import MAX_ID, ApiView
from clubsite.kit.errors import NotAllowed

from . import services
from .core.references import make_reference, parse_reference
from .models import Method, Payment, PaymentSettings, Refund
from .payables import KINDS, resolve
from .serializers import (
    REFERENCE_PATTERN,
    DueSerializer,
    MoneyPaymentSerializer,
    RefundRequestSerializer,
    RefundSerializer,
    due_data,
)

NO_SUCH_REFERENCE = "No amount due has this reference: check it against the one you were given (like E000123K)."


class ReferenceField(forms.CharField):
    """A payment reference typed in any case, with spaces or hyphens; cleaned to its canonical form."""

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return value
        parsed = parse_reference(value)
        if parsed is None:
            raise forms.ValidationError("This is not a payment reference: check it (they look like E000123K).")
        return make_reference(*parsed)


class ReferenceFilter(filters.CharFilter):
    field_class = ReferenceField


METHOD_HELP = ", ".join(Method.values)


class PaymentFilter(filters.FilterSet):
    event = filters.CharFilter(field_name="event__slug", help_text="The event's slug")
    reference = ReferenceFilter(field_name="reference", help_text="The payment reference, e.g. E000123K")
    method = filters.ChoiceFilter(choices=Method.choices, help_text=METHOD_HELP)

    class Meta:
        model = Payment
        fields = ["event", "reference", "method"]


class RefundFilter(filters.FilterSet):
    event = filters.CharFilter(field_name="payment__event__slug", help_text="The event's slug")
    reference = ReferenceFilter(field_name="payment__reference", help_text="The payment reference, e.g. E000123K")
    payment = filters.CharFilter(field_name="payment__number", help_text="The receipt number of the payment")

    class Meta:
        model = Refund
        fields = ["event", "reference", "payment"]


class DueViewSet(ApiView, viewsets.ViewSet):
    """What is due for a payment reference: the total, what is paid, the balance, line by line (for a group
    entry, student by student), and the PayNow payload that pays the balance."""

    permission_classes = [permissions.IsAuthenticated]
    lookup_field = "reference"

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "reference",
                str,
                OpenApiParameter.PATH,
                description="The payment reference (any case; spaces and hyphens are ignored), e.g. E000123K",
                pattern=REFERENCE_PATTERN,
            )
        ],
        responses={200: DueSerializer},
    )
    def retrieve(self, request, reference=None):
        found = resolve(reference)
        if found is None or found[1] > MAX_ID:
            raise NotFound(NO_SUCH_REFERENCE)
        kind, target_id = found
        due = kind.due(target_id)
        if due is None:
            raise NotFound(NO_SUCH_REFERENCE)
        if not kind.may_see(request.user, target_id):  # as if unknown, as the page answers: not to be guessed
            raise NotFound(NO_SUCH_REFERENCE)
        settings = PaymentSettings.objects.select_related("association").filter(association_id=due.association_id)
        return Response(DueSerializer(due_data(kind, due, settings.first())).data)


class PaymentViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Payments, each with its receipt number and its refunds: your own; an organiser's events'; all for staff."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MoneyPaymentSerializer
    filterset_class = PaymentFilter
    lookup_field = "number"
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Payment.objects.none()
        return (
            services.visible_payments(self.request.user)
            .select_related("event")
            .prefetch_related("refunds")
            .order_by("-recorded_at", "-pk")
        )

    def get_object(self):
        payment = get_object_or_404(
            Payment.objects.select_related("event").prefetch_related("refunds"), number=self.kwargs["number"]
        )
        services.assert_may_view(self.request.user, payment)
        return payment

    @extend_schema(request=RefundRequestSerializer, responses={201: RefundSerializer})
    @action(detail=True, methods=["post"], url_path="refunds")
    def refund(self, request, number=None):
        """Gives back part or all of the payment, with a credit note (the organiser or staff)."""
        payment = get_object_or_404(Payment, number=number)
        kind = KINDS.get(payment.kind)
        if kind is None or not kind.may_manage(request.user, payment.target_id):
            raise NotAllowed("Only the organiser or association staff can refund this payment.")
        data = RefundRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        credit = services.refund(request.user, payment, **data.validated_data)
        return Response(RefundSerializer(credit).data, status=status.HTTP_201_CREATED)


class RefundViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Refunds, each with its credit note number, for the payments you may see."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RefundSerializer
    filterset_class = RefundFilter
    lookup_field = "number"
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Refund.objects.none()
        return (
            Refund.objects.filter(payment__in=services.visible_payments(self.request.user))
            .select_related("payment")
            .order_by("-refunded_at", "-pk")
        )

    def get_object(self):
        refund = get_object_or_404(Refund.objects.select_related("payment"), number=self.kwargs["number"])
        services.assert_may_view(self.request.user, refund.payment)
        return refund


def register(router) -> None:
    """Adds this app's API routes to the site's router."""
    router.register("money/dues", DueViewSet, basename="money-due")
    router.register("money/payments", PaymentViewSet, basename="money-payment")
    router.register("money/refunds", RefundViewSet, basename="money-refund")
