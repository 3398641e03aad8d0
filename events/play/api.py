"""The tournament play API: divisions, rounds, games and results, standings and .t exports; the day at the
venue (check-in, lucky draws), prizes and live ratings.

The same services as the pages (events.play.services); they check every write: players only their
own games, directors only their events. A refusal is a 400 naming the field at fault (403 for a
permission); a pairing refused for repeats is a 409 carrying the least-repeat pairing, which the
director may accept by pairing again with `accept_repeats`.
"""

from django.db.models import Exists, Min, OuterRef, Q
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from clubsite.kit.api import MAX_ID, ApiView, int_parameter, query_int
from clubsite.kit.roles import is_association_staff, player_of
from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer, Game, Round, RoundStatus
from events.play.services import luckydraw, tsh_io
from events.play.services import prizes as prizes_io
from ratings.services.live import division_live_ratings

from ..permissions import directed_events
from .import_api import TshImportViewSet
from .serializers import (
    MAX_ROUNDS,
    DisputeSerializer,
    DivisionPrizesSerializer,
    DivisionSerializer,
    FastEntrySerializer,
    GameChangeSerializer,
    GameSerializer,
    LiveRatingSerializer,
    LuckyDrawRequestSerializer,
    LuckyDrawSerializer,
    PairSerializer,
    PrizeDecisionRequestSerializer,
    PrizeDecisionSerializer,
    ResultSerializer,
    RoundSerializer,
    StandingSerializer,
    SwappedRoundSerializer,
    SwapSerializer,
    UnplayedSerializer,
)

# --- visibility ----------------------------------------------------------------------------------


def _directed_event_ids(user) -> set[int] | None:
    """Events the user directs (None: every event, for association staff). One query."""
    if user and user.is_authenticated and is_association_staff(user):
        return None
    return set(directed_events(user).values_list("pk", flat=True))


class Directing:
    """Answers "does this user direct that event?" for a whole request, with one query."""

    def __init__(self, user):
        self.ids = _directed_event_ids(user)

    def __call__(self, event_id: int) -> bool:
        return self.ids is None or event_id in self.ids

    def events_filter(self, prefix: str) -> Q:
        """Q for objects of public events or of events the user directs."""
        public = ~Q(**{f"{prefix}status": EventStatus.DRAFT})
        if self.ids is None:
            return Q()
        return public | Q(**{f"{prefix}pk__in": self.ids})


# --- serializers ---------------------------------------------------------------------------------


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _numbers(games) -> dict:
    """(division id, player id) → the player's number in the division, for the players of these games."""
    division_ids = {g.division_id for g in games}
    player_ids = {p for g in games for p in (g.player_a_id, g.player_b_id) if p is not None}
    rows = (
        DivisionPlayer.objects.filter(division_id__in=division_ids, player_id__in=player_ids)
        .order_by()
        .values_list("division_id", "player_id", "number")
    )
    return {(d, p): n for d, p, n in rows}


def _games_response(view, games, *, paginate: bool):
    games = list(games) if not paginate else games
    page = view.paginate_queryset(games) if paginate else None
    shown = page if page is not None else games
    context = {"request": view.request, "directing": view.directing, "numbers": _numbers(shown)}
    data = GameSerializer(shown, many=True, context=context).data
    return view.get_paginated_response(data) if page is not None else Response(data)


class Visible:
    """What the play views share: anyone reads, a signed-in user writes (the services check who may)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @property
    def directing(self) -> Directing:
        if not hasattr(self, "_directing"):
            self._directing = Directing(getattr(self.request, "user", None))
        return self._directing


class PlayViewSet(ApiView, Visible, viewsets.ReadOnlyModelViewSet):
    pass


# --- divisions -----------------------------------------------------------------------------------


@extend_schema_view(list=extend_schema(parameters=[OpenApiParameter("event", str, description="Event slug")]))
class DivisionViewSet(PlayViewSet):
    """Divisions of public events (and of draft events you direct). `?event=<slug>` filters."""

    serializer_class = DivisionSerializer
    queryset = Division.objects.none()  # for the schema; get_queryset gives the visible ones

    def get_queryset(self):
        divisions = Division.objects.select_related("event").filter(self.directing.events_filter("event__"))
        event = self.request.query_params.get("event")
        if event:
            divisions = divisions.filter(event__slug=event)
        return divisions.order_by("event__starts_on", "event_id", "position", "name")

    @extend_schema(
        parameters=[int_parameter("through", "Standings after this round", max_value=MAX_ROUNDS)],
        responses=StandingSerializer(many=True),
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None):
        """Standings from the confirmed results of published rounds (a draft round's byes do not count yet)."""
        division = self.get_object()
        through = query_int(request, "through", max_value=MAX_ROUNDS)
        first_draft = division.rounds.filter(status=RoundStatus.DRAFT).aggregate(n=Min("number"))["n"]
        if first_draft is not None:
            through = first_draft - 1 if through is None else min(through, first_draft - 1)
        rows = play.standings(division, through)
        return Response(StandingSerializer(rows, many=True).data)

    @extend_schema(responses=RoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request, pk=None):
        """The division's rounds in order (a draft round only for the event's directors)."""
        division = self.get_object()
        rounds = division.rounds.order_by("number")
        if not self.directing(division.event_id):
            rounds = rounds.exclude(status=RoundStatus.DRAFT)
        return Response(RoundSerializer(rounds, many=True).data)

    @extend_schema(request=PairSerializer, responses={201: RoundSerializer})
    @action(detail=True, methods=["post"])
    def pair(self, request, pk=None):
        """Pairs the next round as a draft, by the pairing system given (directors). When no pairing keeps the
        rules, the answer is 409 with the best pairing found, to take or change."""
        division = self.get_object()
        data = _valid(PairSerializer, request)
        try:
            rnd = play.pair_round(request.user, division, data.pop("system"), **data)
        except play.PairingRefused as refusal:
            best = refusal.best
            body = {"detail": refusal.message, "best": None}
            if best:
                body["best"] = {
                    "pairs": [list(p) for p in best.pairs],
                    "bye": best.bye,
                    "repeats": best.repeats,
                    "seed": best.seed,
                }
            return Response(body, status=status.HTTP_409_CONFLICT)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={(200, "text/plain"): str})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """The division as a tsh `.t` file (directors)."""
        division = self.get_object()
        if not self.directing(division.event_id):
            raise PermissionDenied("Only the event's directors can download its tsh files.")
        response = HttpResponse(tsh_io.export_tsh(division), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tsh_io.tsh_file_name(division.name)}"'
        return response

    # The day at the venue and after: lucky draws, prizes, live ratings.

    @extend_schema(responses=LuckyDrawSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, url_path="lucky-draws")
    def lucky_draws(self, request, pk=None):
        """The division's lucky draws, newest first, each with whether its stored winners follow from its seed."""
        division = self.get_object()
        draws = LuckyDrawSerializer(division.lucky_draws.all(), many=True, context=_draw_context(division))
        return Response(draws.data)

    @extend_schema(request=LuckyDrawRequestSerializer, responses={201: LuckyDrawSerializer})
    @lucky_draws.mapping.post
    def run_lucky_draw(self, request, pk=None):
        """Draws lucky-draw winners among those who played or checked in, less prize and earlier winners (directors)."""
        division = self.get_object()
        data = _valid(LuckyDrawRequestSerializer, request)
        drawn = luckydraw.run_lucky_draw(request.user, division, data["winners"], seed=data["seed"], note=data["note"])
        return Response(
            LuckyDrawSerializer(drawn, context=_draw_context(division)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "one_each", str, enum=["0", "1"], description="1: at most one prize each (default: the event's rule)"
            )
        ],
        responses=DivisionPrizesSerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def prizes(self, request, pk=None):
        """The division's prizes as the prizes page shows them: winners, tied places shared as the event says,
        prizes awaiting the director's decision, and the event's prize fund divided by fees."""
        division = self.get_object()
        one_each = request.query_params.get("one_each")
        if one_each not in (None, "", "0", "1"):
            raise ValidationError({"one_each": ["Give 0 or 1."]})
        event = division.event
        one_prize = event.one_prize_per_player if one_each in (None, "") else one_each == "1"
        report = prizes_io.division_prizes(division, one_prize_per_player=one_prize)
        report.one_prize_per_player = one_prize
        report.fund = prizes_io.prize_fund_split(event)
        if not self.directing(event.pk):
            report.decisions = []
        return Response(DivisionPrizesSerializer(report).data)

    @extend_schema(request=PrizeDecisionRequestSerializer, responses={201: PrizeDecisionSerializer})
    @action(detail=True, methods=["post"], url_path="prize-decisions")
    def prize_decisions(self, request, pk=None):
        """A director gives a prize a tie covers to one of the tied players, saying why (the latest decision counts)."""
        division = self.get_object()
        data = _valid(PrizeDecisionRequestSerializer, request)
        decision = prizes_io.decide_prize(request.user, division, data["prize"], data["seat"], data["reason"])
        return Response(PrizeDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=LiveRatingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, url_path="live-ratings")
    def live_ratings(self, request, pk=None):
        """Each player's rating if the event ended now, by player number, while a rated division is played
        (empty for an unrated event and once the division is final)."""
        division = self.get_object()
        live = division_live_ratings(division)
        if live is None:
            return Response([])
        seats = DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number")
        rows = [{"seat": s, "live": live.get(s.player_id)} for s in seats if live.get(s.player_id)]
        return Response(LiveRatingSerializer(rows, many=True).data)


def _draw_context(division) -> dict:
    seats = DivisionPlayer.objects.filter(division=division).select_related("player")
    return {"seats": {s.player_id: s for s in seats}}


# --- rounds --------------------------------------------------------------------------------------


@extend_schema_view(list=extend_schema(parameters=[int_parameter("division", min_value=1, max_value=MAX_ID)]))
class RoundViewSet(PlayViewSet):
    """Rounds; drafts only for the event's directors. `?division=<id>` filters."""

    serializer_class = RoundSerializer
    queryset = Round.objects.none()

    def get_queryset(self):
        rounds = Round.objects.select_related("division__event").filter(
            self.directing.events_filter("division__event__")
        )
        if self.directing.ids is not None:
            rounds = rounds.filter(~Q(status=RoundStatus.DRAFT) | Q(division__event_id__in=self.directing.ids))
        division = query_int(self.request, "division", min_value=1, max_value=MAX_ID)
        if division is not None:
            rounds = rounds.filter(division_id=division)
        return rounds.order_by("division_id", "number")

    @extend_schema(responses=GameSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def games(self, request, pk=None):
        """The round's pairings and results, in board order."""
        rnd = self.get_object()
        games = rnd.games.select_related("division", "player_a", "player_b").order_by("board", "pk")
        return _games_response(self, games, paginate=False)

    def _act(self, call, *args):
        rnd = self.get_object()
        call(self.request.user, rnd, *args)
        rnd.refresh_from_db()
        return Response(RoundSerializer(rnd).data)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publishes a draft round: players see their pairings and may report results (directors)."""
        return self._act(play.publish_round)

    @extend_schema(request=SwapSerializer, responses=SwappedRoundSerializer)
    @action(detail=True, methods=["post"])
    def swap(self, request, pk=None):
        """Exchange two players of a draft round; `warnings` names each rematch the swap made."""
        data = _valid(SwapSerializer, request)
        rnd = self.get_object()
        swapped = play.swap_players(request.user, rnd, data["player_x"], data["player_y"])
        warnings = swapped.warnings
        rnd.refresh_from_db()
        rnd.warnings = warnings
        return Response(SwappedRoundSerializer(rnd).data)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], url_path="delete-draft")
    def delete_draft(self, request, pk=None):
        """Deletes a draft round, to pair it again (directors)."""
        play.delete_draft_round(request.user, self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=FastEntrySerializer, responses=GameSerializer(many=True))
    @action(detail=True, methods=["post"], pagination_class=None)
    def results(self, request, pk=None):
        """Fast entry: `player-number score player-number score` per line; one bad line saves nothing."""
        rnd = self.get_object()
        games = play.enter_round_results(request.user, rnd, _valid(FastEntrySerializer, request)["text"])
        return _games_response(self, games, paginate=False)


# --- games and results ---------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        parameters=[
            int_parameter("round", min_value=1, max_value=MAX_ID),
            int_parameter("division", min_value=1, max_value=MAX_ID),
            OpenApiParameter("mine", str, enum=["1"], description="1: only your own games"),
        ]
    )
)
class GameViewSet(PlayViewSet):
    """Games of published rounds (drafts too for directors). Filters: `?round=<id>`, `?division=<id>`, `?mine=1`."""

    serializer_class = GameSerializer
    queryset = Game.objects.none()

    def get_queryset(self):
        games = Game.objects.select_related("division", "player_a", "player_b")
        if self.directing.ids is not None:
            # Games of published rounds of public events, or of events the user directs. Written as "no draft
            # round, no draft event" so that PostgreSQL looks up the few drafts instead of hashing every round
            # and event (the rows of a page still come with their division).
            draft_round = Exists(Round.objects.filter(pk=OuterRef("round_id"), status=RoundStatus.DRAFT))
            draft_event = Exists(Division.objects.filter(pk=OuterRef("division_id"), event__status=EventStatus.DRAFT))
            shown = ~Q(draft_round) & ~Q(draft_event)
            if self.directing.ids:
                shown |= Q(division__event_id__in=self.directing.ids)
            games = games.filter(shown)
        params = self.request.query_params
        for name in ("round", "division"):
            value = query_int(self.request, name, min_value=1, max_value=MAX_ID)
            if value is not None:
                games = games.filter(**{f"{name}_id": value})
        if params.get("mine") == "1":
            # By the player's id: the same condition through the players (player_a__user | player_b__user)
            # makes PostgreSQL read every game.
            player = player_of(self.request.user)
            games = games.filter(Q(player_a=player) | Q(player_b=player)) if player else games.none()
        return games.order_by("division_id", "round_number", "board", "pk")

    def list(self, request):
        return _games_response(self, self.filter_queryset(self.get_queryset()), paginate=True)

    def retrieve(self, request, pk=None):
        return self._done(self.get_object())

    def _done(self, game):
        game = Game.objects.select_related("division", "player_a", "player_b").get(pk=game.pk)
        context = {"request": self.request, "directing": self.directing, "numbers": _numbers([game])}
        return Response(GameSerializer(game, context=context).data)

    @extend_schema(responses=GameChangeSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def changes(self, request, pk=None):
        """The game's audit trail, newest first: who changed the result, when, from what to what (directors)."""
        game = self.get_object()
        if not self.directing(game.division.event_id):
            raise PermissionDenied("Only the event's directors can see who changed a result.")
        changes = game.changes.select_related("changed_by__player").order_by("-changed_at", "-pk")
        return Response(GameChangeSerializer(changes, many=True).data)

    @extend_schema(request=ResultSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        """A player reports their game (a director's entry is confirmed at once). Overtime in seconds."""
        data = _valid(ResultSerializer, request)
        game = self.get_object()
        return self._done(play.submit_result(request.user, game, data.pop("score_a"), data.pop("score_b"), **data))

    @extend_schema(request=None, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The opponent of whoever reported the result (or a director) confirms it."""
        return self._done(play.confirm_result(request.user, self.get_object()))

    @extend_schema(request=DisputeSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """The opponent of whoever reported the result disputes it, saying why; a director then settles it."""
        reason = _valid(DisputeSerializer, request)["reason"]
        return self._done(play.dispute_result(request.user, self.get_object(), reason))

    @extend_schema(request=UnplayedSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def unplayed(self, request, pk=None):
        """A director records a forfeit, a late-arrival forfeit or a void game."""
        data = _valid(UnplayedSerializer, request)
        game = self.get_object()
        return self._done(play.set_unplayed(request.user, game, data.pop("kind"), **data))


def register(router) -> None:
    """Adds the play API's routes to the site's router (the venue's: venue_api.register)."""
    router.register("play/divisions", DivisionViewSet, basename="play-division")
    router.register("play/rounds", RoundViewSet, basename="play-round")
    router.register("play/games", GameViewSet, basename="play-game")
    router.register("play/tsh-imports", TshImportViewSet, basename="play-tsh-import")
