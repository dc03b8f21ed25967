"""Overlay tokens: the database keeps a digest of each key and its first characters, no longer the key.

Existing tokens are converted in place (the overlay URLs that carry their keys keep working).  Going back
cannot bring a key back from its digest: each token gets a new random key and is revoked.
"""

import hashlib
import secrets

from django.db import migrations, models
from django.utils import timezone

PREFIX_LENGTH = 8


def keys_to_digests(apps, schema_editor):
    OverlayToken = apps.get_model("live", "OverlayToken")
    tokens = list(OverlayToken.objects.only("pk", "key"))
    for token in tokens:
        token.digest = hashlib.sha256(token.key.encode("utf-8", "surrogatepass")).hexdigest()
        token.prefix = token.key[:PREFIX_LENGTH]
    OverlayToken.objects.bulk_update(tokens, ["digest", "prefix"], batch_size=500)


def new_revoked_keys(apps, schema_editor):
    OverlayToken = apps.get_model("live", "OverlayToken")
    tokens = list(OverlayToken.objects.only("pk", "revoked_at"))
    for token in tokens:
        token.key = secrets.token_urlsafe(24)
        token.revoked_at = token.revoked_at or timezone.now()
    OverlayToken.objects.bulk_update(tokens, ["key", "revoked_at"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="overlaytoken",
            name="digest",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="overlaytoken",
            name="prefix",
            field=models.CharField(default="", editable=False, max_length=8),
            preserve_default=False,
        ),
        # The key loses its uniqueness before the data moves, so that going back may add it with one value first.
        migrations.AlterField(
            model_name="overlaytoken",
            name="key",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(keys_to_digests, new_revoked_keys, elidable=False),
        migrations.AlterField(
            model_name="overlaytoken",
            name="digest",
            field=models.CharField(editable=False, max_length=64, unique=True),
        ),
        migrations.RemoveField(
            model_name="overlaytoken",
            name="key",
        ),
    ]
