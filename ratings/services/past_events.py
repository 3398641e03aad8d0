"""A past event brought in from its tsh file, for a rating list: imported as play imports any tsh file (the same
parser, matching and checks), its divisions finalised, and rated on the list in date order (the rating run
starts from its date, so every later event on the list is re-rated after it)."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import is_association_staff
from events.play import services as play
from events.play.core import tsh
from events.play.services import tsh_io
from events.play.services.tsh_preview import TshPreview, preview_tsh
from ratings.models import RatingList

from .checks import RatingError

__all__ = ["import_past_event", "preview_past_event"]


def _check(actor, starts_on: date | None, config_text: str | None) -> None:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can import a past event for a rating list.")
    if starts_on is not None and starts_on > timezone.localdate():
        raise RatingError("A past event began on or before today: check the date.", field="starts_on")
    if starts_on is None and not _config_date(config_text):
        # Events are rated in the order they began: a past event dated today would be rated after every other.
        raise RatingError(
            "Give the date the event began: its files do not say (config.tsh's event_date).", field="starts_on"
        )


def _config_date(config_text: str | None) -> date | None:
    try:
        return tsh_io.event_date(tsh.parse_config(config_text)) if config_text else None
    except tsh.TshParseError:
        return None  # the import names the line


def preview_past_event(
    actor, text: str, *, config_text=None, division_name=None, title=None, starts_on=None
) -> TshPreview:
    """What `import_past_event` would import, saving nothing (play's preview of a new event)."""
    _check(actor, starts_on, config_text)
    return preview_tsh(
        actor, text, config_text=config_text, division_name=division_name, title=title, starts_on=starts_on
    )


@transaction.atomic
def import_past_event(
    actor,
    rating_list: RatingList,
    text: str,
    *,
    config_text: str | None = None,
    division_name: str | None = None,
    title: str | None = None,
    starts_on: date | None = None,
    choices: dict[int, int | None] | None = None,
) -> tsh_io.ImportReport:
    """A new event on `rating_list` from a `.t` file: every result confirmed, its division finalised, rated once
    the transaction commits. All or nothing."""
    _check(actor, starts_on, config_text)
    report = tsh_io.import_tsh(
        actor,
        text,
        config_text=config_text,
        division_name=division_name,
        title=title,
        starts_on=starts_on,
        choices=choices,
    )
    event = report.event
    if event.starts_on > timezone.localdate():
        raise RatingError("A past event began on or before today: check the date.", field="starts_on")
    event.rated, event.rating_list = True, rating_list
    event.save(update_fields=["rated", "rating_list"])
    # Finalising is what rates an event (and completes it) everywhere on the site: the same path here.
    play.finalise_division(actor, report.division)
    return report
