"""Background work of ratings. Tasks take primary keys and are safe to run twice."""

from celery import shared_task


# Acknowledged when done, not when received: a worker killed mid-run leaves the message to be
# delivered again (the run itself is recomputed from its start, and swept up if it is not).
@shared_task(acks_late=True, reject_on_worker_lost=True)
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


@shared_task
def sweep_rating_runs() -> int:
    """Queues again the rating runs whose worker was lost (every minute)."""
    from .services import sweep_stale_runs

    return len(sweep_stale_runs(force=True))
