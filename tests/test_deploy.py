"""Production settings pass Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_production_values():
    # A clean production environment: nothing the test run itself sets (e.g. the browser tests' async flag).
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-" + "x9Qz" * 10,
        ALLOWED_HOSTS="scrabble.example.org",
        DJANGO_SETTINGS_MODULE="clubsite.settings",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_site_refuses_to_start_without_a_secret_key_in_production():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    env["DEBUG"] = "0"
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_a_worker_starts_ready_without_the_database_or_the_broker():
    """The WSGI module does at start what the first requests would each pay for, touching neither the database
    nor the broker (both unreachable here): the views are imported, the URL patterns compiled for reverse()."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.update(
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-" + "x9Qz" * 10,
        DJANGO_SETTINGS_MODULE="clubsite.settings",
        DATABASE_URL="postgres://nobody@127.0.0.1:1/none",
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
    )
    script = (
        "import sys\n"
        "from clubsite.wsgi import application\n"
        "from django.urls import get_resolver\n"
        "from django.template import engines\n"
        "resolver = get_resolver()\n"
        "assert resolver._populated and all(ns._populated for _, ns in resolver.namespace_dict.values())\n"
        "assert 'events.views' in sys.modules and 'kombu.transport.redis' in sys.modules\n"
        "assert engines._engines\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _conn_max_age(url: str) -> str:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "clubsite.settings", "DEBUG": "1"}
    script = "from django.conf import settings; d = settings.DATABASES['default']; print(d.get('CONN_MAX_AGE'))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_postgresql_connections_persist_unless_the_url_says_otherwise():
    assert _conn_max_age("postgres://site@db.example.org/clubsite") == "60"
    assert _conn_max_age("postgres://site@db.example.org/clubsite?conn_max_age=0") == "0"
    assert _conn_max_age("postgres://site@db.example.org/clubsite?conn_max_age=600") == "600"


@pytest.mark.django_db
def test_postgresql_sessions_plan_for_solid_state_storage_without_jit(postgres):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert cursor.fetchone()[0] == "1.1"
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
