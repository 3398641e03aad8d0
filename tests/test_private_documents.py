"""Documents naming people and money are kept by no cache (Cache-Control: private, no-store): every CSV download
(clubsite.kit.csv.csv_response, the one place they are made), receipts and credit notes (page and PDF) and a bank
statement's review."""

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.csv import csv_response
from events.services.payments import entry_reference
from money import services
from money.models import Method
from money.services import statements
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db


def never_kept(response) -> bool:
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    return response.status_code == 200 and {"private", "no-store"} <= directives


def test_every_csv_is_kept_by_no_cache():
    assert never_kept(csv_response("x.csv", [["name"], ["Tan"]]))


@pytest.fixture
def paid():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    credit = services.refund(event.owner, payment, amount="1.50", reason="Withdrew a week before")
    return event, entry, payment, credit


def test_the_entries_csv_and_the_treasurers_export(client, paid):
    event, *_ = paid
    client.force_login(event.owner)
    assert never_kept(client.get(reverse("events:export", args=[event.slug])))
    client.force_login(UserFactory(is_staff=True))
    assert never_kept(client.get(reverse("money:treasurer_csv")))


def test_receipts_and_credit_notes_page_and_pdf(client, paid):
    _, entry, payment, credit = paid
    client.force_login(entry.player.user)
    for name, number in (("receipt", payment.number), ("credit_note", credit.number)):
        for url in (reverse(f"money:{name}", args=[number]), reverse(f"money:{name}_pdf", args=[number])):
            assert never_kept(client.get(url)), url


def test_a_bank_statements_review(client, paid):
    event, *_ = paid
    staff = UserFactory(is_staff=True)
    statement = statements.upload(
        staff, event.association, "bank.csv", f"date,amount,description\n{timezone.localdate()},3.00,hello\n".encode()
    )
    client.force_login(staff)
    assert never_kept(client.get(reverse("money:statement", args=[statement.pk])))
