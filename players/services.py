"""Every write about members goes through here: views, API, admin and commands share it."""

from datetime import date, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from clubsite.errors import PermissionDenied, ServiceError

from .emails import render, url_for
from .models import ClaimStatus, Counter, Membership, Player, PlayerClaim
from .roles import is_association_staff

MEMBER_NUMBER_COUNTER = "member_number"
MEMBER_NUMBER_START = 1000


class MemberError(ServiceError):
    pass


def allocate_member_number() -> int:
    """Next member number; an UPDATE holds the row lock, so concurrent callers never share one."""
    with transaction.atomic():
        if not Counter.objects.filter(name=MEMBER_NUMBER_COUNTER).update(value=F("value") + 1):
            try:
                with transaction.atomic():  # the very first number: two callers may race to create the row
                    return Counter.objects.create(name=MEMBER_NUMBER_COUNTER, value=MEMBER_NUMBER_START + 1).value
            except IntegrityError:
                Counter.objects.filter(name=MEMBER_NUMBER_COUNTER).update(value=F("value") + 1)
        return Counter.objects.get(name=MEMBER_NUMBER_COUNTER).value


def validate_id_last4(value: str) -> str:
    value = (value or "").strip().upper()
    if len(value) > 4:
        raise MemberError(
            "Only the last four characters of an ID number are kept: enter just those four, never the whole number.",
            field="id_last4",
        )
    if value and (len(value) != 4 or not value.isalnum()):
        raise MemberError("Enter exactly the last four letters or digits of the ID number.", field="id_last4")
    return value


def validate_date_of_birth(value: date | None) -> None:
    if value and value > timezone.localdate():
        raise MemberError("The date of birth cannot be in the future.", field="date_of_birth")


PROFILE_FIELDS = (
    "full_name",
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
)


def _clean_profile(data: dict) -> dict:
    unknown = set(data) - set(PROFILE_FIELDS)
    if unknown:
        raise MemberError(f"Unknown field: {', '.join(sorted(unknown))}.", field=sorted(unknown)[0])
    if "full_name" in data and not (data["full_name"] or "").strip():
        raise MemberError("Enter the full name as on the ID.", field="full_name")
    if "id_last4" in data:
        data["id_last4"] = validate_id_last4(data["id_last4"])
    if "date_of_birth" in data:
        validate_date_of_birth(data["date_of_birth"])
    return data


@transaction.atomic
def create_player(*, user=None, **fields) -> Player:
    """A new player record (with or without an account), with the next member number."""
    fields = _clean_profile(fields)
    player = Player(user=user, member_number=allocate_member_number(), **fields)
    if user and not player.email:
        player.email = user.email
    player.full_clean(exclude=["member_number", "user"])
    player.save()
    return player


@transaction.atomic
def update_profile(actor, player: Player, **fields) -> Player:
    if not (is_association_staff(actor) or (player.user_id and player.user_id == actor.id)):
        raise PermissionDenied("You can only edit your own profile.")
    fields = _clean_profile(fields)
    for name, value in fields.items():
        setattr(player, name, value)
    player.full_clean(exclude=["member_number", "user"])
    player.save()
    return player


def ensure_own_player(user) -> Player:
    """The account's player record, created on first need from the account's email."""
    existing = Player.objects.filter(user=user).first()
    if existing:
        return existing
    name = user.get_full_name() or user.email.split("@")[0]
    return create_player(user=user, full_name=name, email=user.email)


# --- claiming an existing record -------------------------------------------------------------

CLAIM_SALT = "players.claim"
CLAIM_MAX_AGE = timedelta(days=3)


@transaction.atomic
def request_claim(user, member_number: int | str, message: str = "") -> PlayerClaim:
    """Ask to be linked to an existing player record (found by member number)."""
    try:
        number = int(str(member_number).strip())
        player = Player.objects.select_for_update().get(member_number=number)
    except (ValueError, Player.DoesNotExist):
        raise MemberError(f"There is no member with number {member_number}.", field="member_number") from None
    if player.user_id:
        raise MemberError("That member record is already linked to an account.", field="member_number")
    if PlayerClaim.objects.filter(user=user, player=player, status=ClaimStatus.PENDING).exists():
        raise MemberError("You have already asked to claim this record; staff will review it.")
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
    """Renders now, sends from a task once the transaction commits (nothing for a rollback)."""
    from .tasks import send_email

    body = render(template, context)
    transaction.on_commit(lambda: send_email.delay(subject=subject, body=body, to=[to]))


@transaction.atomic
def decide_claim(actor, claim: PlayerClaim, approve: bool) -> PlayerClaim:
    if not is_association_staff(actor):
        raise PermissionDenied("Only association staff can decide claims.")
    return _decide(claim, approve, actor)


def _decide(claim: PlayerClaim, approve: bool, actor=None) -> PlayerClaim:
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    target = ClaimStatus.APPROVED if approve else ClaimStatus.REJECTED
    if target not in PlayerClaim.TRANSITIONS.get(claim.status, set()):
        raise MemberError(f"This claim is already {claim.get_status_display().lower()}.")
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if approve:
        if player.user_id and player.user_id != claim.user_id:
            raise MemberError("That member record is already linked to another account.")
        # The account's own placeholder record (no history) gives way to the claimed one.
        Player.objects.filter(user=claim.user).exclude(pk=player.pk).update(user=None)
        player.user = claim.user
        player.save(update_fields=["user"])
    claim.status = target
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
        raise PermissionDenied("Only association staff record memberships.")
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
