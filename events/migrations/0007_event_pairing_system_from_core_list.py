"""An event's pairing system is one of the systems the site pairs with (events.core.pairing.SYSTEMS).

Events set to the old choices the site could not pair with move to the nearest system it can:
"Australian draw" (pairing within groups of equal wins) becomes Swiss; "Other (see description)"
becomes King of the Hill, the site's default, and the event's description still says what is played.
"""

from django.db import migrations, models

OLD_TO_NEW = {"australian_draw": "swiss", "other": "koth"}


def forwards(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    for old, new in OLD_TO_NEW.items():
        Event.objects.filter(pairing_system=old).update(pairing_system=new)


class Migration(migrations.Migration):
    dependencies = [('events', '0006_link_divisions_to_prize_tables')]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="pairing_system",
            field=models.CharField(
                choices=[
                    ("koth", "King of the Hill"),
                    ("swiss", "Swiss"),
                    ("random", "Random"),
                    ("round_robin", "Round robin"),
                    ("double_round_robin", "Double round robin"),
                    ("initial_fontes", "Initial Fontes"),
                ],
                default="koth",
                max_length=20,
            ),
        ),
    ]
