"""An event follows a rule book version with its own amendments; entrants agree to that version at every door (the
entry form, the group form, the API) and the entry records which; the organiser sees it on the entries page, in the
CSV and in the API."""

import csv
import io

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from events import services
from events.models import Entry, Event, GroupEntry
from rulebooks import services as rule_books
from tests.events.factories import (
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
    player_with_account,
)
from tests.events.test_pages import group_post
from tests.factories import AssociationFactory, ClubFactory, UserFactory
from tests.rulebooks.factories import rule_book, staff_user

pytestmark = pytest.mark.django_db


def following(versions=("1. Play fair.", "1. Play fair.\n2. Keep score."), **event_fields):
    """An open event that follows the last version of a two-version rule book, with amendments."""
    book, published = rule_book(versions=versions)
    fields = {"rule_book_version": published[-1], "rule_amendments": "Rule 2 does not apply.", **event_fields}
    event, category, (fee,) = open_event(association=book.association, **fields)
    return event, category, fee, published


def test_an_entry_records_the_version_agreed_to():
    event, category, fee, (_, current) = following()
    player = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        services.register_entry(player.user, event, category=category, fee=fee)
    assert refusal.value.field == "accept_rules"
    assert "Tournament Rules, version 2 of 1 January 2022" in refusal.value.message
    assert "/rules/rules/version/2/" in refusal.value.message
    entry = services.register_entry(player.user, event, category=category, fee=fee, accept_rules=True)
    assert entry.rules_version == current and entry.rules_accepted_at


def test_agreeing_to_a_version_the_event_has_left_is_refused():
    event, category, fee, (old, current) = following()
    with pytest.raises(services.RegistrationError) as refusal:
        services.register_entry(
            player_with_account().user, event, category=category, fee=fee, accept_rules=True, agreed_version=old.pk
        )
    assert "now follows Tournament Rules, version 2" in refusal.value.message
    assert not Entry.objects.exists()


def test_an_event_naming_no_rule_book_keeps_its_own_rules_and_indemnity():
    event, category, (fee,) = open_event(rules_agreement="Play fair.")
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee, accept_rules=True)
    assert entry.rules_accepted_at and entry.rules_version is None
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    assert entry.rules_accepted_at is None and entry.rules_version is None


def test_the_entry_form_names_and_links_the_version_and_shows_the_amendments(client, on_commit):
    event, category, fee, (_, current) = following(rules_agreement="No liability.")
    player = player_with_account()
    client.force_login(player.user)
    url = reverse("events:enter", args=[event.slug])
    page = client.get(url).content.decode()
    link = reverse("rulebooks:version", args=["rules", 2])
    assert f'I agree to <a href="{link}" target="_blank">Tournament Rules, version 2 of 1 January 2022</a>' in page
    assert "with this event&#x27;s amendments, and to the rules and indemnity above." in page
    assert "Rule 2 does not apply." in page and "No liability." in page
    option = f"{category.pk}:{fee.pk}"
    refused = client.post(url, {"option": option, "agreed_version": current.pk}).content.decode()
    assert "Agree to Tournament Rules, version 2" in refused and not Entry.objects.exists()
    with on_commit(execute=True):
        client.post(url, {"option": option, "accept_rules": "on", "agreed_version": current.pk})
    assert Entry.objects.get().rules_version == current
    (received,) = mail.outbox
    assert "You agreed to Tournament Rules, version 2 of 1 January 2022, with the event's amendments" in received.body


def test_the_event_page_shows_the_version_and_the_amendments_beside_it(client):
    event, *_ = following()
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Tournament Rules, version 2 of 1 January 2022" in page
    assert "Amendments to the rule book" in page and "Rule 2 does not apply." in page


def test_a_group_and_each_of_its_students_record_the_version(client, on_commit):
    event, category, fee, (_, current) = following()
    teacher = UserFactory()
    client.force_login(teacher)
    page = client.get(reverse("events:enter_group", args=[event.slug])).content.decode()
    assert "On behalf of the students entered, I agree to <a" in page
    students = [{"full_name": "Alice Ong", "option": f"{category.pk}:{fee.pk}"}]
    data = group_post(event, students, agreed_version=str(current.pk))
    with on_commit(execute=True):
        client.post(reverse("events:enter_group", args=[event.slug]), data)
    group = GroupEntry.objects.get()
    assert group.rules_version == current
    assert [e.rules_version for e in group.entries.all()] == [current]
    assert "you agreed to Tournament Rules, version 2" in mail.outbox[0].body
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert "Agreed to <a" in page and "on the students' behalf" in page


def test_the_api_takes_the_agreement_and_shows_the_version(client):
    event, category, fee, (old, current) = following()
    player = player_with_account()
    api = APIClient()
    api.force_authenticate(player.user)
    detail = api.get(f"/api/events/{event.slug}/").json()
    assert detail["rule_book_version"] == current.pk
    assert detail["rule_book"] == "Tournament Rules, version 2 of 1 January 2022"
    assert detail["rule_book_url"] == "/rules/rules/version/2/" and detail["rule_amendments"]
    body = {"event": event.slug, "category": category.pk, "fee": fee.pk}
    refused = api.post("/api/my/entries/", body, format="json")
    assert refused.status_code == 400 and "Tournament Rules, version 2" in str(refused.json())
    stale = api.post("/api/my/entries/", {**body, "accept_rules": True, "agreed_version": old.pk}, format="json")
    assert stale.status_code == 400
    made = api.post("/api/my/entries/", {**body, "accept_rules": True, "agreed_version": current.pk}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["rules_version"] == current.pk
    assert made.json()["rules_agreed"] == "Tournament Rules, version 2 of 1 January 2022"
    api.force_authenticate(event.owner)
    listed = api.get("/api/organiser/entries/").json()["results"]
    assert [e["rules_agreed"] for e in listed] == ["Tournament Rules, version 2 of 1 January 2022"]


def test_the_organiser_sees_the_version_each_entrant_agreed_to(client):
    event, category, fee, (old, current) = following()
    first = services.register_entry(player_with_account().user, event, category=category, fee=fee, accept_rules=True)
    # The event moves to a new version: entries made before keep the version they agreed to.
    newer = rule_books.publish_version(
        staff_user(), current.book, text="1. Play fair.\n2. Keep score.\n3. Be kind.", changes="Rule 3."
    )
    services.update_event(event.owner, event, rule_book_version=newer)
    event.refresh_from_db()
    second = services.register_entry(player_with_account().user, event, category=category, fee=fee, accept_rules=True)
    assert (first.rules_version, second.rules_version) == (current, newer)
    client.force_login(event.owner)
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert "Agreed to <a" in page and "Tournament Rules, version 2</a>" in page and "version 3</a>" in page
    rows = list(csv.reader(io.StringIO(client.get(reverse("events:export", args=[event.slug])).content.decode())))
    column = rows[0].index("Rules agreed to")
    assert [row[column] for row in rows[1:]] == [str(current), str(newer)]


def test_an_event_follows_only_its_associations_books_and_its_own_clubs():
    own_club = ClubFactory()
    other_club = ClubFactory(association=own_club.association, slug="other-club", name="Other Club")
    _, (club_rules,) = rule_book(association=own_club.association, club=other_club, slug="club-rules")
    _, (foreign,) = rule_book(association=AssociationFactory(slug="abroad", name="Abroad"), slug="abroad-rules")
    event, *_ = open_event(association=own_club.association, club=own_club)
    for version, words in ((club_rules, "Other Club's own rule book"), (foreign, "event's own association")):
        with pytest.raises(services.EventError) as refusal:
            services.update_event(event.owner, event, rule_book_version=version)
        assert words in refusal.value.message
    event.refresh_from_db()
    assert event.rule_book_version is None


def test_the_event_form_offers_the_versions_and_saves_the_choice(client):
    from tests.events.test_event_form import REQUIRED

    book, (first, second) = rule_book(versions=("1. A.", "1. B."))
    organiser = make_organiser()
    client.force_login(organiser)
    form = client.get(reverse("events:create")).content.decode()
    assert "Tournament Rules, version 2 of 1 January 2022" in form and "version 1 of 1 January 2021" in form
    amendments = "Rule 1 *does not* apply."
    data = {**REQUIRED, "rule_book_version": str(second.pk), "rule_amendments": amendments}
    client.post(reverse("events:create"), data)
    event = Event.objects.get(title=REQUIRED["title"])
    assert (
        event.rule_book_version == second and event.rule_amendments_html == "<p>Rule 1 <em>does not</em> apply.</p>\n"
    )
