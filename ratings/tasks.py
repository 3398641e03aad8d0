"""Background work of ratings. Tasks take primary keys and are safe to run twice."""

from celery import shared_task


@shared_task
def run_rating(run_id: int) -> str | None:
    """Carries out a queued rating run (an event, or a list re-rated from a date)."""
    from .services import execute_run

    run = execute_run(run_id)
    return run.status if run else None


@shared_task
def take_monthly_snapshots() -> int:
    """Files every list as it stands (run on the first of each month)."""
    from .services import take_monthly_snapshots as take

    return len(take())
