"""Live events say which players' own streams carry them (``?player=``): a table's players for what happens at
their table.  Events written before have none (``NULL``): every player's stream carries them, as every stream did."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("live", "0002_overlay_token_digest")]

    operations = [
        migrations.AddField(
            model_name="liveevent",
            name="players",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
