"""Reading rating lists (ranks, the active-player rule, histories, event reports) and
taking monthly snapshots. Every reader here costs a fixed number of queries."""

from __future__ import annotations

from datetime import date

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from ..models import PlayerRating, RatingChange, RatingList, RatingSnapshot, SnapshotEntry, active_filter, is_active


def months_before(day: date, months: int) -> date:
    """The same day `months` earlier (the last day of the month when that day does not exist)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise AssertionError("unreachable")


def active_since(rating_list: RatingList, today: date | None = None) -> date:
    """Players with a rated game on or after this date are active."""
    return months_before(today or timezone.localdate(), rating_list.active_months)


def default_list() -> RatingList | None:
    return RatingList.objects.select_related("association").first()


def _ranked(rating_list: RatingList, include_inactive: bool, today: date | None) -> QuerySet[PlayerRating]:
    """The players a rank counts among: all rated players, or the active ones."""
    ranked = PlayerRating.objects.filter(rating_list=rating_list, rating__gt=0)
    if not include_inactive:
        ranked = ranked.filter(active_filter(active_since(rating_list, today)))
    return ranked


def rated_players(
    rating_list: RatingList,
    *,
    q: str = "",
    club: str = "",
    country: str = "",
    include_inactive: bool = False,
    today: date | None = None,
) -> QuerySet[PlayerRating]:
    """The list's rated players, best first. Ranks are added per page by `rank_players`."""
    rows = _ranked(rating_list, include_inactive, today).select_related("player__club")
    if q:
        rows = rows.filter(Q(player__full_name__icontains=q) | Q(player__display_name__icontains=q))
    if club:
        rows = rows.filter(player__club__slug=club)
    if country:
        rows = rows.filter(player__country__iexact=country)
    return rows.order_by("-rating", "player__full_name", "player_id")


COUNTS_SECONDS = 3600


def counts_key(rating_list: RatingList, *, include_inactive: bool, today: date | None = None) -> str:
    """Where `RatingPages` keeps the counts of the whole list (no search): they change only when the list's ratings
    are written, which bumps its version, or when a day passes and players fall out of the active ones."""
    day = (today or timezone.localdate()).isoformat()
    window = rating_list.active_months
    return f"rating-counts:{rating_list.pk}:{rating_list.version}:{int(include_inactive)}:{window}:{day}"


class RatingPages:
    """`rows` of `rated_players` (best first) as a sequence for a Paginator, read a rating band at a time.

    One grouped query counts the rows by rating; a page then reads only the ratings it covers, so the
    last page of a long list costs what the first does (an OFFSET would read and sort every row before
    it, with its player). `counted` counts the same rows more cheaply (without joins only a page needs)."""

    def __init__(
        self, rows: QuerySet[PlayerRating], counted: QuerySet[PlayerRating] | None = None, *, kept_as: str = ""
    ) -> None:
        self.rows = rows
        self.counted = rows if counted is None else counted
        self._counts: list[tuple[int, int]] | None = None
        # The counts kept in the cache under this key (`counts_key`), for rows that only a write of the list's
        # ratings changes: the whole list, whose count by rating reads every rated player (31 ms at 178,000).
        self.kept_as = kept_as

    ordered = True  # the Paginator's check for an unordered list

    def counts(self) -> list[tuple[int, int]]:
        """(rating, rows with it), best first."""
        if self._counts is None:
            found = cache.get(self.kept_as) if self.kept_as else None
            if found is None:
                found = list(self.counted.order_by().values_list("rating").annotate(n=Count("pk")).order_by("-rating"))
                if self.kept_as:
                    cache.set(self.kept_as, found, COUNTS_SECONDS)
            self._counts = found
        return self._counts

    def count(self) -> int:
        return sum(n for _rating, n in self.counts())

    def ranks(self) -> dict[int, int]:
        """`rank_map` of these rows, without another query (the list's ranks when the rows are the whole list)."""
        ranks, above = {}, 0
        for rating, n in self.counts():
            ranks[rating] = above + 1
            above += n
        return ranks

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, key: slice) -> list[PlayerRating]:
        start, stop, _step = key.indices(self.count())
        if start >= stop:
            return []
        above, top, skip, bottom = 0, None, 0, None
        for rating, n in self.counts():
            if top is None and above + n > start:
                top, skip = rating, start - above
            above += n
            if above >= stop:
                bottom = rating
                break
        band = self.rows.filter(rating__lte=top, rating__gte=bottom)
        return list(band[skip : skip + stop - start])


def rank_map(
    rating_list: RatingList, *, include_inactive: bool = False, today: date | None = None, min_rating: int = 1
) -> dict[int, int]:
    """Rank of each rating from `min_rating` up, among the players shown when no search is made
    (players level on rating share a rank). One grouped query, however deep the page."""
    counts = (
        _ranked(rating_list, include_inactive, today)
        .filter(rating__gte=min_rating)
        .order_by()
        .values_list("rating")
        .annotate(n=Count("pk"))
        .order_by("-rating")
    )
    ranks, above = {}, 0
    for rating, n in counts:
        ranks[rating] = above + 1
        above += n
    return ranks


def rank_players(
    rating_list: RatingList,
    players,
    *,
    include_inactive: bool = False,
    today: date | None = None,
    ranks: dict[int, int] | None = None,
) -> list[PlayerRating]:
    """Sets `rank` on one page of `rated_players` (a search keeps each player's rank in the whole list).
    `ranks`: the list's rank map when the caller has it already."""
    players = list(players)
    if players:
        if ranks is None:
            ranks = rank_map(
                rating_list, include_inactive=include_inactive, today=today, min_rating=min(p.rating for p in players)
            )
        for p in players:
            p.rank = ranks.get(p.rating)
    return players


def player_history(rating_list: RatingList, player_id: int) -> QuerySet[RatingChange]:
    """The player's rated events on the list, oldest first."""
    return (
        RatingChange.objects.filter(rating_list=rating_list, player_id=player_id)
        .select_related("division__event")
        .order_by("event_date", "pk")
    )


def event_report(event) -> QuerySet[RatingChange]:
    """Every rated player of the event: by list, division, then new rating."""
    return (
        RatingChange.objects.filter(division__event=event)
        .select_related("player__club", "division__event", "rating_list")
        .order_by(
            "rating_list__position", "rating_list_id", "division__position", "division__name", "-post", "player_id"
        )
    )


def take_snapshot(rating_list: RatingList, day: date | None = None) -> RatingSnapshot:
    """The list as it stands now, filed under `day` (today). Taking it again replaces it."""
    day = day or timezone.localdate()
    since = months_before(day, rating_list.active_months)
    with transaction.atomic():
        RatingList.objects.select_for_update().get(pk=rating_list.pk)
        snapshot, _ = RatingSnapshot.objects.get_or_create(rating_list=rating_list, taken_on=day)
        snapshot.entries.all().delete()
        rows = list(
            PlayerRating.objects.filter(rating_list=rating_list, rating__gt=0)
            .order_by("-rating", "player_id")
            .values_list("player_id", "rating", "games", "last_played", "ranked_on_import")
        )
        entries = []
        rank = 0
        previous = None
        active = [r for r in rows if is_active(r[3], r[4], since)]
        for i, (pid, rating, games, last, _ranked) in enumerate(active, start=1):
            if rating != previous:
                rank, previous = i, rating
            entries.append(
                SnapshotEntry(snapshot=snapshot, player_id=pid, rank=rank, rating=rating, games=games, last_played=last)
            )
        entries += [
            SnapshotEntry(snapshot=snapshot, player_id=pid, rank=None, rating=rating, games=games, last_played=last)
            for pid, rating, games, last, ranked in rows
            if not is_active(last, ranked, since)
        ]
        SnapshotEntry.objects.bulk_create(entries, batch_size=1000)
    return snapshot


def take_monthly_snapshots(day: date | None = None) -> list[RatingSnapshot]:
    return [take_snapshot(rating_list, day) for rating_list in RatingList.objects.all()]


def snapshot_entries(snapshot: RatingSnapshot, *, include_inactive: bool = False) -> QuerySet[SnapshotEntry]:
    rows = snapshot.entries.select_related("player__club")
    if not include_inactive:
        rows = rows.filter(rank__isnull=False)
    return rows.order_by(F("rank").asc(nulls_last=True), "-rating", "player__full_name")
