"""PostgreSQL restarted between two requests: the site (gunicorn, one worker, persistent database connections)
serves the next request as if nothing happened, because a reused connection is checked first
(CONN_HEALTH_CHECKS). Runs against a PostgreSQL cluster of its own on a free port, never the shared one."""

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
PAGES = ["/", "/events/", "/ratings/"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder (run as the `postgres` user when we are root:
    PostgreSQL refuses to run as root)."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="clubsite-pg-"))
        self.data = self.folder / "data"
        self.as_postgres = []
        if os.geteuid() == 0:
            import pwd

            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                skip_or_fail("running as root and there is no postgres user to run a PostgreSQL cluster as")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_postgres = ["runuser", "-u", "postgres", "--"]

    def run(self, *args: str, timeout: float = 30) -> None:
        subprocess.run(
            [*self.as_postgres, str(self.bindir / args[0]), *args[1:]],
            check=True, capture_output=True, timeout=timeout,
        )  # fmt: skip

    def init(self) -> None:
        self.run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"
        )

    def pg_ctl(self, *args: str) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        )
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "20", "-o", options, *args)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def log(self) -> str:
        path = self.folder / "log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def remove(self) -> None:
        try:
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except Exception:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def cluster(postgres, settings):
    bindir = _bindir()
    if bindir is None or not (bindir / "initdb").exists():
        skip_or_fail("needs the PostgreSQL server programs (initdb, pg_ctl) to start a cluster of its own")
    cluster = Cluster(bindir)
    try:
        cluster.init()
        cluster.pg_ctl("start")
        # The site's tables, copied from the test database (quicker than running every migration).
        db = settings.DATABASES["default"]
        with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE clubsite")
        dump = subprocess.run(
            [str(bindir / "pg_dump"), "--schema-only", "--no-owner", "--no-privileges",
             "-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"], db["NAME"]],
            check=True, capture_output=True, timeout=60, env={**os.environ, "PGPASSWORD": db["PASSWORD"] or ""},
        ).stdout  # fmt: skip
        subprocess.run(
            [str(bindir / "psql"), "-q", "-v", "ON_ERROR_STOP=1", cluster.url("clubsite")],
            input=dump, check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        yield cluster
    except subprocess.CalledProcessError as error:
        raise AssertionError(f"{error.cmd}: {error.stderr!r}\n{cluster.log()}") from error
    finally:
        cluster.remove()


@pytest.fixture
def site(cluster, tmp_path):
    """gunicorn with one sync worker: every request is served by the same process, on the same connection."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
    env.update(
        DATABASE_URL=cluster.url("clubsite") + "?CONN_MAX_AGE=600",  # persistent connections, as in production
        DEBUG="1",  # static files without collectstatic
        ALLOWED_HOSTS="127.0.0.1",
    )
    log_path = tmp_path / "gunicorn.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
             "--timeout", "30"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not start:\n{log_path.read_text()}") from None
                time.sleep(0.1)
        yield base, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def site_sessions(cluster) -> list[int]:
    with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = 'clubsite' AND backend_type = 'client backend'"
        ).fetchall()
    return [pid for (pid,) in rows]


def test_the_site_serves_the_next_request_after_postgresql_restarts(cluster, site):
    base, log_path = site
    started = time.monotonic()
    for page in PAGES:
        status, body = get(base + page)
        assert status == 200, f"{page}: {status}\n{log_path.read_text()[-3000:]}"
    before = site_sessions(cluster)
    assert len(before) == 1, "the site keeps one persistent connection between requests"

    cluster.pg_ctl("-m", "fast", "restart")  # every connection is cut

    for page in PAGES:
        status, body = get(base + page)
        assert status == 200, f"{page} after the restart: {status}\n{log_path.read_text()[-3000:]}"
    after = site_sessions(cluster)
    assert len(after) == 1 and after != before  # a new connection replaced the dead one
    assert time.monotonic() - started < 30
