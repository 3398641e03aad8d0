"""Staff make two records of one person one: everything the old record holds moves to the kept one, and the old goes.

The rule (one function, `merge_players`, which the admin's action and page call):
- only association staff merge, with a reason, which is logged (PlayerMerge) with what moved;
- both records are locked; two accounts cannot be merged (one person logs in with one), and the account of the old
  record passes to the kept one when that has none;
- what the two hold must fit one person: the same event entered twice while active, seats in the same division
  (the two played each other, or one twice), two open renewals, two pending claims by one account. Such a merge is
  refused, naming what clashes, before anything moves;
- apps with rows worked out from a player's history hear `records_merging` first, in the same transaction: the
  ratings app moves the rating history and re-rates each list from the earliest event the old record played on it;
- every other row pointing at the old record (entries, seats, games, memberships, renewals, claims, earlier merges)
  points at the kept record; the kept record's empty facts (date of birth, email, phone, school, club) take the old
  one's; the old member number then leads to the kept record's page.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.db import IntegrityError, models, transaction
from django.dispatch import Signal

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff
from clubsite.kit.text import check_text

from .models import Player, PlayerMerge

# Sent inside merge_players' transaction before the rows move: `keep`, `drop` (Players, locked), `actor`. A receiver
# moves or removes the rows of its app that cannot simply point at the kept record, and queues what follows on commit.
records_merging = Signal()

FILLED_FROM_OLD = ("date_of_birth", "email", "phone", "school", "club", "id_last4")


class MergeError(ServiceError):
    pass


def _relations():
    """Every foreign key to Player, hidden ones too (a rating snapshot's rows, an import's lines)."""
    return [
        field
        for field in Player._meta.get_fields(include_hidden=True)
        if field.is_relation and field.auto_created and not field.concrete and field.related_model is not Player
    ]


# What staff call what a record holds, where the model's name is not it.
_PLAIN_NAMES = {"division players": "seats in divisions", "player ratings": "ratings on lists"}


def _label(rel) -> str:
    name = str(rel.related_model._meta.verbose_name_plural)
    name = _PLAIN_NAMES.get(name, name)
    # A game names its two players in two fields: counted together, "games".
    return (
        name if rel.field.name in ("player", "player_a", "player_b") else f"{name} ({rel.field.name.replace('_', ' ')})"
    )


def holdings(player: Player) -> list[tuple[str, int]]:
    """What a record holds, by kind, for the merge page: entries, seats, games, ratings, memberships, renewals, claims
    (one count a relation; a relation holding nothing is left out)."""
    counts = []
    for rel in _relations():
        if rel.related_model is PlayerMerge:
            continue
        count = rel.related_model._base_manager.filter(**{rel.field.name: player}).count()
        if count:
            counts.append((_label(rel), count))
    merged: dict[str, int] = {}
    for label, count in counts:
        merged[label] = merged.get(label, 0) + count
    return list(merged.items())


def paid(player: Player) -> dict[str, object]:
    """Money paid through what the record holds (entries, renewals): the sum of their amounts paid, by kind."""
    sums = {}
    for rel in _relations():
        try:
            rel.related_model._meta.get_field("amount_paid")
        except FieldDoesNotExist:
            continue
        total = rel.related_model._base_manager.filter(**{rel.field.name: player}).aggregate(
            total=models.Sum("amount_paid")
        )["total"]
        if total:
            sums[_label(rel)] = total
    return sums


def _clashes(keep: Player, drop: Player) -> list[str]:
    """What the two hold that one person cannot: a unique constraint over the player and other fields that a row of
    each would meet (within the constraint's condition)."""
    found = []
    for rel in _relations():
        model, name = rel.related_model, rel.field.name
        for constraint in model._meta.constraints:
            fields = list(getattr(constraint, "fields", ()) or ())
            if not isinstance(constraint, models.UniqueConstraint) or name not in fields:
                continue
            others = [f for f in fields if f != name]
            rows = model._base_manager.all()
            if constraint.condition is not None:
                rows = rows.filter(constraint.condition)
            if not others:
                if rows.filter(**{name: keep}).exists() and rows.filter(**{name: drop}).exists():
                    found.append(f"both have {model._meta.verbose_name_plural} of which one person may have one")
                continue
            kept = set(rows.filter(**{name: keep}).values_list(*others))
            for values in rows.filter(**{name: drop}).values_list(*others).distinct():
                if values in kept:
                    what = ", ".join(_shown(model, f, v) for f, v in zip(others, values, strict=True))
                    found.append(f"both have {model._meta.verbose_name} for {what}")
    return found


def _shown(model, field_name: str, value) -> str:
    field = model._meta.get_field(field_name)
    if field.is_relation and value is not None:
        target = field.related_model._base_manager.filter(pk=value).first()
        return f"{field.verbose_name} {target}" if target else f"{field.verbose_name} {value}"
    return f"{field.verbose_name} {value}"


def merge_players(actor, keep: Player, drop: Player, reason: str) -> PlayerMerge:
    """Makes `drop` part of `keep` (the module's rule); returns the log of the merge."""
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff merge member records.")
    reason = (reason or "").strip()
    if not reason:
        raise MergeError("Say why the two records are one person (it is kept with the merge).", field="reason")
    check_text(PlayerMerge, "reason", reason, MergeError)
    if keep.pk == drop.pk:
        raise MergeError("Choose two different records.", field="drop")
    with transaction.atomic():
        locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk]).order_by("pk")}
        if len(locked) != 2:
            raise MergeError("One of the two records no longer exists.")
        keep, drop = locked[keep.pk], locked[drop.pk]
        if keep.user_id and drop.user_id:
            raise MergeError(
                f"Both records have an account (members {keep.member_number} and {drop.member_number}): one person "
                "logs in with one. Ask the person which they use, and close the other first.",
                field="drop",
            )
        moved = {label: count for label, count in holdings(drop)}
        records_merging.send(sender=Player, keep=keep, drop=drop, actor=actor)
        if clashes := _clashes(keep, drop):
            raise MergeError(
                f"Members {keep.member_number} and {drop.member_number} cannot be one person as they stand: "
                + "; ".join(clashes)
                + ".",
                field="drop",
            )
        try:
            with transaction.atomic():
                for rel in _relations():
                    rel.related_model._base_manager.filter(**{rel.field.name: drop}).update(**{rel.field.name: keep})
        except IntegrityError:
            raise MergeError(
                f"Members {keep.member_number} and {drop.member_number} hold records that cannot be one person's "
                "(a game between the two?). Nothing was merged.",
                field="drop",
            ) from None
        user = drop.user
        for name in FILLED_FROM_OLD:
            if not getattr(keep, name) and getattr(drop, name):
                setattr(keep, name, getattr(drop, name))
        log = PlayerMerge.objects.create(
            kept=keep,
            old_member_number=drop.member_number,
            old_full_name=drop.full_name,
            reason=reason,
            moved=moved,
            merged_by=actor if getattr(actor, "pk", None) else None,
        )
        drop.delete()
        if user is not None and not keep.user_id:
            keep.user = user
        keep.save()
    return log


def merged_into(member_number: int) -> Player | None:
    """The record an old member number was merged into, if it was."""
    log = PlayerMerge.objects.filter(old_member_number=member_number).select_related("kept").first()
    return log.kept if log else None
