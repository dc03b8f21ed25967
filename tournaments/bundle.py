"""An event as a bundle: the versioned JSON shape ``event_export`` writes and ``event_import`` reads.

Pure: no Django, no app.  The services (:mod:`tournaments.services.bundles`)
read and write the database; this module says what a bundle is, checks one
before anything is stored, and remaps its ids.

Terms
=====

*bundle*
    One event and everything it is made of, as JSON::

        {"podium_bundle": 1, "exported_at": "<ISO time>", "source": "<where it was exported>",
         "event": {...}, "players": [...], "registrations": [...], "rounds": [...], "pods": [...],
         "seats": [...], "results": [...], "reports": [...], "penalties": [...], "decks": [...],
         "audit": [...]}

    Every row has the ``id`` it had at the source; rows name each other by
    those ids (a seat's ``pod`` and ``player``).  People who act (a result's
    ``reported_by``, an audit entry's ``actor``) are named by username, since
    accounts are not moved.  Times are ISO 8601 with their offset.
*version*
    ``podium_bundle``: :data:`VERSION` now.  A reader refuses a newer one
    (its rows may mean something this reader does not know) and an older one
    it has no reading for.
*path*
    Where in the bundle something is, as JSONPath: ``$.seats[3].player``.
    Every refusal names one.
*id map*
    :class:`IdMap`: a section's source ids to the ids its rows got here.

Game logs (the judge console's) and the live app's rows are not in a bundle:
the tables' results they produced are.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

#: The bundle version this code writes and reads.
VERSION = 1

#: The sections of a bundle that are lists of rows, in the order they are stored (each names only earlier ones).
SECTIONS = ("players", "registrations", "rounds", "pods", "seats", "results", "reports", "penalties", "decks",
            "audit")  # fmt: skip


class BundleError(ValueError):
    """What is wrong with a bundle, and where (a JSONPath)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


# A field's kind: what its value must be.  A trailing "?" allows null.
_PYTHON = {"int": int, "str": str, "bool": bool, "list": list, "dict": dict}

#: Each section's fields that must be there, by kind; ``->section`` is an id of a row of that section.
FIELDS: dict[str, dict[str, str]] = {
    "event": {"id": "int", "name": "str", "format": "str", "status": "str", "planned_rounds": "int", "date": "date",
              "options": "dict", "results_version": "int"},
    "players": {"id": "int", "display_name": "str", "external_id": "str?"},
    "registrations": {"id": "int", "player": "->players", "status": "str", "checked_in": "bool", "dropped": "bool",
                      "created_at": "time", "byes": "list"},
    "rounds": {"id": "int", "number": "int", "stage": "str", "seed": "int", "created_at": "time",
               "completed_at": "time?"},
    "pods": {"id": "int", "round": "->rounds", "table_number": "int?", "is_bye": "bool"},
    "seats": {"id": "int", "pod": "->pods", "player": "->players", "seat_order": "int", "placement": "int?",
              "points": "int?"},
    "results": {"id": "int", "pod": "->pods", "source": "str", "reported_by": "str?", "reported_at": "time",
                "corrected_at": "time?", "corrected_by": "str?"},
    "reports": {"id": "int", "pod": "->pods", "player": "->players", "user": "str?", "placements": "dict",
                "status": "str", "created_at": "time", "resolved_at": "time?", "responses": "list"},
    "penalties": {"id": "int", "registration": "->registrations", "penalty": "str", "infraction": "str",
                  "issued_by": "str?", "issued_at": "time", "rescinded_at": "time?", "rescinded_by": "str?"},
    "decks": {"id": "int", "registration": "->registrations", "number": "int", "decklist": "str", "status": "str",
              "submitted_by": "str?", "submitted_at": "time", "checked_at": "time?", "rulings": "list",
              "ruling": "int?"},
    "audit": {"id": "int", "actor": "str?", "action": "str", "subject": "str", "reason": "str",
              "created_at": "time"},
}  # fmt: skip

#: Rows inside rows: a report's responses, a deck version's rulings.
NESTED: dict[tuple[str, str], dict[str, str]] = {
    ("reports", "responses"): {"player": "->players", "agrees": "bool", "created_at": "time"},
    ("decks", "rulings"): {"status": "str", "reason": "str", "by": "str?", "at": "time"},
}


def parse_time(value: str, path: str = "$") -> datetime.datetime:
    """An ISO 8601 time with its offset (a time without one is refused: whose clock would it be?)."""
    try:
        when = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise BundleError(path, f"{value!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise BundleError(path, f"{value!r} has no UTC offset")
    return when


def parse_date(value: str, path: str = "$") -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise BundleError(path, f"{value!r} is not an ISO 8601 date") from None


def _check_value(kind: str, value: Any, path: str, ids: Mapping[str, set[int]]) -> None:
    optional = kind.endswith("?")
    kind = kind.rstrip("?")
    if value is None:
        if not optional:
            raise BundleError(path, "must not be null")
        return
    if kind.startswith("->"):
        section = kind[2:]
        if type(value) is not int or value not in ids[section]:
            raise BundleError(path, f"{value!r} is not the id of one of the bundle's {section}")
    elif kind == "time":
        if not isinstance(value, str):
            raise BundleError(path, "must be an ISO 8601 time (text)")
        parse_time(value, path)
    elif kind == "date":
        if not isinstance(value, str):
            raise BundleError(path, "must be an ISO 8601 date (text)")
        parse_date(value, path)
    else:
        expected = _PYTHON[kind]
        # bool is an int in Python: an int field refuses true/false, as JSON tells them apart.
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise BundleError(path, f"must be {'an' if kind == 'int' else 'a'} {kind}, not {type(value).__name__}")


def _check_row(row: Any, fields: Mapping[str, str], path: str, ids: Mapping[str, set[int]]) -> None:
    if not isinstance(row, dict):
        raise BundleError(path, "must be an object")
    for name, kind in fields.items():
        if name not in row:
            raise BundleError(f"{path}.{name}", "is missing")
        _check_value(kind, row[name], f"{path}.{name}", ids)


def check(bundle: Any) -> dict[str, Any]:
    """The bundle, checked: its version, every section and field it needs, and every id a row names.

    Raises :class:`BundleError` naming the first thing wrong (with its path).
    Extra keys are ignored (a later bundle version may add some; it would
    bump the version if they changed what the rest means).
    """
    if not isinstance(bundle, dict):
        raise BundleError("$", "a bundle is a JSON object")
    if "podium_bundle" not in bundle:
        raise BundleError("$.podium_bundle", "is missing: this is not a Podium event bundle")
    version = bundle["podium_bundle"]
    if type(version) is not int:
        raise BundleError("$.podium_bundle", f"must be a version number, not {version!r}")
    if version > VERSION:
        raise BundleError(
            "$.podium_bundle",
            f"version {version} was written by a newer Podium; this one reads version {VERSION}: upgrade it first",
        )
    if version < 1:
        raise BundleError("$.podium_bundle", f"version {version} does not exist")
    for key in ("exported_at", "source"):
        if key not in bundle:
            raise BundleError(f"$.{key}", "is missing")
    _check_value("time", bundle["exported_at"], "$.exported_at", {})
    _check_value("str", bundle["source"], "$.source", {})
    if "event" not in bundle:
        raise BundleError("$.event", "is missing")
    ids: dict[str, set[int]] = {}
    _check_row(bundle["event"], FIELDS["event"], "$.event", ids)
    for section in SECTIONS:
        rows = bundle.get(section)
        if not isinstance(rows, list):
            raise BundleError(f"$.{section}", "is missing" if rows is None else "must be a list")
        seen: set[int] = set()
        for i, row in enumerate(rows):
            path = f"$.{section}[{i}]"
            _check_row(row, FIELDS[section], path, ids)
            if row["id"] in seen:
                raise BundleError(f"{path}.id", f"{row['id']} is the id of two {section}")
            seen.add(row["id"])
            for (parent, key), fields in NESTED.items():
                if parent == section:
                    for j, inner in enumerate(row[key]):
                        _check_row(inner, fields, f"{path}.{key}[{j}]", ids)
        ids[section] = seen
    _check_consistency(bundle)
    return bundle


def _check_consistency(bundle: dict[str, Any]) -> None:
    """What the fields alone do not say: seated players are registered, a ruling in force exists."""
    registered = {row["player"] for row in bundle["registrations"]}
    for i, seat in enumerate(bundle["seats"]):
        if seat["player"] not in registered:
            raise BundleError(f"$.seats[{i}].player", f"player {seat['player']} has no registration in the event")
    for i, deck in enumerate(bundle["decks"]):
        ruling = deck["ruling"]
        if ruling is not None and not 0 <= ruling < len(deck["rulings"]):
            raise BundleError(f"$.decks[{i}].ruling", f"{ruling} is not the index of one of the deck's rulings")
    for i, registration in enumerate(bundle["registrations"]):
        for j, number in enumerate(registration["byes"]):
            _check_value("int", number, f"$.registrations[{i}].byes[{j}]", {})


class IdMap:
    """One section's source ids mapped to the ids its rows got here."""

    def __init__(self, section: str) -> None:
        self.section = section
        self._new: dict[int, int] = {}

    def add(self, old: int, new: int) -> None:
        self._new[old] = new

    def update(self, pairs: Iterable[tuple[int, int]]) -> None:
        for old, new in pairs:
            self.add(old, new)

    def __getitem__(self, old: int) -> int:
        try:
            return self._new[old]
        except KeyError:
            raise BundleError(f"$.{self.section}", f"no row has id {old}") from None

    def get(self, old: int | None) -> int | None:
        return None if old is None else self[old]

    def __len__(self) -> int:
        return len(self._new)

    def keys_of(self, mapping: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """A JSON object keyed by this section's ids (a report's ``{"<player id>": placement}``), remapped."""
        if mapping is None:
            return None
        try:
            return {str(self[int(key)]): value for key, value in mapping.items()}
        except ValueError:
            raise BundleError(f"$.{self.section}", f"{sorted(mapping)!r} are not all ids") from None


def usernames(bundle: Mapping[str, Any]) -> set[str]:
    """Every username the bundle names (who reported, issued, ruled, acted)."""
    names: set[str] = set()
    for section in SECTIONS:
        for row in bundle[section]:
            for key in ("reported_by", "corrected_by", "issued_by", "rescinded_by", "submitted_by", "actor", "user"):
                if isinstance(row.get(key), str):
                    names.add(row[key])
            for ruling in row.get("rulings", ()) if section == "decks" else ():
                if isinstance(ruling.get("by"), str):
                    names.add(ruling["by"])
    return names


def imported_reason(reason: str, *, source: str, actor: str | None) -> str:
    """An imported audit entry's reason: its own, then where it was imported from and who made the change there."""
    mark = f"Imported from {source or 'another Podium'}; made there by {actor or 'the system'}."
    return f"{reason} ({mark})" if reason else mark
