"""The word judge's rules, with no database: reading a word list, packing it, and judging a play.

A word list is stored as one zlib blob of its sorted, newline-joined uppercase words and held in
memory as a `WordList`: per word length, the words of that length concatenated in sorted order, so
a look-up is a binary search over fixed-width records (a few bytes a word, no object per word).

Seed 000 rule 11.4: the judges rule only on the challenge as a whole and never say which word of
several is unacceptable, so `judge_play` answers one verdict for all the words of a play.
"""

from __future__ import annotations

import re
import zlib
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

# A word on a 15 x 15 board has at most 15 letters; a play forms a main word and its cross-words.
MAX_WORD_LETTERS = 15
MAX_WORDS_IN_PLAY = 12
# Separators players may type between the words of one play.
_SEPARATORS = re.compile(r"[\s,;/+&]+")
BAD_LINES_REPORTED = 20


def normalise_word(text: str) -> str | None:
    """The word in uppercase without surrounding whitespace, or None when it is not all letters A-Z."""
    word = text.strip().upper()
    if not word or not (word.isascii() and word.isalpha()):
        return None
    return word


@dataclass(frozen=True)
class BadLine:
    number: int  # 1-based
    text: str


@dataclass(frozen=True)
class ParsedList:
    words: list[str]  # sorted, unique, uppercase
    bad_lines: list[BadLine]  # the first BAD_LINES_REPORTED of them
    bad_count: int


def parse_word_list(lines: Iterable[str]) -> ParsedList:
    """One word a line; blank lines are skipped; anything else that is not letters is a bad line."""
    words: set[str] = set()
    bad: list[BadLine] = []
    bad_count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        word = normalise_word(line)
        if word is None:
            bad_count += 1
            if len(bad) < BAD_LINES_REPORTED:
                bad.append(BadLine(number, line.strip()[:60]))
            continue
        words.add(word)
    return ParsedList(words=sorted(words), bad_lines=bad, bad_count=bad_count)


def pack(words: Iterable[str]) -> bytes:
    """The stored form: zlib of the sorted, newline-joined words."""
    return zlib.compress("\n".join(sorted(words)).encode("ascii"), 9)


class WordList:
    """Membership test over a packed list, a binary search per look-up."""

    def __init__(self, words: Iterable[str]):
        by_length: dict[int, list[str]] = {}
        for word in words:
            by_length.setdefault(len(word), []).append(word)
        # One bytes object per length: record i of length n is blob[i*n:(i+1)*n].
        self._blobs = {n: "".join(sorted(ws)).encode("ascii") for n, ws in by_length.items()}
        self._count = sum(len(ws) for ws in by_length.values())

    @classmethod
    def unpack(cls, blob: bytes) -> WordList:
        text = zlib.decompress(blob).decode("ascii")
        return cls(text.split("\n") if text else [])

    def __len__(self) -> int:
        return self._count

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        n = len(word)
        blob = self._blobs.get(n)
        if blob is None:
            return False
        key = word.encode("ascii", "replace")
        size = len(blob) // n
        i = bisect_left(range(size), key, key=lambda j: blob[j * n : (j + 1) * n])
        return i < size and blob[i * n : (i + 1) * n] == key

    def nbytes(self) -> int:
        """Bytes of word data held (the per-length blobs)."""
        return sum(len(b) for b in self._blobs.values())


class BadPlay(ValueError):
    """Words a judge cannot rule on as typed; the message says what to correct."""


def split_play(text: str) -> list[str]:
    """The words of one play, uppercase, in the order typed (separated by spaces, commas, ...)."""
    parts = [p for p in _SEPARATORS.split(text.strip()) if p]
    if not parts:
        raise BadPlay("Type the word or words formed by the challenged play.")
    if len(parts) > MAX_WORDS_IN_PLAY:
        raise BadPlay(f"A play forms at most {MAX_WORDS_IN_PLAY} words; check what was typed.")
    words = []
    for part in parts:
        word = normalise_word(part)
        if word is None:
            raise BadPlay(f"“{part[:20]}” is not a word: use letters only, with spaces or commas between words.")
        if len(word) > MAX_WORD_LETTERS:
            raise BadPlay(f"“{word[:20]}…” is longer than {MAX_WORD_LETTERS} letters, the width of the board.")
        words.append(word)
    return words


def judge_play(words: list[str], word_list: WordList) -> bool:
    """True when every word of the play is in the list: the play is acceptable."""
    return all(word in word_list for word in words)
