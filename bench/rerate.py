"""Re-rating the whole scale history: the service, the engine alone, and reading the games.

- read: every game of the list's rated events out of the database into Python tuples, one ORM
  `values_list` query per batch of events (the target's yardstick: the service reads less, see
  `read_games`);
- engine: the same games as arrays through `ratings.engine.history.rate_history` (no database);
- service: `rerate_from(list, first day)`: reads, rates and rewrites every change and rating in
  one transaction, as staff re-rating a list from its first event does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np


@dataclass
class RerateFigures:
    games: int
    events: int
    read_seconds: float
    engine_seconds: float
    service_seconds: float
    profile_text: str = ""


def _event_ids(rating_list) -> list[int]:
    from ratings.models import RatedEvent

    return list(
        RatedEvent.objects.filter(rating_list=rating_list)
        .order_by("starts_on", "event_id")
        .values_list("event_id", flat=True)
    )


def read_games(event_ids: list[int], batch: int = 100) -> list[tuple]:
    """All games of the events as Python rows, in batches of events, one ORM `values_list` query each:
    the yardstick of the re-rate's target (how the service read them when the target was set; it now
    reads packed whole numbers a division at a time, `ratings.services.division_reads`)."""
    from events.play.models import Game
    from ratings.services.division_reads import GAME_VALUES

    rows: list[tuple] = []
    for start in range(0, len(event_ids), batch):
        rows.extend(
            Game.objects.filter(division__event_id__in=event_ids[start : start + batch])
            .order_by()
            .values_list(*GAME_VALUES)
        )
    return rows


def history_from_rows(event_ids: list[int], rows: list[tuple], scheduled: dict[int, int], third: dict[int, bool]):
    """The rated games as the engine's flat arrays, grouped by event in rating order."""
    from ratings.engine.history import HistoryInput

    order = {e: i for i, e in enumerate(event_ids)}
    rated = [r for r in rows if r[3] == "normal" and r[6] is not None and r[7] is not None and r[8] is not None]
    cols = np.array([(order[r[0]], r[1], r[2] - 1, r[5], r[6], r[7], r[8]) for r in rated], dtype=np.int64)
    cols = cols[np.lexsort((cols[:, 2], cols[:, 1], cols[:, 0]))]
    ids, local = np.unique(cols[:, 3:5].T.reshape(-1), return_inverse=True)
    m = cols.shape[0]
    starts = np.searchsorted(cols[:, 0], np.arange(len(event_ids) + 1))
    return HistoryInput(
        initial_ratings=np.zeros(ids.size),
        initial_career_games=np.zeros(ids.size, dtype=np.int64),
        event_start=starts.astype(np.int64),
        game_a=local[:m],
        game_b=local[m:],
        score_a=cols[:, 5],
        score_b=cols[:, 6],
        round_index=cols[:, 2],
        event_max_rounds=np.array([scheduled[e] for e in event_ids], dtype=np.int64),
        event_third_rated=np.array([third[e] for e in event_ids], dtype=bool),
    )


def run(rating_list, *, profile: bool | None = None, target_seconds: float = 20.0, log=print) -> RerateFigures:
    from events.models import Event
    from ratings.engine.history import rate_history
    from ratings.models import RatedEvent
    from ratings.services import rerate_from

    event_ids = _event_ids(rating_list)
    meta = {
        pk: (n, t)
        for pk, n, t in Event.objects.filter(pk__in=event_ids).values_list("pk", "number_of_games", "third_rated")
    }

    started = time.perf_counter()
    rows = read_games(event_ids)
    read_seconds = time.perf_counter() - started
    log(f"  read {len(rows)} games of {len(event_ids)} events: {read_seconds:.2f}s")

    history = history_from_rows(event_ids, rows, {e: meta[e][0] for e in event_ids}, {e: meta[e][1] for e in event_ids})
    del rows
    # The engine's compiled loops are loaded (compiled, the first time after a change) before the clock
    # starts, as a worker loads them when it starts.
    from ratings.engine.kernels import warm_up

    warm_up()
    started = time.perf_counter()
    rate_history(history)
    engine_seconds = time.perf_counter() - started
    games = int(history.game_a.size)
    log(f"  engine alone, {games} rated games: {engine_seconds:.2f}s")

    first = (
        RatedEvent.objects.filter(rating_list=rating_list).order_by("starts_on").values_list("starts_on", flat=True)[0]
    )
    profiler = None
    if profile:
        try:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.005)
        except ImportError:
            profiler = None
    started = time.perf_counter()
    if profiler:
        profiler.start()
    rerate_from(rating_list, first)
    if profiler:
        profiler.stop()
    service_seconds = time.perf_counter() - started
    log(f"  rerate_from the first event: {service_seconds:.2f}s")
    text = ""
    if profiler:
        text = profiler.output_text(unicode=False, color=False, show_all=False, short_mode=False)
    return RerateFigures(games, len(event_ids), read_seconds, engine_seconds, service_seconds, text)


@dataclass
class CorrectionFigures:
    event: str
    games: int
    seconds: float
    status: str


def correct_latest(rating_list, *, log=print) -> CorrectionFigures:
    """Corrects one game of the list's latest rated event (its scores had been entered the wrong way
    round: they are swapped, so running this twice puts them back) and times
    `ratings.services.result_corrected(event)`, as correcting a result of a finalised event calls
    it. Without a broker the rating run it queues runs at once; with one, it is run here too
    (`execute_run`, safe to run twice) so the figure includes the re-rate."""
    from events.models import Event
    from events.play.models import Game, GameKind, GameStatus
    from ratings.models import RatedEvent, RatingRun, RunStatus
    from ratings.services import execute_run, result_corrected

    latest = RatedEvent.objects.filter(rating_list=rating_list).order_by("-starts_on", "-event_id").first()
    event = Event.objects.select_related("rating_list").get(pk=latest.event_id)
    games = Game.objects.filter(division__event=event)
    game = games.filter(kind=GameKind.NORMAL, status=GameStatus.CONFIRMED).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(score_a=game.score_b, score_b=game.score_a)
    started = time.perf_counter()
    run = result_corrected(event)
    if run is not None:
        run = RatingRun.objects.get(pk=run.pk)
        if run.status == RunStatus.QUEUED:
            run = execute_run(run.pk)
    seconds = time.perf_counter() - started
    status = run.status if run is not None else "no run"
    log(f"  result corrected in {event.title}, re-rated: {seconds:.2f}s ({status})")
    return CorrectionFigures(event.title, games.count(), seconds, status)
