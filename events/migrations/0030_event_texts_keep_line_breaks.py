"""An event's Markdown texts show a single line break as a line break (organisers type them as plain lines): the
existing events' texts are rendered again so their pages show it too."""

import clubsite.kit.text
from django.db import migrations

# Each Markdown text and the field that keeps it rendered (as Event.MARKDOWN_FIELDS).
RENDERED = {
    "description": "description_html",
    "rules_agreement": "rules_agreement_html",
    "rule_amendments": "rule_amendments_html",
    "payment_instructions": "payment_instructions_html",
}


def render_existing_texts(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    pks = list(Event.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), 200):
        events = list(Event.objects.filter(pk__in=pks[start : start + 200]).only("pk", *RENDERED))
        for event in events:
            for source, rendered in RENDERED.items():
                setattr(event, rendered, clubsite.kit.text.markdown_html(getattr(event, source), line_breaks=True))
        Event.objects.bulk_update(events, list(RENDERED.values()))


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0029_guest_entries"),
    ]

    operations = [
        migrations.RunPython(render_existing_texts, migrations.RunPython.noop),
    ]
