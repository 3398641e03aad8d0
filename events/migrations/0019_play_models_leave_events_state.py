"""The play models leave the events app's state (their tables now belong to the play app; nothing is
changed in the database); an entry's division is play's."""


import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0018_play_app_state_moves_out'),
        ('play', '0001_play_models_from_events'),
        ('ratings', '0005_rating_change_division_in_play'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.AlterField(
                model_name='entry',
                name='division',
                field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='entries', to='play.division'),
            ),
            migrations.RemoveField(
                model_name='game',
                name='division',
            ),
            migrations.RemoveField(
                model_name='round',
                name='division',
            ),
            migrations.RemoveField(
                model_name='luckydraw',
                name='division',
            ),
            migrations.RemoveField(
                model_name='prizedecision',
                name='division',
            ),
            migrations.RemoveField(
                model_name='divisionplayer',
                name='division',
            ),
            migrations.RemoveField(
                model_name='divisionplayer',
                name='entry',
            ),
            migrations.RemoveField(
                model_name='divisionplayer',
                name='player',
            ),
            migrations.RemoveField(
                model_name='prizedecision',
                name='seat',
            ),
            migrations.RemoveField(
                model_name='game',
                name='confirmed_by',
            ),
            migrations.RemoveField(
                model_name='game',
                name='player_a',
            ),
            migrations.RemoveField(
                model_name='game',
                name='player_b',
            ),
            migrations.RemoveField(
                model_name='game',
                name='round',
            ),
            migrations.RemoveField(
                model_name='game',
                name='submitted_by',
            ),
            migrations.RemoveField(
                model_name='gcgrecord',
                name='game',
            ),
            migrations.RemoveField(
                model_name='gamechange',
                name='game',
            ),
            migrations.RemoveField(
                model_name='gamechange',
                name='changed_by',
            ),
            migrations.RemoveField(
                model_name='gcgrecord',
                name='uploaded_by',
            ),
            migrations.RemoveField(
                model_name='luckydraw',
                name='drawn_by',
            ),
            migrations.RemoveField(
                model_name='prizedecision',
                name='decided_by',
            ),
            migrations.DeleteModel(
                name='CheckIn',
            ),
            migrations.DeleteModel(
                name='Division',
            ),
            migrations.DeleteModel(
                name='DivisionPlayer',
            ),
            migrations.DeleteModel(
                name='Round',
            ),
            migrations.DeleteModel(
                name='Game',
            ),
            migrations.DeleteModel(
                name='GameChange',
            ),
            migrations.DeleteModel(
                name='GcgRecord',
            ),
            migrations.DeleteModel(
                name='LuckyDraw',
            ),
            migrations.DeleteModel(
                name='PrizeDecision',
            ),
            ],
            database_operations=[],
        ),
    ]
