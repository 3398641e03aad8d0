"""The named sequences (Counter) leave players for the toolkit (state only: the table stays)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0006_renewal_amount_paid"),
        ("kit", "0001_counter_from_players"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Counter")], database_operations=[]),
    ]
