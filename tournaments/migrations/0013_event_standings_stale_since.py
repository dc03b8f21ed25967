from django.db import migrations, models
from django.db.models import F
from django.utils import timezone


def mark_stale_events(apps, schema_editor):
    """Events already behind lag from now on (when they started to is not recorded)."""
    Event = apps.get_model("tournaments", "Event")
    Event.objects.filter(standings_version__lt=F("results_version")).update(standings_stale_since=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_registration_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="standings_stale_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(mark_stale_events, migrations.RunPython.noop),
    ]
