"""The named sequences' table, made by players, belongs to the toolkit now (state only: the table keeps its name);
its content type follows it."""

from django.db import migrations, models


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="players", model="counter").update(app_label="kit")


def move_content_type_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="kit", model="counter").update(app_label="players")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("players", "0006_renewal_amount_paid"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Counter",
                    fields=[
                        ("name", models.CharField(max_length=50, primary_key=True, serialize=False)),
                        ("value", models.PositiveBigIntegerField(default=0)),
                    ],
                    options={"db_table": "players_counter"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
