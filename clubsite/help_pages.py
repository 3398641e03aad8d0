"""The site's help pages: Markdown documents kept in the project's `docs/` folder, shown as pages.

One document is both the project's documentation and the page users read, so the two cannot drift.
Only the documents listed here are served (the address never names a file).
"""

from functools import cache
from pathlib import Path

import nh3
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from markdown_it import MarkdownIt

from clubsite.kit.text import LINK_REL

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"pairing-and-ratings": "pairing-and-ratings.md"}
# The project's own documents use tables, which what people type on the site does not need (clubsite.kit.text).
_MARKDOWN = MarkdownIt("commonmark").enable("table")


@cache
def _rendered(slug: str) -> tuple[str, str]:
    text = (DOCS / PAGES[slug]).read_text(encoding="utf-8")
    title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), slug)
    return title, mark_safe(nh3.clean(_MARKDOWN.render(text), link_rel=LINK_REL))  # noqa: S308 (cleaned by nh3)


def help_page(request, slug: str):
    if slug not in PAGES:
        raise Http404("No such help page.")
    title, html = _rendered(slug)
    return render(request, "help.html", {"title": title, "html": html})
