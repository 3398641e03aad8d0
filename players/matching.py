"""One person, one record: the rule that tells whether a person a door is given already has a record. Pure: no Django.

Every door that may make a player record asks this rule first: sign-up and the claim of a record, a group entry and
its class list, the tsh and ratings imports, and the admin's "add player" (players.lookup loads the records it needs
and asks it; a door never keeps a rule of its own).

What a door knows of the person (`Person`: full name, family name, date of birth, email, member number) is matched
against the records (`Record`), the first of these that applies:

1. A member number that is on a record: that record, **sure**.
2. The same name, and the same date of birth or the same email: that record, **sure** (several such records are
   **likely**, to choose from). Names are compared without case, accents, punctuation or repeated spaces, and in
   either order of the family name: "Tan Ah Kow", "Ah Kow Tan" and "Tan, Ah Kow" are one name. A family name begins
   or ends a name (players.names), so one way of writing it is the other's words turned round (`name_key`).
3. The door can know nothing but the name (a tsh or ratings file, `Person.name_is_all`): the one record of that name
   is **sure**, as there is nothing else to tell by; two or more are likely. A page that could have asked for the
   date of birth is not such a door: there one record of the name is likely, not sure.
4. Otherwise the records to choose from, **likely**, strongest first: the same name (even with another date of
   birth: a slip of the date is more common than two people of one name); then a close name (a slip of spelling, or
   the same words in another order) with the same date of birth or email (for a door that knows only the name, a
   close name alone); then a record with the same email under another name (the account of someone on record).
5. None of these: **new**.

A door never makes a new record while records are likely: the person at the door picks one, or says that this is a
different person (and the records they were shown are what they were told about).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

__all__ = [
    "LIKELY",
    "NEW",
    "SURE",
    "Match",
    "Person",
    "Record",
    "Records",
    "match",
    "name_key",
    "normalise",
    "same_name",
]

SURE, LIKELY, NEW = "sure", "likely", "new"
CLOSE_NAME = 0.85  # difflib's ratio from which two names are a slip of spelling apart ("Tan Ah Kow" / "Tan Ah Kou")
MAX_LIKELY = 5  # records offered to choose from: more is a list nobody reads
MAX_NAME_WORDS = 40  # more words than any name has (a pasted paragraph): turning them round would cost their square


def normalise(name: str) -> str:
    """Lower case, without accents, punctuation or repeated spaces: "Tan, Ah-Kow" -> "tan ah kow"."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w\s]|_", " ", plain.casefold()).split())


def name_key(name: str) -> str:
    """The name as compared: normalised, then the first in alphabetical order of its words turned round.

    The family name begins or ends a full name, so "Ah Kow Tan" is "Tan Ah Kow" turned round by one word, and "Tan, Ah
    Kow" (tsh's order) is "Tan Ah Kow" once the comma goes: all three have one key. Words in any other order ("Kow Ah
    Tan") are another name (a close one: rule 4)."""
    words = normalise(name).split()
    if not words:
        return ""
    if len(words) > MAX_NAME_WORDS:
        return " ".join(words)  # no person's name: compared as written, without the work of turning it round
    return min(" ".join(words[i:] + words[:i]) for i in range(len(words)))


def same_name(a: str, b: str) -> bool:
    key = name_key(a)
    return bool(key) and key == name_key(b)


def _words_key(key: str) -> str:
    return " ".join(sorted(key.split()))


def _email(value: str) -> str:
    return (value or "").strip().casefold()


@dataclass(frozen=True)
class Person:
    """What a door knows of someone."""

    full_name: str = ""
    family_name: str = ""  # not needed to match (either order is the same name); kept for the record a door makes
    date_of_birth: date | None = None
    email: str = ""
    member_number: int | None = None
    # The door can know nothing but the name (a tsh or ratings file, written by other software): rules 3 and 4 then
    # go by the name alone. A page that could have asked for the date of birth is not such a door.
    name_is_all: bool = False


@dataclass(frozen=True)
class Record:
    """An existing player record, as much as the rule reads of it."""

    id: int
    member_number: int
    full_name: str
    display_name: str = ""
    date_of_birth: date | None = None
    email: str = ""
    linked: bool = False  # has an account

    @property
    def keys(self) -> set[str]:
        return {name_key(n) for n in (self.full_name, self.display_name)} - {""}


@dataclass(frozen=True)
class Match:
    kind: str  # SURE, LIKELY or NEW
    record: Record | None = None  # the sure one
    likely: tuple[Record, ...] = ()  # the ones to choose from, strongest first
    why: str = ""  # how the sure record was found, in words ("member number", "name and date of birth")

    @property
    def is_sure(self) -> bool:
        return self.kind == SURE

    @property
    def is_likely(self) -> bool:
        return self.kind == LIKELY

    @property
    def is_new(self) -> bool:
        return self.kind == NEW


@dataclass
class Records:
    """The records to match against, indexed once for many people (a file of thousands of names)."""

    records: Iterable[Record]
    by_number: dict[int, Record] = field(init=False)
    by_key: dict[str, list[Record]] = field(init=False)
    by_words: dict[str, list[Record]] = field(init=False)
    by_birth: dict[date, list[Record]] = field(init=False)
    by_email: dict[str, list[Record]] = field(init=False)
    keys: list[str] = field(init=False)

    def __post_init__(self):
        self.records = list(self.records)
        self.by_number, self.by_key, self.by_words, self.by_birth, self.by_email = {}, {}, {}, {}, {}
        for record in self.records:
            self.by_number[record.member_number] = record
            for key in record.keys:
                self.by_key.setdefault(key, []).append(record)
                self.by_words.setdefault(_words_key(key), []).append(record)
            if record.date_of_birth:
                self.by_birth.setdefault(record.date_of_birth, []).append(record)
            if email := _email(record.email):
                self.by_email.setdefault(email, []).append(record)
        self.keys = list(self.by_key)

    def match(self, person: Person) -> Match:
        return match(person, self)


def _agrees(person: Person, record: Record) -> bool:
    """The same date of birth or the same email, both known."""
    if person.date_of_birth and record.date_of_birth == person.date_of_birth:
        return True
    email = _email(person.email)
    return bool(email) and _email(record.email) == email


def _close(key: str, record: Record) -> bool:
    return any(
        _words_key(k) == _words_key(key) or difflib.SequenceMatcher(None, key, k).ratio() >= CLOSE_NAME
        for k in record.keys
    )


def _unique(records: Iterable[Record]) -> list[Record]:
    return list({r.id: r for r in records}.values())


def match(person: Person, records: Records | Iterable[Record]) -> Match:
    """The record the person already has (SURE), the records to choose from (LIKELY), or NEW: the module's rule."""
    if not isinstance(records, Records):
        records = Records(records)
    if person.member_number is not None and person.member_number in records.by_number:
        return Match(SURE, records.by_number[person.member_number], why="member number")
    key = name_key(person.full_name)
    named = _unique(records.by_key.get(key, [])) if key else []
    agreeing = [r for r in named if _agrees(person, r)]
    if len(agreeing) == 1:
        record = agreeing[0]
        same_birth = person.date_of_birth and record.date_of_birth == person.date_of_birth
        return Match(SURE, record, why="name and date of birth" if same_birth else "name and email")
    if person.name_is_all and len(named) == 1:
        return Match(SURE, named[0], why="the only record of that name")
    likely = agreeing + [r for r in named if r not in agreeing]
    if key:
        if person.name_is_all:
            # Nothing else to tell by: a close name is worth asking about (the ratings file's review).
            pool = _close_candidates(key, records)
        else:
            pool = [*records.by_birth.get(person.date_of_birth, []), *records.by_email.get(_email(person.email), [])]
            pool = [r for r in _unique(pool) if _close(key, r)]
        likely += pool
    likely += records.by_email.get(_email(person.email), []) if _email(person.email) else []
    likely = _unique(likely)[:MAX_LIKELY]
    return Match(LIKELY, likely=tuple(likely)) if likely else Match(NEW)


def _close_candidates(key: str, records: Records) -> list[Record]:
    found = list(records.by_words.get(_words_key(key), []))
    for close in difflib.get_close_matches(key, records.keys, n=MAX_LIKELY, cutoff=CLOSE_NAME):
        found += records.by_key[close]
    return _unique(found)
