from django.db.models import Q
from django_filters import rest_framework as filters
from rest_framework import generics, permissions, serializers, viewsets

from clubsite.api import ApiView, ModelSerializer

from . import services
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

    class Meta:
        model = Player
        fields = [
            "member_number",
            "full_name",
            "display_name",
            "date_of_birth",
            "school",
            "school_level",
            "club",
            "country",
            "email",
            "phone",
            "id_last4",
            "listed_in_directory",
        ]
        read_only_fields = ["member_number"]
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
    queryset = Player.objects.filter(listed_in_directory=True).select_related("club").order_by("full_name", "pk")
    serializer_class = PlayerSerializer
    lookup_field = "member_number"
    filterset_class = PlayerFilter


class MeView(ApiView, generics.RetrieveUpdateAPIView):
    """Your own player profile (created on first use from your account)."""

    serializer_class = MeSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return services.ensure_own_player(self.request.user)
