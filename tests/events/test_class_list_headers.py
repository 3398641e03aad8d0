"""A pasted class list's card column is read under every heading the site itself uses for it (the entry form's
"Concession card number", the class list's "Concession card no.", the fee's own "Passion Card number", …): the
student is charged the concession and the card number kept as the proof."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from events.forms.entering import parse_class_list
from events.models import Entry
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import students_event
from tests.events.test_entry_pages import group_form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HEADERS = [
    "Passion Card",
    "Passion Card number",
    "Concession card",
    "Concession card no",
    "Concession card no.",
    "Concession card number",
    "Concession card no. (if any)",
    "CARD NO:",
]


@pytest.mark.parametrize("header", HEADERS)
def test_a_pasted_class_list_keeps_the_card_numbers_under_the_sites_own_headings(client, header):
    event, _, primary = students_event()
    client.force_login(UserFactory())
    born = f"{date(event.starts_on.year - 9, 5, 4):%d/%m/%Y}"
    text = f"Name\tDate of birth\tLevel\t{header}\nAlice Ong\t{born}\tP4\t80123456\nBen Goh\t{born}\tP4\t"
    client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)
    alice, ben = Entry.objects.filter(event=event).order_by("pk")
    assert (alice.concession_proof, alice.amount_due, alice.fee.is_concession) == ("80123456", Decimal("2.00"), True)
    assert (ben.concession_proof, ben.amount_due) == ("", Decimal("3.00"))


def test_the_other_columns_are_read_whatever_their_spelling():
    event, _, primary = students_event()
    text = "Name of student,DOB,Category,Member no.,Tel No,School\nCai Li,04/05/2015,P4,,91234567,Yuhua"
    [row] = parse_class_list(text, [primary])
    assert (row["full_name"], row["phone"], row["school"], row["member_number"]) == ("Cai Li", "91234567", "Yuhua", "")
