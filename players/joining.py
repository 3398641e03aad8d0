"""Joining the association online: a first membership, asked for and paid as a renewal is (a RenewalRequest with
is_join, paid through the money ledger), so there is one way of paying for a membership. The page, the API and the
admin call these functions."""

import re
from datetime import date

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import is_association_staff

from . import lookup
from .matching import Person
from .models import (
    Membership,
    MembershipOffer,
    PaymentMethod,
    Player,
    RenewalRequest,
    RenewalStatus,
    User,
    birth_date_problem,
)
from .services import MemberError, complete_renewal, create_player, update_profile

PROOF_MAX_LENGTH = RenewalRequest._meta.get_field("proof").max_length
# A whole Singapore NRIC or FIN (S1234567D): never kept, even typed where a student card's number was asked.
WHOLE_ID_NUMBER = re.compile(r"^[STFGM]\d{7}[A-Z]$", re.IGNORECASE)


class AlreadyMember(MemberError):
    """The person has had a membership: they renew rather than join."""


def offers(association=None):
    """The membership types people may join online, cheapest first."""
    rows = MembershipOffer.objects.filter(joinable_online=True).select_related("association")
    return rows.filter(association=association) if association else rows


def _age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def join_problems(offer: MembershipOffer, *, full_name: str, date_of_birth: date | None, proof: str, day: date):
    """What a join of `offer` lacks or gets wrong, each (field, message): the one rule of what each type needs."""
    problems = []
    if not (full_name or "").strip():
        problems.append(("full_name", "Enter your full name as on your ID."))
    if offer.asks_date_of_birth and date_of_birth is None:
        problems.append(("date_of_birth", f"{offer} needs your date of birth."))
    elif date_of_birth is not None and (problem := birth_date_problem(date_of_birth, day)):
        problems.append(("date_of_birth", problem))
    elif date_of_birth is not None and offer.asks_date_of_birth:
        age = _age_on(date_of_birth, day)
        if offer.min_age is not None and age < offer.min_age:
            problems.append(("date_of_birth", f"{offer} is for members aged {offer.min_age} or over; you are {age}."))
        if offer.max_age is not None and age > offer.max_age:
            problems.append(("date_of_birth", f"{offer} is for members aged {offer.max_age} or under; you are {age}."))
    if offer.proof_label and not proof:
        problems.append(("proof", f"{offer} needs proof: enter the {offer.proof_label.lower()}."))
    elif proof and WHOLE_ID_NUMBER.match(proof):
        problems.append(("proof", "A whole ID number is never kept: enter the document's own number."))
    return problems


def _clean_proof(proof: str) -> str:
    proof = " ".join((proof or "").split())
    if "\x00" in proof or len(proof) > PROOF_MAX_LENGTH:
        raise MemberError(f"Enter the proof's number in at most {PROOF_MAX_LENGTH} characters.", field="proof")
    return proof


def open_join(user) -> RenewalRequest | None:
    return (
        RenewalRequest.objects.filter(player__user=user, is_join=True, status=RenewalStatus.REQUESTED)
        .select_related("association", "player")
        .first()
    )


@transaction.atomic
def join(
    user, offer: MembershipOffer, *, full_name: str, family_name: str = "", date_of_birth=None, proof: str = ""
) -> RenewalRequest:
    """`user` asks to join as `offer`'s type: the request with the fee due (or, for a free type that needs no
    approval, the membership at once). The person is one record: the account's own, else a record made now with the
    details given, unless the matching rule finds them on record already (then they claim it first). A person who
    has had a membership renews instead (AlreadyMember); asking again returns the open request."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed("Log in or sign up to join.")
    User.objects.select_for_update().get(pk=user.pk)  # one join at a time per account: a double submit waits
    player = Player.objects.select_for_update().filter(user=user).first()
    if player and Membership.objects.filter(player=player).exists():
        raise AlreadyMember("You are a member already: renew your membership instead.")
    if player and (existing := open_join(user)):
        return existing
    offer = MembershipOffer.objects.filter(pk=getattr(offer, "pk", offer), joinable_online=True).first()
    if offer is None:
        raise MemberError("Choose a membership type that can be joined online.", field="offer")
    proof = _clean_proof(proof)
    if problems := join_problems(
        offer, full_name=full_name, date_of_birth=date_of_birth, proof=proof, day=timezone.localdate()
    ):
        raise MemberError(problems[0][1], field=problems[0][0], problems=problems)
    details = {"full_name": full_name.strip(), "family_name": family_name or ""}
    if date_of_birth is not None:
        details["date_of_birth"] = date_of_birth
    if player is None:
        _refuse_someone_on_record(user, details)
        player = create_player(user=user, email=user.email, **details)
    else:
        player = update_profile(user, player, **details)
    renewal = RenewalRequest.objects.create(
        player=player,
        association=offer.association,
        type=offer.type,
        amount=offer.fee,
        requested_by=user,
        is_join=True,
        needs_approval=offer.association.joins_need_approval,
        proof=proof,
    )
    if renewal.amount == 0 and not renewal.needs_approval:
        complete_renewal(user, renewal, method=PaymentMethod.WAIVED, reference="", paid_on=timezone.localdate())
        renewal.refresh_from_db()
    return renewal


def _refuse_someone_on_record(user, details: dict) -> None:
    """An account without a record of its own whose person the matching rule finds sure on record (results, an
    earlier membership) claims that record rather than making a second one."""
    person = Person(
        full_name=details["full_name"],
        family_name=details["family_name"],
        date_of_birth=details.get("date_of_birth"),
        email=user.email or "",
    )
    found = lookup.find_person(person, Player.objects.filter(user__isnull=True))
    if found.is_sure:
        raise MemberError(
            f"The association has a record of you already ({lookup.described(found.record)}): claim it on My "
            "account, then renew or join with it.",
            field="full_name",
        )


@transaction.atomic
def approve_join(actor, renewal: RenewalRequest) -> RenewalRequest:
    """Staff approve a join: paid in full already, the person becomes a member now; else once paid."""
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff approve joins.")
    renewal = RenewalRequest.objects.select_for_update().get(pk=renewal.pk)
    if not renewal.is_join or renewal.status != RenewalStatus.REQUESTED:
        raise MemberError("Only a join waiting for payment or approval can be approved.")
    if not renewal.waits_for_approval:
        raise MemberError("This join is approved already.")
    renewal.approved_at, renewal.approved_by = timezone.now(), actor
    renewal.save(update_fields=["approved_at", "approved_by"])
    if renewal.balance <= 0:
        complete_renewal(
            actor,
            renewal,
            method=renewal.payment_method or PaymentMethod.WAIVED,
            reference=renewal.payment_reference,
            paid_on=renewal.paid_on or timezone.localdate(),
        )
        renewal.refresh_from_db()
    return renewal
