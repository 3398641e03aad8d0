"""A director runs five rounds (random, then King of the Hill); players report results on their phones,
opponents confirm; standings and prizes follow; the division is finalised and the event is rated."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EntryStatus, EventStatus, Prize
from events.play.models import Division, DivisionPlayer, Game, GameStatus, RoundStatus
from ratings.models import PlayerRating, RatingChange
from tests.e2e.conftest import log_in
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory
from tests.factories import AssociationFactory
from tests.ratings.factories import RatingListFactory, seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = (  # name, rating: seated in this order, so the player number follows the rating
    ("Anna Tan", 1800),
    ("Bala Kumar", 1650),
    ("Chen Wei", 1500),
    ("Dewi Lim", 1400),
    ("Eddie Goh", 1300),
    ("Farah Ismail", 1200),
)
SEAT = re.compile(r"^(\d+)\. (.+)$")


def scores(n1: int, n2: int, rnd: int) -> tuple[int, int]:
    """The lower player number (the higher rating) wins every game, by a margin that varies."""
    win, loss = 420 + 7 * rnd + n1, 350 - 9 * max(n1, n2) + rnd
    return (win, loss) if n1 < n2 else (loss, win)


def pairings(page) -> list[tuple[int, str, int, str]]:
    """The boards of the round page: (first number, first name, second number, second name)."""
    boards = []
    for row in page.locator("table.pairings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        first, second = SEAT.match(cells[1].strip()), SEAT.match(cells[4].strip())
        boards.append((int(first[1]), first[2], int(second[1]), second[2]))
    return boards


def test_director_pairs_five_rounds_players_report_on_phones_and_the_event_is_rated(journey, member):
    # Preconditions: a rated event under way, six entrants with accounts seated in division A.
    AssociationFactory()
    ratings = RatingListFactory(name="SA Ratings (CSW)", slug="sa-csw")
    now = timezone.now()
    event = EventFactory(
        title="Jurong Green Students' Scrabble Championship",
        slug="jurong-green-students",
        status=EventStatus.IN_PROGRESS,
        starts_on=timezone.localdate(),
        registration_opens_at=now - timedelta(days=30),
        registration_closes_at=now - timedelta(days=10),
        rated=True,
        rating_list=ratings,
        number_of_games=5,
    )
    category = CategoryFactory(event=event, name="Open")
    for rank, amount in ((1, 100), (2, 80)):
        Prize.objects.create(
            category=category,
            rank_from=rank,
            rank_to=rank,
            description=f"Shopping voucher S${amount} + trophy",
            amount=Decimal(amount),
        )
    Prize.objects.create(category=category, rank_from=3, rank_to=6, description="Trophy")
    director, _ = member("Dora Director", player=False)
    event.directors.add(director)
    division = Division.objects.create(event=event, category=category, name="A", assignments_published=True)
    people = {}
    for number, (name, rating) in enumerate(PLAYERS, start=1):
        _, player = member(name)
        seed(ratings, player, rating, games=60)
        entry = EntryFactory(category=category, player=player, status=EntryStatus.CONFIRMED, division=division)
        DivisionPlayer.objects.create(division=division, player=player, entry=entry, number=number, rating=rating)
        people[name] = player

    j = journey("director")
    page = j.page
    log_in(page, j.base_url, director.email, next_path=event.get_absolute_url())
    page.get_by_role("link", name="Divisions, pairings & standings").click()
    j.shot("director's play hub")
    page.get_by_role("link", name="Pair and run rounds").click()
    expect(page.get_by_text("No rounds yet.")).to_be_visible()

    phones: dict[str, object] = {}

    def phone_of(name: str):
        if name not in phones:
            phone = j.new_page()
            log_in(phone, j.base_url, people[name].email, next_path=event.get_absolute_url())
            phone.get_by_role("link", name="Divisions, pairings & standings").click()
            expect(phone.get_by_text(re.compile(r"You play in A as number \d"))).to_be_visible()
            phone.get_by_role("link", name="My game").click()
            phones[name] = phone
        else:
            phones[name].reload()
        return phones[name]

    for rnd in range(1, 6):
        system = "random" if rnd == 1 else "koth"
        expect(page.get_by_role("heading", name=f"Pair round {rnd}")).to_be_visible()
        expect(page.locator("#id_system")).to_have_value(system)
        if rnd == 1:
            j.shot("pairing form for round 1")
        page.get_by_role("button", name="Pair the round").click()
        if page.locator("#pairing-refused").count():
            j.shot(f"round {rnd}: pairing refused, least repeats offered")
            page.get_by_role("button", name="Accept this pairing").click()
        expect(page.get_by_text(f"Round {rnd} is paired as a draft")).to_be_visible()
        expect(page.locator("#round-status")).to_have_text("Draft", use_inner_text=True)
        if rnd in (1, 2):
            j.shot(f"round {rnd} draft")
        page.get_by_role("button", name=f"Publish round {rnd}").click()
        expect(page.get_by_text(f"Round {rnd} is published: players can see it now.")).to_be_visible()
        boards = pairings(page)
        assert len(boards) == 3 and sorted(n for b in boards for n in (b[0], b[2])) == [1, 2, 3, 4, 5, 6]

        # Board 1 reports on their phones: the first player submits, the opponent confirms.
        n1, name1, n2, name2 = boards[0]
        s1, s2 = scores(n1, n2, rnd)
        mine = phone_of(name1)
        card = mine.locator(".game-card", has_text=f"Round {rnd}")
        expect(card.get_by_text(name2).first).to_be_visible()
        card.get_by_label("My score").fill(str(s1))
        card.get_by_label("Opponent's score").fill(str(s2))
        card.get_by_label("I did").check()
        if rnd == 1:
            j.shot("a player's result form on a phone", mine)
        card.get_by_role("button", name="Submit result").click()
        expect(mine.get_by_text(f"Result submitted: {name2} confirms it now.")).to_be_visible()
        expect(mine.get_by_text(f"Waiting for {name2} to confirm.")).to_be_visible()
        theirs = phone_of(name2)
        expect(theirs.get_by_text(f"{name1} reported this result. Is it right?")).to_be_visible()
        expect(theirs.get_by_text(f"{s2} – {s1}")).to_be_visible()
        if rnd == 1:
            j.shot("the opponent is asked to confirm", theirs)
        theirs.get_by_role("button", name="Confirm").click()
        expect(theirs.get_by_text("Result confirmed. Thank you!")).to_be_visible()
        if rnd == 1:
            j.shot("confirmed on the opponent's phone", theirs)

        # The director types the other boards into the fast-entry box.
        page.reload()
        expect(page.locator("table.pairings tbody tr").first.get_by_text("Confirmed", exact=True)).to_be_visible()
        lines = [f"{a} {scores(a, b, rnd)[0]} {b} {scores(a, b, rnd)[1]}" for a, _, b, _ in boards[1:]]
        page.get_by_label("Results").fill("\n".join(lines))
        if rnd == 1:
            j.shot("fast entry of the other boards")
        page.get_by_role("button", name="Enter these results").click()
        expect(page.get_by_text("2 results entered.")).to_be_visible()
        expect(page.locator("#round-status")).to_have_text("Complete", use_inner_text=True)
        expect(page.get_by_text("3 confirmed · 0 submitted · 0 disputed · 0 to play")).to_be_visible()
        if rnd in (1, 5):
            j.shot(f"round {rnd} complete")
        page.get_by_role("link", name="Rounds").click()

    # No sixth round is offered once all five are paired.
    expect(page.get_by_text("All 5 rounds are paired.")).to_be_visible()
    expect(page.get_by_role("button", name="Pair the round")).to_have_count(0)
    j.shot("all rounds paired")
    assert Game.objects.filter(division=division).exclude(status=GameStatus.CONFIRMED).count() == 0
    assert set(division.rounds.values_list("status", flat=True)) == {RoundStatus.COMPLETE}
    assert list(division.rounds.order_by("number").values_list("pairing_system", flat=True)) == [
        "random",
        "koth",
        "koth",
        "koth",
        "koth",
    ]

    page.get_by_role("link", name="Standings", exact=True).click()
    first = page.locator("table.standings tbody tr").first
    expect(first.locator(".rank")).to_have_text("1", use_inner_text=True)
    expect(first.get_by_role("link", name="Anna Tan")).to_be_visible()
    expect(first.locator(".wins")).to_have_text("5", use_inner_text=True)
    expect(page.locator("table.standings tbody tr")).to_have_count(6)
    j.shot("standings after five rounds")

    # Every player's scorecard, to print: the leader's shows five wins in round order with running totals.
    page.get_by_role("link", name="Scorecards").click()
    expect(page.locator("section.scorecard")).to_have_count(6)
    anna = page.locator("section.scorecard").filter(has=page.get_by_role("heading", name=re.compile("Anna Tan")))
    lines = anna.locator("tbody tr")
    expect(lines).to_have_count(5)
    for i in range(5):
        expect(lines.nth(i).locator("td").nth(0)).to_have_text(str(i + 1), use_inner_text=True)
        expect(lines.nth(i).locator("td").nth(4)).to_have_text("W", use_inner_text=True)
    expect(lines.nth(4).locator("td").nth(6)).to_have_text("5–0", use_inner_text=True)
    j.shot("every scorecard")

    page.get_by_role("link", name="Prizes").click()
    expect(page.get_by_text("Provisional: the division is not final yet")).to_be_visible()
    winner = page.locator("table.prizes tbody tr").first
    expect(winner.get_by_text("Anna Tan")).to_be_visible()
    expect(winner.get_by_text("Shopping voucher S$100 + trophy")).to_be_visible()
    j.shot("provisional prizes")

    page.get_by_role("link", name="Standings", exact=True).click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finalise A").click()
    expect(page.get_by_text("A is final: its results are locked.")).to_be_visible()
    expect(page.get_by_text("Rating starts once every division is final.").first).to_be_visible()
    j.shot("division finalised")

    # Rating ran in the background once the only division was final.
    page.goto(j.base_url + f"/ratings/events/{event.slug}/")
    expect(page.get_by_role("heading", name="Division A")).to_be_visible()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(6)
    anna = page.get_by_role("row", name=re.compile("Anna Tan"))
    cells = anna.locator("td").all_inner_texts()
    before, after, change = int(cells[5]), int(cells[6]), cells[7]
    assert before == 1800 and after > before and change == f"+{after - before}"
    farah = page.get_by_role("row", name=re.compile("Farah Ismail")).locator("td").all_inner_texts()
    assert int(farah[6]) < 1200 and farah[7].startswith("-")
    expect(page.get_by_text("last rating run: done")).to_be_visible()
    j.shot("rating report")

    assert RatingChange.objects.filter(division__event=event).count() == 6
    assert PlayerRating.objects.get(rating_list=ratings, player=people["Anna Tan"]).rating == after

    # A player sees the final result on the phone.
    phone = phones.get("Anna Tan") or phone_of("Anna Tan")
    phone.goto(j.base_url + f"/events/{event.slug}/play/division/{division.pk}/standings/")
    expect(phone.get_by_text("Final", exact=True)).to_be_visible()
    j.shot("final standings on a phone", phone)
