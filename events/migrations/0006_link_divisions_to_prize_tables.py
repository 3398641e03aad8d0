"""Links each division that has no category to the category (prize table) it plays for: the one named
alike, else the one its rating band overlaps most (events.core.divisions.match_prize_tables)."""

from django.db import migrations

from events.play.core.divisions import Band, match_prize_tables


def link(apps, schema_editor):
    Division = apps.get_model("events", "Division")
    Category = apps.get_model("events", "Category")
    for division in Division.objects.filter(category__isnull=True).order_by("event_id", "position", "pk"):
        categories = list(Category.objects.filter(event_id=division.event_id).order_by("position", "pk"))
        if not categories:
            continue
        category = next((c for c in categories if c.name == division.name), None)
        if category is None:
            bands = [Band(c.name, c.min_rating, c.max_rating) for c in categories]
            name = match_prize_tables([Band(division.name, division.rating_min, division.rating_max)], bands)[
                division.name
            ]
            category = next((c for c in categories if c.name == name), None) if name else None
        if category is not None:
            division.category = category
            division.save(update_fields=["category"])


class Migration(migrations.Migration):
    dependencies = [('events', '0005_event_input_bounds')]

    operations = [migrations.RunPython(link, migrations.RunPython.noop)]
