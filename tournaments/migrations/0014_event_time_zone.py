"""Each event's time zone (its pages' times, its deadlines) and the paper its printouts are laid out for; events
already stored get the site's (``TIME_ZONE``, ``PODIUM_PAPER``)."""

from django.db import migrations, models

import tournaments.models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_event_standings_stale_since"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="paper",
            field=models.CharField(
                choices=[("a4", "A4"), ("letter", "US Letter")], default=tournaments.models.default_paper, max_length=6
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="time_zone",
            field=models.CharField(default=tournaments.models.default_time_zone, max_length=64),
        ),
    ]
