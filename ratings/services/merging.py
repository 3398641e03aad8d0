"""A player's ratings when staff make two records of one person one (players.merging): the rating history follows
the person, and each list the old record was rated on is re-rated from the earliest event it played there."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Min

from players.models import Player

from ..models import PlayerRating, RatingChange, RatingList, SnapshotEntry
from .runs import queue_rerate


def follow_merge(keep: Player, drop: Player, actor) -> dict[int, object]:
    """Before the merge moves the old record's rows: a list both were on keeps the kept record's standing, the old
    one's going (the re-rate works the kept one out again from the whole history, both records' events in it); a
    snapshot naming both keeps the kept record's row. The rating changes themselves move with the merge. Each list
    with rated events of the old record is queued to re-rate on commit from the earliest of them (the kept record's
    events before that day are as they were). Returns the lists and days queued."""
    earliest = dict(
        RatingChange.objects.filter(player=drop)
        .order_by()
        .values("rating_list")
        .annotate(day=Min("event_date"))
        .values_list("rating_list", "day")
    )
    for list_id, day in earliest.items():
        _carry_history_in(keep, drop, list_id, day)
    kept_lists = PlayerRating.objects.filter(player=keep).values("rating_list")
    PlayerRating.objects.filter(player=drop, rating_list__in=kept_lists).delete()
    kept_snapshots = SnapshotEntry.objects.filter(player=keep).values("snapshot")
    SnapshotEntry.objects.filter(player=drop, snapshot__in=kept_snapshots).delete()
    if earliest:
        lists = RatingList.objects.in_bulk(list(earliest))

        def rerate():
            for list_id, day in earliest.items():
                queue_rerate(actor, lists[list_id], day)

        transaction.on_commit(rerate)
    return earliest


def _carry_history_in(keep: Player, drop: Player, list_id: int, day) -> None:
    """A re-rate from `day` starts each player from the `pre` of their first change on or after it (ratings.services.
    compute.states_before). The old record's first change there says where the old record stood (often a newcomer's
    0); once merged, the person came to it with the kept record's standing before that day: its last change before
    it (its rating after, its games counted, the state it carried on), else where it started on the list. Written
    on the person's first change from that day, so the re-rate starts the person from there."""
    last = (
        RatingChange.objects.filter(player=keep, rating_list_id=list_id, event_date__lt=day)
        .order_by("-event_date", "-pk")
        .first()
    )
    standing = PlayerRating.objects.filter(player=keep, rating_list_id=list_id).first()
    if last is not None:
        following = (
            RatingChange.objects.filter(player=keep, rating_list_id=list_id, event_date__gte=day)
            .order_by("event_date", "pk")
            .first()
        )
        state = following.pre_state if following else (standing.state if standing else {})
        pre, career = last.post, last.career_games + last.games
    elif standing is not None:
        pre, career, state = standing.seed_rating, standing.seed_games, {}
    else:
        return  # the kept record had no standing on the list before: the old record's own is the person's
    first = (
        RatingChange.objects.filter(player__in=[keep, drop], rating_list_id=list_id, event_date__gte=day)
        .order_by("event_date", "pk")
        .first()
    )
    RatingChange.objects.filter(pk=first.pk).update(pre=pre, career_games=career, pre_state=state or {})
