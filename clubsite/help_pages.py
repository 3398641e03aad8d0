"""The site's help pages: Markdown documents kept in the project's `docs/` folder, shown as pages.

One document is both the project's documentation and the page users read, so the two cannot drift.
Only the documents listed here are served (the address never names a file).
"""

from functools import cache
from pathlib import Path

from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe

from clubsite.kit.text import document_html

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"pairing-and-ratings": "pairing-and-ratings.md"}


@cache
def _rendered(slug: str) -> tuple[str, str]:
    text = (DOCS / PAGES[slug]).read_text(encoding="utf-8")
    title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), slug)
    return title, mark_safe(document_html(text))  # noqa: S308 (cleaned by nh3 in document_html)


def help_page(request, slug: str):
    if slug not in PAGES:
        raise Http404("No such help page.")
    title, html = _rendered(slug)
    return render(request, "help.html", {"title": title, "html": html})
