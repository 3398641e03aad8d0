# Members ask to renew from their account; staff record the payment.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0003_database_cache_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='association',
            name='renewal_payment_instructions',
            field=models.TextField(blank=True, help_text='Shown to members who ask to renew: how to pay (bank account, PayNow, in person).'),
        ),
        migrations.CreateModel(
            name='RenewalRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('type', models.CharField(choices=[('ordinary', 'Ordinary'), ('student', 'Student'), ('senior', 'Senior'), ('family', 'Family'), ('life', 'Life'), ('honorary', 'Honorary')], max_length=10)),
                ('amount', models.DecimalField(decimal_places=2, max_digits=8)),
                ('status', models.CharField(choices=[('requested', 'Waiting for payment'), ('paid', 'Paid'), ('cancelled', 'Cancelled')], default='requested', max_length=10)),
                ('requested_at', models.DateTimeField(auto_now_add=True)),
                ('paid_on', models.DateField(blank=True, null=True)),
                ('payment_method', models.CharField(blank=True, choices=[('in_person', 'In person'), ('cheque', 'Cheque'), ('bank_transfer', 'Bank transfer'), ('online', 'Online'), ('waived', 'Waived')], max_length=20)),
                ('payment_reference', models.CharField(blank=True, max_length=100)),
                ('association', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='renewals', to='players.association')),
                ('membership', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='renewal', to='players.membership')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='renewals', to='players.player')),
                ('recorded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-requested_at'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'requested')), fields=('player',), name='one_open_renewal_per_player'), models.CheckConstraint(condition=models.Q(('amount__gte', 0)), name='renewal_amount_not_negative')],
            },
        ),
    ]
