"""Markdown rendered safely (nh3 keeps only harmless HTML), and small display helpers."""

import re
from functools import lru_cache
from html import unescape
from html.parser import HTMLParser

import markdown as markdown_lib
import nh3
from django import template
from django.utils.safestring import mark_safe

from clubsite.kit.money import format_money

register = template.Library()


@register.filter
def markdown(text: str) -> str:
    return mark_safe(_markdown_html(text or ""))


@lru_cache(maxsize=512)
def _markdown_html(text: str) -> str:
    """Rendered and cleaned once per text in each process: an event page shows the same description on
    every request, and an edited description is a new text (so nothing stale is ever shown)."""
    html = markdown_lib.markdown(text, extensions=["sane_lists"])
    return nh3.clean(html, link_rel="nofollow noopener")


class _PlainText(HTMLParser):
    """Rendered Markdown back to the plain text an email reader expects: words without ** or _,
    links as "text (address)", list items on their own lines with "-" or their number."""

    BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "blockquote", "table", "tr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.lists: list[int | None] = []  # per open list: the next number, or None for bullets
        self.href: str | None = None
        self.link_text: list[str] = []
        self.in_pre = False

    def handle_starttag(self, tag, attrs):
        self.in_pre = self.in_pre or tag == "pre"
        if tag in self.BLOCKS and not (tag in ("ul", "ol") and self.lists):  # a nested list stays in its item
            self.out.append("\n\n")
        if tag == "br":
            self.out.append("\n")
        elif tag in ("ul", "ol"):
            self.lists.append(1 if tag == "ol" else None)
        elif tag == "li":
            number = self.lists[-1] if self.lists else None
            indent = "  " * max(len(self.lists) - 1, 0)
            self.out.append(f"\n{indent}{'- ' if number is None else f'{number}. '}")
            if number is not None:
                self.lists[-1] = number + 1
        elif tag == "a":
            self.href = dict(attrs).get("href") or ""
            self.link_text = []

    def handle_endtag(self, tag):
        self.in_pre = self.in_pre and tag != "pre"
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
        if tag == "a" and self.href is not None:
            text = "".join(self.link_text).strip()
            href, self.href = self.href, None
            href = href.removeprefix("mailto:")
            self.out.append(text if not href or href == text else f"{text} ({href})" if text else href)
        elif tag in self.BLOCKS and not (tag in ("ul", "ol") and self.lists):
            self.out.append("\n\n")

    def handle_data(self, data):
        if not self.in_pre:
            # Outside <pre>, line breaks in the HTML are just spaces (the ones between tags are nothing).
            if not data.strip():
                return
            data = re.sub(r"\s*\n\s*", " ", data)
            if not self.out or self.out[-1].endswith("\n"):
                data = data.lstrip()
        (self.link_text if self.href is not None else self.out).append(data)

    def text(self) -> str:
        text = "".join(self.out)
        text = re.sub(r"[ \t]+\n", "\n", text)
        return re.sub(r"\n{3,}", "\n\n", text).strip()


@register.filter
def markdown_to_text(text: str) -> str:
    """Markdown for a plain-text email: what the page shows, without the Markdown marks."""
    parser = _PlainText()
    parser.feed(markdown_lib.markdown(text or "", extensions=["sane_lists"]))
    parser.close()
    return unescape(parser.text())


@register.filter
def money(amount, style: str = "") -> str:
    """{{ fee.amount|money }}: S$3.00; {{ amount|money:"code" }}: SGD 3.00, as emails write it (format_money, the
    one formatter, is clubsite.kit.money's; imported from here by events' code too)."""
    return format_money(amount, code=style == "code")


# The one colour per status, for events, entries, rounds and games alike.
STATUS_BADGES = {
    "confirmed": "success",
    "pending_payment": "warning text-dark",
    "waitlisted": "info text-dark",
    "offered": "primary",
    "registration_open": "success",
    "published": "primary",
    "registration_closed": "dark",
    "in_progress": "primary",
    "completed": "secondary",
    "cancelled": "danger",
    "draft": "light text-dark border",
    "paired": "secondary",
    "submitted": "warning text-dark",
    "disputed": "danger",
    "complete": "success",
}


@register.filter
def badge(status: str) -> str:
    return STATUS_BADGES.get(status, "secondary")
