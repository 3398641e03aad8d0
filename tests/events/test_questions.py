"""The organiser's questions on the entry forms, at every door: the organiser writes them (never losing an answer by
changing one), a player answers on the entry form and through the API, a teacher for each student and in a pasted
class list (by column, a bad answer named by line and column, nothing half-saved), everyone changes their answers
until the closing date and not after, and the organiser reads them on the dashboard, in the CSV and in the API."""

import csv
import io
from datetime import timedelta

import pytest
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import Answer, Entry, EventStatus, Question
from events.services import EventError, RegistrationError
from tests.events.factories import CategoryFactory, fast_passwords, open_event, player_with_account  # noqa: F401
from tests.events.test_entry_doors import contact, pupil_born, standard, students_event
from tests.events.test_entry_pages import group_form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def ask(event, label="Emergency contact", kind="short", **fields):
    return services.save_question(event.owner, event, kind=kind, label=label, **fields)


def answers_of(entry) -> dict[str, str]:
    return {a.question.label: a.value for a in Answer.objects.filter(entry=entry).select_related("question")}


# --- the organiser writes the questions ------------------------------------------------------------


def test_the_organiser_adds_a_question_on_the_events_page_and_nobody_else_may(client):
    event, category, _ = open_event()
    client.force_login(event.owner)
    url = reverse("events:questions", args=[event.slug])
    response = client.post(
        url, {"label": "T-shirt size", "kind": "choice", "choices": "S\nM\nL", "required": "on", "category": ""}
    )
    assert response.status_code == 302
    question = Question.objects.get()
    assert (question.label, question.kind, question.choices, question.required) == (
        "T-shirt size",
        "choice",
        ["S", "M", "L"],
        True,
    )
    page = client.get(url).content.decode()
    assert "T-shirt size" in page and "S; M; L" in page
    refused = client.post(url, {"label": "Size", "kind": "choice", "choices": "only one"})
    assert "Give at least two choices" in refused.content.decode() and Question.objects.count() == 1
    with pytest.raises(NotAllowed):
        services.save_question(UserFactory(), event, kind="short", label="Sneaky")


def test_a_category_of_another_event_is_refused():
    event, _, _ = open_event()
    other, _, _ = open_event()
    with pytest.raises(EventError, match="not part of this event"):
        ask(event, category=other.categories.get())


def test_an_answered_question_keeps_its_kind_category_and_chosen_choices_and_stays():
    event, category, (fee,) = open_event()
    question = ask(event, "Diet", kind="choice", choices=["None", "Vegetarian", "Halal"])
    player = player_with_account()
    services.register_entry(player.user, event, category=category, fee=fee, answers={question.pk: "Halal"})
    with pytest.raises(EventError) as refused:
        services.save_question(event.owner, event, question, kind="short", label="Diet", choices=[])
    assert "its kind stays one choice" in refused.value.message
    with pytest.raises(EventError, match=r"keep the choices somebody chose \(Halal\)"):
        services.save_question(event.owner, event, question, kind="choice", label="Diet", choices=["None", "Vegan"])
    with pytest.raises(EventError, match="it stays where it is asked"):
        services.save_question(
            event.owner, event, question, kind="choice", label="Diet", choices=["Halal", "None"], category=category
        )
    with pytest.raises(EventError, match="has 1 answer"):
        services.delete_question(event.owner, question)
    # Its wording, its help, whether it is required and new choices may change: the answer still reads as it was.
    services.save_question(
        event.owner,
        event,
        question,
        kind="choice",
        label="Dietary needs",
        choices=["Halal", "None", "Vegan"],
        required=True,
        help_text="For lunch",
    )
    assert answers_of(Entry.objects.get()) == {"Dietary needs": "Halal"}


def test_an_unanswered_question_is_removed():
    event, _, _ = open_event()
    question = ask(event)
    services.delete_question(event.owner, question)
    assert not Question.objects.exists()


# --- answering: one player ----------------------------------------------------------------------------


def test_a_required_answer_missing_refuses_the_entry_and_nothing_is_saved():
    event, category, (fee,) = open_event()
    question = ask(event, required=True)
    player = player_with_account()
    with pytest.raises(RegistrationError) as refused:
        services.register_entry(player.user, event, category=category, fee=fee, answers={})
    assert refused.value.message == "Emergency contact: this question needs an answer."
    assert refused.value.field == question.field_name
    assert not Entry.objects.exists()
    entry = services.register_entry(
        player.user, event, category=category, fee=fee, answers={str(question.pk): " Mr Lim  9123 4567 "}
    )
    assert answers_of(entry) == {"Emergency contact": "Mr Lim 9123 4567"}


def test_a_categorys_question_is_asked_only_of_its_entrants():
    event, open_category, (fee,) = open_event()
    juniors = CategoryFactory(event=event, name="Juniors")
    ask(event, "School", category=juniors, required=True)
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=open_category, fee=fee)
    assert answers_of(entry) == {}


def test_the_entry_form_asks_the_questions_and_names_the_one_unanswered(client):
    event, category, (fee,) = open_event()
    question = ask(event, required=True, help_text="Someone we can call on the day")
    size = ask(event, "T-shirt size", kind="choices", choices=["S", "M", "L"])
    player = player_with_account()
    client.force_login(player.user)
    url = reverse("events:enter", args=[event.slug])
    page = client.get(url).content.decode()
    assert "Emergency contact *" in page and "Someone we can call on the day" in page
    option = f"{category.pk}:{fee.pk}"
    refused = client.post(url, {"option": option, question.field_name: ""}).content.decode()
    assert "Emergency contact: this question needs an answer." in refused and not Entry.objects.exists()
    client.post(url, {"option": option, question.field_name: "Mr Lim 9123 4567", size.field_name: ["S", "L"]})
    assert answers_of(Entry.objects.get()) == {"Emergency contact": "Mr Lim 9123 4567", "T-shirt size": "S\nL"}


# --- answering: a group, typed and pasted -------------------------------------------------------------


def test_a_group_answers_for_each_student_and_one_bad_answer_enters_nobody():
    event, _, primary = students_event()
    question = ask(event, required=True)
    teacher = UserFactory()
    students = [
        {
            "full_name": "Ann Lee",
            "date_of_birth": pupil_born(event),
            "category": primary.pk,
            "fee": standard(primary).pk,
            "answers": {question.pk: "Mrs Lee 9000 0001"},
        },
        {
            "full_name": "Ben Ong",
            "date_of_birth": pupil_born(event),
            "category": primary.pk,
            "fee": standard(primary).pk,
            "row": "Line 3",
            "answers": {},
        },
    ]
    with pytest.raises(RegistrationError) as refused:
        services.register_group(teacher, event, contact=contact(), students=students)
    assert refused.value.messages == ["Line 3 (Ben Ong): Emergency contact: this question needs an answer."]
    assert not Entry.objects.exists()
    students[1]["answers"] = {question.pk: "Mr Ong 9000 0002"}
    group = services.register_group(teacher, event, contact=contact(), students=students)
    assert sorted(a.value for a in Answer.objects.filter(entry__group=group)) == [
        "Mr Ong 9000 0002",
        "Mrs Lee 9000 0001",
    ]


def class_list_text(event, rows, header="Name\tDate of birth\tLevel\tEmergency contact"):
    return "\n".join([header] + [f"{name}\t{pupil_born(event):%d/%m/%Y}\tP4\t{answer}" for name, answer in rows])


def test_a_pasted_class_list_answers_by_its_column_and_a_bad_line_is_named_with_its_column(client):
    event, _, _ = students_event()
    ask(event, required=True)
    ask(event, "Consent", kind="yes_no")
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    assert "“Emergency contact”" in client.get(url).content.decode()  # the class list's help names the column
    text = class_list_text(event, [("Ann Lee", "Mrs Lee 9000 0001"), ("Ben Ong", "")])
    page = client.post(url, group_form(class_list=text), follow=True).content.decode()
    assert "Line 3 (Ben Ong): Emergency contact: this question needs an answer." in page
    assert not Entry.objects.exists()
    header = "Name\tDate of birth\tLevel\tEmergency contact\tConsent"
    text = "\n".join(
        [header]
        + [
            f"{n}\t{pupil_born(event):%d/%m/%Y}\tP4\t{a}\t{c}"
            for n, a, c in [("Ann Lee", "Mrs Lee", "Y"), ("Ben Ong", "Mr Ong", "perhaps")]
        ]
    )
    page = client.post(url, group_form(class_list=text), follow=True).content.decode()
    assert "Line 3 (Ben Ong): Consent: answer yes or no." in page and not Entry.objects.exists()
    text = text.replace("perhaps", "no")
    assert "2 students entered." in client.post(url, group_form(class_list=text), follow=True).content.decode()
    assert {e.player.full_name: answers_of(e) for e in Entry.objects.select_related("player")} == {
        "Ann Lee": {"Emergency contact": "Mrs Lee", "Consent": "yes"},
        "Ben Ong": {"Emergency contact": "Mr Ong", "Consent": "no"},
    }


def test_the_group_forms_rows_ask_each_student(client):
    event, _, primary = students_event()
    question = ask(event)
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    assert f'name="students-0-{question.field_name}"' in client.get(url).content.decode()
    option = f"{primary.pk}:{standard(primary).pk}"
    data = group_form(
        **{
            "students-0-full_name": "Cara Goh",
            "students-0-date_of_birth": pupil_born(event).isoformat(),
            "students-0-option": option,
            f"students-0-{question.field_name}": "Mrs Goh",
        }
    )
    assert "1 student entered." in client.post(url, data, follow=True).content.decode()
    assert answers_of(Entry.objects.get()) == {"Emergency contact": "Mrs Goh"}


# --- changing the answers until the closing date ------------------------------------------------------


def test_answers_change_until_the_closing_date_then_are_read_only(client):
    event, category, (fee,) = open_event()
    question = ask(event, required=True)
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=category, fee=fee, answers={question.pk: "Mr Lim"})
    client.force_login(player.user)
    url = reverse("events:entry_answers", args=[entry.pk])
    assert "Change the answers" in client.get(reverse("events:my_entries")).content.decode()
    assert client.post(url, {question.field_name: ""}).status_code == 200  # refused on the page
    assert answers_of(entry) == {"Emergency contact": "Mr Lim"}
    client.post(url, {question.field_name: "Mrs Lim"})
    assert answers_of(entry) == {"Emergency contact": "Mrs Lim"}
    with pytest.raises(NotAllowed):
        services.change_answers(UserFactory(), entry, {question.pk: "Stranger"})
    type(event).objects.filter(pk=event.pk).update(registration_closes_at=timezone.now() - timedelta(minutes=1))
    page = client.get(url).content.decode()
    assert "answers can no longer be changed" in page and "Mrs Lim" in page and "<form" not in page.split("<main")[-1]
    with pytest.raises(RegistrationError, match="answers can no longer be changed"):
        services.change_answers(player.user, Entry.objects.get(pk=entry.pk), {question.pk: "Late"})
    assert answers_of(entry) == {"Emergency contact": "Mrs Lim"}


def test_the_teacher_changes_a_students_answers_and_another_teacher_may_not(client):
    event, _, primary = students_event()
    question = ask(event)
    teacher = UserFactory()
    row = {
        "full_name": "Ann Lee",
        "date_of_birth": pupil_born(event),
        "category": primary.pk,
        "fee": standard(primary).pk,
        "answers": {question.pk: "Mrs Lee"},
    }
    group = services.register_group(teacher, event, contact=contact(), students=[row])
    entry = group.entries.get()
    services.change_answers(teacher, entry, {question.pk: "Mr Lee"})
    assert answers_of(entry) == {"Emergency contact": "Mr Lee"}
    client.force_login(UserFactory())
    assert client.get(reverse("events:entry_answers", args=[entry.pk])).status_code == 404


# --- the organiser reads them: dashboard, CSV, API, admin ----------------------------------------------


@pytest.fixture
def answered():
    event, category, (fee,) = open_event()
    question = ask(event, required=True)
    ask(event, "Sizes", kind="choices", choices=["S", "M"])
    player = player_with_account(full_name="Dana Koh")
    entry = services.register_entry(
        player.user, event, category=category, fee=fee, answers={question.pk: "=HYPERLINK(1)", "999999": "ignored"}
    )
    return event, entry, question


def test_the_dashboard_shows_each_entrys_answers(client, answered):
    event, entry, _ = answered
    client.force_login(event.owner)
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert "Emergency contact:" in page and "=HYPERLINK(1)" in page and "Questions (2)" in page


def test_the_csv_has_one_column_per_question_made_formula_safe(client, answered):
    event, entry, _ = answered
    client.force_login(event.owner)
    body = client.get(reverse("events:export", args=[event.slug])).content.decode("utf-8-sig")
    header, row = list(csv.reader(io.StringIO(body)))
    assert len(row) == len(header)
    assert header[-2:] == ["Emergency contact", "Sizes"]
    assert row[-2:] == ["'=HYPERLINK(1)", ""]
    assert dict(zip(header, row, strict=True))["Name as on ID"] == "Dana Koh"  # every column under its heading


def test_the_api_gives_and_takes_answers():
    event, category, (fee,) = open_event()
    question = ask(event, required=True)
    size = ask(event, "Sizes", kind="choices", choices=["S", "M"])
    api = APIClient()
    player = player_with_account()
    api.force_authenticate(player.user)
    body = {"event": event.slug, "category": category.pk, "fee": fee.pk}
    refused = api.post("/api/my/entries/", body, format="json")
    assert refused.status_code == 400 and "needs an answer" in str(refused.json())
    body["answers"] = {str(question.pk): "Mr Lim", str(size.pk): ["M", "S"]}
    created = api.post("/api/my/entries/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["answers"] == [
        {"question": question.pk, "label": "Emergency contact", "answer": "Mr Lim"},
        {"question": size.pk, "label": "Sizes", "answer": "S; M"},
    ]
    entry_id = created.json()["id"]
    changed = api.post(
        f"/api/my/entries/{entry_id}/answers/", {"answers": {str(question.pk): "Mrs Lim"}}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["answers"][0]["answer"] == "Mrs Lim"
    bad = api.post(f"/api/my/entries/{entry_id}/answers/", {"answers": {"x": {"deep": 1}}}, format="json")
    assert bad.status_code == 400
    api.force_authenticate(event.owner)
    listed = api.get("/api/organiser/entries/", {"event": event.slug}).json()["results"]
    assert listed[0]["answers"][0]["answer"] == "Mrs Lim"


def test_staff_correct_an_answer_in_the_admin_by_the_same_rule(answered):
    from events.admin import AnswerForm, AnswerInline

    _, entry, question = answered
    answer = Answer.objects.get(entry=entry, question=question)
    form = AnswerForm({"value": ""}, instance=answer)
    assert not form.is_valid() and "needs an answer" in str(form.errors)
    form = AnswerForm({"value": "  Mr  Tan "}, instance=answer)
    assert form.is_valid() and form.cleaned_data["value"] == "Mr Tan"
    assert AnswerInline in admin.site._registry[Entry].inlines


def test_copying_an_event_copies_its_questions_onto_the_copied_categories_without_answers():
    event, category, (fee,) = open_event()
    CategoryFactory(event=event, name="Juniors")
    school = ask(event, "School", category=category, required=True)
    contact = ask(event)
    player = player_with_account()
    services.register_entry(
        player.user, event, category=category, fee=fee, answers={school.pk: "Yuhua", contact.pk: "x"}
    )
    copy = services.copy_event(event.owner, event)
    copied = {c.name: c.pk for c in copy.categories.all()}
    assert sorted((q.label, q.category_id, q.required) for q in copy.questions.all()) == [
        ("Emergency contact", None, False),
        ("School", copied["Open"], True),
    ]
    assert not Answer.objects.filter(question__event=copy).exists()


def test_a_completed_events_questions_no_longer_change():
    event, _, _ = open_event(status=EventStatus.COMPLETED)
    with pytest.raises(EventError, match="can no longer be changed"):
        ask(event)


def test_changing_a_students_name_points_to_the_answers_that_stay_with_the_entry(client):
    event, _, primary = students_event()
    question = ask(event)
    teacher = UserFactory()
    row = {"full_name": "Ann Lee", "date_of_birth": pupil_born(event), "category": primary.pk,
           "fee": standard(primary).pk, "answers": {question.pk: "Mrs Lee"}}  # fmt: skip
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    client.force_login(teacher)
    page = client.get(reverse("events:replace_student", args=[entry.pk])).content.decode()
    assert reverse("events:entry_answers", args=[entry.pk]) in page and "So do the answers" in page
