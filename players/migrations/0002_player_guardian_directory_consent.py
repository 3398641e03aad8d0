# Under-18s are listed in the directory only once a parent or guardian opts in.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='guardian_name',
            field=models.CharField(blank=True, max_length=200, verbose_name="parent or guardian's name"),
        ),
        migrations.AddField(
            model_name='player',
            name='guardian_opted_in_on',
            field=models.DateField(blank=True, help_text='For members under 18: the date a parent or guardian opted in to the directory.', null=True, verbose_name='parent or guardian agreed to the directory listing on'),
        ),
        migrations.AlterField(
            model_name='player',
            name='listed_in_directory',
            field=models.BooleanField(default=True, verbose_name='list me in the member directory'),
        ),
    ]
