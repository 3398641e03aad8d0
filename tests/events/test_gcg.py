"""The GCG reader (events.play.core.gcg) on small hand-made game records."""

import pytest

from events.play.core import gcg

GAME = """#character-encoding UTF-8
#player1 ann Ann Tan
#player2 ben Ben Lim
#title Club night
#note A friendly game.
>ann: AEINRST 8D NASTIER +70 70
#note Bingo to open.
>ben: ?DEIMOU 9C dOMINE +30 30
>ann: EGOPRTU - +0 70
>ben: ABCDEFG -ABC +0 30
>ann: EGOPRTU F4 GROU. +16 86
>ben: FQ 10A FAQ +40 70
>ben: FQ -- -40 30
>ann: EGOPRTU (challenge) +5 91
>ben: AEILNOT -3 +0 30
>ann: ETU (time) -10 81
>ben: (ETU) +6 36
>ann: ETU (ETU) -3 78
"""


def test_reads_players_moves_and_totals():
    record = gcg.parse(GAME)
    assert record.player1 == gcg.GcgPlayer("ann", "Ann Tan")
    assert record.player2 == gcg.GcgPlayer("ben", "Ben Lim")
    assert record.title == "Club night"
    assert record.notes == ("A friendly game.",)
    kinds = [m.kind for m in record.moves]
    assert kinds == [
        "play",
        "play",
        "pass",
        "exchange",
        "play",
        "play",
        "withdrawn",
        "challenge",
        "exchange",
        "time",
        "end_rack",
        "own_rack",
    ]
    assert record.final_scores == (78, 36)
    assert record.moves[0].note == "Bingo to open."
    assert record.moves[0].line == 6
    assert [m.player for m in record.moves[:2]] == [1, 2]


def test_builds_the_board_with_blanks_and_tiles_played_through():
    record = gcg.parse(GAME)
    board = record.board
    assert "".join(board[7][3:10]) == "NASTIER"  # 8D: row 8 across from column D
    assert "".join(board[8][2:8]) == "dOMINE"  # a blank stays lower case
    assert [board[r][5] for r in range(3, 9)] == ["G", "R", "O", "U", "S", "I"]  # F4 down, through S
    assert record.moves[4].shown == "GROU(S)"
    assert record.tiles_on_board == 7 + 6 + 4


def test_shows_tiles_played_through_in_brackets():
    text = """#player1 a A
#player2 b B
>a: CATSXYZ 8G CAT +10 10
>b: HSSSSSS H7 .A. +5 5
"""
    # H7 is column H from row 7 down: H7 empty, H8 is A (of CAT), H9 empty; the word '.A.' would put
    # nothing new where '.' is: refused, because H7 is empty.
    with pytest.raises(gcg.GcgError, match="line 4: .*plays through H7, which is empty"):
        gcg.parse(text)
    ok = gcg.parse(text.replace("H7 .A. +5 5", "H7 S.T +5 5"))
    assert ok.moves[1].shown == "S(A)T"
    assert ok.moves[1].description == "H7 S(A)T"
    assert [ok.board[r][7] for r in (6, 7, 8)] == ["S", "A", "T"]


def test_a_withdrawn_play_leaves_the_board():
    record = gcg.parse(GAME)
    # FAQ at 10A was taken back: row 10 columns A-C are empty again.
    assert record.board[9][0:3] == ("", "", "")
    assert record.moves[6].description == "Play withdrawn (challenged off)"


def test_across_and_down_positions():
    text = """#player1 a Ann
#player2 b Ben
>a: ZAXXXXX 8H ZA +22 22
>b: EXXXXXX H9 EX +30 30
"""
    record = gcg.parse(text)
    assert record.board[7][7] == "Z" and record.board[7][8] == "A"
    assert record.board[8][7] == "E" and record.board[9][7] == "X"
    assert record.tiles_on_board == 4


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">a: ABC 8H CAB +10 11", "line 3: the total 11 does not follow: 0 before, \\+10 for this move makes 10"),
        (">c: ABC 8H CAB +10 10", "line 3: the player 'c' is not named"),
        (">a: ABC 16A CAB +10 10", "line 3: the position '16A' is not a square"),
        (">a: ABC 8M CABBIES +10 10", "line 3: the word CABBIES at 8M runs off the board"),
        (">a: ABC 8H C4B +10 10", "line 3: the word 'C4B' has characters other than letters"),
        (">a: ABC 8H CAB ten 10", "line 3: the score 'ten' is not a whole number"),
        (">a: ABC 8H CAB", "line 3: a move is written"),
        ("a: ABC 8H CAB +10 10", "line 3: this line is neither a move"),
        (">a: ABC -- -10 -10", "line 3: a play is withdrawn"),
        (">a: ABCDEFGHI 8H CAB +10 10", "line 3: the rack 'ABCDEFGHI' is not up to seven tiles"),
        (">a: ABC -ABCDEFGH +0 0", "line 3: the exchange '-ABCDEFGH' is not"),
        (">a: ABC 8H ... +0 0", "line 3: the word ... at 8H plays through H8, which is empty"),
    ],
)
def test_bad_lines_are_refused_naming_the_line(line, message):
    with pytest.raises(gcg.GcgError, match=message):
        gcg.parse(f"#player1 a Ann\n#player2 b Ben\n{line}\n")


def test_a_tile_on_an_occupied_square_must_match():
    text = "#player1 a Ann\n#player2 b Ben\n>a: CAT 8H CAT +10 10\n>b: DOG H8 DOG +10 10\n"
    with pytest.raises(gcg.GcgError, match="line 4: .*puts D on H8, where C already is"):
        gcg.parse(text)
    # Writing the letter already on the board (instead of '.') is read as playing through it.
    record = gcg.parse(text.replace("DOG H8 DOG", "COG H8 COG"))
    assert record.moves[1].shown == "(C)OG"


def test_files_without_players_or_too_large_are_refused():
    with pytest.raises(gcg.GcgError, match="line 2: a move comes before both players are named"):
        gcg.parse("#player1 a Ann\n>a: CAT 8H CAT +10 10\n")
    with pytest.raises(gcg.GcgError, match="does not name both players"):
        gcg.parse("#title nothing\n")
    with pytest.raises(gcg.GcgError, match="larger than 64 kB"):
        gcg.decode(b"#" * (gcg.MAX_FILE_BYTES + 1))
    with pytest.raises(gcg.GcgError, match="line 1: the character encoding 'UTF-16'"):
        gcg.parse("#character-encoding UTF-16\n")
    with pytest.raises(gcg.GcgError, match="line 4: #player2 comes after the first move"):
        gcg.parse("#player1 a Ann\n#player2 b Ben\n>a: CAT 8H CAT +10 10\n#player2 c Cy\n")


def test_decode_accepts_a_byte_order_mark_and_latin_1():
    assert gcg.decode("\ufeff#player1 a Zoë".encode()) == "#player1 a Zoë"
    assert gcg.decode("#player1 a Zoë".encode("latin-1")) == "#player1 a Zoë"


def test_premium_squares_of_the_standard_board():
    assert gcg.premium(0, 0) == "TW" and gcg.premium(14, 7) == "TW"
    assert gcg.premium(7, 7) == "DW" and gcg.premium(13, 1) == "DW"
    assert gcg.premium(5, 9) == "TL" and gcg.premium(1, 5) == "TL"
    assert gcg.premium(3, 14) == "DL" and gcg.premium(8, 12) == "DL" and gcg.premium(11, 7) == "DL"
    assert gcg.premium(7, 6) == ""
    assert sum(1 for r in range(15) for c in range(15) if gcg.premium(r, c)) == 8 + 17 + 12 + 24


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#player1 a Ann\n#note a\x00b\n", "line 2: this line has a NUL \\(a zero byte\\), which no text file has"),
        ("#player1 a Ann\x00\n", "line 1: this line has a NUL"),
        ("#player1 a Ann\n#player2 b Ben\n>a: C\x01T 8H CAT +10 10\n", "line 3: .*the control character U\\+0001"),
        ("\x1b[31m#player1 a Ann\n", "line 1: .*the control character U\\+001B"),
    ],
)
def test_a_nul_or_another_control_character_is_refused_naming_the_line(text, message):
    """The database refuses to store a NUL (a 500 from the game's page, before): it never gets that far."""
    with pytest.raises(gcg.GcgError, match=message):
        gcg.parse(text)
    with pytest.raises(gcg.GcgError, match=message):
        gcg.parse(gcg.decode(text.encode()))
