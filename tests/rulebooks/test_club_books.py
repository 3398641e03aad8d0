"""A club publishes its own rule book: its director (and staff) only, for that club only, at every door (the service,
the club's publishing page, the new-version page, the admin); the club's pages link to it and show it."""

from datetime import date

import pytest
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from rulebooks import services
from rulebooks.models import RuleBook
from tests.clubs.factories import club_with_officers
from tests.factories import ClubFactory
from tests.rulebooks.factories import rule_book, staff_user

pytestmark = pytest.mark.django_db

CLUB_RULES = "1. Clocks are used at the director's call.\n2. No forfeit for arriving late at a club night."


@pytest.fixture
def world():
    association_book, _ = rule_book(title="Association Rules", slug="association-rules")
    staff = staff_user()
    club = ClubFactory(association=association_book.association, name="Bishan Club", slug="bishan")
    return association_book, club_with_officers(staff, club)


def test_a_club_director_publishes_their_club_book_amending_the_association_one(world):
    association_book, cw = world
    version = services.publish_club_book(
        cw.director.user, cw.club, title="Bishan club play", based_on=association_book, text=CLUB_RULES
    )
    book = version.book
    assert (book.club, book.based_on, book.association, version.number) == (
        cw.club,
        association_book,
        cw.club.association,
        1,
    )
    assert services.club_book(cw.club) == book and book.slug == "bishan-rules"
    second = services.publish_version(cw.director.user, book, text=CLUB_RULES + "\n3. Tea.", changes="Rule 3.")
    assert second.number == 2
    with pytest.raises(services.RuleBookError, match="already publishes its rule book"):
        services.publish_club_book(cw.director.user, cw.club, title="Another", based_on=None, text="Other rules.")


def test_only_the_club_director_of_that_club_publishes_it_never_the_association_book(world):
    association_book, cw = world
    other = club_with_officers(staff_user(), ClubFactory(association=cw.club.association, slug="other-club"))
    for outsider in (cw.treasurer.user, cw.member.user, other.director.user):
        with pytest.raises(NotAllowed):
            services.publish_club_book(outsider, cw.club, title="Ours", based_on=None, text=CLUB_RULES)
    version = services.publish_club_book(cw.director.user, cw.club, title="Ours", based_on=None, text=CLUB_RULES)
    with pytest.raises(NotAllowed):
        services.publish_version(other.director.user, version.book, text="Theirs.", changes="All.")
    with pytest.raises(NotAllowed):
        services.publish_version(cw.director.user, association_book, text="Mine now.", changes="All.")
    # Nor may the director move their book to another club, or make it the association's.
    for club in (other.club, None):
        version.book.club = club
        with pytest.raises(NotAllowed):
            services.save_book(cw.director.user, version.book)
    assert RuleBook.objects.get(pk=version.book.pk).club == cw.club


def test_a_club_book_amends_only_its_association_own_book_and_is_all_or_nothing(world):
    association_book, cw = world
    other_club_book = services.publish_club_book(
        staff_user(), ClubFactory(association=cw.club.association, slug="third"), title="T", based_on=None, text="1."
    ).book
    with pytest.raises(services.RuleBookError) as refused:
        services.publish_club_book(cw.director.user, cw.club, title="", based_on=other_club_book, text="")
    assert {field for field, _ in refused.value.problems} == {"title", "based_on", "text"}
    assert services.club_book(cw.club) is None


def test_the_club_pages_link_to_publishing_and_show_the_book(client, world):
    association_book, cw = world
    edit = reverse("clubs:edit", args=[cw.club.slug])
    client.force_login(cw.treasurer.user)
    assert client.get(reverse("rulebooks:club_new", args=[cw.club.slug])).status_code == 403
    client.force_login(cw.director.user)
    assert "Publish the club's rule book" in client.get(edit).content.decode()
    detail = client.get(reverse("clubs:detail", args=[cw.club.slug])).content.decode()
    assert "plays by" in detail and "the association's rule books" in detail
    new = reverse("rulebooks:club_new", args=[cw.club.slug])
    assert "Bishan Club club-play rules" in client.get(new).content.decode()
    refused = client.post(new, {"title": "Club play", "effective_on": "2030-01-01", "text": ""})
    assert refused.status_code == 200 and services.club_book(cw.club) is None
    response = client.post(
        new,
        {"title": "Club play", "based_on": association_book.pk, "effective_on": "2030-01-01", "text": CLUB_RULES},
        follow=True,
    )
    assert "Club play is published." in response.content.decode()
    book = services.club_book(cw.club)
    assert book.based_on == association_book and services.current_version(book).effective_on == date(2030, 1, 1)
    page = client.get(edit).content.decode()
    assert reverse("rulebooks:publish", args=[book.slug]) in page and "Publish a new version" in page
    assert client.get(new).url == reverse("rulebooks:publish", args=[book.slug])
    response = client.post(
        reverse("rulebooks:publish", args=[book.slug]),
        {"effective_on": "2030-02-01", "text": CLUB_RULES + "\n3. Tea.", "changes": "Rule 3."},
        follow=True,
    )
    assert "Version 2 of Club play is published." in response.content.decode()
    detail = client.get(reverse("clubs:detail", args=[cw.club.slug])).content.decode()
    assert "Club play" in detail and "version 2" in detail and "Association Rules" in detail
    client.force_login(cw.treasurer.user)
    assert client.get(reverse("rulebooks:publish", args=[book.slug])).status_code == 403
    assert "Publish the club" not in client.get(reverse("clubs:edit", args=[cw.club.slug])).content.decode()
