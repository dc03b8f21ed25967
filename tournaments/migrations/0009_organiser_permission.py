"""The organiser permission: creating events (and player records) takes it.  Every account that already
organises an event gets it, so nobody who ran events before loses the right to create the next one."""

from django.conf import settings
from django.db import migrations


def grant_to_organisers(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Event = apps.get_model("tournaments", "Event")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    content_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model="event")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="organise_events", defaults={"name": "Can create events (organiser)"}
    )
    for user in User.objects.filter(pk__in=Event.objects.values("organiser_id")):
        user.user_permissions.add(permission)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_event_options"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="event",
            options={
                "ordering": ["-date", "-id"],
                "permissions": [("organise_events", "Can create events (organiser)")],
            },
        ),
        migrations.RunPython(grant_to_organisers, migrations.RunPython.noop),
    ]
