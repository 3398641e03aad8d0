"""A spreadsheet of members, as staff upload it to bring an association's members onto the site. Pure: no Django.

The file is CSV, as a spreadsheet saves it: cells separated by commas, or by semicolons (a spreadsheet set to a
language that writes decimal commas saves "CSV" that way), the first line naming the columns. Staff say which column
holds which of the site's fields (`FIELDS`; `guess_mapping` proposes one from the column names); `read_rows` then
reads every line into the values the site stores, or says what is wrong with it, naming the line as an editor
numbers it and the field: "line 14, date of birth: 31/02/1990 is not a date".

Every value is kept as text as typed: a cell such as `=HYPERLINK(...)` is a name like any other here, and only the
site's CSV downloads (clubsite.kit.csv) make it inert on the way out. What cannot be stored as read is refused by line:
a control character (NUL among them), a character that turns the direction of the text round (U+202E and its kin,
which would show a name other than the one stored), a value longer than its field.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from datetime import date

from . import matching, names

__all__ = [
    "FIELDS",
    "MAX_ROWS",
    "FileProblem",
    "Line",
    "Table",
    "guess_mapping",
    "read_rows",
    "read_table",
]

MAX_ROWS = 3_000  # members in one file: more than an association moving in has; previewed well within a second
MAX_COLUMNS = 60
MAX_CELL = 20_000  # characters in one cell of any column, read or not: a pasted page, not a value
MAX_SHOWN = 24  # characters of a bad value quoted back
MAX_RATING = 3000  # as the ratings import: a rating is a whole number from 1 to 3000
MAX_MEMBER_NUMBER = 2_147_483_647  # the largest a member number can be stored as


@dataclass(frozen=True)
class Field:
    key: str
    label: str  # as a line's error names it
    length: int = 0  # the longest text stored, for text fields
    words: tuple[str, ...] = ()  # column names that mean this field, normalised


FIELDS = (
    Field("full_name", "full name", 200, ("full name", "name", "member name", "player", "player name")),
    Field("family_name", "family name", 100, ("family name", "surname", "last name")),
    Field("date_of_birth", "date of birth", 0, ("date of birth", "dob", "birth date", "birthday", "born")),
    Field("email", "email", 254, ("email", "email address", "e mail")),
    Field("member_number", "member number", 0, ("member number", "member no", "membership number", "number", "id")),
    Field("membership_type", "membership type", 0, ("membership type", "type", "membership", "category")),
    Field("starts_on", "membership start", 0, ("membership start", "start", "starts", "start date", "joined")),
    Field("expires_on", "membership expiry", 0, ("membership expiry", "expiry", "expires", "valid until")),
    Field("paid_on", "paid on", 0, ("paid on", "paid", "date paid", "payment date")),
    Field("rating", "rating", 0, ("rating", "current rating")),
)
BY_KEY = {f.key: f for f in FIELDS}
REQUIRED = ("full_name",)


class FileProblem(ValueError):
    """The file as a whole cannot be read (no columns, too many lines, a broken quote): nothing of it is taken."""


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (line number, cells), blank lines left out


@dataclass
class Line:
    """One member of the file: what was read, and what is wrong with it."""

    number: int
    values: dict = field(default_factory=dict)  # field key -> value as stored (str, date, int); absent when empty
    errors: list[str] = field(default_factory=list)  # each "line 14, date of birth: ..."
    refused: set[str] = field(default_factory=set)  # the labels of the fields refused

    def refuse(self, label: str, message: str) -> None:
        self.errors.append(f"line {self.number}, {label}: {message}")
        self.refused.add(label)

    @property
    def person(self) -> matching.Person:
        v = self.values
        return matching.Person(
            full_name=v.get("full_name", ""),
            family_name=v.get("family_name", ""),
            date_of_birth=v.get("date_of_birth"),
            email=v.get("email", ""),
            member_number=v.get("member_number"),
        )


def shown(value: str) -> str:
    """A bad value as quoted back: control characters escaped, cut short."""
    cut = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)


def _delimiter(first_line: str) -> str:
    """Comma or semicolon: whichever splits the line naming the columns into more cells."""
    counts = {d: len(next(csv.reader([first_line], delimiter=d), [])) for d in (",", ";")}
    return ";" if counts[";"] > counts[","] else ","


def read_table(text: str) -> Table:
    """The header and the lines of a CSV text, each with the number of the line it begins on."""
    text = text.lstrip("\ufeff")
    # Only newlines end a line (str.splitlines also splits at form feeds and Unicode separators).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise FileProblem("The file is empty: save the spreadsheet as CSV, with the column names on the first line.")
    reader = csv.reader(iter(lines), delimiter=_delimiter(first), strict=True)
    header: tuple[str, ...] | None = None
    rows: list[tuple[int, tuple[str, ...]]] = []
    number = 0
    try:
        for cells in reader:
            start, number = number + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > MAX_COLUMNS:
                raise FileProblem(f"Line {start} has {len(cells)} columns: a members file has {MAX_COLUMNS} at most.")
            if any(len(c) > MAX_CELL for c in cells):
                raise FileProblem(f"Line {start} has a cell longer than {MAX_CELL:,} characters: check the file.")
            if header is None:
                header = tuple(" ".join(c.split()) for c in cells)
                continue
            if len(rows) >= MAX_ROWS:
                raise FileProblem(f"A members file can hold at most {MAX_ROWS:,} members: split it in parts.")
            rows.append((start, tuple(cells)))
    except csv.Error as error:
        raise FileProblem(f"Line {number + 1} cannot be read as CSV ({error}): check its quotes.") from None
    if not rows:
        raise FileProblem("The file names its columns but holds no members.")
    return Table(header or (), tuple(rows))


def _words(text: str) -> str:
    return matching.normalise(text)


def guess_mapping(header: tuple[str, ...]) -> dict[str, int]:
    """Which column each field is in, from the columns' names ("DOB", "Surname", "E-mail"); a name matches one field."""
    mapping: dict[str, int] = {}
    taken: set[int] = set()
    names_ = [_words(h) for h in header]
    for f in FIELDS:
        for word in f.words:  # the field's most telling name first
            column = next((i for i, n in enumerate(names_) if n == word and i not in taken), None)
            if column is not None:
                mapping[f.key] = column
                taken.add(column)
                break
    return mapping


# Control characters (Unicode's Cc, NUL among them) and lone surrogates (Cs), as one pattern: a file of thousands of
# names is searched at C speed rather than character by character.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# Characters that turn the order of the text round: the name shown would not be the name stored.
BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _text(line: Line, f: Field, value: str) -> str | None:
    value = " ".join(value.split())
    if CONTROL.search(value):
        line.refuse(f.label, "holds a control character (such as NUL): save the spreadsheet as CSV again")
    elif BIDI_CONTROL.search(value):
        line.refuse(f.label, "holds a character that turns the text's direction round (U+202E or its kin): remove it")
    elif f.length and len(value) > f.length:
        line.refuse(f.label, f"is {len(value):,} characters long; it can be at most {f.length}")
    else:
        return value
    return None


DATE_FORMS = (
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"),  # 1990-02-28
    re.compile(r"(?P<d>\d{1,2})[/.\-](?P<m>\d{1,2})[/.\-](?P<y>\d{4})"),  # 28/02/1990, as Singapore writes it
)


def _date(line: Line, f: Field, value: str) -> date | None:
    value = value.strip()
    for form in DATE_FORMS:
        if found := form.fullmatch(value):
            try:
                return date(int(found["y"]), int(found["m"]), int(found["d"]))
            except ValueError:
                break
    else:
        line.refuse(f.label, f"{shown(value)} is not a date (write 28/02/1990 or 1990-02-28)")
        return None
    line.refuse(f.label, f"{shown(value)} is not a date")
    return None


def _whole(line: Line, f: Field, value: str, low: int, high: int) -> int | None:
    value = value.strip()
    digits = value.lstrip("0") or "0"
    # The length first: int() of thousands of digits is slow.
    if not re.fullmatch(r"[0-9]+", value):
        line.refuse(f.label, f"{shown(value)} is not a whole number")
    elif len(digits) > len(str(high)) or not low <= int(digits) <= high:
        line.refuse(f.label, f"{shown(digits)} is outside {low}–{high}")
    else:
        return int(digits)
    return None


def _choice(line: Line, f: Field, value: str, choices: dict[str, str]) -> str | None:
    """A membership type by its name or its stored value, in any case ("Student", "STUDENT", "student")."""
    wanted = _words(value)
    for stored, label in choices.items():
        if wanted in (_words(stored), _words(label)):
            return stored
    line.refuse(f.label, f"{shown(value)} is not one of {', '.join(choices.values())}")
    return None


def read_rows(table: Table, mapping: dict[str, int], types: dict[str, str]) -> list[Line]:
    """Every line of the table, its mapped cells read into values. `types`: the membership types (stored: label)."""
    lines = []
    for number, cells in table.rows:
        line = Line(number)
        for key, column in mapping.items():
            f = BY_KEY[key]
            raw = cells[column] if column < len(cells) else ""
            if not raw.strip():
                continue
            if key in ("date_of_birth", "starts_on", "expires_on", "paid_on"):
                value = _date(line, f, raw)
            elif key == "member_number":
                value = _whole(line, f, raw, 1, MAX_MEMBER_NUMBER)
            elif key == "rating":
                value = _whole(line, f, raw, 1, MAX_RATING)
            elif key == "membership_type":
                value = _choice(line, f, raw, types)
            else:
                value = _text(line, f, raw)
            if value is not None and value != "":
                line.values[key] = value
        _check_line(line)
        lines.append(line)
    return lines


def _check_line(line: Line) -> None:
    """What one line's values must be together."""
    v, bad = line.values, line.refused
    if "full_name" not in v and "full name" not in bad:
        line.refuse("full name", "is empty; every member needs one")
        return
    if v.get("family_name") and names.family_name_problem(v.get("full_name", ""), v["family_name"]):
        line.refuse("family name", f"{shown(v['family_name'])} is not the first or last word(s) of the full name")
    membership = any(k in v for k in ("membership_type", "expires_on", "paid_on"))
    if membership and "starts_on" not in v and "membership start" not in bad:
        line.refuse("membership start", "is empty; a membership (type, expiry or payment given) needs its start")
    if v.get("expires_on") and v.get("starts_on") and v["expires_on"] < v["starts_on"]:
        line.refuse("membership expiry", f"{v['expires_on']:%d/%m/%Y} is before the start, {v['starts_on']:%d/%m/%Y}")
