# The login lockout counters (and other rate limits) live in the default cache, which is a table in
# the database unless CACHE_URL or REDIS_URL points elsewhere: create that table with the schema.
from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_player_guardian_directory_consent"),
    ]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
