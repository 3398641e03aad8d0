"""The organiser's list of entries as rows for a CSV file (written by clubsite.kit.csv, which makes every cell
formula-safe), filtered as the manage page filters its list."""

from django.db.models import QuerySet
from django.utils import timezone

from ..answers import shown_answer
from ..models import PAYABLE_STATUSES, Answer, Entry, EntryStatus, Event
from .payments import entry_reference
from .questions import event_questions


def filter_entries(entries: QuerySet, status: str = "", category: str = "") -> QuerySet:
    """The one reading of the manage page's filters, for its list and its CSV alike: a status and a category by id;
    anything else (empty, unknown) filters nothing, as the page's own "All" does."""
    if status in EntryStatus.values:
        entries = entries.filter(status=status)
    category = str(category or "")
    if category.isascii() and category.isdigit() and len(category) < 16:
        entries = entries.filter(category_id=int(category))
    return entries


def entries_for_export(event: Event, *, status: str = "", category: str = ""):
    """Rows for the organiser's CSV: the header, then the entries (all, or those the filters keep) in
    first-come-first-served order. An entry that holds no place (waiting, withdrawn, lapsed …) is charged nothing:
    its amount due is empty. "Held" is the money paid under the entry's own reference that counts for no place (a
    withdrawn entry's refund due, more than was due), as the event's money page holds it; a group's is under the
    group's reference, on the group's page. Then one column per organiser's question (headed by its wording), each
    entry's answer as the pages show it (empty where not asked or not answered)."""
    from money.services.reports import held_by_reference

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
        "Held",
        "Group contact",
        "Rules agreed to",
        "Discount code",
        "Discount",
        "Free place",
    ]
    questions = event_questions(event)
    yield header + [question.label for question in questions]
    entries = filter_entries(
        Entry.objects.filter(event=event).select_related(
            "player", "category", "fee", "group", "guest", "rules_version__book", "discount_code"
        ),
        status,
        category,
    ).order_by("accepted_at", "pk")
    held = held_by_reference(None, event_id=event.pk)
    answers = _answers_of(event) if questions else {}
    for number, e in enumerate(entries, start=1):
        given = answers.get(e.pk, {})
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
            e.amount_due if e.status in PAYABLE_STATUSES else "",
            e.amount_paid,
            held.get(entry_reference(e), ""),
            _contact(e),
            agreed_to(e),
            e.discount_code.code if e.discount_code_id else "",
            e.discount or "",
            e.free_place,
            # The organiser's questions come last, one column each, under their headings at the header's end.
            *(shown_answer(q.kind, given.get(q.pk, "")) for q in questions),
        ]


def agreed_to(entry: Entry) -> str:
    """What the entrant agreed to, for the organiser: the rule book version, or the event's own rules and indemnity
    (an entry made while the event named no rule book), or nothing."""
    if entry.rules_version_id:
        return str(entry.rules_version)
    return "The event's rules and indemnity" if entry.rules_accepted_at else ""


def _answers_of(event: Event) -> dict[int, dict[int, str]]:
    """Every answer of the event's entries, in one query: {entry id: {question id: stored value}}."""
    found: dict[int, dict[int, str]] = {}
    for entry_id, question_id, value in Answer.objects.filter(entry__event=event).values_list(
        "entry_id", "question_id", "value"
    ):
        found.setdefault(entry_id, {})[question_id] = value
    return found


def _contact(entry) -> str:
    """Who to contact about an entry someone else made: the group's adult, or whoever entered without an account."""
    if entry.group_id:
        return f"{entry.group.contact_name} ({entry.group.phone}, {entry.group.email})"
    if entry.guest_id:
        return f"{entry.guest.contact_name} ({entry.guest.entered_as}, without an account, {entry.guest.email})"
    return ""
