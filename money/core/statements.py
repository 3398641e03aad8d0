"""Reading a bank's CSV export of a statement: the transfers people made, with the payment references
found in their descriptions.

Every bank lays its export out its own way, so a `Mapping` says where things are: the date column, the
amount column (or a credit and a debit column), the description column(s), the date format(s), how many
lines of account details come before the header, and whether amounts use a decimal comma. The plain
format the site documents is `Mapping.plain()`:

    date,amount,description
    2024-01-05,30.00,PAYNOW OTHR E000123J

A mapping can be written as a short spec (`parse_mapping`), e.g. for a DBS/POSB export:

    date=Transaction Date; credit=Credit Amount; debit=Debit Amount;
    description=Transaction Ref1,Transaction Ref2,Transaction Ref3; skip=6; date_format=%d %b %Y

`parse_statement` reads a file into `Line`s and `LineError`s: a line that cannot be read is reported with
its line number in the file and the rest still count. A file no bank writes is refused whole, naming the
line: a line longer than `MAX_LINE` characters, or a quoted cell running on past csv's field limit. Credits
are positive, debits negative (callers skip those). Amounts are `Decimal`, never float.

Each line has a fingerprint, so importing the same statement twice, or next month's statement that
overlaps this one, counts no transfer twice: the SHA-256 of the date, the amount, the description
(case and spacing aside) and the occurrence of that (date, amount, description) in the file, 0 for the
first, so two genuinely identical transfers on one day are two lines.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from money.core.references import find_references

DEFAULT_DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d %b %Y")
DELIMITERS = (",", ";", "\t")
_SAMPLE_DATE = datetime.date(2024, 1, 31)  # shown in messages as an example of each date format
_MAX_DIGITS = 20  # more is no bank transfer, and would outgrow Decimal's default precision
_HEADER_SEARCH = 50  # lines looked through for a header when the expected one is not where the mapping says
MAX_LINE = 10_000  # characters in one line of the file: a bank's line is a few hundred at most


@dataclass(frozen=True)
class Mapping:
    """Where a bank's export keeps what we need. Column names are matched ignoring case and spacing.

    Give either `amount` (credits positive, debits negative) or `credit` and/or `debit` (both written
    as positive numbers, as banks do); with none of the three, the column is `amount`."""

    date: str = "date"
    amount: str | None = None
    credit: str | None = None
    debit: str | None = None
    description: tuple[str, ...] = ("description",)
    date_formats: tuple[str, ...] = DEFAULT_DATE_FORMATS
    skip: int = 0  # lines before the header (account details and the like)
    decimal_comma: bool = False  # "1.234,50" rather than "1,234.50"

    def __post_init__(self):
        if isinstance(self.description, str):
            object.__setattr__(self, "description", (self.description,))
        if isinstance(self.date_formats, str):
            object.__setattr__(self, "date_formats", (self.date_formats,))
        object.__setattr__(self, "description", tuple(self.description))
        object.__setattr__(self, "date_formats", tuple(self.date_formats))
        if self.amount is None and self.credit is None and self.debit is None:
            object.__setattr__(self, "amount", "amount")
        if self.amount is not None and (self.credit is not None or self.debit is not None):
            raise ValueError("Give either an amount column or credit and debit columns, not both.")
        for name in ("date", "amount", "credit", "debit"):
            value = getattr(self, name)
            if value is not None and not value.strip():
                raise ValueError(f"The {name} column's name is empty.")
        if not self.description or not all(name.strip() for name in self.description):
            raise ValueError("Name at least one description column, and no empty ones.")
        if not self.date_formats or not all(self.date_formats):
            raise ValueError("Give at least one date format, and no empty ones.")
        if isinstance(self.skip, bool) or not isinstance(self.skip, int) or self.skip < 0:
            raise ValueError(f"skip is a number of lines, 0 or more, not {self.skip!r}.")

    @classmethod
    def plain(cls) -> Mapping:
        """The site's own format: a header `date,amount,description`, ISO dates, amounts like 30.00."""
        return cls()

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns the header must have."""
        named = (self.date, self.amount, self.credit, self.debit, *self.description)
        return tuple(name for name in named if name is not None)

    def spec(self) -> str:
        """This mapping as `parse_mapping` reads it."""
        parts = [f"date={self.date}"]
        for name in ("amount", "credit", "debit"):
            if getattr(self, name) is not None:
                parts.append(f"{name}={getattr(self, name)}")
        parts.append(f"description={','.join(self.description)}")
        parts.append(f"skip={self.skip}")
        parts.append(f"date_format={'|'.join(self.date_formats)}")
        parts.append(f"decimal_comma={'yes' if self.decimal_comma else 'no'}")
        return "; ".join(parts)


PLAIN = Mapping.plain()

_KEYS = {
    "date": "date",
    "amount": "amount",
    "credit": "credit",
    "debit": "debit",
    "description": "description",
    "skip": "skip",
    "date_format": "date_formats",
    "date_formats": "date_formats",
    "decimal_comma": "decimal_comma",
}
_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0"}


def parse_mapping(text: str) -> Mapping:
    """A `Mapping` from "key=value" pairs separated by `;` or new lines.

    Keys: date, amount, credit, debit (column names); description (column names joined by commas);
    skip (lines before the header); date_format (strptime formats, several joined by `|`); decimal_comma
    (yes or no). Keys left out keep the plain format's values. An unknown key is a ValueError naming it."""
    values: dict[str, object] = {}
    for raw in re.split(r"[;\n]", text):
        item = raw.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r} is not key=value.")
        name = re.sub(r"[\s\-]+", "_", key.strip().lower())
        if name not in _KEYS:
            known = ", ".join(k for k in _KEYS if k != "date_formats")
            raise ValueError(f"Unknown key {key.strip()!r}; the keys are {known}.")
        attr = _KEYS[name]
        if attr in values:
            raise ValueError(f"{key.strip()!r} is given twice.")
        value = value.strip()
        if attr == "description":
            values[attr] = tuple(part.strip() for part in value.split(","))
        elif attr == "date_formats":
            values[attr] = tuple(part.strip() for part in value.split("|"))
        elif attr == "skip":
            if not value.isdigit():
                raise ValueError(f"skip is a number of lines, not {value!r}.")
            values[attr] = int(value)
        elif attr == "decimal_comma":
            if value.lower() not in _TRUE | _FALSE:
                raise ValueError(f"decimal_comma is yes or no, not {value!r}.")
            values[attr] = value.lower() in _TRUE
        else:
            values[attr] = value
    return Mapping(**values)


@dataclass(frozen=True)
class Line:
    """One transaction of the statement."""

    line_no: int  # 1-based, in the file as uploaded (skipped lines and the header count)
    date: datetime.date
    amount: Decimal  # credits positive, debits negative
    description: str
    references: tuple[tuple[str, int], ...]  # (kind, number) found in the description
    fingerprint: str  # hex SHA-256; the same bank line always has the same one


@dataclass(frozen=True)
class LineError:
    """A line that could not be read; `message` says where and why, for a person."""

    line_no: int
    column: str  # the column's name in the file; "" for the line as a whole
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass
class Statement:
    lines: list[Line] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        text = data
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")  # what spreadsheet programs on Windows write
    return text.removeprefix("\ufeff").replace("\x00", "")


@lru_cache(maxsize=256)
def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _physical_lines(text: str) -> list[str]:
    """The file's lines with their endings, split as csv and text editors do (\\n, \\r\\n or \\r)."""
    return io.StringIO(text, newline="").readlines()


def _split(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _sniff(header: str, mapping: Mapping) -> str:
    """The delimiter under which the header has the mapping's columns, else the one giving most fields."""
    wanted = {_key(c) for c in mapping.columns}
    best = max(DELIMITERS, key=lambda d: len(_split(header, d)))  # first wins a tie: the comma
    for delimiter in DELIMITERS:
        if wanted <= {_key(cell) for cell in _split(header, delimiter)}:
            return delimiter
    return best


_CURRENCY = re.compile(r"^(?:S\$|SGD|US\$|USD|\$)|(?:SGD|USD)$", re.IGNORECASE)


@lru_cache(maxsize=4096)  # a statement repeats its amounts and dates: each is read once
def _parse_amount(text: str, decimal_comma: bool) -> Decimal | None:
    """A Decimal from "1,234.50", "S$3.00", "3", "-3.00", "(3.00)", or "1.234,50" with a decimal comma."""
    value = "".join(text.split())  # spaces, including no-break spaces, as thousands separators or padding
    negative = False
    if value.startswith("(") and value.endswith(")"):
        negative, value = True, value[1:-1]
    signed = negative
    for _ in range(2):  # a sign before or after the currency: -S$3.00, S$-3.00
        if value and value[0] in "+-" and not signed:
            signed, negative, value = True, value[0] == "-", value[1:]
        value = _CURRENCY.sub("", value)
    group, point = (".", ",") if decimal_comma else (",", ".")
    g, p = re.escape(group), re.escape(point)
    if not re.fullmatch(rf"(?:[0-9]{{1,3}}(?:{g}[0-9]{{3}})+|[0-9]+)(?:{p}[0-9]+)?|{p}[0-9]+", value, re.ASCII):
        return None
    if sum(ch.isdigit() for ch in value) > _MAX_DIGITS:
        return None
    number = Decimal(value.replace(group, "").replace(point, "."))
    if number.as_tuple().exponent > -2:
        number = number.quantize(Decimal("0.01"))
    return -number if negative else number


@lru_cache(maxsize=4096)
def _parse_date(text: str, formats: tuple[str, ...]) -> datetime.date | None:
    value = _collapse(text)
    for fmt in formats:
        try:
            return datetime.datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    return None


def fingerprint(date: datetime.date, amount: Decimal, description: str, occurrence: int) -> str:
    """The hex SHA-256 identifying the `occurrence`-th (from 0) line of a file with this date, amount and
    description; the description counts without case or extra spacing."""
    cents = amount.quantize(Decimal("0.01"))
    amount_text = f"{cents if cents == amount else amount:f}"  # 30, 30.0 and 30.00 are one amount
    text = "\n".join([date.isoformat(), amount_text, str(occurrence), _collapse(description).casefold()])
    return hashlib.sha256(text.encode()).hexdigest()


def _header_hint(lines: list[str], start: int, mapping: Mapping) -> str:
    """Where the header seems to be, when it is not on the line the mapping's skip points at."""
    for index, line in enumerate(lines[:_HEADER_SEARCH]):
        if index != start and not _missing(line, _sniff(line, mapping), mapping):
            return f" The header with them is on line {index + 1}: skip should be {index}."
    return ""


def _missing(header: str, delimiter: str, mapping: Mapping) -> list[str]:
    found = {_key(cell) for cell in _split(header, delimiter)}
    return [column for column in mapping.columns if _key(column) not in found]


class _Row:
    """One record's cells by column name, and what was wrong with them."""

    def __init__(self, cells: list[str], index: dict[str, int], line_no: int):
        self.cells, self.index, self.line_no = cells, index, line_no
        self.errors: list[LineError] = []

    def __getitem__(self, column: str) -> str:
        position = self.index[_key(column)]
        return self.cells[position].strip() if position < len(self.cells) else ""

    def fail(self, column: str, problem: str) -> None:
        self.errors.append(LineError(self.line_no, column, f"line {self.line_no}, {column}: {problem}"))

    def amount(self, column: str, decimal_comma: bool) -> Decimal | None:
        raw = self[column]
        amount = _parse_amount(raw, decimal_comma) if raw else None
        if raw and amount is None:
            self.fail(column, f"{raw!r} is not an amount")
        return amount


def _read_amount(row: _Row, mapping: Mapping) -> Decimal | None:
    if mapping.amount is not None:
        amount = row.amount(mapping.amount, mapping.decimal_comma)
        if amount is None and not row[mapping.amount]:
            row.fail(mapping.amount, "no amount")
        return amount
    columns = [c for c in (mapping.credit, mapping.debit) if c is not None]
    given = [c for c in columns if row[c]]
    values = {c: row.amount(c, mapping.decimal_comma) for c in given}
    if not given:
        row.fail(" or ".join(columns), "no amount")
        return None
    if any(v is None for v in values.values()):
        return None
    credit = values.get(mapping.credit) or Decimal("0.00")
    debit = values.get(mapping.debit) or Decimal("0.00")
    if credit and debit:
        row.fail(f"{mapping.credit} and {mapping.debit}", "both a credit and a debit")
        return None
    return credit - abs(debit)  # a debit is a debit even when the bank writes it with a minus


def _read_date(row: _Row, mapping: Mapping) -> datetime.date | None:
    raw = row[mapping.date]
    date = _parse_date(raw, mapping.date_formats)
    if date is None and raw:
        examples = ", ".join(_SAMPLE_DATE.strftime(f) for f in mapping.date_formats)
        row.fail(mapping.date, f"{raw!r} is not a date (like {examples})")
    elif date is None:
        row.fail(mapping.date, "no date")
    return date


def parse_statement(data: bytes | str, mapping: Mapping = PLAIN) -> Statement:
    """The lines and the unreadable lines of a bank statement in CSV.

    Raises ValueError when the file has no header, the header lacks a column the mapping names, a line is longer
    than MAX_LINE characters, or a quoted cell runs on past csv's field limit (a quote never closed)."""
    lines = _physical_lines(_decode(data))
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ValueError(
                f"Line {number} is {len(line):,} characters long; a bank statement's lines are at most {MAX_LINE:,}. "
                "Is this the bank's CSV export?"
            )
    start = mapping.skip
    while start < len(lines) and not lines[start].strip():
        start += 1  # blank lines between the skipped ones and the header
    if start >= len(lines):
        raise ValueError(f"The file has no header line after the {mapping.skip} line(s) skipped.")
    delimiter = _sniff(lines[start], mapping)
    if missing := _missing(lines[start], delimiter, mapping):
        found = ", ".join(repr(cell.strip()) for cell in _split(lines[start], delimiter) if cell.strip()) or "none"
        raise ValueError(
            f"Line {start + 1}, the header, has no column {', '.join(repr(c) for c in missing)}; "
            f"the columns found are {found}.{_header_hint(lines, start, mapping)}"
        )
    index: dict[str, int] = {}
    for position, name in enumerate(_split(lines[start], delimiter)):
        index.setdefault(_key(name), position)

    statement = Statement()
    seen: dict[tuple[datetime.date, Decimal, str], int] = {}
    # Strict, so a stray quote is an error on its line rather than a value swallowing the lines after it.
    reader = csv.reader(lines[start + 1 :], delimiter=delimiter, strict=True)
    end = start + 1  # the line the previous record ended on; the header's to begin with
    while True:
        first = end + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            if str(error).startswith("field larger than field limit"):
                raise ValueError(
                    f"Line {first}: a quote opened on this line runs on for more than {csv.field_size_limit():,} "
                    "characters, over the lines after it; close it, or take it out."
                ) from None
            end = start + 1 + reader.line_num
            problem = str(error)
            if problem == "unexpected end of data":
                problem = "a quote opened on this line is never closed, so the lines after it could not be read"
            statement.errors.append(LineError(first, "", f"line {first}: {problem}"))
            continue
        row, end = _Row(cells, index, first), start + 1 + reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        date, amount = _read_date(row, mapping), _read_amount(row, mapping)
        if row.errors:
            statement.errors.extend(row.errors)
            continue
        description = _collapse(" ".join(row[column] for column in mapping.description))
        key = (date, amount, description.casefold())
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        statement.lines.append(
            Line(
                line_no=row.line_no,
                date=date,
                amount=amount,
                description=description,
                references=tuple(find_references(description)),
                fingerprint=fingerprint(date, amount, description, occurrence),
            )
        )
    return statement
