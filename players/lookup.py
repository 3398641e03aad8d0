"""Finding the record a person already has: the one matching rule (players.matching) with the records it reads.

Every door asks here (sign-up, a group entry and its class list, the tsh and ratings imports, the admin's "add
player"): the records are read in one query however many people are asked about (two with member numbers), so a
class list of forty students costs what one student does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q

from . import matching
from .matching import Match, Person, Record

FIELDS = ("pk", "member_number", "full_name", "display_name", "date_of_birth", "email", "user_id")
# More people than this at once (a members spreadsheet of thousands) read every record in one plain query: a query of
# thousands of terms would cost more than reading the table, and SQLite refuses one over a thousand deep.
MAX_NARROWED = 100


def _rows_to_records(rows) -> list[Record]:
    return [
        Record(
            id=pk,
            member_number=number,
            full_name=full,
            display_name=shown or "",
            date_of_birth=born,
            email=email or "",
            linked=user_id is not None,
        )
        for pk, number, full, shown, born, email, user_id in rows
    ]


def _narrowing(people: list[Person]) -> Q | None:
    """The records any of `people` could match, when each knows more than a name: a word of the name (any order of
    the family name keeps every word), the same date of birth or email, or the member number. None: read them all (a
    door that knows only names compares spellings with every record, and so does a door of many people)."""
    if len(people) > MAX_NARROWED or any(p.name_is_all and p.member_number is None for p in people):
        return None
    terms = [Q(member_number__in=[p.member_number for p in people if p.member_number is not None])]
    for person in people:
        # The longest word as written, without its punctuation ("Tan," of "Tan, Ah Kow"); accents kept, as stored.
        words = sorted(re.findall(r"[^\W_]+", person.full_name), key=len, reverse=True)
        if words:
            terms.append(Q(full_name__icontains=words[0]) | Q(display_name__icontains=words[0]))
        if person.date_of_birth:
            terms.append(Q(date_of_birth=person.date_of_birth))
        if person.email.strip():
            terms.append(Q(email__iexact=person.email.strip()))
    return reduce(or_, terms)


def load_records(people: Iterable[Person], queryset=None) -> matching.Records:
    """The records `people` may match, in one query. `queryset`: only these players (e.g. those without an account,
    for a claim)."""
    from .models import Player

    people = list(people)
    players = Player.objects.all() if queryset is None else queryset
    narrowing = _narrowing(people)
    if narrowing is not None:
        players = players.filter(narrowing)
    return matching.Records(_rows_to_records(players.order_by("member_number").values_list(*FIELDS)))


def find_people(people: Iterable[Person], queryset=None) -> list[Match]:
    """The rule's answer for each person, in order; one query for all of them."""
    people = list(people)
    records = load_records(people, queryset)
    return [records.match(person) for person in people]


def find_person(person: Person, queryset=None) -> Match:
    return find_people([person], queryset)[0]


def described(record: Record) -> str:
    """How a likely record is named to the person choosing: "member 1066, Tan Ah Kow"."""
    return f"member {record.member_number}, {record.full_name}"


def likely_text(found: Match) -> str:
    """The likely records as a sentence's end: "member 1066, Tan Ah Kow; or member 1080, Ah Kow Tan"."""
    return "; or ".join(described(record) for record in found.likely)


@dataclass(frozen=True)
class Offered:
    """A likely record as it is shown to the person choosing: enough to tell people of one name apart, and nothing
    more of someone else's (the year of birth, never the date; no email, phone or address)."""

    member_number: int
    name: str
    club_or_school: str  # the record's club, else its school ("" when neither is known)
    born_in: int | None


def offered(matches: Iterable[Match]) -> list[list[Offered]]:
    """The likely records of each match, strongest first, as the person choosing is shown them: one query for all."""
    from .models import Player

    matches = list(matches)
    ids = {record.id for found in matches for record in found.likely}
    rows = Player.objects.filter(pk__in=ids).values_list("pk", "club__name", "school") if ids else []
    places = {pk: (club or school or "").strip() for pk, club, school in rows}
    return [
        [
            Offered(
                member_number=record.member_number,
                name=record.full_name,
                club_or_school=places.get(record.id, ""),
                born_in=record.date_of_birth.year if record.date_of_birth else None,
            )
            for record in found.likely
        ]
        for found in matches
    ]
