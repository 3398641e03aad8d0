"""Wins, and a record of wins and losses, as every page, printout and note shows them.

Wins are whole or half (a tie is half a win to each player): a whole number shows as one (7), a half with its
decimal (7.5). A record is wins–losses with an en dash (7–2, 7.5–1.5), and its ties after them when they are
counted apart (7–2–1)."""

from functools import cache


@cache  # a few dozen values (whole and half wins), asked for thousands of times by a large division's tables
def format_wins(value: float) -> str:
    """Wins as `floatformat:"-1"` shows them: 3, 2.5."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


@cache
def format_record(wins: float, losses: float, ties: int = 0) -> str:
    """Wins–losses (7–2, 7.5–1.5), then ties when they are counted apart (7–2–1)."""
    return f"{format_wins(wins)}–{format_wins(losses)}" + (f"–{ties}" if ties else "")
