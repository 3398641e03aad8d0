"""Tournament play: divisions, rounds and games. Rules live in the pure core (events.play.core: results,
standings)."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from events.play.core import pairing
from events.play.core import results as pure_results

__all__ = [
    "Division",
    "DivisionPlayer",
    "RoundStatus",
    "Round",
    "GameKind",
    "GameStatus",
    "Game",
    "GameChange",
    "CheckIn",
    "LuckyDraw",
]


class Division(models.Model):
    """Where players play: by default one per category; or divisions cut by rating."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="divisions")
    category = models.ForeignKey(
        "events.Category", null=True, blank=True, on_delete=models.SET_NULL, related_name="divisions"
    )
    name = models.CharField(max_length=50)
    position = models.PositiveSmallIntegerField(default=0)
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    takes_unrated = models.BooleanField(default=False, help_text="Unrated players are placed here")
    missed_rounds_as = models.CharField(
        max_length=15,
        choices=[("forfeit", "Forfeit loss"), ("bye", "Bye"), ("void", "Void (neither win nor loss)")],
        default="forfeit",
        help_text="How rounds missed by late entrants and withdrawn players are scored",
    )
    finalised_at = models.DateTimeField(null=True, blank=True)
    assignments_published = models.BooleanField(default=False)

    class Meta:
        db_table = "events_division"  # the table it had before play became an app
        ordering = ["event", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="division_name_unique_in_event")]

    def __str__(self):
        return f"{self.event} – {self.name}"


class DivisionPlayer(models.Model):
    """A player's seat in a division: seed number (tsh player number), rating at assignment."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="seats")
    entry = models.OneToOneField("events.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="seat")
    number = models.PositiveIntegerField(help_text="Player number in the division (as in tsh)")
    rating = models.PositiveIntegerField(default=0, help_text="Rating used for seeding; 0 = unrated")
    withdrawn_after_round = models.PositiveIntegerField(null=True, blank=True)
    joined_in_round = models.PositiveIntegerField(default=1)
    assigned_reason = models.CharField(max_length=200, blank=True)
    placed_by_director = models.BooleanField(default=False, help_text="Kept when divisions are reassigned")
    # tsh extra fields that the site does not interpret, kept for round trips
    tsh_extras = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "events_divisionplayer"  # the table it had before play became an app
        ordering = ["division", "number"]
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["division", "player"], name="seat_player_unique"),
        ]

    def __str__(self):
        return f"{self.number}. {self.player}"


class RoundStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"
    COMPLETE = "complete", "Complete"


class Round(models.Model):
    TRANSITIONS = {
        RoundStatus.DRAFT: {RoundStatus.PUBLISHED},
        RoundStatus.PUBLISHED: {RoundStatus.COMPLETE},
        RoundStatus.COMPLETE: set(),
    }

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    pairing_system = models.CharField(max_length=30, blank=True)
    pairing_seed = models.BigIntegerField(null=True, blank=True)
    based_on_round = models.PositiveIntegerField(null=True, blank=True)
    # How the round was paired, as tsh's pairing commands take it (the `config.tsh` export writes them as
    # `autopair` lines): how often two players could already have met (None: no limit, or not recorded for an
    # imported round), and whether a leader who could no longer be caught was Gibsonized.
    max_repeats = models.PositiveSmallIntegerField(null=True, blank=True)
    gibson = models.BooleanField(default=False)
    # Initial Fontes groups snaked through the rating bands (tsh's `initial_snaked`), not drawn at random.
    initial_snaked = models.BooleanField(default=False)
    pairing_notes = models.TextField(blank=True, help_text="What the pairing decided, e.g. who was Gibsonized and why")
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "events_round"  # the table it had before play became an app
        ordering = ["division", "number"]
        constraints = [models.UniqueConstraint(fields=["division", "number"], name="round_number_unique")]
        # The few rounds not yet published: queries over a player's games leave out games of these rounds by
        # looking them up here, not by reading every round. Only draft rounds are in it.
        indexes = [
            models.Index(
                fields=["id"],
                condition=~models.Q(status__in=[RoundStatus.PUBLISHED, RoundStatus.COMPLETE]),
                name="round_unpublished",
            )
        ]

    def __str__(self):
        return f"{self.division} round {self.number}"

    @property
    def pairing_system_label(self) -> str:
        return pairing.SYSTEMS.get(self.pairing_system, self.pairing_system)

    def result_changes(self):
        """Every change to a result of this round, newest first (one query), for the directors' page."""
        return (
            GameChange.objects.filter(game__round=self)
            .exclude(action__in=["submitted", "confirmed"], reason="")
            .select_related("game__player_a", "game__player_b", "changed_by__player")
            .order_by("-changed_at", "-pk")
        )


class GameKind(models.TextChoices):
    NORMAL = "normal", "Game"
    BYE = "bye", "Bye"
    FORFEIT = "forfeit", "Forfeit loss"
    LATE_FORFEIT = "late_forfeit", "Late-arrival forfeit"
    VOID = "void", "Void / missed round"


class GameStatus(models.TextChoices):
    PAIRED = "paired", "Paired"
    SUBMITTED = "submitted", "Submitted"
    DISPUTED = "disputed", "Disputed"
    CONFIRMED = "confirmed", "Confirmed"


class Game(models.Model):
    """One row per game (or bye/forfeit, with player_b empty). Scores are after penalties."""

    TRANSITIONS = {
        GameStatus.PAIRED: {GameStatus.SUBMITTED, GameStatus.CONFIRMED},
        GameStatus.SUBMITTED: {GameStatus.CONFIRMED, GameStatus.DISPUTED, GameStatus.SUBMITTED},
        GameStatus.DISPUTED: {GameStatus.CONFIRMED},
        GameStatus.CONFIRMED: {GameStatus.CONFIRMED},  # a director may correct a confirmed result
    }

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    round_number = models.PositiveIntegerField()  # denormalised for fast rating reads
    board = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=15, choices=GameKind.choices, default=GameKind.NORMAL)
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.PAIRED)
    player_a = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="games_as_a")
    player_b = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="games_as_b"
    )
    score_a = models.IntegerField(null=True, blank=True)
    score_b = models.IntegerField(null=True, blank=True)
    # For byes and forfeits: the spread awarded to player_a (e.g. +50, -50, 0).
    spread_a = models.IntegerField(null=True, blank=True)
    first = models.CharField(max_length=1, choices=[("a", "Player A"), ("b", "Player B")], blank=True)
    overtime_a = models.PositiveIntegerField(default=0, help_text="Seconds over the time control")
    overtime_b = models.PositiveIntegerField(default=0)
    # The scores as played at the table (before time penalties), when the site computed the result.
    played_a = models.IntegerField(null=True, blank=True)
    played_b = models.IntegerField(null=True, blank=True)
    # Who overran the time by the event's forfeit limit (APSP rule) and so forfeited the game.
    overrun = models.CharField(max_length=1, choices=[("a", "Player A"), ("b", "Player B")], blank=True)
    # For events that break a tie by the score before the end-of-game tile adjustment: who was ahead then.
    ahead_before_tiles = models.CharField(
        max_length=5, choices=[("a", "Player A"), ("b", "Player B"), ("level", "Level")], blank=True
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "events_game"  # the table it had before play became an app
        ordering = ["division", "round_number", "board", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player_a"], name="game_one_per_player_a_per_round"),
            models.UniqueConstraint(
                fields=["round", "player_b"],
                condition=Q(player_b__isnull=False),
                name="game_one_per_player_b_per_round",
            ),
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="game_not_against_self"),
        ]
        indexes = [models.Index(fields=["division", "status", "round_number"])]

    def __str__(self):
        return f"R{self.round_number}: {self.player_a_id} v {self.player_b_id or 'bye'}"

    def played(self, side: str) -> int | None:
        """A score as played at the table: as entered, else (imported, older results) stored plus penalty."""
        played = getattr(self, f"played_{side}")
        stored = getattr(self, f"score_{side}")
        if played is not None or stored is None:
            return played
        return stored + pure_results.overtime_penalty(getattr(self, f"overtime_{side}"))

    def penalty(self, side: str) -> int:
        """Points taken off one side's score for time: the overtime penalty (with an overrun forfeit, the
        penalty at the limit and what the forfeit margin took besides)."""
        played = self.played(side)
        stored = getattr(self, f"score_{side}")
        return 0 if played is None or stored is None else max(played - stored, 0)

    @property
    def played_score_a(self) -> int | None:
        return self.played("a")

    @property
    def played_score_b(self) -> int | None:
        return self.played("b")

    @property
    def penalty_a(self) -> int:
        return self.penalty("a")

    @property
    def penalty_b(self) -> int:
        return self.penalty("b")

    @property
    def penalised(self) -> bool:
        """Time changed a recorded score (overtime, or an overrun forfeit)."""
        return self.kind == GameKind.NORMAL and bool(self.penalty_a or self.penalty_b or self.overrun)

    @property
    def tie_winner(self) -> str:
        """ "a"/"b" when a level game was decided by the score before the tile adjustment, else ""."""
        level = self.score_a is not None and self.score_a == self.score_b and not self.overrun
        return self.ahead_before_tiles if level and self.ahead_before_tiles in ("a", "b") else ""

    @property
    def is_rated(self) -> bool:
        return self.kind == GameKind.NORMAL and self.player_b_id is not None and self.status == GameStatus.CONFIRMED


class GameChange(models.Model):
    """Audit trail: every change of a recorded result, with who and when."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        db_table = "events_gamechange"  # the table it had before play became an app
        ordering = ["-changed_at"]

    def __str__(self):
        return f"{self.game} {self.action}"


class CheckIn(models.Model):
    """An entrant reported at the venue (ticked off by a director, or by the player with the venue code)."""

    entry = models.OneToOneField("events.Entry", on_delete=models.CASCADE, related_name="check_in")
    checked_in_at = models.DateTimeField()
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_self = models.BooleanField(default=False, help_text="The player checked in with the venue code")

    class Meta:
        db_table = "events_checkin"  # the table it had before play became an app

    def __str__(self):
        return f"{self.entry} checked in"


class LuckyDraw(models.Model):
    """A lucky draw among a division's eligible non-prize-winners, stored so anyone can re-run and check it:
    the same seed and the same ordered candidates always give the same winners (events.play.core.draw)."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="lucky_draws")
    seed = models.BigIntegerField()
    winners_wanted = models.PositiveIntegerField()
    candidates = models.JSONField(default=list, help_text="Player ids, in the order drawn from")
    winners = models.JSONField(default=list, help_text="Player ids, in the order drawn")
    excluded = models.JSONField(default=list, help_text="Prize winners left out (player ids)")
    note = models.CharField(max_length=200, blank=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "events_luckydraw"  # the table it had before play became an app
        ordering = ["division", "-drawn_at", "-pk"]

    def __str__(self):
        return f"{self.division} lucky draw {self.seed}"
