"""Text people type reaches a page one of two ways: as text, escaped by the template like every variable, or as
Markdown, rendered by the one renderer (clubsite.kit.text.markdown_html, which cleans its HTML) when it is saved and
shown from the stored HTML with the `rendered` filter. This scans the code and the templates for any other way: a
Markdown library used elsewhere, the renderer called elsewhere, `|safe` or autoescape switched off in a page, HTML
marked safe in code. What does go through the one renderer is listed (RENDERED), and kept so."""

import re
from pathlib import Path

from events.models import Event
from rulebooks.models import RuleBookVersion

ROOT = Path(__file__).resolve().parents[1]
APPS = ("clubsite", "outbox", "money", "players", "rulebooks", "events", "ratings", "clubs", "wordjudge")
TEMPLATES = ROOT / "templates"
RENDERER = "clubsite/kit/text.py"

# The texts rendered by markdown_html and shown with |rendered: the stored HTML, and the Markdown it is made from.
RENDERED = {
    "description_html": "description",
    "rules_agreement_html": "rules_agreement",
    "payment_instructions_html": "payment_instructions",
    "rule_amendments_html": "rule_amendments",
    "text_html": "text",
    "changes_html": "changes",
}
# Where markdown_html is called, and why there.
RENDERS = {
    "events/services/announcements.py": "render_texts: an event's texts, each time an event is saved (every door)",
    "events/migrations/0020_event_texts_bounded_and_rendered.py": "the texts of the events saved before, once",
    "events/migrations/0030_event_texts_keep_line_breaks.py": "the same, again when line breaks came to be kept",
    "rulebooks/services.py": "publish_version: a rule book version's text and what changed, once, when published",
}
# Where code marks HTML safe itself, and why each may.
MARKS_SAFE = {
    "clubsite/kit/html.py": "the HTML builder's safe(): the rows its cells escaped with the one escape",
    "clubsite/kit/ui.py": "QuickSelect: options it escaped with Django's escape and conditional_escape",
    "events/templatetags/events_tags.py": "the rendered filter: HTML that markdown_html made and cleaned when saved",
    "money/views/pay.py": "a PayNow QR code: segno's own SVG, with nothing typed in it",
    "clubsite/help_pages.py": "the help pages: the project's own documents, rendered and cleaned by document_html",
}
MARKDOWN_LIBRARIES = ("markdown_it", "markdown", "mistune", "commonmark", "markdown2", "mistletoe", "nh3", "bleach")


def _code():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            yield str(path.relative_to(ROOT)), path.read_text()


def _templates():
    for path in TEMPLATES.rglob("*"):
        if path.suffix in (".html", ".txt"):
            yield str(path.relative_to(TEMPLATES)), path.read_text()


def test_no_module_but_the_toolkits_renderer_uses_a_markdown_library():
    imports = re.compile(rf"^\s*(?:from|import)\s+({'|'.join(MARKDOWN_LIBRARIES)})\b", re.MULTILINE)
    users = sorted(name for name, text in _code() if imports.search(text))
    assert users == [RENDERER]


def test_the_renderer_is_called_only_where_texts_are_saved():
    callers = {name for name, text in _code() if "markdown_html(" in text and name != RENDERER}
    assert callers == set(RENDERS)


def test_what_goes_through_the_renderer_is_the_events_and_the_rule_books_markdown_fields():
    fields = {**Event.MARKDOWN_FIELDS, **RuleBookVersion.MARKDOWN_FIELDS}
    assert {rendered: source for source, rendered in fields.items()} == RENDERED


def test_every_page_shows_stored_html_only_through_the_rendered_filter_and_only_the_renderers():
    shown = {
        (name, match.group(1))
        for name, text in _templates()
        for match in re.finditer(r"\{\{\s*[\w.]*?(\w+)\s*\|\s*rendered\s*\}\}", text)
    }
    assert shown and {field for _, field in shown} <= set(RENDERED), shown
    # An event's Markdown itself appears only as the plain text the renderer reads it as (emails: markdown_to_text).
    sources = re.compile(r"\{\{\s*event\.(" + "|".join(RENDERED.values()) + r")\s*(\|[^}]*)?\}\}")
    raw = [
        f"{name}: {match.group(0)}"
        for name, text in _templates()
        for match in sources.finditer(text)
        if "markdown_to_text" not in (match.group(2) or "")
    ]
    assert raw == []


def test_no_page_marks_text_safe_or_turns_escaping_off():
    """|safe and |safeseq nowhere; autoescape off only in plain-text emails (.txt), which no browser renders."""
    found = [
        f"{name}: {match.group(0)}"
        for name, text in _templates()
        for match in re.finditer(r"\|\s*safe(seq)?\b|\{%\s*autoescape\s+off\s*%\}", text)
        if not (name.endswith(".txt") and "autoescape" in match.group(0))
    ]
    assert found == []


def test_code_marks_html_safe_only_where_listed():
    marking = re.compile(r"\bmark_safe\(|\bSafeString\(|\bSafeText\(|\|\s*safe\b|\.__html__\s*=")
    found = {name for name, text in _code() if "migrations" not in name and marking.search(text)}
    assert found == set(MARKS_SAFE)
