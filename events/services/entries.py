"""Entering an event: one player at a time (first come, first served), withdrawing, cancelling, and the
organiser moving an entry between categories."""

from decimal import Decimal

from django.db import transaction

from clubsite.errors import PermissionDenied
from clubsite.status import move
from players.models import Player
from players.services import ensure_own_player

from ..models import ACTIVE_ENTRY_STATUSES, Category, Entry, EntryStatus, Event, EventStatus, Fee
from ..permissions import can_manage_event
from .common import RegistrationError, lock_event, now, require_manager
from .eligibility import category_refusal
from .notify import mail_entry_received
from .places import insert_entry, new_entry_status, place_entry, places, player_ratings
from .status import open_event_for_entries, refresh_status, sync_status
from .waitinglist import offer_free_places, own_entry


def clean_choice(event: Event, category, fee, concession_proof: str, *, proof_needed: bool = True) -> tuple:
    if category is None:
        raise RegistrationError("Choose a category.", field="category")
    category = category if isinstance(category, Category) else Category.objects.filter(pk=category).first()
    if category is None or category.event_id != event.pk:
        raise RegistrationError("That category is not part of this event.", field="category")
    category.event = event
    fees = list(category.fees.all())
    if fee is not None and not isinstance(fee, Fee):
        fee = Fee.objects.filter(pk=fee).first()
        if fee is None:
            raise RegistrationError("Choose one of the fees listed.", field="fee")
    if fee is None and fees:
        if len(fees) == 1:
            fee = fees[0]
        else:
            raise RegistrationError(f"Choose a fee for {category.name}.", field="fee")
    if fee is not None and fee.category_id != category.pk:
        raise RegistrationError(f"That fee is not offered in {category.name}.", field="fee")
    proof = (concession_proof or "").strip()
    if proof_needed and fee is not None and fee.is_concession and not proof:
        label = fee.proof_label or "proof of the concession"
        raise RegistrationError(f"The {fee.name} fee asks for the {label}.", field="concession_proof")
    if fee is not None and not fee.is_concession:
        proof = ""
    return category, fee, proof


def check_rules(event: Event, accept_rules: bool) -> None:
    if event.rules_agreement and not accept_rules:
        raise RegistrationError("Agree to the rules and indemnity to enter.", field="accept_rules")


def register_entry(
    actor,
    event: Event,
    *,
    category,
    fee=None,
    concession_proof: str = "",
    accept_rules: bool = False,
    player: Player | None = None,
    phone: str = "",
) -> Entry:
    """A logged-in player enters an event (organisers may enter someone else). First come, first served."""
    if not (actor and actor.is_authenticated):
        raise PermissionDenied("Log in to enter.")
    if player is not None and player.user_id != actor.id and not can_manage_event(actor, event):
        raise PermissionDenied("You can only enter yourself; a teacher or parent uses the group entry form.")
    refresh_status(event)  # a passed closing date is recorded even when this entry is refused
    with transaction.atomic():
        if player is None:
            player = ensure_own_player(actor)
        for_self = player.user_id == actor.id
        event = open_event_for_entries(event.pk)
        category, fee, proof = clean_choice(event, category, fee, concession_proof)
        check_rules(event, accept_rules)
        existing = Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).first()
        if existing:
            who = "You have" if for_self else f"{player} has"
            raise RegistrationError(
                f"{who} already entered this event ({existing.get_status_display().lower()}).", field="category"
            )
        rating = player_ratings(event, [player.pk]).get(player.pk)
        refusal = category_refusal(category, player, rating=rating, for_self=for_self)
        if refusal:
            raise RegistrationError(refusal, field="category")
        offer_free_places(event)
        moment = now()
        amount = fee.amount if fee else Decimal("0")
        entry = Entry(
            event=event,
            category=category,
            player=player,
            entered_by=actor,
            accepted_at=moment,
            fee=fee,
            amount_due=amount,
            concession_proof=proof,
            rules_accepted_at=moment if event.rules_agreement else None,
            school=player.school,
            phone=phone or player.phone,
        )
        place_entry(entry, new_entry_status(event, category, places(event), amount), moment)
        insert_entry(entry)
        mail_entry_received(entry)
    return entry


def leave_waitlist(actor, entry: Entry) -> Entry:
    """Leaves the waiting list (or declines an offered place, which passes it on)."""
    if entry.status not in (EntryStatus.WAITLISTED, EntryStatus.OFFERED):
        raise RegistrationError("This entry is not on the waiting list.")
    return withdraw_entry(actor, entry)


def withdraw_entry(actor, entry: Entry) -> Entry:
    """The entrant (or the organiser) withdraws; a freed place goes to the waiting list."""
    return _end_entry(actor, entry, EntryStatus.WITHDRAWN, managers_only=False)


def cancel_entry(actor, entry: Entry) -> Entry:
    """The organiser cancels an entry; a freed place goes to the waiting list."""
    return _end_entry(actor, entry, EntryStatus.CANCELLED, managers_only=True)


def _end_entry(actor, entry: Entry, status: str, *, managers_only: bool) -> Entry:
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        if managers_only:
            require_manager(actor, event, "cancel entries")
        entry = own_entry(actor, entry.pk)
        entry.event = event
        if status not in Entry.TRANSITIONS[entry.status]:
            raise RegistrationError(f"This entry is already {entry.get_status_display().lower()}.")
        if event.status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED) and not can_manage_event(actor, event):
            raise RegistrationError("The event has started: ask the tournament director.")
        freed = entry.holds_place
        move(entry, status)
        entry.ended_at = now()
        entry.save(update_fields=["status", "ended_at"])
        if freed:
            offer_free_places(event)
    return entry


def move_entry(actor, entry: Entry, category, fee=None) -> Entry:
    """The organiser moves an entry to another category (and fee), keeping its place in the queue."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        require_manager(actor, event, "move entries")
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("player", "fee", "category").get(pk=entry.pk)
        )
        entry.event = event
        if not entry.is_active:
            raise RegistrationError(f"This entry is {entry.get_status_display().lower()}.")
        if fee is None and entry.fee:
            target = category if isinstance(category, Category) else Category.objects.filter(pk=category).first()
            fee = target and target.fees.filter(is_concession=entry.fee.is_concession).first()
        category, fee, _ = clean_choice(event, category, fee, entry.concession_proof, proof_needed=False)
        if category.pk == entry.category_id and fee == entry.fee:
            return entry
        if entry.holds_place and category.pk != entry.category_id:
            if not places(event).release(entry.category_id).has_room(event, category):
                raise RegistrationError(f"{category.name} has no place left.", field="category")
        entry.category = category
        entry.fee = fee
        entry.amount_due = fee.amount if fee else Decimal("0")
        if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
            move(entry, EntryStatus.CONFIRMED)
            entry.confirmed_at = now()
        entry.save(update_fields=["category", "fee", "amount_due", "status", "confirmed_at"])
        offer_free_places(event)
    return entry
