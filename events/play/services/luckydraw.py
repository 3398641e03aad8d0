"""The lucky draw for non-prize-winners (seed 004): among a division's entrants who played a game or
checked in, less the prize winners (prizes.division_prizes) and earlier lucky-draw winners.

The draw itself is pure (events.play.core.draw). What is stored — the seed, the candidates in the order drawn
from (by player number), the number of winners and who won — is enough for anyone to re-run it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from events.play.core import draw as pure_draw
from events.play.models import CheckIn, Division, Game, GameKind, LuckyDraw, RoundStatus

from .common import PlayError, lock_division, require_director
from .prizes import division_prizes
from .reads import read_division


@dataclass
class Eligible:
    candidates: list[int]  # player ids by player number
    prize_winners: list[int]
    earlier_winners: list[int]


def eligible(division: Division) -> Eligible:
    read = read_division(division)
    pairs = (
        Game.objects.filter(division=division, kind=GameKind.NORMAL, player_b__isnull=False)
        .exclude(round__status=RoundStatus.DRAFT)
        .values_list("player_a_id", "player_b_id")
        .order_by()
    )
    played = {p for pair in pairs for p in pair}
    present = set(
        CheckIn.objects.filter(entry__seat__division=division).values_list("entry__player_id", flat=True).order_by()
    )
    report = division_prizes(division, one_prize_per_player=division.event.one_prize_per_player)
    prize_winners = sorted({s.player_id for award in report.awards for s in award.seats})
    earlier = sorted({p for d in division.lucky_draws.all() for p in d.winners})
    out = set(prize_winners) | set(earlier)
    seats = sorted(read.seats.values(), key=lambda s: s.number)
    candidates = [s.player_id for s in seats if (s.player_id in played or s.player_id in present)]
    return Eligible([p for p in candidates if p not in out], prize_winners, earlier)


@transaction.atomic
def run_lucky_draw(actor, division: Division, winners: int, *, seed: int | None = None, note: str = "") -> LuckyDraw:
    """Draws and stores `winners` lucky-draw winners (a fresh seed unless one is given)."""
    division = lock_division(division.pk)
    require_director(actor, division.event)
    if winners < 1 or winners > 500:
        raise PlayError("Draw between 1 and 500 winners.", field="winners")
    pool = eligible(division)
    if not pool.candidates:
        raise PlayError("Nobody is left to draw from: everyone who played has a prize or has been drawn.")
    seed = pure_draw.new_seed() if seed is None else seed
    try:
        result = pure_draw.draw(seed, pool.candidates, winners)
    except ValueError as error:
        raise PlayError(str(error), field="seed") from None
    return LuckyDraw.objects.create(
        division=division,
        seed=seed,
        winners_wanted=winners,
        candidates=list(result.candidates),
        winners=list(result.winners),
        excluded=sorted(set(pool.prize_winners) | set(pool.earlier_winners)),
        note=note.strip()[:200],
        drawn_by=actor,
    )


def check_lucky_draw(draw: LuckyDraw) -> bool:
    """Whether the stored winners are what the stored seed and candidates give."""
    return pure_draw.check(draw.seed, draw.candidates, draw.winners_wanted, draw.winners)
