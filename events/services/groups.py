"""Group entries: a teacher, parent or guardian enters several students at once, and may change a
student's name before the closing date."""

from collections import Counter
from decimal import Decimal

from django.db import transaction

from clubsite.errors import PermissionDenied
from players.models import Player, SchoolLevel
from players.services import create_player

from ..models import ACTIVE_ENTRY_STATUSES, Category, Entry, EntryStatus, Event, EventStatus, GroupEntry
from ..permissions import can_manage_event
from .common import RegistrationError, local_text, lock_event, mail_after_commit, now, site_url
from .eligibility import category_refusal, declared_level
from .entries import check_rules, clean_choice
from .places import insert_entry, new_entry_status, place_entry, places, player_ratings
from .status import open_event_for_entries, refresh_status, sync_status
from .waitinglist import offer_free_places


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
        event = open_event_for_entries(event.pk)
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
        check_rules(event, accept_rules)
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
                category, fee, proof = clean_choice(
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
                school_level=declared_level(category, player),
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
            status = new_entry_status(event, category, current, amount)
            place_entry(entry, status, moment)
            if status != EntryStatus.WAITLISTED:
                current = current.take(category)
            insert_entry(entry)
            entries.append(entry)
        mail_after_commit(
            "events/email/group_received.txt",
            f"Entries received: {event.title}",
            [group.email],
            {"event": event, "group": group, "entries": entries, "url": site_url(event.get_absolute_url())},
        )
    return group


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
            entry.category, player, school_level=declared_level(entry.category, player), rating=rating, for_self=False
        )
        if refusal:
            raise RegistrationError(refusal, field="full_name")
        entry.player = player
        entry.school = school.strip() or entry.school
        entry.phone = phone.strip()
        entry.save(update_fields=["player", "school", "phone"])
    return entry
