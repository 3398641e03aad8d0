"""Text people type and the site shows: the one Markdown renderer, its plain-text reading for emails, and the
length limits of free text.

Markdown is rendered by markdown-it-py in CommonMark mode, whose time grows in step with the text whatever it
holds (Python-Markdown took half a minute over a few thousand nested brackets), then cleaned by nh3, which keeps
only harmless HTML. Texts are rendered once, when they are saved (the HTML is stored beside the source), never on
every view of a page.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import nh3
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from markdown_it import MarkdownIt

from .errors import ServiceError

# CommonMark, with raw HTML passed to the sanitiser (which keeps the harmless tags and drops the rest).
_MARKDOWN = MarkdownIt("commonmark")
# The project's own documents (the help pages) use tables, which what people type on the site does not need.
_DOCUMENTS = MarkdownIt("commonmark").enable("table")
# The same CommonMark with each single line break kept as a line break: organisers type an event's texts as plain
# lines (a list of amendments, a bank account under its name), which CommonMark would join into one paragraph.
_LINES = MarkdownIt("commonmark", {"breaks": True})
LINK_REL = "nofollow noopener"

# Length limits of free text, in characters: long enough for any real announcement, short enough that no text
# costs a page anything worth noticing.
LONG_TEXT = 20_000  # an event's description, its rules and indemnity
MEDIUM_TEXT = 10_000  # payment instructions
SHORT_TEXT = 5_000  # a refund policy, a renewal's payment instructions
NOTE_TEXT = 2_000  # a reason, a message to staff, an address


def markdown_html(text: str, *, line_breaks: bool = False) -> str:
    """Markdown as safe HTML: the one renderer of text people type (an event's description, rules, payment
    instructions). The answer is stored beside its source and shown as it is. With `line_breaks`, a single line
    break shows as one (an event's texts), rather than joining its lines."""
    if not text:
        return ""
    return nh3.clean((_LINES if line_breaks else _MARKDOWN).render(text), link_rel=LINK_REL)


def document_html(text: str) -> str:
    """One of the project's own Markdown documents as safe HTML, tables and all (clubsite.help_pages)."""
    return nh3.clean(_DOCUMENTS.render(text), link_rel=LINK_REL)


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
            start = dict(attrs).get("start") if tag == "ol" else None
            self.lists.append((int(start) if start and start.isdigit() else 1) if tag == "ol" else None)
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


def html_text(html: str) -> str:
    """HTML made by markdown_html as the plain text of an email: what the page shows, without the marks."""
    parser = _PlainText()
    parser.feed(html or "")
    parser.close()
    return unescape(parser.text())


def markdown_text(text: str, *, line_breaks: bool = False) -> str:
    """Markdown as plain text for an email, read through the one renderer (`line_breaks` as markdown_html's)."""
    return html_text(markdown_html(text, line_breaks=line_breaks))


@deconstructible
class TextLimit:
    """A validator of free text: at most `limit` characters, refused with a message naming the field (`what`) and
    the limit. Forms, the API and the admin all reach it through the model field."""

    code = "max_length"

    def __init__(self, limit: int, what: str):
        self.limit = limit
        self.what = what

    def __call__(self, value) -> None:
        length = len(value or "")
        if "\x00" in (value or ""):
            raise ValidationError(NUL_REFUSAL.format(what=self.what), code="null_characters_not_allowed")
        if length > self.limit:
            raise ValidationError(
                f"The {self.what} can be at most {self.limit:,} characters long; this one has {length:,}.",
                code=self.code,
                params={"limit_value": self.limit, "show_value": length},
            )

    def __eq__(self, other) -> bool:
        return isinstance(other, TextLimit) and (self.limit, self.what) == (other.limit, other.what)

    def __hash__(self) -> int:
        return hash((self.limit, self.what))


# PostgreSQL stores no NUL in text: refused by name, never left to fail as a database error.
NUL_REFUSAL = "The {what} holds a NUL character (a zero byte), which no text can hold."


def check_free_text(
    value: str, what: str, limit: int, error: type[ServiceError] = ServiceError, field: str = ""
) -> str:
    """A service's check of free text that no model field checks for it (a reason told in an email, a reason cut to
    a short column): at most `limit` characters and no NUL. Returns the text stripped; refuses as `error` naming
    `field`."""
    text = (value or "").strip()
    if "\x00" in text:
        raise error(NUL_REFUSAL.format(what=what), field=field or None)
    if len(text) > limit:
        raise error(
            f"The {what} can be at most {limit:,} characters long; this one has {len(text):,}.", field=field or None
        )
    return text


def check_text(model, field: str, value: str, error: type[ServiceError] = ServiceError) -> None:
    """A service's check of text it is given for `model.field`: the field's own validators (its TextLimit), a
    refusal as `error` naming the field."""
    try:
        model._meta.get_field(field).run_validators(value)
    except ValidationError as refusal:
        raise error(refusal.messages[0], field=field) from None
