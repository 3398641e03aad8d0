"""Showing results: wins, overtime, audit-trail entries, the round's games without a board."""

from django import template

from clubsite.kit.wins import format_wins
from events.play.services import results as result_services

register = template.Library()


@register.filter
def wins(value) -> str:
    """Wins as every page shows them (clubsite.kit.wins): 7, 7.5; nothing for no value."""
    return "" if value is None or value == "" else format_wins(value)


@register.filter
def person(user) -> str:
    """Who changed a result: a name, never a login email."""
    return result_services.person_name(user) or "—"


@register.filter
def before_text(change) -> str:
    return result_services.describe_snapshot(change.before, result_services.change_names(change))


@register.filter
def after_text(change) -> str:
    return result_services.describe_snapshot(change.after, result_services.change_names(change))


@register.filter
def overtime(game, side: str) -> str:
    return minutes_seconds(getattr(game, f"overtime_{side}", 0))


@register.filter
def minutes_seconds(seconds) -> str:
    """Seconds over the time control as a clock shows them: 61 -> "1:01" ("" for none)."""
    seconds = seconds or 0
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds else ""


@register.filter
def off_board(unplayed) -> list:
    return [g for g in unplayed if not g.player_b_id]
