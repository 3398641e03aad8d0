"""Announcing events: writing them, their categories, fees and prizes. The lifecycle: lifecycle.py; directors:
directors.py."""

from copy import copy
from datetime import datetime, time, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from clubsite.kit.errors import NotAllowed
from clubsite.kit.money import format_money, parse_amount
from clubsite.kit.roles import is_organiser
from clubsite.kit.text import markdown_html
from players.models import Association

from ..models import (
    Category,
    Entry,
    Event,
    EventStatus,
    Fee,
    PaymentMethod,
    Prize,
    PrizeKind,
)
from ..models.event_parts import is_time_zone, validate_sensible_date
from ..permissions import directs_club
from .common import EventError, lock_event, require_manager
from .notify import mail_event_changed
from .offers import offer_free_places
from .places import places
from .status import sync_status

# What an organiser sets on an event, in the order the event form shows it (the form uses this list).
EVENT_FIELDS = (
    "title",
    "organisers",
    "kind",
    "club",
    "club_members_only",
    "starts_on",
    "ends_on",
    "time_zone",
    "venue",
    "address",
    "reporting_time",
    "reporting_until",
    "start_time",
    "estimated_end_time",
    "prize_presentation_time",
    "prize_presentation_until",
    "eligibility",
    "attire",
    "number_of_games",
    "pairing_system",
    "time_control_minutes",
    "lexicon",
    "rules_reference",
    "rated",
    "rating_list",
    "third_rated",
    "bye_spread",
    "forfeit_spread",
    "late_forfeit_spread",
    "ties_stand",
    "ties_by_score_before_tiles",
    "overrun_forfeit",
    "spread_cap",
    "round_spread_caps",
    "contact",
    "description",
    "registration_opens_at",
    "registration_closes_at",
    "max_entrants",
    "keeps_waiting_list",
    "payment_hold_hours",
    "offer_hold_hours",
    "max_group_size",
    "allows_guest_entries",
    "payment_methods",
    "payment_instructions",
    "rule_book_version",
    "rule_amendments",
    "rules_agreement",
    "refund_policy",
    "entrants_public",
    "one_prize_per_player",
    "prize_ties",
    "prize_fund",
    "prize_fund_by_fees",
)
# The API and commands may also name the association (the form leaves it to the service's default).
SERVICE_EVENT_FIELDS = (*EVENT_FIELDS, "association")
CATEGORY_FIELDS = (
    "name",
    "position",
    "quota",
    "school_level",
    "min_age",
    "max_age",
    "min_rating",
    "max_rating",
    "notes",
)
FEE_FIELDS = ("name", "amount", "note", "is_concession", "proof_label", "audience", "until", "position")
PRIZE_FIELDS = (
    "kind",
    "rank_from",
    "rank_to",
    "description",
    "amount",
    "class_min_rating",
    "class_max_rating",
    "position",
)
EDITABLE_STATUSES = (
    EventStatus.DRAFT,
    EventStatus.PUBLISHED,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
    EventStatus.IN_PROGRESS,
)


def _unique_slug(title: str, starts_on) -> str:
    """The title and year ("toa-payoh-rapid-cup-2027"), the year only once when the title names it."""
    base = slugify(title)
    if str(starts_on.year) not in base.split("-"):
        base = f"{base}-{starts_on.year}"
    base = base[:70].strip("-") or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


Problems = list[tuple[str | None, str]]  # (the field at fault or None, what is wrong)


def _clean_event(fields: dict, problems: Problems) -> dict:
    """The fields a door may set, read as the model keeps them; what cannot be read is added to `problems`."""
    fields = {
        k: v for k, v in fields.items() if k in SERVICE_EVENT_FIELDS and (k != "rating_list" or hasattr(Event, k))
    }
    if "title" in fields and not (fields["title"] or "").strip():
        problems.append(("title", "Give the event a title."))
    if not is_time_zone(fields.get("time_zone") or "UTC"):
        problems.append(("time_zone", "Choose a time zone such as Asia/Singapore."))
    methods = fields.get("payment_methods")
    if methods is not None:
        unknown = [m for m in methods if m not in PaymentMethod.values]
        if unknown:
            problems.append(("payment_methods", f"Unknown payment method: {unknown[0]}."))
        fields["payment_methods"] = list(methods)
    return fields


def event_begins_at(event: Event) -> datetime:
    """When play begins, in the event's time zone: its start time, or the end of its first day when none is set."""
    if event.start_time:
        return datetime.combine(event.starts_on, event.start_time, tzinfo=event.zone)
    return datetime.combine(event.starts_on + timedelta(days=1), time.min, tzinfo=event.zone)


def _apply(event: Event, fields: dict) -> None:
    """Sets the fields on the event; a one-day event whose start moves keeps to one day."""
    before_start, before_end = event.starts_on, event.ends_on
    one_day = event.pk and before_start == before_end
    for name, value in fields.items():
        setattr(event, name, value)
    if one_day and event.starts_on != before_start and event.ends_on in (None, before_end):
        event.ends_on = event.starts_on
    if event.starts_on and not event.ends_on:
        event.ends_on = event.starts_on


def _rule_problems(event: Event, skip: set) -> Problems:
    """The announcement's own rules (the model's validators: sensible dates and bounds, a one-line title; the order
    of the dates; places already taken), every broken one at once. A rule reading a field in `skip` (already at
    fault) is left out, so nothing is said twice or judged on a value that was refused."""
    problems: Problems = []
    for field in ("starts_on", "ends_on", "registration_opens_at", "registration_closes_at"):
        try:
            validate_sensible_date(getattr(event, field))
        except ValidationError as error:
            problems.append((field, error.messages[0]))
    skip = skip | {field for field, _ in problems}
    if event.starts_on is None:
        skip |= {"starts_on", "ends_on"}  # no date given: said once, by whoever found it missing

    def judged(*names) -> bool:
        return not skip.intersection(names)

    if judged("starts_on", "ends_on") and event.ends_on < event.starts_on:
        problems.append(("ends_on", "The event cannot end before it starts."))
    opens, closes = event.registration_opens_at, event.registration_closes_at
    if judged("registration_opens_at", "registration_closes_at") and opens and closes and opens >= closes:
        problems.append(("registration_opens_at", "Registration must open before it closes."))
    if (
        judged("registration_closes_at", "starts_on", "start_time", "time_zone")
        and closes
        and closes > event_begins_at(event)
    ):
        problems.append(("registration_closes_at", "Registration must close before the event starts."))
    # The fields found at fault are left out: the table's constraints would say the same again, in its own words.
    skip |= {field for field, _ in problems}
    try:
        event.full_clean(exclude=["slug", "owner", "association", "directors", *skip])
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            problems.extend((None if field == "__all__" else field, message) for message in messages)
    if event.club_members_only and not event.club_id and judged("club", "club_members_only"):
        problems.append(("club", "Choose the club whose members may enter."))
    if event.pk and event.max_entrants is not None and judged("max_entrants"):
        taken = places(event).total
        if taken > event.max_entrants:
            problems.append(("max_entrants", f"{taken} entrants already hold places; the limit cannot be lower."))
    return problems


def event_problems(event: Event | None, fields: dict, skip=()) -> Problems:
    """Everything saving `fields` to `event` (None: a new one) would be refused for, each problem with the field at
    fault, all at once, saving nothing. create_event and update_event refuse with these; the event form shows them
    beside its own, so one submit shows every problem (it took one submit each). `skip`: fields already refused."""
    problems: Problems = []
    fields = _clean_event(fields, problems)
    candidate = copy(event) if event is not None else Event(status=EventStatus.DRAFT)
    _apply(candidate, fields)
    return problems + _rule_problems(candidate, set(skip) | {field for field, _ in problems})


def _same_minute(a: datetime | None, b: datetime) -> bool:
    """The form takes times to the minute; a closing time stored by closing registration by hand has seconds."""
    return a is not None and a.replace(second=0, microsecond=0) == b.replace(second=0, microsecond=0)


def closing_date_warning(event: Event | None, closes_at: datetime | None, now: datetime | None = None) -> str:
    """What to ask an organiser before saving a closing date that has already passed ("" when nothing): registration
    would be over as soon as it opens. Asked, not refused: an event already held is announced to record it. A closing
    date the event already had, or any once its registration is over, is not asked about again (the event is edited
    later)."""
    if closes_at is None or closes_at > (now or timezone.now()):
        return ""
    if event is not None and (event.registration_has_closed or _same_minute(event.registration_closes_at, closes_at)):
        return ""
    return (
        f"This closing date, {closes_at.day} {closes_at:%B %Y, %H:%M}, has already passed: nobody could enter. "
        "Change it, or tick “Keep this closing date” to save it anyway."
    )


def _refuse(problems: Problems) -> None:
    if problems:
        field, message = problems[0]
        raise EventError(message, field=field, problems=problems)


def render_texts(event: Event) -> None:
    """The event's Markdown texts as its pages show them, rendered once here when the event is saved (never on a
    view): each stored beside its source (Event.MARKDOWN_FIELDS). Every door that saves an event's texts calls it.
    Organisers type these texts as plain lines, so a single line break shows as one."""
    for source, rendered in Event.MARKDOWN_FIELDS.items():
        setattr(event, rendered, markdown_html(getattr(event, source), line_breaks=True))


def require_announcer(actor, club) -> None:
    """Organisers announce any event; a club's director, who need not be an organiser, announces their own club's
    events only (a club tournament: its director owns it, so manages and directs it like any organiser)."""
    if is_organiser(actor):
        return
    if club is not None and directs_club(actor, club):
        return
    if club is not None:
        raise NotAllowed("Only organisers and the club's director can announce events of this club.")
    raise NotAllowed("Only organisers can announce events.")


@transaction.atomic
def create_event(actor, **fields) -> Event:
    """An organiser drafts a new event (only they and staff see it until it is published)."""
    problems: Problems = []
    fields = _clean_event(fields, problems)
    require_announcer(actor, fields.get("club"))
    if not fields.get("association"):
        fields["association"] = Association.objects.order_by("pk").first()
    if not fields.get("association"):
        problems.append(("association", "Choose the association."))
    if not fields.get("starts_on"):
        problems.append(("starts_on", "Give the date of the event."))
    event = Event(owner=actor, status=EventStatus.DRAFT)
    _apply(event, fields)
    _refuse(problems + _rule_problems(event, {field for field, _ in problems}))
    event.slug = _unique_slug(event.title, event.starts_on)
    render_texts(event)
    event.save()
    return event


# What entrants are told about when it changes: when and where the event is.
ANNOUNCED_TO_ENTRANTS = ("starts_on", "ends_on", "venue")


def update_event(actor, event: Event, **fields) -> Event:
    """The organiser changes the announcement. A one-day event whose start moves keeps to one day; entrants
    are emailed when the date or venue changes."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "edit this event")
        if event.status not in EDITABLE_STATUSES:
            raise EventError(f"A {event.get_status_display().lower()} event can no longer be changed.")
        problems: Problems = []
        fields = _clean_event(fields, problems)
        if "club" in fields and getattr(fields["club"], "pk", fields["club"]) != event.club_id:
            require_announcer(actor, fields["club"])
        before = {name: getattr(event, name) for name in ANNOUNCED_TO_ENTRANTS}
        _apply(event, fields)
        _refuse(problems + _rule_problems(event, {field for field, _ in problems}))
        render_texts(event)
        event.save()
        sync_status(event)
        offer_free_places(event)
        changed = [name for name, value in before.items() if getattr(event, name) != value]
        if changed and event.status != EventStatus.DRAFT:
            mail_event_changed(event, changed)
    return event


def _decimal(value, field: str, what: str, max_digits: int) -> Decimal | None:
    """A fee's or a prize's amount, as clubsite.kit.money reads every amount (zero is free; never rounded); none
    given is None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return parse_amount(value, field=field, what=what, zero=True, max_digits=max_digits, error=EventError)


def save_category(
    actor, event: Event, category: Category | None = None, *, fees=None, prizes=None, **fields
) -> Category:
    """Creates or changes a category with its fees and prizes.

    `fees` and `prizes` are lists of dicts; a dict with an "id" changes that row, one with "delete"
    removes it, one without "id" adds a row. Rows not mentioned are kept. Every problem of the category and of its
    rows is refused at once (EventError.problems, each with its field), and then nothing is saved: the form showed
    them one submit at a time.
    """
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "change its categories")
        if event.status not in EDITABLE_STATUSES:
            raise EventError(f"A {event.get_status_display().lower()} event can no longer be changed.")
        if category is not None and category.event_id != event.pk:
            raise EventError("That category belongs to another event.")
        category = Category.objects.select_for_update().get(pk=category.pk) if category else Category(event=event)
        fields = {k: v for k, v in fields.items() if k in CATEGORY_FIELDS}
        for name, value in fields.items():
            setattr(category, name, value)
        problems = _category_problems(event, category)
        # Fees and prizes keep the order the organiser gave them in.
        rows = []
        for kind, prepare, given in (("fees", _fee_change, fees), ("prizes", _prize_change, prizes)):
            for i, row in enumerate(given or []):
                try:
                    rows.append(prepare(category, {"position": i, **row}))
                except EventError as error:
                    problems.append((error.field or kind, error.message))
        _refuse(problems)
        category.save()
        for row, change in rows:
            if change == "delete":
                row.delete()
            elif change == "save":
                row.category = category  # a new category's rows were checked before it had a key
                row.save()
        offer_free_places(event)
    return category


def _category_problems(event: Event, category: Category) -> Problems:
    problems: Problems = []
    if not (category.name or "").strip():
        problems.append(("name", "Give the category a name."))
    if category.min_age is not None and category.max_age is not None and category.min_age > category.max_age:
        problems.append(("min_age", "The minimum age is above the maximum."))
    if (
        category.min_rating is not None
        and category.max_rating is not None
        and category.min_rating > category.max_rating
    ):
        problems.append(("min_rating", "The lowest rating is above the highest."))
    if category.pk and category.quota is not None:
        holding = places(event).taken.get(category.pk, 0)
        if category.quota < holding:
            problems.append(("quota", f"{holding} entrants already hold places; the quota cannot be lower."))
    if Category.objects.filter(event=event, name=category.name).exclude(pk=category.pk).exists():
        problems.append(("name", f"There is already a category called {category.name}."))
    # A field already at fault is left out: the model's own validators would say the same again.
    try:
        category.full_clean(exclude=["event", *{field for field, _ in problems}])
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            problems.extend((None if field == "__all__" else field, message) for message in messages)
    return problems


def _fee_change(category: Category, row: dict) -> tuple[Fee, str | None]:
    """The fee a row makes or changes, checked but not saved, with what to do: "save", "delete" or None."""
    fee = Fee.objects.filter(category_id=category.pk, pk=row["id"]).first() if row.get("id") else Fee()
    if fee is None or (row.get("id") and category.pk is None):
        raise EventError("That fee belongs to another category.", field="fees")
    if row.get("delete"):
        if fee.pk and Entry.objects.filter(fee=fee).exists():
            raise EventError(f"The {fee.name} fee has entries; it cannot be removed.", field="fees")
        return fee, "delete" if fee.pk else None
    data = {k: v for k, v in row.items() if k in FEE_FIELDS}
    if "audience" in data:
        data["audience"] = data["audience"] or ""
    if "amount" in data:
        data["amount"] = _decimal(data["amount"], "fees", "fee", Fee._meta.get_field("amount").max_digits)
    if data.get("amount") is None and fee.amount is None:
        raise EventError("Give each fee an amount.", field="fees")
    if not (data.get("name") or fee.name or "").strip():
        raise EventError("Give each fee a name.", field="fees")
    for name, value in data.items():
        setattr(fee, name, value)
    if fee.is_concession and not fee.proof_label:
        fee.proof_label = "concession card number"
    _check_row(fee, "fees", f"Fee {row.get('position', 0) + 1}")
    return fee, "save"


def prize_description(description: str, amount) -> str:
    """The one rule for a prize's description, for the category form, the admin and every other door: a prize
    given only its value is described by the value ("S$100.00"), as the paper's "Shopping voucher S$100" names it;
    a prize with neither is refused (ValidationError) rather than kept as a row that says nothing."""
    description = (description or "").strip()
    if description:
        return description
    if amount is not None:
        return format_money(amount)
    raise ValidationError("Describe the prize (for example Trophy), or give its value.")


def _prize_change(category: Category, row: dict) -> tuple[Prize, str | None]:
    """The prize a row makes or changes, checked but not saved, with what to do: "save", "delete" or None."""
    prize = Prize.objects.filter(category_id=category.pk, pk=row["id"]).first() if row.get("id") else Prize()
    if prize is None or (row.get("id") and category.pk is None):
        raise EventError("That prize belongs to another category.", field="prizes")
    if row.get("delete"):
        return prize, "delete" if prize.pk else None
    data = {k: v for k, v in row.items() if k in PRIZE_FIELDS}
    if "amount" in data:
        data["amount"] = _decimal(data["amount"], "prizes", "prize amount", Prize._meta.get_field("amount").max_digits)
    for name, value in data.items():
        setattr(prize, name, value)
    which = f"Prize {row.get('position', 0) + 1}"
    try:
        prize.description = prize_description(prize.description, prize.amount)
    except ValidationError as error:
        raise EventError(f"{which}: {error.messages[0]}", field="prizes") from None
    if prize.kind == PrizeKind.PLACE and prize.rank_from is None:
        raise EventError("Give the place a prize is for (for example 1, or 6 to 10).", field="prizes")
    if prize.rank_from is not None and prize.rank_to is not None and prize.rank_from > prize.rank_to:
        raise EventError("A prize's ranks must run from the higher place to the lower (6 to 10).", field="prizes")
    _check_row(prize, "prizes", which)
    return prize, "save"


def _check_row(row, field: str, which: str) -> None:
    """A fee's or a prize's own limits (a rank fits its column, a name its length), as for the category: a rank of
    99999999999999999999999 once reached the database and the category page answered a server error."""
    try:
        row.full_clean(exclude=["category"])
    except ValidationError as error:
        name, messages = next(iter(error.message_dict.items()))
        label = "" if name == "__all__" else f" ({row._meta.get_field(name).verbose_name})"
        raise EventError(f"{which}{label}: {messages[0]}", field=field) from None


def delete_category(actor, category: Category) -> None:
    with transaction.atomic():
        event = lock_event(category.event_id)
        require_manager(actor, event, "change its categories")
        if Entry.objects.filter(category=category).exists():
            raise EventError(f"{category.name} has entries: move them to another category first.")
        category.delete()
