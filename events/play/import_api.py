"""The tsh import through the API: the same preview and import as the director's page.

POST a division's `.t` text (with its config.tsh), or a tsh archive and the division's name: without `confirm`
the answer is the preview (nothing saved); with `confirm` and a choice for each player who may be a member, the
division is imported, all or nothing. A refusal is a 400 naming the field and the file's line.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.response import Response

from clubsite.kit.api import ApiView
from clubsite.kit.errors import ServiceError
from events.models import Event
from events.play.core import tsh
from events.play.services import tsh_io
from events.play.services.common import PlayError, require_director
from events.play.services.tsh_preview import TshPreview, from_archive, preview_tsh

_FIELDS = {"t_file": "file", "config_file": "config", "archive_file": "archive", "division_name": "division"}
TEXT = {"required": False, "trim_whitespace": False, "max_length": tsh.MAX_FILE_BYTES}


class TshImportSerializer(serializers.Serializer):
    event = serializers.SlugField(help_text="the event (you direct it) the division is imported into")
    file = serializers.CharField(**TEXT, help_text="the division's .t file, as text")
    config = serializers.CharField(**TEXT, allow_blank=True, help_text="the event's config.tsh, as text")
    archive = serializers.CharField(**TEXT, help_text="or tsh's archive of the event, as text (name the division)")
    division = serializers.CharField(required=False, max_length=50, help_text="the division's name")
    confirm = serializers.BooleanField(default=False, help_text="false: only the preview; true: import")
    choices = serializers.DictField(
        child=serializers.IntegerField(allow_null=True, min_value=1, max_value=2**31 - 1),
        required=False,
        help_text="per player number in the file: the member number chosen, or null for a new player",
    )

    def validate(self, data):
        if bool(data.get("file")) == bool(data.get("archive")):
            raise serializers.ValidationError({"file": ["Send a .t file (with its config), or a tsh archive."]})
        return data


class PreviewPenaltySerializer(serializers.Serializer):
    round = serializers.IntegerField()
    points = serializers.IntegerField(
        help_text="a time penalty: the points taken off the score; tsh's penalty field: its value as written"
    )
    kind = serializers.SerializerMethodField(help_text="time (taken off the score) or tsh (kept, not counted)")
    overtime = serializers.IntegerField(help_text="seconds over the time control, when the file gives them")

    def get_kind(self, penalty) -> str:
        return "time" if penalty.counted else "tsh"


class PreviewPlayerSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    line = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    withdrawn_after = serializers.IntegerField(allow_null=True)
    penalties = PreviewPenaltySerializer(many=True)
    match = serializers.IntegerField(allow_null=True, source="match.member_number", default=None)
    candidates = serializers.SerializerMethodField()

    def get_candidates(self, row) -> list[dict]:
        return [{"member_number": c.member_number, "name": c.full_name} for c in row.candidates]


class PreviewSerializer(serializers.Serializer):
    division = serializers.CharField(source="division_name")
    rounds = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    penalties = serializers.IntegerField(help_text="penalties the file holds: time penalties and tsh's penalty field")
    time_penalties = serializers.IntegerField()
    new_players = serializers.IntegerField()
    to_choose = serializers.IntegerField()
    notes = serializers.ListField(child=serializers.CharField())
    players = PreviewPlayerSerializer(source="rows", many=True)


class ImportedSerializer(serializers.Serializer):
    event = serializers.CharField(source="event.slug")
    division = serializers.IntegerField(source="division.pk")
    rounds = serializers.IntegerField()
    games = serializers.IntegerField()
    matched = serializers.SerializerMethodField()
    created = serializers.SerializerMethodField()

    def get_matched(self, report) -> list[int]:
        return [player.member_number for _, _, player in report.matched]

    def get_created(self, report) -> list[int]:
        return [player.member_number for _, _, player in report.created]


def _choices(preview: TshPreview, chosen: dict[str, int | None]) -> dict[int, int | None]:
    """Member numbers chosen per player number -> the records' ids, each among the members offered."""
    rows = {str(r.number): r for r in preview.rows}
    picked: dict[int, int | None] = {}
    for number, member_number in chosen.items():
        row = rows.get(number)
        if row is None:
            raise PlayError(f"The file has no player {number}.", field="choices")
        if member_number is None:
            picked[row.number] = None
            continue
        member = next((c for c in row.candidates if c.member_number == member_number), None)
        if member is None:
            raise PlayError(
                f"Player {number} ({row.name}): member {member_number} is not one of the members offered.",
                field="choices",
            )
        picked[row.number] = member.pk
    return picked


class TshImportViewSet(ApiView, viewsets.ViewSet):
    """Import a tsh file into an event you direct: a preview first (nothing saved), then the import."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TshImportSerializer, responses={200: PreviewSerializer, 201: ImportedSerializer})
    def create(self, request):
        """Previews (`confirm` false) or imports (`confirm` true) a division from a tsh file."""
        try:
            return self._create(request)
        except ServiceError as error:
            error.field = _FIELDS.get(error.field, error.field)  # the page's inputs' names, as this API calls them
            raise

    def _create(self, request):
        data = TshImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        data = data.validated_data
        event = Event.objects.filter(slug=data["event"]).first()
        if event is None:
            raise PlayError("No such event.", field="event")
        require_director(request.user, event)
        if data.get("archive"):
            texts = from_archive(data["archive"], data.get("division"))
        else:
            texts = {
                "text": data["file"],
                "config_text": data.get("config") or None,
                "division_name": data.get("division"),
            }
        preview = preview_tsh(request.user, event=event, **texts)
        if not data["confirm"]:
            return Response(PreviewSerializer(preview).data)
        report = tsh_io.import_tsh(
            request.user, event=event, choices=_choices(preview, data.get("choices", {})), **texts
        )
        return Response(ImportedSerializer(report).data, status=status.HTTP_201_CREATED)
