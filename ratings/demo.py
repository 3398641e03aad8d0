"""Demo ratings: a list seeded from a ratings file, three past rated events and a monthly snapshot."""

import math
import random
from datetime import timedelta

from django.utils import timezone

from events.models import Event, EventStatus
from events.play import demo_records
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from players.models import Association, Player, User

from . import services
from .models import RatingList

DEMO_LIST_SLUG = "sa-csw"


def _pairings(rng: random.Random, players: list, rounds: int) -> list[list[tuple]]:
    """Random pairings avoiding repeats when it can; a bye for an odd player out."""
    met: set[frozenset] = set()
    schedule = []
    for _ in range(rounds):
        pool = players[:]
        rng.shuffle(pool)
        pairs = []
        bye = pool.pop() if len(pool) % 2 else None
        while pool:
            a = pool.pop()
            partner = next((b for b in reversed(pool) if frozenset((a.pk, b.pk)) not in met), pool[-1])
            pool.remove(partner)
            met.add(frozenset((a.pk, partner.pk)))
            pairs.append((a, partner))
        schedule.append((pairs, bye))
    return schedule


def _play_demo_event(rng, event, divisions: dict[str, list], rounds: int, strength: dict[int, int]):
    now = timezone.now()
    for position, (name, players) in enumerate(divisions.items()):
        division = Division.objects.create(
            event=event, name=name, position=position, finalised_at=now, assignments_published=True
        )
        DivisionPlayer.objects.bulk_create(
            DivisionPlayer(division=division, player=p, number=i, rating=strength.get(p.pk, 0))
            for i, p in enumerate(players, start=1)
        )
        games = []
        for number, (pairs, bye) in enumerate(_pairings(rng, players, rounds), start=1):
            rnd = Round.objects.create(division=division, number=number, status=RoundStatus.COMPLETE, published_at=now)
            for board, (a, b) in enumerate(pairs, start=1):
                diff = strength.get(a.pk, 1200) - strength.get(b.pk, 1200)
                a_wins = rng.random() < 1 / (1 + math.exp(-0.0031879 * diff))
                win, loss = rng.randint(380, 560), rng.randint(280, 420)
                loss = min(loss, win - rng.randint(1, 120))
                games.append(
                    Game(
                        division=division,
                        round=rnd,
                        round_number=number,
                        board=board,
                        kind=GameKind.NORMAL,
                        status=GameStatus.CONFIRMED,
                        player_a=a,
                        player_b=b,
                        score_a=win if a_wins else loss,
                        score_b=loss if a_wins else win,
                        first=rng.choice("ab"),
                        confirmed_at=now,
                    )
                )
            if bye is not None:
                games.append(
                    Game(
                        division=division,
                        round=rnd,
                        round_number=number,
                        kind=GameKind.BYE,
                        status=GameStatus.CONFIRMED,
                        player_a=bye,
                        spread_a=event.bye_spread,
                        confirmed_at=now,
                    )
                )
        Game.objects.bulk_create(games)


def load(stdout) -> None:
    """Creates the demo list once (after the members' and the events' demos); a second load changes nothing."""
    association = Association.objects.filter(slug="sa").first()
    staff = User.objects.filter(email="staff@example.org").first()
    if association is None or staff is None or RatingList.objects.filter(slug=DEMO_LIST_SLUG).exists():
        return
    rng = random.Random(86)
    today = timezone.localdate()
    rating_list = RatingList.objects.create(
        association=association,
        name="SA Ratings (CSW)",
        slug=DEMO_LIST_SLUG,
        lexicon="CSW24",
        system="naspa",
        provisional_games=20,
    )

    # Seed about two thirds of the members from a ratings file, the rest play as newcomers.
    players = list(Player.objects.select_related("club").order_by("member_number"))
    names = [p.full_name for p in players]
    unique = [p for p in players if names.count(p.full_name) == 1]
    rng.shuffle(unique)
    seeded = unique[: len(players) * 2 // 3]
    strength = {p.pk: rng.randint(700, 2050) for p in seeded}
    lines = ["name\trating\trank\texpires\tgames"]
    ordered = sorted(seeded, key=lambda p: -strength[p.pk])
    for rank, p in enumerate(ordered, start=1):
        expiry = (today + timedelta(days=rng.randint(30, 400))).isoformat()
        lines.append(f"{p.full_name}\t{strength[p.pk]}\t{rank}\t{expiry}\t{rng.randint(10, 900)}")
    imp = services.prepare_rating_import(
        staff, rating_list, "\n".join(lines), filename="sa-ratings.txt", as_of=today - timedelta(days=400)
    )
    services.apply_rating_import(staff, imp, {})

    newcomers = [p for p in players if p.pk not in strength]
    for p in newcomers:
        strength[p.pk] = rng.randint(600, 1500)
    plans = [
        ("Jurong Green Open", 300, {"A": ordered[:10] + newcomers[:2]}, 7),
        (
            "Toa Payoh Masters",
            150,
            {"A": ordered[:10], "B": ordered[10:20] + newcomers[2:7]},
            6,
        ),
        ("SA National Championship", 40, {"A": ordered[:16], "B": ordered[16:28] + newcomers[:6]}, 8),
    ]
    for n, (title, days_ago, divisions, rounds) in enumerate(plans, start=1):
        starts = today - timedelta(days=days_ago)
        event = Event.objects.create(
            slug=f"demo-rated-{n}-{starts:%Y-%m}",
            title=f"{title} {starts.year}",
            owner=staff,
            association=association,
            status=EventStatus.COMPLETED,
            starts_on=starts,
            ends_on=starts + timedelta(days=1 if rounds > 7 else 0),
            venue="Jurong Green Community Club" if n % 2 else "Toa Payoh Library",
            number_of_games=rounds,
            lexicon="CSW",
            rated=True,
            rating_list=rating_list,
        )
        _play_demo_event(rng, event, divisions, rounds, strength)
        services.rate_event(event)
    demo_records.attach(stdout)  # moves and a board on a few of these games' pages
    # The other demo events that are rated go on this list too (their entrants' ratings come from it).
    Event.objects.filter(association=association, rated=True, rating_list__isnull=True).update(rating_list=rating_list)
    services.take_snapshot(rating_list, today.replace(day=1))
    stdout.write(
        f"Created the rating list {rating_list.name}: {len(seeded)} seeded ratings and {len(plans)} rated events."
    )
