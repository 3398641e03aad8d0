"""Prices: the one pricing rule on hand-worked cases (member and non-member fees, early-bird fees, discount codes,
free places), and every door that makes an entry asking it: the entry form, the API, the group form and its pasted
class list, the organiser moving an entry; a code's refusals, its uses given back, and the receipt naming it."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clubsite.kit.errors import NotAllowed
from events import pricing, services
from events.forms import option_choices
from events.models import DiscountCode, Entry, EntryStatus
from events.pricing import MEMBERS, NON_MEMBERS, PERCENT, Discount, FeeRow, PricingError, price
from events.services import discounts
from events.views.common import _categories
from tests.events.factories import (
    CategoryFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.events.test_entry_doors import students_event
from tests.events.test_entry_pages import class_list, group_form
from tests.factories import MembershipFactory, UserFactory

D = Decimal
DAY = date(2027, 3, 1)


def row(pk, amount, name="Standard", **fields):
    return FeeRow(id=pk, name=name, amount=D(amount), **fields)


# --- the pricing rule, worked by hand ------------------------------------------------------------------


def test_a_member_pays_the_members_fee_and_a_non_member_the_full_fee():
    rows = [row(1, "50"), row(2, "40", audience=MEMBERS)]
    assert price(rows, rows[0], day=DAY, member=False).amount == D("50")
    assert price(rows, rows[0], day=DAY, member=True).amount == D("40")
    # Choosing the members' variant as a non-member still charges the fee that applies.
    assert price(rows, rows[1], day=DAY, member=False).amount == D("50")
    # A fee for non-members only is not a member's.
    rows = [row(1, "30", audience=NON_MEMBERS), row(2, "40", audience=MEMBERS)]
    assert price(rows, rows[0], day=DAY, member=True).amount == D("40")


def test_an_early_bird_fee_applies_to_its_last_day_inclusive():
    rows = [row(1, "50"), row(2, "40", audience=MEMBERS), row(3, "35", until=DAY)]
    assert price(rows, rows[0], day=DAY, member=False).amount == D("35")
    assert price(rows, rows[0], day=DAY + timedelta(days=1), member=False).amount == D("50")
    assert price(rows, rows[0], day=DAY + timedelta(days=1), member=True).amount == D("40")
    early = price(rows, rows[0], day=DAY, member=True)
    assert (early.amount, early.fee.id, early.full) == (D("35"), 3, D("50"))


def test_a_concession_and_a_fee_of_another_name_are_choices_of_their_own():
    rows = [
        row(1, "50"),
        row(2, "35", until=DAY),
        row(3, "20", name="Student", is_concession=True, proof_label="Student card"),
        row(4, "45", name="Adult"),
    ]
    assert price(rows, rows[2], day=DAY, member=False).amount == D("20")
    assert price(rows, rows[3], day=DAY, member=False).amount == D("45")
    # A concession's receipt shows it against the first standard fee, after the early-bird date.
    assert price(rows, rows[2], day=DAY, member=False).full == D("50")


def test_discounts_take_an_amount_or_a_percentage_and_never_go_below_nothing():
    rows = [row(1, "35")]
    ten_off = Discount("TEN", pricing.AMOUNT, D("10"))
    assert price(rows, rows[0], day=DAY, member=False, discount=ten_off).amount == D("25")
    fifteen = price(rows, rows[0], day=DAY, member=False, discount=Discount("F", PERCENT, D("15")))
    assert (fifteen.discount, fifteen.amount, fifteen.code) == (D("5.25"), D("29.75"), "F")
    third = price([row(1, "10")], row(1, "10"), day=DAY, member=False, discount=Discount("T", PERCENT, D("33.33")))
    assert (third.discount, third.amount) == (D("3.33"), D("6.67"))
    assert price(rows, rows[0], day=DAY, member=False, discount=Discount("BIG", pricing.AMOUNT, D("100"))).amount == 0
    assert price(rows, rows[0], day=DAY, member=False, discount=Discount("ALL", PERCENT, D("100"))).amount == 0


def test_a_free_place_costs_nothing_and_takes_no_discount():
    rows = [row(1, "35")]
    free = price(rows, rows[0], day=DAY, member=False, discount=Discount("TEN", pricing.AMOUNT, D("10")), free=True)
    assert (free.amount, free.discount, free.free, free.note) == (0, 0, True, "free place")


def test_a_fee_that_applies_to_no_one_like_the_entrant_is_refused_saying_why():
    ended = [row(1, "35", name="Early", until=DAY)]
    with pytest.raises(PricingError, match="The Early fee ended on 1 Mar 2027"):
        price(ended, ended[0], day=DAY + timedelta(days=1), member=False)
    members = [row(1, "35", name="Members", audience=MEMBERS)]
    with pytest.raises(PricingError, match="for members .*on the closing date, 10 Mar 2027"):
        price(members, members[0], day=DAY, member=False, closing=date(2027, 3, 10))


def test_a_category_without_fees_is_free():
    assert price([], None, day=DAY, member=False).amount == 0


# --- the doors -----------------------------------------------------------------------------------------


def priced_event(**event_fields):
    """Standard S$50, members S$40, early bird S$35 until ten days from now; a second category at S$20."""
    event, open_category, (standard,) = open_event(fees=(D("50"),), **event_fields)
    standard.name = "Standard"
    standard.save()
    FeeFactory(category=open_category, name="Standard", amount=D("40"), audience=MEMBERS, note="")
    FeeFactory(
        category=open_category, name="Standard", amount=D("35"), until=timezone.localdate() + timedelta(days=5), note=""
    )
    other = CategoryFactory(event=event, name="Juniors")
    FeeFactory(category=other, name="Standard", amount=D("20"), note="")
    return event, open_category, other, standard


def code(event, text="SPRING", **fields):
    return discounts.save_discount_code(event.owner, event, {"code": text, "kind": "amount", "value": "10", **fields})


@pytest.mark.django_db
def test_the_entry_form_prices_the_early_bird_fee_with_a_code(client):
    event, category, _, standard = priced_event()
    code(event, "spring")  # kept upper-case
    player = player_with_account()
    client.force_login(player.user)
    # The fee's variants are one choice, telling what each costs.
    (option, label), _ = option_choices(_categories(event))
    until = standard.category.fees.get(amount=35).until
    assert label == (
        f"Open: Standard S$35.00 until {until.day} {until:%b %Y}, or S$40.00 for members, or S$50.00 "
        "(you pay the lowest that applies to you)"
    )
    answer = client.post(
        reverse("events:enter", args=[event.slug]), {"option": option, "discount_code": " Spring "}, follow=True
    )
    entry = Entry.objects.get(player=player)
    assert (entry.amount_due, entry.discount, entry.discount_code.code, entry.fee.amount) == (
        D("25"),
        D("10"),
        "SPRING",
        D("35"),
    )
    assert "S$25.00" in answer.content.decode()


@pytest.mark.django_db
def test_the_dashboard_says_which_fee_is_for_members_and_which_is_the_early_bird(client):
    event, category, _, standard = priced_event()
    until = standard.category.fees.get(amount=35).until
    client.force_login(event.owner)
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert (
        f"Standard S$35.00 (until {until.day} {until:%b %Y}), Standard S$40.00 (for members), Standard S$50.00" in page
    )


@pytest.mark.django_db
def test_after_the_early_bird_date_a_member_pays_the_members_fee(client):
    event, category, _, standard = priced_event()
    member = player_with_account()
    # Valid on the closing date, though it starts only after today.
    closing = timezone.localdate(event.registration_closes_at)
    MembershipFactory(player=member, association=event.association, starts_on=closing, expires_on=None)
    lapsing = player_with_account()
    MembershipFactory(
        player=lapsing, association=event.association, expires_on=closing - timedelta(days=1)
    )  # not valid on the closing date
    with time_machine.travel(timezone.now() + timedelta(days=6)):
        entry = services.register_entry(member.user, event, category=category.pk, fee=standard.pk)
        other = services.register_entry(lapsing.user, event, category=category.pk)
    assert (entry.amount_due, entry.fee.audience) == (D("40"), MEMBERS)
    assert other.amount_due == D("50")


@pytest.mark.django_db
def test_the_api_takes_a_code_and_shows_the_discount():
    event, category, _, standard = priced_event()
    code(event, kind="percent", value="20")
    api = APIClient()
    api.force_authenticate(player_with_account().user)
    body = {"event": event.slug, "category": category.pk, "fee": standard.pk, "discount_code": "spring"}
    answer = api.post("/api/my/entries/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["amount_due"], answer.json()["discount"], answer.json()["discount_code"]) == (
        "28.00",
        "7.00",
        "SPRING",
    )
    refused = APIClient()
    refused.force_authenticate(player_with_account().user)
    answer = refused.post("/api/my/entries/", {**body, "discount_code": "AUTUMN"}, format="json")
    assert answer.status_code == 400 and "There is no discount code AUTUMN for this event." in str(answer.json())


@pytest.mark.django_db
def test_each_refusal_of_a_code_says_what_is_wrong_and_nothing_is_saved():
    event, category, juniors, standard = priced_event()
    elsewhere, _, _, _ = priced_event()
    code(elsewhere, "OTHER")
    code(event, "JUNIOR", category=juniors.pk)
    code(event, "OLD", expires_on=timezone.localdate() - timedelta(days=1))
    code(event, "ONCE", max_uses=1)
    services.register_entry(player_with_account().user, event, category=category.pk, discount_code="ONCE")
    cases = {
        "OTHER": "The code OTHER is for another event.",
        "JUNIOR": "The code JUNIOR is for the Juniors category only.",
        "OLD": "The code OLD expired on",
        "ONCE": "The code ONCE has been used up.",
        "NOPE": "There is no discount code NOPE for this event.",
        "=1+1": "letters, digits and dashes only",
    }
    for text, message in cases.items():
        with pytest.raises(services.RegistrationError, match=message.replace("+", r"\+")) as refusal:
            services.register_entry(player_with_account().user, event, category=category.pk, discount_code=text)
        assert refusal.value.field == "discount_code"
    assert Entry.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_a_withdrawal_gives_the_use_back():
    event, category, _, _ = priced_event()
    once = code(event, "ONCE", max_uses=1)
    first = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="ONCE")
    services.withdraw_entry(first.player.user, first)
    second = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="ONCE")
    assert second.discount == D("10") and discounts.uses(once) == 1
    first.refresh_from_db()
    assert first.discount_code == once  # the withdrawn entry's receipt still names it


@pytest.mark.django_db
def test_the_group_form_and_its_class_list_use_the_code_once_per_student(client):
    event, a, b = students_event()
    code(event, "SCHOOL", value="1", max_uses=3)
    client.force_login(UserFactory())
    text = class_list(event, ("Alice Ong", 9, "P4", ""), ("Ben Goh", 10, "Primary", "8012345678"))
    client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text, discount_code="school"))
    entries = {e.player.full_name: e for e in Entry.objects.filter(event=event)}
    assert {name: e.amount_due for name, e in entries.items()} == {"Alice Ong": D("2.00"), "Ben Goh": D("1.00")}
    assert all(e.discount_code.code == "SCHOOL" for e in entries.values())
    # Two more students for one use left: refused whole, naming the student.
    text = class_list(event, ("Cai Li", 9, "P4", ""), ("Dee Tan", 10, "P5", ""))
    answer = client.post(
        reverse("events:enter_group", args=[event.slug]), group_form(class_list=text, discount_code="SCHOOL")
    )
    assert "The code SCHOOL has been used up." in answer.content.decode()
    assert Entry.objects.filter(event=event).count() == 2


@pytest.mark.django_db
def test_a_code_wrong_for_the_whole_group_is_one_error_on_the_code_field(client):
    event, a, b = students_event()
    elsewhere, _, _, _ = priced_event()
    code(elsewhere, "OTHER")
    code(event, "OLD")
    DiscountCode.objects.filter(code="OLD").update(expires_on=date(2026, 1, 1))  # it has ended since
    code(event, "ONCE", value="1", max_uses=1)
    client.force_login(UserFactory())
    rows = [(f"Student {n} Ong", 9, "P4", "") for n in "ABCDEFGHIJKLMNO"]
    text = class_list(event, *rows)
    url = reverse("events:enter_group", args=[event.slug])
    for given, message in {"OLD": "The code OLD expired on 1 Jan 2026.", "other": "is for another event."}.items():
        answer = client.post(url, group_form(class_list=text, discount_code=given))
        form = answer.context["contact"]
        assert answer.status_code == 200 and message in " ".join(form.errors.get("discount_code", []))
        assert answer.content.decode().count(message) == 1  # once, not once per line
        assert not answer.context["error"]
    # What depends on each student (the uses left) still names the lines.
    answer = client.post(url, group_form(class_list=class_list(event, *rows[:2]), discount_code="ONCE"))
    assert "The code ONCE has been used up." in answer.context["error"]
    assert "discount_code" not in answer.context["contact"].errors
    assert Entry.objects.filter(event=event).count() == 0


@pytest.mark.django_db
def test_moving_an_entry_keeps_its_early_bird_right_and_a_code_for_every_category():
    event, category, juniors, standard = priced_event(payment_hold_hours=24 * 60)
    code(event, "ALL")
    entry = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="ALL")
    assert entry.amount_due == D("25")
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        moved = services.move_entry(event.owner, entry, juniors)
        back = services.move_entry(event.owner, moved, category)
    assert (moved.amount_due, moved.discount) == (D("10"), D("10"))
    assert back.amount_due == D("25")  # the early-bird fee of the day it was made


@pytest.mark.django_db
def test_a_free_place_is_settled_with_nothing_to_pay_and_money_paid_is_held(client):
    event, category, _, _ = priced_event()
    entry = services.register_entry(player_with_account().user, event, category=category.pk)
    services.record_payment(event.owner, entry, amount="10", method="in_person")
    client.force_login(event.owner)
    client.post(reverse("events:free_place", args=[entry.pk]), {"reason": "helper"})
    entry.refresh_from_db()
    assert (entry.status, entry.amount_due, entry.amount_paid, entry.free_place) == (
        EntryStatus.CONFIRMED,
        0,
        0,
        "helper",
    )
    page = client.get(reverse("events:record_payment", args=[entry.pk])).content.decode()
    assert "Free place (helper): nothing to pay." in page
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert "Free place: helper" in manage
    client.post(reverse("events:free_place", args=[entry.pk]), {"end": "1"})
    entry.refresh_from_db()
    assert (entry.free_place, entry.amount_due, entry.status) == ("", D("35"), EntryStatus.CONFIRMED)


@pytest.mark.django_db
def test_only_the_organiser_gives_free_places_and_manages_codes(client):
    event, category, _, _ = priced_event()
    entry = services.register_entry(player_with_account().user, event, category=category.pk)
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        discounts.give_free_place(stranger, entry, "helper")
    with pytest.raises(NotAllowed):
        discounts.save_discount_code(stranger, event, {"code": "X", "value": "1"})
    client.force_login(stranger)
    assert client.get(reverse("events:discount_codes", args=[event.slug])).status_code == 403
    assert client.post(reverse("events:free_place", args=[entry.pk]), {"reason": "x"}).status_code == 403
    entry.refresh_from_db()
    assert not entry.free_place


@pytest.mark.django_db
def test_the_organiser_adds_changes_and_removes_codes_on_the_codes_page(client):
    event, category, juniors, _ = priced_event()
    client.force_login(event.owner)
    url = reverse("events:discount_codes", args=[event.slug])
    answer = client.post(url, {"code": "early-schools", "kind": "percent", "value": "150"})
    assert "A percentage off is at most 100." in answer.content.decode()
    client.post(url, {"code": "early-schools", "kind": "percent", "value": "15", "max_uses": "30"})
    made = DiscountCode.objects.get(event=event)
    assert (made.code, made.value, made.max_uses) == ("EARLY-SCHOOLS", D("15"), 30)
    answer = client.post(url, {"code": "EARLY-SCHOOLS", "kind": "amount", "value": "5"})
    assert "The event has a code EARLY-SCHOOLS already." in answer.content.decode()
    edit = reverse("events:discount_code_edit", args=[event.slug, made.pk])
    client.post(edit, {"code": "EARLY-SCHOOLS", "kind": "amount", "value": "5", "category": str(juniors.pk)})
    made.refresh_from_db()
    assert (made.kind, made.value, made.category) == ("amount", D("5"), juniors)
    page = client.get(url).content.decode()
    assert "EARLY-SCHOOLS" in page and "S$5.00 off" in page and "Juniors" in page
    services.register_entry(player_with_account().user, event, category=juniors.pk, discount_code="early-schools")
    client.post(reverse("events:discount_code_delete", args=[event.slug, made.pk]))
    assert DiscountCode.objects.filter(pk=made.pk).exists()  # used: kept for its receipts


@pytest.mark.django_db
def test_a_code_whose_last_day_has_passed_is_refused_through_every_door(client):
    """A new code ending before yesterday could never be used (a slip of the year): the service, the organiser's
    page and the admin refuse it on the last-day field. Yesterday stops a code now; a code that has ended since it
    was made is saved again unchanged."""
    event, _, _, _ = priced_event()
    today = timezone.localdate()
    with pytest.raises(discounts.EventError) as refused:
        code(event, "LATE", expires_on=today - timedelta(days=2))
    assert refused.value.field == "expires_on" and "has passed" in refused.value.message
    assert not DiscountCode.objects.filter(event=event).exists()

    client.force_login(event.owner)
    url = reverse("events:discount_codes", args=[event.slug])
    last_year = (today - timedelta(days=365)).isoformat()
    answer = client.post(url, {"code": "LATE", "kind": "amount", "value": "5", "expires_on": last_year})
    assert "has passed: entrants could never use the code" in " ".join(answer.context["form"].errors["expires_on"])
    for typed in ("99999-01-01", "0000-00-00", "=1+1", "2030-01-01\x00", "x" * 100_000):  # hostile, on the field
        answer = client.post(url, {"code": "LATE", "kind": "amount", "value": "5", "expires_on": typed})
        assert answer.status_code == 200 and answer.context["form"].errors["expires_on"]
    assert not DiscountCode.objects.filter(event=event).exists()

    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    fields = {"event": event.pk, "code": "LATE", "kind": "amount", "value": "5", "expires_on": last_year}
    answer = client.post(reverse("admin:events_discountcode_add"), fields)
    assert answer.status_code == 200 and "has passed" in answer.content.decode()
    assert not DiscountCode.objects.filter(event=event).exists()

    stopped = code(event, "STOP", expires_on=today - timedelta(days=1))  # stopping it from today on
    DiscountCode.objects.filter(pk=stopped.pk).update(expires_on=today - timedelta(days=30))  # ended since
    again = discounts.save_discount_code(event.owner, event, {"note": "kept for the receipts"}, stopped)
    assert again.expires_on == today - timedelta(days=30) and again.note == "kept for the receipts"
    assert code(event, "NEXT", expires_on=today).expires_on == today


@pytest.mark.django_db
def test_the_receipt_shows_the_fee_and_the_discount():
    event, category, _, _ = priced_event()
    code(event, "TEN")
    entry = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="TEN")
    payment = services.record_payment(event.owner, entry, amount="25", method="in_person")
    (line,) = payment.money_payment.lines
    assert (D(str(line["standard"])), D(str(line["amount"]))) == (D("50"), D("25"))
    assert line["note"] == "early-bird fee, discount code TEN S$10.00 off"
    assert (line["discount"], line["discount_note"]) == ("10.00", "code TEN")


@pytest.mark.django_db
def test_an_entry_with_a_code_for_a_free_category_keeps_its_fee_at_nothing():
    event, category, _ = open_event(fees=())
    code(event, "ZERO")
    entry = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="ZERO")
    assert (entry.amount_due, entry.discount, entry.status) == (0, 0, EntryStatus.CONFIRMED)


@pytest.mark.django_db
def test_copying_an_event_keeps_its_fee_variants_with_the_early_bird_date_a_year_on_and_no_codes():
    from events.services.copying import copy_event

    event, category, _, _ = priced_event()
    code(event, "ONLY-THIS-YEAR")
    copy = copy_event(event.owner, event)
    fees = {(f.amount, f.audience, f.until) for f in copy.categories.get(name="Open").fees.all()}
    early = category.fees.get(amount=35).until
    assert fees == {
        (D("50"), "", None),
        (D("40"), MEMBERS, None),
        (D("35"), "", early.replace(year=early.year + 1)),
    }
    assert not DiscountCode.objects.filter(event=copy).exists()  # a code is given out for one event


@pytest.mark.django_db
def test_an_invoice_for_an_entry_with_a_code_shows_the_discount():
    from events.services.payments import entry_reference
    from money.core.documents import render_text
    from money.services import invoices
    from money.services.documents import invoice_document
    from tests.money.test_documents_service import payment_settings

    event, category, _, _ = priced_event()
    payment_settings(event.association)
    code(event, "TEN")
    entry = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="TEN")
    invoice = invoices.issue(
        entry.player.user,
        entry_reference(entry),
        document="invoice",
        billing_name="Yuhua Secondary School",
        billing_address="1 School Road",
    )
    text = render_text(invoice_document(invoice))
    assert invoice.amount_due == D("25")
    assert any("less early-bird fee, discount code TEN S$10.00 off SGD 25.00" in line for line in text), text


@pytest.mark.django_db
def test_a_fee_changed_after_money_was_paid_leaves_the_entries_made_as_they_were():
    """An entry keeps the price it was made at: the organiser raising or lowering a fee later changes what new
    entrants pay, never what an entry owes or has paid (nothing becomes due, nothing is held)."""
    from money.services import reports

    event, category, _, standard = priced_event()
    code(event, "TEN")
    entry = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="TEN")
    services.record_payment(event.owner, entry, amount="25", method="in_person")
    early = category.fees.get(amount=35)
    services.save_category(event.owner, event, category, fees=[{"id": early.pk, "amount": "20"}])
    entry.refresh_from_db()
    assert (entry.amount_due, entry.amount_paid, entry.status, entry.balance) == (D("25"), D("25"), "confirmed", 0)
    assert reports.event_totals(event)["held"] == 0
    later = services.register_entry(player_with_account().user, event, category=category.pk, discount_code="TEN")
    assert later.amount_due == D("10")
