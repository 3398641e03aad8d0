"""/healthz names the part that fails; logs are one line per event; errors reach Sentry only when configured."""

import gzip
import http.server
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import OperationalError
from django.urls import reverse

from clubsite.kit.log import OneLineFormatter
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.django_db


def test_healthy_without_a_broker(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert body["checks"] == {"database": "ok", "broker": "not used: tasks run in-process"}
    assert body["outbox"] == {"waiting": 0, "failed": 0}
    assert "no-cache" in response["Cache-Control"]


def test_the_broker_down_is_named(client, broker_down):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail" and body["failing"] == ["broker"]
    assert body["checks"]["database"] == "ok" and "Connection refused" in body["checks"]["broker"]


def test_the_database_down_is_named(client, monkeypatch):
    from django.db import connection

    def refuse():
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"] and "Connection refused" in body["checks"]["database"]
    assert "outbox" not in body


def test_healthy_with_the_real_broker(client, broker_url):
    from clubsite.celery import app

    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, broker_url
    try:
        response = client.get(reverse("healthz"))
    finally:
        app.conf.task_always_eager, app.conf.broker_url = saved
    assert response.status_code == 200 and response.json()["checks"]["broker"] == "ok"


def test_healthz_is_served_over_plain_http_when_the_site_forces_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(reverse("healthz")).status_code == 200
    assert client.get(reverse("home")).status_code == 301


def test_a_log_record_with_a_traceback_is_one_line():
    try:
        raise ValueError("bad\nvalue")
    except ValueError:
        record = logging.LogRecord("clubsite", logging.ERROR, __file__, 1, "failed: %s", ("x",), sys.exc_info())
    line = OneLineFormatter("%(levelname)s %(name)s %(message)s").format(record)
    assert "\n" not in line and line.startswith("ERROR clubsite failed: x\\nTraceback")
    assert "ValueError: bad\\nvalue" in line


def test_the_site_logs_through_the_one_line_formatter(settings):
    assert settings.LOGGING["handlers"]["console"]["formatter"] == "line"
    handler = next(h for h in logging.getLogger("django").handlers if isinstance(h, logging.StreamHandler))
    assert isinstance(handler.formatter, OneLineFormatter)


# --- Sentry -------------------------------------------------------------------------------------


class _SentryIngest(http.server.BaseHTTPRequestHandler):
    received: list[str] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        elif self.headers.get("Content-Encoding") == "br":  # the SDK's choice where brotli is installed (the bench's)
            import brotli

            body = brotli.decompress(body)
        _SentryIngest.received.append(f"{self.path} {body.decode(errors='replace')}")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


SENTRY_PROBE = """
import logging, django, sentry_sdk
django.setup()
print("active" if sentry_sdk.get_client().is_active() else "inactive")
logging.getLogger("clubsite.probe").error("probe error for sentry")
sentry_sdk.flush(timeout=5)
"""


def run_probe(**env):
    environment = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"}
    environment.update(DJANGO_SETTINGS_MODULE="clubsite.settings", DEBUG="1", PYTHONPATH=str(ROOT), **env)
    done = subprocess.run(
        [sys.executable, "-c", SENTRY_PROBE], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_errors_go_to_sentry_when_a_dsn_is_set():
    _SentryIngest.received = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _SentryIngest)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert run_probe(SENTRY_DSN=f"http://publickey@127.0.0.1:{port}/42") == "active"
    finally:
        server.shutdown()
    assert any(r.startswith("/api/42/envelope/") and "probe error for sentry" in r for r in _SentryIngest.received)


def test_sentry_stays_off_without_a_dsn():
    assert run_probe() == "inactive"


# --- refusals in the log --------------------------------------------------------------------------


@pytest.fixture
def site_log():
    """What the site's console handler writes, as one string."""
    import io

    handler = next(h for h in logging.getLogger("django").handlers if isinstance(h, logging.StreamHandler))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_refused_page_is_one_line_in_the_log_with_its_reason_and_no_traceback(client, site_log):
    client.force_login(UserFactory())
    assert client.get(reverse("players:renewals")).status_code == 403
    assert client.get("/members/no-such-page/").status_code == 404
    log = site_log.getvalue()
    assert "Forbidden (Permission denied): /members/renewals/ (Only association staff can do this.)" in log
    assert "Not Found: /members/no-such-page/" in log
    assert "Traceback" not in log


def test_a_server_error_in_the_log_keeps_its_traceback(site_log):
    try:
        raise ValueError("broken")
    except ValueError:
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", "/x/", exc_info=sys.exc_info(), extra={"status_code": 500}
        )
    assert "Traceback" in site_log.getvalue() and "ValueError: broken" in site_log.getvalue()
