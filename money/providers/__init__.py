"""Ways to pay, each a provider behind one interface: what the payer is shown for an amount due, and how a
refund goes back. Money received by any of them is recorded by money.services.receive."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

from ..models import Method, PaymentSettings
from ..payables import Due


@dataclass(frozen=True)
class Instructions:
    """What a payment page shows for one way to pay."""

    method: str
    label: str
    text: str = ""  # how to pay, in words
    qr_svg: str = ""  # PayNow: the code to scan
    payload: str = ""  # PayNow: what the code holds (also in the API)
    expires: object = None  # PayNow: the last day the code can be paid
    action_url: str = ""  # card: where the payer's button posts
    extra: dict = field(default_factory=dict)


class Provider:
    method = ""
    label = ""
    online = False  # the payer can use it from the payment page
    # The ways of paying (as an event lists those it accepts) this provider serves.
    serves: tuple[str, ...] = ()

    def accepted(self, due: Due) -> bool:
        """Whether what is due takes this way of paying: every way when it names none."""
        return not due.methods or any(m in due.methods for m in (self.method, *self.serves))

    def available(self, settings: PaymentSettings) -> bool:
        return True

    def instructions(self, due: Due, settings: PaymentSettings) -> Instructions | None:
        return None

    def refund(self, payment, amount) -> str:
        """Gives `amount` back through the provider; its refund id. By hand: the organiser pays it back."""
        return ""


class PayNow(Provider):
    method = Method.PAYNOW
    label = "PayNow QR"
    online = True
    serves = (Method.BANK_TRANSFER,)  # a PayNow transfer is a bank transfer

    def available(self, settings: PaymentSettings) -> bool:
        return bool(settings.paynow_proxy)

    def payload(self, due: Due, settings: PaymentSettings) -> tuple[str, object]:
        from ..core.paynow import PayNowRequest, build_payload

        expires = timezone.localdate() + timedelta(days=settings.qr_valid_days)
        if due.pay_by is not None:  # never payable after the place lapses
            expires = max(min(expires, due.pay_by), timezone.localdate())
        request = PayNowRequest(
            proxy_type=settings.paynow_proxy_type,
            proxy_value=settings.paynow_proxy,
            merchant_name=settings.paynow_name or settings.association.name,
            amount=due.balance,
            reference=due.reference,
            expires=expires,
            editable=False,
        )
        return build_payload(request), expires

    def instructions(self, due: Due, settings: PaymentSettings) -> Instructions | None:
        from ..core.qr import qr_svg

        if due.balance <= 0 or not due.payable:
            return None
        payload, expires = self.payload(due, settings)
        return Instructions(
            method=self.method,
            label=self.label,
            text=(
                "Scan the code with your banking app: the amount and the reference are filled in. "
                f"It can be paid until {expires:%d %b %Y}."
            ),
            qr_svg=qr_svg(payload, title=f"PayNow QR code for {due.reference}"),
            payload=payload,
            expires=expires,
        )


class BankTransfer(Provider):
    """Typing the transfer in by hand: offered only where a bank transfer is accepted (an event that takes PayNow
    alone shows its QR code, not a transfer it never offered)."""

    method = Method.BANK_TRANSFER
    label = "Bank transfer"
    online = True

    def available(self, settings: PaymentSettings) -> bool:
        return bool(settings.paynow_proxy)

    def instructions(self, due: Due, settings: PaymentSettings) -> Instructions | None:
        if due.balance <= 0 or not due.payable:
            return None
        return Instructions(
            method=self.method,
            label=self.label,
            text=(
                f"Transfer by PayNow to {settings.get_paynow_proxy_type_display()} {settings.paynow_proxy} "
                f"({settings.paynow_name or settings.association.name}) and give {due.reference} as the reference, "
                "so the treasurer can match it."
            ),
        )


class ByHand(Provider):
    """Paid at the desk or by cheque: the organiser records it with the slip's or the cheque's number. The payment
    page says how, where what is due accepts it."""

    def __init__(self, method: str, label: str):
        self.method, self.label = method, label

    def instructions(self, due: Due, settings: PaymentSettings) -> Instructions | None:
        if due.balance <= 0 or not due.payable:
            return None
        if self.method == Method.CHEQUE:
            payee = " to the payee the instructions above name" if due.payment_instructions_html else ""
            text = (
                f"Make the cheque payable{payee} and write the reference {due.reference} on its back, with your "
                "name and contact number."
            )
        elif due.in_person_at:
            text = f"Pay in person at {due.in_person_at}, quoting the reference {due.reference}."
        else:
            text = f"Pay the organiser in person, quoting the reference {due.reference}."
        return Instructions(method=self.method, label=self.label, text=text)


PROVIDERS: dict[str, Provider] = {
    p.method: p
    for p in (
        PayNow(),
        BankTransfer(),
        ByHand(Method.IN_PERSON, "In person"),
        ByHand(Method.CHEQUE, "Cheque"),
    )
}


def register(provider: Provider) -> None:
    PROVIDERS[provider.method] = provider


def provider_for(method: str) -> Provider:
    return PROVIDERS[method]


def payment_ways(due: Due, settings: PaymentSettings) -> list[Instructions]:
    """Every way the payer can pay this now (set up, and accepted by what is due): online first, then by hand, in
    the order shown."""
    shown = []
    providers = sorted(PROVIDERS.values(), key=lambda provider: not provider.online)
    for provider in providers:
        if provider.available(settings) and provider.accepted(due):
            found = provider.instructions(due, settings)
            if found is not None:
                shown.append(found)
    return shown
