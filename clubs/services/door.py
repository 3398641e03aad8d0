"""The door of a club night: the director checks people in (members at the member's price, anyone else at the
guest's), takes a guest's details under the one matching rule (players.lookup), and records session fees through
the money ledger (clubs.payables is the kind the ledger credits)."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.status import move
from clubsite.kit.text import check_free_text
from money.core.references import SESSION, make_reference
from money.models import Method, Payment
from money.services import ledger
from players import lookup
from players import services as player_services
from players.matching import Person
from players.models import Player

from ..models import Attendance, AttendanceStatus, NightStatus
from ..permissions import may_keep_money
from .common import ClubError, lock_night, require_director

# The ways a session fee is taken at the door.
DOOR_METHODS = (Method.IN_PERSON, Method.PAYNOW)


def session_reference(attendance: Attendance) -> str:
    """What a guest quotes (a PayNow QR carries it) for their session fee."""
    return make_reference(SESSION, attendance.pk)


@transaction.atomic
def check_in(actor, night, player: Player, *, guest_of: Player | None = None) -> Attendance:
    """`player` is at `night`: checked in, charged the member's price (a member of the club) or the guest's."""
    require_director(actor, night.club)
    night = lock_night(night.pk)
    if night.status != NightStatus.SCHEDULED:
        raise ClubError(f"The club night of {night.on:%-d %B %Y} is off: nobody is checked in.")
    # The door opens on the night's day (the site's time zone is the clubs'): a check-in earlier would charge a
    # session fee for a night that may yet be called off.
    if night.on > timezone.localdate():
        raise ClubError(
            f"The club night of {night.on:%-d %B %Y} has not come yet: check people in on the night.", field="player"
        )
    if player is None:
        raise ClubError("Choose who is at the door.", field="player")
    attendance = Attendance.objects.filter(night=night, player=player).first()
    if attendance is None:
        attendance = Attendance(night=night, player=player)
    elif attendance.status == AttendanceStatus.CHECKED_IN:
        raise ClubError(f"{player.name} is checked in already.", field="player")
    move(attendance, AttendanceStatus.CHECKED_IN)
    attendance.is_guest = player.club_id != night.club_id
    attendance.guest_of = guest_of if attendance.is_guest else None
    attendance.fee = night.guest_fee if attendance.is_guest else night.member_fee
    attendance.checked_in_at = timezone.now()
    attendance.checked_in_by = actor
    attendance.save()
    return attendance


def check_in_guest(
    actor,
    night,
    *,
    full_name: str,
    email: str = "",
    date_of_birth: date | None = None,
    guest_of: Player | None = None,
    record: int | None = None,
    new_person: bool = False,
) -> Attendance:
    """A guest at the door: the person's record found by the one matching rule (a sure match is theirs), chosen
    among the likely ones (`record`: its member number), or made (`new_person`, once the likely ones were shown)."""
    require_director(actor, night.club)
    full_name = check_free_text(full_name, "guest's name", 200, ClubError, "full_name")
    if not full_name:
        raise ClubError("Enter the guest's full name.", field="full_name")
    email = check_free_text(email, "guest's email", 254, ClubError, "email")
    person = Person(full_name=full_name, date_of_birth=date_of_birth, email=email)
    with transaction.atomic():
        found = lookup.find_person(person)
        if found.is_sure:
            player = Player.objects.get(pk=found.record.id)
        elif found.likely and record is not None:
            chosen = next((r for r in found.likely if r.member_number == record), None)
            if chosen is None:
                raise ClubError("Choose one of the records shown, or say the guest is someone else.", field="record")
            player = Player.objects.get(pk=chosen.id)
        elif found.likely and not new_person:
            raise ClubError(
                f"The association may know this guest already: {lookup.likely_text(found)}. Choose the record, or "
                "say the guest is someone else.",
                field="record",
            )
        else:
            player = player_services.create_player(full_name=full_name, email=email, date_of_birth=date_of_birth)
        return check_in(actor, night, player, guest_of=guest_of)


def record_fee(actor, attendance: Attendance, method: str, *, received_on: date | None = None) -> Payment:
    """The session fee paid at the door (in person or by PayNow), received into the ledger with a receipt, dated
    `received_on` (the night's, when recorded after it; today by default)."""
    if not may_keep_money(actor, attendance.night.club):
        raise NotAllowed("Only the club director, its treasurer or association staff record session fees.")
    if method not in DOOR_METHODS:
        raise ClubError("Choose how the fee was paid: in person or by PayNow.", field="method")
    if attendance.balance <= 0:
        raise ClubError(f"{attendance.player.name} has nothing to pay tonight.", field="method")
    received = ledger.receive(
        reference=session_reference(attendance),
        amount=attendance.balance,
        method=method,
        actor=actor,
        received_on=received_on,
        by_hand=True,
        notify=bool(attendance.player.email),
    )
    return received.payment


def likely_guests(*, full_name: str, email: str = "", date_of_birth: date | None = None) -> tuple:
    """The records the door offers to choose from for a guest (the one matching rule's likely ones)."""
    person = Person(full_name=(full_name or "")[:200], email=(email or "")[:254], date_of_birth=date_of_birth)
    return lookup.find_person(person).likely
