"""Games recorded before the engines followed the rulebooks' text keep the rules they were played by.

A Master Trainer game replays (on a void) with the options it was started with; before this change a §3.2
condition put one player out and play went on, so those games carry ``game_end: last_standing``.  Mt. Silver
games of 3 players were seated before the engine asked for the house rule that allows them.
"""

from django.db import migrations


def keep_old_rules(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(format__in=["master-trainer", "mt-silver"]).iterator():
        if game.format == "master-trainer":
            extra = {"game_end": "last_standing"}
        elif len(game.players) == 3:
            extra = {"three_player_pods": True}
        else:
            continue
        game.options = {**game.options, **extra}
        game.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(keep_old_rules, migrations.RunPython.noop)]
