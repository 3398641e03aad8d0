"""Copying an event to start the next one: its settings and categories with their fees and prizes, and the organiser's
questions, every date moved on by a year, as a draft the copier owns and edits before publishing. Nothing that happened
at the event (entries, groups, divisions, rounds, money, directors, answers) is copied."""

import re
from datetime import date, datetime

from django.db import models, transaction
from django.utils import timezone

from ..models import Category, Event, EventStatus, Question
from .announcements import _refuse, _rule_problems, _unique_slug, render_texts, require_announcer
from .common import EventError, require_manager

# The event's own record of what happened to it, and who owns and directs it: the copy starts afresh.
EVENT_NOT_COPIED = frozenset(
    {
        "id",
        "slug",
        "owner",
        "status",
        "created_at",
        "updated_at",
        "published_at",
        "registration_closed_at",
        "cancelled_at",
        "cancellation_reason",
    }
)

# A year in a title ("Students' Championship 2025", "2025/26"): four digits standing alone.
YEAR_IN_TITLE = re.compile(r"(?<!\d)(20\d\d)(?!\d)")


def moved_date(day: date, years: int) -> date:
    """The same day `years` later; 29 February becomes 28 February in a year without it."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def moved_moment(moment: datetime, years: int, zone) -> datetime:
    """The same wall-clock time on the same day `years` later, as people at the event read it (its time zone)."""
    local = timezone.localtime(moment, zone)
    return local.replace(year=local.year + years, day=moved_date(local.date(), years).day)


def moved_title(title: str, years: int) -> str:
    """The title with each year in it moved on ("… 2025" becomes "… 2026"); a title naming no year is kept."""
    return YEAR_IN_TITLE.sub(lambda m: str(int(m.group(1)) + years), title)


def _clone(row: models.Model, years: int, zone, skip=frozenset(), **values) -> models.Model:
    """An unsaved copy of `row`: every column but its key, those in `skip` and those kept by the clock (auto_now);
    each date and moment moved on by `years`. A column another part adds later is copied (and moved, if a date)
    without a line here."""
    copy = type(row)()
    for field in row._meta.concrete_fields:
        if field.primary_key or field.name in skip or getattr(field, "auto_now", False):
            continue
        if getattr(field, "auto_now_add", False):
            continue
        value = getattr(row, field.attname)
        if value is not None and isinstance(field, models.DateTimeField):
            value = moved_moment(value, years, zone)
        elif value is not None and isinstance(field, models.DateField):
            value = moved_date(value, years)
        setattr(copy, field.attname, value)
    for name, value in values.items():
        setattr(copy, name, value)
    return copy


def _copy_categories(source: Event, copy: Event, years: int) -> dict[int, Category]:
    """Each category with its fees and prizes, in their order (three inserts however many there are); the copy's
    category of each of the source's, by its key, for the parts that belong to a category."""
    categories = list(source.categories.prefetch_related("fees", "prizes").order_by("position", "pk"))
    new = Category.objects.bulk_create([_clone(c, years, source.zone, event=copy) for c in categories])
    fees, prizes = [], []
    for old, made in zip(categories, new, strict=True):
        fees += [_clone(fee, years, source.zone, category=made) for fee in old.fees.all()]
        prizes += [_clone(prize, years, source.zone, category=made) for prize in old.prizes.all()]
    if fees:
        type(fees[0]).objects.bulk_create(fees)
    if prizes:
        type(prizes[0]).objects.bulk_create(prizes)
    return {old.pk: made for old, made in zip(categories, new, strict=True)}


def copy_rows(rows, source: Event, copy: Event, years: int, categories: dict[int, Category], **values) -> None:
    """Rows of the source event's (`rows`: a queryset of a table with an `event`, and maybe a `category`), copied
    for the copy in one insert: each for the copy, and for the copy's category where it was for one of the source's;
    its dates moved on; `values` set on each (who made it, for one)."""
    made = []
    for row in rows:
        category = {"category": categories[row.category_id]} if getattr(row, "category_id", None) else {}
        made.append(_clone(row, years, source.zone, event=copy, **category, **values))
    if made:
        type(made[0]).objects.bulk_create(made)


def _copy_questions(source: Event, copy: Event, years: int, categories: dict[int, Category]) -> None:
    """The organiser's questions, each category's on that category's copy; their answers stay with the entries."""
    copy_rows(Question.objects.filter(event=source).order_by("position", "pk"), source, copy, years, categories)


# What comes with the event beyond its own settings and categories, each copied by one function (source, copy, years,
# the copy's categories by the source's keys). A part of the announcement kept in a table of its own (questions,
# discount codes) adds its line here, usually through copy_rows.
PARTS: tuple = (_copy_questions,)


def copy_event(actor, event: Event, *, title: str | None = None, years: int = 1) -> Event:
    """A draft copy of `event` owned by `actor` (who manages it and may announce its events: its organiser, or
    staff), to edit and publish as the next one: every setting, the categories with their fees and prizes, the
    organiser's questions, each date (the event's, registration's) moved on by `years`, a year in the title moved on
    too (or `title` if given).
    Entries, groups, divisions, rounds, money and directors are not copied. All of it is saved, or (refused) none of
    it."""
    require_manager(actor, event, "copy this event")
    require_announcer(actor, event.club)
    if not 1 <= years <= 10:
        raise EventError("Move the dates on by 1 to 10 years.", field="years")
    with transaction.atomic():
        source = Event.objects.select_related("association").get(pk=event.pk)
        copy = _clone(source, years, source.zone, skip=EVENT_NOT_COPIED, owner=actor, status=EventStatus.DRAFT)
        copy.title = (title or "").strip() or moved_title(source.title, years)
        problems = [] if copy.title else [("title", "Give the event a title.")]
        _refuse(problems + _rule_problems(copy, {field for field, _ in problems}))
        copy.slug = _unique_slug(copy.title, copy.starts_on)
        render_texts(copy)
        copy.save()
        categories = _copy_categories(source, copy, years)
        for part in PARTS:
            part(source, copy, years, categories)
    return copy
