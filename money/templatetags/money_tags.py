"""Amounts of money, payment references and receipts on any page, without a query per row: an amount is written
by clubsite.kit.money, a reference is made from an id, and every receipt a page shows is found in one query."""

from collections import defaultdict

from django import template

from clubsite.kit.money import format_money

from ..core.references import make_reference
from ..models import Payment
from ..services.reports import held_by_reference

register = template.Library()


@register.filter
def money(amount, style: str = "") -> str:
    """{{ fee.amount|money }}: S$3.00 on a page; {{ amount|money:"code" }}: SGD 3.00, as emails write it."""
    return format_money(amount, code=style == "code")


@register.filter
def purchase_order(number: str) -> str:
    """{{ invoice.po_number|purchase_order }}: "PO 457", or the number alone when it already says PO
    ("PO-2026-0457", not "PO PO-2026-0457")."""
    number = str(number or "")
    return number if number[:2].upper() == "PO" else f"PO {number}"


@register.filter
def pay_reference(target_id, kind: str) -> str:
    """{{ entry.pk|pay_reference:"E" }}: what the payer quotes (and the payment page's address)."""
    return make_reference(kind, int(target_id)) if target_id else ""


def _references(objects, kinds: dict) -> set[str]:
    references = set()
    if objects is not None and not hasattr(objects, "__iter__"):
        objects = [objects]  # one object: {% receipts_index group G="pk" as receipts %}
    for obj in objects or ():
        for kind, attribute in kinds.items():
            if target_id := getattr(obj, attribute, None):
                references.add(make_reference(kind, int(target_id)))
    return references


@register.simple_tag
def receipts_index(objects, **kinds) -> dict:
    """{% receipts_index entries E="pk" G="group_id" as receipts %}: the receipt numbers of the payments made
    for each object under each kind (the object's id in the named attribute), by reference, in one query."""
    references = _references(objects, kinds)
    found = defaultdict(list)
    if references:
        rows = Payment.objects.filter(reference__in=references).order_by("recorded_at", "pk")
        for number, reference in rows.values_list("number", "reference"):
            found[reference].append(number)
    return dict(found)


@register.filter
def receipts_of(index: dict, reference: str) -> list:
    """{{ receipts|receipts_of:reference }}: the receipt numbers under that reference."""
    return (index or {}).get(reference, [])


@register.simple_tag
def held_index(objects, **kinds) -> dict:
    """{% held_index entries E="pk" G="group_id" as held %}: the money held under each object's reference (paid
    more than is due, or for an entry that no longer holds a place: the organiser refunds it or keeps it), as the
    event's money page counts it (money.services.reports.held_by_reference), in one query."""
    return held_by_reference(_references(objects, kinds))


@register.filter
def held_of(index: dict, reference: str):
    """{{ held|held_of:reference }}: the amount held under that reference (0 when none)."""
    return (index or {}).get(reference, 0)
