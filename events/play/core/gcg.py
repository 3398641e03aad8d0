"""Reading GCG files: the annotated record of one Scrabble game, move by move.

    #player1 joel Joel Sherman
    #player2 ann Ann Smith
    >joel: AEINRST 8D NASTIER +70 70
    >ann: ?DEIMOU 9C dOMINEU. +75 75
    >joel: EGOPRTU - +0 70              (a pass)
    >ann: ABCDEFG -ABC +0 75            (an exchange; `-3` gives only the count)
    >joel: EGOPRTU F3 GROUP +20 90      (column first: a play down the board)
    >ann: FQ -- -75 0                   (a phony taken off the board: the player's own last play)
    >joel: EGOPRTU (challenge) +5 95    (the bonus for a valid play challenged)
    >joel: EGOPRTU (time) -10 85        (a time penalty)
    >ann: (AEI) +6 6                    (the opponent's tiles left at the end, counted for this player)
    >joel: AEI (AEI) -3 82              (one's own tiles left, counted against)
    #note a comment on the move above

A row number then a column letter (`8D`) is a play across, a column letter then a row number (`D8`)
a play down. A `.` in a word is a tile already on the board; a lower-case letter is a blank.

Pure module: text in, dataclasses out. A file that cannot be read is refused with a `GcgError`
naming the line, so a damaged or hostile upload never reaches the database (a NUL or another control
character, which the database would refuse to store, included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

__all__ = [
    "BOARD_SIZE",
    "COLUMNS",
    "MAX_FILE_BYTES",
    "MAX_MOVES",
    "GcgError",
    "GcgPlayer",
    "Move",
    "GameRecord",
    "decode",
    "parse",
    "premium",
]

BOARD_SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
MAX_FILE_BYTES = 64_000  # a long annotated game is under 10 kB
MAX_LINES = 2_000
MAX_MOVES = 300
MAX_NAME_LENGTH = 100
MAX_NOTE_LENGTH = 2_000

PLAY, PASS, EXCHANGE, WITHDRAWN, CHALLENGE, TIME, END_RACK, OWN_RACK = (
    "play",
    "pass",
    "exchange",
    "withdrawn",
    "challenge",
    "time",
    "end_rack",
    "own_rack",
)

_NICK = re.compile(r"^>([^:\s][^:]*):\s*(.*)$")
_ACROSS = re.compile(r"^(1[0-5]|[1-9])([A-Oa-o])$")
_DOWN = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])$")
_SIGNED = re.compile(r"^[-+]?[0-9]{1,4}$")
_RACK = re.compile(r"^[A-Za-z?]{0,7}$")
_TILES = re.compile(r"^[A-Za-z?]{1,7}$")
# Control characters other than tab and the line breaks: no text file has them (a NUL, a binary file read as text).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class GcgError(ValueError):
    """A file that cannot be read; `line` is 1-based (0: the file as a whole)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.reason = message


@dataclass(frozen=True)
class GcgPlayer:
    nick: str
    name: str


@dataclass(frozen=True)
class Move:
    line: int
    player: int  # 1 or 2
    kind: str
    rack: str
    score: int
    total: int
    position: str = ""  # as written: "8D" across, "D8" down
    word: str = ""  # as written ("." for a tile on the board)
    shown: str = ""  # the word with the tiles played through in brackets: "QI(X)"
    tiles: str = ""  # exchanged tiles, or the tiles counted at the end
    note: str = ""

    @property
    def description(self) -> str:
        if self.kind == PLAY:
            return f"{self.position} {self.shown}"
        return {
            PASS: "Pass",
            EXCHANGE: f"Exchange {self.tiles}",
            WITHDRAWN: "Play withdrawn (challenged off)",
            CHALLENGE: "Challenge bonus",
            TIME: "Time penalty",
            END_RACK: f"Opponent's tiles {self.tiles}",
            OWN_RACK: f"Tiles left {self.tiles}",
        }[self.kind]


@dataclass(frozen=True)
class GameRecord:
    player1: GcgPlayer
    player2: GcgPlayer
    moves: tuple[Move, ...]
    board: tuple[tuple[str, ...], ...]  # rows of squares: "" empty, upper case a tile, lower case a blank
    final_scores: tuple[int, int]
    title: str = ""
    description: str = ""
    lexicon: str = ""
    notes: tuple[str, ...] = field(default=())  # notes before the first move

    def player(self, number: int) -> GcgPlayer:
        return self.player1 if number == 1 else self.player2

    @property
    def tiles_on_board(self) -> int:
        return sum(1 for row in self.board for square in row if square)


def premium(row: int, column: int) -> str:
    """The standard board's premium square at (row, column), 0-based: "TW", "DW", "TL", "DL" or ""."""
    r, c = min(row, BOARD_SIZE - 1 - row), min(column, BOARD_SIZE - 1 - column)
    r, c = min(r, c), max(r, c)  # the board is symmetric about both diagonals too
    return _QUARTER.get((r, c), "")


_QUARTER = {
    (0, 0): "TW",
    (0, 7): "TW",
    (1, 1): "DW",
    (2, 2): "DW",
    (3, 3): "DW",
    (4, 4): "DW",
    (7, 7): "DW",
    (1, 5): "TL",
    (5, 5): "TL",
    (0, 3): "DL",
    (2, 6): "DL",
    (3, 7): "DL",
    (6, 6): "DL",
}


def decode(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (with or without a byte-order mark), else Latin-1."""
    if len(data) > MAX_FILE_BYTES:
        raise GcgError(f"the file is larger than {MAX_FILE_BYTES // 1000} kB; a game record is far smaller")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _signed(token: str, what: str, line: int) -> int:
    if not _SIGNED.match(token):
        raise GcgError(f"the {what} {token!r} is not a whole number", line)
    return int(token)


class _Board:
    def __init__(self) -> None:
        self.squares = [["" for _ in range(BOARD_SIZE)] for _ in range(BOARD_SIZE)]

    def place(self, position: str, word: str, line: int) -> tuple[list[tuple[int, int]], str]:
        """Puts a play on the board; returns the squares newly covered and the word as shown."""
        if across := _ACROSS.match(position):
            row, column, dr, dc = int(across[1]) - 1, COLUMNS.index(across[2].upper()), 0, 1
        elif down := _DOWN.match(position):
            row, column, dr, dc = int(down[2]) - 1, COLUMNS.index(down[1].upper()), 1, 0
        else:
            raise GcgError(
                f"the position {position!r} is not a square: write a row (1-15) and a column (A-O), "
                "like 8D across or D8 down",
                line,
            )
        if not word or not all(ch == "." or ch.isalpha() for ch in word):
            raise GcgError(f"the word {word!r} has characters other than letters and '.'", line)
        end_row, end_column = row + dr * (len(word) - 1), column + dc * (len(word) - 1)
        if end_row >= BOARD_SIZE or end_column >= BOARD_SIZE:
            raise GcgError(f"the word {word} at {position} runs off the board", line)
        new: list[tuple[int, int]] = []
        shown: list[str] = []
        through = False
        for i, ch in enumerate(word):
            r, c = row + dr * i, column + dc * i
            square = f"{COLUMNS[c]}{r + 1}"
            on_board = self.squares[r][c]
            if ch == ".":
                if not on_board:
                    raise GcgError(f"the word {word} at {position} plays through {square}, which is empty", line)
                letter, is_new = on_board, False
            elif on_board:
                if on_board.upper() != ch.upper():
                    raise GcgError(
                        f"the word {word} at {position} puts {ch} on {square}, where {on_board.upper()} already is",
                        line,
                    )
                letter, is_new = on_board, False
            else:
                letter, is_new = ch, True
            if not is_new and not through:
                shown.append("(")
            if is_new and through:
                shown.append(")")
            through = not is_new
            shown.append(letter)
            if is_new:
                new.append((r, c))
        if through:
            shown.append(")")
        if not new:
            raise GcgError(f"the word {word} at {position} places no new tile", line)
        for r, c in new:
            self.squares[r][c] = word[(r - row) + (c - column)]
        return new, "".join(shown)

    def lift(self, squares: list[tuple[int, int]]) -> None:
        for r, c in squares:
            self.squares[r][c] = ""

    def frozen(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(row) for row in self.squares)


def _player_pragma(rest: str, number: int, line: int) -> GcgPlayer:
    nick, _, name = rest.strip().partition(" ")
    if not nick:
        example = f"#player{number} ann Ann Smith"
        raise GcgError(f"#player{number} needs a short name and a full name, e.g. '{example}'", line)
    name = name.strip() or nick
    if len(name) > MAX_NAME_LENGTH or len(nick) > MAX_NAME_LENGTH:
        raise GcgError(f"the name of player {number} is longer than {MAX_NAME_LENGTH} characters", line)
    return GcgPlayer(nick=nick, name=name)


def parse(text: str) -> GameRecord:
    """Reads one game. Refuses (GcgError naming the line) what is not a consistent record of a game."""
    if len(text) > MAX_FILE_BYTES:
        raise GcgError(f"the file is larger than {MAX_FILE_BYTES // 1000} kB; a game record is far smaller")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise GcgError(f"the file has more than {MAX_LINES} lines; a game record has far fewer")
    players: dict[int, GcgPlayer] = {}
    pragmas: dict[str, str] = {}
    game_notes: list[str] = []
    moves: list[Move] = []
    totals = {1: 0, 2: 0}
    covered: list[list[tuple[int, int]]] = []  # squares each move newly covered (parallel to moves)
    board = _Board()
    in_note = False

    def add_note(text: str, line: int) -> None:
        text = text.strip()
        if moves:
            note = f"{moves[-1].note} {text}".strip()
            if len(note) > MAX_NOTE_LENGTH:
                raise GcgError(f"a note is longer than {MAX_NOTE_LENGTH} characters", line)
            moves[-1] = replace(moves[-1], note=note)
        elif text:
            game_notes.append(text[:MAX_NOTE_LENGTH])

    for number, raw in enumerate(lines, start=1):
        if control := _CONTROL.search(raw):
            name = "a NUL (a zero byte)" if control[0] == "\x00" else f"the control character U+{ord(control[0]):04X}"
            raise GcgError(f"this line has {name}, which no text file has: is this the game's .gcg file?", number)
        line = raw.strip()
        if not line:
            in_note = False
            continue
        if line.startswith("#"):
            keyword, _, rest = line[1:].partition(" ")
            keyword = keyword.lower()
            in_note = keyword == "note"
            if keyword in ("player1", "player2"):
                if moves:
                    raise GcgError(f"#{keyword} comes after the first move; the players are named first", number)
                players[int(keyword[-1])] = _player_pragma(rest, int(keyword[-1]), number)
            elif keyword == "note":
                add_note(rest, number)
            elif keyword == "character-encoding" and rest.strip().upper() not in ("UTF-8", "UTF8", "ISO-8859-1"):
                raise GcgError(f"the character encoding {rest.strip()!r} is not supported: use UTF-8", number)
            else:
                pragmas[keyword] = rest.strip()[:MAX_NOTE_LENGTH]
            continue
        if not line.startswith(">"):
            if in_note:
                add_note(line, number)
                continue
            raise GcgError(
                "this line is neither a move (starting with '>') nor a keyword line (starting with '#')", number
            )
        in_note = False
        if len(players) < 2:
            raise GcgError("a move comes before both players are named (#player1 and #player2)", number)
        if len(moves) >= MAX_MOVES:
            raise GcgError(f"more than {MAX_MOVES} moves; a game has far fewer", number)
        matched = _NICK.match(line)
        if not matched:
            raise GcgError("a move is written '>name: RACK POSITION WORD +score total'", number)
        nick, tokens = matched[1].strip(), matched[2].split()
        who = next((n for n, p in players.items() if p.nick == nick), None)
        if who is None:
            known = " or ".join(repr(p.nick) for p in players.values())
            raise GcgError(f"the player {nick!r} is not named in #player1 or #player2 (expected {known})", number)
        move, new_squares = _move(who, tokens, number, board, moves, covered)
        expected = totals[who] + move.score
        if move.total != expected:
            raise GcgError(
                f"the total {move.total} does not follow: {totals[who]} before, {move.score:+d} for this move "
                f"makes {expected}",
                number,
            )
        totals[who] = move.total
        moves.append(move)
        covered.append(new_squares)
    if len(players) < 2:
        raise GcgError("the file does not name both players (#player1 and #player2)")
    if players[1].nick == players[2].nick:
        raise GcgError("both players have the same short name; the moves cannot tell them apart")
    return GameRecord(
        player1=players[1],
        player2=players[2],
        moves=tuple(moves),
        board=board.frozen(),
        final_scores=(totals[1], totals[2]),
        title=pragmas.get("title", ""),
        description=pragmas.get("description", ""),
        lexicon=pragmas.get("lexicon", ""),
        notes=tuple(game_notes),
    )


def _rack(token: str, line: int) -> str:
    if not _RACK.match(token):
        raise GcgError(f"the rack {token!r} is not up to seven tiles (letters, '?' for a blank)", line)
    return token


def _move(
    who: int, tokens: list[str], line: int, board: _Board, moves: list[Move], covered: list[list[tuple[int, int]]]
) -> tuple[Move, list[tuple[int, int]]]:
    """One move line (after '>name:'), placed on `board`; the squares it newly covered."""
    # The tiles left at the end, scored for the player who went out: `(RACK) +score total`.
    if len(tokens) == 3 and tokens[0].startswith("(") and tokens[0].endswith(")"):
        tiles = tokens[0][1:-1]
        if not _TILES.match(tiles):
            raise GcgError(f"the tiles {tokens[0]} are not up to seven letters", line)
        score = _signed(tokens[1], "score", line)
        return Move(line, who, END_RACK, "", score, _signed(tokens[2], "total", line), tiles=tiles), []
    if len(tokens) == 4:
        rack, action, score_token, total_token = tokens
        rack = _rack(rack, line)
        score, total = _signed(score_token, "score", line), _signed(total_token, "total", line)
        lowered = action.lower()
        if action == "-":
            return Move(line, who, PASS, rack, score, total), []
        if action == "--":
            previous = next((i for i in range(len(moves) - 1, -1, -1) if moves[i].player == who), None)
            if previous is None or moves[previous].kind != PLAY or previous != len(moves) - 1:
                raise GcgError("a play is withdrawn ('--') but the move before it is not this player's play", line)
            board.lift(covered[previous])
            return Move(line, who, WITHDRAWN, rack, score, total), []
        if action.startswith("-"):
            tiles = action[1:]
            if not (_TILES.match(tiles) or (tiles.isdigit() and 1 <= int(tiles) <= 7)):
                raise GcgError(f"the exchange {action!r} is not '-' and up to seven tiles (or their number)", line)
            return Move(line, who, EXCHANGE, rack, score, total, tiles=tiles), []
        if lowered == "(challenge)":
            return Move(line, who, CHALLENGE, rack, score, total), []
        if lowered == "(time)":
            return Move(line, who, TIME, rack, score, total), []
        if action.startswith("(") and action.endswith(")") and _TILES.match(action[1:-1]):
            return Move(line, who, OWN_RACK, rack, score, total, tiles=action[1:-1]), []
        raise GcgError(f"{action!r} is not a pass '-', an exchange '-TILES', a withdrawal '--' or a bonus", line)
    if len(tokens) == 5:
        rack, position, word, score_token, total_token = tokens
        rack = _rack(rack, line)
        score, total = _signed(score_token, "score", line), _signed(total_token, "total", line)
        new, shown = board.place(position, word, line)
        return Move(line, who, PLAY, rack, score, total, position=position, word=word, shown=shown), new
    raise GcgError(
        "a move is written '>name: RACK POSITION WORD +score total' (or a pass, exchange, withdrawal or bonus)",
        line,
    )
