"""/healthz: is the site able to serve (database) and to queue background work (broker)? For load balancers and
monitoring: 200 when every part answers, 503 naming the parts that do not."""

import logging

from django.db import InterfaceError, OperationalError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from .hooks import collect

log = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 3


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        return False, f"{type(error).__name__}: {error}".strip()
    return True, "ok"


def database_unavailable(error: BaseException | None) -> bool:
    """Whether `error` is the database not answering: a connection error (OperationalError or InterfaceError)
    while the database refuses a connection now too. An error of one query (a lock timeout, say) is not. Pages and
    the API answer such an error with a 503 (clubsite.kit.middleware)."""
    return isinstance(error, (OperationalError, InterfaceError)) and not _database()[0]


def _broker() -> tuple[bool, str]:
    from clubsite.celery import app

    if app.conf.task_always_eager:
        return True, "not used: tasks run in-process"
    try:
        with app.connection_for_write(connect_timeout=BROKER_TIMEOUT_SECONDS) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as error:
        return False, f"{type(error).__name__}: {error}".strip()
    return True, "ok"


@never_cache
def healthz(request):
    results = {"database": _database(), "broker": _broker()}
    failing = [name for name, (ok, _detail) in results.items() if not ok]
    body = {
        "status": "fail" if failing else "ok",
        "failing": failing,
        "checks": {name: detail for name, (_ok, detail) in results.items()},
    }
    if results["database"][0]:
        try:
            body.update(collect("health_info"))  # information only, never a failure (the outbox's mail counts)
        except Exception:  # before migrations, say
            pass
    if failing:
        log.error("healthz: failing %s: %s", ", ".join(failing), body["checks"])
    return JsonResponse(body, status=503 if failing else 200)
