"""Players say which part of their full name is the family name, so that names are sorted and
exported (tsh: 'Family, Given') in the person's own order.

Existing records start without a family name: their name is used as written and never reversed,
until the member (or staff) fills it in on the profile.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("players", "0004_renewal_requests")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="family_name",
            field=models.CharField(
                blank=True,
                help_text="As it begins or ends your full name (Chua in Chua Xavier, Smith in John Smith). "
                "Leave it empty if you have no family name: your name is then used as written.",
                max_length=100,
                verbose_name="family name (surname)",
            ),
        ),
    ]
