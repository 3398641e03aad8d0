"""A lucky draw anyone can check: the winners follow from a seed and the ordered list of candidates alone.

Each candidate gets a ticket, the SHA-256 of "<seed>:<position>:<candidate>" (position counted from 1 in
the list as given); the lowest tickets win, in ticket order. Nothing else goes in (no clock, no
process-wide random state, nothing that changes between Python versions), so re-running the draw with
the stored seed and list must give the stored winners; a different list or seed gives a different draw.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

MAX_SEED = 2**63 - 1  # fits a signed 64-bit database column


@dataclass(frozen=True)
class DrawResult:
    seed: int
    candidates: tuple[int, ...]
    winners: tuple[int, ...]


def new_seed() -> int:
    """A fresh seed from the operating system's random source."""
    return secrets.randbelow(MAX_SEED) + 1


def ticket(seed: int, position: int, candidate: int) -> str:
    return hashlib.sha256(f"{seed}:{position}:{candidate}".encode()).hexdigest()


def draw(seed: int, candidates: Sequence[int], winners: int) -> DrawResult:
    """Draws `winners` of `candidates` (fewer when there are fewer candidates)."""
    if winners < 1:
        raise ValueError("Draw at least one winner.")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError("The seed is out of range.")
    if len(set(candidates)) != len(candidates):
        raise ValueError("A candidate is listed twice.")
    ranked = sorted(
        ((ticket(seed, position, c), c) for position, c in enumerate(candidates, start=1)),
    )
    return DrawResult(seed, tuple(candidates), tuple(c for _, c in ranked[:winners]))


def check(seed: int, candidates: Sequence[int], winners: int, claimed: Sequence[int]) -> bool:
    """Whether a stored draw is what the seed and candidates give."""
    try:
        return list(draw(seed, candidates, winners).winners) == list(claimed)
    except ValueError:
        return False
