"""A director brings a real tsh division into a new event in the browser: a damaged copy is refused with its line,
the real file is previewed, two players are mapped to existing members, and the standings are tsh's own."""

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EventStatus
from events.play.core import tsh
from events.play.models import Division, DivisionPlayer
from tests.e2e.conftest import log_in
from tests.events.factories import EventFactory
from tests.factories import AssociationFactory, PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "tsh"
NASPA_FILE = SHARED / "jvc56_tpa_86aeb79_test_data_a.t"


def test_director_imports_a_real_tsh_file_maps_two_members_and_sees_tsh_s_standings(journey, member, tmp_path):
    if not NASPA_FILE.exists():
        pytest.skip(f"{NASPA_FILE} is not here (the shared fixtures live beside the project)")
    text = NASPA_FILE.read_bytes()
    f = tsh.parse_t(tsh.decode_tsh_bytes(text))
    AssociationFactory()
    event = EventFactory(
        title="Club Open (from tsh)",
        slug="club-open-from-tsh",
        status=EventStatus.IN_PROGRESS,
        starts_on=timezone.localdate(),
        number_of_games=23,
        rated=False,
    )
    director, _ = member("Dora Director", player=False)
    event.directors.add(director)
    # Two players of the file are already members; a second "Joshua Castellano" means the director must choose.
    adam = PlayerFactory(full_name="Adam Logan", family_name="Logan")
    joshua = PlayerFactory(full_name="Joshua Castellano", family_name="Castellano")
    PlayerFactory(full_name="Joshua Castellano", family_name="Castellano")

    lines = text.decode().splitlines()
    lines[4] = lines[4].replace(";", "; x", 1)  # line 5: a score that is not a number
    damaged = tmp_path / "damaged.t"
    damaged.write_text("\n".join(lines) + "\n")

    j = journey("director-imports-tsh")
    page = log_in(j.page, j.base_url, director.email, next_path=f"/events/{event.slug}/play/")
    page.get_by_role("link", name="Import a tsh file").click()
    expect(page.get_by_role("heading", name="Import a tsh file")).to_be_visible()
    page.set_input_files("#id_t_file", str(damaged))
    page.get_by_role("button", name="Read the file").click()
    expect(page.locator(".alert-danger, .invalid-feedback, .errorlist").first).to_contain_text("Line 5")
    j.shot("a damaged line is named")
    assert not Division.objects.filter(event=event).exists()

    page.set_input_files("#id_t_file", str(NASPA_FILE))
    page.fill("#id_division_name", "A")
    page.get_by_role("button", name="Read the file").click()
    expect(page.locator("#import-summary")).to_contain_text("24 players, 23 rounds")
    expect(page.locator("#import-summary")).to_contain_text("22 players are not yet a member")
    expect(page.locator("#import-summary")).to_contain_text("1 may be a member: choose below")
    expect(page.locator("#import-players tbody tr")).to_have_count(24)
    page.select_option("#player_1", str(adam.pk))
    page.select_option("#player_2", str(joshua.pk))
    for row in range(3, 25):
        if page.locator(f"#player_{row} option[value='']").count():
            page.select_option(f"#player_{row}", "new")
    j.shot("the preview with two members chosen")
    assert not Division.objects.filter(event=event).exists()  # nothing saved before the import
    page.get_by_role("button", name="Import division A").click()

    expect(page.locator("table.standings")).to_be_visible()
    j.shot("tsh's standings")
    final = sorted(f.players, key=lambda p: p.rrank[-1])
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(24)
    for position, p in enumerate(final):  # every row where tsh ranked it
        given_first = " ".join(reversed([part.strip() for part in p.name.split(",")]))
        expect(rows.nth(position)).to_contain_text(given_first)
    seats = dict(DivisionPlayer.objects.filter(division__event=event).values_list("number", "player_id"))
    assert seats[1] == adam.pk and seats[2] == joshua.pk
