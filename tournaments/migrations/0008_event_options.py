"""An event's deck options become its format options (variants and house rules, read by the deck rules, the
engine and the pairing).

Two defaults now follow the rulebooks' text: a Master Trainer game ends at the first Life Depletion, Deck-Out
or Field Break (handbook §3.2), and Mt. Silver seats tables of 4 with byes for the players left over
("To play Mt. Silver, 4 players come together").  Events already under way were played by the old rules, so
they keep them, as the house rules that say so; events still open for registration take the rulebook's.
"""

from django.db import migrations


def keep_the_rules_of_started_events(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    kept = {"master-trainer": {"game_end": "last_standing"}, "mt-silver": {"three_player_pods": True}}
    for event in Event.objects.filter(format__in=kept).exclude(status="registration"):
        event.options = {**event.options, **kept[event.format]}
        event.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_penalty")]

    operations = [
        migrations.RenameField(model_name="event", old_name="deck_options", new_name="options"),
        migrations.RunPython(keep_the_rules_of_started_events, migrations.RunPython.noop),
    ]
