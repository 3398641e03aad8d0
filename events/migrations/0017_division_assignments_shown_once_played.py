from django.db import migrations


def show_played_assignments(apps, schema_editor):
    """A division with a published round already shows every seat: its assignments are public (as publishing a
    round or importing a tsh file now records)."""
    Division = apps.get_model("events", "Division")
    Round = apps.get_model("events", "Round")
    played = Round.objects.exclude(status="draft").values("division_id")
    Division.objects.filter(pk__in=played, assignments_published=False).update(assignments_published=True)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0016_round_unpublished"),
    ]

    operations = [
        migrations.RunPython(show_played_assignments, migrations.RunPython.noop),
    ]
