"""What the tournament play API reads and writes: divisions, rounds, games, standings, and the requests
that pair, swap, enter, dispute and forfeit (bounded numbers, so bad input is a 400 naming the field)."""

from rest_framework import serializers

from clubsite.api import MAX_ID, Id, ModelSerializer, Whole
from events.core import pairing
from events.core.results import MAX_OVERTIME_SECONDS, MAX_SCORE
from events.models import (
    Division,
    Game,
    GameChange,
    GameKind,
    Round,
)
from events.play.services.reads import scores_visible
from events.play.services.results import person_name


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
    seed = Whole(required=False, allow_null=True, max_value=MAX_ID, default=None)
    gibson = serializers.BooleanField(required=False, default=False)
    accept_repeats = serializers.BooleanField(required=False, default=False)


class SwapSerializer(serializers.Serializer):
    player_x = Id()
    player_y = Id()


class FastEntrySerializer(serializers.Serializer):
    text = serializers.CharField(trim_whitespace=False)


class ResultSerializer(serializers.Serializer):
    """Scores as played and overtime in seconds; the result is stored after penalties, checked by the same
    rule as every other way in (a stored score runs from MIN_STORED_SCORE to MAX_SCORE)."""

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


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class UnplayedSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[GameKind.FORFEIT, GameKind.LATE_FORFEIT, GameKind.VOID])
    forfeited_by = serializers.ChoiceField(choices=["a", "b"], required=False, default="a")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
