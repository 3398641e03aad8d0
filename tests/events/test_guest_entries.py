"""Entering without an account: the form's checks are the entry form's, the emailed link confirms the entry (taking
its place only then) and manages it later; the one matching rule finds the entrant's record without showing it."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import GUEST_CONFIRM_HOURS, DiscountCode, Entry, EntryStatus, GuestEntry
from events.services import discounts
from events.services.guestlink import MAX_AGE, SALT, make_guest_token
from events.services.payments import entry_reference
from outbox.models import Message
from players.models import Player
from tests.events.factories import FeeFactory
from tests.events.test_entry_doors import PRIMARY, pupil_born, standard, students_event
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

PARENT = "parent@example.org"
LINK = re.compile(r"/events/entries/guest/([^/\s]+)/")


def guest_event(**fields):
    fields.setdefault("rules_agreement", "I agree to abide by the rules set by the organiser.")
    event, secondary, primary = students_event(allows_guest_entries=True, **fields)
    return event, secondary, primary


def enter(event, category, **given):
    fields = {
        "role": GuestEntry.Role.PARENT,
        "contact_name": "Mary Lim",
        "email": PARENT,
        "full_name": "Lim Wei Ling",
        "date_of_birth": pupil_born(event),
        "school_level": "primary",
        "school": "Rosyth School",
        "category": category,
        "accept_rules": True,
        **given,
    }
    fields.setdefault("fee", standard(category) if "fee" not in given else None)
    return services.submit_guest_entry(event, **fields)


def emailed_token(address: str = PARENT) -> str:
    """The token of the latest link emailed to `address`, read from the outbox row the service wrote."""
    body = Message.objects.filter(to=address).order_by("-pk").first().body
    return LINK.search(body).group(1)


def test_the_emailed_link_confirms_the_entry_which_takes_its_place_only_then():
    event, _, primary = guest_event()
    guest = enter(event, primary)
    assert Entry.objects.count() == 0 and Player.objects.count() == 0  # no place, no record before the link
    message = Message.objects.get(to=PARENT)
    assert "Confirm your entry" in message.subject and f"{GUEST_CONFIRM_HOURS} hours" in message.body
    token = emailed_token()
    entry = services.confirm_guest_entry(token)
    assert entry.status == EntryStatus.PENDING_PAYMENT and entry.amount_due == Decimal("3.00")
    assert entry.guest == guest and entry.entered_by is None
    assert entry.player.full_name == "Lim Wei Ling" and entry.player.user_id is None
    assert not entry.player.memberships.exists()  # a record without membership
    assert services.confirm_guest_entry(token) == entry  # a second press changes nothing
    assert Entry.objects.count() == 1
    # The entry's emails go to the guest, with the link (not My entries, which needs an account).
    received = Message.objects.filter(to=PARENT, subject__contains="Entry received").get()
    assert LINK.search(received.body) and "my-entries" not in received.body


def test_an_unconfirmed_entry_takes_no_place_and_expires():
    event, _, primary = guest_event()
    primary.quota = 1
    primary.save()
    enter(event, primary)
    token = emailed_token()
    # Someone else takes the only place while the link waits: the guest joins the waiting list on confirming.
    enter(event, primary, email="other@example.org", full_name="Tan Mei", contact_name="Tan Ah Hock")
    services.confirm_guest_entry(emailed_token("other@example.org"))
    assert services.confirm_guest_entry(token).status == EntryStatus.WAITLISTED
    later = enter(event, primary, email="late@example.org", full_name="Goh Boon", contact_name="Goh Ah Kow")
    with time_machine.travel(later.created_at + timedelta(hours=GUEST_CONFIRM_HOURS, minutes=1)):
        with pytest.raises(services.RegistrationError, match="not confirmed within 48 hours"):
            services.confirm_guest_entry(emailed_token("late@example.org"))
    assert not Entry.objects.filter(guest=later).exists()


def test_the_token_tampered_expired_or_for_another_entry_does_nothing():
    event, _, primary = guest_event()
    mine = enter(event, primary)
    other = enter(event, primary, email="other@example.org", full_name="Tan Mei", contact_name="Tan Ah Hock")
    token = make_guest_token(mine)
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "", "1", str(mine.pk)):
        assert services.guest_for_token(bad) is None
        with pytest.raises(services.RegistrationError, match="not valid"):
            services.confirm_guest_entry(bad)
    # A token signed for one entry names that entry only, and only while the entry has the address it was sent to.
    forged = signing.dumps({"g": other.pk, "m": PARENT}, salt=SALT, compress=True)
    assert services.guest_for_token(forged) is None
    assert services.guest_for_token(make_guest_token(other)) == other
    with time_machine.travel(timezone.now() + MAX_AGE + timedelta(days=1)):
        assert services.guest_for_token(token) is None
    # Another purpose's signature (the withdrawal link) is no guest link.
    assert services.guest_for_token(signing.dumps({"g": mine.pk, "m": PARENT}, salt="events.withdraw-entry")) is None


def test_the_link_withdraws_and_changes_the_entry():
    event, _, primary = guest_event()
    enter(event, primary)
    token = emailed_token()
    entry = services.confirm_guest_entry(token)
    guest = services.change_guest_entry(
        token, full_name="Lim Wei Ting", date_of_birth=pupil_born(event, 10), school="Nanyang Primary", phone="91234567"
    )
    entry.refresh_from_db()
    assert guest.full_name == "Lim Wei Ting" and entry.player.full_name == "Lim Wei Ting"  # the record made for it
    assert entry.school == "Nanyang Primary" and entry.phone == "91234567"
    with pytest.raises(services.RegistrationError, match="primary school students"):
        services.change_guest_entry(token, full_name="Lim Wei Ting", date_of_birth=pupil_born(event, 16))
    withdrawn = services.withdraw_guest_entry(token)
    assert withdrawn.status == EntryStatus.WITHDRAWN
    assert Message.objects.filter(to=PARENT, subject__contains="Entry withdrawn").exists()
    with pytest.raises(services.RegistrationError, match="already withdrawn"):
        services.withdraw_guest_entry(token)


def test_a_guest_matching_a_record_is_entered_under_it_without_being_shown_it():
    event, _, primary = guest_event()
    born = pupil_born(event)
    on_record = PlayerFactory(full_name="Lim Wei Ling", date_of_birth=born, email="weiling@example.org")
    enter(event, primary, full_name="Wei Ling Lim")
    entry = services.confirm_guest_entry(emailed_token())
    assert entry.player == on_record and Player.objects.count() == 1
    # The member is told someone entered them, with the one-click withdrawal.
    assert Message.objects.filter(to="weiling@example.org", subject__contains="You have been entered").exists()


def test_a_guest_who_may_be_on_record_is_asked_without_the_record_being_named():
    event, _, primary = guest_event()
    on_record = PlayerFactory(full_name="Lim Wei Ling", school="Secret School")  # no date of birth: only likely
    with pytest.raises(services.RegistrationError) as refusal:
        enter(event, primary)
    message = refusal.value.message
    assert "may already be on our records" in message and refusal.value.field == "member_number"
    assert str(on_record.member_number) not in message and "Secret School" not in message
    assert GuestEntry.objects.count() == 0
    # "new": a record of their own, once confirmed.
    enter(event, primary, member_number="new")
    entry = services.confirm_guest_entry(emailed_token())
    assert entry.player != on_record and Player.objects.count() == 2
    # A member number needs the member's date of birth (the number alone is public).
    member = PlayerFactory(full_name="Ong Bee Hoon", date_of_birth=pupil_born(event, 8))
    with pytest.raises(services.RegistrationError, match="date of birth does not match"):
        enter(event, primary, email="b@example.org", full_name="Ong Bee Hoon", member_number=str(member.member_number))


def test_the_entry_forms_rules_apply():
    event, secondary, primary = guest_event()
    with pytest.raises(services.RegistrationError, match="primary school students") as refusal:
        enter(event, primary, date_of_birth=pupil_born(event, 16))
    assert refusal.value.field == "category"
    with pytest.raises(services.RegistrationError, match="Agree to the rules"):
        enter(event, primary, accept_rules=False)
    with pytest.raises(services.RegistrationError, match="asks for the Passion Card number"):
        enter(event, primary, fee=primary.fees.get(is_concession=True))
    with pytest.raises(services.RegistrationError, match="whole ID number"):
        enter(event, primary, full_name="S1234567D")
    with pytest.raises(services.RegistrationError, match="valid email"):
        enter(event, primary, email="not an address")
    with pytest.raises(services.RegistrationError, match="NUL"):
        enter(event, primary, school="Rosyth\x00")
    with pytest.raises(services.RegistrationError, match="at most 200 characters"):
        enter(event, primary, full_name="Lim " * 100)
    event.allows_guest_entries = False
    event.save()
    with pytest.raises(NotAllowed):
        enter(event, primary)
    assert GuestEntry.objects.count() == 0 and Message.objects.count() == 0


def test_one_address_enters_at_most_a_few_people_in_an_event_and_the_same_child_once():
    event, _, primary = guest_event()
    enter(event, primary)
    with pytest.raises(services.RegistrationError, match="waits for the link"):
        enter(event, primary)
    for n in range(1, services.MAX_GUEST_ENTRIES_PER_EMAIL):
        enter(event, primary, full_name=f"Child Number {'I' * n}")
    with pytest.raises(services.RegistrationError, match="at most 5 people") as refusal:
        enter(event, primary, full_name="One Too Many")
    assert refusal.value.field == "email"
    # The same child entered again once confirmed: refused without saying by whom.
    services.confirm_guest_entry(make_guest_token(GuestEntry.objects.get(full_name="Lim Wei Ling")))
    with pytest.raises(services.RegistrationError, match="has already entered this event"):
        enter(event, primary, email="aunt@example.org", contact_name="Aunt May")


def test_lost_link_sends_the_links_to_the_address_only_and_at_most_every_ten_minutes():
    event, _, primary = guest_event()
    guest = enter(event, primary)
    services.resend_guest_links(event, "nobody@example.org")
    assert not Message.objects.filter(to="nobody@example.org").exists()
    with time_machine.travel(guest.created_at + timedelta(minutes=11)):
        services.resend_guest_links(event, PARENT.upper())
        services.resend_guest_links(event, PARENT)  # asked again at once: nothing more
    sent = Message.objects.filter(to=PARENT, subject__contains="Your entry links")
    assert sent.count() == 1 and "Lim Wei Ling" in sent.get().body
    assert services.guest_for_token(LINK.search(sent.get().body).group(1)) == guest


# --- the pages --------------------------------------------------------------------------------------------------------


def form_data(event, category, **given):
    fee = standard(category)
    return {
        "role": "parent",
        "contact_name": "Mary Lim",
        "email": PARENT,
        "full_name": "Lim Wei Ling",
        "date_of_birth": pupil_born(event).isoformat(),
        "school_level": "primary",
        "school": "Rosyth School",
        "option": f"{category.pk}:{fee.pk}",
        "accept_rules": "on",
        **given,
    }


def test_the_pages_enter_confirm_pay_change_and_withdraw(client):
    event, _, primary = guest_event()
    assert "Enter without an account" in client.get(event.get_absolute_url()).content.decode()
    url = reverse("events:enter_guest", args=[event.slug])
    page = client.post(url, form_data(event, primary, accept_rules=""))
    assert "Agree to the rules" in page.content.decode() and GuestEntry.objects.count() == 0
    done = client.post(url, form_data(event, primary), follow=True)
    assert f"we have emailed a link to {PARENT}" in done.content.decode()
    token = emailed_token()
    manage = reverse("events:guest_entry", args=[token])
    assert "Confirm the entry" in client.get(manage).content.decode()
    assert Entry.objects.count() == 0  # opening the link changes nothing
    client.post(reverse("events:guest_confirm", args=[token]))
    entry = Entry.objects.get()
    page = client.get(manage).content.decode()
    assert "Pending payment" in page and "Pay now" in page
    pay = client.get(reverse("events:guest_pay", args=[token]))
    assert pay.status_code == 200 and entry_reference(entry) in pay.content.decode()
    client.post(
        reverse("events:guest_change", args=[token]),
        {"full_name": "Lim Wei Ting", "date_of_birth": pupil_born(event).isoformat(), "school": "", "phone": ""},
    )
    assert GuestEntry.objects.get().full_name == "Lim Wei Ting"
    client.post(reverse("events:guest_withdraw", args=[token]))
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert client.get(reverse("events:guest_entry", args=["nonsense"])).status_code == 404


def test_an_event_without_guest_entries_has_no_guest_form(client):
    event, _, _ = students_event()
    assert client.get(reverse("events:enter_guest", args=[event.slug])).status_code == 404
    assert "Enter without an account" not in client.get(event.get_absolute_url()).content.decode()
    assert PRIMARY


def test_the_setting_is_on_the_organisers_form_and_in_the_admin(admin_client):
    from events.forms import EventForm

    assert EventForm().fields["allows_guest_entries"].label == "Allows entry without an account"
    event, _, _ = students_event()
    page = admin_client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert 'name="allows_guest_entries"' in page


def test_an_id_number_typed_as_the_member_number_is_never_echoed():
    event, _, primary = guest_event()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(event, primary, member_number="S1234567D")
    assert "S1234567D" not in refusal.value.message and refusal.value.field == "member_number"
    with pytest.raises(services.RegistrationError, match="no member with number"):
        enter(event, primary, member_number="999999999999")


def test_an_entry_never_confirmed_is_forgotten_a_week_after_its_link_lapsed(settings):
    from events.services.guests import FORGET_UNCONFIRMED_AFTER

    assert "events.tasks.forget_unconfirmed_guest_entries" in {
        e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()
    }
    event, _, primary = guest_event()
    waiting = enter(event, primary)
    confirmed = enter(event, primary, email="other@example.org", full_name="Tan Mei", contact_name="Tan Ah Hock")
    services.confirm_guest_entry(make_guest_token(confirmed))
    lapsed = waiting.created_at + timedelta(hours=GUEST_CONFIRM_HOURS)
    with time_machine.travel(lapsed + FORGET_UNCONFIRMED_AFTER - timedelta(minutes=1)):
        assert services.forget_unconfirmed_guest_entries() == 0
    with time_machine.travel(lapsed + FORGET_UNCONFIRMED_AFTER + timedelta(minutes=1)):
        assert services.forget_unconfirmed_guest_entries() == 1
    assert list(GuestEntry.objects.all()) == [confirmed]


def test_the_entry_records_the_rule_book_version_the_guest_agreed_to():
    from tests.rulebooks.factories import rule_book

    book, (old, current) = rule_book(versions=("1. Play fair.", "1. Play fair.\n2. Keep score."))
    event, _, primary = guest_event(association=book.association, rule_book_version=current)
    with pytest.raises(services.RegistrationError, match="now follows Tournament Rules, version 2"):
        enter(event, primary, agreed_version=old.pk)
    enter(event, primary, agreed_version=current.pk)
    entry = services.confirm_guest_entry(emailed_token())
    assert entry.rules_version == current and entry.rules_accepted_at is not None


def test_the_organisers_questions_are_asked_kept_until_the_link_and_changed_from_it(client):
    event, _, primary = guest_event()
    question = services.save_question(event.owner, event, kind="short", label="Emergency contact", required=True)
    with pytest.raises(services.RegistrationError, match="Emergency contact"):
        enter(event, primary)
    enter(event, primary, answers={question.pk: "Mr Lim 9876 5432"})
    assert GuestEntry.objects.get().answers == {str(question.pk): "Mr Lim 9876 5432"}
    token = emailed_token()
    entry = services.confirm_guest_entry(token)
    assert entry.answers.get().value == "Mr Lim 9876 5432"
    # The form asks it, and the link's change page changes it.
    page = client.get(reverse("events:enter_guest", args=[event.slug])).content.decode()
    assert "Emergency contact" in page
    client.post(
        reverse("events:guest_change", args=[token]),
        {
            "full_name": "Lim Wei Ling",
            "date_of_birth": pupil_born(event).isoformat(),
            question.field_name: "Mrs Lim 9000 0000",
        },
    )
    assert entry.answers.get().value == "Mrs Lim 9000 0000"


def test_the_price_is_the_one_pricing_rule_on_the_day_the_link_is_opened():
    event, _, primary = guest_event()
    fee = standard(primary)
    FeeFactory(category=primary, name="Standard", amount=Decimal("2.50"), until=timezone.localdate())
    guest = enter(event, primary, fee=fee)
    entry = services.confirm_guest_entry(make_guest_token(guest))
    assert entry.amount_due == Decimal("2.50")


def test_a_discount_code_is_checked_when_the_form_is_sent_and_used_when_the_link_is_opened(client):
    event, secondary, primary = guest_event()
    elsewhere, _, _ = guest_event()
    DiscountCode.objects.create(event=elsewhere, code="OTHER", value=Decimal("1"))
    DiscountCode.objects.create(event=event, code="SEC", category=secondary, value=Decimal("1"))
    yesterday = timezone.localdate() - timedelta(days=1)
    DiscountCode.objects.create(event=event, code="OLD", value=Decimal("1"), expires_on=yesterday)
    once = DiscountCode.objects.create(event=event, code="ONCE", value=Decimal("1"), max_uses=1)
    # Each refusal is told on the code's field when the form is sent, and nothing is kept.
    url = reverse("events:enter_guest", args=[event.slug])
    cases = {
        "NOPE": "There is no discount code NOPE for this event.",
        "OTHER": "The code OTHER is for another event.",
        "SEC": f"The code SEC is for the {secondary.name} category only.",
        "OLD": "The code OLD expired on",
    }
    for text, message in cases.items():
        with pytest.raises(services.RegistrationError, match=message) as refusal:
            enter(event, primary, discount_code=text)
        assert refusal.value.field == "discount_code"
        page = client.post(url, form_data(event, primary, discount_code=text))
        assert message in page.content.decode() and page.context["form"].errors.get("discount_code")
    assert GuestEntry.objects.count() == 0
    # A good code, in any case, waits with the form and is used when the link is opened.
    client.post(url, form_data(event, primary, discount_code=" once "))
    guest = GuestEntry.objects.get()
    assert guest.discount_code == "ONCE" and discounts.uses(once) == 0
    assert "ONCE" in client.get(reverse("events:guest_entry", args=[emailed_token()])).content.decode()
    entry = services.confirm_guest_entry(emailed_token())
    assert entry.discount_code == once and entry.discount == Decimal("1") and entry.amount_due == Decimal("2.00")
    # Used up when the form is sent: told then.
    with pytest.raises(services.RegistrationError, match="The code ONCE has been used up."):
        enter(event, primary, discount_code="ONCE", full_name="Tan Ah Kow", email="b@example.org")


def test_a_code_used_up_before_the_link_is_opened_makes_nothing_and_says_so(client):
    event, _, primary = guest_event()
    once = DiscountCode.objects.create(event=event, code="ONCE", value=Decimal("1"), max_uses=1)
    enter(event, primary, discount_code="ONCE")
    token = emailed_token()
    enter(event, primary, discount_code="ONCE", full_name="Tan Ah Kow", email="b@example.org")
    other = emailed_token("b@example.org")
    first = services.confirm_guest_entry(other)  # the other link is opened first
    assert first.discount_code == once
    answer = client.post(reverse("events:guest_confirm", args=[token]), follow=True)
    assert "The code ONCE has been used up. The entry is not made" in answer.content.decode()
    assert Entry.objects.count() == 1 and GuestEntry.objects.filter(confirmed_at__isnull=True).count() == 1
    assert Player.objects.count() == 1  # no record was made for the entry refused
    # The use comes back when the first entry is withdrawn: the link then confirms with the code.
    services.withdraw_guest_entry(other)
    entry = services.confirm_guest_entry(token)
    assert entry.discount_code == once and entry.amount_due == Decimal("2.00")


def test_a_parent_whose_code_was_used_up_confirms_without_it_from_the_same_link(client):
    """The refusal offered no way on: the form again was refused ("entered already, waits for the link") and the
    link could only fail again, until it lapsed two days later."""
    event, _, primary = guest_event()
    DiscountCode.objects.create(event=event, code="ONCE", value=Decimal("1"), max_uses=1)
    enter(event, primary, discount_code="ONCE")
    token = emailed_token()
    enter(event, primary, discount_code="ONCE", full_name="Tan Ah Kow", email="b@example.org")
    services.confirm_guest_entry(emailed_token("b@example.org"))
    refused = client.post(reverse("events:guest_confirm", args=[token]), follow=True).content.decode()
    assert "confirm it without the code" in refused and "Confirm without the code ONCE" in refused
    confirmed = client.post(reverse("events:guest_confirm", args=[token]), {"without_code": "1"}, follow=True)
    assert "Your entry is confirmed." in confirmed.content.decode()
    entry = Entry.objects.get(guest__email=PARENT)
    assert entry.discount_code is None and entry.amount_due == Decimal("3.00")
    assert GuestEntry.objects.get(pk=entry.guest.pk).discount_code == ""
