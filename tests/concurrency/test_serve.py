"""`make serve` starts the site (gunicorn), a Celery worker and beat against PostgreSQL and the broker."""

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from outbox.models import Message, MessageStatus

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.postgres]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture
def served(postgres, broker_url, settings, tmp_path, transactional_db):
    db = settings.DATABASES["default"]
    port = free_port()
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{host}/{db['NAME']}",
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": broker_url,
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp_path / "beat-schedule"),
        "EMAIL_URL": f"filemail:///{(tmp_path / 'mail').as_posix()}",
        "DEBUG": "0",
        "SECURE": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "WEB_CONCURRENCY": "1",
        "CELERY_CONCURRENCY": "1",
    }  # fmt: skip
    log = open(tmp_path / "serve.log", "w+")
    proc = subprocess.Popen(
        ["make", "serve", f"HOST=127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 180
        while time.time() < deadline and proc.poll() is None:
            try:
                if get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(1)
        yield base, proc, log
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in the terminal that runs it
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()


def test_make_serve_serves_pages_and_runs_the_worker_and_beat(served):
    base, proc, log = served
    # Written while no worker ran: beat's sweep queues it, the worker sends it.
    stranded = Message.objects.create(
        to="serve-smoke@example.org", subject="Smoke", body="Hello", next_attempt_at=timezone.now() - timedelta(1)
    )

    def output():
        log.seek(0)
        return log.read()

    assert proc.poll() is None, output()
    status, body = get(base + "/healthz")
    assert status == 200, output()
    assert json.loads(body)["checks"] == {"database": "ok", "broker": "ok"}
    status, page = get(base + "/events/")
    assert status == 200 and "<html" in page
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page).group(1)
    assert re.search(r"\.[0-9a-f]{12}\.css$", stylesheet)  # collected, with the manifest's hashed names
    assert get(base + stylesheet)[0] == 200

    deadline = time.time() + 90
    while time.time() < deadline and Message.objects.get(pk=stranded.pk).status != MessageStatus.SENT:
        time.sleep(0.5)
    assert Message.objects.get(pk=stranded.pk).status == MessageStatus.SENT, output()
    assert all(name in output() for name in ("web.1", "worker.1", "beat.1"))
