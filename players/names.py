"""How a person's name is ordered, from their full name and the family name in it. Pure: no Django.

People write their full name as on their ID, in their own order: "John Smith" (given names first),
"Chua Xavier" or "Tan Ah Kow" (family name first, as most Singaporean Chinese names), "Muhammad Irfan"
(no family name at all, as many Malay names). The family name, when there is one, is the first or the
last word(s) of the full name; that says the order. Without one, the name is always used as written:
it is never reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NameParts", "family_name_problem", "name_parts", "sort_key", "tsh_name"]


def _words(text: str) -> list[str]:
    return (text or "").split()


@dataclass(frozen=True)
class NameParts:
    family: str  # "" when the person has no family name (or has not said)
    given: str  # the rest of the name; the whole name when there is no family name
    family_first: bool | None  # None when there is no family name


def name_parts(full_name: str, family_name: str = "") -> NameParts:
    words, family = _words(full_name), _words(family_name)
    n = len(family)
    if n and n < len(words):
        folded = [w.casefold() for w in words]
        wanted = [w.casefold() for w in family]
        if folded[:n] == wanted:
            return NameParts(" ".join(words[:n]), " ".join(words[n:]), True)
        if folded[-n:] == wanted:
            return NameParts(" ".join(words[-n:]), " ".join(words[:-n]), False)
    return NameParts("", " ".join(words), None)


def family_name_problem(full_name: str, family_name: str) -> str | None:
    """Why `family_name` cannot be the family name in `full_name`, or None when it can (or is empty)."""
    if not _words(family_name):
        return None
    if len(_words(family_name)) >= len(_words(full_name)):
        return "The family name is only part of the full name: leave it empty if you have no family name."
    if name_parts(full_name, family_name).family_first is None:
        return "Write the family name exactly as it begins or ends your full name."
    return None


def tsh_name(full_name: str, family_name: str = "") -> str:
    """The name as tsh lists players: 'Chua, Xavier', 'Smith, John'; 'Muhammad Irfan' as written."""
    parts = name_parts(full_name, family_name)
    return f"{parts.family}, {parts.given}" if parts.family else parts.given


def sort_key(full_name: str, family_name: str = "") -> tuple[str, str]:
    """Alphabetical order by family name, then the full name; a name without family name sorts as written.

    (players.models.by_family_name() is the same order for database queries.)
    """
    parts = name_parts(full_name, family_name)
    whole = " ".join(_words(full_name)).casefold()
    return ((parts.family.casefold() or whole), whole)
