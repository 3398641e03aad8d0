"""A real Celery worker, against the real broker, runs a real task (the welcome email)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.postgres]


@pytest.fixture
def worker(postgres, broker_url, settings, tmp_path, transactional_db):
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    mail_dir = tmp_path / "mail"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": broker_url,
        "EMAIL_URL": f"filemail:///{mail_dir.as_posix()}",  # filemail://// + an absolute path
    }
    queue = f"test-{os.getpid()}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "clubsite", "worker", "--pool=solo", "-Q", queue,
         "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    # A client of its own, so nothing the rest of the run did to the site's (eager) app matters here.
    client = Celery("worker-test-client", broker=broker_url, backend=broker_url)
    try:
        yield client, queue, mail_dir, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        client.close()


def test_welcome_email_is_sent_by_a_real_worker(worker):
    client, queue, mail_dir, proc = worker
    user = UserFactory(email="worker-test@example.org", first_name="Wanda")
    result = client.send_task("players.tasks.send_welcome_email", args=[user.pk], queue=queue)
    try:
        # The test process is no worker; earlier eager tasks may have left Celery thinking otherwise.
        assert result.get(timeout=90, disable_sync_subtasks=False) == 1
    except Exception as error:
        proc.terminate()
        output = proc.communicate(timeout=20)[0] or ""
        raise AssertionError(f"worker did not finish the task ({error!r}):\n{output}") from error
    deadline = time.time() + 10
    while time.time() < deadline and not any(mail_dir.glob("*")):
        time.sleep(0.2)
    sent = "".join(p.read_text() for p in mail_dir.glob("*"))
    assert "To: worker-test@example.org" in sent and "Welcome to" in sent
