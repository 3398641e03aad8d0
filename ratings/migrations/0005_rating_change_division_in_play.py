"""A rating change's division is now the play app's model (same table: a state-only change)."""


import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0001_play_models_from_events'),
        ('ratings', '0004_snapshot_entries_plural'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.AlterField(
                model_name='ratingchange',
                name='division',
                field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='play.division'),
            ),
            ],
            database_operations=[],
        ),
    ]
