"""Group entries: a teacher, parent or guardian enters several students at once, and may change a
student's name before the closing date."""

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.mail import subject
from players import lookup, matching
from players.matching import Person
from players.models import Player, SchoolLevel, birth_date_problem
from players.services import create_player

from ..models import ACTIVE_ENTRY_STATUSES, Category, Entry, EntryStatus, Event, GroupEntry
from ..permissions import can_manage_event
from .common import RegistrationError, local_text, lock_event, mail_after_commit, now, site_url
from .discounts import apply_price, entry_day, event_code, price_entry, usable_code
from .eligibility import declared_level, refusal_for
from .entries import agreement_record, check_rules, clean_choice, prove_member_link, refuse_id_number
from .notify import mail_entered_for_you, pay_url
from .payments import group_reference
from .places import insert_entry, new_entry_status, place_entry, places
from .questions import asked_in, check_answers, event_questions, save_answers
from .status import name_change_refusal, open_event_for_entries, refresh_status, sync_status
from .waitinglist import offer_free_places


def register_group(
    actor,
    event: Event,
    *,
    contact: dict,
    students: list[dict],
    accept_rules: bool = False,
    names_listed: bool = False,
    agreed_version: int | None = None,
) -> GroupEntry:
    """A teacher, parent or guardian enters several students; each becomes an entry of its own.

    `contact`: role, contact_name, school, address, phone, email.
    Each student: full_name, school, phone, member_number (links an existing player, proved by the
    member's date_of_birth; blank asks the one matching rule, players.matching: a student on record with the same
    name and date of birth is entered under that record, one who may be a member is refused with the records to
    choose from (RecordsToChoose; the page offers them to pick, with_records_chosen writes the pick in), and "new"
    says the student is a different person), category, fee, concession_proof, date_of_birth,
    discount_code (or `contact`'s, for every student), `answers` (the organiser's questions, keyed by question id),
    and optionally `row` (how refusals name the student, e.g. "Line 3", and each answer refused names its question:
    the class list's column). All are entered, or none.
    The school is given once in `contact` and used for every student without one of their own.
    Members entered this way are told at once by email, with a link to withdraw.
    `names_listed`: the adult says the students' parents or guardians agreed to list their names on the public
    list of entrants; without it a student under 18 is listed by initials and school (players.visibility).
    `agreed_version`: the rule book version the adult was shown (events.services.entries.check_rules); the group and
    each of its entries record the version agreed to.
    """
    if not (actor and actor.is_authenticated):
        raise NotAllowed("Log in to enter a group.")
    students = [s for s in students if (s.get("full_name") or "").strip() or s.get("member_number")]
    # A discount code given for the group is each student's (one use each), unless a student's own line gives one.
    group_code = (contact.get("discount_code") or "").strip()
    students = [{**s, "discount_code": s.get("discount_code") or group_code} for s in students]
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
        check_rules(event, accept_rules, agreed_version)
        moment = now()
        # A code wrong for the whole group (unknown, another event's, expired) is one refusal of the code field;
        # what depends on the student (their category, the uses left) is judged line by line below.
        event_code(event, group_code, entry_day(event, moment))
        group = GroupEntry(
            event=event,
            submitted_by=actor,
            role=contact.get("role") or GroupEntry.Role.TEACHER,
            contact_name=contact["contact_name"].strip(),
            school=(contact.get("school") or "").strip(),
            address=contact["address"].strip(),
            phone=contact["phone"].strip(),
            email=contact["email"].strip(),
            **agreement_record(event, moment),
        )
        group.full_clean()
        group.save()
        # Every line at fault is named at once, as the class list's own refusals are (a class list with two
        # students already entered was refused one line a submit); nothing is entered until none is.
        problems: list[tuple[int, str]] = []
        numbers = Counter(_given_number(s) for s in students)
        repeated = {n for n, count in numbers.items() if n and count > 1}
        problems.extend((0, f"Member {n} appears twice in the list.") for n in sorted(repeated))
        offer_free_places(event)
        current = places(event)
        entries = []
        for index, student in enumerate(students, start=1):
            label = student.get("row") or f"Student {index}"
            try:
                refuse_id_number(student.get("full_name") or "", "name", label, "students")
            except RegistrationError as refusal:
                problems.append((index, refusal.message))
            if problem := birth_date_problem(student.get("date_of_birth")):
                name = (student.get("full_name") or "").strip()
                problems.append((index, f"{label} ({name}): {problem}" if name else f"{label}: {problem}"))
        problems.extend(_same_child_twice(students))
        at_fault = {index for index, _ in problems}
        at_fault |= {i for i, s in enumerate(students, start=1) if _given_number(s) in repeated}
        known = _records_for(students)
        questions = event_questions(event)
        members = []
        likely: list[tuple[int, str, str, matching.Match]] = []
        for index, student in enumerate(students, start=1):
            if index in at_fault:
                continue
            label = student.get("row") or f"Student {index}"
            try:
                entry = _student_entry(
                    event, group, actor, student, label, current, moment, names_listed, known.get(index), questions
                )
            except LikelyRecord as refusal:
                problems.append((index, refusal.message))
                likely.append((index, label, (student.get("full_name") or "").strip(), refusal.found))
                continue
            except RegistrationError as refusal:
                problems.append((index, refusal.message))
                continue
            if entry.status != EntryStatus.WAITLISTED:
                current = current.take(entry.category)
            entries.append(entry)
            if _given_number(student) or (index in known and known[index].is_sure):
                members.append(entry)  # an existing member is told they were entered
        if problems:
            problems.sort(key=lambda problem: problem[0])
            shown = [message for _, message in problems]
            if likely:
                to_choose = [
                    StudentToChoose(index, label, name, records)
                    for (index, label, name, _), records in zip(
                        likely, lookup.offered(found for *_, found in likely), strict=True
                    )
                ]
                chosen = {student.index for student in to_choose}
                others = [message for index, message in problems if index not in chosen]
                raise RecordsToChoose(" ".join(shown), messages=shown, students=to_choose, others=others)
            raise RegistrationError(" ".join(shown), field="students", messages=shown)
        mail_after_commit(
            "events/email/group_received.txt",
            subject("Entries received", event.title),
            [group.email],
            {
                "event": event,
                "group": group,
                "entries": entries,
                "total": group_total(entries),
                "reference": group_reference(group),
                "pay_by": group_pay_by(event, entries),
                "pay_url": pay_url(group_reference(group)),
                "url": site_url(event.get_absolute_url()),
            },
        )
        for entry in members:
            mail_entered_for_you(entry, f"{group.contact_name} ({group.get_role_display().lower()})")
    return group


def _student_entry(
    event, group, actor, student: dict, label: str, current, moment, names_listed: bool, found=None, questions=()
) -> Entry:
    """One student's entry in a group, inserted, or refused (RegistrationError) naming the student by `label`.
    `found`: the matching rule's answer for a student without a member number (_records_for); `questions`: the
    event's (event_questions)."""
    name = (student.get("full_name") or "").strip()
    prefix = f"{label} ({name})" if name else label
    try:
        category, fee, proof = clean_choice(
            event, student.get("category"), student.get("fee"), student.get("concession_proof", "")
        )
    except RegistrationError as refusal:
        raise RegistrationError(f"{prefix}: {refusal.message}", field="students") from None
    answered = check_answers(asked_in(questions, category), student.get("answers"), prefix)
    student = {**student, "school": (student.get("school") or "").strip() or group.school}
    if not _given_number(student):
        _refuse_child_already_entered(event, student, prefix)
    player = _student_player(event, category, student, prefix, found)
    prefix = f"{label} ({player.full_name})"
    if Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).exists():
        raise RegistrationError(f"{prefix} has already entered this event.", field="students")
    refusal = refusal_for(
        category,
        player,
        school_level=declared_level(category, player),
        date_of_birth=student.get("date_of_birth"),
        for_self=False,
    )
    if refusal:
        raise RegistrationError(f"{prefix}: {refusal}", field="students")
    day = entry_day(event, moment)
    code = student.get("discount_code")
    try:
        discount = usable_code(event, category, code, day) if code else None
        price = price_entry(event, category, fee, player, day=day, code=discount)
    except RegistrationError as refusal:
        raise RegistrationError(f"{prefix}: {refusal.message}", field="students") from None
    amount = price.amount
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
        rules_version_id=group.rules_version_id,
        school=(student.get("school") or group.school or player.school).strip(),
        phone=(student.get("phone") or "").strip(),
        name_listed_on=timezone.localdate() if names_listed else None,
    )
    apply_price(entry, price, discount)
    place_entry(entry, new_entry_status(event, category, current, amount), moment)
    insert_entry(entry)
    save_answers(entry, answered, fresh=True)
    return entry


def group_pay_by(event: Event, entries) -> str:
    """When the group must have paid, as the event's people read it: the first of its unpaid places to lapse."""
    deadlines = [e.payment_due_at for e in entries if e.status == EntryStatus.PENDING_PAYMENT and e.payment_due_at]
    return local_text(event, min(deadlines)) if deadlines else ""


def group_total(entries) -> Decimal:
    """What a group owes in all: the sum of its entries' fees (entries on the waiting list owe nothing yet)."""
    return sum((e.amount_due for e in entries if e.status != EntryStatus.WAITLISTED), Decimal("0"))


# What a teacher writes in the "Member no." column for a student the site thinks may be a member already, but who is
# a different person (the matching rule's "a different person").
NEW_PERSON = "new"


def _given_number(student: dict) -> str:
    """The member number written for the student, or "" (none, or "new")."""
    number = str(student.get("member_number") or "").strip()
    return "" if number.casefold() == NEW_PERSON else number


def _said_new(student: dict) -> bool:
    return str(student.get("member_number") or "").strip().casefold() == NEW_PERSON


def _same_child_key(student: dict):
    """The same child, as the matching rule compares names (players.matching.name_key), born the same day."""
    return (matching.name_key(student.get("full_name") or ""), student.get("date_of_birth"))


def _records_for(students: list[dict]) -> dict[int, matching.Match]:
    """The matching rule's answer for each student without a member number (by index), all read in one query: a
    student the site knows already (same name and date of birth) is entered under that record, never a second."""
    asked = {
        index: Person(full_name=(s.get("full_name") or "").strip(), date_of_birth=s.get("date_of_birth"))
        for index, s in enumerate(students, start=1)
        if not _given_number(s) and not _said_new(s) and (s.get("full_name") or "").strip()
    }
    return dict(zip(asked, lookup.find_people(asked.values()), strict=True))


class LikelyRecord(RegistrationError):
    """A student who may already be a member: the refusal carries the matching rule's answer (`found`)."""

    def __init__(self, message: str, found: matching.Match, field: str = "students") -> None:
        super().__init__(message, field=field)
        self.found = found


@dataclass(frozen=True)
class StudentToChoose:
    """A student of a group who may already be a member, with the records the matching rule found, as the teacher is
    shown them (players.lookup.offered): the teacher picks one, or says the student is a different person."""

    index: int  # the student's place in the list sent (1-based): the place the teacher's answer goes to
    label: str  # as refusals name the student ("Line 3", "Student 2")
    name: str
    records: list[lookup.Offered]


class RecordsToChoose(RegistrationError):
    """A group refused while some of its students may already be members: `students` (StudentToChoose) to answer
    for, and `others`, the list's other problems; `messages` says all of it in words, as a refusal always has."""

    def __init__(self, message: str, *, messages: list[str], students: list[StudentToChoose], others: list[str]):
        super().__init__(message, field="students", messages=messages)
        self.students = students
        self.others = others


def with_records_chosen(students: list[dict], chosen: dict[int, tuple[str, str]]) -> list[dict]:
    """The students with the teacher's answers for those who may already be members (`chosen`: by the student's
    place in the list, the name the records were offered for and the answer, a member number or NEW_PERSON), each
    written in as the row's member number would be, and checked as it is. An answer is dropped when the student at
    that place now has another name (the list was changed since) or already has a member number written in."""
    students = list(students)
    for index, (name, answer) in chosen.items():
        number = answer.isascii() and answer.isdigit() and len(answer) <= 12  # as long as the typed column takes
        if not 1 <= index <= len(students) or not (number or answer == NEW_PERSON):
            continue
        student = students[index - 1]
        if (student.get("full_name") or "").strip() == name and not str(student.get("member_number") or "").strip():
            students[index - 1] = {**student, "member_number": answer}
    return students


def likely_refusal(prefix: str, found: matching.Match) -> str:
    """What the teacher is told when a student may be a member already: the records, with their member numbers, and
    the two answers."""
    one = len(found.likely) == 1
    return (
        f"{prefix} may already be {'a member' if one else 'one of our members'}: {lookup.likely_text(found)}. "
        f"If {'that is' if one else 'one of them is'} the student, write the member number in the row's "
        f"“Member no.”; if the student is a different person, write “{NEW_PERSON}” there."
    )


def _same_child_twice(students: list[dict]) -> list[tuple[int, str]]:
    """The same new child (same name and date of birth) twice in one group is a typing slip, not two entries: each
    repeat, by its index."""
    seen = {}
    problems = []
    for index, student in enumerate(students, start=1):
        if str(student.get("member_number") or "").strip():
            continue
        key = _same_child_key(student)
        if not key[0]:
            continue
        label = student.get("row") or f"Student {index}"
        if key in seen:
            problems.append(
                (
                    index,
                    f"{label} ({student['full_name'].strip()}) is the same child as {seen[key]}: "
                    "same name and date of birth. Remove one of them.",
                )
            )
            continue
        seen[key] = label
    return problems


def _refuse_child_already_entered(event: Event, student: dict, prefix: str) -> None:
    """A new child with the same name and date of birth as someone already entered in the event (by another group,
    or on their own) is that person: a second entry would take a second place and a second fee."""
    key = _same_child_key(student)
    if not key[0] or key[1] is None:
        return
    entered = Entry.objects.filter(
        event=event, status__in=ACTIVE_ENTRY_STATUSES, player__date_of_birth=key[1]
    ).select_related("player", "group")
    for entry in entered:
        if _same_child_key({"full_name": entry.player.full_name, "date_of_birth": entry.player.date_of_birth}) == key:
            by = f" by {entry.group.contact_name}" if entry.group_id else ""
            raise RegistrationError(
                f"{prefix} is already entered in this event{by} (same name and date of birth): "
                "take this line out, or ask the organiser if it is a different child.",
                field="students",
            )


def _student_player(event: Event, category: Category, student: dict, prefix: str, found=None) -> Player:
    """The student's record: the member number's (proved by the date of birth), else the one the matching rule is sure
    of (the same name and date of birth), else a new one, unless records are likely: then the teacher chooses."""
    number = _given_number(student)
    if number:
        try:
            player = Player.objects.get(member_number=int(number))
        except (ValueError, Player.DoesNotExist):
            raise RegistrationError(
                f"{prefix}: there is no member with number {number}. Leave it blank for a new player.",
                field="students",
            ) from None
        try:
            prove_member_link(player, student.get("date_of_birth"), prefix, (student.get("full_name") or "").strip())
        except RegistrationError as refusal:
            raise RegistrationError(refusal.message, field="students") from None
        if player.date_of_birth is None:  # proved by the name: the record learns the date of birth
            player.date_of_birth = student.get("date_of_birth")
            player.save(update_fields=["date_of_birth"])
        return player
    name = (student.get("full_name") or "").strip()
    if not name:
        raise RegistrationError(f"{prefix}: enter the name as on the ID.", field="students")
    if not _said_new(student):
        if found is None:
            found = lookup.find_person(Person(full_name=name, date_of_birth=student.get("date_of_birth")))
        if found.is_sure:
            return Player.objects.get(pk=found.record.id)
        if found.is_likely:
            raise LikelyRecord(likely_refusal(prefix, found), found)
    level = category.school_level if category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY) else ""
    return create_player(
        full_name=name,
        school=(student.get("school") or "").strip(),
        phone=(student.get("phone") or "").strip(),
        school_level=level or SchoolLevel.NONE,
        date_of_birth=student.get("date_of_birth"),
    )


def _made_for_this_entry(player: Player, entry: Entry) -> bool:
    """A record the group entry itself created (no account, no member number given, nothing else
    attached): changing the student's name can update it instead of leaving it behind."""
    return (
        player.user_id is None
        and entry.group_id is not None
        and player.created_at >= entry.group.created_at
        and not player.entries.exclude(pk=entry.pk).exists()
        and not player.seats.exists()
        and not player.games_as_a.exists()
        and not player.games_as_b.exists()
        and not player.memberships.exists()
        and not player.claims.exists()
        and not player.ratings.exists()
        and not player.rating_changes.exists()
    )


def replace_group_student(
    actor,
    entry: Entry,
    *,
    full_name: str,
    school: str = "",
    phone: str = "",
    member_number="",
    date_of_birth=None,
    name_listed: bool = False,
):
    """Puts another student in a group entry's place; allowed until the closing date. `name_listed`: the new
    student's parent or guardian agreed to list their name publicly (the agreement given for the student replaced
    was for that child only).

    A new child takes over the record the group entry made for the student replaced (when nothing else
    uses it); an existing member needs their date of birth as well as the number, and is told by email.
    """
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("group", "category", "player").get(pk=entry.pk)
        )
        if not entry.group_id:
            raise RegistrationError("Only an entry made in a group can have its name changed.")
        if not (entry.group.submitted_by_id == actor.id or can_manage_event(actor, event)):
            raise NotAllowed("Only the person who sent the group entry can change its names.")
        refusal = name_change_refusal(event)
        if refusal:
            raise RegistrationError(refusal, field="full_name")
        if not entry.is_active:
            raise RegistrationError("This entry is no longer active.")
        entry.category.event = event
        refuse_id_number(full_name or "", "name")
        if problem := birth_date_problem(date_of_birth):
            raise RegistrationError(problem, field="date_of_birth")
        school = (school or "").strip() or entry.school
        student = {
            "full_name": full_name,
            "school": school,
            "phone": phone,
            "member_number": member_number,
            "date_of_birth": date_of_birth,
        }
        old = entry.player
        number = _given_number(student)
        found = None
        if not number and not _said_new(student) and (full_name or "").strip():
            # The record made for the student replaced is not a match: it is the one a new name would go on.
            person = Person(full_name=full_name.strip(), date_of_birth=date_of_birth)
            found = lookup.find_person(person, Player.objects.exclude(pk=old.pk))
        known = found is not None and not found.is_new
        reuse = not number and not known and _made_for_this_entry(old, entry)
        if reuse:
            player = _update_new_student(old, entry.category, student)
        else:
            try:
                player = _student_player(event, entry.category, student, "The new student", found)
            except RegistrationError as refusal:
                raise RegistrationError(refusal.message, field="full_name") from None
            if player.pk == entry.player_id:
                return entry
            if Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).exists():
                raise RegistrationError(f"{player.full_name} has already entered this event.", field="full_name")
        refusal = refusal_for(
            entry.category,
            player,
            school_level=declared_level(entry.category, player),
            date_of_birth=date_of_birth,
            for_self=False,
        )
        if refusal:
            raise RegistrationError(refusal, field="full_name")
        entry.player = player
        entry.school = school
        entry.phone = (phone or "").strip()
        entry.name_listed_on = timezone.localdate() if name_listed else None
        entry.save(update_fields=["player", "school", "phone", "name_listed_on"])
        if not reuse and _made_for_this_entry(old, entry):
            old.delete()  # nothing else uses it: no orphan left behind
        if number or (found is not None and found.is_sure):
            mail_entered_for_you(entry, f"{entry.group.contact_name} ({entry.group.get_role_display().lower()})")
    return entry


def _update_new_student(player: Player, category: Category, student: dict) -> Player:
    """The record made for the student replaced becomes the new child's (a new name, same record)."""
    name = (student.get("full_name") or "").strip()
    if not name:
        raise RegistrationError("Enter the name as on the ID.", field="full_name")
    player.full_name = name
    player.display_name = ""
    player.school = student.get("school") or player.school
    player.phone = (student.get("phone") or "").strip()
    player.date_of_birth = student.get("date_of_birth")
    if category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY):
        player.school_level = category.school_level
    player.save(update_fields=["full_name", "display_name", "school", "phone", "date_of_birth", "school_level"])
    return player
