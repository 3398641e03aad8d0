"""Reading and writing tsh files: division `.t` files, `config.tsh` and archives.

A `.t` file holds one player per non-blank line that does not start with `#`;
a player's number is its 1-based position among those lines:

    Surname, Given         1500 3 0 2; 412 50 380; p12 1 0 2; off -50
    name                   rating opponents; scores; key values; key values

Pure module: text in, dataclasses out, and back.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from events.play.core.standings import parse_round_spread_caps, validate_spread_cap

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_NAME_LENGTH",
    "INTEGER_KEYS",
    "UNPAIRED",
    "UNSET",
    "TshParseError",
    "TshPlayer",
    "TshFile",
    "TshPrize",
    "TshConfig",
    "Autopair",
    "parse_autopair",
    "parse_t",
    "read_t",
    "write_t",
    "parse_config",
    "write_config",
    "parse_archive",
    "split_archive",
    "write_archive",
]

# Opponent `00`: the round exists but is not paired yet.
UNPAIRED = -1
# An extra value written `00`: no value for that round (e.g. `rrank 00`).
UNSET = -1

# Sane limits: far beyond any real tournament, and refused with a message naming the line, so a
# damaged or hostile file never reaches the database (or takes minutes to read).
MAX_FILE_BYTES = 2_000_000  # a 1,000-player, 100-round file with every tsh extra is under 2.5 MB of text
MAX_PLAYERS = 1000
MAX_ROUNDS = 100
MAX_NAME_LENGTH = 200
MAX_NUMBER_DIGITS = 9  # any whole number in a .t file (scores, ratings, opponents, extras) fits 32 bits
MAX_EXTRA_VALUES = 4 * MAX_ROUNDS  # values of one extra field (tsh writes one a round at most)

_INT = re.compile(r"[0-9]+")
_SIGNED_INT = re.compile(r"[-+]?[0-9]+")
# tsh accepts ratings such as 1500.5 or 1500+40 (other systems); we only store integers.
_RATING_LIKE = re.compile(r"[0-9]+(?:[.+][0-9]+)*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Extra fields read as numbers (`TshPlayer.extra_ints`), tsh's and the site's own (core.tsh_fields).
INTEGER_KEYS = tuple("p12 board rrank off lifeg newr penalty played overtime overrun ahead lateopp forfeitopp".split())
# NUL and the other C0 controls but tab (also DEL), none of which a .t file has.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# tsh drops a trailing line-number comment of the form `; # 12`.
_TRAILING_LINE_COMMENT = re.compile(r";\s*#\s*\d+\s*$")


class TshParseError(ValueError):
    """A line of a tsh file that cannot be read; `line` is the 1-based physical line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class TshPlayer:
    name: str
    rating: int  # 0 = unrated
    opponents: list[int]  # 1-based; 0 = no opponent (bye/forfeit); UNPAIRED = `00`
    scores: list[int]  # with opponent 0, the spread awarded
    member_id: str | None = None
    extras: dict[str, list[str]] = field(default_factory=dict)
    number: int = 0  # 1-based position in the file

    def integer_extras_error(self) -> str | None:
        """What is wrong with the extra fields read as numbers (INTEGER_KEYS), or None."""
        for key in INTEGER_KEYS:
            for v in self.extras.get(key, []):
                if v != "00" and (not _SIGNED_INT.fullmatch(v) or len(v.lstrip("+-")) > MAX_NUMBER_DIGITS):
                    return f"field {key!r}: expected whole numbers, found {_short(v)!r}"
        return None

    def extra_ints(self, key: str) -> list[int]:
        """The values of extra field `key` as integers (`00` -> UNSET); [] if absent."""
        return [UNSET if v == "00" else int(v) for v in self.extras.get(key, [])]

    @property
    def lifeg(self) -> int | None:
        """Career rated games before the event, if recorded."""
        values = self.extra_ints("lifeg")
        return values[0] if values else None

    @property
    def newr(self) -> list[int]:
        """tsh's rating after each round."""
        return self.extra_ints("newr")

    @property
    def rrank(self) -> list[int]:
        return self.extra_ints("rrank")

    @property
    def p12(self) -> list[int]:
        """Per round: 1 first, 2 second, 0 bye, 3 must draw."""
        return self.extra_ints("p12")

    @property
    def off(self) -> int | None:
        """Spread given each later round to a withdrawn player; None if active."""
        values = self.extra_ints("off")
        return values[0] if values else None

    @property
    def withdrawn_after(self) -> int | None:
        """The last round before the player withdrew (0: before round 1); None if active.

        A `.t` file does not say when `off` was set. tsh stops recording a
        player's `rrank` (index r: rank after round r) once they are off, so
        it is the last round with a recorded rank; without `rrank`, the last
        round before their run of trailing forfeits (rounds without an
        opponent scored 0 or less, or not paired).
        """
        if self.off is None:
            return None
        ranked = [r for r, rank in enumerate(self.rrank) if rank != UNSET]
        if ranked:
            return ranked[-1]
        last = len(self.opponents)
        while last > 0 and self._missed(last - 1):
            last -= 1
        return last

    def _missed(self, index: int) -> bool:
        opponent = self.opponents[index]
        score = self.scores[index] if index < len(self.scores) else None
        return opponent == UNPAIRED or (opponent == 0 and (score is None or score <= 0))


@dataclass
class TshFile:
    players: list[TshPlayer]

    def rounds_played(self) -> int:
        return max((len(p.scores) for p in self.players), default=0)


@dataclass
class TshPrize:
    kind: str  # e.g. "rank", "highwin", "range"
    args: list[str]  # remaining words, quotes removed
    raw: str  # the whole line, to write it back unchanged


@dataclass(frozen=True)
class Autopair:
    """One `autopair DIV SR ROUND COMMAND ARGS...` line: once round SR's results are in (0: before play),
    tsh pairs round ROUND of division DIV by typing COMMAND ARGS, e.g. `koth 1 3 A` (King of the Hill
    allowing one repeat, from the standings after round 3)."""

    division: str
    source_round: int
    round: int
    command: str  # lower case: tsh's command names are case-insensitive
    args: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        return " ".join(["autopair", self.division, str(self.source_round), str(self.round), self.command, *self.args])


def parse_autopair(line: str) -> Autopair:
    """An `autopair` line's parts; ValueError naming what is wrong."""
    words = line.split()
    if len(words) < 5 or words[0].lower() != "autopair":
        raise ValueError("expected 'autopair DIVISION BASED-ON-ROUND ROUND COMMAND ...'")
    division, source, target, command, *args = words[1:]
    for what, value in (("based-on round", source), ("round", target)):
        if not _INT.fullmatch(value) or len(value) > MAX_NUMBER_DIGITS:
            raise ValueError(f"autopair: the {what} must be a whole number, found {_short(value)!r}")
    if int(target) < 1 or int(target) > MAX_ROUNDS:
        raise ValueError(f"autopair: the round to pair must be 1 to {MAX_ROUNDS}, found {target}")
    if int(source) >= int(target):
        raise ValueError(f"autopair: round {target} cannot be paired from the results of round {source}")
    return Autopair(division, int(source), int(target), command.lower(), tuple(args))


@dataclass
class TshConfig:
    divisions: dict[str, str] = field(default_factory=dict)  # name -> .t file
    max_rounds: int | None = None
    rating_system: str | None = None
    prizes: list[TshPrize] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)  # other `config k = v`, raw v
    autopair: list[str] = field(default_factory=list)  # raw `autopair ...` lines
    other: list[str] = field(default_factory=list)  # any other command line, raw

    def autopairs(self) -> list[Autopair]:
        """The `autopair` lines read (each was checked when the file was read)."""
        return [parse_autopair(line) for line in self.autopair]

    @property
    def spread_cap(self) -> int | tuple[int | None, ...] | None:
        """`config spread_cap`: one cap (`= 300`) or one per round (`= [200, 700, ...]`,
        index 0 = round 1; 0 means no cap). None when not set. Raises ValueError."""
        raw = _unquote(self.settings.get("spread_cap", ""))
        if not raw:
            return None
        if raw.startswith("["):
            return parse_round_spread_caps(raw) or None
        if not raw.isdigit():
            raise ValueError(f"spread_cap: {raw!r} is not a whole number of points")
        return validate_spread_cap(int(raw), "spread_cap: a cap") if int(raw) else None

    @spread_cap.setter
    def spread_cap(self, cap: int | tuple[int | None, ...] | None) -> None:
        if cap is None:
            self.settings.pop("spread_cap", None)
        elif isinstance(cap, int):
            self.settings["spread_cap"] = str(cap)
        else:
            self.settings["spread_cap"] = "[" + ", ".join(str(c or 0) for c in cap) + "]"


# --------------------------------------------------------------------------- .t files


def parse_t(text: str) -> TshFile:
    """Parse the text of a `.t` file; raises TshParseError naming the line.

    Refused, naming the line: NUL and other control characters, numbers longer than
    MAX_NUMBER_DIGITS digits, names longer than MAX_NAME_LENGTH, more than MAX_ROUNDS rounds or
    MAX_PLAYERS players. (The size limit, MAX_FILE_BYTES, is for the caller reading the bytes.)
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    players: list[TshPlayer] = []
    line_numbers: list[int] = []
    for line_no, line in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        bad = _CONTROL.search(stripped)
        if bad:
            raise TshParseError(line_no, f"contains a control character ({bad.group(0)!r}): is this a .t file?")
        if len(players) == MAX_PLAYERS:
            raise TshParseError(line_no, f"more than {MAX_PLAYERS} players: split the division")
        player = _parse_player_line(stripped, line_no)
        player.number = len(players) + 1
        players.append(player)
        line_numbers.append(line_no)
    count = len(players)
    for player, line_no in zip(players, line_numbers, strict=True):
        for opp in player.opponents:
            if opp > count:
                raise TshParseError(line_no, f"expected an opponent number from 1 to {count}, found {opp}")
    return TshFile(players=players)


def read_t(source: str | os.PathLike[str] | bytes) -> TshFile:
    """Parse a `.t` file given as a path or as raw bytes (UTF-8, else ISO-8859-1)."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    return parse_t(decode_tsh_bytes(data))


def decode_tsh_bytes(data: bytes) -> str:
    # tsh's default is ISO-8859-1, but valid UTF-8 is almost never Latin-1 by accident.
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _short(word: str, limit: int = 20) -> str:
    """A word for an error message, cut short: a message never repeats a megabyte of input."""
    return word if len(word) <= limit else word[:limit] + "…"


def _split_fields(rest: str) -> list[str]:
    """Split on `;` not escaped by a backslash, unescaping `\\;` and `\\\\`."""
    if "\\" not in rest:
        return rest.split(";")
    fields: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(rest):
        ch = rest[i]
        if ch == "\\" and i + 1 < len(rest) and rest[i + 1] in "\\;":
            current.append(rest[i + 1])
            i += 2
            continue
        if ch == ";":
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    fields.append("".join(current))
    return fields


def _parse_player_line(line: str, line_no: int) -> TshPlayer:
    line = _TRAILING_LINE_COMMENT.sub(";", line)
    head, sep, rest = line.partition(";")
    spans = list(re.finditer(r"\S+", head))
    words = [m.group(0) for m in spans]
    # The rating is the first word made only of digits (a name may not contain one;
    # writers put a comma after a name's final digit for this reason).
    rating_at = next((i for i, w in enumerate(words) if _RATING_LIKE.fullmatch(w)), None)
    if rating_at is None:
        raise TshParseError(line_no, "expected a rating after the name")
    if rating_at == 0:
        raise TshParseError(line_no, "expected a name before the rating")
    if not _INT.fullmatch(words[rating_at]):
        raise TshParseError(line_no, f"expected an integer rating, found {_short(words[rating_at])!r}")
    if len(words[rating_at]) > MAX_NUMBER_DIGITS:
        raise TshParseError(line_no, f"rating {_short(words[rating_at])} is not a rating")
    full_name = head[: spans[rating_at].start()].strip()  # the name keeps its own spacing
    if re.search(r"[0-9],$", full_name):
        full_name = full_name[:-1]
    name, colon, member = full_name.partition(":")
    name = name.strip()
    if not name:
        raise TshParseError(line_no, "expected a name before the rating")
    if len(full_name) > MAX_NAME_LENGTH:
        raise TshParseError(line_no, f"a name of {len(full_name)} characters: at most {MAX_NAME_LENGTH}")
    member_id = (member.strip() or None) if colon else None

    opponents: list[int] = []
    for w in words[rating_at + 1 :]:
        if w == "00":
            opponents.append(UNPAIRED)
        elif _INT.fullmatch(w) and len(w) <= MAX_NUMBER_DIGITS:
            opponents.append(int(w))
        else:
            raise TshParseError(line_no, f"expected an opponent number, found {_short(w)!r}")
    if len(opponents) > MAX_ROUNDS:
        raise TshParseError(line_no, f"{len(opponents)} rounds: at most {MAX_ROUNDS}")

    fields = _split_fields(rest) if sep else [""]
    scores: list[int] = []
    for w in fields[0].split():
        if not _SIGNED_INT.fullmatch(w):
            raise TshParseError(line_no, f"expected an integer score, found {_short(w)!r}")
        if len(w.lstrip("+-")) > MAX_NUMBER_DIGITS:
            raise TshParseError(line_no, f"score {_short(w)} is not a game score")
        scores.append(int(w))
    if len(scores) > len(opponents):
        raise TshParseError(
            line_no,
            f"expected at most {len(opponents)} scores (one per opponent), found {len(scores)}",
        )

    extras: dict[str, list[str]] = {}
    for raw in fields[1:]:
        parts = raw.split()
        if not parts:  # an empty `; ;` field
            continue
        if len(parts) > MAX_EXTRA_VALUES + 1:
            raise TshParseError(
                line_no, f"field {_short(parts[0])!r} has {len(parts) - 1} values: at most {MAX_EXTRA_VALUES}"
            )
        if any(len(v) > MAX_NAME_LENGTH for v in parts):
            raise TshParseError(line_no, f"field {_short(parts[0])!r} has a value over {MAX_NAME_LENGTH} characters")
        extras[parts[0]] = parts[1:]  # a repeated key keeps the last value, as tsh does
    return TshPlayer(
        name=name,
        rating=int(words[rating_at]),
        opponents=opponents,
        scores=scores,
        member_id=member_id,
        extras=extras,
    )


def _escape_extra(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;")


def _written_name(player: TshPlayer) -> str:
    name = player.name if player.member_id is None else f"{player.name}:{player.member_id}"
    if not name.strip() or ";" in name or name.lstrip().startswith("#"):
        raise ValueError(f"cannot write player name {name!r}")
    if any(_RATING_LIKE.fullmatch(w) for w in name.split()[:-1]):
        raise ValueError(f"cannot write a name with an inner word made only of digits: {name!r}")
    # A final digit would be read back as part of a rating-like word: mark the end.
    return name + "," if name[-1].isdigit() else name


def write_t(f: TshFile) -> str:
    """Write a `.t` file; extra fields sorted by key, as tsh writes them."""
    lines: list[str] = []
    for p in f.players:
        opponents = " ".join("00" if o == UNPAIRED else str(o) for o in p.opponents)
        scores = " ".join(str(s) for s in p.scores)
        line = f"{_written_name(p):<22} {p.rating:>5} {opponents}; {scores}"
        for key in sorted(p.extras):
            line += " ".join(["; " + _escape_extra(key), *map(_escape_extra, p.extras[key])])
        lines.append(line.rstrip())
    return "".join(line + "\n" for line in lines)


# --------------------------------------------------------------------------- config.tsh


_CONFIG_LINE = re.compile(r"config\s+(?P<key>[^=]+?)\s*=\s*(?P<value>.*)$", re.IGNORECASE)


def _unquote(value: str) -> str:
    value = value.strip().rstrip(";").strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _config_line(config: TshConfig, line: str, line_no: int) -> None:
    command = line.split(None, 1)[0].lower()
    if command == "division":
        words = line.split()
        if len(words) < 3:
            raise TshParseError(line_no, "expected 'division NAME FILE'")
        config.divisions[words[1]] = " ".join(words[2:])
    elif command == "config":
        match = _CONFIG_LINE.match(line)
        if match is None:
            raise TshParseError(line_no, "expected 'config KEY = VALUE'")
        key, value = match.group("key").strip(), match.group("value").strip()
        if key == "max_rounds":
            try:
                config.max_rounds = int(_unquote(value))
            except ValueError:
                raise TshParseError(line_no, f"expected an integer max_rounds, found {value!r}")
        elif key == "rating_system":
            config.rating_system = _unquote(value)
        else:
            config.settings[key] = value
    elif command == "autopair":
        try:
            parse_autopair(line)
        except ValueError as error:
            raise TshParseError(line_no, str(error)) from None
        config.autopair.append(line)
    elif command == "prize":
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        if len(words) < 2:
            raise TshParseError(line_no, "expected 'prize TYPE ...'")
        config.prizes.append(TshPrize(kind=words[1], args=words[2:], raw=line))
    else:
        config.other.append(line)


def parse_config(text: str) -> TshConfig:
    """Parse `config.tsh`: divisions, `config k = v` settings, autopair and prize lines."""
    if text.startswith("\ufeff"):
        text = text[1:]
    config = TshConfig()
    for line_no, line in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            _config_line(config, stripped, line_no)
    return config


def write_config(config: TshConfig) -> str:
    lines = [f"division {name} {file}" for name, file in config.divisions.items()]
    if config.max_rounds is not None:
        lines.append(f"config max_rounds = {config.max_rounds}")
    if config.rating_system is not None:
        lines.append(f"config rating_system = '{config.rating_system}'")
    lines += [f"config {key} = {value}" for key, value in config.settings.items()]
    lines += config.autopair
    lines += [prize.raw for prize in config.prizes]
    lines += config.other
    return "".join(line + "\n" for line in lines)


# --------------------------------------------------------------------------- archives

_BEGIN_FILE = re.compile(r"#begin_file\s+name=(?P<name>\S+)\s*$")
_END_FILE = re.compile(r"#end_file(?:\s+name=(?P<name>\S+))?\s*$")


def parse_archive(text: str) -> tuple[TshConfig, dict[str, TshFile]]:
    """Parse a tsh archive: config lines plus `#begin_file name=X.t` ... `#end_file` blocks (errors name the
    archive's lines)."""
    config_text, files = split_archive(text)
    return parse_config(config_text), {name: parse_t(body) for name, body in files.items()}


def split_archive(text: str) -> tuple[str, dict[str, str]]:
    """A tsh archive's config lines and each embedded file's text, by file name, each kept on the archive's line
    numbers (the other lines blank), so an error in either names the archive's line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    config: list[str] = []
    files: dict[str, str] = {}
    current, body, begun_at = None, [], 0  # the file being read, its lines, the line of its #begin_file
    for line_no, line in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = line.strip()
        config.append(line if current is None else "")  # a #begin_file line is a comment to the config
        if current is None:
            begin = _BEGIN_FILE.match(stripped)
            if begin:
                current, body, begun_at = begin.group("name"), [""] * line_no, line_no
            elif stripped.startswith("#end_file"):
                raise TshParseError(line_no, "expected #begin_file before #end_file")
            continue
        end = _END_FILE.match(stripped)
        if end:
            if end.group("name") not in (None, current):
                raise TshParseError(line_no, f"expected #end_file name={current}")
            files[current] = "\n".join(body)
            current = None
        elif stripped.startswith("#begin_file"):
            raise TshParseError(line_no, f"expected #end_file name={current}")
        else:
            body.append(line)
    if current is not None:
        raise TshParseError(begun_at, f"expected #end_file name={current} to close this block")
    return "\n".join(config), files


def write_archive(config: TshConfig, files: dict[str, TshFile]) -> str:
    parts = ["# tsh archive file\n", write_config(config)]
    for name, tfile in files.items():
        parts.append(f"#begin_file name={name}\n")
        parts.append(write_t(tfile))
        parts.append(f"#end_file name={name}\n")
    return "".join(parts)
