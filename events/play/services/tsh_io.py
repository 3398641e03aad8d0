"""tsh interchange: a `.t` file into a division (players, rounds, results) and back out.

Players are matched to members by the one matching rule (players.matching): by member id (`Name:ID` where ID is
a member number), else by name ("Surname, Given" or "Given Surname"); a name that may be several members is refused
until the file gives the id or the director says the player is someone else; the rest become new players, listed
for review. What the
site does not interpret (tsh extra fields such as newr, rrank, lifeg, class, penalty) is kept on the seat and
written back, so a file survives import then export with the same meaning. What a game holds that tsh has no
field for (the scores as played before time penalties, overtime, the other player of a forfeit) goes in fields
of the site's own that tsh keeps without reading (core.tsh_fields, services.tsh_games); the `.t` scores are
those after time penalties, as tsh counts them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from clubsite.kit.status import move_all
from events.models import Event, EventStatus
from events.play.core import results, tsh
from events.play.core.standings import format_round_spread_caps
from events.play.core.tsh_fields import GAME_KEYS
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from players import lookup, matching
from players import services as player_services
from players.matching import Person
from players.models import Association, Player

from . import tsh_autopair, tsh_config, tsh_games
from .common import PlayError, require_director
from .rounds import assignments_shown
from .tsh_config import tsh_file_name

# Seat keys that are ours, not tsh extra fields.
NAME_KEY, MEMBER_ID_KEY = "_name", "_member_id"


@dataclass
class ImportReport:
    event: Event
    division: Division
    matched: list[tuple[int, str, Player]] = field(default_factory=list)  # (number, tsh name, member)
    created: list[tuple[int, str, Player]] = field(default_factory=list)  # new players, for review
    rounds: int = 0
    games: int = 0
    notes: list[str] = field(default_factory=list)  # what was read but not used, for the director


def given_first(tsh_name: str) -> str:
    """'Logan, Adam' -> 'Adam Logan' (names without a comma stay as they are)."""
    if "," in tsh_name:
        surname, given = (part.strip() for part in tsh_name.split(",", 1))
        return f"{given} {surname}".strip()
    return tsh_name.strip()


def tsh_name(player: Player) -> str:
    """The player as tsh files list them, family name first: 'Chua, Xavier', 'Smith, John'. A name
    without a family name ('Muhammad Irfan') is written as it is, never reversed (players.names)."""
    return player.tsh_name


def event_date(config: tsh.TshConfig | None) -> date | None:
    """config.tsh's `event_date`, in the forms tsh writes it; None when it has none."""
    raw = (config.settings.get("event_date", "") if config else "").strip("'\" ")
    for fmt in ("%B %d, %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(raw, fmt).date()
        except ValueError:
            continue
    return None


def _new_event(
    actor, slug: str | None, title: str, config: tsh.TshConfig | None, rounds: int, starts_on: date | None = None
) -> Event:
    association = Association.objects.order_by("pk").first()
    if association is None:
        raise PlayError("Create the association first: imported events belong to it.")
    starts_on = starts_on or event_date(config) or timezone.localdate()
    if slug is None:  # a free address: the same event imported twice is two events, never a clash
        base = slugify(f"{title}-{starts_on}")[:72] or "imported-event"
        taken = set(Event.objects.filter(slug__startswith=base).values_list("slug", flat=True))
        slug = next(
            candidate for k in range(1, len(taken) + 2) if (candidate := base if k == 1 else f"{base}-{k}") not in taken
        )
    caps = tsh_config.spread_caps(config)
    return Event.objects.create(
        slug=slug,
        title=title,
        owner=actor,
        association=association,
        status=EventStatus.IN_PROGRESS,
        starts_on=starts_on,
        ends_on=starts_on,
        number_of_games=(config.max_rounds if config and config.max_rounds else rounds),
        rated=False,
        spread_cap=caps if isinstance(caps, int) else None,
        round_spread_caps=format_round_spread_caps(caps) if isinstance(caps, tuple) else "",
    )


def _found(f: tsh.TshFile) -> list[matching.Match]:
    """The one matching rule's answer for each player of the file (players.matching): by the member id (`Name:ID`),
    else by the name, which is all a .t file knows of a person. One query."""
    return lookup.find_people(
        Person(
            full_name=p.name,
            name_is_all=True,
            member_number=int(p.member_id) if p.member_id and p.member_id.isdigit() else None,
        )
        for p in f.players
    )


def _match_players(f: tsh.TshFile, new_players: frozenset[int] | set[int] = frozenset()) -> dict[int, Player | None]:
    """Each line's member by the one matching rule, None where a new player is made: the member id, else the one
    member of that name. A name that may be one of several members (or a close spelling of one) is refused, not made
    a new player: the file names the member by id, or `new_players` (player numbers) says the line is a different
    person. Two queries."""
    found = _found(f)
    unsure = [
        f"player {p.number} ({p.name}) may be {lookup.likely_text(m)}"
        for p, m in zip(f.players, found, strict=True)
        if m.is_likely and p.number not in new_players
    ]
    if unsure:
        raise PlayError(
            "Some names may be members already: "
            + "; ".join(unsure)
            + ". Give the member id after the name in the file (Name:member number), or import those players as "
            "different people.",
            field="file",
        )
    members = Player.objects.in_bulk([m.record.id for m in found if m.is_sure])
    return {p.number: members[m.record.id] if m.is_sure else None for p, m in zip(f.players, found, strict=True)}


def offered_members(f: tsh.TshFile) -> dict[int, tuple[Player | None, list[Player]]]:
    """Per player of the file: the member the import uses unless told otherwise (the rule's sure match), and every
    member a director may choose (the sure match, or the members the rule finds likely: the same name in either
    order, or a close spelling). Two queries."""
    found = _found(f)
    ids = [r.id for m in found for r in ([m.record] if m.is_sure else m.likely)]
    members = Player.objects.in_bulk(ids)
    offered = {}
    for p, m in zip(f.players, found, strict=True):
        match = members[m.record.id] if m.is_sure else None
        offered[p.number] = (match, [match] if match else [members[r.id] for r in m.likely])
    return offered


def _chosen_members(f: tsh.TshFile, choices: dict[int, int | None]) -> dict[int, Player | None]:
    """The director's choices (a member's id, or None for a new player), each among those offered."""
    offered = offered_members(f)
    found: dict[int, Player | None] = {}
    unchosen = []
    for p in f.players:
        match, candidates = offered[p.number]
        if p.number not in choices and match is None and candidates:
            unchosen.append(f"player {p.number} ({p.name})")  # may be a member: never a new player unasked
            continue
        pick = choices.get(p.number, match.pk if match else None)
        by_pk = {c.pk: c for c in candidates}
        if pick is not None and pick not in by_pk:
            raise PlayError(f"Player {p.number} ({p.name}): choose one of the members offered, or a new player.")
        found[p.number] = by_pk[pick] if pick is not None else None
    if unchosen:
        raise PlayError(
            "Choose the member, or a new player for a different person, for " + ", ".join(unchosen) + ".",
            field="file",
        )
    return found


def _check_consistency(f: tsh.TshFile, line_of: dict[int, int]) -> dict[tuple[int, int], tuple[str, int]]:
    """Pairings agree both ways; every score is one the site may store (the same rule as a result entered
    on a page: `validate_stored_score`; a bye's or forfeit's spread: `validate_award`), and so are the
    site's own fields (tsh_games.check_fields, whose forfeits against an opponent are returned)."""
    count = len(f.players)
    for p in f.players:
        if len(p.scores) > len(p.opponents):
            raise PlayError(f"Line {line_of[p.number]}: more scores than opponents.", field="file")
        wrong = p.integer_extras_error()
        if wrong:
            raise PlayError(f"Line {line_of[p.number]}: {wrong}.", field="file")
        for r, score in enumerate(p.scores):
            try:
                if p.opponents[r] == 0:
                    results.validate_award(score, f"round {r + 1}'s spread")
                elif p.opponents[r] != tsh.UNPAIRED:
                    results.validate_stored_score(score, f"round {r + 1}'s score")
            except results.ResultError as error:
                raise PlayError(f"Line {line_of[p.number]}: {error}.", field="file") from None
        for r, opp in enumerate(p.opponents):
            if opp in (0, tsh.UNPAIRED):
                continue
            if opp == p.number:
                raise PlayError(
                    f"Line {line_of[p.number]}: round {r + 1} pairs the player with themselves.", field="file"
                )
            if not 1 <= opp <= count:
                raise PlayError(
                    f"Line {line_of[p.number]}: round {r + 1} names opponent {opp}, but the file has {count} players.",
                    field="file",
                )
            other = f.players[opp - 1]
            if r >= len(other.opponents) or other.opponents[r] != p.number:
                raise PlayError(
                    f"Line {line_of[p.number]}: round {r + 1} pairs {p.number} with {opp}, but line "
                    f"{line_of[opp]} does not pair {opp} with {p.number}.",
                    field="file",
                )
            if (r < len(p.scores)) != (r < len(other.scores)):  # tsh enters a game's two scores together
                short = p if r >= len(p.scores) else other
                raise PlayError(
                    f"Line {line_of[short.number]}: round {r + 1} has no score, but its opponent's line "
                    f"{line_of[opp if short is p else p.number]} has one. Is the file cut short?",
                    field="file",
                )
    return tsh_games.check_fields(f, line_of)


def line_numbers(text: str) -> dict[int, int]:
    """Each player's number -> the line of the file it is on."""
    return _line_numbers(text)


def _line_numbers(text: str) -> dict[int, int]:
    numbers, number = {}, 0
    for line_no, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            number += 1
            numbers[number] = line_no
    return numbers


def _first(p12: list[int], r: int, other_p12: list[int] = ()) -> str:
    """Who went first in round `r + 1`, as player A's `p12` says (1 first, 2 second), else as the opponent's
    says (real files do not always write both): "a", "b", or "" when neither line knows."""
    value = p12[r] if r < len(p12) else None
    if value in (1, 2):
        return "a" if value == 1 else "b"
    other = other_p12[r] if r < len(other_p12) else None
    return "b" if other == 1 else "a" if other == 2 else ""


@transaction.atomic
def import_tsh(
    actor,
    text: str,
    *,
    config_text: str | None = None,
    event: Event | None = None,
    event_slug: str | None = None,
    division_name: str | None = None,
    title: str | None = None,
    starts_on: date | None = None,
    choices: dict[int, int | None] | None = None,
    new_players: frozenset[int] | set[int] = frozenset(),
) -> ImportReport:
    """Creates (or fills) an event's division from a `.t` file. All or nothing: a refusal names the line
    and saves nothing (players, rounds and games are created in one transaction).

    `choices`: per player number, the member chosen by the director after the preview (None: a new player);
    players without a choice are matched as `offered_members` says. Without choices (the command), a name that may
    be several members is refused unless `new_players` holds its number: a different person (_match_players)."""
    if len(text) > tsh.MAX_FILE_BYTES or (config_text and len(config_text) > tsh.MAX_FILE_BYTES):
        raise PlayError(
            f"The file is over {tsh.MAX_FILE_BYTES // 1_000_000} MB: a .t file of {tsh.MAX_PLAYERS} players and "
            f"{tsh.MAX_ROUNDS} rounds is smaller. Is it the right file?",
            field="file",
        )
    if text.count("\x00", 0, 4096) >= 3:  # not one typed by mistake (the parser names that): an image, a UTF-16 export
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PlayError(
            f"Line {line}: a NUL byte: this is not a text file (a .t file is plain text; a file saved as UTF-16 "
            "must be saved again as UTF-8). Is it the right file?",
            field="file",
        )
    try:
        f = tsh.parse_t(text)
        config = tsh.parse_config(config_text) if config_text else None
    except tsh.TshParseError as error:
        raise PlayError(f"Line {error.line}: {error.reason}", field="file") from None
    if not f.players:
        raise PlayError("The file lists no players.", field="file")
    forfeits = _check_consistency(f, _line_numbers(text))
    rounds = max(len(p.opponents) for p in f.players)

    if event is None and event_slug:
        event = Event.objects.filter(slug=event_slug).first()
    made = event is None  # an event the import makes takes config.tsh's settings; one that exists keeps its own
    if event is None:
        name = title or (config.settings.get("event_name", "").strip("'\" ") if config else "") or "Imported event"
        event = _new_event(actor, event_slug, name, config, rounds, starts_on)
    require_director(actor, event)
    if config and config.max_rounds is not None and not 1 <= config.max_rounds <= tsh.MAX_ROUNDS:
        raise PlayError(f"config.tsh: max_rounds must be 1 to {tsh.MAX_ROUNDS}.", field="config")
    if division_name is None:
        division_name = next(iter(config.divisions), "A") if config and config.divisions else "A"
    division_name = check_division_name(division_name)
    division, _ = Division.objects.get_or_create(event=event, name=division_name)
    if division.seats.exists() or division.rounds.exists():
        raise PlayError(
            f"Division {division_name} of {event} already has players; import into a new division.", field="division"
        )

    report = ImportReport(event=event, division=division, rounds=rounds)
    members = _chosen_members(f, choices) if choices is not None else _match_players(f, new_players)
    seats = []
    for p in f.players:
        member = members[p.number]
        if member is None:
            member = player_services.create_player(full_name=given_first(p.name) or p.name)
            report.created.append((p.number, p.name, member))
        else:
            report.matched.append((p.number, p.name, member))
        extras = {k: v for k, v in p.extras.items() if k not in GAME_KEYS}  # those are the games' now
        extras[NAME_KEY] = p.name
        if p.member_id:
            extras[MEMBER_ID_KEY] = p.member_id
        seats.append(
            DivisionPlayer(
                division=division,
                player=member,
                number=p.number,
                rating=p.rating,
                tsh_extras=extras,
                withdrawn_after_round=p.withdrawn_after,
            )
        )
    penalised = [str(p.number) for p in f.players if any(v not in (0, tsh.UNSET) for v in p.extra_ints("penalty"))]
    if penalised:
        report.notes.append(
            "tsh's spread penalties (the penalty field) of players " + ", ".join(penalised) + " are kept for the "
            "way back to tsh but not counted here: the site takes a time penalty off the score instead."
        )
    if len({s.player_id for s in seats}) != len(seats):
        raise PlayError("Two lines of the file match the same member; give them member ids.", field="file")
    DivisionPlayer.objects.bulk_create(seats)
    player_of = {s.number: s.player_id for s in seats}

    if not made:
        tsh_config.fit_event(event, config, rounds, report.notes)
    if config:
        tsh_config.read_config(config, event, division, report.notes, settle=made)
    paired_by = tsh_autopair.paired_by(config, division_name, rounds, report.notes)
    gibson = bool(config and tsh_autopair.unquote_setting(config.settings.get("gibson", "")) not in ("", "0"))
    snaked = bool(config and tsh_autopair.unquote_setting(config.settings.get("initial_snaked", "")) not in ("", "0"))
    round_objs = Round.objects.bulk_create(
        Round(
            division=division,
            number=r + 1,
            status=RoundStatus.PUBLISHED,
            published_at=timezone.now(),
            pairing_system=paired_by[r + 1].system if r + 1 in paired_by else "tsh",
            based_on_round=paired_by[r + 1].based_on_round if r + 1 in paired_by else None,
            max_repeats=paired_by[r + 1].max_repeats if r + 1 in paired_by else None,
            gibson=gibson and r + 1 in paired_by and paired_by[r + 1].system in ("koth", "swiss"),
            initial_snaked=snaked and r + 1 in paired_by and paired_by[r + 1].system == "initial_fontes",
        )
        for r in range(rounds)
    )
    if round_objs:
        assignments_shown(division.pk)
    games: list[Game] = []
    firsts = {p.number: p.p12 for p in f.players}  # once a player, not once a round
    for p in f.players:
        p12, boards = firsts[p.number], p.extra_ints("board")
        for r, opp in enumerate(p.opponents):
            score = p.scores[r] if r < len(p.scores) else None
            rnd = round_objs[r]
            if opp == tsh.UNPAIRED or (opp > 0 and opp < p.number):
                continue
            if opp == 0:
                kind, other = forfeits.get((p.number, r), (None, None))
                if other is not None and score > 0:
                    continue  # the forfeit is written from the line of the player who forfeited
                kind = kind or (
                    GameKind.VOID
                    if score == 0
                    else GameKind.FORFEIT
                    if score is not None and score < 0
                    else GameKind.BYE
                )
                games.append(
                    Game(
                        division=division,
                        round=rnd,
                        round_number=r + 1,
                        player_a_id=player_of[p.number],
                        player_b_id=player_of[other] if other else None,
                        board=boards[r] if r < len(boards) and boards[r] > 0 else None,
                        kind=kind,
                        spread_a=score,
                        status=GameStatus.CONFIRMED if score is not None else GameStatus.PAIRED,
                    )
                )
                continue
            other = f.players[opp - 1]
            other_score = other.scores[r] if r < len(other.scores) else None
            scored = score is not None and other_score is not None
            games.append(
                Game(
                    division=division,
                    round=rnd,
                    round_number=r + 1,
                    player_a_id=player_of[p.number],
                    player_b_id=player_of[opp],
                    score_a=score if scored else None,
                    score_b=other_score if scored else None,
                    first=_first(p12, r, firsts[opp]),
                    status=GameStatus.CONFIRMED if scored else GameStatus.PAIRED,
                    board=boards[r] if r < len(boards) and boards[r] > 0 else None,
                    **(tsh_games.scored_game(p, other, r) if scored else {}),
                )
            )
    Game.objects.bulk_create(games)
    report.games = len(games)
    done = {g.round_number for g in games if g.status != GameStatus.CONFIRMED}
    move_all(Round.objects.filter(division=division).exclude(number__in=done), RoundStatus.COMPLETE)
    return report


def check_division_name(name: str) -> str:
    """A division name that every page and a tsh file can carry: one line, no control characters."""
    name = (name or "").strip()
    if not name:
        raise PlayError("Name the division.", field="division")
    if len(name) > Division._meta.get_field("name").max_length or _UNSAFE_NAME.search(name):
        raise PlayError(
            "A division name is one line of at most 50 characters, without control characters.", field="division"
        )
    return name


_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
_RATING_LIKE_WORD = re.compile(r"^[0-9]+(?:[.+][0-9]+)*$")


def tsh_player_name(name: str) -> str:
    """A player's name as a .t line can carry it: one line, no `;` (it starts the scores), not starting
    with `#` (a comment), no inner word made only of digits (it would be read as the rating)."""
    name = " ".join(_UNSAFE_NAME.sub(" ", name).replace(";", ",").split()).lstrip("#").strip() or "?"
    words = name.split()
    return " ".join(w + "." if i < len(words) - 1 and _RATING_LIKE_WORD.match(w) else w for i, w in enumerate(words))


def export_tsh(division: Division) -> str:
    """The division as a `.t` file (five queries whatever its size)."""
    seats = list(DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number"))
    # tsh numbers a player by their line in the file: opponents are written by line position, whatever
    # gaps the seat numbers have.
    number_of = {s.player_id: line for line, s in enumerate(seats, start=1)}
    lines = range(1, len(seats) + 1)
    rounds = division.rounds.count()
    opponents = {line: [tsh.UNPAIRED] * rounds for line in lines}
    scores: dict[int, list[int | None]] = {line: [None] * rounds for line in lines}
    p12 = {line: [3] * rounds for line in lines}
    # A draft round's pairings are written (tsh pairs ahead too), its results never: not even the bye, which
    # counts nowhere until the round is published.
    drafts = Round.objects.filter(division=division, status=RoundStatus.DRAFT)
    rows = Game.objects.filter(division=division).annotate(draft=Q(round__in=drafts)).values(*_EXPORTED, "draft")
    games = tsh_games.RoundFields(lines, rounds)
    for g in rows:
        rnd, kind, status, a, b, spread = (
            g[k] for k in ("round_number", "kind", "status", "player_a", "player_b", "spread_a")
        )
        status = GameStatus.PAIRED if g["draft"] else status
        r, na, nb = rnd - 1, number_of[a], number_of.get(b)
        games.seated(r, g["board"], *([na] if nb is None else [na, nb]))
        if b is None or kind != GameKind.NORMAL:
            opponents[na][r], p12[na][r] = 0, 0
            scores[na][r] = spread if status == GameStatus.CONFIRMED else None
            if nb is not None:  # a forfeit against a present opponent: they get the win
                opponents[nb][r], p12[nb][r], scores[nb][r] = 0, 0, (-spread if spread is not None else None)
                if scores[na][r] is not None:  # the import reads the pair back from the two scored lines
                    games.forfeit(r, na, nb, kind)
            continue
        opponents[na][r], opponents[nb][r] = nb, na
        p12[na][r], p12[nb][r] = {"a": (1, 2), "b": (2, 1)}.get(g["first"], (3, 3))
        if status == GameStatus.CONFIRMED:
            scores[na][r], scores[nb][r] = g["score_a"], g["score_b"]  # after time penalties, as tsh wants them
            games.scored(r, na, nb, g)
    off, classes = _off_spread(division), tsh_config.seat_classes(division, seats)
    players = []
    for line, s in enumerate(seats, start=1):
        extras = {k: v for k, v in s.tsh_extras.items() if not k.startswith("_") and k not in GAME_KEYS}
        extras.update(games.extras(line, extras.get("board", [])))
        if "class" not in extras and s.pk in classes:
            extras["class"] = [classes[s.pk]]  # the class of the division's class prizes by rating band
        if s.withdrawn_after_round is not None and "off" not in extras:
            extras["off"] = [str(off)]  # withdrawn here: tsh's mark, with the spread of each later round
        # Imported rounds keep their p12 as written (real files are not always consistent between
        # opponents); rounds played here add who went first as recorded.
        imported = extras.get("p12", [])
        derived = [str(v) for v in p12[line][len(imported) :]]
        if imported or any(v != "3" for v in derived):
            extras["p12"] = imported + derived
        played = scores[line]
        while played and played[-1] is None:  # tsh writes scores only as far as they are known
            played.pop()
        players.append(
            tsh.TshPlayer(
                name=tsh_player_name(s.tsh_extras.get(NAME_KEY) or tsh_name(s.player)),
                rating=s.rating,
                opponents=opponents[line],
                scores=[0 if v is None else v for v in played],
                member_id=s.tsh_extras.get(MEMBER_ID_KEY),
                extras=extras,
                number=line,
            )
        )
    return tsh.write_t(tsh.TshFile(players))


_EXPORTED = ("round_number", "kind", "status", "player_a", "player_b", "score_a", "score_b", "spread_a", "first")
_EXPORTED += ("board", "played_a", "played_b", "overtime_a", "overtime_b", "overrun", "ahead_before_tiles")


def _off_spread(division: Division) -> int:
    """What tsh's `off` gives a withdrawn player each later round: as the division scores missed rounds."""
    event = division.event
    return {"forfeit": -event.forfeit_spread, "bye": event.bye_spread}.get(division.missed_rounds_as, 0)


def export_config(event: Event) -> str:
    return tsh.write_config(tsh_config.event_config(event))


def export_archive(event: Event) -> str:
    config = tsh_config.event_config(event)
    files = {tsh_file_name(d.name): tsh.parse_t(export_tsh(d)) for d in event.divisions.all()}
    return tsh.write_archive(config, files)
