"""An event's free texts have a length limit; its Markdown texts are rendered once, when saved, and kept beside
their source (the pages show the stored HTML): the existing events' texts are rendered here."""

import clubsite.kit.text
from django.db import migrations, models

# Each Markdown text and the field that keeps it rendered (as Event.MARKDOWN_FIELDS).
RENDERED = {
    "description": "description_html",
    "rules_agreement": "rules_agreement_html",
    "payment_instructions": "payment_instructions_html",
}


def render_existing_texts(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    pks = list(Event.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), 200):
        events = list(Event.objects.filter(pk__in=pks[start : start + 200]).only("pk", *RENDERED))
        for event in events:
            for source, rendered in RENDERED.items():
                setattr(event, rendered, clubsite.kit.text.markdown_html(getattr(event, source)))
        Event.objects.bulk_update(events, list(RENDERED.values()))


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0019_play_models_leave_events_state'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='description_html',
            field=models.TextField(blank=True, editable=False, help_text='The description as the page shows it'),
        ),
        migrations.AddField(
            model_name='event',
            name='payment_instructions_html',
            field=models.TextField(blank=True, editable=False, help_text='The payment instructions as the page shows them'),
        ),
        migrations.AddField(
            model_name='event',
            name='rules_agreement_html',
            field=models.TextField(blank=True, editable=False, help_text='The rules as the page shows them'),
        ),
        migrations.AlterField(
            model_name='event',
            name='cancellation_reason',
            field=models.TextField(blank=True, validators=[clubsite.kit.text.TextLimit(2000, 'reason for cancelling')]),
        ),
        migrations.AlterField(
            model_name='event',
            name='description',
            field=models.TextField(blank=True, help_text='Markdown', validators=[clubsite.kit.text.TextLimit(20000, 'description')]),
        ),
        migrations.AlterField(
            model_name='event',
            name='payment_instructions',
            field=models.TextField(blank=True, help_text='Markdown', validators=[clubsite.kit.text.TextLimit(10000, 'payment instructions')]),
        ),
        migrations.AlterField(
            model_name='event',
            name='refund_policy',
            field=models.TextField(blank=True, validators=[clubsite.kit.text.TextLimit(5000, 'refund policy')]),
        ),
        migrations.AlterField(
            model_name='event',
            name='rules_agreement',
            field=models.TextField(blank=True, help_text='The rules and indemnity entrants must agree to', validators=[clubsite.kit.text.TextLimit(20000, 'rules and indemnity')]),
        ),
        migrations.RunPython(render_existing_texts, migrations.RunPython.noop, elidable=True),
    ]
