"""Matching a long bank statement in the background.

A review looks up what each reference of the statement names (money.payables.due_for: a query or a few each, about
a millisecond). Up to SYNC_LOOKUPS references that is done while the page waits; a statement naming more (a year's
export, a file of 100,000 transfers each with a reference of its own: a hundred seconds) is matched by
`match_statement`, queued through clubsite.kit.tasks.enqueue. The task looks the references up in chunks, each
locked as the review locks (so a place past its time to pay has lapsed), records its progress in the site's cache
for the page's progress bar, and keeps what it found (`statements.Lookups`) for `statements.LOOKUPS_SECONDS`. The
review then reads that, looking up at once only what it lacks (a reference assigned by hand since), and says when
the matching was made. Nothing is lost if the task never runs: once its progress has not moved for STALE_SECONDS
the page queues it again.

Confirming looks again, locked, at what it records a payment for (statements.confirm); for a long statement it
needs the matching kept, and starts it again when it has expired.
"""

from __future__ import annotations

from dataclasses import dataclass

from celery import shared_task
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from clubsite.kit.tasks import enqueue

from ..models import Statement
from ..payables import due_for
from . import statements
from .ledger import MoneyError
from .statements import Lookups, Review, kept_lookups, lookups_key, references_of

SYNC_LOOKUPS = 1_000  # references looked up while the page waits: a second or a few
CHUNK = 200  # references looked up in one transaction by the background matching
STALE_SECONDS = 10 * 60  # a matching whose progress has not moved for this long is started again


@dataclass(frozen=True)
class Matching:
    """A statement being matched in the background: `done` of its `total` references looked up."""

    statement: Statement
    done: int
    total: int
    error: str = ""  # why the matching could not be kept

    @property
    def progress(self) -> int:
        return min(100, self.done * 100 // self.total) if self.total else 0


def matching_key(statement: Statement) -> str:
    return f"money:statement:{statement.pk}:matching"


def _state(statement: Statement, total: int) -> Matching:
    found = cache.get(matching_key(statement))
    if isinstance(found, dict):
        return Matching(statement, found.get("done", 0), found.get("total", total), found.get("error", ""))
    return Matching(statement, 0, total)


def start_matching(statement: Statement, total: int) -> Matching:
    """Queues the background matching unless it is under way; what it has done so far."""
    if cache.add(matching_key(statement), {"done": 0, "total": total}, STALE_SECONDS):
        enqueue(match_statement, statement.pk)
    return _state(statement, total)


def progress(statement: Statement) -> Matching | None:
    """How far the background matching has got; None when none is under way (done, or never needed)."""
    found = cache.get(matching_key(statement))
    return _state(statement, 0) if isinstance(found, dict) else None


def review_or_matching(statement: Statement) -> Review | Matching:
    """The review of a statement not yet confirmed, as `statements.review` gives it; for a long statement, from
    the matching kept, or, while there is none, the background matching's progress (started if need be)."""
    parsed = statements.parse(statement)
    needed = references_of(statement, parsed.lines)
    kept = kept_lookups(statement) if len(needed) > SYNC_LOOKUPS else None
    if len(needed) > SYNC_LOOKUPS and (kept is None or len(needed - kept.dues.keys()) > SYNC_LOOKUPS):
        return start_matching(statement, len(needed))
    with transaction.atomic():
        return statements.review_of(statement, parsed, kept)


def match_again(actor, statement: Statement) -> Review | Matching:
    """Drops the matching kept, so the review looks up again what every line pays for."""
    statements.check_staff(actor)
    cache.delete(lookups_key(statement))
    return review_or_matching(statement)


def confirm(actor, statement: Statement, *, with_errors: bool = False) -> Review:
    """statements.confirm, for the page: a long statement whose matching has expired is matched again first
    (refused, saying so), so confirming never looks up every reference while the page waits."""
    statements.check_staff(actor)
    parsed = statements.parse(statement)
    needed = references_of(statement, parsed.lines)
    if len(needed) > SYNC_LOOKUPS and not statement.confirmed_at and kept_lookups(statement) is None:
        start_matching(statement, len(needed))
        raise MoneyError(
            f"The statement names {len(needed):,} references: they are being matched again. Confirm once the "
            "review shows its lines."
        )
    return statements.confirm(actor, statement, with_errors=with_errors, parsed=parsed)


# Defined beside the service that queues it, so no service and task import each other.
@shared_task(name="money.match_statement", ignore_result=True)
def match_statement(statement_id: int) -> None:
    """Looks up what every reference of the statement names and keeps it for its review. Safe to run twice: the
    second looks them up again."""
    statement = Statement.objects.filter(pk=statement_id, confirmed_at__isnull=True).first()
    if statement is None:
        cache.delete(f"money:statement:{statement_id}:matching")
        return
    needed = sorted(references_of(statement, statements.parse(statement).lines))
    at = timezone.now()
    dues = {}
    for start in range(0, len(needed), CHUNK):
        with transaction.atomic():
            for reference in needed[start : start + CHUNK]:
                found = due_for(reference, lock=True)
                dues[reference] = found[1] if found else None
        done = min(start + CHUNK, len(needed))
        cache.set(matching_key(statement), {"done": done, "total": len(needed)}, STALE_SECONDS)
    cache.set(lookups_key(statement), Lookups(at, dues), statements.LOOKUPS_SECONDS)
    if kept_lookups(statement) is None:  # a cache that refuses so large a value (memcached's 1 MB)
        error = f"The matching of {len(needed):,} references is too large for the site's cache: upload it in parts."
        cache.set(matching_key(statement), {"done": len(needed), "total": len(needed), "error": error}, STALE_SECONDS)
        return
    cache.delete(matching_key(statement))
