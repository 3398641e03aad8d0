"""Seeding a rating list from a ratings file in the published list layout.

The file: one player a line; blank lines and lines starting with `#` are ignored, and so is a
header line (one naming the columns). Columns are separated by tabs, or else by spaces, in this
order:

    name                 rating  rank  expires     games
    Tan, Wei Ling        1850    12    2026-12-31  412
    Adrian Goh           1422    -     -           38

- name: `Surname, Given` or `Given Surname`; may contain spaces (with space separators the
  last four columns are the numbers, everything before them the name);
- rating: a whole number from 1 to 3000;
- rank: a whole number, or `-`; a ranked player was active when the list was published, and counts as
  active from the import's date (PlayerRating.ranked_on_import), as a rated game that day would;
- expires: membership expiry `YYYY-MM-DD` (or `YYYYMMDD`), or `-`;
- games: career rated games, a whole number.

Lines end with a newline (`\n`, `\r\n` or `\r`), so line numbers are those an editor shows. A
line that cannot be stored as read (a control character such as NUL in a name, a name over 200
characters or without a letter, a number out of range, too many lines) is refused by number like
any other bad line, so nothing of the file is saved.

Names are matched to members by the one matching rule (players.matching): one member with that name (in
either order of the family name) is matched; several,
or a close spelling, are left for staff to review (pick the member or "new player"); no close
name makes a new player. Nothing is written until staff apply the reviewed import, all at once.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff
from clubsite.kit.status import can_move, move
from players import lookup, matching
from players import services as player_services
from players.matching import Person, normalise
from players.models import Player

from ..models import (
    ImportStatus,
    MatchKind,
    PlayerRating,
    RatedEvent,
    RatingImport,
    RatingImportLine,
    RatingList,
)

COLUMNS = ("name", "rating", "rank", "expires", "games")
MAX_RATING = 3000
MAX_RANK = 1_000_000
MAX_GAMES = 1_000_000
MAX_NAME = 200  # RatingImportLine.name and Player.full_name
MAX_LINES = 20_000  # players in one file; far more than any list holds
MAX_SHOWN = 24  # characters of a bad value quoted back
MAX_LISTED_ERRORS = 20


class ImportFileError(ServiceError):
    def __init__(self, errors: list[tuple[int, str]]):
        shown = "; ".join(f"line {n}: {reason}" for n, reason in errors[:MAX_LISTED_ERRORS])
        more = f"; and {len(errors) - MAX_LISTED_ERRORS} more" if len(errors) > MAX_LISTED_ERRORS else ""
        count = f"{len(errors)} line{'s' if len(errors) != 1 else ''}"
        super().__init__(f"Nothing was imported: {count} could not be read. {shown}{more}.", field="file")
        self.errors = errors


@dataclass
class ParsedLine:
    line_number: int
    name: str
    rating: int
    rank: int | None
    expires_on: date | None
    games: int


def _shown(value: str) -> str:
    """A bad value as quoted in the report: escaped, and cut short."""
    return repr(value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…")


def _whole(value: str, what: str, low: int, high: int) -> int:
    if not re.fullmatch(r"[0-9]+", value):
        raise ValueError(f"{what} {_shown(value)} is not a whole number")
    digits = value.lstrip("0") or "0"
    # The length first: int() of thousands of digits is slow, then refused by Python itself.
    if len(digits) > len(str(high)) or not low <= int(digits) <= high:
        shown = digits if len(digits) <= MAX_SHOWN else digits[:MAX_SHOWN] + "…"
        raise ValueError(f"{what} {shown} is outside {low}–{high}")
    return int(digits)


def _name(value: str) -> str:
    name = " ".join(value.split())
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise ValueError("the name holds a control character (such as NUL); save the file as plain text")
    if len(name) > MAX_NAME:
        raise ValueError(f"the name is longer than {MAX_NAME} characters")
    if not normalise(name):
        raise ValueError(f"the name {_shown(name)} has no letters")
    return name


def _expiry(value: str) -> date | None:
    if value in ("-", "", "0"):
        return None
    for fmt in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"expiry {_shown(value)} is not a date (YYYY-MM-DD) or -")


def _split(line: str) -> list[str]:
    if "\t" in line:
        return [f.strip() for f in line.split("\t") if f.strip()]
    tokens = line.split()
    if len(tokens) < len(COLUMNS):
        return tokens
    return [" ".join(tokens[: len(tokens) - 4]), *tokens[-4:]]


def _is_header(fields: list[str]) -> bool:
    """A line naming the columns rather than a player."""
    words = [f.lower() for f in fields[:2]]
    return bool(words) and (words[0] == "name" or words[-1] == "rating")


def parse_rating_file(text: str) -> tuple[list[ParsedLine], list[tuple[int, str]]]:
    """The lines of a ratings file, and the bad lines as (line number, what was expected)."""
    lines: list[ParsedLine] = []
    errors: list[tuple[int, str]] = []
    seen_data = False
    # Only newlines end a line (str.splitlines also splits at form feeds and Unicode separators).
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        fields = _split(line)
        if not seen_data and _is_header(fields):
            seen_data = True
            continue
        seen_data = True
        if len(lines) + len(errors) >= MAX_LINES:
            errors.append((number, f"a ratings file holds at most {MAX_LINES} players"))
            break
        if len(fields) != len(COLUMNS):
            errors.append((number, f"expected 5 columns (name, rating, rank, expires, games), found {len(fields)}"))
            continue
        name, rating, rank, expires, games = fields
        try:
            lines.append(
                ParsedLine(
                    line_number=number,
                    name=_name(name),
                    rating=_whole(rating, "rating", 1, MAX_RATING),
                    rank=None if rank == "-" else _whole(rank, "rank", 1, MAX_RANK),
                    expires_on=_expiry(expires),
                    games=_whole(games, "games", 0, MAX_GAMES),
                )
            )
        except ValueError as error:
            errors.append((number, str(error)))
    if not lines and not errors:
        errors.append((0, "the file holds no players"))
    return lines, errors


def display_name(name: str) -> str:
    if "," in name:
        surname, _, given = name.partition(",")
        return " ".join(f"{given.strip()} {surname.strip()}".split())
    return name


def match_names(names: list[str]) -> list[tuple[str, list[int]]]:
    """For each name of the file: (MatchKind, player ids), from the one matching rule (players.matching): a file's
    name is all it knows of the person, so the one member of that name is matched, several or a close spelling are
    left for review, and no close name makes a new player."""
    found = lookup.find_people(Person(full_name=name, name_is_all=True) for name in names)
    kinds = {matching.SURE: MatchKind.EXACT, matching.LIKELY: MatchKind.REVIEW, matching.NEW: MatchKind.NEW}
    return [(kinds[m.kind], [m.record.id] if m.is_sure else [r.id for r in m.likely]) for m in found]


def _check_staff(actor) -> None:
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can import ratings.")


def import_refusal(rating_list: RatingList) -> str | None:
    """Why a ratings file cannot seed this list, or None when it can: asked before the upload form is offered, and
    again when the file arrives and when the import is applied. One query."""
    if RatedEvent.objects.filter(rating_list=rating_list).exists():
        return (
            f"{rating_list.name} already has rated events: a ratings file can only seed a list before its first "
            "rated event. Create a new list to import into."
        )
    return None


def _check_unrated(rating_list: RatingList) -> None:
    if refusal := import_refusal(rating_list):
        raise ServiceError(refusal, field="rating_list")


def prepare_rating_import(
    actor, rating_list: RatingList, text: str, *, filename: str = "", as_of: date | None = None
) -> RatingImport:
    """Reads a ratings file and matches its names; refuses the whole file if a line is bad."""
    _check_staff(actor)
    _check_unrated(rating_list)
    parsed, errors = parse_rating_file(text)
    if errors:
        raise ImportFileError(errors)
    matches = match_names([p.name for p in parsed])
    with transaction.atomic():
        imp = RatingImport.objects.create(
            rating_list=rating_list,
            filename="".join(c for c in filename if c.isprintable())[:200],
            as_of=as_of or timezone.localdate(),
            uploaded_by=actor,
        )
        RatingImportLine.objects.bulk_create(
            [
                RatingImportLine(
                    rating_import=imp,
                    line_number=p.line_number,
                    name=p.name,
                    rating=p.rating,
                    rank=p.rank,
                    expires_on=p.expires_on,
                    games=p.games,
                    match=kind,
                    candidates=ids,
                    player_id=ids[0] if kind == MatchKind.EXACT else None,
                )
                for p, (kind, ids) in zip(parsed, matches, strict=True)
            ],
            batch_size=1000,
        )
    return imp


NEW_PLAYER = "new"


def apply_rating_import(actor, rating_import: RatingImport, decisions: dict[int, int | str]) -> RatingImport:
    """Applies an import all at once. `decisions` maps each line needing review (by id) to the
    chosen player's id or NEW_PLAYER."""
    _check_staff(actor)
    with transaction.atomic():
        imp = RatingImport.objects.select_for_update().select_related("rating_list").get(pk=rating_import.pk)
        if not can_move(imp, ImportStatus.APPLIED):
            raise ServiceError(f"This import is already {imp.get_status_display().lower()}.")
        RatingList.objects.select_for_update().get(pk=imp.rating_list_id)
        _check_unrated(imp.rating_list)
        lines = list(imp.lines.all())
        undecided = []
        chosen: dict[int, int] = {}
        for line in lines:
            if line.match != MatchKind.REVIEW:
                continue
            decision = decisions.get(line.pk)
            if decision in (None, ""):
                undecided.append(line.line_number)
            elif decision == NEW_PLAYER:
                line.match = MatchKind.NEW
                line.player_id = None
            else:
                chosen[line.pk] = int(decision)
        if undecided:
            raise ServiceError(
                "Choose the member or “new player” for line"
                + ("s " if len(undecided) > 1 else " ")
                + ", ".join(map(str, undecided))
                + ".",
                field="decisions",
            )
        known = set(Player.objects.filter(pk__in=set(chosen.values())).values_list("pk", flat=True))
        for line in lines:
            if line.pk in chosen:
                if chosen[line.pk] not in known:
                    raise ServiceError(f"Line {line.line_number}: that member does not exist.", field="decisions")
                line.player_id = chosen[line.pk]
                line.match = MatchKind.EXACT
        for line in lines:
            if line.match == MatchKind.NEW:
                line.player = player_services.create_player(full_name=display_name(line.name))
        first_line: dict[int, int] = {}
        for line in lines:
            if line.player_id in first_line:
                raise ServiceError(
                    f"Lines {first_line[line.player_id]} and {line.line_number} are the same member; "
                    "choose “new player” or another member for one of them.",
                    field="decisions",
                )
            first_line[line.player_id] = line.line_number
        RatingImportLine.objects.bulk_update(lines, ["match", "player"], batch_size=1000)

        _seed(
            imp.rating_list_id,
            [Seed(line.player_id, line.rating, line.games, line.rank is not None) for line in lines],
            imp.as_of,
        )
        move(imp, ImportStatus.APPLIED)
        imp.applied_at = timezone.now()
        imp.save(update_fields=["status", "applied_at"])
    return imp


@dataclass(frozen=True)
class Seed:
    """A player's rating as a list is seeded with it."""

    player_id: int
    rating: int
    games: int = 0
    ranked: bool = False  # the list counted the player active when it was published (see PlayerRating)


def _seed(rating_list_id: int, seeds: list[Seed], as_of: date) -> None:
    """Each player's rating on the list becomes the seed: their starting point before the list's first rated event.
    The one way a list is seeded, from a ratings file or a members import."""
    existing = {
        r.player_id: r
        for r in PlayerRating.objects.filter(
            rating_list_id=rating_list_id, player_id__in=[s.player_id for s in seeds]
        ).order_by()
    }
    to_create, to_update = [], []
    for seed in seeds:
        row = existing.get(seed.player_id)
        if row is None:
            row = PlayerRating(rating_list_id=rating_list_id, player_id=seed.player_id)
            to_create.append(row)
        else:
            to_update.append(row)
        row.rating = row.seed_rating = seed.rating
        row.games = row.seed_games = seed.games
        row.peak = seed.rating
        row.seed_on = as_of
        row.ranked_on_import = as_of if seed.ranked else None
    PlayerRating.objects.bulk_create(to_create, batch_size=1000)
    PlayerRating.objects.bulk_update(
        to_update,
        ["rating", "seed_rating", "games", "seed_games", "peak", "seed_on", "ranked_on_import"],
        batch_size=1000,
    )
    # Every write of ratings bumps the list's version (see RatingList.version): the live ratings of an
    # event in progress on the list are worked out again from the imported ones.
    RatingList.objects.filter(pk=rating_list_id).update(version=F("version") + 1)


def lists_open_to_seeding() -> list[tuple[int, str]]:
    """The lists a members import may put ratings on, (id, name): those without a rated event yet, as a ratings
    file (import_refusal). One query."""
    rated = RatedEvent.objects.filter(rating_list=OuterRef("pk"))
    return list(RatingList.objects.exclude(Exists(rated)).order_by("position", "name").values_list("pk", "name"))


def seed_from_members_import(actor, rating_list_id: int, ratings: list[tuple[int, int]], as_of: date) -> None:
    """The ratings a members import gives its members, (player id, rating), seed the list as a ratings file's do:
    refused, with the whole import, once the list has rated events. Runs in the import's transaction."""
    _check_staff(actor)
    rating_list = RatingList.objects.select_for_update().filter(pk=rating_list_id).first()
    if rating_list is None:
        raise ServiceError("That rating list no longer exists: choose another.", field="rating_list")
    _check_unrated(rating_list)
    _seed(rating_list.pk, [Seed(player_id, rating) for player_id, rating in ratings], as_of)


def cancel_rating_import(actor, rating_import: RatingImport) -> RatingImport:
    _check_staff(actor)
    with transaction.atomic():
        imp = RatingImport.objects.select_for_update().get(pk=rating_import.pk)
        if not can_move(imp, ImportStatus.CANCELLED):
            raise ServiceError(f"This import is already {imp.get_status_display().lower()}.")
        move(imp, ImportStatus.CANCELLED)
        imp.save(update_fields=["status"])
    return imp
