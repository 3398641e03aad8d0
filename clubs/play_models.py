"""Play at club nights: one-on-one games (a player submits, the opponent or the club director confirms), multi-player
tables (seed 001, entered from the referee's sheet), the points the club's ladder gives, and the club rating each
member holds (worked out again from the confirmed games whenever they change: clubs.play)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from events.models.event_parts import validate_sensible_date
from events.play.core.ladder import MAX_POINTS
from events.play.core.results import MAX_SCORE, MIN_STORED_SCORE
from events.play.core.tables import MAX_DRAWS, MAX_PLAYERS, MAX_RACK_VALUE

__all__ = ["AHEAD", "SIDES", "ClubPlayRules", "ClubGameStatus", "ClubGame", "ClubTable", "TableSeat", "ClubRating"]

POINTS = [MinValueValidator(0), MaxValueValidator(MAX_POINTS)]


class ClubPlayRules(models.Model):
    """How a club counts its nights: the ladder's points and season, ties, and whether its games are rated."""

    club = models.OneToOneField("players.Club", on_delete=models.CASCADE, related_name="play_rules")
    season_starts_on = models.DateField(
        "season starts",
        null=True,
        blank=True,
        validators=[validate_sensible_date],
        help_text="The ladder counts nights from this date (empty: 1 January)",
    )
    win_points = models.PositiveSmallIntegerField("points for a win", default=2, validators=POINTS)
    tie_points = models.PositiveSmallIntegerField("points for a tie", default=1, validators=POINTS)
    loss_points = models.PositiveSmallIntegerField("points for a loss", default=0, validators=POINTS)
    first_points = models.PositiveSmallIntegerField("points for first at a table", default=4, validators=POINTS)
    second_points = models.PositiveSmallIntegerField("points for second at a table", default=2, validators=POINTS)
    third_points = models.PositiveSmallIntegerField("points for third at a table", default=1, validators=POINTS)
    fourth_points = models.PositiveSmallIntegerField("points for fourth at a table", default=0, validators=POINTS)
    attendance_points = models.PositiveSmallIntegerField("points for coming to a night", default=1, validators=POINTS)
    ties_by_score_before_tiles = models.BooleanField(
        "a tie goes to the higher score before the tile adjustment",
        default=True,
        help_text="Seed rule of multi-player tables; for one-on-one games too when ticked",
    )
    rated = models.BooleanField(
        "rate one-on-one games on the club rating list",
        default=True,
        help_text="Each night is rated as one event, in date order, by the NASPA rule",
    )

    class Meta:
        verbose_name_plural = "club play rules"
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    win_points__lte=MAX_POINTS,
                    tie_points__lte=MAX_POINTS,
                    loss_points__lte=MAX_POINTS,
                    first_points__lte=MAX_POINTS,
                    second_points__lte=MAX_POINTS,
                    third_points__lte=MAX_POINTS,
                    fourth_points__lte=MAX_POINTS,
                    attendance_points__lte=MAX_POINTS,
                ),
                name="clubs_play_points_bounded",
            )
        ]

    def __str__(self):
        return f"Play rules of {self.club_id}"


class ClubGameStatus(models.TextChoices):
    SUBMITTED = "submitted", "Waiting for confirmation"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed"


SIDES = [("a", "Player A"), ("b", "Player B")]
AHEAD = [("a", "Player A"), ("b", "Player B"), ("level", "Level then too")]


class ClubGame(models.Model):
    """A one-on-one game at a club night, as tournaments record one: scores as stored (no clocks at club nights,
    so no time penalties), who went first, who led before the tile adjustment when that breaks a tie."""

    TRANSITIONS = {
        ClubGameStatus.SUBMITTED: {ClubGameStatus.CONFIRMED, ClubGameStatus.DISPUTED},
        ClubGameStatus.DISPUTED: {ClubGameStatus.CONFIRMED},
        ClubGameStatus.CONFIRMED: set(),
    }

    night = models.ForeignKey("clubs.ClubNight", on_delete=models.CASCADE, related_name="games")
    player_a = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="club_games_a")
    player_b = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="club_games_b")
    score_a = models.SmallIntegerField(validators=[MinValueValidator(MIN_STORED_SCORE), MaxValueValidator(MAX_SCORE)])
    score_b = models.SmallIntegerField(validators=[MinValueValidator(MIN_STORED_SCORE), MaxValueValidator(MAX_SCORE)])
    first = models.CharField(max_length=1, choices=SIDES, blank=True)
    ahead_before_tiles = models.CharField(max_length=5, choices=AHEAD, blank=True)
    status = models.CharField(max_length=10, choices=ClubGameStatus.choices, default=ClubGameStatus.SUBMITTED)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    submitted_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["night", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="clubs_game_two_players"),
            models.CheckConstraint(
                condition=Q(score_a__gte=MIN_STORED_SCORE, score_a__lte=MAX_SCORE)
                & Q(score_b__gte=MIN_STORED_SCORE, score_b__lte=MAX_SCORE),
                name="clubs_game_scores_bounded",
            ),
        ]
        indexes = [models.Index(fields=["night", "status"])]

    def __str__(self):
        return f"Game {self.pk} at night {self.night_id}"

    @property
    def tie_winner_side(self) -> str | None:
        if self.score_a == self.score_b and self.ahead_before_tiles in ("a", "b"):
            return self.ahead_before_tiles
        return None


class ClubTable(models.Model):
    """A multi-player table at a club night (seed 001), entered by the club director from the referee's sheet:
    confirmed as entered, as a director's result is at a tournament."""

    night = models.ForeignKey("clubs.ClubNight", on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1), MaxValueValidator(99)])
    went_out = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty: time ran out",
    )
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    entered_at = models.DateTimeField()

    class Meta:
        ordering = ["night", "number", "pk"]

    def __str__(self):
        return f"Table {self.number} at night {self.night_id}"


class TableSeat(models.Model):
    """One player at a table, as the pure rule (events.play.core.tables) placed them: stored with the adjustment
    and place it gave, so pages read them without working the rule again."""

    table = models.ForeignKey(ClubTable, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="club_table_seats")
    seat = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)])
    drawn = models.CharField(max_length=MAX_DRAWS, blank=True, help_text="The tiles drawn for the seats, in order")
    score_before = models.SmallIntegerField(validators=[MinValueValidator(0), MaxValueValidator(MAX_SCORE)])
    tiles_left = models.PositiveSmallIntegerField(validators=[MaxValueValidator(MAX_RACK_VALUE)])
    adjustment = models.SmallIntegerField()
    final = models.SmallIntegerField()
    place = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)])
    shared = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "place", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="clubs_seat_player_once"),
            models.UniqueConstraint(fields=["table", "seat"], name="clubs_seat_once"),
        ]

    def __str__(self):
        return f"Seat {self.seat} of table {self.table_id}"

    @property
    def place_label(self) -> str:
        return f"={self.place}" if self.shared else str(self.place)


class ClubRating(models.Model):
    """A member's rating on their club's list: the confirmed one-on-one games of the club's nights rated in date
    order (clubs.play.rerate_club writes every row of the club at once)."""

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="club_ratings")
    rating = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-rating", "pk"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="clubs_rating_once")]

    def __str__(self):
        return f"{self.player_id}: {self.rating} at {self.club_id}"
