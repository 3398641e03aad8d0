import pytest

from tests.outbox.helpers import closed_port


@pytest.fixture
def broker_down():
    """Celery as in production (not eager), its broker URL pointing at a closed port."""
    from clubsite.celery import app
    from outbox import services

    saved = (app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool)
    app.conf.task_always_eager = False
    app.conf.broker_url = f"redis://127.0.0.1:{closed_port()}/7"
    app._pool = app.amqp._producer_pool = None
    services._broker_down_until = 0.0
    yield app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool = saved
    services._broker_down_until = 0.0
