"""A club night's session fee as a thing to pay for (money.payables): what is due, how money received is credited,
who manages it (the club's director and treasurer, by clubs.permissions) and why money is held. Registered in
ClubsConfig.ready."""

from decimal import Decimal

from django.db.models import CharField, F, OuterRef, Subquery, Value
from django.db.models.functions import Concat

from clubsite.kit.roles import player_of
from money.core.references import SESSION
from money.models import Method
from money.payables import Due, HeldNote, Kind, Line

from .models import Attendance, AttendanceStatus, NightStatus
from .permissions import may_keep_money

ZERO = Decimal("0")


def _attendances():
    return Attendance.objects.select_related("night", "night__club", "player")


def _payable(attendance: Attendance) -> bool:
    return attendance.status == AttendanceStatus.CHECKED_IN and attendance.night.status == NightStatus.SCHEDULED


class SessionFeeKind(Kind):
    code = SESSION
    label = "Club night session fee"

    def due(self, target_id: int, *, lock: bool = False) -> Due | None:
        if lock:
            Attendance.objects.select_for_update().filter(pk=target_id).first()
        attendance = _attendances().filter(pk=target_id).first()
        if attendance is None:
            return None
        night, player = attendance.night, attendance.player
        price = "guest" if attendance.is_guest else "member"
        title = f"Session fee ({price}): {player.full_name}, {night.title}, {night.club.name}, {night.on:%-d %B %Y}"
        return Due(
            kind=self.code,
            target_id=attendance.pk,
            association_id=night.club.association_id,
            title=title,
            payer_name=player.full_name,
            payer_email=player.email,
            total=attendance.fee,
            paid=attendance.paid,
            payable=_payable(attendance),
            why_not="Only someone checked in at a night that took place pays its session fee.",
            url=night.get_absolute_url(),
            methods=(Method.IN_PERSON, Method.PAYNOW),
            in_person_at=night.venue,
            lines=(
                Line(
                    description=title,
                    standard=attendance.fee,
                    amount=attendance.fee,
                    paid=attendance.paid,
                    balance=attendance.balance,
                ),
            ),
        )

    def apply(self, target_id, payment, amount, actor) -> None:
        Attendance.objects.filter(pk=target_id).update(paid=F("paid") + amount)

    def unapply(self, target_id, payment, amount, actor) -> None:
        """A refund: what was paid and what is charged both fall (the fee was let off)."""
        attendance = Attendance.objects.get(pk=target_id)
        attendance.paid = max(attendance.paid - amount, ZERO)
        attendance.fee = max(attendance.fee - amount, ZERO)
        attendance.save(update_fields=["paid", "fee"])

    def reinstate(self, target_id, actor) -> None:
        from .services import ClubError

        raise ClubError("A session fee of a night that did not take place is refunded, not reinstated.")

    def may_view(self, user, target_id) -> bool:
        player = player_of(user)
        return player is not None and Attendance.objects.filter(pk=target_id, player=player).exists()

    def may_manage(self, user, target_id) -> bool:
        attendance = _attendances().filter(pk=target_id).first()
        return attendance is not None and may_keep_money(user, attendance.night.club)

    def owned_by(self, user):
        rows = Attendance.objects.filter(player__user=user) if user.is_authenticated else Attendance.objects.none()
        return rows.values("pk")

    def report_group(self, target: str):
        club = Attendance.objects.filter(pk=OuterRef(target)).values("night__club__name")[:1]
        return Concat(Value("Club nights: "), Subquery(club), output_field=CharField())

    def held_notes(self, target_ids) -> dict[int, HeldNote]:
        notes = {}
        for attendance in _attendances().filter(pk__in=target_ids):
            if _payable(attendance):
                notes[attendance.pk] = HeldNote("Paid more than the session fee.", attendance.balance > 0)
            else:
                notes[attendance.pk] = HeldNote("The night did not take place for this person.", False)
        return notes


SESSION_FEE = SessionFeeKind()
