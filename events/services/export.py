"""The organiser's list of entries as rows for a CSV file (written by clubsite.kit.csv, which makes every cell
formula-safe)."""

from django.utils import timezone

from ..models import Entry, Event


def entries_for_export(event: Event):
    """Rows for the organiser's CSV: the header, then every entry in first-come-first-served order."""
    header = [
        "Order",
        "Accepted at",
        "Status",
        "Category",
        "Member number",
        "Name as on ID",
        "School",
        "Phone",
        "Email",
        "Fee",
        "Concession proof",
        "Amount due",
        "Amount paid",
        "Group contact",
    ]
    yield header
    entries = (
        Entry.objects.filter(event=event)
        .select_related("player", "category", "fee", "group")
        .order_by("accepted_at", "pk")
    )
    for number, e in enumerate(entries, start=1):
        yield [
            number,
            timezone.localtime(e.accepted_at, event.zone).strftime("%Y-%m-%d %H:%M:%S"),
            e.get_status_display(),
            e.category.name,
            e.player.member_number,
            e.player.full_name,
            e.school or e.player.school,
            e.phone or e.player.phone,
            e.player.email,
            e.fee.name if e.fee else "",
            e.concession_proof,
            e.amount_due,
            e.amount_paid,
            f"{e.group.contact_name} ({e.group.phone}, {e.group.email})" if e.group_id else "",
        ]
