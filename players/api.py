from decimal import Decimal

from django.db.models import Q
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.decorators import action
from rest_framework.response import Response

from clubsite.kit.api import ApiView, Id, ModelSerializer
from clubsite.kit.errors import ServiceError
from money.core.references import RENEWAL
from money.serializers import PAYNOW_PAYLOAD_HELP, paynow_payload, simple_due

from . import access, joining, services, visibility
from .models import Club, MembershipOffer, Player, RenewalRequest, RenewalStatus


class ClubSerializer(ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "country", "meets"]


class PlayerSerializer(ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["member_number", "full_name", "display_name", "club", "country"]


class MeSerializer(ModelSerializer):
    """Your own player profile: what you may read and change."""

    # Writes go through players.services.update_profile, as the profile page's do.

    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all(), allow_null=True, required=False)
    id_last4 = serializers.CharField(required=False, allow_blank=True, max_length=64)
    guardian_opt_in = serializers.BooleanField(
        write_only=True, required=False, help_text="A parent or guardian agrees to list an under-18 in the directory"
    )

    class Meta:
        model = Player
        fields = ["member_number", *services.PROFILE_FIELDS, "guardian_opted_in_on"]
        read_only_fields = ["member_number", "guardian_opted_in_on"]
        # The service validates (e.g. the ID field) so the API and pages give the same messages.
        extra_kwargs = {"email": {"validators": []}}

    def update(self, instance, validated_data):
        return services.update_profile(self.context["request"].user, instance, **validated_data)


class RenewalSerializer(ModelSerializer):
    """A membership renewal and what is due on it: its payment reference, balance and PayNow payload."""

    association = serializers.CharField(source="association.name", read_only=True)
    # Plain text in the schema (several models have a "status"): requested, paid or cancelled.
    status = serializers.CharField(read_only=True, help_text=", ".join(RenewalStatus.values))
    amount_due = serializers.DecimalField(
        source="amount", max_digits=8, decimal_places=2, read_only=True, help_text="Charged for the renewal"
    )
    balance = serializers.SerializerMethodField()
    payment_reference = serializers.SerializerMethodField(help_text="What to quote when paying for this renewal")
    paynow_payload = serializers.SerializerMethodField(help_text=PAYNOW_PAYLOAD_HELP)
    expires_on = serializers.DateField(
        source="membership.expires_on", read_only=True, allow_null=True, help_text="Once paid: the new expiry"
    )
    is_join = serializers.BooleanField(read_only=True, help_text="A first membership (joining), not a renewal")
    waits_for_approval = serializers.BooleanField(
        read_only=True, help_text="A join that becomes a membership only once association staff approve it"
    )

    class Meta:
        model = RenewalRequest
        fields = [
            "id",
            "association",
            "type",
            "status",
            "amount_due",
            "amount_paid",
            "balance",
            "payment_reference",
            "paynow_payload",
            "requested_at",
            "paid_on",
            "expires_on",
            "is_join",
            "waits_for_approval",
        ]
        read_only_fields = fields

    def _due(self, renewal):
        payable = renewal.status == RenewalStatus.REQUESTED
        return simple_due(RENEWAL, renewal.pk, renewal.association_id, renewal.amount, renewal.amount_paid, payable)

    @extend_schema_field(serializers.DecimalField(max_digits=8, decimal_places=2))
    def get_balance(self, renewal) -> str:
        return str(self._due(renewal).balance.quantize(Decimal("0.01")))

    def get_payment_reference(self, renewal) -> str:
        return services.renewal_reference(renewal)

    def get_paynow_payload(self, renewal) -> str | None:
        return paynow_payload(self._due(renewal), self.context)


class MembershipOfferSerializer(ModelSerializer):
    """A membership type open to people joining online: its yearly fee and what joining it asks for."""

    association = serializers.CharField(source="association.name", read_only=True)
    needs_date_of_birth = serializers.BooleanField(source="asks_date_of_birth", read_only=True)

    class Meta:
        model = MembershipOffer
        fields = [
            "id",
            "association",
            "type",
            "fee",
            "description",
            "needs_date_of_birth",
            "min_age",
            "max_age",
            "proof_label",
        ]
        read_only_fields = fields


class JoinSerializer(serializers.Serializer):
    offer = Id(help_text="The membership type's id (GET /api/membership-types/)")
    full_name = serializers.CharField(max_length=200, help_text="Full name as on ID")
    family_name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    date_of_birth = serializers.DateField(required=False, allow_null=True, default=None)
    proof = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class MembershipOfferViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """The membership types that can be joined online, cheapest first (join with POST /api/my/renewals/join/)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = MembershipOfferSerializer

    def get_queryset(self):
        return joining.offers().order_by("fee", "type", "pk")


class MyRenewalViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """Your membership renewals (asked for on your account page), newest first, each with what is due on it."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RenewalSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return RenewalRequest.objects.none()
        return (
            RenewalRequest.objects.filter(player__user=self.request.user)
            .select_related("association", "membership")
            .order_by("-requested_at", "-pk")
        )

    @extend_schema(request=JoinSerializer, responses={201: RenewalSerializer})
    @action(detail=False, methods=["post"])
    def join(self, request):
        """Join the association as a membership type that can be joined online, with what that type asks for (a
        date of birth, a document's number): answers the request with the fee due and how to pay it, as the Join
        page does; asking again answers the open request. A member is refused: they renew instead."""
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        joined = joining.join(request.user, **data.validated_data)
        return Response(RenewalSerializer(joined, context={"request": request}).data, status=status.HTTP_201_CREATED)


class PlayerFilter(filters.FilterSet):
    q = filters.CharFilter(method="search", label="Name contains")
    club = filters.CharFilter(field_name="club__slug")

    class Meta:
        model = Player
        fields = ["q", "club", "country"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(full_name__icontains=value) | Q(display_name__icontains=value))


class ClubViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """The association's clubs: name, city, country and when and where each meets."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    lookup_field = "slug"


class PlayerViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """The member directory: members listed in it (an under-18 once a parent or guardian agreed), by name, with
    their club and member number; you also see yourself, and association staff see everyone. `?search=` finds
    a name."""

    queryset = Player.objects.select_related("club").order_by("full_name", "pk")
    serializer_class = PlayerSerializer
    lookup_field = "member_number"
    filterset_class = PlayerFilter

    def get_queryset(self):
        return visibility.visible_players(self.request.user, super().get_queryset())


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Your email address (or user name)")
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenView(ApiView, generics.GenericAPIView):
    """Your API token, for a correct email and password of an active account whose email address is confirmed
    (as the log-in page asks). Send it as `Authorization: Token <token>`. Failed attempts count toward the same
    lockout as the log-in page (429 when locked out); an account that may not log in is answered 403."""

    serializer_class = TokenRequestSerializer
    authentication_classes = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={
            200: TokenSerializer,
            429: OpenApiResponse(description="Locked out after too many failed attempts: try again later."),
        }
    )
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = access.password_login(request._request, data["username"], data["password"])
        except access.LoginLocked as error:
            return Response({"detail": error.message}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        except access.AccessRefused as error:
            return Response({"detail": error.message}, status=status.HTTP_403_FORBIDDEN)
        except ServiceError as error:
            return Response({"non_field_errors": [error.message]}, status=status.HTTP_400_BAD_REQUEST)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(ApiView, generics.RetrieveUpdateAPIView):
    """Your own player profile (created on first use from your account); PUT or PATCH changes it, with the checks
    the profile page makes."""

    serializer_class = MeSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return services.ensure_own_player(self.request.user)
