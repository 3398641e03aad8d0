import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from players import services
from players.models import Player
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _profile(**overrides):
    data = {"full_name": "Alex Tan", "country": "SG", "school_level": "none", "email": "alex@example.org"}
    data.update(overrides)
    return data


@pytest.fixture
def member(client):
    user = UserFactory(email="alex@example.org")
    client.force_login(user)
    return services.ensure_own_player(user)


def test_the_account_page_shows_the_profile_and_its_own_page_edits_it(client, member):
    response = client.post(reverse("players:profile"), _profile(phone="9123 4567", display_name="Al"))
    assert response.status_code == 302 and response["Location"] == reverse("players:me")
    account = client.get(reverse("players:me")).content.decode()
    assert "Alex Tan (known as Al)" in account and "9123 4567" in account
    assert f'href="{reverse("players:profile")}"' in account and 'name="phone"' not in account
    page = client.get(reverse("players:profile")).content.decode()
    assert 'name="phone" value="9123 4567"' in page and "Save profile" in page
    assert f'href="{reverse("players:me")}"' in page


def test_whole_id_number_is_refused_and_nothing_saved(client, member):
    response = client.post(reverse("players:profile"), _profile(id_last4="S1234567D", phone="999"))
    assert response.status_code == 200
    assert "Only the last four characters" in response.content.decode()
    assert "S1234567D" not in response.content.decode()  # not echoed back either
    member.refresh_from_db()
    assert member.id_last4 == "" and member.phone == ""


def test_id_last4_never_stores_more_than_four(member):
    with pytest.raises(services.MemberError) as info:
        services.update_profile(member.user, member, id_last4="T0123456J")
    assert info.value.field == "id_last4"
    assert Player._meta.get_field("id_last4").max_length == 4


def test_future_date_of_birth_is_refused(client, member):
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    response = client.post(reverse("players:profile"), _profile(date_of_birth=tomorrow.isoformat(), phone="123"))
    assert "cannot be in the future" in response.content.decode()
    member.refresh_from_db()
    assert member.date_of_birth is None and member.phone == ""


def test_players_edit_only_their_own_profile():
    mine = services.ensure_own_player(UserFactory())
    other = PlayerFactory()
    with pytest.raises(NotAllowed):
        services.update_profile(mine.user, other, display_name="Hacked")


def test_staff_can_edit_any_profile():
    other = PlayerFactory()
    services.update_profile(UserFactory(is_staff=True), other, display_name="Fixed")
    other.refresh_from_db()
    assert other.display_name == "Fixed"


def test_member_numbers_are_unique_and_increasing():
    numbers = [services.create_player(full_name=f"P{i}").member_number for i in range(5)]
    assert numbers == sorted(numbers) and len(set(numbers)) == 5


def test_directory_searches_by_name_and_club_and_paginates(client):
    from tests.factories import ClubFactory

    club = ClubFactory(name="Jurong Green")
    for i in range(30):
        PlayerFactory(full_name=f"Zed Member{i:02d}", club=club if i % 2 else None)
    PlayerFactory(full_name="Hidden Person", listed_in_directory=False)
    page1 = client.get(reverse("players:directory"), {"q": "zed"}).content.decode()
    assert "Page 1 of 2" in page1 and "Zed Member00" in page1
    by_club = client.get(reverse("players:directory"), {"club": club.pk}).content.decode()
    assert "Zed Member01" in by_club and "Zed Member02" not in by_club
    assert "Hidden Person" not in client.get(reverse("players:directory")).content.decode()


def test_a_directory_search_of_any_length_answers_the_page(client):
    """A name search is at most 100 characters, as on the other pages: 100,000 once made SQLite refuse the query
    (a pattern too complex for LIKE) and answer a server error."""
    PlayerFactory(full_name="Zed Member")
    response = client.get(reverse("players:directory"), {"q": "x" * 100_000})
    assert response.status_code == 200
    assert response.context["form"].errors["q"] == ["Ensure this value has at most 100 characters (it has 100000)."]


def test_directory_query_count_is_constant(client, django_assert_max_num_queries):
    for i in range(40):
        PlayerFactory(full_name=f"Q{i}")
    with django_assert_max_num_queries(4):
        client.get(reverse("players:directory"))


def test_player_page_shows_profile_and_membership(client):
    from tests.factories import MembershipFactory

    m = MembershipFactory(player__full_name="Mona Member", player__phone="9123 4567")
    html = client.get(m.player.get_absolute_url()).content.decode()
    assert "Mona Member" in html and "Current member" in html
    assert "9123 4567" not in html  # private details only for the member and staff


def test_the_profile_says_which_address_gets_event_mail_and_which_logs_in(client, member):
    page = client.get(reverse("players:profile")).content.decode()
    assert "Email for event mail" in page
    assert "Entries, waiting-list offers, payments and results are sent here." in page
    assert "You log in with alex@example.org: change that under Email addresses." in page
