"""Entering an event: one player at a time (first come, first served), withdrawing, cancelling, and the
organiser moving an entry between categories."""

import re
import unicodedata

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.prepared import Prepared
from clubsite.kit.status import move
from clubsite.kit.text import NOTE_TEXT, check_free_text
from players.matching import same_name
from players.models import Player
from players.services import ensure_own_player

from ..models import (
    ACTIVE_ENTRY_STATUSES,
    Category,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Fee,
    PlayUpRequest,
    Question,
)
from ..permissions import can_manage_event
from .common import RegistrationError, lock_event, now, require_manager, site_url
from .discounts import apply_price, entry_day, fee_list, price_entry, usable_code
from .eligibility import category_refusal, refusal_for
from .notify import (
    mail_entered_for_you,
    mail_entry_cancelled,
    mail_entry_received,
    mail_entry_withdrawn,
    mail_refund_to_decide,
)
from .offers import offer_free_places
from .payments import hold_overpayment, hold_paid, locked_entry
from .places import (
    insert_entry,
    new_entry_status,
    place_entry,
    places,
    player_rating,
    waitlist_position,
)
from .questions import asked_in, check_answers, event_questions, save_answers
from .status import (
    open_event_for_entries,
    open_event_for_entry,
    refresh_status,
    registration_refusal,
    sync_status,
    withdrawal_refusal,
)
from .waitinglist import own_entry
from .withdrawlink import read_token

# A Singapore NRIC or FIN: S, T, F, G or M, seven digits, a check letter. Any run of seven digits
# or more in a name is refused too. The profile keeps only the last four characters of an ID number
# (players.services.validate_id_last4); an entry keeps none of it.
WHOLE_ID_NUMBER = re.compile(r"(?<![A-Z0-9])[STFGM]\d{7}[A-Z](?![A-Z0-9])|\d{7,}")


def _folded(text: str) -> str:
    """Full-width and other compatibility forms folded, as players.services.validate_id_last4 does."""
    text = unicodedata.normalize("NFKC", text or "").upper()
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


def looks_like_id_number(text: str, *, digits_only_allowed: bool = False) -> bool:
    """Whether `text` holds a whole national ID number. A card number of digits only (a concession
    card) is allowed where `digits_only_allowed`."""
    folded = _folded(text)
    for match in WHOLE_ID_NUMBER.finditer(folded):
        if not (digits_only_allowed and match.group().isdigit()):
            return True
    return False


def refuse_id_number(text: str, what: str, who: str = "", field: str = "") -> None:
    """Refuses a whole ID number typed where a name or a card number belongs (never echoing it back)."""
    if looks_like_id_number(text, digits_only_allowed=what != "name"):
        lead = f"{who}: the {what}" if who else f"The {what}"
        raise RegistrationError(
            f"{lead} looks like a whole ID number. Never enter the whole ID number here"
            + (": give the name as on the ID." if what == "name" else "."),
            field=field or ("full_name" if what == "name" else "concession_proof"),
        )


# A category by id, with whether it has fees and whether its entrants are asked the organiser's questions (ordered by
# id only: no join to the event for its ordering). Every entry reads it: compiled once per connection.
CATEGORY_BY_ID = Prepared(
    lambda pk: (
        Category.objects.filter(pk=pk)
        .annotate(
            has_fees=Exists(Fee.objects.filter(category=OuterRef("pk"))),
            asks=Exists(
                Question.objects.filter(event=OuterRef("event_id")).filter(
                    Q(category__isnull=True) | Q(category=OuterRef("pk"))
                )
            ),
        )
        .order_by("pk")[:1]
    ),
    int,
)


def clean_choice(event: Event, category, fee, concession_proof: str, *, proof_needed: bool = True) -> tuple:
    if category is None:
        raise RegistrationError("Choose a category.", field="category")
    if not isinstance(category, Category):
        category = CATEGORY_BY_ID.first(category)
    if category is None or category.event_id != event.pk:
        raise RegistrationError("That category is not part of this event.", field="category")
    category.event = event
    # The category's fees are read once, for the choice and for the pricing rule (services.discounts.fee_list),
    # unless the category is known to have none.
    fees = fee_list(category)
    if fee is not None and not isinstance(fee, Fee):
        fee = next((f for f in fees if f.pk == fee), None) or Fee.objects.filter(pk=fee).first()
        if fee is None:
            raise RegistrationError("Choose one of the fees listed.", field="fee")
    # Without a fee chosen, the category's only fee.
    if fee is None:
        # One fee, or fees of one kind only (a member's and a non-member's, an early-bird one): the pricing rule
        # charges the one that applies (events.pricing), so there is nothing to choose.
        if len({f.as_row().kind for f in fees}) == 1:
            fee = fees[0]
        elif fees:
            raise RegistrationError(f"Choose a fee for {category.name}.", field="fee")
    if fee is not None and fee.category_id != category.pk:
        raise RegistrationError(f"That fee is not offered in {category.name}.", field="fee")
    proof = (concession_proof or "").strip()
    if proof:
        refuse_id_number(proof, (fee.proof_label if fee and fee.proof_label else "concession proof"))
    if proof_needed and fee is not None and fee.is_concession and not proof:
        label = fee.proof_label or "proof of the concession"
        raise RegistrationError(f"The {fee.name} fee asks for the {label}.", field="concession_proof")
    if fee is not None and not fee.is_concession:
        proof = ""
    return category, fee, proof


def prove_member_link(player: Player, date_of_birth, who: str, full_name: str = "") -> None:
    """Entering an existing member for someone else needs more than the (public) member number: the
    member's date of birth, as on their record. A record without a date of birth (one a tsh file or an
    older list brought in) is proved by the same name instead, by the one matching rule's reading of names;
    the caller then records the date of birth given, so the next entry is proved by it."""
    if not date_of_birth:
        raise RegistrationError(
            f"{who}: give member {player.member_number}'s date of birth as well as the number.", field="date_of_birth"
        )
    if player.date_of_birth is None and full_name and same_name(full_name, player.full_name):
        return
    if player.date_of_birth is None or player.date_of_birth != date_of_birth:
        raise RegistrationError(
            f"{who}: the date of birth does not match member {player.member_number}'s record. "
            "Check both with the student (a member can see them in My account).",
            field="date_of_birth",
        )


def entrant_name(actor) -> str:
    """How an email names the person who made an entry."""
    player = Player.objects.filter(user=actor).first()
    return (player.full_name if player else "") or actor.get_full_name() or "Another member"


def rules_named(event: Event) -> str:
    """What an entrant of `event` agrees to, in words: the rule book version it follows (with its amendments), its
    rules and indemnity, or both. The one wording of every door's refusal; the forms link the version."""
    if not event.rule_book_version_id:
        return "the rules and indemnity"
    version = event.rule_book_version
    named = f"{version} ({site_url(version.get_absolute_url())})"
    if event.rule_amendments:
        named += " with this event's amendments"
    return f"{named} and this event's rules and indemnity" if event.rules_agreement else named


def check_rules(event: Event, accept_rules: bool, agreed_version: int | None = None) -> None:
    """An entrant agrees to the rules the event asks them to (Event.asks_agreement). `agreed_version`: the rule book
    version the entrant was shown (its id), when the door knows it: refused if the event has moved to another since,
    so nobody is recorded as agreeing to a version they did not see."""
    if event.asks_agreement and not accept_rules:
        raise RegistrationError(f"Agree to {rules_named(event)} to enter.", field="accept_rules")
    if accept_rules and agreed_version is not None and agreed_version != event.rule_book_version_id:
        raise RegistrationError(
            f"The event now follows {rules_named(event)}: read it and agree again to enter.", field="accept_rules"
        )


def agreement_record(event: Event, moment) -> dict:
    """What an entry or a group entry records of the agreement check_rules asked for: when, and to which rule book
    version (none for an event that asks for no agreement). Every door that makes an entry records it this way."""
    if not event.asks_agreement:
        return {"rules_accepted_at": None, "rules_version_id": None}
    return {"rules_accepted_at": moment, "rules_version_id": event.rule_book_version_id}


def _active_entries(event: Event | int, player) -> QuerySet:
    """The player's active entry in the event (at most one: a constraint)."""
    return Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).order_by("pk")


# The actor's player record with the status of its active entry in the event (`entrant`): compiled once per
# connection, as every entry reads it.
OWN_PLAYER_AND_ENTRY = Prepared(
    lambda user_id, event_id: Player.objects.filter(user=user_id).annotate(
        active_status=Subquery(_active_entries(event_id, OuterRef("pk")).values("status")[:1])
    )[:1],
    int,
    int,
)


def entrant(actor, event: Event, player: Player | None) -> tuple[Player, str | None]:
    """Who is entered (the actor's own player record, created on first need, unless `player` is given) and the status
    of their active entry in the event (None: none). For the actor's own record, one query reads both."""
    if player is None:
        player = OWN_PLAYER_AND_ENTRY.first(actor.pk, event.pk)
        if player is None:
            return ensure_own_player(actor), None
        return player, player.active_status
    return player, _active_entries(event, player).values_list("status", flat=True).first()


def refuse_duplicate(player: Player, active_status: str | None, *, for_self: bool) -> None:
    """Refuses a second active entry (`active_status`: that of the player's active entry, from `entrant`)."""
    if active_status:
        who = "You have" if for_self else f"{player} has"
        shown = EntryStatus(active_status).label.lower()
        raise RegistrationError(f"{who} already entered this event ({shown}).", field="category")


def register_entry(
    actor,
    event: Event,
    *,
    category,
    fee=None,
    concession_proof: str = "",
    accept_rules: bool = False,
    player: Player | None = None,
    date_of_birth=None,
    phone: str = "",
    play_up: bool = False,
    name_listed: bool = False,
    agreed_version: int | None = None,
    answers: dict | None = None,
    discount_code: str = "",
) -> Entry:
    """A logged-in player enters an event. First come, first served.

    An organiser may enter someone else, giving the member's date of birth as well as the number;
    the member is told at once by email, with a link to withdraw. `play_up`: a rated player asks to
    play in a higher division than their rating gives. `name_listed`: entering someone else, the organiser
    says a parent or guardian agreed to list an under-18's name on the public list of entrants. `agreed_version`:
    the rule book version the entrant was shown (check_rules); the entry records the version agreed to. `answers`:
    the answers to the organiser's questions, keyed by question id (events.services.questions.check_answers).
    `discount_code`: a code the organiser gave out; the amount due comes from the one pricing rule
    (services.discounts.price_entry).

    Everything the event lock does not change (the category and fee, the rules, a duplicate entry,
    eligibility and rating) is checked before taking it; under the lock only what others change is
    read: the event's state and its places. Two entries of one player racing past the duplicate
    check meet the one-active-entry constraint instead."""
    if not (actor and actor.is_authenticated):
        raise NotAllowed("Log in to enter.")
    if player is not None and player.user_id != actor.id:
        if not can_manage_event(actor, event):
            raise NotAllowed("You can only enter yourself; a teacher or parent uses the group entry form.")
        if player.pk is None:  # a member number on no record names nobody: this door names records, never makes one
            raise RegistrationError(f"There is no member with number {player.member_number}.", field="player")
        prove_member_link(player, date_of_birth, str(player))
    try:
        return _register(
            actor,
            event,
            category,
            fee,
            concession_proof,
            (accept_rules, agreed_version),
            player,
            phone,
            play_up,
            name_listed,
            answers,
            discount_code,
        )
    except RegistrationError:
        refresh_status(event)  # what the clock made due (a passed closing date) is recorded all the same
        raise


def _register(
    actor,
    event,
    category,
    fee,
    concession_proof,
    agreement,
    player,
    phone,
    play_up,
    name_listed=False,
    answers=None,
    code="",
) -> Entry:
    accept_rules, agreed_version = agreement
    if registration_refusal(event):
        # Refused as the caller's copy of the event stands: the refusal comes from the event as stored.
        with transaction.atomic():
            open_event_for_entries(event.pk)
    with transaction.atomic():
        player, active_status = entrant(actor, event, player)
        for_self = player.user_id == actor.id
        category, fee, proof = clean_choice(event, category, fee, concession_proof)
        check_rules(event, accept_rules)
        # Most events ask nothing of their own: their questions are read only when the category says it asks some.
        asked = asked_in(event_questions(event), category) if getattr(category, "asks", True) else []
        answered = check_answers(asked, answers)
        refuse_duplicate(player, active_status, for_self=for_self)
        # Only a rating band or playing up needs the rating.
        rated_rule = play_up or category.min_rating is not None or category.max_rating is not None
        rating = player_rating(event, player.pk) if rated_rule else None
        refusal = category_refusal(category, player, rating=rating, for_self=for_self)
        if refusal:
            raise RegistrationError(refusal, field="category")
        if play_up and not for_self:
            raise RegistrationError("Only the player can ask to play up.", field="play_up")
        if play_up and rating is None:
            raise RegistrationError(
                "Only a rated player can ask to play in a higher division; the director places unrated players.",
                field="play_up",
            )
        # The event row is locked from here to the commit: a few small statements.
        event, counts = open_event_for_entry(event.pk)
        check_rules(event, accept_rules, agreed_version)  # as the event stands now, under the lock
        category.event = event
        current, moment = counts.places, counts.moment
        # The code's uses are counted under the event's lock, as the places are.
        day = entry_day(event, moment)
        discount = usable_code(event, category, code, day)
        price = price_entry(event, category, fee, player, day=day, code=discount)
        amount = price.amount
        offered = bool(counts.waiting and offer_free_places(event, current))
        if offered:
            current = places(event)
        entry = Entry(
            event=event,
            category=category,
            player=player,
            entered_by=actor,
            accepted_at=moment,
            fee=fee,
            amount_due=amount,
            concession_proof=proof,
            **agreement_record(event, moment),
            school=player.school,
            phone=phone or player.phone,
            # Someone entering themselves answers for their own listing (players.visibility.entrant_name).
            name_listed_on=timezone.localdate() if name_listed and not for_self else None,
        )
        apply_price(entry, price, discount)
        place_entry(entry, new_entry_status(event, category, current, amount), moment)
        insert_entry(entry)
        entry.known_answers = save_answers(entry, answered, asked, fresh=True)
        if play_up:
            request_play_up(actor, entry)
        # For the mail and the caller's response. Those ahead of the new entry (waitlisted, accepted at or before its
        # moment; its id is the newest) were counted with the places, unless offers have just moved some.
        ahead = None if offered else counts.ahead.get(category.pk, 0)
        if entry.status != EntryStatus.WAITLISTED:
            entry.known_waitlist_position = None
        elif ahead is None:
            entry.known_waitlist_position = waitlist_position(entry)
        else:
            entry.known_waitlist_position = ahead + 1
        mail_entry_received(entry, entry.known_waitlist_position)
        if not for_self:
            mail_entered_for_you(entry, entrant_name(actor))
    return entry


def leave_waitlist(actor, entry: Entry) -> Entry:
    """Leaves the waiting list (or declines an offered place, which passes it on)."""
    if entry.status not in (EntryStatus.WAITLISTED, EntryStatus.OFFERED):
        raise RegistrationError("This entry is not on the waiting list.")
    return withdraw_entry(actor, entry)


def withdraw_entry(actor, entry: Entry) -> Entry:
    """The entrant (or the organiser) withdraws; a freed place goes to the waiting list. What it had paid is held
    on the ledger for the organiser to refund by the event's refund policy; the entrant is told, and the
    organiser too when there is money to decide on."""
    return _end_entry(actor, entry, EntryStatus.WITHDRAWN, managers_only=False)


def cancel_entry(actor, entry: Entry, reason: str = "") -> Entry:
    """The organiser cancels an entry, and the entrant is told why; a freed place goes to the waiting list. What it
    had paid is held for a refund, as for a withdrawal."""
    reason = check_free_text(reason, "reason for cancelling", NOTE_TEXT, RegistrationError, field="reason")
    return _end_entry(actor, entry, EntryStatus.CANCELLED, managers_only=True, reason=reason)


def withdraw_entry_by_link(token: str) -> Entry:
    """A member entered by someone else withdraws from the emailed link (no log-in: the signed token
    names the entry and the member). A freed place goes to the waiting list."""
    found = read_token(token)
    entry = Entry.objects.filter(pk=found[0], player_id=found[1]).first() if found else None
    if entry is None:
        raise RegistrationError("This withdrawal link is not valid (or has expired). Log in to see your entries.")
    return _end_entry(None, entry, EntryStatus.WITHDRAWN, managers_only=False, by_link=True)


def entry_for_link(token: str) -> Entry | None:
    """The entry a withdrawal link names, for the page that shows it before the click."""
    found = read_token(token)
    if not found:
        return None
    return Entry.objects.select_related("event", "player", "category").filter(pk=found[0], player_id=found[1]).first()


def _end_entry(
    actor, entry: Entry, status: str, *, managers_only: bool, by_link: bool = False, reason: str = ""
) -> Entry:
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        if managers_only:
            require_manager(actor, event, "cancel entries")
        if by_link:
            entry = (
                Entry.objects.select_for_update(of=("self",))
                .select_related("player", "group", "guest")
                .get(pk=entry.pk)
            )
        else:
            entry = own_entry(actor, entry.pk)
        entry.event = event
        if status not in Entry.TRANSITIONS[entry.status]:
            raise RegistrationError(f"This entry is already {entry.get_status_display().lower()}.")
        refusal = withdrawal_refusal(event)
        # The organiser may still end an entry on the day; once the event is completed its entries are settled
        # (lifecycle.settle_entries) and stay as they are: money owed or paid is then the money page's business.
        if refusal and (by_link or event.status == EventStatus.COMPLETED or not can_manage_event(actor, event)):
            raise RegistrationError(refusal)
        freed = entry.holds_place
        move(entry, status)
        entry.ended_at = now()
        who = entry.player.full_name
        # An entry that no longer holds a place counts nothing as paid: the money is held for the refund due.
        held = hold_paid(actor, entry, entry.amount_paid, f"{who} {entry.get_status_display().lower()}")
        entry.save(update_fields=["status", "ended_at", "amount_paid"])
        by_manager = not by_link and can_manage_event(actor, event)
        if status == EntryStatus.CANCELLED:
            mail_entry_cancelled(entry, reason, held)
        else:
            mail_entry_withdrawn(entry, held, by_organiser=by_manager)
        if held and not (actor is not None and actor.pk == event.owner_id):
            mail_refund_to_decide(entry, held)
        if freed:
            offer_free_places(event)
    return entry


def move_entry(actor, entry: Entry, category, fee=None, concession_proof: str = "") -> Entry:
    """The organiser moves an entry to another category (and fee), keeping its place in the queue. A concession fee
    asks for its proof, as it does of the entrant: `concession_proof`, or the one the entry already has."""
    with transaction.atomic():
        event, entry = locked_entry(actor, entry, "move entries")
        if not entry.is_active:
            raise RegistrationError(f"This entry is {entry.get_status_display().lower()}.")
        if fee is None and entry.fee:
            target = category if isinstance(category, Category) else Category.objects.filter(pk=category).first()
            fee = target and target.fees.filter(is_concession=entry.fee.is_concession).first()
        proof = (concession_proof or "").strip() or entry.concession_proof
        category, fee, proof = clean_choice(event, category, fee, proof)
        if category.pk == entry.category_id and fee == entry.fee and proof == entry.concession_proof:
            return entry
        if category.pk != entry.category_id:
            refusal = refusal_for(category, entry.player, for_self=False)
            if refusal:
                raise RegistrationError(f"{entry.player.full_name}: {refusal}", field="category")
        if entry.holds_place and category.pk != entry.category_id:
            if not places(event).release(entry.category_id).has_room(event, category):
                raise RegistrationError(f"{category.name} has no place left.", field="category")
        entry.category = category
        entry.fee = fee
        entry.concession_proof = proof
        # Priced as on the day it was made (its early-bird right kept); its code stays where the code applies to the
        # new category (its use was counted already), and a free place stays free.
        code = entry.discount_code
        if code is not None and code.category_id not in (None, category.pk):
            code = None
        price = price_entry(
            event,
            category,
            fee,
            entry.player,
            day=entry_day(event, entry.accepted_at),
            code=code,
            free=bool(entry.free_place),
        )
        apply_price(entry, price, code)
        hold_overpayment(actor, entry, f"{entry.player.full_name} moved to {fee.name if fee else category.name}")
        if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
            move(entry, EntryStatus.CONFIRMED)
            entry.confirmed_at = now()
        entry.save(
            update_fields=[
                "category",
                "fee",
                "concession_proof",
                "amount_due",
                "amount_paid",
                "status",
                "confirmed_at",
                "discount",
                "discount_code",
            ]
        )
        offer_free_places(event)
    return entry


def request_play_up(actor, entry: Entry, division_name: str = "") -> PlayUpRequest:
    """The entrant asks to play in a stronger division (empty name: one up); the director's seating reads it."""
    if not (entry.player.user_id and entry.player.user_id == getattr(actor, "id", None)):
        raise NotAllowed("Only the entrant can ask to play up.")
    return PlayUpRequest.objects.update_or_create(entry=entry, defaults={"division_name": division_name})[0]
