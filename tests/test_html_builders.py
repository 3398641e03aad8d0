"""HTML built in Python has one escape and one way of writing cells, rows and tables (clubsite.kit.html),
and the play pages that build their tables so (standings, cross-table, scorecards, a round's boards, the
wall, the printed cards, a player's games) use it."""

import ast
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.safestring import SafeString

from clubsite.kit.html import CELLS, cell, escape, head, row, row_format, safe, table
from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer, GameKind
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory, UserFactory

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ann <b>", "O'Brien & Co", 'Zed "Q"']  # names to escape


# The toolkit --------------------------------------------------------------------------------------------


def test_the_one_escape_is_the_standard_librarys_and_escapes_quotes_too():
    assert escape is html.escape
    assert escape("""<b>O'Brien & "Sons"</b>""") == "&lt;b&gt;O&#x27;Brien &amp; &quot;Sons&quot;&lt;/b&gt;"


def test_cells_rows_and_tables_are_written_one_way():
    assert cell(3) == "<td>3</td>"
    assert cell("x", "text-end") == '<td class="text-end">x</td>'
    assert cell("none", "text-muted", ' colspan="8"') == '<td class="text-muted" colspan="8">none</td>'
    assert row([cell(1), cell(2)], ' id="r"') == '<tr id="r"><td>1</td><td>2</td></tr>\n'
    assert head("Rd", ("Score", "text-end")) == (
        '<thead><tr><th scope="col">Rd</th><th scope="col" class="text-end">Score</th></tr></thead>'
    )
    assert table("<thead></thead>", "<tr></tr>", "table") == (
        '<table class="table"><thead></thead><tbody><tr></tr></tbody></table>'
    )
    assert table("", "") == "<table><tbody></tbody></table>"


def test_a_row_written_once_fills_as_a_row_of_cells_would():
    fill = row_format("rank", "", CELLS, "text-end")
    cells = cell("a", "x") + cell("b")
    assert fill(' class="m"', "=3", "Ann", cells, 7) == row(
        [cell("=3", "rank"), cell("Ann"), cells, cell(7, "text-end")], ' class="m"'
    )
    assert fill("", 1, "", "", "") == '<tr><td class="rank">1</td><td></td><td class="text-end"></td></tr>\n'


@pytest.mark.parametrize("cls", ["a'b", 'a"b', "a{b}", "a\\b", "a\nb"])
def test_a_row_written_once_takes_only_plain_class_names(cls):
    with pytest.raises(ValueError, match="Class names"):
        row_format("", cls)


def test_a_builders_parts_are_joined_and_marked_safe_once():
    built = safe([cell(escape("<i>")), cell(2)])
    assert isinstance(built, SafeString) and built == "<td>&lt;i&gt;</td><td>2</td>"


def test_the_play_pages_build_html_only_with_the_toolkit():
    """No other escape (Django's, the standard library's directly) and no other mark_safe in play's code."""
    offences = []
    for path in sorted((ROOT / "events" / "play").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in (
                "html",
                "django.utils.html",
                "django.utils.safestring",
            ):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} imports from {node.module}")
            elif isinstance(node, ast.Import) and any(a.name in ("html", "django.utils.html") for a in node.names):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} imports html")
    assert offences == []


# The pages ----------------------------------------------------------------------------------------------


class _Tables(HTMLParser):
    """Each table body's rows as lists of (tag, attributes) of their cells, and every cell's text."""

    def __init__(self):
        super().__init__()
        self.bodies: list[list[list[dict]]] = []
        self.heads: list[list[str]] = []
        self._in = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "thead":
            self.heads.append([])
            self._in = "head"
        elif tag == "tbody":
            self.bodies.append([])
            self._in = "body"
        elif tag == "tr" and self._in == "body":
            self.bodies[-1].append([])
        elif tag == "th" and self._in == "head":
            self.heads[-1].append(attrs.get("class", ""))
        elif tag == "td" and self._in == "body":
            self.bodies[-1][-1].append(attrs)


@pytest.fixture
def division():
    """A division of seven (a bye each round) with names to escape: two rounds, a tie, a forfeit, a withdrawal."""
    director = UserFactory()
    event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=3, rated=False, title="<Big> & Open")
    event.directors.add(director)
    div = Division.objects.create(event=event, name="A&B")
    for number, name in enumerate([*NAMES, "Di", "Ed", "Flo", "Guy"], start=1):
        DivisionPlayer.objects.create(division=div, player=PlayerFactory(full_name=name), number=number, rating=1500)
    for seed in (1, 2):
        rnd = play.pair_round(director, div, "random", seed=seed)
        play.publish_round(director, rnd)
        games = list(rnd.games.filter(kind=GameKind.NORMAL).order_by("board"))
        play.submit_result(director, games[0], 400, 400)
        play.set_unplayed(director, games[1], GameKind.FORFEIT, reason="late")
        for game in games[2:]:
            play.submit_result(director, game, 410, 380, overtime_a=70)
    div.director = director
    return div


def _tables(client, name, division, *args) -> _Tables:
    response = client.get(reverse(f"events:{name}", args=[division.event.slug, division.pk, *args]))
    assert response.status_code == 200
    parsed = _Tables()
    parsed.feed(response.content.decode())
    return parsed


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["play_standings", "play_cross_table", "play_scorecards", "play_round"])
def test_every_built_row_has_a_cell_under_each_column(client, division, name):
    client.force_login(division.director)  # a round's page shows its directors the status and actions too
    parsed = _tables(client, name, division, *([1] if name == "play_round" else []))
    assert parsed.bodies and all(parsed.bodies)
    for columns, rows in zip(parsed.heads, parsed.bodies, strict=True):
        for cells in rows:
            assert sum(int(c.get("colspan", 1)) for c in cells) == len(columns)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, args",
    [
        ("play_standings", []),
        ("play_cross_table", []),
        ("play_scorecards", []),
        ("play_round", [2]),
        ("play_wall", ["standings"]),
        ("play_print", [2, "scorecards"]),
    ],
)
def test_names_on_every_built_page_are_escaped(client, division, name, args):
    page = client.get(reverse(f"events:{name}", args=[division.event.slug, division.pk, *args])).content.decode()
    shown = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    assert [name for name in NAMES if name in shown] == []
    assert [name for name in NAMES if escape(name) in shown]  # some of them play on every page
