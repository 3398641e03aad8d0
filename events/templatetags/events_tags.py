"""Markdown rendered safely (nh3 keeps only harmless HTML), and small display helpers."""

import markdown as markdown_lib
import nh3
from django import template
from django.conf import settings
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def markdown(text: str) -> str:
    html = markdown_lib.markdown(text or "", extensions=["sane_lists"])
    return mark_safe(nh3.clean(html, link_rel="nofollow noopener"))


def format_money(amount) -> str:
    """S$3.00 for Singapore dollars, else the currency code: EUR 3.00."""
    if amount is None or amount == "":
        return ""
    return f"S${amount:,.2f}" if settings.CURRENCY == "SGD" else f"{settings.CURRENCY} {amount:,.2f}"


@register.filter
def money(amount) -> str:
    return format_money(amount)


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
