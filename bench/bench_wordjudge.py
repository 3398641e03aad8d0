"""Look-up time and memory of the word judge's in-memory word list, on a synthetic lexicon.

Run from the project root: python bench/bench_wordjudge.py [words]
Makes `words` (default 280,000, about the size of CSW) random letter strings of 2-15 letters,
packs them as the site stores them, unpacks them as a process does on first use, and prints:
the stored (compressed) size, the time to unpack, the memory the `WordList` holds, and the time
of one look-up (a word in the list and one not). A frozenset is measured alongside for comparison.
No real lexicon is used.
"""

from __future__ import annotations

import gc
import random
import statistics
import string
import sys
import time
import tracemalloc
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wordjudge.core import WordList, judge_play, pack  # noqa: E402

LENGTHS = list(range(2, 16))
# Roughly the shape of a Scrabble lexicon: most words have 7-9 letters.
WEIGHTS = [1, 3, 6, 9, 12, 14, 15, 14, 11, 7, 4, 2, 1, 1]


def synthetic_words(count: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < count:
        n = rng.choices(LENGTHS, WEIGHTS)[0]
        words.add("".join(rng.choices(string.ascii_uppercase, k=n)))
    return sorted(words)


def held_bytes(build) -> tuple[object, int]:
    """The object `build()` returns and the bytes still allocated for it afterwards."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    obj = build()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return obj, after - before


def per_lookup_us(contains, words: list[str], rounds: int = 5) -> float:
    """Median over `rounds` of the mean time of one look-up, in microseconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for w in words:
            contains(w)
        times.append((time.perf_counter() - start) / len(words) * 1e6)
    return statistics.median(times)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 280_000
    rng = random.Random(2015)
    words = synthetic_words(count, rng)
    raw = sum(len(w) + 1 for w in words)
    blob = pack(words)
    start = time.perf_counter()
    WordList.unpack(blob)
    unpack_s = time.perf_counter() - start
    word_list, held = held_bytes(lambda: WordList.unpack(blob))
    # The frozenset built from the blob too, so that its strings count.
    frozen, frozen_held = held_bytes(lambda: frozenset(zlib.decompress(blob).decode("ascii").split("\n")))

    present = rng.sample(words, min(20_000, len(words)))
    absent = [w[:-1] + ("Q" if w[-1] != "Q" else "Z") for w in present]
    absent = [w for w in absent if w not in frozen]
    assert all(w in word_list for w in present) and not any(w in word_list for w in absent)
    play = present[:3]

    print(f"words                         {len(word_list):>12,}")
    print(f"newline-joined text           {raw / 1e6:>12.2f} MB")
    print(f"stored blob (zlib level 9)    {len(blob) / 1e6:>12.2f} MB")
    print(f"unpack on first use           {unpack_s * 1e3:>12.0f} ms")
    print(f"WordList memory held          {held / 1e6:>12.2f} MB")
    print(f"WordList look-up, in list     {per_lookup_us(word_list.__contains__, present):>12.2f} µs")
    print(f"WordList look-up, not in list {per_lookup_us(word_list.__contains__, absent):>12.2f} µs")
    play_us = per_lookup_us(lambda _: judge_play(play, word_list), present[:2000])
    print(f"judge a 3-word play           {play_us:>12.2f} µs")
    print(f"frozenset memory held         {frozen_held / 1e6:>12.2f} MB")
    print(f"frozenset look-up, in list    {per_lookup_us(frozen.__contains__, present):>12.2f} µs")


if __name__ == "__main__":
    main()
