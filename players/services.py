"""Every write about members goes through here: views, API, admin and commands share it."""

import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.mail import subject as mail_subject
from clubsite.kit.prepared import Prepared
from clubsite.kit.roles import is_association_staff
from clubsite.kit.sequences import next_in_sequence
from clubsite.kit.status import TransitionRefused, move
from clubsite.kit.text import check_text
from outbox.services import queue_email

from . import lookup, names
from .emails import render, url_for
from .matching import Person
from .models import (
    Association,
    ClaimStatus,
    Membership,
    MembershipType,
    PaymentMethod,
    Player,
    PlayerClaim,
    RenewalRequest,
    RenewalStatus,
    birth_date_problem,
    year_end,
)

MEMBER_NUMBER_COUNTER = "member_number"
MEMBER_NUMBER_START = 1000


class MemberError(ServiceError):
    pass


def allocate_member_number() -> int:
    """Next member number (gap-free: concurrent callers never share one)."""
    return next_in_sequence(MEMBER_NUMBER_COUNTER, first=MEMBER_NUMBER_START + 1)


def validate_id_last4(value: str) -> str:
    """The last four characters of an ID number, in plain upper-case letters and digits.

    Full-width and other compatibility forms (e.g. "１２３４" typed with an East Asian keyboard) are
    folded to their plain form first; anything else that is not A-Z or 0-9 is refused."""
    value = unicodedata.normalize("NFKC", value or "").strip().upper()
    value = "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in value)
    if len(value) > 4:
        raise MemberError(
            "Only the last four characters of an ID number are kept: enter just those four, never the whole number.",
            field="id_last4",
        )
    if value and (len(value) != 4 or not (value.isascii() and value.isalnum())):
        raise MemberError("Enter exactly the last four letters or digits of the ID number.", field="id_last4")
    return value


def validate_date_of_birth(value: date | None) -> None:
    if problem := birth_date_problem(value):
        raise MemberError(problem, field="date_of_birth")


PROFILE_FIELDS = (
    "full_name",
    "family_name",
    "display_name",
    "date_of_birth",
    "school",
    "school_level",
    "club",
    "country",
    "email",
    "phone",
    "id_last4",
    "listed_in_directory",
    "guardian_name",
    "guardian_opt_in",
)
EMAIL_MAX_LENGTH = 254  # RFC 5321: the longest address a mail server will take


def validate_email_length(value: str) -> None:
    if len(value or "") > EMAIL_MAX_LENGTH:
        raise MemberError(f"An email address can be at most {EMAIL_MAX_LENGTH} characters long.", field="email")


def clean_profile(data: dict) -> dict:
    """Checks profile fields for every door (sign-up, My account, the API). `guardian_opt_in` (a
    parent or guardian agrees to the directory listing of an under-18) becomes the date they agreed."""
    unknown = set(data) - set(PROFILE_FIELDS)
    if unknown:
        raise MemberError(f"Unknown field: {', '.join(sorted(unknown))}.", field=sorted(unknown)[0])
    if "full_name" in data and not (data["full_name"] or "").strip():
        raise MemberError("Enter the full name as on the ID.", field="full_name")
    if "family_name" in data:
        data["family_name"] = " ".join((data["family_name"] or "").split())
        if "full_name" in data and (problem := names.family_name_problem(data["full_name"], data["family_name"])):
            raise MemberError(problem, field="family_name")
    if "email" in data:
        validate_email_length(data["email"])
    if "guardian_opt_in" in data:
        opt_in = bool(data.pop("guardian_opt_in"))
        if opt_in and not (data.get("guardian_name") or "").strip():
            raise MemberError("Enter the name of the parent or guardian who agrees.", field="guardian_name")
        data["guardian_opted_in_on"] = timezone.localdate() if opt_in else None
    if "id_last4" in data:
        data["id_last4"] = validate_id_last4(data["id_last4"])
    if "date_of_birth" in data:
        validate_date_of_birth(data["date_of_birth"])
    return data


def _full_clean(player: Player) -> None:
    """The model's own checks, refused as a MemberError (a page shows it; never a server error)."""
    try:
        player.full_clean(exclude=["member_number", "user"])
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise MemberError(messages[0], field=None if field == NON_FIELD_ERRORS else field) from None


@transaction.atomic
def create_player(*, user=None, **fields) -> Player:
    """A new player record (with or without an account), with the next member number."""
    fields = clean_profile(fields)
    player = Player(user=user, member_number=allocate_member_number(), **fields)
    if user and not player.email:
        player.email = user.email
    _full_clean(player)
    player.save()
    return player


@transaction.atomic
def update_profile(actor, player: Player, **fields) -> Player:
    if not (is_association_staff(actor) or (player.user_id and player.user_id == actor.id)):
        raise NotAllowed("You can only edit your own profile.")
    fields = clean_profile(fields)
    if "guardian_opted_in_on" in fields and fields["guardian_opted_in_on"] and player.guardian_opted_in_on:
        fields["guardian_opted_in_on"] = player.guardian_opted_in_on  # keep the date they first agreed
    for name, value in fields.items():
        setattr(player, name, value)
    _full_clean(player)
    player.save()
    return player


@transaction.atomic  # the record is locked while the claim is made (PostgreSQL refuses the lock outside one)
def sign_up_player(user, **fields) -> Player | None:
    """The sign-up's player record, unless the person already has one (the one matching rule, players.matching,
    against the records without an account): then no second record is made, and the account claims that one instead.
    The claim is approved when the account's address is confirmed, if it is the address on the record (as the claim
    link would be); otherwise staff decide. Records only likely to be the person's (the same address under another
    name, a parent's on a child's record) are offered on My account, and the account gets its own. None: a claim."""
    person = Person(
        full_name=fields.get("full_name") or "",
        family_name=fields.get("family_name") or "",
        date_of_birth=fields.get("date_of_birth"),
        email=user.email or "",
    )
    found = lookup.find_person(person, Player.objects.filter(user__isnull=True))
    if found.is_sure:
        player = Player.objects.select_for_update().get(pk=found.record.id)
        PlayerClaim.objects.create(user=user, player=player, message=f"At sign-up: the same {found.why}.")
        return None
    return create_player(user=user, email=user.email, **fields)


def records_maybe_theirs(user, player: Player) -> list:
    """Records without an account that the matching rule finds likely (or sure) to be this account's person, for My
    account's "Already a member?": one query."""
    person = Person(
        full_name=player.full_name,
        family_name=player.family_name,
        date_of_birth=player.date_of_birth,
        email=user.email or player.email,
    )
    found = lookup.find_person(person, Player.objects.filter(user__isnull=True).exclude(pk=player.pk))
    return [found.record] if found.is_sure else list(found.likely)


@transaction.atomic
def approve_claims_by_address(user, address: str) -> list[PlayerClaim]:
    """The account confirmed `address`: its waiting claims of a record with that address on it are approved, the
    confirmation being the proof the claim link asks for."""
    address = (address or "").strip().casefold()
    approved = []
    for claim in PlayerClaim.objects.filter(user=user, status=ClaimStatus.PENDING).select_related("player"):
        if address and claim.player.email.strip().casefold() == address and not claim.player.user_id:
            try:
                with transaction.atomic():
                    approved.append(_decide(claim, True))
            except MemberError:
                pass  # the account has a record with history of its own now: staff merge the two, as for any claim
    return approved


def ensure_own_player(user) -> Player:
    """The account's player record, created on first need from the account's email."""
    existing = Player.objects.filter(user=user).select_related("club").first()
    if existing:
        return existing
    name = user.get_full_name() or user.email.split("@")[0]
    return create_player(user=user, full_name=name, email=user.email)


# --- claiming an existing record -------------------------------------------------------------

CLAIM_SALT = "players.claim"
CLAIM_MAX_AGE = timedelta(days=3)


def has_history(player: Player | None) -> bool:
    """Whether a player record holds anything of its own: a membership, a renewal, an entry, a game, a rating; every
    relation to it but the claims made on it. An account's record without any is a placeholder that a claimed record
    may replace. One query."""
    if player is None or player.pk is None:
        return False
    row = HOLDINGS.first(player.pk)
    return bool(row) and any(row.values())


def _holdings(players, **extra):
    """A query for the first of `players`: whether it holds anything through each relation (and the `extra` Exists),
    as one row of booleans (no row for no player)."""
    # Rating changes are left out: each comes with the player's standing on its list (a PlayerRating, checked), and
    # they have no index by player alone, so asking would read them all.
    held = {
        f"held_{i}": Exists(rel.related_model._base_manager.filter(**{rel.field.name: OuterRef("pk")}))
        for i, rel in enumerate(Player._meta.related_objects)
        if rel.related_model is not PlayerClaim and rel.related_model._meta.label != "ratings.RatingChange"
    }
    return players.annotate(**extra, **held).values(*extra, *held).order_by("pk")[:1]


# Every account page asks (a query with an EXISTS for each relation): compiled once per connection.
HOLDINGS = Prepared(lambda player_id: _holdings(Player.objects.filter(pk=player_id)), int)
CLAIM_STATE = Prepared(
    lambda user_id: _holdings(
        Player.objects.filter(user=user_id),
        pending=Exists(PlayerClaim.objects.filter(user=user_id, status=ClaimStatus.PENDING)),
    ),
    int,
)


def may_claim(user) -> bool:
    """An account may claim an existing record while its own is a placeholder (claiming replaces it, and a record
    with history must never be left behind unlinked: staff merge such records by hand) and no claim of its is waiting
    for staff. One query."""
    row = CLAIM_STATE.first(user.pk)
    if row:
        return not any(row.values())
    return not PlayerClaim.objects.filter(user=user, status=ClaimStatus.PENDING).exists()


def _refuse_claim_over_history(user, target: Player) -> None:
    own = Player.objects.filter(user=user).exclude(pk=target.pk).first()
    if has_history(own):
        raise MemberError(
            f"Your account's member record ({own.member_number}) already has entries, games or a membership, so it "
            f"cannot be replaced by member {target.member_number}'s. Ask association staff to merge the two records.",
            field="member_number",
        )


@transaction.atomic
def request_claim(user, member_number: int | str, message: str = "") -> PlayerClaim:
    """Ask to be linked to an existing player record (found by member number)."""
    check_text(PlayerClaim, "message", message, MemberError)
    try:
        number = int(str(member_number).strip())
        player = Player.objects.select_for_update().get(member_number=number)
    except (ValueError, Player.DoesNotExist):
        raise MemberError(f"There is no member with number {member_number}.", field="member_number") from None
    if player.user_id:
        raise MemberError("That member record is already linked to an account.", field="member_number")
    _refuse_claim_over_history(user, player)
    pending = PlayerClaim.objects.filter(user=user, status=ClaimStatus.PENDING).select_related("player").first()
    if pending and pending.player_id == player.pk:
        raise MemberError("You have already asked to claim this record; staff will review it.", field="member_number")
    if pending:
        raise MemberError(
            f"Your claim of member {pending.player.member_number}'s record is waiting for association staff; "
            "one claim at a time.",
            field="member_number",
        )
    claim = PlayerClaim.objects.create(user=user, player=player, message=message)
    if player.email and player.email.lower() == user.email.lower():
        # The account owns the email on record: send a link that approves the claim.
        token = signing.dumps({"claim": claim.pk}, salt=CLAIM_SALT)
        context = {
            "claim": claim,
            "confirm_url": url_for("players:claim_confirm", token),
            "max_age_days": CLAIM_MAX_AGE.days,
        }
        _mail_after_commit("Confirm your member record", "players/email/claim_confirm.txt", context, player.email)
    return claim


def _mail_after_commit(subject: str, template: str, context: dict, to: str) -> None:
    """Written to the outbox in the caller's transaction, sent once it commits (nothing for a rollback)."""
    queue_email([to], mail_subject(subject), render(template, context))


@transaction.atomic
def decide_claim(actor, claim: PlayerClaim, approve: bool) -> PlayerClaim:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can decide claims.")
    return _decide(claim, approve, actor)


def _decide(claim: PlayerClaim, approve: bool, actor=None) -> PlayerClaim:
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    target = ClaimStatus.APPROVED if approve else ClaimStatus.REJECTED
    was = claim.get_status_display().lower()
    try:
        move(claim, target)  # along PlayerClaim.TRANSITIONS
    except TransitionRefused:
        raise MemberError(f"This claim is already {was}.") from None
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if approve:
        if player.user_id and player.user_id != claim.user_id:
            raise MemberError("That member record is already linked to another account.")
        _refuse_claim_over_history(claim.user, player)  # it may have entered something since asking
        # The account's own placeholder record (no history: checked above) gives way to the claimed one, and goes:
        # left behind it would be a second record of the person, offered as a match at every door (players.matching).
        Player.objects.filter(user=claim.user).exclude(pk=player.pk).delete()
        player.user = claim.user
        # The account's confirmed address is how the member is reached now; the record's may be years old.
        player.email = claim.user.email or player.email
        player.save(update_fields=["user", "email"])
    claim.decided_at = timezone.now()
    claim.decided_by = actor
    claim.save()
    if actor is not None and claim.user.email:
        # Staff decided: the member is waiting to hear (a member confirming by link sees the answer on the page).
        subject = "Your member record is linked" if approve else "Your claim of a member record"
        context = {"claim": claim, "account_url": url_for("players:me")}
        _mail_after_commit(subject, "players/email/claim_decided.txt", context, claim.user.email)
    return claim


@transaction.atomic
def confirm_claim_by_token(user, token: str) -> PlayerClaim:
    try:
        data = signing.loads(token, salt=CLAIM_SALT, max_age=CLAIM_MAX_AGE)
        claim = PlayerClaim.objects.get(pk=data["claim"], user=user)
    except (signing.BadSignature, KeyError, PlayerClaim.DoesNotExist):
        raise MemberError("This link is invalid or has expired; ask again from My account.") from None
    return _decide(claim, True)


# --- memberships ------------------------------------------------------------------------------


@transaction.atomic
def record_membership(actor, player: Player, **fields) -> Membership:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff record memberships.")
    membership = Membership(player=player, **fields)
    if membership.expires_on and membership.expires_on < membership.starts_on:
        raise MemberError("The expiry date must be on or after the start date.", field="expires_on")
    if membership.fee is not None and membership.fee < 0:
        raise MemberError("The fee cannot be negative.", field="fee")
    membership.full_clean()
    membership.save()
    return membership


def memberships_due_reminder(day: date | None = None):
    """Memberships that expire in exactly the reminder window and were not reminded yet."""
    day = day or timezone.localdate()
    due = day + timedelta(days=settings.MEMBERSHIP_REMINDER_DAYS)
    return Membership.objects.filter(
        expires_on__lte=due, expires_on__gte=day, reminder_sent_on__isnull=True
    ).select_related("player")


# --- renewing a membership --------------------------------------------------------------------


@dataclass(frozen=True)
class RenewalQuote:
    """What renewing now would give: the same type and fee as the latest membership, for a year
    from the day after it expires (or from today, once it has lapsed)."""

    association: Association
    type: str
    amount: Decimal
    starts_on: date
    expires_on: date

    @property
    def type_display(self) -> str:
        return MembershipType(self.type).label


def renewal_quote(player: Player, day: date | None = None) -> RenewalQuote:
    day = day or timezone.localdate()
    memberships = list(player.memberships.select_related("association"))
    if any(m.expires_on is None and m.starts_on <= day for m in memberships):
        raise MemberError("Your membership does not expire, so there is nothing to renew.")
    dated = [m for m in memberships if m.expires_on is not None]
    if not dated:
        raise MemberError("There is no membership to renew yet: join the association first.")
    last = max(dated, key=lambda m: (m.expires_on, m.pk))
    starts_on = max(last.expires_on + timedelta(days=1), day)
    return RenewalQuote(last.association, last.type, last.fee, starts_on, year_end(starts_on))


def _own_or_staff(actor, player: Player, message: str) -> None:
    if not (is_association_staff(actor) or (player.user_id and player.user_id == actor.id)):
        raise NotAllowed(message)


@transaction.atomic
def request_renewal(actor, player: Player) -> RenewalRequest:
    """The member asks to renew; the amount due is fixed now. Asking again returns the open request."""
    _own_or_staff(actor, player, "You can only renew your own membership.")
    player = Player.objects.select_for_update().get(pk=player.pk)
    open_request = player.renewals.filter(status=RenewalStatus.REQUESTED).first()
    if open_request:
        return open_request
    quote = renewal_quote(player)
    return RenewalRequest.objects.create(
        player=player, association=quote.association, type=quote.type, amount=quote.amount, requested_by=actor
    )


def _move(renewal: RenewalRequest, target: str) -> RenewalRequest:
    """The renewal, locked and moved along RenewalRequest.TRANSITIONS (the caller saves it)."""
    renewal = RenewalRequest.objects.select_for_update().select_related("player").get(pk=renewal.pk)
    was = renewal.get_status_display().lower()
    try:
        move(renewal, target)
    except TransitionRefused:
        raise MemberError(f"This renewal is already {was}.") from None
    return renewal


def renewal_reference(renewal: RenewalRequest) -> str:
    """What the member quotes when paying for a renewal (a transfer's reference, the PayNow bill number)."""
    from money.core.references import RENEWAL, make_reference

    return make_reference(RENEWAL, renewal.pk)


@transaction.atomic
def record_renewal_payment(
    actor, renewal: RenewalRequest, *, method: str, reference: str = "", paid_on: date | None = None
) -> Membership:
    """Staff record that the member paid: the membership is extended by a year from its expiry. Money goes
    through money.receive (so it gets a receipt); a waived or free renewal is completed at once."""
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff record payments.")
    if method not in PaymentMethod.values:
        raise MemberError("Choose how the member paid.", field="method")
    paid_on = paid_on or timezone.localdate()
    if paid_on > timezone.localdate():
        raise MemberError("The payment date cannot be in the future.", field="paid_on")
    left = renewal.balance
    if (method == PaymentMethod.WAIVED or left <= 0) and renewal.waits_for_approval:
        raise MemberError("This join waits for approval: approve it first.", field="method")
    if method == PaymentMethod.WAIVED or left <= 0:
        return complete_renewal(actor, renewal, method=method, reference=reference, paid_on=paid_on)
    from money.models import money_method
    from money.services import MoneyError, receive

    try:
        receive(
            reference=renewal_reference(renewal),
            amount=left,
            method=money_method(method),
            payer_reference=reference,
            received_on=paid_on,
            actor=actor,
            by_hand=True,
        )
    except MoneyError as error:
        raise MemberError(error.message, field=error.field) from None
    renewal.refresh_from_db()
    if renewal.membership_id is None and not renewal.waits_for_approval:
        raise MemberError("The renewal is not fully paid yet.")
    return renewal.membership  # None: a join paid in full, waiting for staff approval


def credit_renewal(actor, renewal: RenewalRequest, payment, amount: Decimal) -> None:
    """Money received for a renewal (the caller holds its lock); paid in full, the membership is extended."""
    renewal.amount_paid += amount
    renewal.save(update_fields=["amount_paid"])
    if renewal.amount_paid >= renewal.amount:
        from money.models import recorded_method

        method = recorded_method(payment.method, PaymentMethod.values)
        reference = payment.payer_reference or payment.number
        if renewal.waits_for_approval:  # kept for the approval, which completes the join (players.joining)
            renewal.paid_on, renewal.payment_method = payment.received_on, method
            renewal.payment_reference = reference.strip()[:100]
            renewal.save(update_fields=["paid_on", "payment_method", "payment_reference"])
            return
        complete_renewal(actor, renewal, method=method, reference=reference, paid_on=payment.received_on)


def complete_renewal(actor, renewal: RenewalRequest, *, method: str, reference: str, paid_on: date) -> Membership:
    renewal = _move(renewal, RenewalStatus.PAID)
    player = Player.objects.select_for_update().get(pk=renewal.player_id)
    if renewal.is_join:  # a first membership: a year from the day it is complete (life: no end)
        starts_on = timezone.localdate()
        expires_on = None if renewal.type == MembershipType.LIFE else year_end(starts_on)
    else:
        quote = renewal_quote(player)
        starts_on, expires_on = quote.starts_on, quote.expires_on
    membership = Membership.objects.create(
        player_id=renewal.player_id,
        association=renewal.association,
        type=renewal.type,
        starts_on=starts_on,
        expires_on=expires_on,
        fee=renewal.amount,
        paid_on=paid_on,
        payment_method=method,
        payment_reference=(reference or "").strip()[:100],
    )
    renewal.paid_on, renewal.payment_method, renewal.payment_reference = paid_on, method, membership.payment_reference
    renewal.recorded_by = actor if getattr(actor, "pk", None) else None
    renewal.membership = membership
    renewal.save()
    return membership


@transaction.atomic
def cancel_renewal(actor, renewal: RenewalRequest) -> RenewalRequest:
    _own_or_staff(actor, renewal.player, "You can only cancel your own renewal.")
    renewal = _move(renewal, RenewalStatus.CANCELLED)
    renewal.save(update_fields=["status"])
    return renewal
