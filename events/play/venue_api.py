"""The tournament play API at the venue: check-in, no-shows and places filled from the waiting list."""

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.response import Response

from clubsite.kit.api import ApiView
from clubsite.kit.ip import client_ip
from events.models import Entry, Event
from events.play import services as play
from events.play.models import Division
from events.play.services import checkin

from .api import Visible, _valid
from .serializers import (
    CheckInListSerializer,
    CheckInRequestSerializer,
    CheckInSerializer,
    EntriesRequestSerializer,
    EntryRequestSerializer,
    FillPlacesRequestSerializer,
    PlacedSerializer,
    WithdrawnSerializer,
)


class EventPlayViewSet(ApiView, Visible, viewsets.GenericViewSet):
    """An event on the day: the check-in list and its actions, by the event's slug (directors; a player checks
    in their own entry with the code shown at the venue)."""

    lookup_field = "slug"
    queryset = Event.objects.none()
    serializer_class = CheckInListSerializer

    def get_queryset(self):
        return Event.objects.filter(self.directing.events_filter(""))

    def _entry(self, event: Event, entry_id: int) -> Entry:
        entry = Entry.objects.select_related("player").filter(pk=entry_id, event=event).first()
        if entry is None:
            raise ValidationError({"entry": ["That entry is not part of this event."]})
        return entry

    @extend_schema(responses=CheckInListSerializer)
    @action(detail=True, methods=["get"], pagination_class=None, url_path="check-in")
    def check_in(self, request, slug=None):
        """Who is expected and who has reported: entrants present and missing, the waiting list (directors)."""
        event = self.get_object()
        play.require_director(request.user, event)
        report = checkin.check_in_list(event)
        data = {
            "reporting": report.reporting,
            "no_shows_due": report.reporting.no_shows_due(timezone.now()),
            "venue_code": checkin.venue_code(event),
            "places_left": report.places_left,
            "present": report.present,
            "missing": report.missing,
            "waiting": report.waiting,
            "waiting_present": report.waiting_present,
            "withdrawable": [r.entry.pk for r in report.withdrawable],
        }
        return Response(CheckInListSerializer(data).data)

    @extend_schema(
        request=CheckInRequestSerializer,
        responses={
            200: CheckInSerializer,
            429: OpenApiResponse(description="Too many wrong venue codes: try again after Retry-After seconds."),
        },
    )
    @check_in.mapping.post
    def mark_checked_in(self, request, slug=None):
        """A director ticks an entrant off; a player checks in their own entry with the venue code, on the day."""
        event = self.get_object()
        data = _valid(CheckInRequestSerializer, request)
        entry = self._entry(event, data["entry"])
        try:
            made = checkin.check_in(request.user, entry, code=data["code"], address=client_ip(request))
        except checkin.TooManyGuesses as error:
            raise Throttled(wait=error.wait.total_seconds(), detail=error.message) from None
        return Response(CheckInSerializer(made).data)

    @extend_schema(request=EntryRequestSerializer, responses={204: None})
    @action(detail=True, methods=["post"], url_path="check-in/undo")
    def undo_check_in(self, request, slug=None):
        """A director takes a tick back (a mistaken name)."""
        event = self.get_object()
        entry = self._entry(event, _valid(EntryRequestSerializer, request)["entry"])
        checkin.undo_check_in(request.user, entry)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=EntriesRequestSerializer, responses=WithdrawnSerializer(many=True))
    @action(detail=True, methods=["post"], pagination_class=None, url_path="check-in/withdraw-no-shows")
    def withdraw_no_shows(self, request, slug=None):
        """The missing entrants listed give up their places, once the grace time after reporting is up (directors)."""
        event = self.get_object()
        ids = _valid(EntriesRequestSerializer, request)["entries"]
        gone = checkin.withdraw_no_shows(request.user, event, ids)
        return Response(WithdrawnSerializer(gone, many=True).data)

    @extend_schema(request=FillPlacesRequestSerializer, responses=PlacedSerializer(many=True))
    @action(detail=True, methods=["post"], pagination_class=None, url_path="check-in/fill-places")
    def fill_places(self, request, slug=None):
        """Free places to present waiting-list entrants, in waiting-list order; or to the one entrant given, in the
        division given (directors)."""
        event = self.get_object()
        data = _valid(FillPlacesRequestSerializer, request)
        if data["entry"] is None:
            if data["division"] is not None:
                raise ValidationError({"division": ["Give the entry that takes a place in this division."]})
            seated = checkin.fill_places(request.user, event)
        else:
            entry = self._entry(event, data["entry"])
            division = None
            if data["division"] is not None:
                division = Division.objects.filter(pk=data["division"], event=event).first()
                if division is None:
                    raise ValidationError({"division": ["That division is not part of this event."]})
            seated = [checkin.seat_from_waiting_list(request.user, entry, division)]
        return Response(PlacedSerializer(seated, many=True).data)


def register(router) -> None:
    router.register("play/events", EventPlayViewSet, basename="play-event")
