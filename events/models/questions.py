"""The organiser's own questions on the entry forms (an emergency contact, a T-shirt size) and each entry's answers.
What an answer may be is one rule, events.answers.clean_answer, whatever door it comes through."""

from django.db import models

from events import answers as rules

from .entries import Entry
from .event import Category, Event

__all__ = ["QuestionKind", "Question", "Answer"]

QuestionKind = models.TextChoices("QuestionKind", [(key.upper(), (key, label)) for key, label in rules.KINDS.items()])


class Question(models.Model):
    """A question of the event's (every entrant is asked) or of one of its categories (only its entrants are)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="questions")
    category = models.ForeignKey(
        Category,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="questions",
        help_text="Empty: asked of every entrant",
    )
    kind = models.CharField(max_length=10, choices=QuestionKind.choices, default=QuestionKind.SHORT)
    label = models.CharField("question", max_length=rules.MAX_LABEL)
    help_text = models.CharField(max_length=rules.MAX_HELP, blank=True)
    required = models.BooleanField(default=False)
    choices = models.JSONField(default=list, blank=True, help_text="For a question with choices: the choices")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "position", "pk"]

    def __str__(self):
        return self.label

    @property
    def spec(self) -> rules.Spec:
        return rules.Spec(kind=self.kind, label=self.label, required=self.required, choices=tuple(self.choices or ()))

    @property
    def field_name(self) -> str:
        """The name of the question's input on every form that asks it."""
        return f"q_{self.pk}"


class Answer(models.Model):
    """One entry's answer to one question, in the canonical text form events.answers describes."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="answers")
    # An answered question is never deleted from under its answers (events.services.questions refuses it); deleting
    # the whole event takes both.
    question = models.ForeignKey(Question, on_delete=models.RESTRICT, related_name="answers")
    value = models.TextField(max_length=rules.MAX_LONG)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["entry", "question__position", "question_id"]
        constraints = [models.UniqueConstraint(fields=["entry", "question"], name="answer_one_per_entry_question")]

    def __str__(self):
        return f"{self.question}: {self.shown}"

    @property
    def shown(self) -> str:
        return rules.shown_answer(self.question.kind, self.value)
