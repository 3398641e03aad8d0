"""The traffic of a tournament's round, for Locust (`bench/eventday.py` writes the plan and runs this file).

Every user here is one person or screen of the venue, as `bench/eventday.py`'s docstring describes: players'
phones, wall displays, each division's director and visitors. They share this one process, so what they see
happening (a result confirmed, a round published, a wall showing it) is recorded in module-level dictionaries and
written out as JSON when the run stops, for the benchmark to report and check against the database.

No Django here: this process only speaks HTTP to the server, as the venue's phones and screens do. Its users are
Locust's FastHttpUser (geventhttpclient, several times less CPU a request than python-requests): the clients share
the two CPUs with the server, and every millisecond they spend is one the server does not get.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from collections import defaultdict
from http.cookiejar import Cookie
from urllib.parse import urlencode, urlsplit

import gevent
from locust import between, constant, events, task
from locust.contrib.fasthttp import FastHttpUser

PLAN = json.loads(open(os.environ["EVENTDAY_PLAN"]).read())
OUT = os.environ["EVENTDAY_OUT"]
POLL = PLAN["poll_seconds"]
ROUND = PLAN["round_seconds"]
DUE = PLAN["due"]  # a real round's last games: seconds into the run when each ends
END_SHARE = PLAN["end_share"]
DISPUTE_SHARE = PLAN["dispute_share"]

PHONES = iter(PLAN["phones"])
WALLS = iter(PLAN["walls"])
DIRECTORS = iter(PLAN["divisions"])
VISITORS = itertools.cycle(PLAN["visitor_pages"])

SUBMIT = re.compile(r"/games/(\d+)/submit/")
CONFIRM = re.compile(r"/games/(\d+)/confirm/")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
WALL_ROUND = re.compile(r"· Round (\d+)</h1>")

# What the venue saw, shared by every user of this process.
due: dict[int, float] = {}  # game -> when its result is reported (the game's end)
claimed: dict[int, int] = {}  # game -> the player who reports it
expected: dict[int, list] = {}  # game -> [player whose score is first, that score, the other score]
confirmed: set[int] = set()  # games confirmed by the opponent or settled by a director
disputed: dict[int, list[int]] = defaultdict(list)  # division -> games disputed, for its director
last_result: dict[int, float] = {}  # division -> when its latest result was confirmed
published: dict[str, float] = {}  # "division/round" -> when the director published it
result_before: dict[str, float] = {}  # "division/round" -> the division's last result before that publishing
seen: dict[str, list[float]] = defaultdict(list)  # "division/round" -> when each wall first showed it
counts: dict[str, int] = defaultdict(int)


def _cookie(name: str, value: str, base_url: str) -> Cookie:
    """A cookie for the server's host, as a browser holds it after signing in."""
    host = urlsplit(base_url).hostname or ""
    return Cookie(0, name, value, None, False, host, False, False, "/", True, False, None, False, None, None, {})


# How late (ms) the clients' event loop woke a sleeper: time every figure the clients measure includes, which is
# theirs, not the server's (a busy loop would make the server look slower than it is).
lag: list[float] = []


def _watch_lag():
    while True:
        asked = time.perf_counter()
        gevent.sleep(0.05)
        lag.append((time.perf_counter() - asked - 0.05) * 1000)


TRACE = bool(os.environ.get("EVENTDAY_TRACE"))
trace: list = []  # with EVENTDAY_TRACE set: each request's start, kind, time and size, beside the outcome


started = [time.time()]  # when the run started (Locust's test_start)
# The first poll interval, when every phone and wall loads its pages for the first time (at a venue they were
# opened as the players arrived, over the hour before): counted apart, then Locust's figures start afresh.
WARMUP = PLAN["warmup_seconds"]
warming = [True]
warmup_ms: list[float] = []


@events.test_start.add_listener
def _started(environment, **kwargs):
    started[0] = time.time()

    def end_warmup():
        warming[0] = False
        environment.runner.stats.reset_all()

    gevent.spawn_later(WARMUP, end_warmup)


@events.request.add_listener
def _trace(request_type, name, response_time, response_length, start_time=None, exception=None, **kwargs):
    if TRACE:
        trace.append((start_time, name, response_time, response_length))
    if warming[0]:
        warmup_ms.append(response_time)
        counts["warm-up errors"] += exception is not None


@events.test_start.add_listener
def _start_watch(environment, **kwargs):
    gevent.spawn(_watch_lag)


@events.quitting.add_listener
def _write(environment, **kwargs):
    ordered = sorted(lag) or [0.0]
    counts["loop lag p95 ms"] = round(ordered[int(len(ordered) * 0.95)])
    counts["loop lag max ms"] = round(ordered[-1])
    warm = sorted(warmup_ms) or [0.0]
    counts["warm-up requests"] = len(warmup_ms)
    counts["warm-up p95 ms"] = round(warm[int(len(warm) * 0.95)])
    counts["warm-up max ms"] = round(warm[-1])
    if trace:
        with open(OUT + ".trace", "w") as f:
            json.dump(trace, f)
    with open(OUT, "w") as f:
        json.dump(
            {
                "expected": expected,
                "confirmed": sorted(confirmed),
                "published": published,
                "result_before": result_before,
                "seen": seen,
                "counts": counts,
            },
            f,
        )


def paced(seconds: float):
    """A task every `seconds`, counted from `user.next_task` (set in `on_start` when the first task is due).
    Locust's own constant_pacing counts from when the user was made, so the wait in `on_start` that spreads the
    users over the interval comes off their first pause, and every user falls back into step with the moment it
    was spawned: all the phones then poll within the ten seconds Locust takes to spawn them, twice the venue's
    load for half of each interval and nothing for the other half."""

    def wait_time(user) -> float:
        now = time.perf_counter()
        user.next_task = max(user.next_task + seconds, now)  # a task that overran: the next at once
        return user.next_task - now

    return wait_time


class Phone(FastHttpUser):
    """A player's phone: "my game" and the live standings every POLL seconds; reports, confirms or disputes."""

    fixed_count = len(PLAN["phones"])
    wait_time = paced(POLL)

    def on_start(self):
        me = next(PHONES)
        self.player, self.division = me["player"], me["division"]
        self.client.cookiejar.set_cookie(_cookie("sessionid", me["session"], self.host))
        self.cached: dict[str, tuple[str, str]] = {}  # url -> (ETag, body): the phone's browser cache
        gevent.sleep(random.uniform(0, POLL))  # phones are not in step
        self.next_task = time.perf_counter()

    def get(self, url: str, name: str) -> str:
        """The page as a browser with a cache fetches it: conditionally when it holds a copy with an ETag."""
        etag, body = self.cached.get(url, ("", ""))
        headers = {"If-None-Match": etag} if etag else {}
        with self.client.get(url, name=name, headers=headers, catch_response=True, allow_redirects=False) as r:
            if r.status_code == 304:
                r.success()
                counts["304"] += 1
                return body
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
                return ""
            if r.headers.get("ETag"):
                self.cached[url] = (r.headers["ETag"], r.text)
            return r.text

    @task
    def poll(self):
        page = self.get(PLAN["my_game_url"], "phone: my game")
        self.get(PLAN["standings_urls"][str(self.division)], "phone: standings")
        if page:
            self.act(page)

    def post(self, url: str, name: str, data: dict, token: str) -> bool:
        with self.client.post(
            url,
            name=name,
            data=urlencode({"csrfmiddlewaretoken": token, **data}),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            catch_response=True,
            allow_redirects=False,
        ) as r:
            if r.status_code != 302:
                r.failure(f"HTTP {r.status_code}")
                return False
            return True

    def act(self, page: str):
        token = CSRF.search(page)
        if not token:
            return
        token = token.group(1)
        now = time.time()
        for game in {int(pk) for pk in CONFIRM.findall(page)} - confirmed:
            if game in expected and expected[game][0] == self.player:
                continue  # my own report waiting for my opponent
            if random.random() < DISPUTE_SHARE and not counts.get(f"disputed {game}"):
                counts[f"disputed {game}"] = 1
                if self.post(f"{PLAN['play_url']}games/{game}/dispute/", "phone: dispute", {"reason": "no"}, token):
                    counts["disputes"] += 1
                    disputed[self.division].append(game)
            elif self.post(f"{PLAN['play_url']}games/{game}/confirm/", "phone: confirm", {}, token):
                confirmed.add(game)
                last_result[self.division] = time.time()
                counts["confirms"] += 1
        for game in {int(pk) for pk in SUBMIT.findall(page)}:
            if game not in due:
                known = DUE.get(str(game))
                due[game] = started[0] + known if known is not None else now + random.uniform(*END_SHARE) * ROUND
            ends = due[game]
            if now < ends or claimed.setdefault(game, self.player) != self.player or game in expected:
                continue
            mine = random.randint(300, 500)
            theirs = mine + random.choice([-1, 1]) * random.randint(1, 150)  # never a tie
            fields = {f"g{game}-my_score": mine, f"g{game}-opponent_score": theirs, f"g{game}-first": ""}
            if self.post(f"{PLAN['play_url']}games/{game}/submit/", "phone: submit", fields, token):
                expected[game] = [self.player, mine, theirs]
                counts["submits"] += 1


class Wall(FastHttpUser):
    """A wall display: its page, then the version address every 5 seconds (as venue.js polls it); the page again
    when the version changes."""

    fixed_count = len(PLAN["walls"])
    wait_time = paced(PLAN["wall_poll_seconds"])

    def on_start(self):
        wall = next(WALLS)
        self.division, self.url, self.version_url = wall["division"], wall["url"], wall["version_url"]
        self.version = ""
        gevent.sleep(random.uniform(0, PLAN["wall_poll_seconds"]))
        self.next_task = time.perf_counter()

    @task
    def poll(self):
        with self.client.get(self.version_url, name="wall: version", catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
                return
            version = r.json().get("version", "")
        if version == self.version:
            return
        with self.client.get(self.url, name="wall: page", catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
                return
            shown = WALL_ROUND.search(r.text)
        self.version = version
        if shown:
            key = f"{self.division}/{shown.group(1)}"
            if len(seen[key]) < PLAN["walls_per_division"] and key in published:
                seen[key].append(time.time())


class Director(FastHttpUser):
    """A division's director at the desk (through the API): settles disputes, and pairs and publishes the next
    round as soon as the last result of the round is in."""

    fixed_count = len(PLAN["divisions"])
    wait_time = constant(2)
    default_headers = {"Authorization": f"Token {PLAN['director_token']}"}

    def on_start(self):
        self.division = next(DIRECTORS)

    @task
    def watch(self):
        while disputed[self.division]:
            game = disputed[self.division].pop()
            a, b = random.randint(300, 500), random.randint(300, 500)
            b += a == b
            with self.client.post(
                f"/api/play/games/{game}/submit/",
                json={"score_a": a, "score_b": b, "reason": "disputed at the table"},
                name="director: settle dispute",
                catch_response=True,
            ) as r:
                if r.status_code != 200:
                    r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
                    disputed[self.division].append(game)
                    return
            expected[game] = ["a", a, b]
            confirmed.add(game)
            last_result[self.division] = time.time()
            counts["settled"] += 1
        with self.client.get(
            f"/api/play/divisions/{self.division}/rounds/", name="director: rounds", catch_response=True
        ) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
                return
            rounds = r.json()
        latest = max(rounds, key=lambda rnd: rnd["number"])
        if latest["status"] != "complete" or latest["number"] >= PLAN["rounds"]:
            return
        with self.client.post(
            f"/api/play/divisions/{self.division}/pair/",
            json={"system": "koth"},
            name="director: pair",
            catch_response=True,
        ) as r:
            if r.status_code != 201:
                r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
                return
            new = r.json()
        with self.client.post(
            f"/api/play/rounds/{new['id']}/publish/", name="director: publish", catch_response=True
        ) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
                return
        key = f"{self.division}/{new['number']}"
        published[key] = time.time()
        result_before[key] = last_result.get(self.division, published[key])
        counts["rounds published"] += 1


class Visitor(FastHttpUser):
    """Someone following the event from home: its page and the rating list."""

    fixed_count = PLAN["visitors"]
    wait_time = between(20, 40)

    @task
    def read(self):
        name, url = next(VISITORS)
        with self.client.get(url, name=name, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}")
