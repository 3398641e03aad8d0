"""Staff publish rule books: numbered, dated versions that never change, each saying what changed; public pages show
the current version, any past one and what changed."""

import time
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from rulebooks import services
from rulebooks.models import RuleBook, RuleBookVersion
from tests.factories import AssociationFactory, ClubFactory, UserFactory
from tests.rulebooks.factories import rule_book, staff_user

pytestmark = pytest.mark.django_db


def test_versions_are_numbered_dated_rendered_and_keep_a_diff():
    book, (first, second) = rule_book(versions=("1. Play *fair*.\n2. Keep score.", "1. Play *fair*.\n2. Keep time."))
    assert (first.number, second.number) == (1, 2)
    assert first.effective_on == date(2021, 1, 1) and second.effective_on == date(2022, 1, 1)
    assert "<em>fair</em>" in first.text_html
    assert first.diff == "" and second.changes_html == "<p>Change 2.</p>\n"
    assert "-2. Keep score." in second.diff and "+2. Keep time." in second.diff
    assert str(second) == "Tournament Rules, version 2 of 1 January 2022"
    assert services.current_version(book) == second


def test_a_new_version_says_what_changed_differs_and_applies_no_earlier():
    book, (first,) = rule_book()
    staff = staff_user()
    with pytest.raises(services.RuleBookError) as refusal:
        services.publish_version(staff, book, text=first.text, effective_on=date(2020, 1, 1))
    fields = {field for field, _ in refusal.value.problems}
    assert fields == {"text", "changes", "effective_on"}
    assert "same as version 1" in refusal.value.message
    assert RuleBookVersion.objects.count() == 1


def test_the_text_is_required_and_bounded():
    book, _ = rule_book(versions=())
    staff = staff_user()
    for text, words in (("  ", "Write the rule book's text."), ("x" * 200_001, "at most 200,000"), ("a\x00", "NUL")):
        with pytest.raises(services.RuleBookError) as refusal:
            services.publish_version(staff, book, text=text)
        assert words in refusal.value.message
    assert not RuleBookVersion.objects.exists()


def test_only_staff_publish():
    book, _ = rule_book()
    with pytest.raises(NotAllowed):
        services.publish_version(UserFactory(), book, text="Other rules", changes="All.")


def test_a_club_book_belongs_to_a_club_of_its_association():
    club = ClubFactory(association=AssociationFactory(slug="other", name="Other Association"))
    with pytest.raises(services.RuleBookError):
        rule_book(club=club)  # the book is the default association's
    book, _ = rule_book(association=club.association, club=club, slug="club-rules")
    assert book.club == club


def test_the_pages_show_the_current_version_a_past_one_and_what_changed(client, django_assert_max_num_queries):
    book, (first, second) = rule_book(versions=("1. Old rule.", "1. New rule."))
    listing = client.get(reverse("rulebooks:list")).content.decode()
    assert "Tournament Rules" in listing and "version 2" in listing
    with django_assert_max_num_queries(8):
        current = client.get(reverse("rulebooks:book", args=[book.slug])).content.decode()
    assert "New rule." in current and "This is the current version." in current
    assert "What changed in version 2" in current and "Change 2." in current
    past = client.get(reverse("rulebooks:version", args=[book.slug, 1])).content.decode()
    assert "Old rule." in past and "A past version" in past
    assert reverse("rulebooks:version", args=[book.slug, 2]) in past
    assert client.get(reverse("rulebooks:version", args=[book.slug, 3])).status_code == 404
    assert client.get(f"/rules/{book.slug}/version/99999999999999999999/").status_code == 404


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as done:
        assert client.get(url).status_code == 200
    return len(done)


def test_the_pages_take_constant_queries_however_many_versions_and_books(client):
    book, versions = rule_book(versions=[f"{n}. Rule." for n in range(1, 4)])
    pages = [reverse("rulebooks:book", args=[book.slug]), reverse("rulebooks:list")]
    few = [_queries(client, url) for url in pages]
    staff = staff_user()
    for n in range(4, 30):
        services.publish_version(staff, book, text=f"{n}. Rule.", changes="One more.", effective_on=date(2030, 1, 1))
    for n in range(10):
        rule_book(association=book.association, slug=f"book-{n}")
    assert [_queries(client, url) for url in pages] == few


def test_staff_publish_a_new_version_on_their_page(client):
    book, (first,) = rule_book(versions=("1. Play fair.",))
    client.force_login(UserFactory())
    assert client.get(reverse("rulebooks:publish", args=[book.slug])).status_code == 403
    client.force_login(staff_user())
    form = client.get(reverse("rulebooks:publish", args=[book.slug])).content.decode()
    assert "This becomes version 2" in form and "1. Play fair." in form
    refused = client.post(
        reverse("rulebooks:publish", args=[book.slug]), {"effective_on": "2030-01-01", "text": "1. Play fair."}
    )
    page = refused.content.decode()
    assert "same as version 1" in page and "Say what changed since version 1." in page
    response = client.post(
        reverse("rulebooks:publish", args=[book.slug]),
        {"effective_on": "2030-01-01", "text": "1. Play fair.\n2. Be kind.", "changes": "Rule 2 added."},
        follow=True,
    )
    assert "Version 2 of Tournament Rules is published." in response.content.decode()
    assert services.current_version(book).text.endswith("Be kind.")


def test_the_admin_publishes_a_version_and_never_changes_one(client):
    book, (first,) = rule_book()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    add = reverse("admin:rulebooks_rulebookversion_add")
    refused = client.post(add, {"book": book.pk, "effective_on": "2030-01-01", "text": first.text})
    assert refused.status_code == 200 and "Say what changed since version 1." in refused.content.decode()
    client.post(add, {"book": book.pk, "effective_on": "2030-01-01", "text": "2. New.", "changes": "New."})
    assert list(book.versions.values_list("number", flat=True)) == [2, 1]
    change = reverse("admin:rulebooks_rulebookversion_change", args=[first.pk])
    assert client.post(change, {"book": book.pk, "effective_on": "2030-01-01", "text": "Changed"}).status_code == 403
    first.refresh_from_db()
    assert first.text == "1. Play fair."


def test_a_huge_nested_book_is_published_once_and_shown_within_the_budget(client):
    """The text is rendered once, when published (a staff write, rare); every view shows the stored HTML, so even
    100,000 characters of nested Markdown cost a page no more than reading them."""
    nested = "> " * 2000 + "- " * 2000 + "[" * 20_000 + "*a* " * 10_000
    text = (nested + "\n" + "1. rule\n" * 5_000)[:100_000]
    book, (first,) = rule_book(versions=("1. Short.",))
    version = services.publish_version(staff_user(), book, text=text, changes="Everything.")
    assert len(version.text) == 100_000 and version.text_html
    for url in (reverse("rulebooks:version", args=[book.slug, version.number]), book.get_absolute_url()):
        started = time.monotonic()
        response = client.get(url)
        assert response.status_code == 200 and time.monotonic() - started < 1


def test_the_demo_publishes_two_versions_and_the_seed_event_follows_the_second(settings):
    import io

    from django.apps import apps

    from events.models import Entry, Event
    from players import demo as members_demo

    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("rulebooks").load_demo(out)
    apps.get_app_config("events").load_demo(out)
    book = RuleBook.objects.get(slug="tournament-rules")
    assert list(book.versions.values_list("number", flat=True)) == [2, 1]
    assert "CSW19" in book.versions.get(number=2).changes
    assert RuleBook.objects.filter(slug="wespa-rules").exists()
    event = Event.objects.get(title="Jurong Green Students' Scrabble Championship")
    assert event.rule_book_version.number == 2 and event.rule_amendments_html
    agreed = Entry.objects.filter(event=event).values_list("rules_version__number", flat=True)
    assert set(agreed) == {2}
