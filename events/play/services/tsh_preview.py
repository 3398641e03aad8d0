"""A tsh file read before it is saved: what the import would create, for the director to check and confirm.

The preview runs every check the import runs (the same parser and rules), saves nothing, and lists each
player with the member the import would use: the sure match, the likely members to choose from, or a new
player. The director's choices then go to `import_tsh`, which checks them again and saves all or nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.db.models import Q

from events.models import Event
from events.play.core import tsh
from events.play.models import DivisionPlayer, Game, GameKind
from players.models import Player

from . import tsh_io
from .common import PlayError, require_director
from .tsh_archive import check_file_count


@dataclass(frozen=True)
class PreviewPenalty:
    """A penalty the file holds for a player in one round: a time penalty the site takes off the score (the file's
    `played` or `overtime` field, `counted`), or tsh's `penalty` field, a spread tsh alone applies (kept, not
    counted)."""

    round: int
    points: int  # a time penalty: the points taken off the score; tsh's field: its value as written (e.g. -10)
    counted: bool = True
    overtime: int = 0  # seconds over the time control, when the file gives them


@dataclass
class PreviewRow:
    number: int
    line: int  # the line of the file
    name: str
    rating: int
    match: Player | None  # the member the import uses unless the director chooses otherwise
    candidates: list[Player]  # every member the director may choose (the match first)
    games: int = 0
    byes: int = 0
    forfeits: int = 0
    withdrawn_after: int | None = None
    penalties: list[PreviewPenalty] = field(default_factory=list)


@dataclass
class TshPreview:
    event: Event | None
    division_name: str
    rows: list[PreviewRow]
    rounds: int
    games: int
    byes: int
    forfeits: int
    notes: list[str] = field(default_factory=list)

    @property
    def withdrawals(self) -> list[PreviewRow]:
        return [r for r in self.rows if r.withdrawn_after is not None]

    @property
    def penalties(self) -> int:
        return sum(len(r.penalties) for r in self.rows)

    @property
    def time_penalties(self) -> int:
        """Penalties that change a recorded score: the rest are tsh's own, kept and not counted."""
        return sum(1 for r in self.rows for p in r.penalties if p.counted)

    @property
    def tsh_penalties(self) -> int:
        return self.penalties - self.time_penalties

    @property
    def new_players(self) -> int:
        """Players no member may be: the import adds them."""
        return sum(1 for r in self.rows if r.match is None and not r.candidates)

    @property
    def to_choose(self) -> int:
        """Players who may be one of several members: the director chooses."""
        return sum(1 for r in self.rows if r.match is None and r.candidates)


def preview_tsh(
    actor,
    text: str,
    *,
    config_text: str | None = None,
    event: Event | None = None,
    division_name: str | None = None,
    title: str | None = None,
    starts_on: date | None = None,
) -> TshPreview:
    """What `import_tsh` would do with these files; refuses as it would (naming the line), saving nothing.

    Runs the import itself inside a transaction that is always rolled back, so the preview cannot drift
    from what the import checks."""
    if event is not None:
        require_director(actor, event)
    try:
        with transaction.atomic():
            offered = _offered(text)  # before the import adds its new players
            # The import as the preview's choices stand (a name that may be several members: a new player until the
            # director picks one), so it is not refused for the choice the director has yet to make.
            choices = (
                {number: match.pk if match else None for number, (match, _) in offered.items()} if offered else None
            )
            report = tsh_io.import_tsh(
                actor,
                text,
                config_text=config_text,
                event=event,
                division_name=division_name,
                title=title,
                starts_on=starts_on,
                choices=choices,
            )
            preview = _preview(report, text, event, offered)
            raise _RollBack(preview)
    except _RollBack as done:
        return done.preview


class _RollBack(Exception):
    def __init__(self, preview: TshPreview) -> None:
        self.preview = preview


def _offered(text: str) -> dict:
    try:
        f = tsh.parse_t(text[: tsh.MAX_FILE_BYTES + 1])
    except tsh.TshParseError:
        return {}  # the import refuses the file, naming the line
    return tsh_io.offered_members(f)


def _preview(report: tsh_io.ImportReport, text: str, event: Event | None, offered: dict) -> TshPreview:
    """The rows as the import made them (read inside its transaction, before it is rolled back): what each player
    played as the site will hold it; a forfeit is the forfeiting player's, and the opponent's win by it is not a bye."""
    f = tsh.parse_t(text)
    line_of = tsh_io.line_numbers(text)
    number_of = dict(DivisionPlayer.objects.filter(division=report.division).values_list("player_id", "number"))
    counts: dict[int, Counter] = {n: Counter() for n in number_of.values()}
    games = Game.objects.filter(division=report.division).values_list("player_a_id", "player_b_id", "kind")
    for a, b, kind in games:
        what = {GameKind.NORMAL: "games", GameKind.BYE: "byes"}.get(kind, "forfeits" if "forfeit" in kind else "")
        for player in (a, b) if kind == GameKind.NORMAL else (a,):
            if player is not None and what:
                counts[number_of[player]][what] += 1
    penalties = _penalties(report.division, number_of, f)
    rows = []
    for p in f.players:
        match, candidates = offered[p.number]
        held = counts[p.number]
        rows.append(
            PreviewRow(
                number=p.number,
                line=line_of[p.number],
                name=p.name,
                rating=p.rating,
                match=match,
                candidates=candidates,
                games=held["games"],
                byes=held["byes"],
                forfeits=held["forfeits"],
                withdrawn_after=p.withdrawn_after,
                penalties=sorted(penalties[p.number], key=lambda penalty: (penalty.round, not penalty.counted)),
            )
        )
    kinds = Counter(kind for _, _, kind in games)
    return TshPreview(
        event=event,
        division_name=report.division.name,
        rows=rows,
        rounds=report.rounds,
        games=kinds[GameKind.NORMAL],
        byes=kinds[GameKind.BYE],
        forfeits=kinds[GameKind.FORFEIT] + kinds[GameKind.LATE_FORFEIT],
        notes=list(report.notes),
    )


def _penalties(division, number_of: dict[int, int], f: tsh.TshFile) -> dict[int, list[PreviewPenalty]]:
    """Each player's penalties by number: the time penalties as the imported games hold them (only games with a
    score as played, overtime or an overrun are read), then tsh's `penalty` field round by round."""
    found: dict[int, list[PreviewPenalty]] = {n: [] for n in number_of.values()}
    timed = Game.objects.filter(division=division, kind=GameKind.NORMAL).filter(
        Q(played_a__isnull=False)
        | Q(played_b__isnull=False)
        | Q(overtime_a__gt=0)
        | Q(overtime_b__gt=0)
        | ~Q(overrun="")
    )
    for game in timed:
        for side in "ab":
            player = getattr(game, f"player_{side}_id")
            if player is not None and (points := game.penalty(side)):
                overtime = getattr(game, f"overtime_{side}")
                found[number_of[player]].append(PreviewPenalty(game.round_number, points, overtime=overtime))
    for p in f.players:
        for index, value in enumerate(p.extra_ints("penalty")):
            if value not in (0, tsh.UNSET):
                found[p.number].append(PreviewPenalty(index + 1, value, counted=False))
    return found


def from_archive(archive_text: str, division_name: str | None) -> dict:
    """The `.t` file, config and division name to import from a tsh archive: the division named, or its only one.
    A refusal names the archive's line, or the divisions it holds."""
    check_file_count(archive_text, "archive_file")
    try:
        config_text, files = tsh.split_archive(archive_text)
        config = tsh.parse_config(config_text)
    except tsh.TshParseError as error:
        raise PlayError(f"Line {error.line}: {error.reason}", field="archive_file") from None
    by_division = {name: file for name, file in config.divisions.items() if file in files}
    if not by_division:
        by_division = {name.rsplit(".", 1)[0]: name for name in files}
    if not by_division:
        raise PlayError("The archive holds no division's .t file.", field="archive_file")
    if division_name is None and len(by_division) == 1:
        division_name = next(iter(by_division))
    match = next((name for name in by_division if division_name and name.casefold() == division_name.casefold()), None)
    if match is None:
        listing = ", ".join(by_division)
        raise PlayError(f"Name the division to import: the archive holds {listing}.", field="division_name")
    return {"text": files[by_division[match]], "config_text": config_text, "division_name": match}
