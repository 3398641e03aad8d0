"""Pairing systems (DOMAIN §3): pure functions from players and history to pairs.

Entry point: `pair_round(system, players, history, options)`.
"""

from .core import History, PairingError, PairingOptions, PairingPlayer, PairingResult
from .engine import SYSTEMS, pair_round

__all__ = [
    "SYSTEMS",
    "History",
    "PairingError",
    "PairingOptions",
    "PairingPlayer",
    "PairingResult",
    "pair_round",
]
