"""Payment references: the short code a payer types into a bank transfer, or a PayNow QR carries as its
bill number, so the money can be matched to what it pays for.

A reference is a kind letter, the number of the thing due zero-padded to at least 6 digits, and one check
character: `E000123` + check for entry 123.

    E   an entry
    G   a group entry
    M   a membership renewal
    C   a club night's session fee

The check character makes a weighted sum over the whole reference divisible by 31:

    sum(value(char) * 3**k) = 0 (mod 31)    k = 0 for the check character, 1 for the last digit, ...

where a digit is worth itself, the kind letter its place in 0-9A-Z (E 14, G 16, M 22), and the check
character its place in CHECK_ALPHABET: the digits and the 21 letters left when I, L, O, S and Z (which
look like 1, 1, 0, 5 and 2) are taken out. This is the design of ISO 7064's pure systems (MOD 11-2,
MOD 37-2: a prime modulus, powers of a primitive root as weights) with the prime 31, so the check is
always a letter or a digit. (ISO 7064 MOD 37,36, the standard's alphanumeric hybrid system, lets some
swaps of adjacent digits through, e.g. G9985001 and G9895001 both pass it.)

Every weight is non-zero mod 31 and, 3 being a primitive root mod 31, no two of a reference's at most 25
weights are equal. So one wrong character changes the sum by weight * difference, never 0 mod 31, and
swapping any two different characters (adjacent or not) changes it by (weight - weight) * difference,
never 0 either: a typo never turns one payer's reference into another's. A random token of the right
shape passes once in 31, which is why callers still match a reference against what is actually due.

References are upper case letters and digits only, at most 25 characters. People type them in any case
and with spaces or hyphens (`e-000123-k`); `parse_reference` accepts those, and `find_references` digs
them out of a bank's free-text description.
"""

from __future__ import annotations

import re

# The kind letters, each written here once: every reference of an entry, a group entry, a membership renewal or a
# club night's session fee
# is made with these (the kinds registered with money.payables take their `code` from here).
ENTRY = "E"
GROUP = "G"
RENEWAL = "M"
SESSION = "C"
KINDS = ENTRY + GROUP + RENEWAL + SESSION
MIN_DIGITS = 6
MAX_LENGTH = 25
MAX_NUMBER = 10 ** (MAX_LENGTH - 2) - 1  # the kind letter and the check character take two places

MODULUS = 31
CHECK_ALPHABET = "0123456789ABCDEFGHJKMNPQRTUVWXY"  # value = place; no I, L, O, S or Z
_VALUE = {ch: i for i, ch in enumerate("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")}

_SHAPE = re.compile(rf"([{KINDS}])([0-9]{{{MIN_DIGITS},{MAX_LENGTH - 2}}})([{CHECK_ALPHABET}])")
_SEPARATORS = re.compile(r"[\s\-]+")
# In free text: runs of letters and digits, and what lies between them.
_WORD = re.compile(r"[0-9A-Z]+")


def _check_char(body: str) -> str:
    """The character that makes the weighted sum of `body` + it divisible by 31 (Horner's rule)."""
    total = 0
    for ch in body:
        total = (total + _VALUE[ch]) * 3 % MODULUS
    return CHECK_ALPHABET[-total % MODULUS]


def make_reference(kind: str, number: int) -> str:
    """The reference of thing `number` of `kind` ("E", "G" or "M"): e.g. make_reference("E", 123)."""
    if not isinstance(kind, str) or len(kind) != 1 or kind not in KINDS:
        raise ValueError(f"A reference's kind is one of {', '.join(KINDS)}, not {kind!r}.")
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"A reference's number is an int, not {type(number).__name__}.")
    if not 0 <= number <= MAX_NUMBER:
        raise ValueError(f"A reference's number is between 0 and {MAX_NUMBER}, not {number}.")
    body = f"{kind}{number:0{MIN_DIGITS}d}"
    return body + _check_char(body)


def _parse_compact(text: str) -> tuple[str, int] | None:
    """(kind, number) for a reference written upper case with nothing between its characters."""
    match = _SHAPE.fullmatch(text)
    if not match:
        return None
    kind, digits, _ = match.groups()
    number = int(digits)
    # Only the canonical form: no extra leading zeros, which would make two references for one number.
    if make_reference(kind, number) != text:
        return None
    return kind, number


def parse_reference(text: str) -> tuple[str, int] | None:
    """(kind, number) when `text` is a reference with the right check character, else None.

    Any case, with spaces or hyphens anywhere: "e-000123-k" reads as "E000123K"."""
    if not isinstance(text, str):
        return None
    return _parse_compact(_SEPARATORS.sub("", text.strip()).upper())


def find_references(text: str) -> list[tuple[str, int]]:
    """Every valid reference in a bank's free-text description, in order, each once.

    A reference is found as a whole word ("OTHR E000123K SCRABBLE", "REF:E000123K") or split by spaces or
    hyphens ("E-000123-K", "E 000123 K"); one glued to other letters or digits ("OTHRE000123K") is not.
    Tokens of the right shape with a wrong check character are ignored."""
    if not isinstance(text, str):
        return []
    upper = text.upper()
    words = list(_WORD.finditer(upper))
    found: list[tuple[str, int]] = []
    i = 0
    while i < len(words):
        hit = None
        if words[i].group()[0] in KINDS:
            compact = ""
            for j in range(i, len(words)):
                if j > i and not _SEPARATORS.fullmatch(upper[words[j - 1].end() : words[j].start()]):
                    break  # words joined only across spaces and hyphens
                compact += words[j].group()
                if len(compact) > MAX_LENGTH:
                    break
                parsed = _parse_compact(compact)
                if parsed:
                    hit = (parsed, j)
                    break  # the shortest reading: a following word is left to stand on its own
        if hit:
            parsed, last = hit
            if parsed not in found:
                found.append(parsed)
            i = last + 1
        else:
            i += 1
    return found


def near_misses(text: str) -> list[str]:
    """Whole words shaped like a reference (a kind letter, at least six digits, one more character) whose check
    fails: a reference typed with a slip. Each once, in order; none when the text holds a valid reference."""
    if not isinstance(text, str) or find_references(text):
        return []
    missed: list[str] = []
    for word in _WORD.finditer(text.upper()):
        token = word.group()
        if (
            token[0] in KINDS
            and MIN_DIGITS + 2 <= len(token) <= MAX_LENGTH
            and token[1:-1].isdigit()
            and token[-1].isalnum()
            and _parse_compact(token) is None
            and token not in missed
        ):
            missed.append(token)
    return missed
