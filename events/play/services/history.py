"""A player's games across events, seen from their side of the board: the game list, head to head,
records by year and by lexicon. Reads only; each page is a fixed handful of queries whatever the
number of games (the per-game figures are SQL expressions and the summaries SQL aggregates).

Games that count: confirmed results of played games (not byes, forfeits or void rounds) in published
or complete rounds of events that are not drafts. Scores are as recorded (after time penalties).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import (
    Avg,
    Case,
    CharField,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, ExtractYear

from clubsite.kit.wins import format_record
from events.models import EventStatus
from events.play.models import Division, Game, GameKind, GameStatus, GcgRecord, Round, RoundStatus
from players.models import Player, by_family_name
from players.visibility import visible_players, with_profile_visible
from ratings.models import RatingChange, RatingList

PAGE_SIZE = 50
WIN, LOSS, TIE = "W", "L", "T"
RESULTS = {WIN: "Win", LOSS: "Loss", TIE: "Tie"}

# The round and event conditions are written as "no such round (event) that is not published": PostgreSQL
# then looks up the few unpublished rounds and draft events instead of hashing every round and event.
COUNTED = (
    Q(
        status=GameStatus.CONFIRMED,
        kind=GameKind.NORMAL,
        player_b__isnull=False,
        score_a__isnull=False,
        score_b__isnull=False,
    )
    & ~Q(
        Exists(
            Round.objects.filter(pk=OuterRef("round_id")).exclude(
                status__in=[RoundStatus.PUBLISHED, RoundStatus.COMPLETE]
            )
        )
    )
    & ~Q(Exists(Division.objects.filter(pk=OuterRef("division_id"), event__status=EventStatus.DRAFT)))
)


# The event's first day, as an expression the events' date index cannot answer: ordered by the column itself, a
# short page (a player of one event: LIMIT 3) made PostgreSQL walk all 25,000 events newest first looking for the
# player's games (31 ms at 5M games) instead of finding them by player and sorting them (5 ms).
NEWEST_EVENT_FIRST = Coalesce("division__event__starts_on", Value(date.min))


def player_games(player: Player) -> QuerySet[Game]:
    """The player's counted games, newest first, each annotated from the player's side: `my_score`,
    `opponent_score`, `my_spread`, `result` (W/L/T; a level game decided by the score before the tile
    adjustment counts as decided), `opponent_pk`, `year` and `lexicon` (the event's)."""
    mine = Q(player_a=player)
    return (
        Game.objects.filter(COUNTED)
        .filter(Q(player_a=player) | Q(player_b=player))
        .annotate(
            my_side=Case(When(mine, then=Value("a")), default=Value("b"), output_field=CharField()),
            my_score=Case(When(mine, then=F("score_a")), default=F("score_b"), output_field=IntegerField()),
            opponent_score=Case(When(mine, then=F("score_b")), default=F("score_a"), output_field=IntegerField()),
            opponent_pk=Case(When(mine, then=F("player_b_id")), default=F("player_a_id"), output_field=IntegerField()),
            year=ExtractYear("division__event__starts_on"),
            lexicon=F("division__event__lexicon"),
        )
        .annotate(
            my_spread=F("my_score") - F("opponent_score"),
            result=Case(
                When(my_score__gt=F("opponent_score"), then=Value(WIN)),
                When(my_score__lt=F("opponent_score"), then=Value(LOSS)),
                When(Q(overrun="", ahead_before_tiles=F("my_side")), then=Value(WIN)),
                When(Q(overrun="", ahead_before_tiles__in=["a", "b"]), then=Value(LOSS)),
                default=Value(TIE),
                output_field=CharField(),
            ),
        )
        .order_by(NEWEST_EVENT_FIRST.desc(), "-division__event_id", "-division_id", "-round_number")
    )


@dataclass(frozen=True)
class GameFilters:
    year: int | None = None
    lexicon: str = ""
    opponent: str = ""  # part of a name
    result: str = ""  # W, L or T


def filtered(games: QuerySet[Game], filters: GameFilters) -> QuerySet[Game]:
    if filters.year:
        games = games.filter(year=filters.year)
    if filters.lexicon:
        games = games.filter(lexicon=filters.lexicon)
    if filters.result in RESULTS:
        games = games.filter(result=filters.result)
    if q := filters.opponent.strip():
        games = games.filter((Q(my_side="a") & _name_has("b", q)) | (Q(my_side="b") & _name_has("a", q)))
    return games


def _name_has(side: str, q: str) -> Q:
    return Q(**{f"player_{side}__full_name__icontains": q}) | Q(**{f"player_{side}__display_name__icontains": q})


def for_listing(games: QuerySet[Game]) -> QuerySet:
    """What a list of games shows, as plain rows (a page of games with their divisions and events as model
    instances cost more than the rest of the page): the game from the player's side, its division and event,
    whether a game record is attached. The players are read by `decorate`, for the page only: joined here,
    PostgreSQL hashes every player (twice) to find a page's."""
    return games.values(
        "pk",
        "round_number",
        "my_score",
        "opponent_score",
        "my_spread",
        "result",
        "opponent_pk",
        "lexicon",
        division_name=F("division__name"),
        event_title=F("division__event__title"),
        event_slug=F("division__event__slug"),
        starts_on=F("division__event__starts_on"),
        has_record=Exists(GcgRecord.objects.filter(game=OuterRef("pk"))),
    )


def decorate(games: list[dict], viewer) -> list[dict]:
    """Sets `opponent` and `opponent_visible` (may the viewer follow a link to the opponent's page) on each row
    of a page (from `for_listing`): one query for the whole page."""
    ids = {g["opponent_pk"] for g in games}
    opponents = {}
    if ids:
        met = with_profile_visible(Player.objects.filter(pk__in=ids), viewer, prefix="")
        opponents = {p.pk: p for p in met}
    for game in games:
        game["opponent"] = opponents[game["opponent_pk"]]
        game["opponent_visible"] = game["opponent"].profile_visible
        game["result_label"] = RESULTS[game["result"]]
    return games


@dataclass(frozen=True)
class Choices:
    years: list[int]
    lexicons: list[str]
    games: int  # all the player's games, the count of the list unfiltered


def choices(player: Player) -> Choices:
    """The years and lexicons the player has games in (for the filters), and how many games: one query."""
    rows = player_games(player).order_by().values_list("year", "lexicon").annotate(games=Count("pk"))
    years, lexicons, games = set(), set(), 0
    for year, lexicon, n in rows:
        years.add(year)
        lexicons.add(lexicon)
        games += n
    return Choices(years=sorted(years, reverse=True), lexicons=sorted(lexicons), games=games)


def opponents(player: Player, viewer) -> QuerySet[Player]:
    """The opponents the player has met whose pages the viewer may see, by family name (one query)."""
    met = player_games(player).order_by().values("opponent_pk")
    return visible_players(viewer, Player.objects.filter(pk__in=met)).order_by(*by_family_name())


# --- summaries ---------------------------------------------------------------------------------


def _summary_aggregates() -> dict:
    return {
        "games": Count("pk"),
        "wins": Count("pk", filter=Q(result=WIN)),
        "losses": Count("pk", filter=Q(result=LOSS)),
        "ties": Count("pk", filter=Q(result=TIE)),
        "high_game": Max("my_score"),
        "high_loss": Max("my_score", filter=Q(result=LOSS)),
        "average_score": Avg("my_score"),
        "average_opponent_score": Avg("opponent_score"),
        "spread": Sum("my_spread"),  # not named as the annotation: it would sum itself
    }


@dataclass
class Summary:
    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    high_game: int | None = None
    high_loss: int | None = None
    average_score: float | None = None
    average_opponent_score: float | None = None
    spread: int | None = None
    rating_peak: int | None = None
    label: str = ""

    @property
    def win_percentage(self) -> float | None:
        """Wins, with ties as half a win, as a percentage of games."""
        return 100 * (self.wins + self.ties / 2) / self.games if self.games else None

    @property
    def record(self) -> str:
        return format_record(self.wins, self.losses, self.ties)


def summary(games: QuerySet[Game]) -> Summary:
    """Wins, losses, ties, high game, high loss and averages of these games (one query)."""
    return Summary(**games.order_by().aggregate(**_summary_aggregates()))


def _summed(groups: list[dict]) -> Summary:
    """One summary of groups of games, each group a row of `_group_aggregates`."""

    def present(key: str) -> list:
        return [group[key] for group in groups if group[key] is not None]

    games = sum(group["games"] for group in groups)
    return Summary(
        games=games,
        wins=sum(present("wins")),
        losses=sum(present("losses")),
        ties=sum(present("ties")),
        high_game=max(present("high_game"), default=None),
        high_loss=max(present("high_loss"), default=None),
        average_score=sum(present("score_total")) / games if games else None,
        average_opponent_score=sum(present("opponent_score_total")) / games if games else None,
        spread=sum(present("spread")) if present("spread") else None,
    )


def _group_aggregates() -> dict:
    """The summary's aggregates with totals in place of averages, so that groups add up."""
    aggregates = _summary_aggregates()
    del aggregates["average_score"], aggregates["average_opponent_score"]
    return aggregates | {"score_total": Sum("my_score"), "opponent_score_total": Sum("opponent_score")}


@dataclass
class Records:
    overall: Summary
    by_year: list[Summary]
    by_lexicon: list[Summary]
    peaks_by_list: list[tuple[str, int]]


def _rating_changes(player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes on every list, found through the (list, player) index: rating changes
    have no index by player alone (each costs every re-rate's writes), so by player only PostgreSQL reads
    them all."""
    return RatingChange.objects.filter(rating_list__in=RatingList.objects.all(), player=player)


def records(player: Player) -> Records:
    """The player's records overall, by year and by lexicon, with rating peaks (four queries): the games are
    read once, grouped by year and lexicon, and the groups added up."""
    groups = list(player_games(player).order_by().values("year", "lexicon").annotate(**_group_aggregates()))
    overall = _summed(groups)
    by_year = {year: _summed([g for g in groups if g["year"] == year]) for year in {g["year"] for g in groups}}
    by_lexicon = {
        lexicon: _summed([g for g in groups if g["lexicon"] == lexicon]) for lexicon in {g["lexicon"] for g in groups}
    }
    year_peaks = dict(
        _rating_changes(player)
        .annotate(year=ExtractYear("event_date"))
        .order_by()
        .values("year")
        .annotate(peak=Max("post"))
        .values_list("year", "peak")
    )
    lexicon_peaks = dict(
        _rating_changes(player)
        .order_by()
        .values("division__event__lexicon")
        .annotate(peak=Max("post"))
        .values_list("division__event__lexicon", "peak")
    )
    list_peaks = list(
        _rating_changes(player)
        .order_by()
        .values("rating_list__name", "rating_list__position")
        .annotate(peak=Max("post"))
        .order_by("rating_list__position", "rating_list__name")
        .values_list("rating_list__name", "peak")
    )
    years = []
    for year in sorted(set(by_year) | set(year_peaks), reverse=True):
        row = by_year.get(year) or Summary()
        row.label, row.rating_peak = str(year), year_peaks.get(year)
        years.append(row)
    lexicons = []
    for lexicon in sorted(set(by_lexicon) | set(lexicon_peaks)):
        row = by_lexicon.get(lexicon) or Summary()
        row.label, row.rating_peak = lexicon or "—", lexicon_peaks.get(lexicon)
        lexicons.append(row)
    overall.rating_peak = max((peak for _, peak in list_peaks), default=None)
    return Records(overall=overall, by_year=years, by_lexicon=lexicons, peaks_by_list=list_peaks)
