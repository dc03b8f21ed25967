"""Deck versions count their violations, in total and by code, and keep at most 200 of them.

Versions checked before keep their whole list: this counts it, and trims it to what a check keeps now (the first
violation of every code, then the first ones; see ``decks.checking.kept_violations``, copied here as it is today).
"""

from django.db import migrations, models

#: ``decks.checking.STORED_VIOLATIONS`` when this migration was written.
STORED_VIOLATIONS = 200
BATCH = 200


def _kept(violations, at_most):
    if len(violations) <= at_most:
        return list(violations)
    firsts = {}
    for position, violation in enumerate(violations):
        firsts.setdefault(violation.get("code"), position)
    must = set(sorted(firsts.values())[:at_most])
    room = at_most - len(must)
    kept = []
    for position, violation in enumerate(violations):
        if position in must:
            kept.append(violation)
        elif room > 0:
            kept.append(violation)
            room -= 1
    return kept


def count_and_cap_violations(apps, schema_editor):
    DeckVersion = apps.get_model("decks", "DeckVersion")
    versions = DeckVersion.objects.exclude(violations=[]).only("pk", "violations").order_by("pk")
    changed = []
    for version in versions.iterator(chunk_size=BATCH):
        by_code = {}
        for violation in version.violations:
            by_code[violation.get("code")] = by_code.get(violation.get("code"), 0) + 1
        version.violation_count = len(version.violations)
        version.violations_by_code = by_code
        version.violations = _kept(version.violations, STORED_VIOLATIONS)
        changed.append(version)
        if len(changed) == BATCH:
            DeckVersion.objects.bulk_update(changed, ["violations", "violation_count", "violations_by_code"])
            changed = []
    DeckVersion.objects.bulk_update(changed, ["violations", "violation_count", "violations_by_code"])


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0003_stored_banlist"),
    ]

    operations = [
        migrations.AddField(
            model_name="deckversion",
            name="violation_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="deckversion",
            name="violations_by_code",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(count_and_cap_violations, migrations.RunPython.noop, elidable=True),
    ]
