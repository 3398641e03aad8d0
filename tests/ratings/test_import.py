"""Seeding a list from a ratings file: matching names, review, line-numbered errors, atomicity."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.kit.errors import NotAllowed, ServiceError
from players.models import Player
from ratings import services
from ratings.models import ImportStatus, MatchKind, PlayerRating
from tests.factories import PlayerFactory, UserFactory

from .factories import RatedEventFactory, RatingListFactory, play, round_robin

pytestmark = pytest.mark.django_db

FILE = """name\trating\trank\texpires\tgames
Tan, Wei Ling\t1850\t1\t2026-12-31\t412
Adrian Goh\t1422\t-\t-\t38
Lim Bee Hoon\t1700\t2\t20270131\t150
Kumar Suresh\t1500\t3\t-\t90
"""


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


@pytest.fixture
def members():
    return {
        "tan": PlayerFactory(full_name="Tan Wei Ling"),
        "goh": PlayerFactory(full_name="Adrian Goh"),
        "lim": PlayerFactory(full_name="Lim Bee Hoon"),
        "lim2": PlayerFactory(full_name="Lim Bee Hoon"),
        "kumar": PlayerFactory(full_name="Kumar Sureesh"),
    }


def test_parse_tolerates_a_header_comments_and_space_separated_columns():
    lines, errors = services.parse_rating_file(
        "# exported 2026-01-01\nName  Rating  Rank  Expires  Games\n\nTan, Wei Ling   1850  1  2026-12-31  412\n"
    )
    assert errors == []
    assert [(p.line_number, p.name, p.rating, p.rank, p.expires_on, p.games) for p in lines] == [
        (4, "Tan, Wei Ling", 1850, 1, date(2026, 12, 31), 412)
    ]


def test_bad_lines_are_reported_by_number_and_nothing_is_imported(staff, members):
    rating_list = RatingListFactory()
    text = FILE + "Ng Ah Kow\tabc\t4\t-\t10\nOng Mei\t1400\t5\n\nYeo Jun\t1300\t6\t2026-13-40\t5\n"
    with pytest.raises(ServiceError) as refused:
        services.prepare_rating_import(staff, rating_list, text)
    message = refused.value.message
    assert "3 lines could not be read" in message
    assert "line 6: rating 'abc' is not a whole number" in message
    assert "line 7: expected 5 columns" in message
    assert "line 9: expiry '2026-13-40' is not a date" in message
    assert not rating_list.imports.exists()
    assert not PlayerRating.objects.exists()


def test_names_are_matched_exactly_reviewed_when_doubtful_or_new(staff, members):
    rating_list = RatingListFactory()
    imp = services.prepare_rating_import(staff, rating_list, FILE, as_of=date(2026, 1, 1))
    lines = {line.name: line for line in imp.lines.all()}

    assert lines["Tan, Wei Ling"].match == MatchKind.EXACT  # "Surname, Given" read both ways
    assert lines["Tan, Wei Ling"].player == members["tan"]
    assert lines["Adrian Goh"].match == MatchKind.EXACT
    assert lines["Lim Bee Hoon"].match == MatchKind.REVIEW  # two members of that name
    assert set(lines["Lim Bee Hoon"].candidates) == {members["lim"].pk, members["lim2"].pk}
    assert lines["Kumar Suresh"].match == MatchKind.REVIEW  # a close spelling
    assert lines["Kumar Suresh"].candidates[0] == members["kumar"].pk
    assert not PlayerRating.objects.exists()  # nothing until applied

    unknown = services.prepare_rating_import(staff, RatingListFactory(), "Zoe Zhang\t1600\t1\t-\t20\n")
    assert unknown.lines.get().match == MatchKind.NEW


def test_applying_needs_a_decision_for_every_doubtful_line(staff, members):
    rating_list = RatingListFactory()
    imp = services.prepare_rating_import(staff, rating_list, FILE)
    lim = imp.lines.get(name="Lim Bee Hoon")
    with pytest.raises(ServiceError, match=r"line 5\.$"):
        services.apply_rating_import(staff, imp, {lim.pk: members["lim2"].pk})
    assert not PlayerRating.objects.exists()


def test_applying_seeds_the_list_all_at_once(staff, members):
    rating_list = RatingListFactory()
    imp = services.prepare_rating_import(staff, rating_list, FILE, as_of=date(2026, 1, 1))
    lim = imp.lines.get(name="Lim Bee Hoon")
    kumar = imp.lines.get(name="Kumar Suresh")
    before = Player.objects.count()

    services.apply_rating_import(staff, imp, {lim.pk: members["lim2"].pk, kumar.pk: services.NEW_PLAYER})

    imp.refresh_from_db()
    assert imp.status == ImportStatus.APPLIED
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(rating_list=rating_list)}
    assert ratings[members["tan"].pk].rating == 1850 and ratings[members["tan"].pk].games == 412
    assert ratings[members["lim2"].pk].rating == 1700 and ratings[members["lim2"].pk].seed_on == date(2026, 1, 1)
    assert members["lim"].pk not in ratings and members["kumar"].pk not in ratings
    assert Player.objects.count() == before + 1
    newcomer = Player.objects.exclude(pk__in=[p.pk for p in members.values()]).get()
    assert ratings[newcomer.pk].rating == 1500
    with pytest.raises(ServiceError, match="already applied"):
        services.apply_rating_import(staff, imp, {})


def test_two_lines_cannot_seed_the_same_member(staff, members):
    rating_list = RatingListFactory()
    imp = services.prepare_rating_import(staff, rating_list, FILE)
    lim = imp.lines.get(name="Lim Bee Hoon")
    kumar = imp.lines.get(name="Kumar Suresh")
    with pytest.raises(ServiceError, match="Lines 3 and 4 are the same member"):
        services.apply_rating_import(staff, imp, {lim.pk: members["goh"].pk, kumar.pk: services.NEW_PLAYER})
    assert not PlayerRating.objects.exists()
    assert Player.objects.count() == len(members)  # the new player was rolled back too


def test_only_staff_import_and_only_before_the_first_rated_event(staff, members):
    rating_list = RatingListFactory()
    with pytest.raises(NotAllowed):
        services.prepare_rating_import(UserFactory(), rating_list, FILE)
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(PlayerFactory.create_batch(4)))
    services.rate_event(event)
    with pytest.raises(ServiceError, match="already has rated events"):
        services.prepare_rating_import(staff, rating_list, FILE)


def test_upload_review_and_apply_pages(client, staff, members):
    rating_list = RatingListFactory()
    client.force_login(staff)
    upload = client.post(
        reverse("ratings:import", args=[rating_list.slug]),
        {"file": SimpleUploadedFile("ratings.txt", FILE.encode()), "as_of": "2026-01-01"},
    )
    imp = rating_list.imports.get()
    assert upload["Location"] == imp.get_absolute_url()
    review = client.get(imp.get_absolute_url())
    html = review.content.decode()
    assert "2 to review" in html and "Kumar Sureesh" in html and "New player" in html
    lim = imp.lines.get(name="Lim Bee Hoon")
    kumar = imp.lines.get(name="Kumar Suresh")
    missing = client.post(imp.get_absolute_url(), {f"line_{lim.pk}": members["lim"].pk, "apply": "1"})
    assert "line 5" in missing.content.decode()
    done = client.post(
        imp.get_absolute_url(), {f"line_{lim.pk}": members["lim"].pk, f"line_{kumar.pk}": members["kumar"].pk}
    )
    assert done.status_code == 302
    assert PlayerRating.objects.get(rating_list=rating_list, player=members["kumar"]).rating == 1500


def test_a_bad_file_on_the_upload_page_lists_its_lines(client, staff):
    rating_list = RatingListFactory()
    client.force_login(staff)
    response = client.post(
        reverse("ratings:import", args=[rating_list.slug]),
        {"file": SimpleUploadedFile("r.txt", b"Tan Wei Ling\t18x0\t1\t-\t4\n"), "as_of": "2026-01-01"},
    )
    assert response.status_code == 200
    assert "line 1: rating &#x27;18x0&#x27; is not a whole number" in response.content.decode()


def test_import_pages_are_for_staff_only(client):
    rating_list = RatingListFactory()
    client.force_login(UserFactory())
    assert client.get(reverse("ratings:import", args=[rating_list.slug])).status_code == 403


def test_import_command(tmp_path, staff, members):
    import io

    from django.core.management import CommandError, call_command

    rating_list = RatingListFactory()
    path = tmp_path / "ratings.txt"
    path.write_text(FILE, encoding="utf-8")
    out = io.StringIO()
    call_command("import_ratings", rating_list.slug, str(path), "--user", staff.email, "--apply", stdout=out)
    assert "2 to review" in out.getvalue() and "/ratings/imports/" in out.getvalue()
    assert not PlayerRating.objects.exists()

    clean = tmp_path / "clean.txt"
    clean.write_text("Adrian Goh\t1422\t-\t-\t38\n", encoding="utf-8")
    call_command("import_ratings", rating_list.slug, str(clean), "--user", staff.email, "--apply", stdout=out)
    assert PlayerRating.objects.get(rating_list=rating_list, player=members["goh"]).rating == 1422

    bad = tmp_path / "bad.txt"
    bad.write_text("Adrian Goh\tx\t-\t-\t38\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 1"):
        call_command("import_ratings", rating_list.slug, str(bad), "--user", staff.email, stdout=out)


def test_a_new_imported_list_shows_its_ranked_players_to_the_public(client, staff, members):
    """The file says nothing of when each player last played: a rank says they were active when it was published."""
    from django.utils import timezone
    from rest_framework.test import APIClient

    rating_list = RatingListFactory(active_months=12)
    client.force_login(staff)
    today = timezone.localdate()
    client.post(
        reverse("ratings:import", args=[rating_list.slug]),
        {"file": SimpleUploadedFile("ratings.txt", FILE.encode()), "as_of": today.isoformat()},
    )
    imp = rating_list.imports.get()
    lim, kumar = imp.lines.get(name="Lim Bee Hoon"), imp.lines.get(name="Kumar Suresh")
    client.post(imp.get_absolute_url(), {f"line_{lim.pk}": members["lim"].pk, f"line_{kumar.pk}": "new"})
    client.logout()

    page = client.get(rating_list.get_absolute_url()).content.decode()
    for name in ("Tan Wei Ling", "Lim Bee Hoon", "Kumar Suresh"):  # ranked 1, 2 and 3 in the file
        assert name in page
    assert "Adrian Goh" not in page  # ranked "-": not active when the list was published
    assert "Adrian Goh" in client.get(rating_list.get_absolute_url() + "?all=on").content.decode()
    assert "Kumar Suresh" in client.get(reverse("ratings:list_csv", args=[rating_list.slug])).content.decode()
    api = APIClient().get("/api/ratings/", {"rating_list": rating_list.slug}).json()
    assert sorted(row["rating"] for row in api["results"]) == [1500, 1700, 1850]
    snapshot = services.take_snapshot(rating_list)
    assert sorted(e.rank for e in snapshot.entries.all() if e.rank) == [1, 2, 3]
    # "Last played" stays honest: the file does not say.
    assert not PlayerRating.objects.filter(rating_list=rating_list, last_played__isnull=False).exists()

    # A list published longer ago than the active months shows its players only with the inactive ones.
    later = services.rated_players(rating_list, today=today.replace(year=today.year + 2))
    assert not later.exists()


def test_a_list_with_rated_events_offers_no_import_and_says_why_before_any_upload(client, staff):
    rated = RatingListFactory(name="CSW24 list")
    event = RatedEventFactory(rating_list=rated)
    play(event, round_robin(PlayerFactory.create_batch(4)))
    services.rate_event(event)
    fresh = RatingListFactory(name="NWL23 list")
    client.force_login(staff)

    assert "Import ratings file" not in client.get(rated.get_absolute_url()).content.decode()
    assert "Import ratings file" in client.get(fresh.get_absolute_url()).content.decode()

    page = client.get(reverse("ratings:import", args=[rated.slug])).content.decode()
    assert "CSW24 list already has rated events: a ratings file can only seed a list before its first" in page
    assert 'type="file"' not in page
    response = client.post(
        reverse("ratings:import", args=[rated.slug]),
        {"file": SimpleUploadedFile("ratings.txt", FILE.encode()), "as_of": "2026-01-01"},
    )
    assert "already has rated events" in response.content.decode() and not rated.imports.exists()
    assert 'type="file"' in client.get(reverse("ratings:import", args=[fresh.slug])).content.decode()
