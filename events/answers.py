"""The organiser's questions on entry forms: the one reading of an answer, whatever door it comes through (the entry
form, a group's student rows, a pasted class list, the API, the admin). Pure: no Django, plain values in and out,
so every rule here is tested with any value hypothesis can make.

An answer is stored as one text in a canonical form a person can read as it is (in the CSV, in the admin):

    short, long   the text, trimmed
    choice        the choice, exactly as the organiser wrote it
    choices       the choices, in the organiser's order, one a line
    yes_no        "yes" or "no"
    date          2014-03-25
    number        the number as written without needless zeros: 12, -3.5

An empty answer is stored as no answer at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

SHORT, LONG, CHOICE, CHOICES, YES_NO, DATE, NUMBER = "short", "long", "choice", "choices", "yes_no", "date", "number"
KINDS = {
    SHORT: "Short text",
    LONG: "Long text",
    CHOICE: "One choice",
    CHOICES: "Several choices",
    YES_NO: "Yes or no",
    DATE: "Date",
    NUMBER: "Number",
}

# The bounds of a question and its answers: generous for any real form, small enough that no answer costs a page.
MAX_LABEL = 200
MAX_HELP = 500
MAX_CHOICES = 30
MAX_CHOICE = 100
MAX_SHORT = 200
MAX_LONG = 2_000
MAX_NUMBER = Decimal("1000000000")  # a billion either way
MAX_DECIMALS = 4
FIRST_YEAR, LAST_YEAR = 1900, 2100
MAX_QUESTIONS = 30  # per event

YES_WORDS = {"yes", "y", "true", "1", "on", "✓"}
NO_WORDS = {"no", "n", "false", "0", "off"}
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y")
# Control characters but tab and line breaks (which a long answer may hold): no answer has them.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LINE_BREAK = re.compile(r"[\r\n\t\u2028\u2029]")


class AnswerError(ValueError):
    """An answer refused, with what to do about it (the caller adds whose answer and which question)."""


@dataclass(frozen=True)
class Spec:
    """What the answer to one question must be."""

    kind: str
    label: str
    required: bool = False
    choices: tuple[str, ...] = ()


def _text(raw) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    if isinstance(raw, list | tuple | set | frozenset):
        return "\n".join(_text(item) for item in raw)
    return str(raw)


def _refuse_control(text: str) -> None:
    if control := _CONTROL.search(text):
        name = "a NUL (a zero byte)" if control[0] == "\x00" else f"the control character U+{ord(control[0]):04X}"
        raise AnswerError(f"the answer holds {name}, which no answer can hold.")


def _bounded(text: str, limit: int) -> str:
    if len(text) > limit:
        raise AnswerError(f"the answer can be at most {limit:,} characters long; this one has {len(text):,}.")
    return text


def _choices_of(raw) -> list[str]:
    """Several choices: given as a list, or as text with one a line, or separated by commas or semicolons (a class
    list's cell)."""
    if isinstance(raw, list | tuple | set | frozenset):
        items = [_text(item) for item in raw]
    else:
        text = _text(raw)
        items = re.split(r"[\n;]" if ("\n" in text or ";" in text) else ",", text)
    return [" ".join(item.split()) for item in items if item.strip()]


def _choice(spec: Spec, given: str) -> str:
    folded = {" ".join(choice.split()).casefold(): choice for choice in spec.choices}
    found = folded.get(" ".join(given.split()).casefold())
    if found is None:
        shown = given if len(given) <= 40 else given[:40] + "…"
        raise AnswerError(f"“{shown}” is not one of the choices ({'; '.join(spec.choices)}).")
    return found


def _number(text: str) -> str:
    cleaned = text.replace(",", "").replace(" ", "").replace("\u00a0", "")
    if len(cleaned) > 30:
        raise AnswerError("the answer is not a number we can read; write it like 12 or 3.5.")
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        raise AnswerError("the answer is not a number; write it like 12 or 3.5.") from None
    if not number.is_finite():
        raise AnswerError("the answer is not a number; write it like 12 or 3.5.")
    if abs(number) > MAX_NUMBER:
        raise AnswerError(f"the answer must be between -{MAX_NUMBER:,} and {MAX_NUMBER:,}.")
    if number != number.quantize(Decimal(1).scaleb(-MAX_DECIMALS), rounding="ROUND_DOWN"):
        raise AnswerError(f"the answer can have at most {MAX_DECIMALS} decimal places.")
    text = format(number.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _date(raw) -> str:
    if isinstance(raw, datetime):
        raw = raw.date()
    if isinstance(raw, date):
        day = raw
    else:
        text = " ".join(_text(raw).split())
        for fmt in DATE_FORMATS:
            try:
                day = datetime.strptime(text, fmt).date()
                break
            except ValueError:
                continue
        else:
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise AnswerError(f"“{shown}” is not a date; write it like 2014-03-25 or 25/03/2014.")
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise AnswerError(f"give a date between the years {FIRST_YEAR} and {LAST_YEAR}.")
    return day.isoformat()


def clean_answer(spec: Spec, raw) -> str:
    """The one rule for an answer: `raw` as any door gives it (text, a bool, a list, a date, a number) in its
    canonical stored form, "" for no answer. Refuses (AnswerError) an answer missing to a required question, and
    anything its kind cannot take."""
    if isinstance(raw, list | tuple | set | frozenset) and spec.kind != CHOICES:
        raw = _text(raw)
    if spec.kind == DATE and isinstance(raw, date):
        return _date(raw)
    text = _text(raw)
    _refuse_control(text)
    if spec.kind != LONG and spec.kind != CHOICES and _LINE_BREAK.search(text):
        text = " ".join(text.split())
    empty = not _choices_of(raw) if spec.kind == CHOICES else not text.strip()
    if empty:
        if spec.required:
            raise AnswerError("this question needs an answer.")
        return ""
    if spec.kind == SHORT:
        return _bounded(" ".join(text.split()), MAX_SHORT)
    if spec.kind == LONG:
        return _bounded(text.strip().replace("\r\n", "\n").replace("\r", "\n"), MAX_LONG)
    if spec.kind == CHOICE:
        return _choice(spec, _bounded(text.strip(), MAX_LONG))
    if spec.kind == CHOICES:
        _bounded(text, MAX_LONG)
        chosen = {_choice(spec, item) for item in _choices_of(raw)}
        return "\n".join(choice for choice in spec.choices if choice in chosen)
    if spec.kind == YES_NO:
        word = text.strip().casefold()
        if word in YES_WORDS:
            return "yes"
        if word in NO_WORDS:
            return "no"
        raise AnswerError("answer yes or no.")
    if spec.kind == DATE:
        return _date(text)
    if spec.kind == NUMBER:
        return _number(text)
    raise AnswerError("this question cannot be answered: its kind is unknown.")


def shown_answer(kind: str, value: str) -> str:
    """A stored answer as a page or a CSV cell shows it: several choices joined by "; ", yes and no capitalised."""
    if not value:
        return ""
    if kind == CHOICES:
        return "; ".join(value.split("\n"))
    if kind == YES_NO:
        return value.capitalize()
    return value


def choice_list(text_or_list) -> list[str]:
    """An organiser's choices, given one a line (or as a list): trimmed, empty lines left out, each once."""
    items = text_or_list.splitlines() if isinstance(text_or_list, str) else list(text_or_list or [])
    seen: dict[str, str] = {}
    for item in items:
        choice = " ".join(str(item).split())
        if choice and choice.casefold() not in seen:
            seen[choice.casefold()] = choice
    return list(seen.values())


def question_problems(kind: str, label: str, help_text: str, choices: list[str]) -> list[tuple[str, str]]:
    """What is wrong with a question as the organiser wrote it, each (field, message); none when it is fine."""
    problems = []
    if kind not in KINDS:
        problems.append(("kind", f"Choose the kind of question: {', '.join(KINDS.values()).lower()}."))
    for field, text, limit in (("label", label, MAX_LABEL), ("help_text", help_text, MAX_HELP)):
        what = "question" if field == "label" else "help text"
        if _CONTROL.search(text or "") or (field == "label" and _LINE_BREAK.search(text or "")):
            problems.append((field, f"Write the {what} on one line, without control characters."))
        elif len(text or "") > limit:
            problems.append((field, f"The {what} can be at most {limit} characters long; this one has {len(text):,}."))
    if not (label or "").strip():
        problems.append(("label", "Write the question."))
    if kind in (CHOICE, CHOICES):
        if len(choices) < 2:
            problems.append(("choices", "Give at least two choices, one a line."))
        elif len(choices) > MAX_CHOICES:
            problems.append(("choices", f"Give at most {MAX_CHOICES} choices; these are {len(choices)}."))
        long = [c for c in choices if len(c) > MAX_CHOICE or _CONTROL.search(c)]
        if long:
            problems.append(("choices", f"Each choice can be at most {MAX_CHOICE} characters, on one line."))
    elif choices:
        problems.append(("choices", "Only a question with choices has choices: leave them empty for this kind."))
    return problems
