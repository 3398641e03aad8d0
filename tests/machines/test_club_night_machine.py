"""Club nights as a state machine: random sequences of what members, guests, the club director and the treasurer
do, through the services (never the pages), with attendance and money checked after every step.

The steps: a member says they are coming (or not), with guests; the director checks a member in (one who said so or
not), or a guest at the door (a name the association may know already, by the same email); the session fee is
paid at the door (in person or PayNow), or arrives from the bank by its reference (in full, in part, more than due);
a payment is refunded in part or whole; a night is taken off (a public holiday) before anyone was checked in.

What must hold after every step:

1. Attendance: one row per person per night; only a checked-in person is charged, at the member's price when a
   member of the club and the guest's otherwise, less what was refunded of it; nobody is checked in at a night
   that is off.
2. Fees equal the ledger: what an attendance counts as paid is what the ledger's payments applied to its reference,
   never more than its fee; every payment is applied + refunded + held, none negative.
3. Takings equal the ledger: each night's takings (the treasurer's page's function) are the payments received for
   its attendances less their refunds, and all nights' together are every session-fee payment's.
4. One person, one record: a guest who comes again with the same email is the same record."""

from __future__ import annotations

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from clubs import services
from clubs.models import Attendance, AttendanceStatus, ClubNight, NightStatus, OfficerRole
from clubsite.kit.errors import ServiceError
from money.core.references import SESSION
from money.models import Method, Payment, PaymentSettings, Refund
from money.services import ledger
from players.models import Player
from tests.clubs.factories import member_of
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=False)

ZERO = Decimal("0")
MEMBER_FEE, GUEST_FEE = Decimal("5.00"), Decimal("8.00")
GUESTS = [("Gina Guest", "gina@example.org"), ("Hugo Visitor", "hugo@example.org"), ("Ida Newcomer", "")]


class ClubNightMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    @initialize()
    def a_club_with_nights(self):
        self.staff = UserFactory(is_staff=True)
        self.club = ClubFactory()
        PaymentSettings.objects.create(association=self.club.association, receipt_prefix="CLB")
        self.members = [member_of(self.club) for _ in range(3)]
        self.visitor = member_of(ClubFactory(association=self.club.association))  # another club's member
        self.director = self.members[0]
        services.appoint_officer(self.staff, self.club, self.director, OfficerRole.DIRECTOR)
        today = timezone.localdate()
        self.series = services.plan_series(
            self.staff,
            self.club,
            frequency="weekly",
            first_on=today,
            last_on=today + timedelta(weeks=2),
            starts_at=time(19, 0),
            member_fee=MEMBER_FEE,
            guest_fee=GUEST_FEE,
        )
        self.nights = list(self.series.nights.order_by("on"))

    def attempt(self, action):
        try:
            return action()
        except ServiceError:
            return None

    def night(self, data):
        return ClubNight.objects.select_related("club").get(pk=data.draw(st.sampled_from(self.nights)).pk)

    def attendance(self, data, **where):
        rows = list(Attendance.objects.filter(night__club=self.club, **where).select_related("night", "player"))
        return data.draw(st.sampled_from(rows)) if rows else None

    @rule(data=st.data(), coming=st.booleans(), guests=st.integers(0, 3))
    def member_answers(self, data, coming, guests):
        member = data.draw(st.sampled_from(self.members))
        self.attempt(lambda: services.answer(member.user, self.night(data), coming=coming, guests=guests))

    @rule(data=st.data(), visitor=st.booleans())
    def director_checks_in(self, data, visitor):
        player = self.visitor if visitor else data.draw(st.sampled_from(self.members))
        self.attempt(lambda: services.check_in(self.director.user, self.night(data), player))

    @rule(data=st.data(), which=st.integers(0, len(GUESTS) - 1), host=st.integers(0, 2))
    def a_guest_at_the_door(self, data, which, host):
        name, email = GUESTS[which]
        night = self.night(data)
        self.attempt(
            lambda: services.check_in_guest(
                self.director.user, night, full_name=name, email=email, guest_of=self.members[host], new_person=True
            )
        )

    @rule(data=st.data(), paynow=st.booleans())
    def fee_paid_at_the_door(self, data, paynow):
        attendance = self.attendance(data, status=AttendanceStatus.CHECKED_IN)
        if attendance is not None:
            method = Method.PAYNOW if paynow else Method.IN_PERSON
            self.attempt(lambda: services.record_fee(self.director.user, attendance, method))

    @rule(data=st.data(), amount=st.sampled_from(["1.00", "5.00", "8.00", "12.50"]))
    def money_from_the_bank(self, data, amount):
        attendance = self.attendance(data)
        if attendance is not None:
            reference = services.session_reference(attendance)
            self.attempt(lambda: ledger.receive(reference=reference, amount=amount, method=Method.PAYNOW, notify=False))

    @rule(data=st.data(), whole=st.booleans())
    def treasurer_refunds(self, data, whole):
        payments = list(Payment.objects.filter(kind=SESSION).exclude(amount=F("refunded")))
        if payments:
            payment = data.draw(st.sampled_from(payments))
            amount = payment.refundable if whole else min(payment.refundable, Decimal("1.00"))
            self.attempt(lambda: ledger.refund(self.staff, payment, amount=amount, reason="Left early"))

    @rule(data=st.data())
    def a_night_off(self, data):
        night = self.night(data)
        self.attempt(lambda: services.add_exception(self.director.user, self.series, night.on, "Public holiday"))

    # --- what must hold ---------------------------------------------------------------------------------------

    @invariant()
    def attendance_is_charged_as_the_rule_says(self):
        refunded = dict(
            Refund.objects.filter(payment__kind=SESSION)
            .values("payment__target_id")
            .annotate(total=Sum("unapplied"))
            .values_list("payment__target_id", "total")
        )
        for a in Attendance.objects.select_related("night", "player"):
            if a.status != AttendanceStatus.CHECKED_IN:
                assert a.fee == ZERO and a.paid == ZERO, a
                continue
            assert a.night.status == NightStatus.SCHEDULED
            price = GUEST_FEE if a.player.club_id != self.club.pk else MEMBER_FEE
            assert a.is_guest == (a.player.club_id != self.club.pk)
            assert a.fee == price - refunded.get(a.pk, ZERO), (a.fee, price, refunded.get(a.pk))

    @invariant()
    def fees_equal_the_ledger(self):
        applied = dict(
            Payment.objects.filter(kind=SESSION)
            .values("target_id")
            .annotate(total=Sum("applied"))
            .values_list("target_id", "total")
        )
        for a in Attendance.objects.all():
            assert a.paid == applied.get(a.pk, ZERO), (a.pk, a.paid, applied.get(a.pk))
            assert ZERO <= a.paid <= a.fee
        for p in Payment.objects.filter(kind=SESSION):
            assert p.amount == p.applied + p.refunded + p.held and min(p.applied, p.refunded, p.held) >= ZERO

    @invariant()
    def takings_equal_the_ledger(self):
        nights = list(ClubNight.objects.filter(club=self.club))
        found = services.takings(nights)
        for night in nights:
            ids = list(Attendance.objects.filter(night=night).values_list("pk", flat=True))
            expected = sum(
                (p.amount - p.refunded for p in Payment.objects.filter(kind=SESSION, target_id__in=ids)), ZERO
            )
            assert found[night.pk].total == expected
        received = Payment.objects.filter(kind=SESSION).aggregate(a=Sum("amount"), r=Sum("refunded"))
        assert sum((t.total for t in found.values()), ZERO) == (received["a"] or ZERO) - (received["r"] or ZERO)

    @invariant()
    def a_guest_is_one_record(self):
        for name, email in GUESTS:
            if email:
                assert Player.objects.filter(full_name=name, email=email).count() <= 1


SETTINGS = settings(
    max_examples=10,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_club_nights_keep_their_rules():
    run_state_machine_as_test(ClubNightMachine, settings=SETTINGS)
