"""Demo club play, after the demo nights: at each night held, the club director enters a few one-on-one games between
those checked in, and a table of three or four when enough came (seed 001), so each demo club has a ladder and a
club rating list from its season."""

import random

from clubsite.kit.roles import is_association_staff
from players.models import User

from .models import AttendanceStatus, ClubNight, NightStatus
from .services import play


def load(stdout) -> None:
    rng = random.Random(1)
    staff = next((u for u in User.objects.filter(is_staff=True).order_by("pk") if is_association_staff(u)), None)
    if staff is None:
        return
    nights = ClubNight.objects.filter(status=NightStatus.SCHEDULED, attendances__isnull=False).distinct()
    games = tables = 0
    # Nights to come have nobody checked in: only the nights held are played.
    for night in nights.select_related("club").order_by("on", "pk"):
        present = [
            a.player
            for a in night.attendances.filter(status=AttendanceStatus.CHECKED_IN)
            .select_related("player")
            .order_by("pk")
        ]
        rng.shuffle(present)
        if len(present) >= 7:
            size = rng.choice((3, 4))
            seated, present = present[:size], present[size:]
            went_out = rng.randrange(len(seated) + 1)  # one past the end: the hour ran out
            rows = [
                play.TableRow(p, "", rng.randint(180, 420), 0 if n == went_out else rng.randint(0, 20))
                for n, p in enumerate(seated)
            ]
            play.enter_table(staff, night, rows, went_out=seated[went_out] if went_out < len(seated) else None)
            tables += 1
        for a, b in zip(present[0::2], present[1::2], strict=False):
            score_a, score_b = rng.randint(280, 520), rng.randint(280, 520)
            ahead = rng.choice(("a", "b")) if score_a == score_b else None
            play.submit_game(staff, night, a, b, score_a, score_b, ahead_before_tiles=ahead)
            games += 1
    stdout.write(f"Club play: {games} games and {tables} tables at the demo clubs' nights.")
