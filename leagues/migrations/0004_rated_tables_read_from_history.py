"""The tables as rated are read from the rating history: drop ``RatedTable``.

Nothing moves: every ``RatedTable`` row said again what its table's changes say (the key, and each player's
placement, written together by the same service), so the history already holds it.  Going back rebuilds the rows
from the history, which the previous code needs to tell a rated table from a new one.
"""

from django.db import migrations


def rebuild_rated_tables(apps, schema_editor):
    RatingChange = apps.get_model("leagues", "RatingChange")
    RatedTable = apps.get_model("leagues", "RatedTable")
    tables: dict[int, tuple[str, str, dict[int, int]]] = {}
    for pod_id, fmt, key, player_id, placement in (
        RatingChange.objects.order_by().values_list("pod_id", "format", "key", "player_id", "placement").iterator()
    ):
        tables.setdefault(pod_id, (fmt, key, {}))[2][player_id] = placement
    RatedTable.objects.bulk_create(
        (
            RatedTable(pod_id=pod_id, format=fmt, key=key,
                       placements=",".join(f"{p}:{pl}" for p, pl in sorted(placements.items())))
            for pod_id, (fmt, key, placements) in tables.items()
        ),
        batch_size=2000,
    )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_rating_history_player_checked_once"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, rebuild_rated_tables),
        migrations.DeleteModel(
            name="RatedTable",
        ),
    ]
