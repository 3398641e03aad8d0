from django.db.models import Q
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.response import Response

from clubsite.api import ApiView, ModelSerializer
from clubsite.errors import ServiceError

from . import services, visibility
from .models import Club, Player


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
    """One's own profile; writes go through players.services.update_profile."""

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


class PlayerFilter(filters.FilterSet):
    q = filters.CharFilter(method="search", label="Name contains")
    club = filters.CharFilter(field_name="club__slug")

    class Meta:
        model = Player
        fields = ["q", "club", "country"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(full_name__icontains=value) | Q(display_name__icontains=value))


class ClubViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    lookup_field = "slug"


class PlayerViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
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
    """Your API token, for a correct email and password. Failed attempts count toward the same
    lockout as the log-in page (429 when locked out)."""

    serializer_class = TokenRequestSerializer
    authentication_classes = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TokenSerializer})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = services.authenticate_login(request._request, data["username"], data["password"])
        except services.LoginLocked as error:
            return Response({"detail": error.message}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        except ServiceError as error:
            return Response({"non_field_errors": [error.message]}, status=status.HTTP_400_BAD_REQUEST)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(ApiView, generics.RetrieveUpdateAPIView):
    """Your own player profile (created on first use from your account)."""

    serializer_class = MeSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return services.ensure_own_player(self.request.user)
