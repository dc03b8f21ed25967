"""Rosters: players brought in from a file, all of them or none.

A roster file (a CSV export or a TOM ``.tdf``, read by :mod:`tournaments.roster`) registers each of its
players as a walk-in entered by hand would be (:func:`tournaments.services.registrations.registration_create`,
one audit entry each): an existing player record with the row's player ID is reused, and invited instead
when it is linked to an account; the others are new records.  Every line is checked first, against the file
and against the event (a player already registered, invited or waiting; a fixed table taken), and every
problem is reported at once with its line: then nothing is stored.  The whole import is one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.exceptions import ApplicationError, TooLarge
from rules.speech import Phrase, phrase, say
from tournaments import roster as roster_files
from tournaments.models import Event, Player, Registration
from tournaments.policy import Action, ensure
from tournaments.roster import Entry, Problem
from tournaments.services._common import locked_event
from tournaments.services.registrations import _open_for_entries, registration_create, registration_update


@dataclass(frozen=True)
class RosterImport:
    """What an import did: the registrations made, in the file's order (invitations among them)."""

    registrations: list[Registration]
    kind: str

    @property
    def invited(self) -> int:
        return sum(1 for r in self.registrations if r.status == Registration.Status.INVITED)

    @property
    def registered(self) -> int:
        return len(self.registrations) - self.invited


def _lines(problems: list[Problem]) -> list[dict]:
    """The problems as the page and the API show them, said in the request's language."""
    return [{"line": p.line, "column": say(p.column), "message": say(p.message)} for p in problems]


def _invalid(problems: list[Problem]) -> ApplicationError:
    count = len(problems)
    return ApplicationError(
        ngettext(
            "%(count)s problem in the file: nothing was imported. Correct the file and send it again.",
            "%(count)s problems in the file: nothing was imported. Correct the file and send it again.",
            count,
        )
        % {"count": count},
        code="invalid_roster",
        extra={"lines": _lines(problems)},
    )


def _already_by_id(status: str, player: str, player_id: str | None) -> Phrase:
    """The player of a row's player ID is already in the event: one sentence for each way of being in it."""
    if status == Registration.Status.INVITED:
        return phrase(
            "%(player)s (player ID %(player_id)s) is already invited to this event.", player=player, player_id=player_id
        )
    if status == Registration.Status.WAITLISTED:
        return phrase(
            "%(player)s (player ID %(player_id)s) is already on this event's waiting list.",
            player=player,
            player_id=player_id,
        )
    if status == Registration.Status.APPLIED:
        return phrase(
            "%(player)s (player ID %(player_id)s) has already applied to this event's lottery.",
            player=player,
            player_id=player_id,
        )
    return phrase(
        "%(player)s (player ID %(player_id)s) is already registered for this event.", player=player, player_id=player_id
    )


def _already_by_name(status: str, player: str) -> Phrase:
    """A player of a row's name (and no player ID) is already in the event, as :func:`_already_by_id`."""
    if status == Registration.Status.INVITED:
        return phrase(
            "%(player)s is already invited to this event: give a player_id to enter another player of the same name.",
            player=player,
        )
    if status == Registration.Status.WAITLISTED:
        return phrase(
            "%(player)s is already on this event's waiting list: give a player_id to enter another player of the "
            "same name.",
            player=player,
        )
    if status == Registration.Status.APPLIED:
        return phrase(
            "%(player)s has already applied to this event's lottery: give a player_id to enter another player of the "
            "same name.",
            player=player,
        )
    return phrase(
        "%(player)s is already registered for this event: give a player_id to enter another player of the same name.",
        player=player,
    )


def _event_problems(event: Event, entries: tuple[Entry, ...]) -> list[Problem]:
    """What only the database knows: players of the file already in the event, fixed tables already taken."""
    problems: list[Problem] = []
    ids = [e.player_id for e in entries if e.player_id]
    known = {p.external_id: p for p in Player.objects.filter(external_id__in=ids)} if ids else {}
    active = list(
        Registration.objects.filter(event=event)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player")
        .order_by("pk")
    )
    by_player = {r.player_id: r for r in active}
    by_name = {roster_files.name_key(r.player.display_name): r for r in reversed(active)}
    tables = {r.fixed_table: r for r in active if r.fixed_table is not None}
    tables_in_file: dict[int, int] = {}
    for entry in entries:
        player = known.get(entry.player_id) if entry.player_id else None
        if player is not None and player.pk in by_player:
            registration = by_player[player.pk]
            problems.append(
                Problem(entry.line, "player_id", _already_by_id(registration.status, str(player), entry.player_id))
            )
        elif entry.player_id is None and roster_files.name_key(entry.name) in by_name:
            registration = by_name[roster_files.name_key(entry.name)]
            problems.append(
                Problem(entry.line, "name", _already_by_name(registration.status, str(registration.player)))
            )
        if entry.fixed_table is not None:
            if entry.fixed_table in tables:
                other = tables[entry.fixed_table].player
                problems.append(
                    Problem(
                        entry.line,
                        "fixed_table",
                        phrase(
                            "table %(table)s is already fixed for %(player)s.",
                            table=entry.fixed_table,
                            player=str(other),
                        ),
                    )
                )
            elif entry.fixed_table in tables_in_file:
                problems.append(
                    Problem(
                        entry.line,
                        "fixed_table",
                        phrase(
                            "table %(table)s is already fixed on line %(line)s.",
                            table=entry.fixed_table,
                            line=tables_in_file[entry.fixed_table],
                        ),
                    )
                )
            tables_in_file.setdefault(entry.fixed_table, entry.line)
    return problems


def roster_import(*, event: Event, by, data: bytes, checked_in: bool = False) -> RosterImport:
    """Register every player of a roster file (CSV or TOM ``.tdf``), or none.

    ``checked_in``: players whose row does not say (every player of a ``.tdf``) are checked in.  Refused
    as walk-ins are (the staff who manage registrations; not once the event is finished or its top cut has
    started); a file that is no roster raises ``unreadable_file`` (``file_too_large`` over
    :data:`tournaments.roster.MAX_BYTES`), one with wrong lines ``invalid_roster`` with every problem in
    ``extra["lines"]``.
    """
    ensure(by, Action.MANAGE_REGISTRATIONS, event)
    try:
        roster = roster_files.read(data)
    except roster_files.Unreadable as exc:
        lines = _lines([Problem(exc.line, "", exc.message)])
        message = (
            _("%(problem)s (line %(line)s)") % {"problem": say(exc.message), "line": exc.line}
            if exc.line
            else say(exc.message)
        )
        if exc.too_large:
            raise TooLarge(message, extra={"lines": lines}) from None
        raise ApplicationError(message, code="unreadable_file", extra={"lines": lines}) from None
    with transaction.atomic():
        event = locked_event(event.pk)
        _open_for_entries(event)
        problems = sorted([*roster.problems, *_event_problems(event, roster.entries)], key=roster_files.order)
        if problems:
            raise _invalid(problems)
        registrations = []
        for entry in roster.entries:
            try:
                registration = registration_create(
                    event=event,
                    by=by,
                    display_name=entry.name,
                    external_id=entry.player_id,
                    checked_in=checked_in if entry.checked_in is None else entry.checked_in,
                )
                if entry.fixed_table is not None:
                    registration = registration_update(registration=registration, by=by, fixed_table=entry.fixed_table)
            except ApplicationError as exc:  # what changed since the check (another request's entry)
                problems.append(Problem(entry.line, "", exc.message))
                continue
            registrations.append(registration)
        if problems:
            raise _invalid(problems)
    return RosterImport(registrations, roster.kind)
