"""A pasted class list's card column is read under every heading the site itself uses for it (the entry form's
"Concession card number", the class list's "Concession card no.", the fee's own "Passion Card number", …): the
student is charged the concession and the card number kept as the proof."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from events.forms.entering import CLASS_LIST_HEADINGS, ClassListForm, StudentForm, column_for, parse_class_list
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


def test_a_class_list_headed_with_the_forms_own_words_is_read(client):
    event, secondary, _ = students_event()
    client.force_login(UserFactory())
    born = f"{date(event.starts_on.year - 14, 5, 4):%d/%m/%Y}"
    text = (
        "Name,Date of birth,School level or category,Member no.,Concession card no.,Phone\n"
        f"Dara Lim,{born},Secondary,,,91234567\n"
        f"Eng Hui,{born},Category A,,80123456,\n"
    )
    response = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)
    assert "give the school level or category" not in response.content.decode()
    dara, eng = Entry.objects.filter(event=event).order_by("pk")
    assert (dara.category, dara.phone, eng.category, eng.concession_proof) == (
        secondary,
        "91234567",
        secondary,
        "80123456",
    )


def _site_headings():
    """Every heading the site shows for a class list's columns: the paste box's help text and the labels of the
    students' rows typed one by one."""
    help_text = ClassListForm.base_fields["class_list"].help_text
    listed = help_text.split(": ", 1)[1].split(". A first line")[0].split(", ")
    shown = {heading.lower(): field for field, heading in CLASS_LIST_HEADINGS}
    assert set(listed) == set(shown)
    rows = {
        str(f.label or name): ("level" if name == "option" else name) for name, f in StudentForm.base_fields.items()
    }
    return [(heading, shown[heading]) for heading in listed] + sorted(rows.items())


@pytest.mark.parametrize(("heading", "field"), _site_headings())
def test_every_heading_the_site_shows_names_its_column(heading, field):
    assert column_for(heading) == field
    assert column_for(heading.upper()) == field
