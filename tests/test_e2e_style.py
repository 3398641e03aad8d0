"""The browser journeys assert with Playwright's waiting `expect`, never with `assert locator.is_visible()`.

`is_visible()` and `is_hidden()` answer at once, without waiting for the page to catch up, so an assert on
them fails whenever the browser is a little slow; `expect(locator).to_be_visible()` (or `to_be_hidden()`,
`not_to_be_visible()`) waits. Using them as control flow (`if x.is_visible():`) is left alone.
"""

import ast
from pathlib import Path

E2E = Path(__file__).resolve().parent / "e2e"
NON_WAITING = {"is_visible", "is_hidden"}


def non_waiting_asserts(source: str, filename: str = "<source>") -> list[int]:
    """The line numbers of the assert statements that call .is_visible() or .is_hidden()."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Assert) and any(
            isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in NON_WAITING
            for call in ast.walk(node)
        ):
            found.append(node.lineno)
    return sorted(found)


def test_the_check_finds_a_non_waiting_assert():
    source = (
        "assert page.get_by_text('Saved').is_visible()\n"
        "if page.locator('#refused').is_visible():\n"
        "    pass\n"
        "assert not banner.is_visible() and rows.count() == 2\n"
        "expect(page.get_by_text('Saved')).to_be_visible()\n"
        "assert x.is_hidden()\n"
    )
    assert non_waiting_asserts(source) == [1, 4, 6]


def test_e2e_journeys_assert_with_expect_not_is_visible():
    files = sorted(E2E.rglob("*.py"))
    assert files, f"no browser journeys found under {E2E}"
    offenders = [
        f"{path.relative_to(E2E.parent.parent)}:{line}"
        for path in files
        for line in non_waiting_asserts(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not offenders, (
        "assert on is_visible()/is_hidden() does not wait; use expect(locator).to_be_visible() "
        "(or to_be_hidden(), not_to_be_visible()) from playwright.sync_api:\n" + "\n".join(offenders)
    )
