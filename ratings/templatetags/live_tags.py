"""Live ratings in templates: `{% load live_tags %}{% with r=live|live_of:player_id %}`."""

from django import template

register = template.Library()


@register.filter
def live_of(live, player_id):
    """A player's LiveRating from a division's LiveRatings (None when there are none)."""
    return live.get(player_id) if live is not None else None


@register.filter
def signed(value) -> str:
    """+12, −7, ±0."""
    if value is None:
        return ""
    value = int(value)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"
