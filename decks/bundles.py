"""The decks app's part of an event bundle (:mod:`tournaments.bundle`): deck versions, their verdicts and rulings.

A version travels with its decklist text, the checker's verdict as it was
(status, violations, card count, when it was checked) and the judges' rulings
in order, with the one in force.  The catalogue version it was checked on is
not: the card pool here may differ, so a re-check (a card import, "re-check
all decks") checks it again.  Registered with the tournaments app's bundle
service at start (:class:`decks.apps.DecksConfig`).
"""

from __future__ import annotations

from typing import Any

from decks.models import DeckVerdictOverride, DeckVersion
from tournaments.bundle import BundleError, IdMap, parse_time
from tournaments.services.bundles import BundlePart, Users, bulk_store, rows, when

_VERSION_FIELDS = (
    "id", "registration_id", "number", "decklist", "roles", "submitted_by__username", "submitted_at", "status",
    "violations", "violation_count", "violations_by_code", "card_count", "checked_at", "ruling_id",
)  # fmt: skip


def decks_export(event_id: int) -> list[dict[str, Any]]:
    """Every deck version of the event's registrations, oldest first, with its rulings (two queries)."""
    versions = rows(
        DeckVersion.objects.filter(registration__event_id=event_id).order_by("id").values(*_VERSION_FIELDS),
        registration="registration_id", submitted_by="submitted_by__username",
    )  # fmt: skip
    rulings: dict[int, list[dict[str, Any]]] = {}
    for ruling in rows(
        DeckVerdictOverride.objects.filter(version__registration__event_id=event_id)
        .order_by("at", "id")
        .values("id", "version_id", "status", "reason", "by__username", "at"),
        by="by__username",
    ):
        rulings.setdefault(ruling.pop("version_id"), []).append(ruling)
    for version in versions:
        own = rulings.get(version["id"], [])
        in_force = version.pop("ruling_id")
        version["ruling"] = next((i for i, r in enumerate(own) if r["id"] == in_force), None)
        version["rulings"] = [{k: v for k, v in r.items() if k != "id"} for r in own]
    return versions


def decks_restore(given: list[dict[str, Any]], registrations: IdMap, users: Users) -> None:
    """Store the bundle's deck versions for the new event's registrations, then their rulings."""
    for i, row in enumerate(given):
        if row["status"] not in DeckVersion.Status.values:
            raise BundleError(
                f"$.decks[{i}].status", f"{row['status']!r} is not one of {', '.join(DeckVersion.Status.values)}"
            )
        for j, ruling in enumerate(row["rulings"]):
            if ruling["status"] not in ("", *DeckVerdictOverride.Status.values):
                raise BundleError(
                    f"$.decks[{i}].rulings[{j}].status", f"{ruling['status']!r} is not legal, illegal or empty"
                )
    versions = bulk_store(
        DeckVersion,
        [
            DeckVersion(
                registration_id=registrations[row["registration"]], number=row["number"], decklist=row["decklist"],
                roles=row.get("roles", {}), submitted_by=users.get(row["submitted_by"]), status=row["status"],
                violations=row.get("violations", []), violation_count=row.get("violation_count", 0),
                violations_by_code=row.get("violations_by_code", {}), card_count=row.get("card_count"),
                checked_at=when(row["checked_at"]),
            )
            for row in given
        ],
        [{"submitted_at": row["submitted_at"]} for row in given],
    )  # fmt: skip
    made = DeckVerdictOverride.objects.bulk_create(
        DeckVerdictOverride(
            version=version, status=ruling["status"], reason=ruling["reason"], by=users.get(ruling["by"]),
            at=parse_time(ruling["at"]),
        )
        for row, version in zip(given, versions, strict=True)
        for ruling in row["rulings"]
    )  # fmt: skip
    # The ruling in force: the bundle names it by its place among the version's rulings.
    made_iter = iter(made)
    in_force = []
    for row, version in zip(given, versions, strict=True):
        own = [next(made_iter) for _ in row["rulings"]]
        if row["ruling"] is not None:
            version.ruling = own[row["ruling"]]
            in_force.append(version)
    DeckVersion.objects.bulk_update(in_force, ["ruling"])


DECKS = BundlePart(section="decks", export=decks_export, restore=decks_restore)
