"""The play app takes over the tournament tables events created (state only: the tables keep their names),
and the content types of those models follow them, so admin history and permissions stay attached."""


import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


MOVED = ["checkin", "division", "divisionplayer", "game", "gamechange", "gcgrecord", "luckydraw", "prizedecision", "round"]


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="events", model__in=MOVED).update(app_label="play")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="play", model__in=MOVED).update(app_label="events")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('events', '0018_play_app_state_moves_out'),
        ('players', '0006_renewal_amount_paid'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.CreateModel(
                name='CheckIn',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('checked_in_at', models.DateTimeField()),
                    ('by_self', models.BooleanField(default=False, help_text='The player checked in with the venue code')),
                    ('checked_in_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='check_in', to='events.entry')),
                ],
                options={
                    'db_table': 'events_checkin',
                },
            ),
            migrations.CreateModel(
                name='Division',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(max_length=50)),
                    ('position', models.PositiveSmallIntegerField(default=0)),
                    ('rating_min', models.PositiveIntegerField(blank=True, null=True)),
                    ('rating_max', models.PositiveIntegerField(blank=True, null=True)),
                    ('takes_unrated', models.BooleanField(default=False, help_text='Unrated players are placed here')),
                    ('missed_rounds_as', models.CharField(choices=[('forfeit', 'Forfeit loss'), ('bye', 'Bye'), ('void', 'Void (neither win nor loss)')], default='forfeit', help_text='How rounds missed by late entrants and withdrawn players are scored', max_length=15)),
                    ('finalised_at', models.DateTimeField(blank=True, null=True)),
                    ('assignments_published', models.BooleanField(default=False)),
                    ('category', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='divisions', to='events.category')),
                    ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='divisions', to='events.event')),
                ],
                options={
                    'db_table': 'events_division',
                    'ordering': ['event', 'position', 'name'],
                },
            ),
            migrations.CreateModel(
                name='DivisionPlayer',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveIntegerField(help_text='Player number in the division (as in tsh)')),
                    ('rating', models.PositiveIntegerField(default=0, help_text='Rating used for seeding; 0 = unrated')),
                    ('withdrawn_after_round', models.PositiveIntegerField(blank=True, null=True)),
                    ('joined_in_round', models.PositiveIntegerField(default=1)),
                    ('assigned_reason', models.CharField(blank=True, max_length=200)),
                    ('placed_by_director', models.BooleanField(default=False, help_text='Kept when divisions are reassigned')),
                    ('tsh_extras', models.JSONField(blank=True, default=dict)),
                    ('division', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='play.division')),
                    ('entry', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seat', to='events.entry')),
                    ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='players.player')),
                ],
                options={
                    'db_table': 'events_divisionplayer',
                    'ordering': ['division', 'number'],
                },
            ),
            migrations.CreateModel(
                name='Game',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('round_number', models.PositiveIntegerField()),
                    ('board', models.PositiveIntegerField(blank=True, null=True)),
                    ('kind', models.CharField(choices=[('normal', 'Game'), ('bye', 'Bye'), ('forfeit', 'Forfeit loss'), ('late_forfeit', 'Late-arrival forfeit'), ('void', 'Void / missed round')], default='normal', max_length=15)),
                    ('status', models.CharField(choices=[('paired', 'Paired'), ('submitted', 'Submitted'), ('disputed', 'Disputed'), ('confirmed', 'Confirmed')], default='paired', max_length=10)),
                    ('score_a', models.IntegerField(blank=True, null=True)),
                    ('score_b', models.IntegerField(blank=True, null=True)),
                    ('spread_a', models.IntegerField(blank=True, null=True)),
                    ('first', models.CharField(blank=True, choices=[('a', 'Player A'), ('b', 'Player B')], max_length=1)),
                    ('overtime_a', models.PositiveIntegerField(default=0, help_text='Seconds over the time control')),
                    ('overtime_b', models.PositiveIntegerField(default=0)),
                    ('played_a', models.IntegerField(blank=True, null=True)),
                    ('played_b', models.IntegerField(blank=True, null=True)),
                    ('overrun', models.CharField(blank=True, choices=[('a', 'Player A'), ('b', 'Player B')], max_length=1)),
                    ('ahead_before_tiles', models.CharField(blank=True, choices=[('a', 'Player A'), ('b', 'Player B'), ('level', 'Level')], max_length=5)),
                    ('submitted_at', models.DateTimeField(blank=True, null=True)),
                    ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                    ('confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('division', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='play.division')),
                    ('player_a', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_a', to='players.player')),
                    ('player_b', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games_as_b', to='players.player')),
                    ('submitted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'events_game',
                    'ordering': ['division', 'round_number', 'board', 'pk'],
                },
            ),
            migrations.CreateModel(
                name='GameChange',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('changed_at', models.DateTimeField(auto_now_add=True)),
                    ('action', models.CharField(max_length=20)),
                    ('before', models.JSONField(default=dict)),
                    ('after', models.JSONField(default=dict)),
                    ('reason', models.CharField(blank=True, max_length=200)),
                    ('changed_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='play.game')),
                ],
                options={
                    'db_table': 'events_gamechange',
                    'ordering': ['-changed_at'],
                },
            ),
            migrations.CreateModel(
                name='GcgRecord',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('text', models.TextField()),
                    ('filename', models.CharField(blank=True, max_length=200)),
                    ('uploaded_at', models.DateTimeField(auto_now=True)),
                    ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='gcg_record', to='play.game')),
                    ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'events_gcgrecord',
                },
            ),
            migrations.CreateModel(
                name='LuckyDraw',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('seed', models.BigIntegerField()),
                    ('winners_wanted', models.PositiveIntegerField()),
                    ('candidates', models.JSONField(default=list, help_text='Player ids, in the order drawn from')),
                    ('winners', models.JSONField(default=list, help_text='Player ids, in the order drawn')),
                    ('excluded', models.JSONField(default=list, help_text='Prize winners left out (player ids)')),
                    ('note', models.CharField(blank=True, max_length=200)),
                    ('drawn_at', models.DateTimeField(auto_now_add=True)),
                    ('division', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lucky_draws', to='play.division')),
                    ('drawn_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'events_luckydraw',
                    'ordering': ['division', '-drawn_at', '-pk'],
                },
            ),
            migrations.CreateModel(
                name='PrizeDecision',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('prize', models.CharField(help_text='The prize as the prizes page names it, e.g. 2nd place', max_length=200)),
                    ('reason', models.CharField(max_length=300)),
                    ('decided_at', models.DateTimeField(default=django.utils.timezone.now)),
                    ('decided_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('division', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='prize_decisions', to='play.division')),
                    ('seat', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='prize_decisions', to='play.divisionplayer')),
                ],
                options={
                    'db_table': 'events_prizedecision',
                    'ordering': ['division', 'prize', '-decided_at', '-pk'],
                },
            ),
            migrations.CreateModel(
                name='Round',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveIntegerField()),
                    ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('complete', 'Complete')], default='draft', max_length=10)),
                    ('pairing_system', models.CharField(blank=True, max_length=30)),
                    ('pairing_seed', models.BigIntegerField(blank=True, null=True)),
                    ('based_on_round', models.PositiveIntegerField(blank=True, null=True)),
                    ('pairing_notes', models.TextField(blank=True, help_text='What the pairing decided, e.g. who was Gibsonized and why')),
                    ('published_at', models.DateTimeField(blank=True, null=True)),
                    ('division', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='play.division')),
                ],
                options={
                    'db_table': 'events_round',
                    'ordering': ['division', 'number'],
                },
            ),
            migrations.AddField(
                model_name='game',
                name='round',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='play.round'),
            ),
            migrations.AddConstraint(
                model_name='division',
                constraint=models.UniqueConstraint(fields=('event', 'name'), name='division_name_unique_in_event'),
            ),
            migrations.AddConstraint(
                model_name='divisionplayer',
                constraint=models.UniqueConstraint(fields=('division', 'number'), name='seat_number_unique'),
            ),
            migrations.AddConstraint(
                model_name='divisionplayer',
                constraint=models.UniqueConstraint(fields=('division', 'player'), name='seat_player_unique'),
            ),
            migrations.AddIndex(
                model_name='prizedecision',
                index=models.Index(fields=['division', 'prize'], name='events_priz_divisio_20e255_idx'),
            ),
            migrations.AddIndex(
                model_name='round',
                index=models.Index(condition=models.Q(('status__in', ['published', 'complete']), _negated=True), fields=['id'], name='round_unpublished'),
            ),
            migrations.AddConstraint(
                model_name='round',
                constraint=models.UniqueConstraint(fields=('division', 'number'), name='round_number_unique'),
            ),
            migrations.AddIndex(
                model_name='game',
                index=models.Index(fields=['division', 'status', 'round_number'], name='events_game_divisio_b260f1_idx'),
            ),
            migrations.AddConstraint(
                model_name='game',
                constraint=models.UniqueConstraint(fields=('round', 'player_a'), name='game_one_per_player_a_per_round'),
            ),
            migrations.AddConstraint(
                model_name='game',
                constraint=models.UniqueConstraint(condition=models.Q(('player_b__isnull', False)), fields=('round', 'player_b'), name='game_one_per_player_b_per_round'),
            ),
            migrations.AddConstraint(
                model_name='game',
                constraint=models.CheckConstraint(condition=models.Q(('player_a', models.F('player_b')), _negated=True), name='game_not_against_self'),
            ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
