"""HTML built in Python, for the tables too large for the template language: a 300-player division's
standings, cross-table and scorecards, the wall, the printed cards, a round's boards, a player's games.
One escape, and cells, rows and tables written one way.

Plain strings, not templates: a row is one call of an f-string written once (`row_format`), so a page of
thousands of cells costs milliseconds. What a person typed (a name, a title) goes through `escape`;
numbers and the code's own words need none. A builder marks its result safe once, with `safe`.

The markup is always the same: `<td class="…">…</td>` cells side by side, one `<tr>` a line."""

import re
from collections.abc import Callable, Iterable
from html import escape  # the standard library's: what Django's escape calls, without wrapping each result

from django.utils.safestring import SafeString, mark_safe

__all__ = ["CELLS", "cell", "escape", "head", "row", "row_format", "safe", "table"]

_CLASS_NAMES = re.compile(r"[\w -]*")
# In `row_format`: a slot for cells built apart (a run of cells, or none), put in as they are.
CELLS = None


def _class(cls: str) -> str:
    return f' class="{cls}"' if cls else ""


def cell(content, cls: str = "", attrs: str = "") -> str:
    """One cell: `<td class="cls" attrs>content</td>`. `content` is escaped already (or a number);
    `attrs` are written as given (' colspan="2"')."""
    if cls:  # written out, not through _class: the cross-table makes thousands of cells
        return f'<td class="{cls}"{attrs}>{content}</td>'
    return f"<td{attrs}>{content}</td>"


def row(cells: Iterable[str], attrs: str = "") -> str:
    """A row of cells built apart (`cell`): `<tr attrs>…</tr>` and a line break."""
    return f"<tr{attrs}>{''.join(cells)}</tr>\n"


def row_format(*classes: str | None) -> Callable[..., str]:
    """A row's markup written once: a cell per class ("" for a cell without one, `CELLS` for a slot of cells
    built apart). Returns the function that fills it, `fill(attrs, *contents)`, writing what `row` would.

    The function is one f-string, compiled once (as `collections.namedtuple` makes its classes): as fast as a
    row written out by hand, where `str.format` would parse its template again for each of a page's
    thousands of rows (twice the time)."""
    if any(cls is not CELLS and not _CLASS_NAMES.fullmatch(cls) for cls in classes):
        raise ValueError(f"Class names are letters, digits, '-' and '_', separated by spaces: {classes}")
    names = [f"c{i}" for i in range(len(classes))]
    cells = "".join(
        f"{{{name}}}" if cls is CELLS else cell(f"{{{name}}}", cls) for name, cls in zip(names, classes, strict=True)
    )
    return eval(f"lambda attrs, {', '.join(names)}: f'<tr{{attrs}}>{cells}</tr>\\n'", {})  # noqa: S307 (checked)


def head(*columns: str | tuple[str, str]) -> str:
    """A table's head: a column per label, or (label, class). Labels are the code's own words, not escaped."""
    cells = []
    for column in columns:
        label, cls = column if isinstance(column, tuple) else (column, "")
        cells.append(f'<th scope="col"{_class(cls)}>{label}</th>')
    return f"<thead><tr>{''.join(cells)}</tr></thead>"


def table(head: str, body: str, cls: str = "") -> str:
    """A table of a head (`head`) and a body of rows."""
    return f"<table{_class(cls)}>{head}<tbody>{body}</tbody></table>"


def safe(parts: Iterable[str]) -> SafeString:
    """The builder's parts joined and marked safe: every text in them was escaped, or is a number or the
    code's own words."""
    return mark_safe("".join(parts))  # noqa: S308 (the builders escape what a person typed)
