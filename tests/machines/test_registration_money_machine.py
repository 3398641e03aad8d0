"""Registration and money as a state machine: random sequences of what entrants, teachers, organisers and the
treasurer do, through the services (never the pages), with the money and the places checked after every step.

The steps: open an event with two categories, each with a standard fee (S$3) and a Passion Card concession (S$2),
a quota and a waiting list; a member enters themselves (standard or concession); the organiser enters a member on
their behalf; a teacher sends a group, typed or as a pasted class list under each header the site itself uses
for the card number (with and without card numbers), sometimes naming a student another group already entered;
the organiser moves an entry to the other fee or the other category; money arrives for an entry (in full, in
part, more than due) by a PayNow line on a confirmed bank statement, by the card webhook's service, in person,
by cheque, or once for a whole group; a payment is refunded (in part or whole); an entry is withdrawn; the
organiser lapses unpaid entries; a waiting-list place is offered and accepted; a quota is raised or lowered;
a paid entry is withdrawn and the organiser reinstates a withdrawal (while its place is free); the event is
played (some of those holding a place seated) and completed; the event is cancelled and everything refunded; an
entrant or a teacher asks for a quotation or an invoice (for anything, paid, withdrawn or cancelled included) and
pays an open invoice's balance by card or by a PayNow line on a statement; an entrant uses a discount code (a
percentage for the event, an amount for one category, each with its uses); the organiser gives a free place and
takes it back.

What must hold after every step:

1. Money balances out. For every payment: received = applied + refunded + held, none negative. For every entry
   (or a group with its entries): what the ledger applied to it equals what the entry counts as paid, and an
   entry never counts as paid more than it is charged: money beyond the charge is held on the ledger, where
   the organiser refunds or keeps it. Nothing charged, paid or held is negative.
2. Receipts and credit notes are numbered 1, 2, 3 … without gaps, and their amounts sum to what the ledger
   (and the treasurer's summary) says was received and refunded.
3. Places held in a category are never more than its quota, and the waiting list is in the order people
   entered (first come, first served), numbered 1, 2, 3 ….
4. Nobody holds two active entries in one event: not the same player record, and not the same child (same name,
   same date of birth) entered twice under two records.
5. What the site shows equals the ledger, computed by the functions the pages use: each entry's and each
   group's amount due (money.payables: paid, balance, owed); the organiser's money page for the event
   (money.services.reports.event_totals: received, applied, refunded, held, outstanding); the treasurer's
   summary for the event (reports.summary); what is still owed (reports.outstanding_totals) equals the sum of
   the balances of the places taken (pending payment or confirmed: an offer not yet accepted owes nothing); a
   group's page shows as held what the ledger holds under its references, so that what the group paid is either
   counted for its entries or shown held.
6. Quotations and invoices are numbered 1, 2, 3 … in their own series, without gaps; one refused saves nothing;
   an issued one never changes (its lines and amounts stay as issued); at most one invoice of a thing is open;
   an invoice is paid once its balance is paid in full, and the money paid under it is for what it invoiced.
7. A discount code is never used by more entries holding or waiting for a place than its uses; a free place owes
   nothing and carries no discount; no discount or charge is negative.

Bounded to run in `make test` in well under a minute."""

from __future__ import annotations

import itertools
import unicodedata
from datetime import date
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clubsite.kit.errors import ServiceError
from events import services as events
from events.forms.entering import parse_class_list
from events.models import ACTIVE_ENTRY_STATUSES, DiscountCode, Entry, EntryStatus, Event, EventStatus, GroupEntry
from events.payables import ENTRY, GROUP
from events.play.models import Division, DivisionPlayer
from events.services import discounts
from events.services.discounts import save_discount_code
from events.services.payments import entry_reference, group_reference
from money import services as money
from money.models import BillingDocument, Invoice, InvoiceStatus, Method, Payment, PaymentSettings, Refund
from money.services import invoices, reports
from money.services import statements as reconcile
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory, player_with_account
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=False)

ZERO = Decimal("0")
# The places taken: what owes its fee.
TAKEN = (EntryStatus.PENDING_PAYMENT, EntryStatus.CONFIRMED)
# The site's own words for the card number column: the entry form's labels, the class list's help text, the
# proof a concession asks for (events.services.announcements, events.demo).
CARD_HEADERS = (
    "Passion Card",
    "Passion Card number",
    "Concession card",
    "Concession card no",
    "Concession card no.",
    "Concession card number",
)
NAMES = ("Tan Wei Ling", "Lim Jun Jie", "Nur Aisyah", "Ravi Kumar", "Ong Bee Lean", "Chua Kai Xin", "Lee Min")


class FakeCard:
    """The card provider's refund (the real one calls Stripe)."""

    def __init__(self):
        self.n = itertools.count(1)

    def refund(self, payment, amount):
        return f"re_test_{next(self.n)}"


def child_key(player) -> tuple:
    name = unicodedata.normalize("NFKC", player.full_name or "").casefold()
    return " ".join(name.split()), player.date_of_birth


class RegistrationMoneyMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.lines = itertools.count(1)
        self.card = FakeCard()
        self.used = []  # (name, date of birth) of students groups entered
        self.seated = set()  # the entries play seated before the event was completed
        self.issued = {}  # invoice pk -> its lines and amounts as issued

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- the event -------------------------------------------------------------------------------

    @initialize(quota=st.integers(min_value=1, max_value=4))
    def open_event(self, quota):
        self.event = EventFactory(
            payment_methods=["paynow", "bank_transfer", "card", "in_person", "cheque"], max_group_size=15
        )
        self.owner = self.event.owner
        self.staff = UserFactory(is_staff=True)
        PaymentSettings.objects.create(association=self.event.association, receipt_prefix="SSA")
        self.categories = []
        for name in ("Secondary", "Primary"):
            category = CategoryFactory(event=self.event, name=name, quota=quota)
            FeeFactory(category=category, name="Standard", amount=Decimal("3.00"))
            FeeFactory(
                category=category,
                name="Passion Card holder",
                amount=Decimal("2.00"),
                is_concession=True,
                proof_label="Passion Card number",
            )
            self.categories.append(category)
        # Discount codes: half off for the whole event, twice; a whole fee off the first category only.
        save_discount_code(self.owner, self.event, {"code": "HALF", "kind": "percent", "value": "50", "max_uses": 2})
        save_discount_code(
            self.owner, self.event, {"code": "ALL", "value": "3", "category": self.categories[0].pk, "max_uses": 3}
        )

    def fee(self, category, concession: bool):
        return category.fees.get(is_concession=concession)

    def entries(self):
        return list(Entry.objects.filter(event=self.event).select_related("player", "fee", "category").order_by("pk"))

    def active(self, statuses=ACTIVE_ENTRY_STATUSES):
        return [e for e in self.entries() if e.status in statuses]

    @property
    def open(self) -> bool:
        self.event.refresh_from_db()
        return self.event.status != EventStatus.CANCELLED

    def attempt(self, action):
        try:
            return action()
        except ServiceError:
            return None

    # --- entering --------------------------------------------------------------------------------

    @rule(which=st.integers(0, 1), concession=st.booleans())
    def enter_myself(self, which, concession):
        player = player_with_account()
        category = self.categories[which]
        proof = "PC1234" if concession else ""
        self.attempt(
            lambda: events.register_entry(
                player.user, self.event, category=category, fee=self.fee(category, concession), concession_proof=proof
            )
        )

    @rule(which=st.integers(0, 1), concession=st.booleans())
    def enter_a_member_for_them(self, which, concession):
        member = PlayerFactory(date_of_birth=date(2012, 5, 4))
        category = self.categories[which]
        self.attempt(
            lambda: events.register_entry(
                self.owner,
                self.event,
                category=category,
                fee=self.fee(category, concession),
                concession_proof="PC555" if concession else "",
                player=member,
                date_of_birth=member.date_of_birth,
            )
        )

    @rule(
        size=st.integers(1, 3),
        which=st.integers(0, 1),
        header=st.sampled_from(CARD_HEADERS),
        cards=st.lists(st.booleans(), min_size=3, max_size=3),
        again=st.booleans(),
        data=st.data(),
    )
    def a_teacher_pastes_a_class_list(self, size, which, header, cards, again, data):
        """A class list under one of the site's headers; a card number on a line means the concession fee."""
        rows = []
        for i in range(size):
            if again and self.used and i == 0:
                name, born = data.draw(st.sampled_from(self.used), label="entered before")
            else:
                name, born = f"{NAMES[next(self.lines) % len(NAMES)]} {next(self.lines)}", date(2013, 1 + i, 10)
            rows.append((name, born, f"77{next(self.lines):04d}" if cards[i] else ""))
        category = self.categories[which]
        text = "\n".join(
            [f"Name\tDate of birth\tCategory\t{header}"]
            + [f"{name}\t{born:%d/%m/%Y}\t{category.name}\t{card}" for name, born, card in rows]
        )
        students = parse_class_list(text, self.categories)
        for (_name, _born, card), student in zip(rows, students, strict=True):
            assert student["concession_proof"] == card, f"the {header!r} column was not read as the card number"
        group = self.attempt(lambda: events.register_group(self.owner, self.event, contact=CONTACT, students=students))
        if group is not None:
            for (name, born, card), entry in zip(rows, group.entries.order_by("pk"), strict=True):
                assert entry.concession_proof == card
                assert entry.amount_due == (Decimal("2.00") if card else Decimal("3.00"))
                self.used.append((name, born))

    @rule(which=st.integers(0, 1), concession=st.booleans(), code=st.sampled_from(("HALF", "ALL", "half", "NONE")))
    def enter_with_a_code(self, which, concession, code):
        """A code takes its amount or percentage off (never below nothing), within its uses and its category."""
        player = player_with_account()
        category = self.categories[which]
        fee = self.fee(category, concession)
        entry = self.attempt(
            lambda: events.register_entry(
                player.user,
                self.event,
                category=category,
                fee=fee,
                concession_proof="PC1234" if concession else "",
                discount_code=code,
            )
        )
        if entry is not None:
            off = {"HALF": fee.amount / 2, "ALL": min(Decimal("3"), fee.amount)}[code.upper()]
            assert (entry.amount_due, entry.discount) == (fee.amount - off, off)

    @rule(data=st.data())
    def give_a_free_place(self, data):
        """The organiser gives a helper a free place: nothing to pay, what was paid held for the refund."""
        entries = self.active()
        if entries:
            entry = data.draw(st.sampled_from(entries), label="helper")
            self.attempt(lambda: discounts.give_free_place(self.owner, entry, "helper"))

    @rule(data=st.data())
    def end_a_free_place(self, data):
        free = [e for e in self.active() if e.free_place]
        if free:
            entry = data.draw(st.sampled_from(free), label="free place")
            self.attempt(lambda: discounts.end_free_place(self.owner, entry))

    # --- changing an entry -----------------------------------------------------------------------

    @rule(data=st.data(), other_category=st.booleans())
    def move_an_entry(self, data, other_category):
        entries = self.active()
        if not entries:
            return
        paid = [e for e in entries if e.amount_paid > 0]
        # A paid entry most of the time: what a move does to money is what matters.
        entry = data.draw(st.sampled_from(paid if paid and data.draw(st.booleans(), label="a paid one") else entries))
        category = self.categories[1 - self.categories.index(entry.category)] if other_category else entry.category
        concession = not entry.fee.is_concession if not other_category else data.draw(st.booleans())
        self.attempt(
            lambda: events.move_entry(
                self.owner, entry, category, self.fee(category, concession), concession_proof="PC999"
            )
        )

    @rule(data=st.data(), other_category=st.booleans())
    def move_a_paid_entry(self, data, other_category):
        """The case that matters for money: the organiser changes the fee of an entry already paid for."""
        if any(e.amount_paid > 0 for e in self.active()):
            self.move_an_entry(data, other_category)

    @rule(data=st.data())
    def withdraw(self, data):
        entries = self.active()
        if entries:
            entry = data.draw(st.sampled_from(entries), label="entry")
            self.attempt(lambda: events.withdraw_entry(self.owner, entry))

    @rule(data=st.data())
    def withdraw_a_paid_entry(self, data):
        """What a withdrawal does to money: what the entry had paid is held as the refund due."""
        paid = [e for e in self.active() if e.amount_paid > 0]
        if paid:
            entry = data.draw(st.sampled_from(paid), label="paid entry")
            self.attempt(lambda: events.withdraw_entry(entry.player.user or self.owner, entry))

    @rule(data=st.data())
    def reinstate_a_withdrawal(self, data):
        """The organiser undoes a withdrawal (refused when the place has gone): the money held counts again."""
        withdrawn = [e for e in self.entries() if e.status == EntryStatus.WITHDRAWN]
        if withdrawn:
            entry = data.draw(st.sampled_from(withdrawn), label="withdrawn entry")
            self.attempt(lambda: events.reinstate_withdrawal(self.owner, entry))

    @rule()
    def lapse_unpaid(self):
        self.attempt(lambda: events.lapse_unpaid_now(self.owner, self.event))

    @rule(data=st.data())
    def accept_an_offer(self, data):
        offered = self.active((EntryStatus.OFFERED,))
        if offered:
            entry = data.draw(st.sampled_from(offered), label="offer")
            self.attempt(lambda: events.accept_offer(self.owner, entry))

    @rule(which=st.integers(0, 1), change=st.integers(-2, 2))
    def change_the_quota(self, which, change):
        category = self.categories[which]
        category.refresh_from_db()
        quota = max((category.quota or 0) + change, 0)
        self.attempt(lambda: events.save_category(self.owner, self.event, category, quota=quota))

    @precondition(lambda self: self.open)
    @rule(data=st.data())
    def play_and_complete_the_event(self, data):
        """The day comes: play seats some of those holding a place (the machine runs before the event's date, so
        the event is put in progress as pairing the first round would), then the organiser completes it."""
        self.event.refresh_from_db()
        if self.event.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED):
            return
        holding = [e for e in self.active() if e.holds_place]
        seated = (
            data.draw(st.lists(st.sampled_from(holding), unique_by=lambda e: e.pk), label="seated") if holding else []
        )
        Event.objects.filter(pk=self.event.pk).update(status=EventStatus.IN_PROGRESS)
        division = Division.objects.create(event=self.event, name="A")
        for number, entry in enumerate(seated, start=1):
            DivisionPlayer.objects.create(division=division, player=entry.player, entry=entry, number=number)
        self.seated = {e.pk for e in seated}
        events.complete_event(self.owner, self.event)

    @precondition(lambda self: self.open)
    @rule(refund_all=st.booleans())
    def cancel_the_event(self, refund_all):
        self.attempt(lambda: events.cancel_event(self.owner, self.event, "The hall is flooded."))
        if refund_all:
            self.attempt(
                lambda: money.refund_all(self.owner, reports.refunds_due(self.event), reason="Event cancelled")
            )

    # --- money -----------------------------------------------------------------------------------

    def amount(self, balance: Decimal, how: str) -> Decimal:
        if how == "part":
            return Decimal("1.00") if balance > Decimal("1.00") else Decimal("0.50")
        if how == "over":
            return balance + Decimal("1.00")
        return balance if balance > 0 else Decimal("1.00")

    @rule(
        data=st.data(),
        how=st.sampled_from(("full", "part", "over")),
        way=st.sampled_from(("statement", "card", "in_person", "cheque")),
    )
    def pay_an_entry(self, data, how, way):
        entries = self.entries()
        if not entries:
            return
        owing = [e for e in entries if e.owed > 0]
        entry = data.draw(st.sampled_from(owing if owing and data.draw(st.booleans(), label="owing") else entries))
        amount = self.amount(entry.balance, how)
        self.pay(entry_reference(entry), amount, way, entry=entry)

    @rule(
        data=st.data(),
        how=st.sampled_from(("full", "part", "over")),
        way=st.sampled_from(("statement", "card", "cheque")),
    )
    def pay_for_a_group(self, data, how, way):
        groups = list(GroupEntry.objects.filter(event=self.event).order_by("pk"))
        if not groups:
            return
        group = data.draw(st.sampled_from(groups), label="group")
        due = GROUP.due(group.pk)
        amount = self.amount(due.balance, how)
        if way == "cheque":
            self.attempt(
                lambda: events.record_group_payment(
                    self.owner, group, amount=amount, method="cheque", reference=f"4001{next(self.lines)}"
                )
            )
        else:
            self.pay(group_reference(group), amount, way)

    def pay(self, reference: str, amount: Decimal, way: str, entry=None):
        n = next(self.lines)
        if way == "statement":
            today = timezone.localdate()
            csv = f"date,amount,description\n{today:%Y-%m-%d},{amount},PAYNOW TRF FROM TAN OTHR {reference}\n"
            statement = self.attempt(
                lambda: reconcile.upload(self.staff, self.event.association, f"s{n}.csv", csv.encode())
            )
            if statement is not None:
                self.attempt(lambda: reconcile.confirm(self.staff, statement, with_errors=True))
        elif way == "card":
            self.attempt(
                lambda: money.receive(
                    reference=reference, amount=amount, method=Method.CARD, external_id=f"cs_test_{n}"
                )
            )
        else:
            self.attempt(
                lambda: events.record_payment(
                    self.owner, entry, amount=amount, method=way, reference=f"4001{n}" if way == "cheque" else ""
                )
            )

    @rule(data=st.data(), whole=st.booleans())
    def refund(self, data, whole):
        payments = [p for p in Payment.objects.filter(event=self.event).order_by("pk") if p.refundable > 0]
        if not payments:
            return
        payment = data.draw(st.sampled_from(payments), label="payment")
        amount = payment.refundable if whole else min(payment.refundable, Decimal("0.50"))
        self.attempt(
            lambda: money.refund(self.owner, payment, amount=amount, reason="Asked for it back", provider=self.card)
        )

    # --- quotations and invoices -----------------------------------------------------------------

    @rule(data=st.data(), group=st.booleans(), document=st.sampled_from(BillingDocument.values))
    def ask_for_a_quotation_or_invoice(self, data, group, document):
        if group:
            things = list(GroupEntry.objects.filter(event=self.event).order_by("pk"))
            payers = {g.pk: (group_reference(g), g.submitted_by) for g in things}
        else:
            things = self.entries()
            payers = {e.pk: (entry_reference(e), e.entered_by or e.player.user) for e in things}
        if not things:
            return
        reference, payer = payers[data.draw(st.sampled_from(things), label="thing").pk]
        before = Invoice.objects.count()
        invoice = self.attempt(
            lambda: invoices.issue(
                payer, reference, document=document, billing_name="Yuhua Primary", billing_address="1 Jurong West"
            )
        )
        if invoice is None:
            assert Invoice.objects.count() == before  # refused: nothing saved
            return
        self.issued[invoice.pk] = (invoice.lines, invoice.total, invoice.paid_before, invoice.amount_due)

    @rule(data=st.data(), way=st.sampled_from(("statement", "card")))
    def pay_an_invoice(self, data, way):
        open_ones = list(
            Invoice.objects.filter(event=self.event, document=BillingDocument.INVOICE, status=InvoiceStatus.ISSUED)
        )
        if not open_ones:
            return
        invoice = data.draw(st.sampled_from(open_ones), label="invoice")
        kind, due = money.due_or_error(invoice.reference)
        if not (due.payable and due.balance > 0):
            return
        self.pay(invoice.reference, due.balance, way)
        if way == "card":  # the card's service takes it at once: the invoice is paid
            invoice.refresh_from_db()
            assert invoice.status == InvoiceStatus.PAID

    # --- what must hold --------------------------------------------------------------------------

    @invariant()
    def invoices_are_numbered_without_gaps_never_change_and_are_paid_when_paid(self):
        association = self.event.association
        for document in BillingDocument.values:
            numbers = sorted(
                Invoice.objects.filter(association=association, document=document).values_list("sequence", flat=True)
            )
            assert numbers == list(range(1, len(numbers) + 1)), document
        rows = list(Invoice.objects.filter(event=self.event))
        for invoice in rows:
            assert (invoice.lines, invoice.total, invoice.paid_before, invoice.amount_due) == self.issued[invoice.pk]
            for payment in invoice.payments.all():
                assert payment.reference == invoice.reference and payment.recorded_at >= invoice.issued_at
            if invoice.status == InvoiceStatus.PAID:
                assert invoice.settled_at is not None and invoice.payments.exists()
        open_ones = [(i.kind, i.target_id) for i in rows if i.document == "invoice" and i.status == "issued"]
        assert len(open_ones) == len(set(open_ones))

    @invariant()
    def money_balances_out(self):
        entries = self.entries()
        for entry in entries:
            assert entry.amount_due >= 0 and entry.amount_paid >= 0, entry
            assert entry.amount_paid <= entry.amount_due, (
                f"{entry.player.full_name} ({entry.get_status_display()}) is charged {entry.amount_due} but counts "
                f"{entry.amount_paid} as paid: the {entry.amount_paid - entry.amount_due} over is not held"
            )
        payments = list(Payment.objects.filter(event=self.event))
        for p in payments:
            assert p.applied >= 0 and p.refunded >= 0 and p.held >= 0 and p.amount == p.applied + p.refunded + p.held
        # What the ledger applied to each entry (or group with its entries) is what they count as paid.
        applied: dict[tuple, Decimal] = {}
        for p in payments:
            key = ("G", p.target_id) if p.kind == GROUP.code else ("E", p.target_id)
            applied[key] = applied.get(key, ZERO) + p.applied
        counted: dict[tuple, Decimal] = {}
        for entry in entries:
            counted[("E", entry.pk)] = counted.get(("E", entry.pk), ZERO) + entry.amount_paid
        for key in [k for k in applied if k[0] == "G"]:
            mine = [e for e in entries if e.group_id == key[1]]
            counted[key] = sum((counted.pop(("E", e.pk), ZERO) for e in mine), ZERO)
            applied[key] += sum((applied.pop(("E", e.pk), ZERO) for e in mine), ZERO)
        for key in set(applied) | set(counted):
            assert applied.get(key, ZERO) == counted.get(key, ZERO), key

    @invariant()
    def codes_are_never_over_used_and_free_places_owe_nothing(self):
        for code in DiscountCode.objects.filter(event=getattr(self, "event", None)):
            assert discounts.uses(code) <= code.max_uses, f"{code.code} used {discounts.uses(code)} times"
        for entry in self.entries():
            assert entry.discount >= 0 and entry.amount_due >= 0
            if entry.free_place:
                assert entry.amount_due == 0 and entry.discount == 0 and entry.discount_code_id is None

    @invariant()
    def a_withdrawn_entry_counts_nothing_as_paid(self):
        """It holds no place: what it had paid is held on the ledger (the refund due on the money page) or refunded,
        so reinstating it can count that money again, once."""
        for entry in self.entries():
            if entry.status == EntryStatus.WITHDRAWN:
                assert entry.amount_paid == 0 and entry.owed == 0, f"{entry.player.full_name} withdrawn, paid counted"

    @invariant()
    def a_completed_event_leaves_no_place_pending_and_nobody_waiting(self):
        """Who played is confirmed (still owing what they owe: the money pages keep listing it), nobody has a place
        left to lapse or an offer to take, and nobody is still waiting."""
        if Event.objects.get(pk=self.event.pk).status != EventStatus.COMPLETED:
            return
        entries = self.entries()
        still_open = (EntryStatus.PENDING_PAYMENT, EntryStatus.OFFERED, EntryStatus.WAITLISTED)
        assert not [e for e in entries if e.status in still_open]
        for entry in entries:
            if entry.pk in self.seated:
                assert entry.status == EntryStatus.CONFIRMED and entry.owed == entry.balance, entry
        taken = events.places(self.event).taken
        for category in self.categories:
            confirmed = [e for e in entries if e.category_id == category.pk and e.status == EntryStatus.CONFIRMED]
            assert taken.get(category.pk, 0) == len(confirmed), category.name

    @invariant()
    def documents_are_numbered_without_gaps_and_sum_to_the_ledger(self):
        association = self.event.association
        receipts = sorted(Payment.objects.filter(association=association).values_list("sequence", flat=True))
        credits = sorted(Refund.objects.filter(payment__association=association).values_list("sequence", flat=True))
        assert receipts == list(range(1, len(receipts) + 1))
        assert credits == list(range(1, len(credits) + 1))
        received = Payment.objects.filter(event=self.event).aggregate(s=Sum("amount"))["s"] or ZERO
        refunded = Refund.objects.filter(payment__event=self.event).aggregate(s=Sum("amount"))["s"] or ZERO
        assert refunded == (Payment.objects.filter(event=self.event).aggregate(s=Sum("refunded"))["s"] or ZERO)
        totals = reports.event_totals(self.event)
        assert (totals["received"], totals["refunded"]) == (received, refunded)

    @invariant()
    def places_within_quota_and_the_waiting_list_in_order(self):
        taken = events.places(self.event).taken
        for category in self.categories:
            category.refresh_from_db()
            held = [e for e in self.active() if e.category_id == category.pk and e.holds_place]
            assert taken.get(category.pk, 0) == len(held)
            if category.quota is not None:
                assert len(held) <= category.quota, f"{category.name}: {len(held)} places, quota {category.quota}"
            waiting = sorted(
                (e for e in self.active((EntryStatus.WAITLISTED,)) if e.category_id == category.pk),
                key=lambda e: (e.accepted_at, e.pk),
            )
            assert [events.waitlist_position(e) for e in waiting] == list(range(1, len(waiting) + 1))

    @invariant()
    def nobody_is_entered_twice(self):
        active = self.active()
        players = [e.player_id for e in active]
        assert len(players) == len(set(players))
        seen = {}
        for entry in active:
            key = child_key(entry.player)
            if key[1] is None:
                continue
            assert key not in seen, f"{entry.player.full_name}, born {key[1]}, is entered twice (entries {seen[key]})"
            seen[key] = entry.pk

    @invariant()
    def what_the_pages_show_is_the_ledger(self):
        entries = self.entries()
        for entry in entries:
            due = ENTRY.due(entry.pk)
            assert (due.total, due.paid, due.balance) == (entry.amount_due, entry.amount_paid, entry.balance)
            assert due.paid <= due.total, f"entry {entry.pk} shows paid {due.paid} of {due.total}, nothing held"
            assert due.lines[0].balance == entry.owed
        for group in GroupEntry.objects.filter(event=self.event):
            due = GROUP.due(group.pk)
            payable = [e for e in entries if e.group_id == group.pk and e.status in TAKEN]
            assert due.total == sum((e.amount_due for e in payable), ZERO)
            assert due.paid == sum((e.amount_paid for e in payable), ZERO)
            assert due.paid <= due.total, f"group {group.pk} shows paid {due.paid} of {due.total}, nothing held"
        payments = list(Payment.objects.filter(event=self.event))
        # What a group's page shows as held (to the teacher and the organiser) is what the ledger holds under the
        # group's reference and its entries': what they were paid is counted for a place, refunded or shown held.
        for group in GroupEntry.objects.filter(event=self.event):
            shown = events.group_money(group)
            mine = [e for e in entries if e.group_id == group.pk]
            references = {group_reference(group), *(entry_reference(e) for e in mine)}
            under = [p for p in payments if p.reference in references]
            assert shown.held == sum((p.held for p in under), ZERO), f"group {group.pk} shows {shown.held} held"
            assert sum((p.amount - p.refunded for p in under), ZERO) == (
                sum((e.amount_paid for e in mine), ZERO) + shown.held
            ), f"group {group.pk}: what was paid is neither counted for a place nor shown held"
        totals = reports.event_totals(self.event)
        assert totals["applied"] == sum((p.applied for p in payments), ZERO)
        assert totals["held"] == sum((p.held for p in payments), ZERO)
        assert totals["received"] == totals["applied"] + totals["refunded"] + totals["held"]
        owed = sum((e.owed for e in entries), ZERO)
        assert totals["outstanding"] == owed == reports.outstanding_totals(self.event.pk)["outstanding"]
        # "Still owed" counts the places taken and nothing else: not a place offered and not yet accepted (its
        # email says the fee is due after accepting), not the waiting list, not an entry ended.
        taken = [e for e in entries if e.status in TAKEN and e.amount_due > e.amount_paid]
        assert (totals["outstanding_count"], totals["outstanding"]) == (
            len(taken),
            sum((e.amount_due - e.amount_paid for e in taken), ZERO),
        ), "still owed counts what no place taken owes"
        mine = [t for t in reports.summary(reports.Filters(event_id=self.event.pk)).events if t.event_id]
        if payments:
            [treasurer] = mine
            assert (treasurer.received, treasurer.refunded, treasurer.held) == (
                totals["received"],
                totals["refunded"],
                totals["held"],
            )


CONTACT = {
    "role": GroupEntry.Role.TEACHER,
    "contact_name": "Mrs Tan",
    "school": "Yuhua Primary",
    "address": "1 Jurong West Ave",
    "phone": "61234567",
    "email": "teacher@example.org",
}

SETTINGS = settings(
    max_examples=20,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_registration_and_money_keep_their_rules():
    run_state_machine_as_test(RegistrationMoneyMachine, settings=SETTINGS)
