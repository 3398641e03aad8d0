"""Entries: registering (alone or as a group), places and the waiting list, payments, withdrawals.

Every function here that changes places first locks the event row, so places are counted by one
transaction at a time; the partial unique constraint on Entry backs up "one active entry per player".
"""

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from clubsite.errors import PermissionDenied
from players.models import Player, SchoolLevel
from players.services import create_player, ensure_own_player

from ..models import (
    ACTIVE_ENTRY_STATUSES,
    PLACE_HOLDING_STATUSES,
    Category,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Fee,
    GroupEntry,
    Payment,
    PaymentMethod,
    SchoolLevelRequirement,
)
from ..permissions import can_manage_event
from . import common
from .common import RegistrationError, local_text, lock_event, mail_after_commit, now, require_manager, site_url

OFFER_REMINDER_BEFORE = timedelta(hours=12)


# --- reading places ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Places:
    """Places taken per category and in the whole event (pending payment, confirmed or offered)."""

    taken: dict[int, int]
    total: int

    def left_in(self, event: Event, category: Category) -> int | None:
        """Places still free in this category (None: no limit)."""
        limits = []
        if category.quota is not None:
            limits.append(category.quota - self.taken.get(category.pk, 0))
        if event.max_entrants is not None:
            limits.append(event.max_entrants - self.total)
        return max(min(limits), 0) if limits else None

    def left_in_event(self, event: Event, categories) -> int | None:
        if event.max_entrants is not None:
            left = event.max_entrants - self.total
        else:
            left = None
        if categories and all(c.quota is not None for c in categories):
            by_category = sum(max(c.quota - self.taken.get(c.pk, 0), 0) for c in categories)
            left = by_category if left is None else min(left, by_category)
        return None if left is None else max(left, 0)

    def has_room(self, event: Event, category: Category) -> bool:
        left = self.left_in(event, category)
        return left is None or left > 0

    def release(self, category_id: int) -> "Places":
        taken = dict(self.taken)
        taken[category_id] = max(taken.get(category_id, 0) - 1, 0)
        return Places(taken, max(self.total - 1, 0))

    def take(self, category: Category) -> "Places":
        taken = dict(self.taken)
        taken[category.pk] = taken.get(category.pk, 0) + 1
        return Places(taken, self.total + 1)


def places(event: Event) -> Places:
    rows = (
        Entry.objects.filter(event=event, status__in=PLACE_HOLDING_STATUSES)
        .values("category")
        .annotate(n=Count("pk"))
        .order_by()
    )
    taken = {row["category"]: row["n"] for row in rows}
    return Places(taken, sum(taken.values()))


def waitlist_position(entry: Entry) -> int | None:
    """1 for the next in line (in the entry's category), None when not on the waiting list."""
    if entry.status != EntryStatus.WAITLISTED:
        return None
    ahead = Entry.objects.filter(
        Q(accepted_at__lt=entry.accepted_at) | Q(accepted_at=entry.accepted_at, pk__lt=entry.pk),
        event_id=entry.event_id,
        category_id=entry.category_id,
        status=EntryStatus.WAITLISTED,
    ).count()
    return ahead + 1


# --- ratings, used by rating-band categories and the entrant list --------------------------------


def player_ratings(event: Event, player_ids) -> dict[int, int]:
    """Current ratings by player id on the event's rating list (or the association's first); unrated left out."""
    from ratings.models import PlayerRating, RatingList

    list_id = (
        event.rating_list_id or RatingList.objects.order_by("position", "name").values_list("pk", flat=True).first()
    )
    if not list_id:
        return {}
    rows = PlayerRating.objects.filter(rating_list_id=list_id, player_id__in=list(player_ids), rating__gt=0)
    return dict(rows.order_by().values_list("player_id", "rating"))  # no default ordering: it joins players


# --- eligibility --------------------------------------------------------------------------------


def category_refusal(
    category: Category,
    player: Player | None,
    *,
    school_level: str | None = None,
    date_of_birth: date | None = None,
    rating: int | None = None,
    on_day: date | None = None,
    for_self: bool = True,
) -> str | None:
    """Why this player may not enter this category, or None when they may."""
    where = "in My account" if for_self else "on the entry"
    level = school_level or (player.school_level if player else SchoolLevel.NONE)
    required = category.school_level
    if required:
        labels = dict(SchoolLevel.choices)
        if required == SchoolLevelRequirement.STUDENT:
            if level not in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY):
                return f"{category.name} is for school students; give the school level {where}."
        elif level != required:
            if level == SchoolLevel.NONE:
                return (
                    f"{category.name} is for {labels[required].lower()} school students; give the school level {where}."
                )
            return f"{category.name} is for {labels[required].lower()} school students, not {labels[level].lower()}."
    if category.min_age is not None or category.max_age is not None:
        born = date_of_birth or (player.date_of_birth if player else None)
        if born is None:
            return f"{category.name} has an age limit; give the date of birth {where}."
        day = on_day or category.event.starts_on
        age = day.year - born.year - ((day.month, day.day) < (born.month, born.day))
        if category.min_age is not None and age < category.min_age:
            return f"{category.name} is for players aged {category.min_age} or over on the day (age {age})."
        if category.max_age is not None and age > category.max_age:
            return f"{category.name} is for players aged {category.max_age} or under on the day (age {age})."
    if category.min_rating is not None and (rating is None or rating < category.min_rating):
        shown = "unrated" if rating is None else f"rated {rating}"
        return f"{category.name} is for players rated {category.min_rating} or more ({shown})."
    if category.max_rating is not None and rating is not None and rating > category.max_rating:
        return f"{category.name} is for players rated {category.max_rating} or less (rated {rating})."
    return None


def categories_for(event: Event, player: Player | None) -> list[tuple[Category, str | None]]:
    """Each category of the event with the reason this player may not enter it (None: eligible)."""
    categories = list(event.categories.all())
    rating = player_ratings(event, [player.pk]).get(player.pk) if player else None
    return [(c, category_refusal(c, player, rating=rating) if player else None) for c in categories]


# --- time-driven status changes -----------------------------------------------------------------


def sync_status(event: Event) -> Event:
    """Opens registration at its opening time and closes it at the closing time. Call under the lock."""
    moment = now()
    changed = []
    closes = event.registration_closes_at
    if event.status == EventStatus.PUBLISHED and closes and moment >= closes:
        event.status = EventStatus.REGISTRATION_CLOSED
        event.registration_closed_at = closes
        changed = ["status", "registration_closed_at"]
    elif (
        event.status == EventStatus.PUBLISHED and event.registration_opens_at and event.registration_opens_at <= moment
    ):
        event.status = EventStatus.REGISTRATION_OPEN
        changed = ["status"]
    elif event.status == EventStatus.REGISTRATION_OPEN and closes and moment >= closes:
        event.status = EventStatus.REGISTRATION_CLOSED
        event.registration_closed_at = closes
        changed = ["status", "registration_closed_at"]
    if changed:
        event.save(update_fields=[*changed, "updated_at"])
    return event


def _status_change_due(event: Event) -> bool:
    moment = now()
    closes = event.registration_closes_at
    if event.status == EventStatus.PUBLISHED:
        return bool(
            (closes and moment >= closes) or (event.registration_opens_at and event.registration_opens_at <= moment)
        )
    return event.status == EventStatus.REGISTRATION_OPEN and bool(closes and moment >= closes)


def refresh_status(event: Event) -> Event:
    """For pages: applies a due opening or closing (under the lock) before showing the event."""
    if not _status_change_due(event):
        return event
    with transaction.atomic():
        locked = sync_status(lock_event(event.pk))
    event.status, event.registration_closed_at = locked.status, locked.registration_closed_at
    return event


def registration_refusal(event: Event) -> str | None:
    """Why nobody can enter right now, or None when registration is open."""
    moment = now()
    status = event.status
    if status == EventStatus.DRAFT:
        return "This event is not published yet."
    if status == EventStatus.CANCELLED:
        return "This event has been cancelled."
    if status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED):
        return "This event has already started."
    closes = event.registration_closes_at
    if status == EventStatus.REGISTRATION_CLOSED or (closes and moment >= closes):
        when = local_text(event, event.registration_closed_at or closes)
        return f"Registration closed on {when}." if when else "Registration is closed."
    opens = event.registration_opens_at
    if status == EventStatus.PUBLISHED:
        if opens and opens > moment:
            return f"Registration opens on {local_text(event, opens)}."
        return "Registration is not open yet."
    return None


def _open_event_for_entries(event_id: int) -> Event:
    event = sync_status(lock_event(event_id))
    refusal = registration_refusal(event)
    if refusal:
        raise RegistrationError(refusal)
    return event


def registration_is_open(event: Event) -> bool:
    return registration_refusal(event) is None


# --- registering --------------------------------------------------------------------------------


def _clean_choice(event: Event, category, fee, concession_proof: str, *, proof_needed: bool = True) -> tuple:
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


def _check_rules(event: Event, accept_rules: bool) -> None:
    if event.rules_agreement and not accept_rules:
        raise RegistrationError("Agree to the rules and indemnity to enter.", field="accept_rules")


def _new_entry_status(event: Event, category: Category, current: Places, amount_due: Decimal):
    """Where a new entry goes: a place (pending payment, or confirmed when there is nothing to pay) or the list."""
    common.critical_section()
    if current.has_room(event, category):
        return EntryStatus.CONFIRMED if amount_due <= 0 else EntryStatus.PENDING_PAYMENT
    if not event.keeps_waiting_list:
        raise RegistrationError(f"{category.name} is full and this event keeps no waiting list.", field="category")
    return EntryStatus.WAITLISTED


def _insert_entry(entry: Entry) -> Entry:
    """Saves a new entry; the one-active-entry constraint turns a duplicate into a clear refusal."""
    try:
        with transaction.atomic():
            entry.save(force_insert=True)
    except IntegrityError:
        raise RegistrationError(f"{entry.player} has already entered this event.", field="player") from None
    return entry


def _place_entry(entry: Entry, status: str, moment) -> None:
    entry.status = status
    if status == EntryStatus.PENDING_PAYMENT:
        entry.payment_due_at = moment + timedelta(hours=entry.event.payment_hold_hours)
    elif status == EntryStatus.CONFIRMED:
        entry.confirmed_at = moment


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
        event = _open_event_for_entries(event.pk)
        category, fee, proof = _clean_choice(event, category, fee, concession_proof)
        _check_rules(event, accept_rules)
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
        _place_entry(entry, _new_entry_status(event, category, places(event), amount), moment)
        _insert_entry(entry)
        _mail_entry_received(entry)
    return entry


def register_group(
    actor,
    event: Event,
    *,
    contact: dict,
    students: list[dict],
    accept_rules: bool = False,
) -> GroupEntry:
    """A teacher, parent or guardian enters several students; each becomes an entry of its own.

    `contact`: role, contact_name, school, address, phone, email.
    Each student: full_name, school, phone, member_number (links an existing player; blank makes a
    new one), category, fee, concession_proof, date_of_birth. All are entered, or none.
    """
    if not (actor and actor.is_authenticated):
        raise PermissionDenied("Log in to enter a group.")
    students = [s for s in students if (s.get("full_name") or "").strip() or s.get("member_number")]
    refresh_status(event)
    with transaction.atomic():
        event = _open_event_for_entries(event.pk)
        if not students:
            raise RegistrationError("Enter at least one student.", field="students")
        if len(students) > event.max_group_size:
            raise RegistrationError(
                f"A group entry can have at most {event.max_group_size} students; you entered {len(students)}. "
                "Send the others in a second group entry.",
                field="students",
            )
        for name in ("contact_name", "address", "phone", "email"):
            if not (contact.get(name) or "").strip():
                label = {"contact_name": "your name", "address": "your address", "phone": "a contact number"}
                raise RegistrationError(f"Enter {label.get(name, 'your email address')}.", field=name)
        _check_rules(event, accept_rules)
        moment = now()
        group = GroupEntry(
            event=event,
            submitted_by=actor,
            role=contact.get("role") or GroupEntry.Role.TEACHER,
            contact_name=contact["contact_name"].strip(),
            school=(contact.get("school") or "").strip(),
            address=contact["address"].strip(),
            phone=contact["phone"].strip(),
            email=contact["email"].strip(),
            rules_accepted_at=moment if event.rules_agreement else None,
        )
        group.full_clean()
        group.save()
        numbers = Counter(str(s.get("member_number") or "").strip() for s in students)
        repeated = [n for n, count in numbers.items() if n and count > 1]
        if repeated:
            raise RegistrationError(f"Member {repeated[0]} appears twice in the list.", field="students")
        offer_free_places(event)
        current = places(event)
        entries = []
        for index, student in enumerate(students, start=1):
            name = (student.get("full_name") or "").strip()
            prefix = f"Student {index} ({name})" if name else f"Student {index}"
            try:
                category, fee, proof = _clean_choice(
                    event, student.get("category"), student.get("fee"), student.get("concession_proof", "")
                )
            except RegistrationError as refusal:
                raise RegistrationError(f"{prefix}: {refusal.message}", field="students") from None
            player = _student_player(event, category, student, prefix)
            if Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).exists():
                raise RegistrationError(
                    f"Student {index} ({player.full_name}) has already entered this event.", field="students"
                )
            rating = player_ratings(event, [player.pk]).get(player.pk)
            refusal = category_refusal(
                category,
                player,
                school_level=_declared_level(category, player),
                date_of_birth=student.get("date_of_birth"),
                rating=rating,
                for_self=False,
            )
            if refusal:
                raise RegistrationError(f"Student {index} ({player.full_name}): {refusal}", field="students")
            amount = fee.amount if fee else Decimal("0")
            entry = Entry(
                event=event,
                category=category,
                player=player,
                group=group,
                entered_by=actor,
                accepted_at=moment,
                fee=fee,
                amount_due=amount,
                concession_proof=proof,
                rules_accepted_at=group.rules_accepted_at,
                school=(student.get("school") or group.school or player.school).strip(),
                phone=(student.get("phone") or "").strip(),
            )
            status = _new_entry_status(event, category, current, amount)
            _place_entry(entry, status, moment)
            if status != EntryStatus.WAITLISTED:
                current = current.take(category)
            _insert_entry(entry)
            entries.append(entry)
        mail_after_commit(
            "events/email/group_received.txt",
            f"Entries received: {event.title}",
            [group.email],
            {"event": event, "group": group, "entries": entries, "url": site_url(event.get_absolute_url())},
        )
    return group


def _declared_level(category: Category, player: Player) -> str | None:
    """In a group entry the adult declares the school level the category asks for, unless the record says otherwise."""
    if (
        category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY)
        and player.school_level == SchoolLevel.NONE
    ):
        return category.school_level
    if category.school_level == SchoolLevelRequirement.STUDENT and player.school_level == SchoolLevel.NONE:
        return SchoolLevel.PRIMARY
    return None


def _student_player(event: Event, category: Category, student: dict, prefix: str) -> Player:
    number = str(student.get("member_number") or "").strip()
    if number:
        try:
            return Player.objects.get(member_number=int(number))
        except (ValueError, Player.DoesNotExist):
            raise RegistrationError(
                f"{prefix}: there is no member with number {number}. Leave it blank for a new player.",
                field="students",
            ) from None
    name = (student.get("full_name") or "").strip()
    if not name:
        raise RegistrationError(f"{prefix}: enter the name as on the ID.", field="students")
    level = category.school_level if category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY) else ""
    return create_player(
        full_name=name,
        school=(student.get("school") or "").strip(),
        phone=(student.get("phone") or "").strip(),
        school_level=level or SchoolLevel.NONE,
        date_of_birth=student.get("date_of_birth"),
    )


def replace_group_student(actor, entry: Entry, *, full_name: str, school: str = "", phone: str = "", member_number=""):
    """Puts another student in a group entry's place; allowed until the closing date."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("group", "category", "player").get(pk=entry.pk)
        )
        if not entry.group_id:
            raise RegistrationError("Only an entry made in a group can have its name changed.")
        if not (entry.group.submitted_by_id == actor.id or can_manage_event(actor, event)):
            raise PermissionDenied("Only the person who sent the group entry can change its names.")
        closes = event.registration_closes_at
        if event.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.PUBLISHED) or (closes and now() >= closes):
            raise RegistrationError(
                f"Names can only be changed before the closing date ({local_text(event, closes)}).", field="full_name"
            )
        if not entry.is_active:
            raise RegistrationError("This entry is no longer active.")
        entry.category.event = event
        student = {"full_name": full_name, "school": school, "phone": phone, "member_number": member_number}
        player = _student_player(event, entry.category, student, "The new student")
        if player.pk == entry.player_id:
            return entry
        if Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).exists():
            raise RegistrationError(f"{player.full_name} has already entered this event.", field="full_name")
        rating = player_ratings(event, [player.pk]).get(player.pk)
        refusal = category_refusal(
            entry.category, player, school_level=_declared_level(entry.category, player), rating=rating, for_self=False
        )
        if refusal:
            raise RegistrationError(refusal, field="full_name")
        entry.player = player
        entry.school = school.strip() or entry.school
        entry.phone = phone.strip()
        entry.save(update_fields=["player", "school", "phone"])
    return entry


# --- the waiting list ---------------------------------------------------------------------------


def offer_free_places(event: Event) -> list[Entry]:
    """Offers each free place to the next on the waiting list, in order. Call under the event lock.

    No offers once registration has closed.
    """
    if event.status != EventStatus.REGISTRATION_OPEN or (
        event.registration_closes_at and now() >= event.registration_closes_at
    ):
        return []
    current = places(event)
    # Most calls find the event still full: check that before reading a long waiting list.
    if current.left_in_event(event, list(event.categories.all())) == 0:
        return []
    waiting = list(
        Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED)
        .select_related("category", "player", "group")
        .order_by("accepted_at", "pk")
    )
    if not waiting:
        return []
    moment = now()
    offered = []
    for entry in waiting:
        if not current.has_room(event, entry.category):
            continue
        entry.status = EntryStatus.OFFERED
        entry.offered_at = moment
        entry.offer_expires_at = moment + timedelta(hours=event.offer_hold_hours)
        entry.offer_reminded_at = None
        entry.save(update_fields=["status", "offered_at", "offer_expires_at", "offer_reminded_at"])
        current = current.take(entry.category)
        entry.event = event
        _mail(entry, "offer", f"A place is free for you: {event.title}")
        offered.append(entry)
    return offered


def _own_entry(actor, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "group", "category", "fee")
        .get(pk=entry_id)
    )
    mine = entry.player.user_id == actor.id or (entry.group_id and entry.group.submitted_by_id == actor.id)
    if not (mine or can_manage_event(actor, entry.event)):
        raise PermissionDenied("That is not your entry.")
    return entry


def accept_offer(actor, entry: Entry) -> Entry:
    """Takes the place offered from the waiting list: confirmed, or pending payment when a fee is due."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = _own_entry(actor, entry.pk)
        entry.event = event
        if entry.status != EntryStatus.OFFERED:
            raise RegistrationError(f"There is no offer to accept: this entry is {entry.get_status_display().lower()}.")
        if entry.offer_expires_at and now() >= entry.offer_expires_at:
            raise RegistrationError(f"This offer expired on {local_text(event, entry.offer_expires_at)}.")
        moment = now()
        status = EntryStatus.CONFIRMED if entry.balance <= 0 else EntryStatus.PENDING_PAYMENT
        _place_entry(entry, status, moment)
        entry.save(update_fields=["status", "payment_due_at", "confirmed_at"])
        _mail(entry, "offer_accepted", f"Your place is held: {event.title}")
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
        entry = _own_entry(actor, entry.pk)
        entry.event = event
        if status not in Entry.TRANSITIONS[entry.status]:
            raise RegistrationError(f"This entry is already {entry.get_status_display().lower()}.")
        if event.status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED) and not can_manage_event(actor, event):
            raise RegistrationError("The event has started: ask the tournament director.")
        freed = entry.holds_place
        entry.status = status
        entry.ended_at = now()
        entry.save(update_fields=["status", "ended_at"])
        if freed:
            offer_free_places(event)
    return entry


def _end_overdue(status: str, deadline: str, ended_as: str, template: str, subject: str) -> int:
    """Entries in `status` whose `deadline` has passed become `ended_as`, each told by email; their
    places pass to the next in line. Each event is handled under its lock, so running twice is safe."""
    moment = now()
    overdue = {"status": status, f"{deadline}__lte": moment}
    event_ids = set(Entry.objects.filter(**overdue).values_list("event_id", flat=True))
    ended = 0
    for event_id in event_ids:
        with transaction.atomic():
            event = sync_status(lock_event(event_id))
            due = Entry.objects.select_for_update(of=("self",)).filter(event=event, **overdue)
            for entry in due.select_related("player", "group", "category"):
                entry.status = ended_as
                entry.ended_at = moment
                entry.save(update_fields=["status", "ended_at"])
                entry.event = event
                _mail(entry, template, f"{subject}: {event.title}")
                ended += 1
            offer_free_places(event)
    return ended


def expire_offers() -> int:
    """Offers not taken in time expire; their places pass to the next in line. Safe to run twice."""
    return _end_overdue(
        EntryStatus.OFFERED, "offer_expires_at", EntryStatus.EXPIRED, "offer_expired", "The place offered has passed on"
    )


def remind_expiring_offers() -> int:
    """Tells people whose offer runs out soon (once per offer)."""
    moment = now()
    ids = list(
        Entry.objects.filter(
            status=EntryStatus.OFFERED,
            offer_reminded_at__isnull=True,
            offer_expires_at__gt=moment,
            offer_expires_at__lte=moment + OFFER_REMINDER_BEFORE,
        ).values_list("pk", flat=True)
    )
    sent = 0
    for entry_id in ids:
        with transaction.atomic():
            entry = (
                Entry.objects.select_for_update(of=("self",))
                .select_related("event", "player", "group")
                .get(pk=entry_id)
            )
            if entry.status != EntryStatus.OFFERED or entry.offer_reminded_at:
                continue
            entry.offer_reminded_at = moment
            entry.save(update_fields=["offer_reminded_at"])
            _mail(entry, "offer_reminder", f"Your offered place expires soon: {entry.event.title}")
            sent += 1
    return sent


def lapse_unpaid_entries() -> int:
    """Unpaid entries past their hold time lapse and free their places. Safe to run twice."""
    return _end_overdue(
        EntryStatus.PENDING_PAYMENT, "payment_due_at", EntryStatus.LAPSED, "lapsed", "Your place has lapsed"
    )


def sync_event_statuses() -> int:
    """Opens and closes registration on time for every event due (the pages and services also do it on use)."""
    moment = now()
    due = Event.objects.filter(
        Q(status=EventStatus.PUBLISHED, registration_opens_at__lte=moment)
        | Q(status__in=[EventStatus.PUBLISHED, EventStatus.REGISTRATION_OPEN], registration_closes_at__lte=moment)
    ).values_list("pk", flat=True)
    changed = 0
    for event_id in list(due):
        with transaction.atomic():
            event = lock_event(event_id)
            before = event.status
            if sync_status(event).status != before:
                changed += 1
    return changed


# --- payments and the organiser's work ----------------------------------------------------------


def _amount(value, field: str = "amount") -> Decimal:
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"))
    except (InvalidOperation, TypeError, ValueError):
        raise RegistrationError("Enter an amount, for example 3.00.", field=field) from None
    return amount


def record_payment(actor, entry: Entry, *, amount, method: str, reference: str = "", note: str = "") -> Payment:
    """The organiser records money received; a fully paid entry is confirmed."""
    amount = _amount(amount)
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        require_manager(actor, event, "record payments")
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("player", "group", "category").get(pk=entry.pk)
        )
        entry.event = event
        if amount <= 0:
            raise RegistrationError("The amount must be more than zero.", field="amount")
        if method not in PaymentMethod.values:
            raise RegistrationError("Choose how it was paid.", field="method")
        if method == PaymentMethod.CHEQUE and not reference.strip():
            raise RegistrationError("Enter the cheque number as the reference.", field="reference")
        if entry.status not in (EntryStatus.PENDING_PAYMENT, EntryStatus.CONFIRMED, EntryStatus.OFFERED):
            raise RegistrationError(
                f"This entry is {entry.get_status_display().lower()}: it holds no place to pay for.", field="amount"
            )
        if amount > entry.balance:
            raise RegistrationError(
                f"That is more than the {entry.balance} still due on this entry.",
                field="amount",
            )
        moment = now()
        payment = Payment.objects.create(
            entry=entry,
            amount=amount,
            method=method,
            reference=reference.strip(),
            note=note.strip(),
            recorded_by=actor,
            recorded_at=moment,
        )
        entry.amount_paid += amount
        fields = ["amount_paid"]
        if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
            entry.status = EntryStatus.CONFIRMED
            entry.confirmed_at = moment
            fields += ["status", "confirmed_at"]
        entry.save(update_fields=fields)
        _mail(entry, "payment_recorded", f"Payment received: {event.title}", {"payment": payment})
    return payment


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
        category, fee, _ = _clean_choice(event, category, fee, entry.concession_proof, proof_needed=False)
        if category.pk == entry.category_id and fee == entry.fee:
            return entry
        if entry.holds_place and category.pk != entry.category_id:
            if not places(event).release(entry.category_id).has_room(event, category):
                raise RegistrationError(f"{category.name} has no place left.", field="category")
        entry.category = category
        entry.fee = fee
        entry.amount_due = fee.amount if fee else Decimal("0")
        if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
            entry.status = EntryStatus.CONFIRMED
            entry.confirmed_at = now()
        entry.save(update_fields=["category", "fee", "amount_due", "status", "confirmed_at"])
        offer_free_places(event)
    return entry


def email_entrants(actor, event: Event, *, subject: str, body: str, statuses=None) -> int:
    """The organiser writes to every entrant (by default those holding a place or waiting)."""
    subject, body = (subject or "").strip(), (body or "").strip()
    if not subject:
        raise RegistrationError("Enter a subject.", field="subject")
    if not body:
        raise RegistrationError("Write the message.", field="body")
    require_manager(actor, event, "email the entrants")
    statuses = statuses or ACTIVE_ENTRY_STATUSES
    entries = Entry.objects.filter(event=event, status__in=statuses).select_related("player", "group")
    addresses = sorted({a for e in entries for a in _addresses(e)})
    from ..tasks import send_event_email

    with transaction.atomic():
        for address in addresses:
            transaction.on_commit(lambda a=address: send_event_email.delay(subject, body, [a]))
    return len(addresses)


# --- mail ---------------------------------------------------------------------------------------


def _addresses(entry: Entry) -> list[str]:
    result = [entry.player.email]
    if entry.group_id:
        result.append(entry.group.email)
    return [a for a in result if a]


def _mail(entry: Entry, kind: str, subject: str, extra: dict | None = None) -> None:
    event = entry.event
    context = {
        "entry": entry,
        "event": event,
        "url": site_url(event.get_absolute_url()),
        "entries_url": site_url("/events/my-entries/"),
        "payment_due": local_text(event, entry.payment_due_at),
        "offer_expires": local_text(event, entry.offer_expires_at),
        **(extra or {}),
    }
    mail_after_commit(f"events/email/{kind}.txt", subject, _addresses(entry), context)


def _mail_entry_received(entry: Entry) -> None:
    extra = {"position": waitlist_position(entry)}
    _mail(entry, "entry_received", f"Entry received: {entry.event.title}", extra)


def entries_for_export(event: Event):
    """Rows for the organiser's CSV: every entry in first-come-first-served order."""
    header = [
        "Order",
        "Accepted at",
        "Status",
        "Category",
        "Member number",
        "Name as on ID",
        "School",
        "Phone",
        "Email",
        "Fee",
        "Concession proof",
        "Amount due",
        "Amount paid",
        "Group contact",
    ]
    yield header
    entries = (
        Entry.objects.filter(event=event)
        .select_related("player", "category", "fee", "group")
        .order_by("accepted_at", "pk")
    )
    for number, e in enumerate(entries, start=1):
        yield [
            number,
            timezone.localtime(e.accepted_at, event.zone).strftime("%Y-%m-%d %H:%M:%S"),
            e.get_status_display(),
            e.category.name,
            e.player.member_number,
            e.player.full_name,
            e.school or e.player.school,
            e.phone or e.player.phone,
            e.player.email,
            e.fee.name if e.fee else "",
            e.concession_proof,
            e.amount_due,
            e.amount_paid,
            f"{e.group.contact_name} ({e.group.phone}, {e.group.email})" if e.group_id else "",
        ]
