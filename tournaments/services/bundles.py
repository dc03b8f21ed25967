"""Moving an event between Podium sites: :func:`event_export` writes a bundle, :func:`event_import` stores one.

The bundle's shape and its checks are :mod:`tournaments.bundle` (pure); this
module reads and writes the rows.  Import stores a *new* event, in one
transaction, with every id remapped:

* players: a bundle's player with an ``external_id`` is the player record
  here with the same one, when there is one; every other player gets a new
  record with no account (a walk-in, whose record its person can claim with a
  claim code).  Accounts are never moved.
* people who acted (who reported a result, issued a penalty, ruled on a deck,
  made an audited change) are named in the audit trail's imported entries;
  they are linked to the account of the same username here only when the
  import is asked to (``link_accounts``: the two sites share their people's
  accounts), since a venue laptop's ``organiser`` is not the main site's;
* the audit trail's entries are kept with their times, each marked in its
  reason as imported, naming the source and who made the change there; the
  import itself is one more entry, ``event.imported``;
* the standings are computed here, by :func:`standings_recompute`, so they
  are current;
* game logs and the live app's rows (stations, clocks, overlay tokens) stay
  where they were: the results they produced are in the bundle.

Importing the same bundle twice makes two events.  The decks app stores its
part of a bundle through :func:`part_register` (the tournaments app imports no
app above it).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError
from rules import FORMATS
from tournaments import bundle as shape
from tournaments.bundle import BundleError, IdMap, parse_time
from tournaments.models import (
    AuditEntry,
    ByeAssignment,
    Event,
    Penalty,
    Player,
    Pod,
    PodResult,
    Registration,
    ResultReport,
    ResultResponse,
    Round,
    Seat,
)
from tournaments.policy import ensure_can_create_event
from tournaments.services.events import (
    _check_planned_rounds,
    _check_table_options,
    _check_tiebreakers,
    _checked_options,
)
from tournaments.services.standings import standings_recompute

Users = Mapping[str, Any]


@dataclass(frozen=True)
class BundlePart:
    """A section of the bundle another app writes and stores (the decks app's ``decks``)."""

    section: str
    #: The section's rows for an event (plain JSON, ids the source's).
    export: Callable[[int], list[dict[str, Any]]]
    #: Store the rows for the new event: ``(rows, registrations id map, accounts by username)``.
    restore: Callable[[list[dict[str, Any]], IdMap, Users], None]


_parts: dict[str, BundlePart] = {}


def part_register(part: BundlePart) -> None:
    """Let an app write and store one section of the bundle (called from its ``AppConfig.ready``)."""
    if part.section not in shape.SECTIONS:
        raise ValueError(f"{part.section!r} is not a section of a bundle (tournaments.bundle.SECTIONS)")
    _parts[part.section] = part


# --- export -------------------------------------------------------------------------------------------------

#: The event's settings a bundle carries (the organiser is whoever imports it).
EVENT_FIELDS = (
    "name", "format", "status", "planned_rounds", "date", "venue", "tiebreakers", "decklists_public", "options",
    "players_per_table", "pod_leftovers", "top_cut_size", "planned_cut_size", "registration_open",
    "registration_deadline", "capacity", "check_in_open", "player_reports", "casters_see_decklists", "magic_floor",
    "results_version",
)  # fmt: skip


def json_value(value: Any) -> Any:
    """Times and dates as ISO text; everything else is JSON already."""
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def rows(queryset: models.QuerySet, **names: str) -> list[dict[str, Any]]:
    """The queryset's rows as plain JSON: its fields as they are, ``names`` renamed (``reported_by=
    "reported_by__username"``)."""
    out = []
    for row in queryset:
        for new, lookup in names.items():
            row[new] = row.pop(lookup)
        out.append({key: json_value(value) for key, value in row.items()})
    return out


def event_export(*, event_id: int, source: str) -> dict[str, Any]:
    """The event as a bundle (see :mod:`tournaments.bundle`), in a fixed number of queries."""
    event = Event.objects.filter(pk=event_id).values("id", *EVENT_FIELDS).first()
    if event is None:
        raise BundleError("$.event", f"event {event_id} does not exist")
    registrations = rows(
        Registration.objects.filter(event_id=event_id).order_by("id").values(
            "id", "player_id", "status", "self_registered", "waitlisted_at", "checked_in", "dropped",
            "dropped_after_round", "late_entry_round", "fixed_table", "created_at",
        ),
        player="player_id",
    )  # fmt: skip
    byes: dict[int, list[int]] = {}
    for registration_id, number in ByeAssignment.objects.filter(registration__event_id=event_id).values_list(
        "registration_id", "round_number"
    ):
        byes.setdefault(registration_id, []).append(number)
    for registration in registrations:
        registration["byes"] = sorted(byes.get(registration["id"], []))
    players = rows(
        Player.objects.filter(registrations__event_id=event_id)
        .order_by("id")
        .values("id", "display_name", "external_id")
    )
    reports = rows(
        ResultReport.objects.filter(pod__round__event_id=event_id).order_by("id").values(
            "id", "pod_id", "player_id", "user__username", "placements", "games", "intentional_draw", "status",
            "created_at", "resolved_at",
        ),
        pod="pod_id", player="player_id", user="user__username",
    )  # fmt: skip
    responses: dict[int, list[dict[str, Any]]] = {}
    for response in rows(
        ResultResponse.objects.filter(report__pod__round__event_id=event_id)
        .order_by("id")
        .values("report_id", "player_id", "agrees", "placements", "games", "created_at"),
        player="player_id",
    ):
        responses.setdefault(response.pop("report_id"), []).append(response)
    for report in reports:
        report["responses"] = responses.get(report["id"], [])
    bundle: dict[str, Any] = {
        "podium_bundle": shape.VERSION,
        "exported_at": timezone.now().isoformat(),
        "source": source,
        "event": {key: json_value(value) for key, value in event.items()},
        "players": players,
        "registrations": registrations,
        "rounds": rows(
            Round.objects.filter(event_id=event_id).order_by("number").values(
                "id", "number", "stage", "seed", "objective", "rematches", "edited", "created_at", "completed_at",
                "published_at",
            )
        ),
        "pods": rows(
            Pod.objects.filter(round__event_id=event_id).order_by("id").values(
                "id", "round_id", "table_number", "is_bye"
            ),
            round="round_id",
        ),
        "seats": rows(
            Seat.objects.filter(round__event_id=event_id).order_by("id").values(
                "id", "pod_id", "player_id", "seat_order", "placement", "points", "points_before", "rank_before",
                "cut_seed", "reasons", "games_won", "games_lost", "games_drawn",
            ),
            pod="pod_id", player="player_id",
        ),
        "results": rows(
            PodResult.objects.filter(pod__round__event_id=event_id).order_by("id").values(
                "id", "pod_id", "reported_by__username", "reported_at", "source", "intentional_draw", "corrected_at",
                "corrected_by__username",
            ),
            pod="pod_id", reported_by="reported_by__username", corrected_by="corrected_by__username",
        ),
        "reports": reports,
        "penalties": rows(
            Penalty.objects.filter(event_id=event_id).order_by("id").values(
                "id", "registration_id", "round_number", "penalty", "infraction", "note", "issued_by__username",
                "issued_at", "rescinded_at", "rescinded_by__username", "rescind_reason",
            ),
            registration="registration_id", issued_by="issued_by__username", rescinded_by="rescinded_by__username",
        ),
        "decks": _parts["decks"].export(event_id) if "decks" in _parts else [],
        "audit": rows(
            AuditEntry.objects.filter(event_id=event_id).order_by("created_at", "id").values(
                "id", "actor__username", "action", "subject", "before", "after", "reason", "created_at"
            ),
            actor="actor__username",
        ),
    }  # fmt: skip
    return bundle


# --- import -------------------------------------------------------------------------------------------------


def when(value: str | None) -> datetime.datetime | None:
    return None if value is None else parse_time(value)


def bulk_store(model: type[models.Model], objects: list[Any], times: Iterable[Mapping[str, Any]] = ()) -> list:
    """Insert the rows (ids come back), then give them the times they had at the source.

    ``times``: one ``{field: ISO time}`` per row, for the fields Django sets on creation (``auto_now_add``),
    which an insert cannot set.
    """
    stored = model._default_manager.bulk_create(objects, batch_size=500)
    fields: set[str] = set()
    for obj, stamps in zip(stored, times, strict=False):
        for field, value in stamps.items():
            setattr(obj, field, when(value))
            fields.add(field)
    if fields:
        model._default_manager.bulk_update(stored, sorted(fields), batch_size=500)
    return stored


def _check_meaning(bundle: Mapping[str, Any]) -> None:
    """What only this site knows: the format exists here, the event's settings are ones ``event_create`` takes
    (its options checked against the format and what is imported here: a banlist by name), the statuses are
    Podium's.  Stores the options as the check gives them back."""
    event = bundle["event"]
    if event["format"] not in FORMATS:
        raise BundleError("$.event.format", f"{event['format']!r} is not a format of this Podium")
    fmt = FORMATS[event["format"]]
    try:
        _check_planned_rounds(event["planned_rounds"])
        _check_tiebreakers(event.get("tiebreakers", Event.Tiebreakers.CLASSIC))
        _check_table_options(fmt, event.get("players_per_table"), event.get("pod_leftovers", Event.Leftovers.TABLES))
        event["options"] = _checked_options(fmt, event["options"])
    except ApplicationError as exc:
        raise BundleError(f"$.event.{exc.field or 'options'}", exc.message) from None
    if event["status"] not in Event.Status.values:
        raise BundleError("$.event.status", f"{event['status']!r} is not an event status")
    for section, field, choices in _CHOICES:
        for i, row in enumerate(bundle[section]):
            if row.get(field, choices[0]) not in choices:
                raise BundleError(f"$.{section}[{i}].{field}", f"{row[field]!r} is not one of {', '.join(choices)}")


#: The fields of rows whose values are one of Podium's choices (the database checks only some of them).
_CHOICES: tuple[tuple[str, str, list[str]], ...] = (
    ("registrations", "status", Registration.Status.values),
    ("rounds", "stage", Round.Stage.values),
    ("results", "source", PodResult.Source.values),
    ("reports", "status", ResultReport.Status.values),
    ("penalties", "penalty", Penalty.Kind.values),
)


def event_import(*, bundle: Any, organiser, link_accounts: bool = False) -> Event:
    """Store the bundle as a new event organised by ``organiser``; every id is remapped.

    One transaction: a bundle that is refused (:class:`tournaments.bundle.BundleError`, naming what is wrong
    and where) stores nothing.  The organiser must be one here (the organiser permission:
    :func:`tournaments.policy.ensure_can_create_event`, else :class:`core.exceptions.PermissionDenied`).
    With ``link_accounts``, who acted is the account of the same username here, where there is one; otherwise
    nobody here (their name stays in the imported audit entries).
    """
    ensure_can_create_event(organiser, what="events")
    data = shape.check(bundle)
    _check_meaning(data)
    try:
        with transaction.atomic():
            event = _store(data, organiser, link_accounts=link_accounts)
    except (DatabaseError, ValidationError, TypeError, ValueError) as exc:
        if isinstance(exc, BundleError):
            raise
        raise BundleError("$", f"the bundle's rows break a rule of the database: {exc}") from exc
    return event


#: The event's fields stored from a reading of the bundle's value rather than as they are.
_PARSED = {"date", "registration_deadline", "results_version"}


def _store(data: Mapping[str, Any], organiser, *, link_accounts: bool) -> Event:
    source = data["source"]
    given = data["event"]
    played = bool(data["rounds"])
    event = Event.objects.create(
        organiser=organiser,
        **{field: given[field] for field in EVENT_FIELDS if field in given and field not in _PARSED},
        date=shape.parse_date(given["date"], "$.event.date"),
        registration_deadline=when(given.get("registration_deadline")),
        # The standings are computed below, from the results stored here.
        results_version=1 if played else 0,
    )
    users = (
        {u.get_username(): u for u in get_user_model().objects.filter(username__in=shape.usernames(data))}
        if link_accounts
        else {}
    )

    players = IdMap("players")
    by_external = dict(
        Player.objects.filter(
            external_id__in=[row["external_id"] for row in data["players"] if row["external_id"]]
        ).values_list("external_id", "pk")
    )
    new_players = [row for row in data["players"] if row["external_id"] not in by_external]
    players.update(
        (row["id"], by_external[row["external_id"]]) for row in data["players"] if row["external_id"] in by_external
    )
    stored = bulk_store(
        Player, [Player(display_name=row["display_name"], external_id=row["external_id"]) for row in new_players]
    )
    players.update((row["id"], player.pk) for row, player in zip(new_players, stored, strict=True))

    registrations = IdMap("registrations")
    given_rows = data["registrations"]
    stored = bulk_store(
        Registration,
        [
            Registration(
                event=event, player_id=players[row["player"]], status=row["status"],
                self_registered=row.get("self_registered", False), waitlisted_at=when(row.get("waitlisted_at")),
                checked_in=row["checked_in"], dropped=row["dropped"],
                dropped_after_round=row.get("dropped_after_round"), late_entry_round=row.get("late_entry_round"),
                fixed_table=row.get("fixed_table"),
            )
            for row in given_rows
        ],
        [{"created_at": row["created_at"]} for row in given_rows],
    )  # fmt: skip
    registrations.update((row["id"], r.pk) for row, r in zip(given_rows, stored, strict=True))
    ByeAssignment.objects.bulk_create(
        ByeAssignment(registration_id=registrations[row["id"]], round_number=number)
        for row in given_rows
        for number in row["byes"]
    )

    rounds = IdMap("rounds")
    stored = bulk_store(
        Round,
        [
            Round(
                event=event, number=row["number"], stage=row["stage"], seed=row["seed"], objective=row.get("objective"),
                rematches=row.get("rematches", 0), edited=row.get("edited", False),
                completed_at=when(row["completed_at"]),
                # Bundles from before staged pairings: every round was shown as it was paired.
                published_at=when(row.get("published_at") or row["created_at"]),
            )
            for row in data["rounds"]
        ],
        [{"created_at": row["created_at"]} for row in data["rounds"]],
    )  # fmt: skip
    rounds.update((row["id"], r.pk) for row, r in zip(data["rounds"], stored, strict=True))

    pods = IdMap("pods")
    stored = bulk_store(
        Pod,
        [
            Pod(round_id=rounds[row["round"]], table_number=row["table_number"], is_bye=row["is_bye"])
            for row in data["pods"]
        ],
    )
    pods.update((row["id"], p.pk) for row, p in zip(data["pods"], stored, strict=True))
    round_of = {p.pk: p.round_id for p in stored}

    bulk_store(
        Seat,
        [
            Seat(
                pod_id=pods[row["pod"]], round_id=round_of[pods[row["pod"]]], player_id=players[row["player"]],
                seat_order=row["seat_order"], placement=row["placement"], points=row["points"],
                points_before=row.get("points_before"), rank_before=row.get("rank_before"),
                cut_seed=row.get("cut_seed"), reasons=row.get("reasons", []), games_won=row.get("games_won"),
                games_lost=row.get("games_lost"), games_drawn=row.get("games_drawn"),
            )
            for row in data["seats"]
        ],
    )  # fmt: skip
    bulk_store(
        PodResult,
        [
            PodResult(
                pod_id=pods[row["pod"]], reported_by=users.get(row["reported_by"]), source=row["source"],
                intentional_draw=row.get("intentional_draw", False), corrected_at=when(row["corrected_at"]),
                corrected_by=users.get(row["corrected_by"]),
            )
            for row in data["results"]
        ],
        [{"reported_at": row["reported_at"]} for row in data["results"]],
    )  # fmt: skip
    reports = bulk_store(
        ResultReport,
        [
            ResultReport(
                pod_id=pods[row["pod"]], player_id=players[row["player"]], user=users.get(row["user"]),
                placements=players.keys_of(row["placements"]), games=players.keys_of(row.get("games")),
                intentional_draw=row.get("intentional_draw", False), status=row["status"],
                resolved_at=when(row["resolved_at"]),
            )
            for row in data["reports"]
        ],
        [{"created_at": row["created_at"]} for row in data["reports"]],
    )  # fmt: skip
    answers = [
        (report, answer) for row, report in zip(data["reports"], reports, strict=True) for answer in row["responses"]
    ]
    bulk_store(
        ResultResponse,
        [
            ResultResponse(
                report=report, player_id=players[answer["player"]], agrees=answer["agrees"],
                placements=players.keys_of(answer.get("placements")), games=players.keys_of(answer.get("games")),
            )
            for report, answer in answers
        ],
        [{"created_at": answer["created_at"]} for _, answer in answers],
    )  # fmt: skip
    bulk_store(
        Penalty,
        [
            Penalty(
                event=event, registration_id=registrations[row["registration"]], round_number=row.get("round_number"),
                penalty=row["penalty"], infraction=row["infraction"], note=row.get("note", ""),
                issued_by=users.get(row["issued_by"]), rescinded_at=when(row["rescinded_at"]),
                rescinded_by=users.get(row["rescinded_by"]), rescind_reason=row.get("rescind_reason", ""),
            )
            for row in data["penalties"]
        ],
        [{"issued_at": row["issued_at"]} for row in data["penalties"]],
    )  # fmt: skip
    if data["decks"]:
        if "decks" not in _parts:
            raise BundleError("$.decks", "no app here stores decks")
        _parts["decks"].restore(data["decks"], registrations, users)
    bulk_store(
        AuditEntry,
        [
            AuditEntry(
                event=event, actor=users.get(row["actor"]), action=row["action"], subject=row["subject"][:200],
                before=row.get("before"), after=row.get("after"),
                reason=shape.imported_reason(row["reason"], source=source, actor=row["actor"]),
            )
            for row in data["audit"]
        ],
        [{"created_at": row["created_at"]} for row in data["audit"]],
    )  # fmt: skip
    events.record(
        action=DomainAction.EVENT_IMPORTED, event=event, subject=event.name,
        after={"source": source, "source_event_id": given["id"], "exported_at": data["exported_at"],
               "players": len(players), "rounds": len(rounds), "audit_entries": len(data["audit"])},
    )  # fmt: skip
    if played:
        standings_recompute(event_id=event.pk)
    return event
