"""An event as config.tsh says it, and back: divisions, rounds, the event's name and date, spread caps, how rounds
were paired (tsh_autopair), `bye_spread`, the rating system and each division's prizes.

Prizes are written in tsh's syntax, `prize TYPE PLACE DIVISION VALUE [key=value ...]`, one line a place as tsh
awards them: a place prize as `prize rank 3 A '...'`, the high game as `prize highwin 1 A '...'`, a class prize
as a rank prize of the class (`class=B groupname='Class B'`, tsh matching each player's `class` field; a class
by rating band is named from its band, and the `.t` file gives the players in the band that class). The prize's
amount (`amount=80.00`) and a class's rating band (`minrating=`, `maxrating=`) are keys tsh does not read, kept
for the way back. Lucky draws are drawn at the event and tsh has no prize for them: they are not written.
"""

from __future__ import annotations

import re
import shlex
from decimal import Decimal, InvalidOperation

from events.models import Category, Event, Prize, PrizeKind
from events.play.core import tsh
from events.play.core.standings import format_round_spread_caps
from events.play.models import Division, DivisionPlayer
from ratings.models import RatingList, RatingSystem

from . import tsh_autopair
from .common import PlayError
from .prizes import category_of, class_label
from .tsh_autopair import tsh_division_name

# The site's rating systems as tsh names them (config rating_system); Glicko-2 has no tsh name.
TSH_RATING_SYSTEMS = {RatingSystem.NASPA: "nsa2008", RatingSystem.WESPA: "wespa", RatingSystem.ABSP: "absp"}
_SITE_RATING_SYSTEMS = {"nsa2008": RatingSystem.NASPA, "nsa": RatingSystem.NASPA, "wespa": RatingSystem.WESPA}
_SITE_RATING_SYSTEMS["absp"] = RatingSystem.ABSP
_CLASS_WORD = re.compile(r"[^A-Za-z0-9]+")


def tsh_file_name(name: str) -> str:
    """The file a division's `.t` goes in, as config.tsh names it: the downloads and the archive all use it."""
    return f"{tsh_division_name(name).lower()}.t"


def event_config(event: Event) -> tsh.TshConfig:
    """The event's config.tsh. Four queries, and two a division."""
    divisions = list(event.divisions.all())
    autopair, pairing_settings = tsh_autopair.autopair_lines(event, divisions)
    rating_list = event.rating_list if event.rating_list_id else None  # an imported event names it, unrated
    config = tsh.TshConfig(
        divisions={tsh_division_name(d.name): tsh_file_name(d.name) for d in divisions},
        max_rounds=event.number_of_games or None,
        rating_system=TSH_RATING_SYSTEMS.get(rating_list.system) if rating_list else "nsa2008" if event.rated else None,
        settings={
            "event_name": '"' + re.sub(r'[\x00-\x1f\x7f\u2028\u2029"]+', " ", event.title) + '"',
            "event_date": f'"{event.starts_on:%B %-d, %Y}"',
            "bye_spread": str(event.bye_spread),
        },
        autopair=autopair,
    )
    config.settings.update(pairing_settings)
    config.spread_cap = event.standings_spread_cap()
    categories = list(Category.objects.filter(event=event).prefetch_related("prizes"))
    for division in divisions:
        category = category_of(division, categories)
        if category is not None:
            config.prizes += [_prize(line) for line in prize_lines(tsh_division_name(division.name), category)]
    return config


def _prize(line: str) -> tsh.TshPrize:
    words = shlex.split(line)
    return tsh.TshPrize(kind=words[1], args=words[2:], raw=line)


def _quoted(text: str) -> str:
    """A value as a prize line can carry it: one word of tsh's, quoted."""
    text = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", text).strip() or "prize"
    if "'" in text and '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "\u2019") + "'"


def class_name(prize: Prize) -> str | None:
    """The tsh class a class prize is for: its label ("Class B: ..." is B), else its rating band ("1200_1499")."""
    label = class_label(prize)
    if label or prize.kind != PrizeKind.CLASS:
        return label
    if prize.class_min_rating is None and prize.class_max_rating is None:
        return None
    return _CLASS_WORD.sub("_", f"{prize.class_min_rating or 0}_{prize.class_max_rating or 'up'}")


def prize_lines(division: str, category: Category) -> list[str]:
    """The category's prizes as a division's tsh `prize` lines (lucky draws have none)."""
    lines = []
    for prize in category.prizes.all():
        tail = f" amount={prize.amount}" if prize.amount is not None else ""
        value = _quoted(prize.description)
        if prize.kind == PrizeKind.PLACE and prize.rank_from:
            for place in range(prize.rank_from, (prize.rank_to or prize.rank_from) + 1):
                lines.append(f"prize rank {place} {division} {value}{tail}")
        elif prize.kind == PrizeKind.HIGH_GAME:
            lines.append(f"prize highwin 1 {division} {value}{tail}")
        elif prize.kind == PrizeKind.CLASS and class_name(prize):
            name = class_name(prize)
            band = "".join(
                f" {key}={v}"
                for key, v in (("minrating", prize.class_min_rating), ("maxrating", prize.class_max_rating))
                if v is not None
            )
            group = _quoted(f"Class {name}")
            lines.append(
                f"prize rank {prize.rank_from or 1} {division} {value} class={name} groupname={group}{band}{tail}"
            )
    return lines


def seat_classes(division: Division, seats: list[DivisionPlayer]) -> dict[int, str]:
    """Per seat (id): the tsh class of the division's class prizes by rating band the seat's rating is in, so tsh
    awards those prizes as the site does. Two queries."""
    category = category_of(division, list(Category.objects.filter(event_id=division.event_id)))
    if category is None:
        return {}
    bands = [
        (p.class_min_rating, p.class_max_rating, class_name(p))
        for p in category.prizes.filter(kind=PrizeKind.CLASS)
        if p.class_min_rating is not None or p.class_max_rating is not None
    ]
    classes: dict[int, str] = {}
    for seat in seats:
        names = [
            n for low, high, n in bands if (low is None or seat.rating >= low) and (high is None or seat.rating <= high)
        ]
        if names:
            classes[seat.pk] = ",".join(dict.fromkeys(names))  # tsh reads a comma-separated list of classes
    return classes


def spread_caps(config: tsh.TshConfig | None) -> int | tuple[int | None, ...] | None:
    """`config spread_cap` (one cap, or one per round) as the event keeps it."""
    try:
        return config.spread_cap if config else None
    except ValueError as error:
        raise PlayError(f"config.tsh: {error}.", field="config") from None


def fit_event(event: Event, config: tsh.TshConfig | None, rounds: int, notes: list[str]) -> None:
    """An event that was there before the import: it gets room for the file's rounds, and config.tsh's spread caps
    when it has none of its own (without them its standings would not be tsh's); other caps are noted, not taken."""
    wanted = max(rounds, config.max_rounds or 0 if config else 0)
    if wanted > (event.number_of_games or 0):
        notes.append(f"The event had {event.number_of_games} games; it now has {wanted}, as the file plays.")
        event.number_of_games = wanted
        event.save(update_fields=["number_of_games"])
    caps = spread_caps(config)
    if caps is None:
        return
    if event.standings_spread_cap() is None:
        event.spread_cap = caps if isinstance(caps, int) else None
        event.round_spread_caps = format_round_spread_caps(caps) if isinstance(caps, tuple) else ""
        event.save(update_fields=["spread_cap", "round_spread_caps"])
        notes.append("The event now caps the spread a game counts for as config.tsh does, as tsh's standings do.")
    elif event.standings_spread_cap() != caps:
        notes.append("config.tsh caps spread otherwise than the event does: the event keeps its own caps.")


def read_config(config: tsh.TshConfig, event: Event, division: Division, notes: list[str], *, settle: bool) -> None:
    """What config.tsh says that the site keeps, put where it keeps it: `bye_spread` on an event the import made
    (`settle`; an event that was there keeps its own, a difference noted) and the rating list of `rating_system`
    (if the event has none yet), the division's prizes on a category of its own (if it has none, in an event the
    import made: in an event that was there a new category would be a new place to enter). What it cannot
    keep is noted for the director."""
    raw = tsh_autopair.unquote_setting(config.settings.get("bye_spread", ""))
    if raw:
        if not raw.isdigit() or int(raw) > 1000:
            raise PlayError(f"config.tsh: bye_spread must be 0 to 1000 points, found {raw[:20]!r}.", field="config")
        if settle:
            event.bye_spread = int(raw)
            event.save(update_fields=["bye_spread"])
        elif int(raw) != event.bye_spread:
            notes.append(f"config.tsh gives a bye {raw} points of spread; the event keeps its own {event.bye_spread}.")
    system = _SITE_RATING_SYSTEMS.get((config.rating_system or "").lower())
    if config.rating_system and event.rating_list_id is None:
        found = RatingList.objects.filter(association=event.association, system=system).first() if system else None
        if found:
            event.rating_list = found
            event.save(update_fields=["rating_list"])  # named, not rated: nothing is rated unasked
        else:
            notes.append(f"config.tsh rates by {config.rating_system!r}: no rating list of the site rates that way.")
    prizes = [p for p in config.prizes if p.args[1:2] and p.args[1].casefold() == division.name.casefold()]
    if prizes and not settle:
        # A category is also a place people enter: an event that was there keeps to the categories its organiser set.
        notes.append(
            f"config.tsh's {len(prizes)} prize line(s) for {division.name} are not brought in: set the prizes on "
            "the event's own categories."
        )
    elif prizes and category_of(division, list(Category.objects.filter(event=event))) is None:
        category = Category.objects.create(event=event, name=division.name[:100])
        division.category = category
        division.save(update_fields=["category"])
        _save_prizes(category, prizes, notes)


def _params(args: list[str]) -> dict[str, str]:
    return dict(a.split("=", 1) for a in args if "=" in a)


def _save_prizes(category: Category, prizes: list[tsh.TshPrize], notes: list[str]) -> None:
    rows: list[Prize] = []
    for prize in prizes:
        place, value, params = prize.args[0], (prize.args[2:3] or [""])[0], _params(prize.args[3:])
        try:
            amount = Decimal(params["amount"]) if "amount" in params else None
            low, high = (int(params[k]) if k in params else None for k in ("minrating", "maxrating"))
        except (InvalidOperation, ValueError):
            notes.append(f"config.tsh, {prize.raw!r}: an amount or rating that is not a number; left out.")
            continue
        if not place.isdigit() or prize.kind not in ("rank", "highwin") or (prize.kind == "highwin" and place != "1"):
            notes.append(f"config.tsh, {prize.raw!r}: the site has no such prize; left out.")
            continue
        if prize.kind == "highwin":
            kind, place = PrizeKind.HIGH_GAME, None
        elif "class" in params:
            kind, label = PrizeKind.CLASS, params["class"]
            value = (
                value if class_label(Prize(description=value)) == label or low or high else f"Class {label}: {value}"
            )
        else:
            kind = PrizeKind.PLACE
        last = rows[-1] if rows else None
        if (
            kind == PrizeKind.PLACE
            and last is not None
            and (last.kind, last.description, last.amount, last.rank_to) == (kind, value, amount, int(place) - 1)
        ):
            last.rank_to = int(place)  # tsh writes a prize for 3rd to 5th place as a line a place
            continue
        place = int(place) if place else None
        rows.append(
            Prize(
                category=category,
                kind=kind,
                rank_from=place,
                rank_to=place,
                description=value[:200],
                amount=amount,
                class_min_rating=low,
                class_max_rating=high,
                position=len(rows),
            )
        )
    Prize.objects.bulk_create(rows)
