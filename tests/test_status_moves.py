"""Every status moves through clubsite.kit.status: `move` for one object, `move_all` for a queryset's rows, each
along its model's TRANSITIONS; and no other code writes a status."""

import ast
from datetime import date
from pathlib import Path

import pytest
from django.utils import timezone

from clubsite.kit.errors import ServiceError
from clubsite.kit.status import TransitionRefused, move, move_all
from events.play.models import Division, Round, RoundStatus
from ratings.models import ImportStatus, RatingImport, RatingRun, RunStatus
from ratings.services import imports
from tests.events.factories import EventFactory
from tests.factories import UserFactory
from tests.ratings.factories import RatingListFactory

ROOT = Path(__file__).resolve().parents[1]


# Ratings --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_finished_rating_run_cannot_be_queued_or_failed_again():
    run = RatingRun.objects.create(rating_list=RatingListFactory(), from_date=date(2024, 1, 1), status=RunStatus.DONE)
    with pytest.raises(TransitionRefused, match="A done rating run cannot become queued"):
        move(run, RunStatus.QUEUED)
    assert run.status == RunStatus.DONE
    # Failing a finished run (as a worker that stops late does) leaves it as it was.
    assert move_all(RatingRun.objects.filter(pk=run.pk), RunStatus.FAILED, only_movable=True, error="late") == 0
    run.refresh_from_db()
    assert (run.status, run.error) == (RunStatus.DONE, "")


@pytest.mark.django_db
def test_an_applied_rating_import_cannot_be_cancelled():
    staff = UserFactory(is_staff=True)
    imp = RatingImport.objects.create(
        rating_list=RatingListFactory(), as_of=date(2024, 1, 1), status=ImportStatus.APPLIED
    )
    with pytest.raises(TransitionRefused, match="An applied rating import cannot become cancelled"):
        move(imp, ImportStatus.CANCELLED)
    with pytest.raises(ServiceError, match="This import is already applied"):
        imports.cancel_rating_import(staff, imp)
    imp.refresh_from_db()
    assert imp.status == ImportStatus.APPLIED


# The bulk form --------------------------------------------------------------------------------------------


@pytest.fixture
def rounds():
    """Rounds 1–2 published, round 3 a draft."""
    division = Division.objects.create(event=EventFactory(), name="A")
    for number, status in ((1, RoundStatus.PUBLISHED), (2, RoundStatus.PUBLISHED), (3, RoundStatus.DRAFT)):
        Round.objects.create(division=division, number=number, status=status)
    return Round.objects.filter(division=division)


def _statuses(rounds) -> list[str]:
    return list(rounds.order_by("number").values_list("status", flat=True))


@pytest.mark.django_db
def test_moving_rows_in_bulk_refuses_all_when_one_cannot_move(rounds):
    with pytest.raises(TransitionRefused, match="A draft round cannot become complete"):
        move_all(rounds, RoundStatus.COMPLETE)
    assert _statuses(rounds) == [RoundStatus.PUBLISHED, RoundStatus.PUBLISHED, RoundStatus.DRAFT]  # none moved

    assert move_all(rounds.exclude(number=3), RoundStatus.COMPLETE) == 2
    assert _statuses(rounds) == [RoundStatus.COMPLETE, RoundStatus.COMPLETE, RoundStatus.DRAFT]


@pytest.mark.django_db
def test_moving_only_the_movable_rows_leaves_the_others_as_they_are(rounds):
    assert move_all(rounds, RoundStatus.COMPLETE, only_movable=True) == 2
    assert _statuses(rounds) == [RoundStatus.COMPLETE, RoundStatus.COMPLETE, RoundStatus.DRAFT]
    # A complete round is not complete "again": nothing moves, nothing is refused.
    assert move_all(rounds, RoundStatus.COMPLETE, only_movable=True) == 0


@pytest.mark.django_db
def test_moving_rows_in_bulk_sets_the_other_fields_with_the_status(rounds):
    moment = timezone.now()
    move_all(rounds.filter(number=3), RoundStatus.PUBLISHED, published_at=moment)
    assert rounds.get(number=3).published_at == moment


# No other writes ------------------------------------------------------------------------------------------

# The one home of status writes.
HOME = ROOT / "clubsite" / "kit" / "status.py"
# Deliberate exceptions, by (path from the project root, the line's code), each with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    (
        "events/services/status.py",
        "event.status, event.registration_closed_at = locked.status, locked.registration_closed_at",
    ): "copies onto the caller's stale copy of the event the status its locked row was moved to (by move, in "
    "sync_status): a refresh, not a move",
}


def _project_files():
    skip = {".venv", "node_modules", "tests", "migrations", ".git"}
    for path in sorted(ROOT.rglob("*.py")):
        if skip & set(path.relative_to(ROOT).parts) or path == HOME:
            continue
        yield path


def _status_writes(tree: ast.AST) -> list[int]:
    """Lines that write a status other than by move/move_all: `x.status = …` (also in a tuple, augmented or
    annotated), `setattr(x, "status", …)`, `.update(status=…)` and `.bulk_update(…, ["status", …])`."""
    lines = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr == "status" and isinstance(part.ctx, ast.Store):
                    lines.append(node.lineno)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "setattr" and len(node.args) > 1:
            if isinstance(node.args[1], ast.Constant) and node.args[1].value == "status":
                lines.append(node.lineno)
        elif name == "update" and isinstance(func, ast.Attribute):
            if any(k.arg == "status" for k in node.keywords):
                lines.append(node.lineno)
        elif name == "bulk_update":
            fields = (
                node.args[1]
                if len(node.args) > 1
                else next((k.value for k in node.keywords if k.arg == "fields"), None)
            )
            if fields is not None and any(
                isinstance(c, ast.Constant) and c.value == "status" for c in ast.walk(fields)
            ):
                lines.append(node.lineno)
    return sorted(lines)


def test_no_code_writes_a_status_but_move_and_move_all():
    found = []
    for path in _project_files():
        text = path.read_text()
        source = text.splitlines()
        for line in _status_writes(ast.parse(text)):
            where = (str(path.relative_to(ROOT)), source[line - 1].strip())
            if where not in ALLOWED:
                found.append(f"{where[0]}:{line}: {where[1]}")
    assert found == [], "write statuses with clubsite.kit.status.move or move_all:\n" + "\n".join(found)


def test_the_scan_finds_each_kind_of_status_write():
    code = """
obj.status = "x"
a.b, obj.status = 1, "x"
setattr(obj, "status", "x")
Model.objects.filter(pk=1).update(status="x", other=1)
Model.objects.bulk_update(rows, ["status"])
Model.objects.update(other=1)
Model.objects.filter(status="x")
Model(status="x")
status = "x"
"""
    assert _status_writes(ast.parse(code)) == [2, 3, 4, 5, 6]
