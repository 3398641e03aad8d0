"""Amounts have one home: clubsite.kit.money.parse_amount reads every amount typed or sent (a fee, a prize, a
payment, a refund), refusing what it cannot take to the cent with the field named, never rounding; format_money
writes every amount, on pages (S$3.00) and in words (SGD 3.00) alike."""

from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from clubsite.kit.errors import ServiceError
from clubsite.kit.money import format_money, parse_amount
from events import services as events
from events.models import Category, Fee, Prize
from events.models import Payment as EntryPayment
from events.services.payments import entry_reference
from money import services
from money.models import Method, Payment
from players.services import request_renewal
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401
from tests.factories import MembershipFactory, UserFactory

# ---------------------------------------------------------------------------------------------------------
# One parser, one formatter


@pytest.mark.parametrize(
    "value, expected",
    [("3", "3.00"), (" 3.5 ", "3.50"), ("3.100", "3.10"), (Decimal("12.34"), "12.34"), (7, "7.00"), (2.5, "2.50")],
)
def test_an_amount_to_the_cent_is_read_as_written(value, expected):
    assert parse_amount(value) == Decimal(expected)


@pytest.mark.parametrize(
    "value, message",
    [
        ("", "Enter the fee, for example 3.00."),
        (None, "Enter the fee, for example 3.00."),
        ("three", "Enter a fee as a number, for example 3.00."),
        ("NaN", "Enter a fee as a number, for example 3.00."),
        ("Infinity", "Enter a fee as a number, for example 3.00."),
        (True, "Enter a fee as a number, for example 3.00."),
        ("-3", "A fee cannot be negative."),
        ("3.005", "The fee has more than two decimal places: give it to the cent, for example 3.25."),
        ("1e-9", "The fee has more than two decimal places: give it to the cent, for example 3.25."),
        ("1000000", "The fee is too large: it must be less than SGD 1,000,000.00."),
        ("1e999999", "The fee is too large: it must be less than SGD 1,000,000.00."),
    ],
)
def test_an_amount_is_refused_never_rounded_with_the_field_named(value, message):
    with pytest.raises(ServiceError) as refused:
        parse_amount(value, field="fees", what="fee", zero=True, max_digits=8)
    assert (refused.value.message, refused.value.field) == (message, "fees")


def test_zero_is_an_amount_only_where_it_is_allowed():
    assert parse_amount("0", zero=True) == 0
    with pytest.raises(services.MoneyError, match="The amount must be more than zero.") as refused:
        parse_amount("0", error=services.MoneyError)
    assert refused.value.field == "amount"


@pytest.mark.parametrize(
    "amount, page, text",
    [
        (Decimal("3"), "S$3.00", "SGD 3.00"),
        (Decimal("1250.5"), "S$1,250.50", "SGD 1,250.50"),
        (Decimal("-1.50"), "S$-1.50", "SGD -1.50"),
        (Decimal("-0.00"), "S$0.00", "SGD 0.00"),
        (None, "", ""),
    ],
)
def test_money_is_written_one_way_on_pages_and_one_way_in_words(amount, page, text):
    assert format_money(amount) == page and format_money(amount, code=True) == text
    assert format_money(Decimal("3"), "EUR") == "EUR 3.00"


# ---------------------------------------------------------------------------------------------------------
# What the one parser changed for its callers: three decimals are refused with the field named, not rounded.


@pytest.mark.django_db
def test_a_fee_or_prize_with_three_decimals_is_refused_on_the_category_not_rounded():
    event = open_event()[0]
    with pytest.raises(events.EventError) as refused:
        events.save_category(event.owner, event, name="B", fees=[{"name": "Standard", "amount": "3.005"}])
    assert refused.value.field == "fees" and "The fee has more than two decimal places" in refused.value.message
    with pytest.raises(events.EventError) as refused:
        events.save_category(
            event.owner, event, name="B", prizes=[{"rank_from": 1, "description": "Cash", "amount": "1e9"}]
        )
    assert refused.value.field == "prizes" and "The prize amount is too large" in refused.value.message
    assert not Category.objects.filter(name="B").exists() and not Prize.objects.exists()
    assert Fee.objects.count() == 1  # the event's own


@pytest.mark.django_db
def test_a_payment_with_three_decimals_is_refused_not_rounded():
    event, category, (fee,) = open_event()
    entry = events.register_entry(player_with_account().user, event, category=category, fee=fee)
    with pytest.raises(events.RegistrationError) as refused:
        events.record_payment(event.owner, entry, amount="2.999", method="in_person")
    assert refused.value.field == "amount" and "more than two decimal places" in refused.value.message
    assert not EntryPayment.objects.exists() and not Payment.objects.exists()
    with pytest.raises(services.MoneyError, match="more than two decimal places"):
        services.receive(reference=entry_reference(entry), amount="2.999", method=Method.PAYNOW)


@pytest.mark.django_db
def test_the_record_payment_page_names_the_amount_at_fault(client):
    event, category, (fee,) = open_event()
    entry = events.register_entry(player_with_account().user, event, category=category, fee=fee)
    client.force_login(event.owner)
    page = client.post(reverse("events:record_payment", args=[entry.pk]), {"amount": "0", "method": "in_person"})
    assert page.context["form"].errors["amount"] == ["The amount must be more than zero."]


# ---------------------------------------------------------------------------------------------------------
# What the one formatter changed: members' pages write money as every other page does; emails in words.


@pytest.mark.django_db
def test_renewals_are_shown_in_the_same_money_as_entries(client):
    staff = UserFactory(is_staff=True)
    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("1250.00"))
    request_renewal(member.user, member)
    client.force_login(staff)
    assert "S$1,250.00" in client.get(reverse("players:renewals")).content.decode()
    client.force_login(member.user)
    assert "S$1,250.00" in client.get(reverse("players:renew")).content.decode()


@pytest.mark.django_db
def test_a_group_payment_email_writes_every_amount_with_its_currency(on_commit):
    event, category, (fee,) = open_event()
    group = events.register_group(
        UserFactory(), event, accept_rules=True,
        contact={"role": "teacher", "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=[{"full_name": f"Pupil {n}", "category": category, "fee": fee} for n in range(2)],
    )  # fmt: skip
    mail.outbox = []
    with on_commit(execute=True):
        events.record_group_payment(event.owner, group, amount="4", method="cheque", reference="000123")
    body = mail.outbox[-1].body
    assert "one payment of SGD 4.00" in body and "paid SGD 1.00 of SGD 3.00, SGD 2.00 still due" in body
