"""Background work of ratings that celery beat starts. Tasks take primary keys and are safe to run twice. The tasks
a service queues live beside it (`services.runs.run_rating`, `services.live.refresh_live_ratings`)."""

from celery import shared_task


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
