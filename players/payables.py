"""Membership renewals as things to pay for (money.payables): what is due, how money received is credited, what is
still owed and why money is held. Registered in PlayersConfig.ready."""

from decimal import Decimal

from django.urls import reverse

from clubsite.kit.roles import is_association_staff
from money.balances import balance_sql, owing
from money.core.references import RENEWAL as RENEWAL_CODE
from money.payables import Due, HeldNote, Kind, Line, Owing

from .models import RenewalRequest, RenewalStatus
from .services import MemberError, credit_renewal


class RenewalKind(Kind):
    code = RENEWAL_CODE
    label = "Membership renewal"
    owing_title = "membership renewals"

    def due(self, target_id: int, *, lock: bool = False) -> Due | None:
        rows = RenewalRequest.objects.select_related("player", "association")
        if lock:
            rows = rows.select_for_update(of=("self",))
        renewal = rows.filter(pk=target_id).first()
        if renewal is None:
            return None
        what = "joining" if renewal.is_join else "renewal"
        title = f"{renewal.get_type_display()} membership {what}: {renewal.player.full_name}"
        return Due(
            kind=self.code,
            target_id=renewal.pk,
            association_id=renewal.association_id,
            title=title,
            payer_name=renewal.player.full_name,
            payer_email=renewal.player.email or (renewal.player.user.email if renewal.player.user_id else ""),
            total=renewal.amount,
            paid=renewal.amount_paid,
            payable=renewal.status == RenewalStatus.REQUESTED,
            why_not=f"The renewal is {renewal.get_status_display().lower()}.",
            url=reverse("players:me"),
            lines=(
                Line(
                    description=title,
                    standard=renewal.amount,
                    amount=renewal.amount,
                    paid=renewal.amount_paid,
                    balance=renewal.balance,
                ),
            ),
        )

    def apply(self, target_id, payment, amount, actor) -> None:
        credit_renewal(actor, RenewalRequest.objects.select_related("player").get(pk=target_id), payment, amount)

    def unapply(self, target_id, payment, amount, actor) -> None:
        renewal = RenewalRequest.objects.get(pk=target_id)
        renewal.amount_paid = max(renewal.amount_paid - amount, Decimal("0"))
        renewal.amount = max(renewal.amount - amount, Decimal("0"))
        renewal.save(update_fields=["amount_paid", "amount"])

    def reinstate(self, target_id, actor) -> None:
        raise MemberError("A cancelled renewal does not come back: refund the held money, and the member asks again.")

    def may_view(self, user, target_id) -> bool:
        renewal = RenewalRequest.objects.select_related("player").filter(pk=target_id).first()
        return bool(
            renewal is not None
            and user
            and user.is_authenticated
            and (renewal.player.user_id == user.id or is_association_staff(user))
        )

    def may_manage(self, user, target_id) -> bool:
        return is_association_staff(user)

    def owned_by(self, user):
        return RenewalRequest.objects.filter(player__user=user).values("pk")

    def owing(self, event_id: int | None = None):
        """Renewals asked for and not yet paid in full, each with `balance_due`; none for an event (a renewal
        belongs to no event)."""
        rows = (
            RenewalRequest.objects.filter(owing("amount", "amount_paid"), status=RenewalStatus.REQUESTED)
            .select_related("player")
            .annotate(balance_due=balance_sql("amount", "amount_paid"))
            .order_by("requested_at", "pk")
        )
        return rows.none() if event_id else rows

    def owing_rows(self, rows) -> list[Owing]:
        return [
            Owing(
                kind=self.code,
                target_id=r.pk,
                name=r.player.full_name,
                what=r.get_type_display(),
                charged=r.amount,
                paid=r.amount_paid,
                note=str(r.player.member_number),
                status=r.status,
                status_label=r.get_status_display(),
                asked_at=r.requested_at,
            )
            for r in rows
        ]

    def held_notes(self, target_ids) -> dict[int, HeldNote]:
        notes = {}
        for renewal in RenewalRequest.objects.filter(pk__in=target_ids):
            if renewal.status == RenewalStatus.REQUESTED:
                notes[renewal.pk] = HeldNote("Paid more than the renewal's fee.", renewal.balance > 0)
            else:
                notes[renewal.pk] = HeldNote(f"The renewal is {renewal.get_status_display().lower()}.", False)
        return notes


RENEWAL = RenewalKind()
