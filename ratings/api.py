"""REST API of ratings: lists, ratings, a player's history, an event's report, rating runs.

Reads are public (as the pages are); queuing a run goes through ratings.services, which checks
who may do it.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from clubsite.kit.api import ApiView, ModelSerializer, int_parameter, query_int
from events.models import Event
from events.permissions import can_direct_event
from players.visibility import visible_player_or_404, with_profile_visible

from . import services
from .models import PlayerRating, RatingChange, RatingList, RatingRun


class RatingListSerializer(ModelSerializer):
    association = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = RatingList
        fields = ["slug", "name", "association", "lexicon", "system", "provisional_games", "active_months"]


@extend_schema_field({"type": "integer", "nullable": True})
class PublicMemberNumber(serializers.Field):
    """The player's member number, or null when the player's profile is not visible to the reader
    (rows come annotated by players.visibility.with_profile_visible)."""

    context_free = True

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, allow_null=True, **kwargs)

    def to_representation(self, row):
        return row.player.member_number if getattr(row, "profile_visible", False) else None


class PlayerRatingSerializer(ModelSerializer):
    rank = serializers.IntegerField(read_only=True)
    member_number = PublicMemberNumber(help_text="null when the member is not listed in the directory")
    name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.SlugRelatedField(source="player.club", slug_field="slug", read_only=True, allow_null=True)
    country = serializers.CharField(source="player.country", read_only=True)
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = PlayerRating
        fields = [
            "rank",
            "member_number",
            "name",
            "club",
            "country",
            "rating",
            "games",
            "peak",
            "last_played",
            "provisional",
            "deviation",
        ]

    def get_provisional(self, obj) -> bool:
        return obj.is_provisional(self.context["rating_list"].provisional_games)


class RatingChangeSerializer(ModelSerializer):
    event = serializers.SlugField(source="division.event.slug", read_only=True)
    event_title = serializers.CharField(source="division.event.title", read_only=True)
    division = serializers.CharField(source="division.name", read_only=True)
    rating_list = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    member_number = PublicMemberNumber(help_text="null when the member is not listed in the directory")
    name = serializers.CharField(source="player.name", read_only=True)
    change = serializers.IntegerField(read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "rating_list",
            "event",
            "event_title",
            "event_date",
            "division",
            "member_number",
            "name",
            "pre",
            "post",
            "change",
            "is_newcomer",
            "career_games",
            "games",
            "expected",
            "actual",
            "k",
            "bonus",
            "feedback",
            "performance",
        ]


class RatingRunSerializer(ModelSerializer):
    rating_list = serializers.SlugRelatedField(slug_field="slug", queryset=RatingList.objects.all(), required=False)
    event = serializers.SlugRelatedField(
        slug_field="slug", queryset=Event.objects.all(), required=False, allow_null=True
    )
    from_date = serializers.DateField(required=False)
    # Plain text in the schema: "status" enums of other apps would collide in name.
    status = serializers.CharField(read_only=True, help_text="queued, running, done or failed")

    class Meta:
        model = RatingRun
        fields = [
            "id",
            "rating_list",
            "event",
            "from_date",
            "reason",
            "status",
            "progress",
            "created_at",
            "started_at",
            "finished_at",
            "events_rated",
            "players_rated",
            "error",
        ]
        read_only_fields = [
            "reason",
            "status",
            "progress",
            "created_at",
            "started_at",
            "finished_at",
            "events_rated",
            "players_rated",
            "error",
        ]

    def validate(self, attrs):
        if attrs.get("event") is None and not (attrs.get("rating_list") and attrs.get("from_date")):
            raise serializers.ValidationError("Give an event to rate, or a rating list and a date to re-rate from.")
        return attrs

    def create(self, validated_data):
        actor = self.context["request"].user
        if validated_data.get("event") is not None:
            return services.queue_rating_run(validated_data["event"], actor=actor)
        return services.queue_rerate(actor, validated_data["rating_list"], validated_data["from_date"])


RATING_FILTERS = [
    OpenApiParameter("list", OpenApiTypes.STR, description="Rating list slug (default: the first list)"),
    OpenApiParameter("q", OpenApiTypes.STR, description="Name contains"),
    OpenApiParameter("club", OpenApiTypes.STR, description="Club slug"),
    OpenApiParameter("country", OpenApiTypes.STR, description="Two-letter country code"),
    OpenApiParameter("all", OpenApiTypes.BOOL, description="Include inactive players (default: active only)"),
    int_parameter("min_rating"),
    int_parameter("max_rating"),
    int_parameter("member_number", "One player's rating"),
]


class RatingListViewSet(ApiView, viewsets.ReadOnlyModelViewSet):
    """The association's rating lists: each list's rating system and lexicon. `?system=` and `?lexicon=` filter."""

    queryset = RatingList.objects.select_related("association")
    serializer_class = RatingListSerializer
    lookup_field = "slug"
    filterset_fields = ["system", "lexicon"]

    @extend_schema(responses=RatingChangeSerializer(many=True))
    @action(detail=True, url_path=r"history/(?P<member_number>\d+)", pagination_class=None)
    def history(self, request, slug=None, member_number=None):
        """A player's rated events on this list, oldest first."""
        rating_list = self.get_object()
        player = visible_player_or_404(request.user, member_number=member_number)
        rows = with_profile_visible(
            services.player_history(rating_list, player.pk).select_related("rating_list", "player"), request.user
        )
        return Response(RatingChangeSerializer(rows, many=True).data)


class RatingViewSet(ApiView, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Ratings on a list, best first, with ranks (active players unless all=true)."""

    serializer_class = PlayerRatingSerializer
    queryset = PlayerRating.objects.none()

    def _rating_list(self) -> RatingList:
        if not hasattr(self, "_list"):
            slug = self.request.query_params.get("list")
            self._list = get_object_or_404(RatingList, slug=slug) if slug else RatingList.objects.first()
        return self._list

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return PlayerRating.objects.none()
        rating_list = self._rating_list()
        if rating_list is None:
            return PlayerRating.objects.none()
        params = self.request.query_params
        rows = services.rated_players(
            rating_list,
            q=params.get("q", "").strip(),
            club=params.get("club", ""),
            country=params.get("country", ""),
            include_inactive=params.get("all", "").lower() in ("1", "true", "yes", "on"),
        )
        rows = with_profile_visible(rows, self.request.user)
        for name, lookup in (("min_rating", "rating__gte"), ("max_rating", "rating__lte")):
            value = query_int(self.request, name)
            if value is not None:
                rows = rows.filter(**{lookup: value})
        number = query_int(self.request, "member_number")
        if number is not None:
            # Only a member number the reader may see finds anyone: no looking up hidden members by number.
            rows = rows.filter(profile_visible=True, player__member_number=number)
        return rows

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "rating_list": self._rating_list()}

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(services.RatingPages(queryset))
        if page is None or self._rating_list() is None:
            return page
        include_inactive = self.request.query_params.get("all", "").lower() in ("1", "true", "yes", "on")
        return services.rank_players(self._rating_list(), page, include_inactive=include_inactive)

    @extend_schema(parameters=RATING_FILTERS)
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)


class EventRatingReportSerializer(serializers.Serializer):
    event = serializers.SlugField()
    title = serializers.CharField()
    rows = RatingChangeSerializer(many=True)


class EventRatingReportViewSet(ApiView, viewsets.GenericViewSet):
    """An event's rating report: every rated player's rating before and after."""

    queryset = Event.objects.all()
    lookup_field = "slug"
    serializer_class = EventRatingReportSerializer

    def retrieve(self, request, slug=None):
        event = get_object_or_404(Event, slug=slug)
        if not event.is_public and not can_direct_event(request.user, event):
            return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
        rows = with_profile_visible(services.event_report(event), request.user)
        return Response(EventRatingReportSerializer({"event": event.slug, "title": event.title, "rows": rows}).data)


class RatingRunViewSet(ApiView, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Rating runs: each rating of an event or re-rating of a list, with its status, progress and what it rated.
    `?status=` filters."""

    queryset = RatingRun.objects.select_related("rating_list", "event")
    serializer_class = RatingRunSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_fields = ["status"]

    @extend_schema(responses={202: RatingRunSerializer})  # queued: the run rates in the background
    def create(self, request, *args, **kwargs):
        """Queues a rating run and answers it (202): `{"event": slug}` rates an event (its directors, staff);
        `{"rating_list": slug, "from_date": date}` re-rates a list from that date (staff)."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        run = serializer.save()
        return Response(self.get_serializer(run).data, status=status.HTTP_202_ACCEPTED)


def register(router) -> None:
    """Adds this app's API routes to the site's router."""
    router.register("rating-lists", RatingListViewSet, basename="rating-list")
    router.register("ratings", RatingViewSet, basename="rating")
    router.register("rating-reports", EventRatingReportViewSet, basename="rating-report")
    router.register("rating-runs", RatingRunViewSet, basename="rating-run")
