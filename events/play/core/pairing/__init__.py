"""Pairing systems (DOMAIN §3): pure functions from players and history to pairs.

Entry point: `pair_round(system, players, history, options)`.
"""

from .core import MAX_SEED, SEED_REFUSAL, SEED_RULE, History, PairingError, PairingOptions, PairingPlayer, PairingResult
from .engine import SYSTEMS, pair_round

__all__ = [
    "MAX_SEED",
    "SEED_REFUSAL",
    "SEED_RULE",
    "SYSTEMS",
    "History",
    "PairingError",
    "PairingOptions",
    "PairingPlayer",
    "PairingResult",
    "pair_round",
]
