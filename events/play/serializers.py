"""What the tournament play API reads and writes: divisions, rounds, games, standings, check-in lists, lucky
draws, prizes and live ratings, and the requests that pair, swap, enter, dispute, forfeit, check in, draw and
decide tied prizes (bounded numbers, so bad input is a 400 naming the field)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubsite.kit.api import MAX_ID, Id, ModelSerializer, Whole
from events.play.core import pairing
from events.play.core.results import MAX_OVERTIME_SECONDS, MAX_SCORE
from events.play.models import Division, Game, GameChange, GameKind, Round
from events.play.services.luckydraw import check_lucky_draw
from events.play.services.reads import scores_visible
from events.play.services.results import person_name
from events.play.services.rounds import ABSENT_CHOICES, ABSENT_REFUSE


class DivisionSerializer(ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Division
        fields = [
            "id",
            "event",
            "name",
            "position",
            "rating_min",
            "rating_max",
            "takes_unrated",
            "finalised_at",
            "assignments_published",
        ]


class RoundSerializer(ModelSerializer):
    class Meta:
        model = Round
        fields = [
            "id",
            "division",
            "number",
            "status",
            "pairing_system",
            "pairing_seed",
            "based_on_round",
            "published_at",
        ]


class GameSerializer(ModelSerializer):
    round = serializers.IntegerField(source="round_number", read_only=True)
    player_a = serializers.SerializerMethodField()
    player_b = serializers.SerializerMethodField()
    score_a = serializers.SerializerMethodField()
    score_b = serializers.SerializerMethodField()
    played_a = serializers.SerializerMethodField(help_text="score as played, before time penalties")
    played_b = serializers.SerializerMethodField(help_text="score as played, before time penalties")
    overrun = serializers.CharField(read_only=True, help_text="'a' or 'b': overran the time and forfeited (APSP)")

    class Meta:
        model = Game
        fields = [
            "id",
            "division",
            "round",
            "board",
            "kind",
            "status",
            "player_a",
            "player_b",
            "score_a",
            "score_b",
            "spread_a",
            "first",
            "overtime_a",
            "overtime_b",
            "played_a",
            "played_b",
            "overrun",
            "ahead_before_tiles",
            "submitted_at",
            "confirmed_at",
        ]

    def _seat(self, game, player) -> dict | None:
        if player is None:
            return None
        numbers = self.context.get("numbers", {})
        return {"id": player.pk, "number": numbers.get((game.division_id, player.pk)), "name": player.name}

    def get_player_a(self, game) -> dict:
        return self._seat(game, game.player_a)

    def get_player_b(self, game) -> dict | None:
        return self._seat(game, game.player_b)

    def _scores_shown(self, game) -> bool:
        directing = self.context["directing"](game.division.event_id)
        return scores_visible(game, self.context["request"].user, directing=directing)

    def get_score_a(self, game) -> int | None:
        return game.score_a if self._scores_shown(game) else None

    def get_score_b(self, game) -> int | None:
        return game.score_b if self._scores_shown(game) else None

    def get_played_a(self, game) -> int | None:
        return game.played("a") if self._scores_shown(game) else None

    def get_played_b(self, game) -> int | None:
        return game.played("b") if self._scores_shown(game) else None


class GameChangeSerializer(ModelSerializer):
    """One entry of a game's audit trail (directors only)."""

    changed_by = serializers.SerializerMethodField()

    class Meta:
        model = GameChange
        fields = ["changed_at", "changed_by", "action", "before", "after", "reason"]

    def get_changed_by(self, change) -> str | None:
        return person_name(change.changed_by)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(source="standing.rank")
    rank_label = serializers.CharField(source="standing.rank_label")
    position = serializers.IntegerField(source="standing.position")
    player = serializers.IntegerField(source="standing.player")
    number = serializers.IntegerField(source="seat.number")
    name = serializers.CharField(source="seat.player.name")
    rating = serializers.IntegerField(source="seat.rating")
    wins = serializers.FloatField(source="standing.wins")
    losses = serializers.FloatField(source="standing.losses")
    spread = serializers.IntegerField(source="standing.spread")
    games = serializers.IntegerField(source="standing.games")
    byes = serializers.IntegerField(source="standing.byes")


# No tournament has more rounds than this, and no game runs more than an hour over its time.
MAX_ROUNDS = 1000
MAX_OVERTIME = MAX_OVERTIME_SECONDS


class PairSerializer(serializers.Serializer):
    system = serializers.ChoiceField(choices=list(pairing.SYSTEMS.items()))
    based_on_round = Whole(required=False, allow_null=True, max_value=MAX_ROUNDS, default=None)
    avoid_repeats = serializers.BooleanField(required=False, default=True)
    max_repeats = Whole(required=False, max_value=MAX_ROUNDS, default=0)
    seed = Whole(
        required=False,
        allow_null=True,
        max_value=pairing.MAX_SEED,
        default=None,
        error_messages={"max_value": pairing.SEED_REFUSAL, "min_value": pairing.SEED_REFUSAL},
    )
    gibson = serializers.BooleanField(required=False, default=False)
    initial_snaked = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Initial Fontes groups: random (tsh's default) or snaked through the rating bands "
        "(tsh's initial_snaked); pair every round of the block the same way",
    )
    accept_repeats = serializers.BooleanField(required=False, default=False)
    not_checked_in = serializers.ChoiceField(
        choices=list(ABSENT_CHOICES.items()),
        required=False,
        default=ABSENT_REFUSE,
        help_text="once the event uses check-in: refuse to pair players who have not checked in, or leave them out",
    )


class SwappedRoundSerializer(RoundSerializer):
    """A draft round after a swap, with a warning for each rematch the swap made."""

    warnings = serializers.ListField(child=serializers.CharField(), read_only=True, default=list)

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "warnings"]


class SwapSerializer(serializers.Serializer):
    player_x = Id()
    player_y = Id()


class FastEntrySerializer(serializers.Serializer):
    text = serializers.CharField(trim_whitespace=False)


class ResultSerializer(serializers.Serializer):
    """Scores as played and overtime in seconds; the result is stored after overtime penalties, and a score
    after penalties runs from -200 to 1500."""

    # The bounds are events.play.core.results' MIN_STORED_SCORE and MAX_SCORE, the rule every way in follows.

    score_a = Whole(max_value=MAX_SCORE)
    score_b = Whole(max_value=MAX_SCORE)
    overtime_a = Whole(required=False, max_value=MAX_OVERTIME, default=0, help_text="seconds")
    overtime_b = Whole(required=False, max_value=MAX_OVERTIME, default=0, help_text="seconds")
    first = serializers.ChoiceField(
        choices=Game._meta.get_field("first").choices, required=False, allow_blank=True, default=""
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=200, help_text="a director's correction"
    )
    ahead_before_tiles = serializers.ChoiceField(
        choices=["a", "b", "level"],
        required=False,
        allow_null=True,
        default=None,
        help_text="level scores, when the event breaks ties by the score before the tile adjustment",
    )
    confirm_unusual = serializers.BooleanField(
        required=False, default=False, help_text="the scores are unusual (0–0) but right: record them"
    )


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class UnplayedSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[GameKind.FORFEIT, GameKind.LATE_FORFEIT, GameKind.VOID])
    forfeited_by = serializers.ChoiceField(choices=["a", "b"], required=False, default="a")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


# --- the day at the venue: check-in, lucky draws, prizes, live ratings ------------------------------------

# A list of entry ids sent at once is at most this long (no event has more entrants).
MAX_ENTRIES = 2000


class SeatSerializer(serializers.Serializer):
    """A player in a division: their seat's id, the player's id, number and name."""

    seat = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.CharField(source="player.name")


class CheckInRowSerializer(serializers.Serializer):
    """An entry expected at the venue: whether and when it reported, and its seat once it has one."""

    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    status = serializers.CharField(source="entry.status")
    category = serializers.CharField(source="entry.category.name")
    division = serializers.IntegerField(source="seat.division_id", allow_null=True, default=None)
    number = serializers.IntegerField(source="seat.number", allow_null=True, default=None)
    present = serializers.BooleanField()
    checked_in_at = serializers.DateTimeField(source="check_in.checked_in_at", allow_null=True, default=None)
    by_self = serializers.BooleanField(
        source="check_in.by_self", allow_null=True, default=None, help_text="checked in with the venue code"
    )


class ReportingSerializer(serializers.Serializer):
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    places_given_up_at = serializers.DateTimeField(
        allow_null=True, help_text="missing entrants may be withdrawn from this time"
    )


class CheckInListSerializer(serializers.Serializer):
    """The director's check-in list: entrants present and missing, and the waiting list (in order)."""

    reporting = ReportingSerializer()
    no_shows_due = serializers.BooleanField(help_text="missing entrants may be withdrawn now")
    venue_code = serializers.CharField(help_text="the code players check themselves in with")
    places_left = serializers.IntegerField(allow_null=True, help_text="null: no limit")
    present = CheckInRowSerializer(many=True)
    missing = CheckInRowSerializer(many=True)
    waiting = CheckInRowSerializer(many=True, help_text="the waiting list in order, present or not")
    waiting_present = CheckInRowSerializer(many=True)
    withdrawable = serializers.ListField(
        child=serializers.IntegerField(), help_text="entry ids of missing entrants whose seat can still go"
    )


class CheckInSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="entry_id")
    checked_in_at = serializers.DateTimeField()
    by_self = serializers.BooleanField()


class CheckInRequestSerializer(serializers.Serializer):
    entry = Id()
    code = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=12, help_text="a player's own check-in"
    )


class EntryRequestSerializer(serializers.Serializer):
    entry = Id()


class EntriesRequestSerializer(serializers.Serializer):
    entries = serializers.ListField(child=Id(), min_length=1, max_length=MAX_ENTRIES)


class FillPlacesRequestSerializer(serializers.Serializer):
    entry = Id(
        required=False, allow_null=True, default=None, help_text="one waiting entrant (default: all present, in order)"
    )
    division = Id(required=False, allow_null=True, default=None, help_text="the division the entrant plays in")


class WithdrawnSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    status = serializers.CharField()


class PlacedSerializer(serializers.Serializer):
    """A waiting-list entrant who took a place: their seat, or none (seat, number and division null) while the
    event has no divisions yet."""

    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    seat = serializers.IntegerField(source="seat.pk", allow_null=True)
    number = serializers.IntegerField(source="seat.number", allow_null=True)
    division = serializers.IntegerField(source="seat.division_id", allow_null=True)


class DrawnSerializer(serializers.Serializer):
    """A player in a lucky draw (number and name null if they no longer have a seat in the division)."""

    player = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)


class LuckyDrawSerializer(serializers.Serializer):
    """A lucky draw as stored: enough to run it again; `checked` says whether the stored winners follow from it."""

    # The serializer's context holds `seats`: player ids to the division's seats.

    id = serializers.IntegerField()
    seed = serializers.IntegerField()
    winners_wanted = serializers.IntegerField()
    candidates = serializers.SerializerMethodField(help_text="in the order drawn from")
    winners = serializers.SerializerMethodField(help_text="in the order drawn")
    excluded = serializers.ListField(child=serializers.IntegerField(), help_text="player ids of prize winners left out")
    note = serializers.CharField()
    drawn_at = serializers.DateTimeField()
    checked = serializers.SerializerMethodField(help_text="the stored winners follow from the seed and candidates")

    def _people(self, ids) -> list[dict]:
        seats = self.context["seats"]
        people = []
        for player_id in ids:
            seat = seats.get(player_id)
            people.append({"player": player_id, "number": seat and seat.number, "name": seat and seat.player.name})
        return people

    @extend_schema_field(DrawnSerializer(many=True))
    def get_candidates(self, draw) -> list[dict]:
        return self._people(draw.candidates)

    @extend_schema_field(DrawnSerializer(many=True))
    def get_winners(self, draw) -> list[dict]:
        return self._people(draw.winners)

    def get_checked(self, draw) -> bool:
        return check_lucky_draw(draw)


class LuckyDrawRequestSerializer(serializers.Serializer):
    winners = Whole(min_value=1, max_value=500)
    seed = Whole(required=False, allow_null=True, max_value=MAX_ID, default=None, help_text="default: a fresh one")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


MONEY = {"max_digits": 12, "decimal_places": 2}


class PrizeDecisionSerializer(serializers.Serializer):
    prize = serializers.CharField()
    seat = SeatSerializer()
    reason = serializers.CharField()
    decided_at = serializers.DateTimeField()
    decided_by = serializers.SerializerMethodField()

    def get_decided_by(self, decision) -> str | None:
        return person_name(decision.decided_by)


class AwardSerializer(serializers.Serializer):
    prize = serializers.CharField()
    description = serializers.CharField()
    rank_label = serializers.CharField()
    winners = SeatSerializer(source="seats", many=True)
    amount_each = serializers.DecimalField(**MONEY, allow_null=True, help_text="cash to each winner")
    sharing = serializers.CharField(help_text="how tied players share the places they cover")
    note = serializers.CharField()
    tied = SeatSerializer(source="tied_seats", many=True, help_text="the tie this prize belongs to")
    awaits_director = serializers.BooleanField()
    decided = serializers.BooleanField(help_text="the director's latest decision applies")
    decision_reason = serializers.SerializerMethodField()

    def get_decision_reason(self, award) -> str | None:
        return award.decision.reason if award.decided and award.decision else None


class ListedPrizeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    description = serializers.CharField()
    amount = serializers.DecimalField(**MONEY, allow_null=True)


class FundShareSerializer(serializers.Serializer):
    division = serializers.CharField()
    players = serializers.IntegerField()
    paid = serializers.DecimalField(**MONEY)
    percent = serializers.DecimalField(max_digits=7, decimal_places=2)
    amount = serializers.DecimalField(**MONEY)
    extra = serializers.DecimalField(**MONEY, help_text="what the rounding remainder added")


class FundSplitSerializer(serializers.Serializer):
    fund = serializers.DecimalField(**MONEY)
    paid = serializers.DecimalField(**MONEY)
    shares = FundShareSerializer(many=True)
    remainder = serializers.DecimalField(**MONEY)
    problem = serializers.CharField(help_text="why the fund cannot be divided yet")


class DivisionPrizesSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="false: provisional, from the current standings")
    category = serializers.CharField(source="category.name", allow_null=True, default=None)
    ties = serializers.CharField(help_text="how tied places share prizes (split, higher, director)")
    one_prize_per_player = serializers.BooleanField()
    awards = AwardSerializer(many=True)
    listed_only = ListedPrizeSerializer(many=True, help_text="lucky draws and prizes the director awards")
    decisions = PrizeDecisionSerializer(many=True, help_text="the director's decisions, newest first (directors)")
    fund = FundSplitSerializer(allow_null=True, help_text="the event's prize fund divided by fees, if it is")
    outside = SeatSerializer(
        many=True, help_text="players seated here who entered another category: they win none of these prizes"
    )


class PrizeDecisionRequestSerializer(serializers.Serializer):
    prize = serializers.CharField(max_length=200, help_text="as the prizes list names it, e.g. 2nd place")
    seat = Id(help_text="the seat of one of the tied players")
    reason = serializers.CharField(max_length=300)


class LiveRatingSerializer(serializers.Serializer):
    """A player's rating if the event ended now (0: unrated)."""

    player = serializers.IntegerField(source="seat.player_id")
    number = serializers.IntegerField(source="seat.number")
    name = serializers.CharField(source="seat.player.name")
    pre_event = serializers.IntegerField(source="live.pre", help_text="0: unrated")
    rating = serializers.IntegerField(source="live.rating", help_text="0: still unrated")
    change = serializers.IntegerField(source="live.change", allow_null=True, help_text="null before a rated game")
    games = serializers.IntegerField(source="live.games", help_text="rated games counted so far")
    newcomer = serializers.BooleanField(source="live.is_newcomer")
