"""Registration burst: many clients at once against a real gunicorn server, for few places.

A fresh event with `places` places (free entry, so a place is confirmed at once; the others go
on the waiting list) is opened; `clients` members, each with an API token, post their entry to
`/api/my/entries/` from one thread each, all released together. The server is gunicorn with
`make serve`'s sync workers (`web_workers`) on 127.0.0.1 only, started here and stopped afterwards;
every client sends one request with a timeout, so the load ends by itself. Then the entries holding a place are counted
in the database: more than `places` is an oversell.

With a broker (`broker`, a Redis or RabbitMQ URL: production's configuration) the server queues each
entry's mail as a Celery task after the commit, and a Celery worker started here (one process)
sends it during the burst; after the burst it is given a while to send the rest, then stopped.
Without one, the server sends the mail itself after each response (tasks run eagerly).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
USER_PREFIX = "bench-burst-"
REQUEST_TIMEOUT = 120.0


@dataclass
class BurstFigures:
    clients: int
    places: int
    seconds: float
    registered: int  # 201 responses
    held: int  # entries holding a place in the database
    waitlisted: int
    oversold: int
    statuses: dict = field(default_factory=dict)
    median_ms: float = 0.0
    p95_ms: float = 0.0
    # From the server's access log: time handling each request, in the order they finished.
    server_ms: list = field(default_factory=list)
    broker: str = ""  # where the mail tasks went ("": none, the server sent the mail itself)
    mail_written: int = 0  # outbox messages written by the burst's registrations
    mail_sent: int = 0  # of them, sent when the burst's worker stopped
    mail_seconds: float = 0.0  # from the release of the clients until the last was sent (or the worker stopped)
    # CPU seconds used during the burst (from the release until the last response) by the server's processes,
    # the Celery worker's, and the database's connections to this database; None where it cannot be read.
    cpu: dict = field(default_factory=dict)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _members(count: int, prefix: str = USER_PREFIX, name: str = "Burst Member") -> list[str]:
    """`count` members with accounts, player records and API tokens (made once); their tokens."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from clubsite.kit.models import Counter as Sequence
    from players.models import Player, User
    from players.services import MEMBER_NUMBER_COUNTER, MEMBER_NUMBER_START

    names = [f"{prefix}{i:04d}" for i in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    missing = [n for n in names if n not in existing]
    if missing:
        from django.db import transaction

        password = make_password(None)  # unusable: these accounts sign in with their token only
        with transaction.atomic():
            users = User.objects.bulk_create(
                [User(username=n, email=f"{n}@example.org", password=password) for n in missing]
            )
            sequence, _ = Sequence.objects.select_for_update().get_or_create(
                name=MEMBER_NUMBER_COUNTER, defaults={"value": MEMBER_NUMBER_START}
            )
            first = sequence.value + 1
            sequence.value += len(users)
            sequence.save()
            Player.objects.bulk_create(
                [
                    Player(user=u, full_name=f"{name} {u.username[-4:]}", member_number=first + i, email=u.email)
                    for i, u in enumerate(users)
                ]
            )
            Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
    # A token works only for an account whose email address is confirmed (players.access).
    unconfirmed = User.objects.filter(username__in=names).exclude(emailaddress__verified=True)
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in unconfirmed]
    )
    tokens = dict(Token.objects.filter(user__username__in=names).values_list("user__username", "key"))
    return [tokens[n] for n in names]


def _event(places: int):
    from django.utils import timezone

    from events.models import Category, Event, EventStatus
    from players.models import Association, User

    now = timezone.now()
    today = timezone.localdate()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    event = Event.objects.create(
        slug=f"bench-burst-{stamp}-{os.getpid()}",
        title=f"Burst Open {stamp}",
        owner=User.objects.get(username="scale-owner"),
        association=Association.objects.get(slug="scale"),
        status=EventStatus.REGISTRATION_OPEN,
        starts_on=today + timedelta(days=30),
        ends_on=today + timedelta(days=30),
        max_entrants=places,
        keeps_waiting_list=True,
        rated=False,
        registration_opens_at=now - timedelta(hours=1),
        registration_closes_at=now + timedelta(days=20),
        published_at=now - timedelta(hours=2),
    )
    category = Category.objects.create(event=event, name="Open")
    return event, category


def broker_reachable(url: str) -> bool:
    """Whether the broker answers (a connection within two seconds)."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=2) as connection:
            connection.ensure_connection(max_retries=1)
        return True
    except Exception:  # any failure to connect: the burst runs without a broker
        return False


def _start_worker(env: dict, log) -> subprocess.Popen:
    """One Celery worker process (prefork, one child) for the mail tasks, as `make serve` runs one."""
    command = [
        sys.executable, "-m", "celery", "-A", "clubsite", "worker",
        "--concurrency", "1",
        "--loglevel", "WARNING",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    log("  celery worker (1 process) started")
    return worker


def _tree(pid: int) -> list[int]:
    """`pid` and its child processes (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def _cpu_seconds(pids) -> float:
    """User and system CPU time of these processes so far (Linux /proc; gone processes count 0)."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            pass
    return ticks / os.sysconf("SC_CLK_TCK")


def _database_pids() -> list[int]:
    """The database server's processes serving this database (it runs on this machine in the benchmark)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


class CpuMeter:
    """CPU time of the server, the worker, the database connections and the clients (this process) between two
    moments. The database's connections are those open at the start and at the end (with persistent connections,
    all of them; with a connection per request most are gone before they can be read, so that figure is then a
    floor)."""

    def __init__(self, server: subprocess.Popen, worker: subprocess.Popen | None) -> None:
        self.server, self.worker = server, worker
        self.start: dict[str, float] = {}
        self.db_pids: set[int] = set()
        self.clients = 0.0

    def _read(self) -> dict[str, float]:
        self.db_pids |= set(_database_pids())
        figures = {"server": _cpu_seconds(_tree(self.server.pid)), "database": _cpu_seconds(self.db_pids)}
        if self.worker is not None:
            figures["worker"] = _cpu_seconds(_tree(self.worker.pid))
        return figures

    def begin(self) -> None:
        try:
            self.start = self._read()
        except Exception:  # not Linux, or the database is elsewhere: no CPU figures
            self.start = {}
        self.clients = time.process_time()

    def end(self) -> dict:
        if not self.start:
            return {}
        clients = time.process_time() - self.clients  # this process: the clients' threads
        try:
            now = self._read()
        except Exception:
            return {}
        return {**{name: now[name] - self.start.get(name, 0.0) for name in now}, "clients": clients}


def web_workers() -> int:
    """gunicorn's workers as `make serve` starts them: WEB_CONCURRENCY, else the Procfile's default, two a CPU."""
    value = os.environ.get("WEB_CONCURRENCY", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else 2 * (os.cpu_count() or 1)


def _start_server(port: int, access_log: Path, log, env: dict | None = None) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "gunicorn", "clubsite.wsgi:application",
        "--workers", str(web_workers()),
        "--bind", f"127.0.0.1:{port}",
        "--backlog", "2048",
        "--timeout", "120",
        "--log-level", "warning",
        "--access-logfile", str(access_log),
        "--access-logformat", "%(m)s %(s)s %(D)s %(U)s",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env or os.environ.copy(), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped at start (is it installed? pip install -r bench/requirements.txt)")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/events/", timeout=2) as response:
                if response.status == 200:
                    log(f"  gunicorn ({web_workers()} workers) listening on 127.0.0.1:{port}")
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            time.sleep(0.2)
    _stop_server(server)
    raise RuntimeError("gunicorn did not answer within 30 s")


def _stop_server(server: subprocess.Popen | None) -> None:
    if server is None:
        return
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _request(port: int, path: str, token: str, body: bytes) -> bytes:
    """One client's whole HTTP request, written out before the clients are released."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Token {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


def _send(port: int, request: bytes) -> int:
    """Sends the request on a new connection and reads the response to its end; its HTTP status (-1: no answer).
    The clients share this machine's two CPUs with the server: a bare socket costs them a fraction of what
    urllib's machinery does, so the figures are the server's."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=REQUEST_TIMEOUT) as connection:
            connection.sendall(request)
            received = b""
            while b"\r\n" not in received:
                chunk = connection.recv(65536)
                if not chunk:
                    return -1
                received += chunk
            while connection.recv(65536):  # the server closes the connection after the response
                pass
        return int(received.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return -1


def run(*, clients: int = 500, places: int = 50, broker: str = "", mail_wait: float = 60.0, log=print) -> BurstFigures:
    from events.models import PLACE_HOLDING_STATUSES, Entry, EntryStatus
    from outbox.models import Message, MessageStatus

    tokens = _members(clients)
    event, category = _event(places)
    port = _free_port()
    access_log = Path(tempfile.mkdtemp(prefix="bench-burst-")) / "access.log"
    env = {**os.environ, "CELERY_BROKER_URL": broker}
    worker = None
    if broker:
        worker = _start_worker(env, log)
    first_message = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    try:
        server = _start_server(port, access_log, log, env)
    except RuntimeError:
        _stop_server(worker)
        raise
    url_path = "/api/my/entries/"
    body = json.dumps({"event": event.slug, "category": category.pk, "accept_rules": True}).encode()
    results: list[tuple[int, float, float]] = [(0, 0.0, 0.0)] * clients
    gate = threading.Barrier(clients + 1)

    def client(i: int) -> None:
        request = _request(port, url_path, tokens[i], body)
        gate.wait()
        started = time.perf_counter()
        results[i] = (_send(port, request), started, time.perf_counter())

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    released_at, cpu = 0.0, {}
    try:
        for t in threads:
            t.start()
        meter = CpuMeter(server, worker)
        meter.begin()
        gate.wait()
        released, released_at = time.perf_counter(), time.time()
        for t in threads:
            t.join(REQUEST_TIMEOUT + 10)
        seconds = max(end for _, _, end in results) - released
        cpu = meter.end()
    finally:
        _stop_server(server)
        burst_mail = Message.objects.filter(pk__gt=first_message, subject__endswith=event.title)
        written = burst_mail.count()
        if worker is not None:
            deadline = time.monotonic() + mail_wait
            while time.monotonic() < deadline and burst_mail.filter(status=MessageStatus.SENT).count() < written:
                time.sleep(0.2)
            _stop_server(worker)
        sent = burst_mail.filter(status=MessageStatus.SENT).count()
        last_sent = burst_mail.filter(status=MessageStatus.SENT).order_by("-sent_at").values_list("sent_at", flat=True)
        last = last_sent.first()
        mail_seconds = (last.timestamp() - released_at) if last and released_at else 0.0

    server_ms = []
    for line in access_log.read_text().splitlines():
        method, _status, micros = line.split()[:3]
        if method == "POST":
            server_ms.append(int(micros) / 1000)
    shutil.rmtree(access_log.parent, ignore_errors=True)
    statuses = Counter(status for status, _, _ in results)
    latencies = sorted(end - start for _, start, end in results)
    counts = Counter(Entry.objects.filter(event=event).values_list("status", flat=True))
    held = sum(counts.get(s, 0) for s in PLACE_HOLDING_STATUSES)
    figures = BurstFigures(
        clients=clients,
        places=places,
        seconds=seconds,
        registered=statuses.get(201, 0),
        held=held,
        waitlisted=counts.get(EntryStatus.WAITLISTED, 0),
        oversold=max(0, held - places),
        statuses={str(k): v for k, v in sorted(statuses.items())},
        median_ms=latencies[len(latencies) // 2] * 1000,
        p95_ms=latencies[int(0.95 * (len(latencies) - 1))] * 1000,
        server_ms=server_ms,
        broker=broker,
        mail_written=written,
        mail_sent=sent,
        mail_seconds=mail_seconds,
        cpu=cpu,
    )
    log(
        f"  {clients} clients, {places} places: {figures.seconds:.2f}s, HTTP {figures.statuses}; "
        f"{held} holding places, {figures.waitlisted} waitlisted"
    )
    return figures
