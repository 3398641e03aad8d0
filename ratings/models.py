"""Rating lists, the players' ratings on them, rating runs and their per-player results.

The rules live in ratings.services; the mathematics in ratings.engine. A list's current
ratings (`PlayerRating`) are always the fold of its seeds and its `RatingChange` rows, in the
order the events began: re-rating recomputes the changes from a date onwards and rewrites both
in one transaction.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class RatingSystem(models.TextChoices):
    NASPA = "naspa", "NASPA Elo"
    WESPA = "wespa", "WESPA"
    ABSP = "absp", "ABSP (UK)"
    GLICKO2 = "glicko2", "Glicko-2"


class RatingList(models.Model):
    """One list of ratings kept by an association, for example one per lexicon."""

    association = models.ForeignKey("players.Association", on_delete=models.PROTECT, related_name="rating_lists")
    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    lexicon = models.CharField(max_length=20, blank=True, help_text="For example CSW24 or NWL23")
    system = models.CharField(max_length=10, choices=RatingSystem.choices, default=RatingSystem.NASPA)
    settings = models.JSONField(default=dict, blank=True, help_text='System options, e.g. {"tau": 0.5} for Glicko-2')
    provisional_games = models.PositiveIntegerField(
        default=20, help_text="A rating is provisional until the player has this many rated games"
    )
    active_months = models.PositiveIntegerField(
        default=12, help_text="Players with a rated game in this many months are listed by default"
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text="Lists are shown in this order; the first is the default"
    )
    # Bumped by every write of ratings: a run computed on an older version is recomputed under the lock.
    version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["position", "name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("ratings:list_detail", args=[self.slug])


class PlayerRating(models.Model):
    """A player's current standing on one list.

    `seed_rating`/`seed_games` are where the player started on this list (an imported rating,
    0 for a newcomer); everything else follows from the rated events.
    """

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="ratings")
    rating = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0, help_text="Career rated games")
    peak = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)
    seed_rating = models.PositiveIntegerField(default=0)
    seed_games = models.PositiveIntegerField(default=0)
    seed_on = models.DateField(null=True, blank=True)
    # An imported list ranks the players active when it was published ("-" for the others): they count as
    # active from that day, as a rated game would make them, until their own games say more. The list does not
    # say when they last played, so last_played stays empty.
    ranked_on_import = models.DateField(
        null=True, blank=True, help_text="The date of the imported list that ranked this player (active then)"
    )
    deviation = models.FloatField(null=True, blank=True, help_text="Glicko-2 rating deviation")
    # What else the list's system carries from event to event (e.g. Glicko-2 volatility).
    state = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["rating_list", "-rating", "player"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "player"], name="one_rating_per_player_per_list")]
        indexes = [
            models.Index(fields=["rating_list", "-rating"]),
            models.Index(fields=["rating_list", "last_played"]),
        ]

    def __str__(self):
        return f"{self.player_id} {self.rating} on {self.rating_list_id}"

    def is_provisional(self, provisional_games: int) -> bool:
        return self.games < provisional_games

    def is_active(self, since: date) -> bool:
        return is_active(self.last_played, self.ranked_on_import, since)


def is_active(last_played: date | None, ranked_on_import: date | None, since: date) -> bool:
    """The active-player rule (active_since, in ratings.services.lists, gives `since`): a rated game on or after
    `since`, or a rank on an imported list dated on or after it. active_filter is the same rule for queries."""
    return any(day is not None and day >= since for day in (last_played, ranked_on_import))


def active_filter(since: date, prefix: str = "") -> Q:
    """is_active as a query condition on PlayerRating fields reached through `prefix`."""
    return Q(**{f"{prefix}last_played__gte": since}) | Q(**{f"{prefix}ranked_on_import__gte": since})


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class RatingRun(models.Model):
    """One rating of a list from a date onwards: for an event just finalised, a corrected result,
    or staff re-rating from a date. The task records its progress here."""

    TRANSITIONS = {
        # Queued again (and so to itself) when its task never arrived (ratings.services.sweep_stale_runs).
        RunStatus.QUEUED: {RunStatus.RUNNING, RunStatus.FAILED, RunStatus.QUEUED},
        # A run whose worker was lost is queued again by the sweep, or taken over (running again) by its
        # task delivered a second time (ratings.services.execute_run).
        RunStatus.RUNNING: {RunStatus.DONE, RunStatus.FAILED, RunStatus.QUEUED, RunStatus.RUNNING},
        RunStatus.DONE: set(),
        RunStatus.FAILED: set(),
    }

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="runs")
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="rating_runs"
    )
    from_date = models.DateField(help_text="Events that began on or after this date are (re-)rated")
    reason = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Written every few seconds while a worker carries the run out (and when it is queued):
    # a run whose heartbeat stops is queued again (ratings.services.sweep_stale_runs).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker started this run")
    finished_at = models.DateTimeField(null=True, blank=True)
    events_rated = models.PositiveIntegerField(default=0)
    players_rated = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(progress__lte=100), name="rating_run_progress_percent"),
        ]

    def __str__(self):
        return f"Run {self.pk} of {self.rating_list_id} from {self.from_date} ({self.status})"

    def get_absolute_url(self):
        return reverse("ratings:run", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (RunStatus.DONE, RunStatus.FAILED)


class RatedEvent(models.Model):
    """The ledger of events rated on a list: re-rating from a date re-rates these, in order."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rated_events")
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="rated_on")
    starts_on = models.DateField()
    run = models.ForeignKey(RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["rating_list", "starts_on", "event"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "event"], name="event_rated_once_per_list")]

    def __str__(self):
        return f"{self.event_id} on {self.rating_list_id}"


class RatingChange(models.Model):
    """One player's result of one rated division: the row of an event's rating report.

    Rows are written in rating order, and a run rewrites the rows from a point in that order
    onwards, so a player's rows in id order are in rating order. The event is the division's.
    Indexes are kept to those the pages and services read (each is named below); every extra
    one is paid for on each row a re-rate writes.
    """

    # The run page lists its rows.
    run = models.ForeignKey(RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes")
    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="changes", db_index=False)
    division = models.ForeignKey(
        "play.Division", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    event_date = models.DateField(help_text="When the event began (denormalised for the history)")
    pre = models.PositiveIntegerField(help_text="0 = unrated before the event")
    post = models.PositiveIntegerField()
    career_games = models.PositiveIntegerField(help_text="Rated games before the event")
    games = models.PositiveIntegerField()
    expected = models.FloatField(null=True, blank=True, help_text="Expected wins (not in ABSP)")
    actual = models.FloatField()
    k = models.FloatField(default=0)
    bonus = models.FloatField(default=0)
    feedback = models.FloatField(default=0)
    performance = models.FloatField(null=True, blank=True)
    is_newcomer = models.BooleanField(default=False)
    deviation = models.FloatField(null=True, blank=True, help_text="Glicko-2 deviation after the event")
    # The system's carried state before the event (see PlayerRating.state), to re-rate from here.
    pre_state = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["rating_list", "event_date", "division", "-post"]
        constraints = [
            # Also the index of an event's report (division first) and of deleting a division.
            models.UniqueConstraint(fields=["division", "rating_list", "player"], name="one_change_per_division_player")
        ]
        indexes = [
            # A player's history; peaks before a re-rate's start.
            models.Index(fields=["rating_list", "player", "event_date"], name="rating_change_history"),
            # The rows from a re-rate's start onwards (and ratings as of a day).
            models.Index(fields=["rating_list", "event_date"], name="rating_change_from_day"),
        ]

    def __str__(self):
        return f"{self.player_id}: {self.pre} → {self.post}"

    @property
    def event(self):
        return self.division.event

    @property
    def change(self) -> int:
        return self.post - self.pre if self.pre else 0


class RatingSnapshot(models.Model):
    """A list as it stood on a day (taken monthly)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="snapshots")
    taken_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating_list", "-taken_on"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "taken_on"], name="one_snapshot_per_list_per_day")
        ]

    def __str__(self):
        return f"{self.rating_list} on {self.taken_on}"


class SnapshotEntry(models.Model):
    snapshot = models.ForeignKey(RatingSnapshot, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="Among active players; empty if inactive")
    rating = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["snapshot", "-rating", "player"]
        verbose_name_plural = "snapshot entries"
        constraints = [models.UniqueConstraint(fields=["snapshot", "player"], name="one_snapshot_entry_per_player")]

    def __str__(self):
        return f"{self.rank or '-'}. {self.player_id} {self.rating}"


class ImportStatus(models.TextChoices):
    REVIEW = "review", "Waiting for review"
    APPLIED = "applied", "Applied"
    CANCELLED = "cancelled", "Cancelled"


class RatingImport(models.Model):
    """A ratings file read into a list: lines are matched to members, doubtful ones reviewed."""

    TRANSITIONS = {
        ImportStatus.REVIEW: {ImportStatus.APPLIED, ImportStatus.CANCELLED},
        ImportStatus.APPLIED: set(),
        ImportStatus.CANCELLED: set(),
    }

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="imports")
    filename = models.CharField(max_length=200, blank=True)
    as_of = models.DateField(help_text="The date the imported ratings are valid from")
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.REVIEW)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Import {self.pk} into {self.rating_list}"

    def get_absolute_url(self):
        return reverse("ratings:import_review", args=[self.pk])


class MatchKind(models.TextChoices):
    EXACT = "exact", "Matched by name"
    REVIEW = "review", "Needs review"
    NEW = "new", "New player"


class RatingImportLine(models.Model):
    rating_import = models.ForeignKey(RatingImport, on_delete=models.CASCADE, related_name="lines")
    line_number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    rating = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    expires_on = models.DateField(null=True, blank=True)
    games = models.PositiveIntegerField()
    match = models.CharField(max_length=10, choices=MatchKind.choices)
    candidates = models.JSONField(default=list, blank=True, help_text="Player ids of close matches, best first")
    player = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["rating_import", "line_number"]

    def __str__(self):
        return f"line {self.line_number}: {self.name}"
