"""Each money rule has one home and every caller uses it: a balance is money.balances'; who sees a payment is
visible_payments; references take their letters from money.core.references; payment methods cross between the
apps through money.models; and money reaches entries, renewals and events only through the kinds registered with
money.payables."""

from decimal import Decimal

import pytest
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events import services as events
from events.models import Entry, PaymentMethod
from events.services.payments import entry_reference, group_reference
from money import services
from money.balances import balance, balance_sql
from money.core import references
from money.models import OTHER_NAMES, Method, money_method, recorded_method
from money.payables import KINDS
from money.payables import events as event_source
from money.services import reports
from players.models import PaymentMethod as MembershipMethod
from players.models import RenewalRequest
from players.services import renewal_reference, request_renewal
from tests.events.factories import fast_passwords, make_organiser, open_event, player_with_account  # noqa: F401
from tests.factories import MembershipFactory, UserFactory
from tests.money.test_ledger import entered, seed_event

# ---------------------------------------------------------------------------------------------------------
# One balance


@pytest.mark.django_db
def test_every_balance_is_the_one_rule_in_python_and_in_sql():
    event, category, standard, _ = seed_event()
    part, over = entered(event, category, standard), entered(event, category, standard)
    services.receive(reference=entry_reference(part), amount="1.00", method=Method.PAYNOW)
    services.receive(reference=entry_reference(over), amount="5.00", method=Method.PAYNOW)
    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    services.receive(reference=renewal_reference(renewal), amount="5.00", method=Method.PAYNOW)
    part.refresh_from_db()
    over.refresh_from_db()
    renewal.refresh_from_db()
    assert (part.balance, over.balance, renewal.balance) == (Decimal("2.00"), 0, Decimal("15.00"))
    assert balance(Decimal("3"), Decimal("5")) == 0
    in_sql = dict(Entry.objects.annotate(left=balance_sql()).values_list("pk", "left"))
    assert in_sql == {part.pk: Decimal("2.00"), over.pk: 0}
    assert RenewalRequest.objects.annotate(left=balance_sql("amount", "amount_paid")).get().left == Decimal("15.00")
    (kind, due) = services.due_or_error(entry_reference(part))
    assert due.balance == part.balance
    (owed,) = reports.owed(event.pk)[0:10]
    assert (owed.reference, owed.balance, owed.name) == (entry_reference(part), part.balance, part.player.full_name)
    (renewal_owed,) = reports.owed(at_events=False)[0:10]
    assert (renewal_owed.reference, renewal_owed.balance) == (renewal_reference(renewal), renewal.balance)
    assert reports.outstanding_totals(renewals=True) == {
        "outstanding_count": 1,
        "outstanding": Decimal("2.00"),
        "renewals_count": 1,
        "renewals_outstanding": Decimal("15.00"),
    }


# ---------------------------------------------------------------------------------------------------------
# One rule for who sees a payment


@pytest.mark.django_db
def test_who_sees_one_payment_is_who_finds_it_in_their_list():
    event, category, standard, _ = seed_event()
    other_event, other_category, other_standard, _ = seed_event()
    helper = player_with_account()
    entry = events.register_entry(helper.user, event, category=category, fee=standard)
    other = entered(other_event, other_category, other_standard)
    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    paid = [
        services.receive(reference=reference, amount=amount, method=Method.PAYNOW).payment
        for reference, amount in (
            (entry_reference(entry), "3.00"),
            (entry_reference(other), "3.00"),
            (renewal_reference(renewal), "20.00"),
        )
    ]
    people = [helper.user, member.user, event.owner, other_event.owner, UserFactory(is_staff=True), UserFactory()]
    for person in people:
        listed = set(services.visible_payments(person).values_list("pk", flat=True))
        for payment in paid:
            try:
                services.assert_may_view(person, payment)
                seen = True
            except NotAllowed:
                seen = False
            assert seen == (payment.pk in listed), (person, payment)
    assert set(services.visible_payments(event.owner)) == {paid[0]}
    assert set(services.visible_payments(member.user)) == {paid[2]}
    assert services.visible_payments(UserFactory()).count() == 0


# ---------------------------------------------------------------------------------------------------------
# References, methods and the registry


def test_each_kind_takes_its_letter_from_the_references():
    assert {code: kind.code for code, kind in KINDS.items()} == {
        references.ENTRY: references.ENTRY,
        references.GROUP: references.GROUP,
        references.RENEWAL: references.RENEWAL,
        references.SESSION: references.SESSION,
    }
    assert "".join(sorted(KINDS)) == "".join(sorted(references.KINDS))
    assert KINDS[references.ENTRY].reference(123) == references.make_reference("E", 123)


@pytest.mark.django_db
def test_the_references_of_entries_and_groups_are_the_kinds():
    event, category, (fee,) = open_event()
    entry = events.register_entry(player_with_account().user, event, category=category, fee=fee)
    assert entry_reference(entry) == KINDS[references.ENTRY].reference(entry.pk)
    group = events.register_group(
        UserFactory(), event, accept_rules=True,
        contact={"role": "teacher", "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=[{"full_name": "Pupil", "category": category, "fee": fee}],
    )  # fmt: skip
    assert group_reference(group) == KINDS[references.GROUP].reference(group.pk)


def test_one_mapping_carries_payment_methods_between_money_and_the_other_apps():
    assert set(Method.values) <= set(PaymentMethod.values)  # events record every way money is paid
    assert {recorded_method(m, PaymentMethod.values) for m in Method.values} == set(Method.values)
    assert {m: recorded_method(m, MembershipMethod.values) for m in Method.values} == {
        "paynow": "bank_transfer",
        "bank_transfer": "bank_transfer",
        "card": "online",
        "in_person": "in_person",
        "cheque": "cheque",
    }
    assert money_method("online") == Method.CARD and money_method("cheque") == Method.CHEQUE
    assert all(money_method(recorded_method(m, MembershipMethod.values)) in Method.values for m in OTHER_NAMES)


@pytest.mark.django_db
def test_money_finds_events_through_the_kinds():
    event = open_event()[0]
    source = event_source()
    assert source.find(event.slug) == event == source.find(str(event.pk)) and source.find("nope") is None
    assert source.may_manage(event.owner, event) and not source.may_manage(make_organiser(), event)
    assert source.managed_by(event.owner) == [event.pk] and source.managed_by(UserFactory()) == []
    assert source.manage_url(event) == reverse("events:manage", args=[event.slug])
