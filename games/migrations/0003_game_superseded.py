"""A game still in progress when its table's result was recorded by hand is closed as superseded.

Games left in progress at a table that already has its result (before this change the console kept taking their
entries) are closed too.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def close_games_of_tables_with_a_result(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    PodResult = apps.get_model("tournaments", "PodResult")
    recorded = PodResult.objects.filter(pod_id=OuterRef("pod_id")).values("reported_at")[:1]
    Game.objects.filter(status="in_progress", pod__result__isnull=False).update(
        status="superseded", finished_at=Subquery(recorded)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_options_of_the_old_rules"),
        ("tournaments", "0010_podresult_corrected_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[
                    ("in_progress", "In progress"),
                    ("finished", "Finished"),
                    ("superseded", "Closed: result recorded by hand"),
                ],
                default="in_progress",
                max_length=20,
            ),
        ),
        migrations.RunPython(close_games_of_tables_with_a_result, migrations.RunPython.noop),
    ]
