from django.db import migrations, models


def rank_on_applied_imports(apps, schema_editor):
    """Players a list already imported ranked count as active from that list's date, as a new import makes them."""
    PlayerRating = apps.get_model("ratings", "PlayerRating")
    RatingImportLine = apps.get_model("ratings", "RatingImportLine")
    lines = (
        RatingImportLine.objects.filter(rating_import__status="applied", rank__isnull=False, player__isnull=False)
        .order_by("rating_import__applied_at")
        .values_list("rating_import__rating_list_id", "player_id", "rating_import__as_of")
    )
    for rating_list_id, player_id, as_of in lines.iterator(chunk_size=2000):
        PlayerRating.objects.filter(rating_list_id=rating_list_id, player_id=player_id).update(ranked_on_import=as_of)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0005_rating_change_division_in_play"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrating",
            name="ranked_on_import",
            field=models.DateField(
                blank=True, help_text="The date of the imported list that ranked this player (active then)", null=True
            ),
        ),
        migrations.RunPython(rank_on_applied_imports, migrations.RunPython.noop),
    ]
