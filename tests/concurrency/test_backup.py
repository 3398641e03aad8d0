"""The backup in README.md works: pg_dump a database with data, restore it into a fresh one, serve a page from it."""

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.concurrency.test_serve import free_port
from tests.events.factories import open_event
from tests.factories import PlayerFactory

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.postgres


def pg_url(db, name):
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@pytest.fixture
def fresh_database(postgres, settings):
    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_restored_{os.getpid()}"
    admin = pg_url(db, "postgres")
    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{name}"'], check=True)
    subprocess.run(["psql", admin, "-qc", f'CREATE DATABASE "{name}"'], check=True)
    yield pg_url(db, name)
    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=True)


def test_a_dump_restores_into_a_fresh_database_that_serves_the_site(
    settings, fresh_database, tmp_path, transactional_db
):
    event, _category, _fees = open_event(title="Backup Bash Open")
    PlayerFactory(full_name="Restored Rita")
    source = pg_url(settings.DATABASES["default"], settings.DATABASES["default"]["NAME"])
    dump = tmp_path / "clubsite.dump"

    # The commands README.md gives.
    subprocess.run(["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", source], check=True)
    subprocess.run(
        ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", f"--dbname={fresh_database}", str(dump)],
        check=True,
    )

    restored = subprocess.run(
        ["psql", fresh_database, "-Atc", "SELECT full_name FROM players_player"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "Restored Rita" in restored.stdout.split("\n")

    port = free_port()
    env = {**os.environ, "DATABASE_URL": fresh_database, "DEBUG": "1", "ALLOWED_HOSTS": "127.0.0.1"}
    env.pop("CELERY_BROKER_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        page, deadline = "", time.time() + 60
        while time.time() < deadline and not page:
            try:
                url = f"http://127.0.0.1:{port}{event.get_absolute_url()}"
                with urllib.request.urlopen(url, timeout=10) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.5)
        assert "Backup Bash Open" in page
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert page, output
