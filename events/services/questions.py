"""The organiser's questions and the entrants' answers: writing a question, answering on entering (alone, in a group,
in a class list, through the API), changing the answers until the closing date, and reading them for the organiser's
pages, the CSV and the API.

Editing a question never loses an answer: once a question has answers its kind and its category stay as they are
(the organiser adds a new question instead), a choice somebody chose stays among the choices, and the question
cannot be deleted. Its wording, help text, whether it is required and its place in the form may change at any time.
"""

from collections import defaultdict

from django.db import transaction
from django.db.models import Count, Max, Q

from clubsite.kit.errors import NotAllowed
from events import answers as rules

from ..models import Answer, Category, Entry, Event, Question
from ..permissions import can_manage_event
from .announcements import EDITABLE_STATUSES
from .common import EventError, RegistrationError, lock_event, require_manager
from .status import name_change_refusal, sync_status


def event_questions(event: Event) -> list[Question]:
    """Every question of the event, in the form's order (the event's own and each category's)."""
    return list(Question.objects.filter(event=event).select_related("category").order_by("position", "pk"))


def asked_in(questions, category) -> list[Question]:
    """The questions an entrant of `category` (a Category or its id) answers: the event's own and the category's."""
    category_id = getattr(category, "pk", category)
    return [q for q in questions if q.category_id is None or q.category_id == category_id]


def save_question(
    actor,
    event: Event,
    question: Question | None = None,
    *,
    kind: str,
    label: str,
    help_text: str = "",
    required: bool = False,
    choices=(),
    category: Category | int | None = None,
    position: int | None = None,
) -> Question:
    """Adds a question to the event (or one of its categories), or changes one. Every problem is refused at once
    (EventError.problems, each with its field); an answered question keeps its kind, its category and every choice
    somebody chose (see the module's docstring)."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "change its questions")
        if event.status not in EDITABLE_STATUSES:
            raise EventError(f"A {event.get_status_display().lower()} event's questions can no longer be changed.")
        if question is not None:
            question = Question.objects.select_for_update().filter(pk=question.pk, event=event).first()
            if question is None:
                raise EventError("That question belongs to another event.")
        label, help_text = " ".join((label or "").split()), (help_text or "").strip()
        choices = rules.choice_list(choices)
        category_id = getattr(category, "pk", category) or None
        problems = question_change_problems(event, question, kind, label, help_text, choices, category_id)
        question = question or Question(event=event)
        if problems:
            raise EventError(problems[0][1], field=problems[0][0], problems=problems)
        if position is None and question.pk is None:
            last = Question.objects.filter(event=event).aggregate(last=Max("position"))["last"]
            position = 0 if last is None else last + 1
        question.kind, question.label, question.help_text = kind, label, help_text
        question.required, question.choices, question.category_id = bool(required), choices, category_id
        if position is not None:
            question.position = max(0, min(int(position), 10_000))
        question.save()
    return question


def question_change_problems(
    event: Event, question: Question | None, kind: str, label: str, help_text: str, choices: list, category_id
) -> list[tuple[str | None, str]]:
    """Everything wrong with a question as written (new, or a change to `question`), each (field, message): the
    one check of the organiser's page, the admin and save_question."""
    problems: list[tuple[str | None, str]] = list(rules.question_problems(kind, label, help_text, choices))
    if category_id is not None and not Category.objects.filter(pk=category_id, event=event).exists():
        problems.append(("category", "That category is not part of this event."))
    if question is None or question.pk is None:
        if Question.objects.filter(event=event).count() >= rules.MAX_QUESTIONS:
            problems.append((None, f"An event can have at most {rules.MAX_QUESTIONS} questions."))
    else:
        problems += _answered_problems(question, kind, category_id, choices)
    return problems


def _answered_problems(question: Question, kind: str, category_id, choices: list[str]) -> list[tuple[str, str]]:
    """What a change would do to the answers already given: refused rather than lose or misread any of them."""
    answers = Answer.objects.filter(question=question)
    count = answers.count()
    if not count:
        return []
    given = f"{count} entr{'y has' if count == 1 else 'ies have'} answered it"
    problems = []
    if kind != question.kind:
        problems.append(("kind", f"{given}: its kind stays {question.get_kind_display().lower()}. Add a new question."))
    if category_id != question.category_id:
        problems.append(("category", f"{given}: it stays where it is asked. Add a new question instead."))
    if question.kind in (rules.CHOICE, rules.CHOICES) and kind == question.kind:
        chosen = set()
        for value in answers.values_list("value", flat=True):
            chosen.update(value.split("\n"))
        missing = sorted(c for c in chosen if c and c not in choices)
        if missing:
            problems.append(
                ("choices", f"{given}: keep the choices somebody chose ({'; '.join(missing)}), or add new ones.")
            )
    return problems


def delete_question(actor, question: Question) -> None:
    with transaction.atomic():
        event = lock_event(question.event_id)
        require_manager(actor, event, "change its questions")
        count = Answer.objects.filter(question=question).count()
        if count:
            raise EventError(
                f"“{question.label}” has {count} answer{'' if count == 1 else 's'}: it stays, so they are kept. "
                "Change its wording or make it optional instead."
            )
        question.delete()


def check_answers(questions, given: dict | None, who: str = "", error=RegistrationError) -> dict[int, str]:
    """The answers to `questions` (those asked of the entry: asked_in), each read by the one rule
    (events.answers.clean_answer), keyed by the question's id; answers to other questions are ignored. `given` is
    keyed by a question's id (an int, or its text) or its input's name (q_12). Every problem is refused at once,
    each naming the question, after `who` ("Line 3 (Ann Lee)") when given, on the question's input."""
    given = given or {}
    by_key = {}
    for key, value in given.items():
        text = str(key)
        by_key[text[2:] if text.startswith("q_") else text] = value
    cleaned, problems = {}, []
    for question in questions:
        try:
            value = rules.clean_answer(question.spec, by_key.get(str(question.pk)))
        except rules.AnswerError as refusal:
            lead = f"{who}: " if who else ""
            problems.append((question.field_name, f"{lead}{question.label}: {refusal}"))
            continue
        cleaned[question.pk] = value
    if problems:
        raise error(" ".join(m for _, m in problems), field=problems[0][0], problems=problems)
    return cleaned


def save_answers(entry: Entry, cleaned: dict[int, str], questions=(), *, fresh: bool = False) -> list[Answer]:
    """Writes an entry's answers (check_answers' result) in the caller's transaction: an empty answer is none.
    `fresh`: the entry was just made, so it has no answers yet. Returns the answers written new, each with its question
    from `questions`, for the caller's response to show without reading them again."""
    if not cleaned:
        return []
    existing = {}
    if not fresh:
        Answer.objects.filter(entry=entry, question_id__in=[pk for pk, value in cleaned.items() if not value]).delete()
        existing = {a.question_id: a for a in Answer.objects.filter(entry=entry, question_id__in=list(cleaned))}
    by_id = {q.pk: q for q in questions}
    new, changed = [], []
    for pk, value in cleaned.items():
        if not value:
            continue
        if pk in existing:
            if existing[pk].value != value:
                existing[pk].value = value
                changed.append(existing[pk])
        else:
            new.append(Answer(entry=entry, question_id=pk, value=value))
            if pk in by_id:
                new[-1].question = by_id[pk]
    Answer.objects.bulk_create(new)
    for answer in changed:
        answer.save(update_fields=["value", "updated_at"])
    return new


def may_answer_for(actor, entry: Entry) -> bool:
    """The entrant, the adult who sent the entry's group, and the event's managers."""
    return bool(
        actor
        and actor.is_authenticated
        and (
            entry.player.user_id == actor.id
            or (entry.group_id and entry.group.submitted_by_id == actor.id)
            or can_manage_event(actor, entry.event)
        )
    )


def answers_refusal(event: Event) -> str | None:
    """Why answers can no longer be changed (registration has closed), or None: the one rule of the page and the
    service."""
    return name_change_refusal(event, "answers")


def change_answers(actor, entry: Entry, given: dict) -> Entry:
    """The entrant (or the adult who sent their group, or the organiser) changes the entry's answers, until the
    closing date; all are saved, or none."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("player", "group", "category").get(pk=entry.pk)
        )
        entry.event = event
        if not may_answer_for(actor, entry):
            raise NotAllowed("Only the entrant, the adult who entered them, or the organiser can change the answers.")
        if refusal := answers_refusal(event):
            raise RegistrationError(refusal)
        if not entry.is_active:
            raise RegistrationError("This entry is no longer active: its answers stay as they were.")
        cleaned = check_answers(asked_in(event_questions(event), entry.category_id), given)
        save_answers(entry, cleaned)
    return entry


def answers_by_entry(entry_ids) -> dict[int, dict[int, Answer]]:
    """The answers of these entries, in one query: {entry id: {question id: answer}}."""
    found: dict[int, dict[int, Answer]] = defaultdict(dict)
    for answer in Answer.objects.filter(entry_id__in=list(entry_ids)).select_related("question"):
        found[answer.entry_id][answer.question_id] = answer
    return found


def with_shown_answers(entries, questions) -> list:
    """Each entry with `shown_answers`: (question, answer as shown) for every question asked of it, in the form's
    order ("" unanswered); the answers read in one query."""
    entries = list(entries)
    found = answers_by_entry([e.pk for e in entries]) if questions else {}
    for entry in entries:
        given = found.get(entry.pk, {})
        entry.shown_answers = [
            (q, rules.shown_answer(q.kind, given[q.pk].value) if q.pk in given else "")
            for q in asked_in(questions, entry.category_id)
        ]
    return entries


def question_summaries(event: Event) -> list[Question]:
    """The event's questions for its organiser's page, each with how many entries answered it (`answered`)."""
    return list(
        Question.objects.filter(event=event)
        .select_related("category")
        .annotate(answered=Count("answers", filter=Q(answers__value__gt="")))
        .order_by("position", "pk")
    )
