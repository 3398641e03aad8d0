"""Demo game records: a few demo games get a GCG record, so their pages show moves and a board.

The moves are a fixed game shape (every play fits the board); their scores are shared out so that
the record ends at the game's stored result.
"""

from events.play.core import gcg
from events.play.models import Game, GameKind, GameStatus, GcgRecord

# (player 1 or 2, rack, position, word, weight of the score) of each move; no position: an exchange.
SHAPE = [
    (1, "ADEFTWY", "8D", "WAFTED", 9),
    (2, "EJLOSTU", "G5", "JOL.", 10),
    (1, "GINOPRY", "I8", ".OING", 6),
    (2, "EINSSUW", "12E", "SWIN.", 7),
    (1, "EEPRUXY", "E8", ".XE", 12),
    (2, "EHOPSUV", "10B", "HOP.S", 9),
    (1, "EPRUUVY", None, "UUV", 0),
    (2, "ACEIRTV", "6G", ".RCA", 6),
    (1, "BERTYZE", "J2", "ZEBR.", 14),
    (2, "IKNORST", "2J", ".ONK", 11),
    (1, "EIMNOTY", "M2", ".ITE", 5),
    (2, "AEINRST", "5L", "T.N", 4),
    (1, "ADEGLOY", "N5", ".OD", 7),
    (2, "AEILRSU", "N7", ".UEL", 6),
    (1, "AEEGIRY", "10K", "REE.", 5),
    (2, "AAINRST", "K10", ".ANT", 5),
    (1, "AGIOWY", "13K", ".OW", 8),
    (2, "AEIRX", "L13", ".X", 9),
]
END_TILES = "AIQ"


def gcg_text(name_1: str, name_2: str, score_1: int, score_2: int, title: str = "") -> str:
    """A record of the shape above ending at score_1–score_2 (player 2 goes out; player 1 is left with AIQ)."""
    left = 12  # A, I, Q: 1 + 1 + 10
    end_bonus = 2 * left
    targets = {1: score_1 + left, 2: score_2 - end_bonus}
    lines = [f"#player1 p1 {name_1}", f"#player2 p2 {name_2}"]
    if title:
        lines.append(f"#title {title}")
    totals = {1: 0, 2: 0}
    weights = {who: sum(w for p, *_, w in SHAPE if p == who) for who in (1, 2)}
    last = {who: max(i for i, (p, *_) in enumerate(SHAPE) if p == who) for who in (1, 2)}
    for i, (who, rack, position, word, weight) in enumerate(SHAPE):
        if position is None:
            lines.append(f">p{who}: {rack} -{word} +0 {totals[who]}")
            continue
        score = targets[who] - totals[who] if i == last[who] else targets[who] * weight // weights[who]
        totals[who] += score
        lines.append(f">p{who}: {rack} {position} {word} +{score} {totals[who]}")
    totals[2] += end_bonus
    lines.append(f">p2: ({END_TILES}) +{end_bonus} {totals[2]}")
    totals[1] -= left
    lines.append(f">p1: {END_TILES} ({END_TILES}) -{left} {totals[1]}")
    return "\n".join(lines) + "\n"


def attach(stdout, how_many: int = 3) -> int:
    """Gives the top boards of the latest rated demo event's first round a record; returns how many."""
    games = (
        Game.objects.filter(
            kind=GameKind.NORMAL, status=GameStatus.CONFIRMED, player_b__isnull=False, gcg_record__isnull=True
        )
        .filter(round_number=1, score_a__gte=100, score_b__gte=100)
        .select_related("player_a", "player_b", "division__event")
        .order_by("-division__event__starts_on", "division__position", "board")[:how_many]
    )
    made = 0
    for game in games:
        text = gcg_text(game.player_a.name, game.player_b.name, game.score_a, game.score_b, game.division.event.title)
        gcg.parse(text)  # the demo writes only what an upload would accept
        GcgRecord.objects.create(game=game, text=text, filename="demo.gcg")
        made += 1
    if made:
        stdout.write(f"Attached {made} demo game records.")
    return made
