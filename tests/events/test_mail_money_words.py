"""What the entry and money emails tell people about paying (issue 23): the payment reference on every email that
asks for money, the group's reference and the day to pay by, the receipt after a payment recorded by hand; one
subject style for every events and money email, and each person greeted by their own name."""

from datetime import date

import pytest
from django.core import mail
from django.urls import reverse

from events import services
from events.models import GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services as money
from money.models import Payment
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401

pytestmark = pytest.mark.django_db

SITE = "https://scrabble.example.org"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE
    settings.SITE_NAME = "Scrabble Association"


def contact(email="teacher@example.org"):
    return {
        "role": GroupEntry.Role.TEACHER,
        "contact_name": "Mrs Tan",
        "school": "Yuhua Primary",
        "address": "1 Jurong West Ave",
        "phone": "61234567",
        "email": email,
    }


def students(category, fee, *names):
    return [
        {"full_name": name, "date_of_birth": date(2013, 1, 1 + i), "category": category, "fee": fee}
        for i, name in enumerate(names)
    ]


def to(address):
    return [m for m in mail.outbox if m.to == [address]]


def test_an_entry_email_asking_for_money_gives_the_payment_reference_and_the_pay_page(on_commit):
    """Defect 9: the reference to quote on a cheque or a transfer, and the link to every way to pay."""
    event, category, (fee,) = open_event(quota=10)
    player = player_with_account(full_name="Tan Wei Ling")
    with on_commit(execute=True):
        entry = services.register_entry(player.user, event, category=category, fee=fee)
    [message] = to(player.email)
    reference = entry_reference(entry)
    assert f"Payment reference: {reference}" in message.body
    assert f"{SITE}{reverse('money:pay', args=[reference])}" in message.body


def test_the_group_email_gives_the_group_reference_and_the_day_to_pay_by(on_commit):
    """Defect 9: the teacher's email names the one reference that pays for the whole group and when it is due."""
    event, category, (fee,) = open_event(quota=10, payment_hold_hours=72)
    teacher = player_with_account().user
    with on_commit(execute=True):
        group = services.register_group(
            teacher, event, contact=contact(), students=students(category, fee, "Alice Ong", "Bala Raju")
        )
    [message] = to("teacher@example.org")
    reference = group_reference(group)
    first_due = min(e.payment_due_at for e in group.entries.all())
    assert f"Payment reference for the whole group: {reference}" in message.body
    assert f"Pay by: {services.common.local_text(event, first_due)}" in message.body
    assert f"{SITE}{reverse('money:pay', args=[reference])}" in message.body


def test_a_cheque_recorded_on_the_page_emails_the_receipt_number_and_its_link(client, on_commit):
    """Defect 11: the organiser records a cheque at the desk; the entrant's email carries the receipt."""
    event, category, (fee,) = open_event(quota=10)
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=category, fee=fee)
    mail.outbox = []
    client.force_login(event.owner)
    with on_commit(execute=True):
        response = client.post(
            reverse("events:record_payment", args=[entry.pk]),
            {"amount": "3.00", "method": "cheque", "reference": "400123"},
        )
    assert response.status_code == 302
    number = Payment.objects.get(target_id=entry.pk).number
    [message] = to(player.email)
    assert f"Your receipt {number}: {SITE}{reverse('money:receipt', args=[number])}" in message.body


def test_one_cash_payment_for_a_group_emails_the_receipt_and_the_groups_reference(client, on_commit):
    """Defect 11: one payment for a whole group, recorded on the group's page."""
    event, category, (fee,) = open_event(quota=10)
    teacher = player_with_account().user
    group = services.register_group(teacher, event, contact=contact(), students=students(category, fee, "Alice Ong"))
    mail.outbox = []
    client.force_login(event.owner)
    with on_commit(execute=True):
        response = client.post(
            reverse("events:group_entry", args=[group.pk]), {"amount": "3.00", "method": "in_person"}
        )
    assert response.status_code == 302
    number = Payment.objects.get(target_id=group.pk).number
    [message] = to("teacher@example.org")
    assert f"Your receipt {number}: {SITE}{reverse('money:receipt', args=[number])}" in message.body
    assert f"Payment reference for the whole group: {group_reference(group)}" in message.body


def test_every_events_and_money_email_has_one_subject_style_and_greets_by_name(on_commit):
    """Defect 29: "[Site] What happened – what about" on every subject; the event's cancellation greets each
    person by name (the student, and the teacher who sent the group entry by theirs), never "Dear entrant"."""
    event, category, (fee,) = open_event(quota=10, title="Jurong Green Championship")
    player = player_with_account(full_name="Tan Wei Ling")
    teacher = player_with_account().user
    with on_commit(execute=True):
        entry = services.register_entry(player.user, event, category=category, fee=fee)
        services.register_group(teacher, event, contact=contact(), students=students(category, fee, "Alice Ong"))
        paid = money.receive(reference=entry_reference(entry), amount="3.00", method="paynow").payment
        money.refund(event.owner, paid, amount="1.00", reason="Lunch not taken")
        services.email_entrants(event.owner, event, subject="Bring a pencil", body="And an eraser.")
        services.cancel_event(event.owner, event, "The hall is flooded.")
    subjects = {m.subject for m in mail.outbox}
    assert {
        "[Scrabble Association] Entry received – Jurong Green Championship",
        "[Scrabble Association] Entries received – Jurong Green Championship",
        f"[Scrabble Association] Receipt {paid.number} – {paid.description}",
        f"[Scrabble Association] Credit note {paid.refunds.get().number} – {paid.description}",
        "[Scrabble Association] Bring a pencil – Jurong Green Championship",
        "[Scrabble Association] Event cancelled – Jurong Green Championship",
    } == subjects
    cancelled = [m for m in mail.outbox if "Event cancelled" in m.subject]
    greetings = {m.to[0]: m.body.splitlines()[0] for m in cancelled}
    assert greetings == {player.email: "Dear Tan Wei Ling,", "teacher@example.org": "Dear Mrs Tan,"}
    assert not any("Dear entrant" in m.body for m in mail.outbox)


def test_the_entry_emails_say_once_that_an_entry_must_be_paid_in_full(on_commit):
    """Defect N13: the site says the place lapses unpaid in its own words; the organiser's instructions (seed 004's
    "Entries without full payment are not accepted.") are not repeated by the site's own sentence."""
    from events.demo import PAYMENT

    event, category, (fee,) = open_event(quota=10, payment_instructions=PAYMENT)
    player = player_with_account(full_name="Tan Wei Ling")
    teacher = player_with_account().user
    with on_commit(execute=True):
        services.register_entry(player.user, event, category=category, fee=fee)
        services.register_group(teacher, event, contact=contact(), students=students(category, fee, "Alice Ong"))
    [entry_mail] = to(player.email)
    [group_mail] = to("teacher@example.org")
    for message in (entry_mail, group_mail):
        body = " ".join(message.body.split())
        assert body.count("without full payment are not accepted") == 1, body
        assert "lapse" in body
