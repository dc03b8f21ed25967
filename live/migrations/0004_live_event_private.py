"""Live events the public streams do not carry (``private``): judge calls, for the event's staff stream and the
table's players.  Events written before are public, as they were; the database's default keeps the raw inserts of
a table's live event (:mod:`live.readers`) public without naming the column."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("live", "0003_live_event_players")]

    operations = [
        migrations.AddField(
            model_name="liveevent",
            name="private",
            field=models.BooleanField(db_default=False, default=False),
        ),
    ]
