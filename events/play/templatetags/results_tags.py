"""Showing results: wins, overtime, audit-trail entries, the round's games without a board."""

from django import template
from django.conf import settings
from django.template.loader import render_to_string

from clubsite.kit.html import safe
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


FIELDS_TEMPLATE = "events/play/_my_result_fields.html"
# A prefix no game has: a blank form is drawn once with it, then given each game's own.
BLANK_PREFIX = "g987654321"
_blank_fields: dict[type, str] = {}


@register.filter
def my_result_fields(form) -> str:
    """A player's result form's fields ("my game"). A blank form (a game just paired, nothing typed, no question
    added) differs from game to game only in its prefix, and crispy-forms takes about a millisecond a field to
    draw it on the page every phone polls: it is drawn once a process and given each game's prefix."""
    blank = not form.is_bound and not form.initial and not getattr(form, "tie_asked", False)
    blank = blank and form.prefix[:1] == "g" and form.prefix[1:].isdigit()  # a game's: nothing to escape
    # While developing, templates change under a running process: drawn each time.
    if settings.DEBUG or not blank or not form.fields["confirm_unusual"].widget.is_hidden:
        return render_to_string(FIELDS_TEMPLATE, {"form": form})
    kind = type(form)
    if kind not in _blank_fields:
        _blank_fields[kind] = render_to_string(FIELDS_TEMPLATE, {"form": kind(prefix=BLANK_PREFIX)})
    return safe([_blank_fields[kind].replace(f"{BLANK_PREFIX}-", f"{form.prefix}-")])
