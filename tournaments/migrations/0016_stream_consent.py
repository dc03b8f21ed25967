"""A player may opt out of being streamed: a flag on their registration (live stations never show their table)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_phases"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="stream_opt_out",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="registration",
            name="stream_consent_changed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
