import os

import pytest
from django.core import mail

# CI sets this: tests that need PostgreSQL, a broker or a browser must run there, never skip.
REQUIRE_SERVICES = os.environ.get("CLUBSITE_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str):
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (CLUBSITE_REQUIRE_SERVICES=1, so this may not be skipped)")
    pytest.skip(reason)


@pytest.fixture(scope="session", autouse=True)
def _no_persistent_connections():
    """The live server serves each kept-alive browser socket in a thread of its own, so a persistent database
    connection there stays open as long as the socket does: dozens by the end of the journeys, until PostgreSQL
    refuses new ones. Each request closes its connection, as the development server should."""
    from django.conf import settings

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    # Tests that want the outbox's on-request sweep turn it on; elsewhere it would send leftovers unpredictably.
    settings.OUTBOX_SWEEP_ON_REQUEST = False
    # Pages are tested without running collectstatic first.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_request_left_open():
    """Mail written during a request goes out when the request finishes (outbox.services.request_finished). A test
    that calls the WSGI application directly (the schema fuzzers) may leave a response unclosed, and with it the
    thread marked as inside a request: every later test's mail would then wait for a finish that never comes."""
    from outbox import services

    services._request.active, services._request.deferred = False, []
    yield


@pytest.fixture(autouse=True)
def _celery_eager():
    """Tasks run in-process unless a test asks for the real worker."""
    from clubsite.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run on_commit callbacks (emails, tasks) as a real commit would."""
    return django_capture_on_commit_callbacks


@pytest.fixture
def postgres(settings):
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        skip_or_fail("needs PostgreSQL: set DATABASE_URL=postgres://…")


@pytest.fixture
def broker_url():
    url = os.environ.get("CELERY_BROKER_URL")
    if not url:
        skip_or_fail("needs a Celery broker: set CELERY_BROKER_URL=redis://…")
    return url


@pytest.fixture
def broker_down(monkeypatch):
    """Celery as in production (not eager), its broker URL pointing at a closed port."""
    from clubsite.celery import app
    from clubsite.kit.tasks import resume_broker

    saved = (app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool)
    url = f"redis://127.0.0.1:{_closed_port()}/7"
    monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its own configuration
    app.conf.task_always_eager = False
    app.conf.broker_url = url
    app._pool = app.amqp._producer_pool = None
    resume_broker()
    yield app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool = saved
    resume_broker()


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
