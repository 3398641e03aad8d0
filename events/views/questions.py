"""The organiser's questions (writing them) and an entry's answers (changing them until the closing date)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.ui import run_service

from .. import services
from ..answers import shown_answer
from ..forms.questions import AnswersForm, QuestionForm, question_initial
from ..models import Entry, Question
from .common import _categories, _managed_event


@login_required
def questions(request, slug: str, pk: int | None = None):
    """The event's questions, each with how many entries answered it, and the form adding one (or changing one:
    `pk`)."""
    event = _managed_event(request, slug)
    question = get_object_or_404(Question, pk=pk, event=event) if pk else None
    categories = _categories(event)
    initial = question_initial(question) if question else {}
    form = QuestionForm(request.POST or None, categories=categories, initial=initial)
    if request.method == "POST" and form.is_valid():
        saved = run_service(
            request,
            lambda: services.save_question(request.user, event, question, **form.service_fields()),
            form=form,
            success="Question saved." if question else "Question added.",
        )
        if saved:
            return redirect("events:questions", event.slug)
    context = {
        "event": event,
        "question": question,
        "questions": services.question_summaries(event),
        "form": form,
    }
    return render(request, "events/questions.html", context)


@login_required
@require_POST
def delete_question(request, slug: str, pk: int):
    event = _managed_event(request, slug)
    question = get_object_or_404(Question, pk=pk, event=event)
    run_service(request, lambda: services.delete_question(request.user, question), success="Question removed.")
    return redirect("events:questions", event.slug)


@login_required
def entry_answers(request, pk: int):
    """An entry's answers to the organiser's questions: the entrant, the adult who entered them and the organiser
    change them until the closing date; then they are shown, read-only."""
    entry = get_object_or_404(Entry.objects.select_related("event", "player", "group", "category"), pk=pk)
    if not services.may_answer_for(request.user, entry):
        raise Http404("No such entry")
    event = entry.event
    services.refresh_status(event)
    asked = services.asked_in(services.event_questions(event), entry.category_id)
    stored = {pk: answer.value for pk, answer in services.answers_by_entry([entry.pk]).get(entry.pk, {}).items()}
    refusal = services.answers_refusal(event) or (None if entry.is_active else "This entry is no longer active.")
    form = AnswersForm(request.POST or None, questions=asked, answers=stored, read_only=bool(refusal))
    if request.method == "POST" and not refusal and form.is_valid():
        given = {q.pk: form.cleaned_data.get(q.field_name) for q in asked}
        if run_service(
            request,
            lambda: services.change_answers(request.user, entry, given),
            form=form,
            success="The answers are saved.",
        ):
            return redirect("events:entry_answers", entry.pk)
    shown = [(q.label, shown_answer(q.kind, stored.get(q.pk, ""))) for q in asked]
    context = {"entry": entry, "event": event, "form": form, "refusal": refusal, "asked": asked, "shown": shown}
    return render(request, "events/entry_answers.html", context)
