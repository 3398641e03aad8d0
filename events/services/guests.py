"""Entering without an account, for events that allow it: a person gives a name, an email and what the entry form
asks; the entry is made when the emailed link is opened, and the same link manages it later (pay, withdraw, change).

An entry given this way takes no place until its link is opened: the place is counted, first come first served, at
that moment, by the same rules as every other entry (places, waiting list, fees). A link not opened within
GUEST_CONFIRM_HOURS leaves nothing behind but the request, which no longer confirms. The entrant's record is the
one the site's one matching rule finds (players.lookup), without the guest being shown it, or a new record without
membership."""

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.mail import subject as mail_subject
from clubsite.kit.text import check_free_text, check_text
from players import lookup, matching
from players.matching import Person
from players.models import Player, SchoolLevel, birth_date_problem

from ..models import ACTIVE_ENTRY_STATUSES, GUEST_CONFIRM_HOURS, Entry, EntryStatus, Event, GuestEntry
from .common import RegistrationError, local_text, lock_event, mail_after_commit, now, site_url
from .discounts import apply_price, entry_day, normalised_code, price_entry, usable_code
from .eligibility import category_refusal, refusal_for
from .entries import _end_entry, agreement_record, check_rules, clean_choice, prove_member_link, refuse_id_number
from .groups import NEW_PERSON
from .groups import _given_number as given_number
from .groups import _said_new as said_new
from .groups import _student_player as student_player
from .guestlink import read_guest_token
from .notify import guest_url, mail_entered_for_you, mail_entry_received
from .offers import offer_free_places
from .places import insert_entry, new_entry_status, place_entry, places
from .questions import asked_in, check_answers, event_questions, save_answers
from .status import name_change_refusal, open_event_for_entries, open_event_for_entry, refresh_status, sync_status

# One address may enter this many people in one event (a parent with several children), counting those confirmed and
# those still waiting for their link to be opened: a bound on what one address can make the site store and send.
MAX_GUEST_ENTRIES_PER_EMAIL = 5
# "Lost your link" sends the links to an address at most this often (whoever asks, the answer on the page is the same).
RESEND_EVERY = timedelta(minutes=10)

# An entry never confirmed is forgotten this long after its link stopped confirming it: what was typed about someone
# (often a child) is not kept for nothing.
FORGET_UNCONFIRMED_AFTER = timedelta(days=7)

GUEST_BAD_LINK = "This link is not valid (or has expired). Ask for it again on the event's page: “Lost your link?”."
TEXT_FIELDS = ("contact_name", "full_name", "school", "phone", "member_number", "concession_proof")


def guest_for_token(token: str) -> GuestEntry | None:
    """The guest entry a genuine link names (None: tampered, expired, or for an address it no longer has)."""
    found = read_guest_token(token)
    if not found:
        return None
    guest = (
        GuestEntry.objects.select_related("event", "event__association", "category", "fee").filter(pk=found[0]).first()
    )
    if guest is None or guest.email.casefold() != found[1]:
        return None
    return guest


def _checked_text(fields: dict) -> dict:
    """Each text stripped, refused when it holds a NUL or is longer than its column (naming the field)."""
    cleaned = {}
    for name in TEXT_FIELDS:
        label = GuestEntry._meta.get_field(name).verbose_name
        value = check_free_text(str(fields.get(name) or ""), label, 10_000, RegistrationError, field=name)
        check_text(GuestEntry, name, value, RegistrationError)
        cleaned[name] = value
    return cleaned


def _checked_email(email: str) -> str:
    email = (email or "").strip()
    try:
        if "\x00" in email or len(email) > 254:
            raise ValidationError("")
        validate_email(email)
    except ValidationError:
        raise RegistrationError("Enter a valid email address: the link to confirm the entry goes there.", field="email")
    return email


def _person(full_name: str, date_of_birth, email: str, role: str) -> Person:
    """What the door knows of the entrant: the email is theirs only when they enter themselves."""
    return Person(full_name=full_name, date_of_birth=date_of_birth, email=email if role == GuestEntry.Role.SELF else "")


def _on_record(event: Event, texts: dict, date_of_birth, email: str, role: str) -> Player | None:
    """The record the entrant already has, by the one matching rule, or None for someone new. Records that are only
    likely are never shown to a guest: they are asked for the member number, or to say the person is new."""
    number = given_number(texts)
    if number:
        if not (number.isascii() and number.isdigit()):  # never echoed: it may be an ID number typed in the wrong box
            raise RegistrationError(
                f"A member number is digits only. Leave it blank, or write “{NEW_PERSON}” for someone new.",
                field="member_number",
            )
        # More digits than any member number has is none (and never an integer the database overflows on).
        player = Player.objects.filter(member_number=int(number)).first() if len(number) <= 9 else None
        if player is None:
            raise RegistrationError(
                f"There is no member with number {number}. Leave it blank for someone new.", field="member_number"
            )
        prove_member_link(player, date_of_birth, "The entrant", texts["full_name"])
        return player
    if said_new(texts):
        return None
    found = lookup.find_person(_person(texts["full_name"], date_of_birth, email, role))
    if found.is_likely:
        raise RegistrationError(
            f"{texts['full_name']} may already be on our records. If they are a member, give the member number "
            f"(with their date of birth); if they are someone new, write “{NEW_PERSON}” in “Member no.”.",
            field="member_number",
        )
    return Player.objects.get(pk=found.record.id) if found.is_sure else None


def _refuse_entered(event: Event, full_name: str, date_of_birth, player: Player | None) -> None:
    """The same person (their record, or the same name and date of birth) already in the event. Nothing about who
    entered them is said."""
    key = matching.name_key(full_name)
    active = Entry.objects.filter(event=event, status__in=ACTIVE_ENTRY_STATUSES)
    who = Q(player__date_of_birth=date_of_birth) | (Q(player=player) if player else Q(pk__in=[]))
    for entry in active.filter(who).select_related("player"):
        if (player and entry.player_id == player.pk) or matching.name_key(entry.player.full_name) == key:
            raise RegistrationError(f"{full_name} has already entered this event.", field="full_name")


def _live(guests):
    """Guest entries still counting: confirmed, or waiting for their link within its hours."""
    return guests.filter(Q(confirmed_at__isnull=False) | Q(created_at__gt=now() - timedelta(hours=GUEST_CONFIRM_HOURS)))


def _eligibility(category, player: Player | None, school_level: str, date_of_birth) -> str | None:
    declared = school_level if school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY) else None
    if player is None:
        return category_refusal(category, None, school_level=declared, date_of_birth=date_of_birth, for_self=False)
    return refusal_for(category, player, for_self=False, school_level=declared, date_of_birth=date_of_birth)


def submit_guest_entry(
    event: Event,
    *,
    role: str,
    contact_name: str,
    email: str,
    full_name: str,
    date_of_birth,
    category,
    fee=None,
    school_level: str = SchoolLevel.NONE,
    school: str = "",
    phone: str = "",
    member_number: str = "",
    concession_proof: str = "",
    discount_code: str = "",
    accept_rules: bool = False,
    agreed_version: int | None = None,
    name_listed: bool = False,
    answers: dict | None = None,
) -> GuestEntry:
    """Someone without an account enters themselves or a child: everything the entry form checks is checked now, and
    the link to confirm is emailed (written to the outbox in this transaction). No place is taken until then, and no
    use of a discount code: the code is checked now and used when the link is opened, if it is still usable then."""
    refresh_status(event)
    with transaction.atomic():
        event = open_event_for_entries(event.pk)
        if not event.allows_guest_entries:
            raise NotAllowed("This event takes entries from members with an account only: log in to enter.")
        if role not in GuestEntry.Role.values:
            raise RegistrationError("Say whom you are entering.", field="role")
        texts = _checked_text(
            {
                "contact_name": contact_name,
                "full_name": full_name,
                "school": school,
                "phone": phone,
                "member_number": member_number,
                "concession_proof": concession_proof,
            }
        )
        email = _checked_email(email)
        if not texts["contact_name"]:
            raise RegistrationError("Enter your name.", field="contact_name")
        if role == GuestEntry.Role.SELF and not texts["full_name"]:
            texts["full_name"] = texts["contact_name"]
        if not texts["full_name"]:
            raise RegistrationError("Enter the entrant's name as on the ID.", field="full_name")
        refuse_id_number(texts["contact_name"], "name", field="contact_name")
        refuse_id_number(texts["full_name"], "name")
        if date_of_birth is None:
            raise RegistrationError("Give the entrant's date of birth.", field="date_of_birth")
        if problem := birth_date_problem(date_of_birth):
            raise RegistrationError(problem, field="date_of_birth")
        if school_level not in SchoolLevel.values:
            raise RegistrationError("Choose the school level.", field="school_level")
        category, fee, proof = clean_choice(event, category, fee, texts["concession_proof"])
        check_rules(event, accept_rules, agreed_version)
        # The organiser's questions, by the one rule of every door; the answers wait with the form for the link.
        answered = check_answers(asked_in(event_questions(event), category), answers)
        guests = GuestEntry.objects.filter(event=event, email__iexact=email)
        if _live(guests).count() >= MAX_GUEST_ENTRIES_PER_EMAIL:
            raise RegistrationError(
                f"One email address can enter at most {MAX_GUEST_ENTRIES_PER_EMAIL} people in this event. "
                "Use another address, or ask the organiser.",
                field="email",
            )
        key = matching.name_key(texts["full_name"])
        for waiting in _live(guests.filter(confirmed_at__isnull=True, date_of_birth=date_of_birth)):
            if matching.name_key(waiting.full_name) == key:
                raise RegistrationError(
                    f"{texts['full_name']} is entered already and waits for the link emailed to this address. "
                    "Open it, or ask for it again (“Lost your link?”).",
                    field="full_name",
                )
        player = _on_record(event, texts, date_of_birth, email, role)
        _refuse_entered(event, texts["full_name"], date_of_birth, player)
        refusal = _eligibility(category, player, school_level, date_of_birth)
        if refusal:
            raise RegistrationError(refusal, field="category")
        moment = now()
        # The code is checked by the rule of every door (under the event's lock), so that a bad one is told at once.
        code = usable_code(event, category, discount_code, entry_day(event, moment))
        guest = GuestEntry(
            event=event,
            role=role,
            email=email,
            date_of_birth=date_of_birth,
            school_level=school_level,
            category=category,
            fee=fee,
            discount_code=code.code if code else "",
            **agreement_record(event, moment),
            answers={str(pk): value for pk, value in answered.items() if value},
            name_listed=bool(name_listed) and role != GuestEntry.Role.SELF,
            created_at=moment,
            link_sent_at=moment,
            **{**texts, "concession_proof": proof},
        )
        guest.save()
        _mail_link(guest, "guest_confirm", "Confirm your entry")
    return guest


def _mail_link(guest: GuestEntry, kind: str, what: str) -> None:
    event = guest.event
    context = {
        "guest": guest,
        "event": event,
        "link": guest_url(guest),
        "confirm_by": local_text(event, guest.confirm_by),
        "hours": GUEST_CONFIRM_HOURS,
        "url": site_url(event.get_absolute_url()),
    }
    mail_after_commit(f"events/email/{kind}.txt", mail_subject(what, event.title), [guest.email], context)


def confirm_guest_entry(token: str, *, without_code: bool = False) -> Entry:
    """The emailed link is opened (and its button pressed): the entry is made, taking a place (or joining the
    waiting list) as any entry does at this moment. Pressing it again changes nothing. `without_code`: the
    discount code given with the form is left out (it may have been used up meanwhile), and taken off the entry."""
    guest = guest_for_token(token)
    if guest is None:
        raise RegistrationError(GUEST_BAD_LINK)
    if guest.confirmed_at:
        return guest.entry
    if guest.expired:
        raise RegistrationError(
            f"This entry was not confirmed within {GUEST_CONFIRM_HOURS} hours of being sent, so it holds nothing. "
            "Fill in the entry form again."
        )
    refresh_status(guest.event)
    with transaction.atomic():
        event, counts = open_event_for_entry(guest.event_id)
        # Only the guest's row is locked: its fee may be none, and PostgreSQL locks no side of an outer join.
        guest = GuestEntry.objects.select_for_update(of=("self",)).select_related("category", "fee").get(pk=guest.pk)
        guest.event = event
        if guest.confirmed_at:
            return guest.entry
        category, fee = guest.category, guest.fee
        category.event = event
        player, on_record = _entrant(event, guest)
        _refuse_entered(event, guest.full_name, guest.date_of_birth, player)
        refusal = _eligibility(category, player, guest.school_level, guest.date_of_birth)
        if refusal:
            raise RegistrationError(refusal, field="category")
        current, moment = counts.places, counts.moment
        if counts.waiting and offer_free_places(event, current):
            current = places(event)
        # The one pricing rule (member fee, early bird, the code), on the day the link is opened: the entry is made
        # then, and the code's uses are counted now, under the event's lock, as at every door.
        day = entry_day(event, moment)
        if without_code and guest.discount_code:
            guest.discount_code = ""
            guest.save(update_fields=["discount_code"])
        discount = _code_at_confirmation(event, category, guest.discount_code, day)
        price = price_entry(event, category, fee, player, day=day, code=discount)
        amount = price.amount
        entry = Entry(
            event=event,
            category=category,
            player=player,
            guest=guest,
            accepted_at=moment,
            fee=fee,
            amount_due=amount,
            concession_proof=guest.concession_proof,
            rules_accepted_at=guest.rules_accepted_at,
            rules_version_id=guest.rules_version_id,  # what the guest agreed to, though the event moved on since
            school=guest.school or player.school,
            phone=guest.phone or player.phone,
            name_listed_on=timezone.localdate(guest.created_at) if guest.name_listed else None,
        )
        apply_price(entry, price, discount)
        place_entry(entry, new_entry_status(event, category, current, amount), moment)
        insert_entry(entry)
        asked = asked_in(event_questions(event), category)  # a question deleted since is not answered
        kept = {q.pk: guest.answers[str(q.pk)] for q in asked if str(q.pk) in (guest.answers or {})}
        save_answers(entry, kept, asked, fresh=True)
        guest.confirmed_at = moment
        guest.save(update_fields=["confirmed_at"])
        mail_entry_received(entry)
        if on_record and player.email and player.email.casefold() != guest.email.casefold():
            mail_entered_for_you(entry, guest.contact_name)  # someone on record is told who entered them
    return entry


def _code_at_confirmation(event: Event, category, text: str, day):
    """The discount code given with the form, checked again when the link is opened (it may have been used up,
    expired or removed since): a refusal makes nothing, and says how to enter without it."""
    if not normalised_code(text):
        return None
    try:
        return usable_code(event, category, text, day)
    except RegistrationError as refusal:
        raise RegistrationError(
            f"{refusal.message} The entry is not made: confirm it without the code (at the full price), or fill "
            "in the entry form again with another code once this link has lapsed.",
            field="discount_code",
        ) from None


def _entrant(event: Event, guest: GuestEntry) -> tuple[Player, bool]:
    """The entrant's record when the link is opened, and whether it was on record already: the member number given
    (proved when the form was sent), the record the one matching rule is sure of, else a new record. The guest
    answered for records that were likely when the form was sent; one that became likely since is not shown to them
    either: the entrant gets a record of their own, which staff can merge."""
    student = {
        "full_name": guest.full_name,
        "date_of_birth": guest.date_of_birth,
        "member_number": guest.member_number,
        "school": guest.school,
        "phone": guest.phone,
    }
    found = None
    if not given_number(student) and not said_new(student):
        found = lookup.find_person(_person(guest.full_name, guest.date_of_birth, guest.email, guest.role))
        if found.is_likely:
            student["member_number"], found = NEW_PERSON, None
    on_record = bool(given_number(student)) or (found is not None and found.is_sure)
    try:
        player = student_player(event, guest.category, student, guest.full_name, found)
    except RegistrationError as refusal:
        raise RegistrationError(refusal.message, field="member_number") from None
    if not on_record and guest.school_level != SchoolLevel.NONE and player.school_level == SchoolLevel.NONE:
        player.school_level = guest.school_level
        player.save(update_fields=["school_level"])
    return player, on_record


def withdraw_guest_entry(token: str) -> Entry:
    """The guest withdraws the entry from its link; a freed place goes to the waiting list, money paid is held for
    the organiser to refund by the event's policy (as for any withdrawal)."""
    guest = guest_for_token(token)
    entry = guest.entry if guest else None
    if entry is None:
        raise RegistrationError(
            GUEST_BAD_LINK if guest is None else "This entry is not confirmed yet: nothing to withdraw."
        )
    return _end_entry(None, entry, EntryStatus.WITHDRAWN, managers_only=False, by_link=True)


def change_guest_entry(
    token: str, *, full_name: str, date_of_birth, school: str = "", phone: str = "", answers: dict | None = None
) -> GuestEntry:
    """The guest corrects the entrant's details from the link, until names can no longer be changed (the closing
    date). A record made for this entry takes the new name; an entry under a record that was on file keeps its
    person (the name is theirs): entering someone else is a withdrawal and a new entry. The eligibility rule is asked
    again with the new date of birth."""
    guest = guest_for_token(token)
    if guest is None:
        raise RegistrationError(GUEST_BAD_LINK)
    with transaction.atomic():
        event = sync_status(lock_event(guest.event_id))
        refusal = name_change_refusal(event)
        if refusal:
            raise RegistrationError(refusal, field="full_name")
        guest = GuestEntry.objects.select_for_update().select_related("category").get(pk=guest.pk)
        guest.event = guest.category.event = event
        texts = _checked_text({"full_name": full_name, "school": school, "phone": phone})
        if not texts["full_name"]:
            raise RegistrationError("Enter the entrant's name as on the ID.", field="full_name")
        refuse_id_number(texts["full_name"], "name")
        if date_of_birth is None:
            raise RegistrationError("Give the entrant's date of birth.", field="date_of_birth")
        if problem := birth_date_problem(date_of_birth):
            raise RegistrationError(problem, field="date_of_birth")
        entry = guest.entry
        if entry is not None and not entry.is_active:
            raise RegistrationError(f"This entry is {entry.get_status_display().lower()}: there is nothing to change.")
        player = entry.player if entry else None
        renamed = texts["full_name"] != guest.full_name or date_of_birth != guest.date_of_birth
        own_record = player is not None and _made_for(player, entry, guest)
        if renamed and player is not None and not own_record:
            raise RegistrationError(
                "This entry is under a record the site already had, so its name and date of birth stay as they are. "
                "To enter someone else, withdraw this entry and enter them afresh.",
                field="full_name",
            )
        refusal = _eligibility(guest.category, None if own_record else player, guest.school_level, date_of_birth)
        if refusal:
            raise RegistrationError(refusal, field="date_of_birth")
        if answers is not None:  # the organiser's questions, judged as at every door
            cleaned = check_answers(asked_in(event_questions(event), guest.category_id), answers)
            if entry is not None:
                save_answers(entry, cleaned)
            guest.answers = {str(pk): value for pk, value in cleaned.items() if value}
        guest.full_name, guest.date_of_birth = texts["full_name"], date_of_birth
        guest.school, guest.phone = texts["school"], texts["phone"]
        guest.save(update_fields=["full_name", "date_of_birth", "school", "phone", "answers"])
        if own_record and renamed:
            player.full_name, player.display_name, player.date_of_birth = texts["full_name"], "", date_of_birth
            player.save(update_fields=["full_name", "display_name", "date_of_birth"])
        if entry is not None:
            entry.school, entry.phone = texts["school"] or entry.school, texts["phone"] or entry.phone
            entry.save(update_fields=["school", "phone"])
    return guest


def _made_for(player: Player, entry: Entry, guest: GuestEntry) -> bool:
    """A record made when this guest entry was confirmed, used by nothing else: its name is the guest's to correct."""
    return (
        player.user_id is None
        and player.created_at >= guest.created_at
        and not player.entries.exclude(pk=entry.pk).exists()
        and not player.memberships.exists()
    )


def resend_guest_links(event: Event, email: str) -> None:
    """“Lost your link?”: the links of the entries this address made in the event are emailed to it again, at most
    once every RESEND_EVERY. The caller answers the same whether or not anything was sent: whether an address entered
    anyone is for its owner alone to learn."""
    email = _checked_email(email)
    with transaction.atomic():
        guests = list(
            _live(GuestEntry.objects.select_for_update().filter(event=event, email__iexact=email)).order_by("pk")
        )
        moment = now()
        if not guests or any(g.link_sent_at > moment - RESEND_EVERY for g in guests):
            return
        GuestEntry.objects.filter(pk__in=[g.pk for g in guests]).update(link_sent_at=moment)
        links = [(g, guest_url(g)) for g in guests]
        context = {
            "event": event,
            "links": links,
            "url": site_url(event.get_absolute_url()),
            "name": guests[0].contact_name,
        }
        mail_after_commit(
            "events/email/guest_links.txt", mail_subject("Your entry links", event.title), [guests[0].email], context
        )


def forget_unconfirmed_guest_entries() -> int:
    """Deletes the entries given without an account that were never confirmed, FORGET_UNCONFIRMED_AFTER after their
    link stopped confirming them (celery beat runs it daily); returns how many."""
    cutoff = now() - timedelta(hours=GUEST_CONFIRM_HOURS) - FORGET_UNCONFIRMED_AFTER
    return GuestEntry.objects.filter(confirmed_at__isnull=True, created_at__lt=cutoff).delete()[0]
