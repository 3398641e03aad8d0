"""Text people typed, as the site shows it, and small display helpers. Markdown is rendered by the one renderer,
clubsite.kit.text, when a text is saved; pages show the stored HTML."""

from django import template
from django.utils.safestring import mark_safe

from clubsite.kit.money import format_money
from clubsite.kit.text import markdown_text

register = template.Library()


@register.filter
def rendered(html: str) -> str:
    """{{ event.description_html|rendered }}: HTML that clubsite.kit.text.markdown_html made (and cleaned) when the
    text was saved, shown as it is."""
    return mark_safe(html or "")  # noqa: S308 (cleaned by nh3 in markdown_html)


@register.filter
def markdown_to_text(text: str) -> str:
    """An event's Markdown text for a plain-text email: what the page shows (its line breaks too, as
    events.services.render_texts renders it), without the Markdown marks."""
    return markdown_text(text or "", line_breaks=True)


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
    "full_waiting_list": "warning text-dark",
    "full": "warning text-dark",
    "published": "primary",
    "registration_closed": "dark",
    "in_progress": "primary",
    "completed": "secondary",
    "cancelled": "danger",
    "not_admitted": "light text-dark border",
    "draft": "light text-dark border",
    "paired": "secondary",
    "submitted": "warning text-dark",
    "disputed": "danger",
    "complete": "success",
}


@register.filter
def badge(status: str) -> str:
    return STATUS_BADGES.get(status, "secondary")
