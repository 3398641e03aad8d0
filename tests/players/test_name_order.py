"""Names in each person's own order: family name first or last, or no family name at all."""

import pytest
from django.urls import reverse

from events.play import services as play
from events.play.core import tsh
from events.play.models import Division, DivisionPlayer
from events.play.services import tsh_io
from players import names, services
from players.models import Player
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory
from tests.factories import PlayerFactory, UserFactory

PEOPLE = [  # full name as on ID, family name, as tsh lists them
    ("Chua Xavier", "Chua", "Chua, Xavier"),
    ("Tan Ah Kow", "Tan", "Tan, Ah Kow"),
    ("Muhammad Irfan", "", "Muhammad Irfan"),
    ("John Smith", "Smith", "Smith, John"),
    ("Ow Yang Wei Ming", "Ow Yang", "Ow Yang, Wei Ming"),
]


@pytest.mark.parametrize(("full", "family", "written"), PEOPLE)
def test_tsh_name_keeps_the_person_s_order(full, family, written):
    assert names.tsh_name(full, family) == written
    assert names.family_name_problem(full, family) is None


def test_a_family_name_must_begin_or_end_the_full_name():
    assert "begins or ends" in names.family_name_problem("Chua Xavier", "Tan")
    assert "only part" in names.family_name_problem("Irfan", "Irfan")
    assert names.name_parts("Chua Xavier", "chua").family_first is True
    assert names.name_parts("John Smith", "Smith").family_first is False
    assert names.name_parts("Muhammad Irfan").family_first is None


def test_sorted_by_family_name():
    people = [(full, family) for full, family, _ in PEOPLE]
    ordered = sorted(people, key=lambda p: names.sort_key(*p))
    assert [full for full, _ in ordered] == [
        "Chua Xavier",
        "Muhammad Irfan",
        "Ow Yang Wei Ming",
        "John Smith",
        "Tan Ah Kow",
    ]


@pytest.mark.django_db
def test_the_tsh_export_writes_family_name_first_and_never_reverses_a_name_without_one(client, director):
    event = EventFactory()
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for number, (full, family, _) in enumerate(PEOPLE, start=1):
        player = PlayerFactory(full_name=full, family_name=family)
        DivisionPlayer.objects.create(division=division, player=player, number=number, rating=1500)
    client.force_login(director)
    response = client.get(reverse("events:play_download_t", args=[event.slug, division.pk]))
    text = b"".join(response.streaming_content if response.streaming else [response.content]).decode("latin-1")
    assert [p.name for p in tsh.parse_t(text).players] == [written for _, _, written in PEOPLE]
    assert "Xavier, Chua" not in text and "Irfan, Muhammad" not in text
    assert tsh_io.export_tsh(division) == text


@pytest.mark.django_db
def test_people_set_their_family_name_on_the_profile_and_at_sign_up(client):
    user = UserFactory(email="irfan@example.org")
    client.force_login(user)
    member = services.ensure_own_player(user)
    profile = {"full_name": "Chua Xavier", "country": "SG", "school_level": "none", "email": "irfan@example.org"}
    assert 'name="family_name"' in client.get(reverse("players:profile")).content.decode()
    response = client.post(reverse("players:profile"), {**profile, "family_name": "Xavier Tan"})
    assert "begins or ends your full name" in response.content.decode()
    client.post(reverse("players:profile"), {**profile, "family_name": "Chua"})
    member.refresh_from_db()
    assert (member.family_name, member.tsh_name) == ("Chua", "Chua, Xavier")
    client.logout()
    password = "tiles-and-racks-77"
    client.post(
        reverse("account_signup"),
        {
            "email": "new@example.org",
            "full_name": "Muhammad Irfan",
            "family_name": "",
            "password1": password,
            "password2": password,
        },
    )
    irfan = Player.objects.get(user__email="new@example.org")
    assert (irfan.family_name, irfan.tsh_name) == ("", "Muhammad Irfan")


@pytest.mark.django_db
def test_the_directory_lists_members_by_family_name(client):
    for full, family, _ in reversed(PEOPLE):
        PlayerFactory(full_name=full, family_name=family, listed_in_directory=True)
    html = client.get(reverse("players:directory")).content.decode()
    positions = [html.index(full) for full, _, _ in PEOPLE]
    order = [full for _, full in sorted(zip(positions, [p[0] for p in PEOPLE], strict=True))]
    assert order == ["Chua Xavier", "Muhammad Irfan", "Ow Yang Wei Ming", "John Smith", "Tan Ah Kow"]


@pytest.mark.django_db
def test_equal_ratings_are_seeded_by_family_name(director):
    event = EventFactory()
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Open")
    for full, family, _ in PEOPLE:
        EntryFactory(category=category, player=PlayerFactory(full_name=full, family_name=family))
    play.assign_divisions(director, event)
    seats = DivisionPlayer.objects.filter(division__event=event).order_by("number")
    assert [s.player.full_name for s in seats] == [
        "Chua Xavier",
        "Muhammad Irfan",
        "Ow Yang Wei Ming",
        "John Smith",
        "Tan Ah Kow",
    ]


@pytest.fixture
def director():
    return UserFactory(email="td@example.org")
