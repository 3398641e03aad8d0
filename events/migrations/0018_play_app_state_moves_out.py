"""Tournament play became an app of its own (label `play`). Its models move out of events in the
migration state only: the tables stay as they are (the play models name them), so nothing in the database changes."""


from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0017_division_assignments_shown_once_played'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.RemoveField(
                model_name='checkin',
                name='checked_in_by',
            ),
            migrations.RemoveField(
                model_name='checkin',
                name='entry',
            ),
            migrations.RemoveField(
                model_name='division',
                name='category',
            ),
            migrations.RemoveField(
                model_name='division',
                name='event',
            ),
            ],
            database_operations=[],
        ),
    ]
