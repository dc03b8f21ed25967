"""Leagues, their staff and seasons, points tables, and the events attached to a season.

Every change records a domain event (``league.*``, ``season.*``); the league's
trail keeps them (:mod:`leagues.readers`), and a change the season standings
depend on (a points table, an event attached, removed or moved) carries the
seasons to recompute in ``season_ids``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from leagues.models import League, LeagueStaff, Season, SeasonEvent
from leagues.points import PRESETS, PointsTable
from rules import FORMATS
from tournaments.models import Event, EventStaff
from tournaments.policy import (
    Action,
    can,
    ensure_can_create_event,
    ensure_can_manage_league,
    forget_league_roles,
    is_league_organiser,
)


def _formats(formats: Iterable[str]) -> list[str]:
    chosen = list(dict.fromkeys(formats or []))
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown:
        raise ApplicationError(
            _("Unknown format(s) %(unknown)s: choose from %(formats)s.")
            % {"unknown": ", ".join(map(repr, unknown)), "formats": ", ".join(FORMATS)},
            code="unknown_format", field="formats",
        )  # fmt: skip
    if not chosen:
        raise ApplicationError(_("A league holds at least one format."), field="formats")
    return chosen


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ApplicationError(_("Give it a name."), field="name")
    if len(name) > 200:
        raise ApplicationError(_("A name is at most 200 characters."), field="name")
    return name


def _locked(league: League) -> League:
    found = League.objects.select_for_update().filter(pk=league.pk).first()
    if found is None:
        raise NotFound(_("League %(league)s does not exist.") % {"league": league.pk})
    return found


def league_label(league: League) -> str:
    return f"{league.name} (league #{league.pk})"


def season_label(season: Season) -> str:
    return f"{season.name} (season #{season.pk})"


def league_create(*, name: str, formats: Iterable[str], by, description: str = "", is_public: bool = True) -> League:
    """A league organised by ``by``, who may organise (the organiser permission, as for events)."""
    ensure_can_create_event(by, what="leagues")
    chosen = _formats(formats)
    with transaction.atomic():
        league = League.objects.create(
            name=_name(name), formats=chosen, organiser=by, description=description or "", is_public=bool(is_public)
        )
        events.record(
            event=None, by=by, action=DomainAction.LEAGUE_CREATED, subject=league_label(league),
            after={"name": league.name, "formats": chosen, "is_public": league.is_public}, league_id=league.pk,
        )  # fmt: skip
    return league


def league_update(*, league: League, by, **changes: Any) -> League:
    """Change a league's name, description, formats or visibility.  A format with events in a season stays."""
    ensure_can_manage_league(by, league)
    unknown = set(changes) - {"name", "description", "formats", "is_public"}
    if unknown:
        raise ApplicationError(
            _("These settings cannot be changed: %(settings)s.") % {"settings": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        league = _locked(league)
        if "name" in changes:
            changes["name"] = _name(changes["name"])
        if "formats" in changes:
            changes["formats"] = _formats(changes["formats"])
            used = set(
                SeasonEvent.objects.filter(season__league=league).values_list("event__format", flat=True).distinct()
            )
            dropped = sorted(used - set(changes["formats"]))
            if dropped:
                raise Conflict(
                    _("Seasons of this league hold events of %(formats)s: remove them first.")
                    % {"formats": ", ".join(dropped)},
                    code="format_in_use", field="formats",
                )  # fmt: skip
        if "is_public" in changes:
            changes["is_public"] = bool(changes["is_public"])
        before = {f: getattr(league, f) for f in changes}
        changed = {f: v for f, v in changes.items() if before[f] != v}
        if not changed:
            return league
        for field, value in changed.items():
            setattr(league, field, value)
        league.save(update_fields=list(changed))
        events.record(
            event=None, by=by, action=DomainAction.LEAGUE_UPDATED, subject=league_label(league),
            before={f: before[f] for f in changed}, after=changed, league_id=league.pk,
        )  # fmt: skip
    return league


def _user(username: str):
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise NotFound(
            _("No account is called '%(username)s'.") % {"username": username}, code="unknown_user", field="user"
        )
    return user


def league_staff_add(*, league: League, username: str, role: str, by) -> LeagueStaff:
    """Give an account a role in the league: they hold it at every event of its seasons."""
    ensure_can_manage_league(by, league)
    if role not in EventStaff.Role.values:
        raise ApplicationError(
            _("Unknown role '%(role)s': choose %(roles)s.")
            % {"role": role, "roles": ", ".join(EventStaff.Role.values)},
            field="role",
        )
    user = _user(username)
    with transaction.atomic():
        league = _locked(league)
        if is_league_organiser(user, league):
            raise Conflict(_("The organiser already runs this league."), code="already_organiser", field="user")
        staff = LeagueStaff.objects.filter(league=league, user=user).first()
        before = {"role": staff.role} if staff else None
        if staff is None:
            staff = LeagueStaff.objects.create(league=league, user=user, role=role, added_by=by)
        elif staff.role == role:
            return staff
        else:
            staff.role = role
            staff.save(update_fields=["role"])
        events.record(
            event=None, by=by,
            action=DomainAction.LEAGUE_STAFF_ADDED if before is None else DomainAction.LEAGUE_STAFF_CHANGED,
            subject=user.get_username(), before=before, after={"role": role}, league_id=league.pk,
        )  # fmt: skip
    forget_league_roles(user)
    return staff


def league_staff_remove(*, league: League, username: str, by) -> None:
    ensure_can_manage_league(by, league)
    user = _user(username)
    with transaction.atomic():
        league = _locked(league)
        staff = LeagueStaff.objects.filter(league=league, user=user).first()
        if staff is None:
            raise NotFound(
                _("%(user)s has no role in this league.") % {"user": user.get_username()},
                code="not_staff",
                field="user",
            )
        role = staff.role
        staff.delete()
        events.record(
            event=None, by=by, action=DomainAction.LEAGUE_STAFF_REMOVED, subject=user.get_username(),
            before={"role": role}, league_id=league.pk,
        )  # fmt: skip
    forget_league_roles(user)


def points_table_from(*, preset: str | None, points_table: Any) -> tuple[str, PointsTable]:
    """The season's table: a preset's, or the one given (an edited preset), checked."""
    if preset is not None and preset not in PRESETS:
        raise ApplicationError(
            _("Unknown preset '%(preset)s': choose %(presets)s.") % {"preset": preset, "presets": ", ".join(PRESETS)},
            code="unknown_preset",
            field="preset",
        )
    if points_table is None:
        slug = preset or "balanced"
        return slug, PRESETS[slug].table
    try:
        return preset or "custom", PointsTable.from_json(points_table)
    except ValueError as exc:
        raise ApplicationError(
            _("Points table: %(problem)s.") % {"problem": exc}, code="invalid_points_table", field="points_table"
        ) from None


def _dates(starts_on: datetime.date, ends_on: datetime.date) -> None:
    if ends_on < starts_on:
        raise ApplicationError(_("A season ends on or after the day it starts."), field="ends_on")


def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    by,
    preset: str | None = None,
    points_table: Any = None,
) -> Season:
    ensure_can_manage_league(by, league)
    _dates(starts_on, ends_on)
    slug, table = points_table_from(preset=preset, points_table=points_table)
    with transaction.atomic():
        league = _locked(league)
        season = Season.objects.create(
            league=league, name=_name(name), starts_on=starts_on, ends_on=ends_on, preset=slug,
            points_table=table.as_json(),
        )  # fmt: skip
        events.record(
            event=None, by=by, action=DomainAction.SEASON_CREATED, subject=season_label(season),
            after={"name": season.name, "starts_on": starts_on, "ends_on": ends_on, "preset": slug,
                   "points_table": table.as_json()},
            league_id=league.pk, season_id=season.pk, season_ids=[season.pk],
        )  # fmt: skip
    return season


def season_update(*, season: Season, by, reason: str = "", **changes: Any) -> Season:
    """Change a season's name, dates or points table (a preset, or an edited table).

    Allowed once the season has results: its standings are recomputed with the new table, and the change
    (before and after) is in the league's trail with the reason given.
    """
    ensure_can_manage_league(by, season.league)
    unknown = set(changes) - {"name", "starts_on", "ends_on", "preset", "points_table"}
    if unknown:
        raise ApplicationError(
            _("These settings cannot be changed: %(settings)s.") % {"settings": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        updates: dict[str, Any] = {}
        if "name" in changes:
            updates["name"] = _name(changes["name"])
        starts_on, ends_on = changes.get("starts_on", season.starts_on), changes.get("ends_on", season.ends_on)
        _dates(starts_on, ends_on)
        updates.update({"starts_on": starts_on, "ends_on": ends_on})
        if "preset" in changes or "points_table" in changes:
            slug, table = points_table_from(preset=changes.get("preset"), points_table=changes.get("points_table"))
            updates.update({"preset": slug, "points_table": table.as_json()})
        before = {f: getattr(season, f) for f in updates}
        changed = {f: v for f, v in updates.items() if before[f] != v}
        if not changed:
            return season
        for field, value in changed.items():
            setattr(season, field, value)
        season.save(update_fields=list(changed))
        moves = "points_table" in changed
        events.record(
            event=None, by=by, action=DomainAction.SEASON_UPDATED, subject=season_label(season),
            before={f: before[f] for f in changed}, after=changed, reason=(reason or "").strip(),
            league_id=season.league_id, season_id=season.pk, season_ids=[season.pk] if moves else [],
        )  # fmt: skip
    return season


def season_event_add(*, season: Season, event: Event, by, move: bool = False) -> SeasonEvent:
    """Attach an event to the season (its organisers and the league's).  An event of a format the league does
    not hold is refused (``format_not_in_league``); an event in another season is moved only when ``move``
    says so (``event_in_season`` otherwise), and both seasons are recomputed."""
    ensure_can_manage_league(by, season.league)
    if not can(by, Action.EDIT_EVENT, event):
        raise PermissionDenied(_("Only the event's organisers may put it in a season."))
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.format not in season.league.formats:
            raise Conflict(
                _("%(league)s does not hold %(format)s: add the format to the league first.") % {"league": season.league.name, "format": event.format_spec.name},
                code="format_not_in_league", field="event",
            )  # fmt: skip
        link = SeasonEvent.objects.select_for_update().select_related("season").filter(event=event).first()
        if link is not None and link.season_id == season.pk:
            return link
        if link is not None and not move:
            raise Conflict(
                _("%(event)s is in %(season)s already: move it (\"move\": true) or remove it there.") % {"event": event.name, "season": link.season.name},
                code="event_in_season", field="event",
            )  # fmt: skip
        before = None
        if link is not None:
            ensure_can_manage_league(by, link.season.league)
            before = {"season": link.season_id}
            old = link.season_id
            link.season = season
            link.added_by = by
            link.save(update_fields=["season", "added_by"])
            seasons = [old, season.pk]
        else:
            link = SeasonEvent.objects.create(season=season, event=event, added_by=by)
            seasons = [season.pk]
        events.record(
            event=event, by=by, action=DomainAction.SEASON_EVENT_MOVED if before else DomainAction.SEASON_EVENT_ADDED,
            subject=season_label(season), before=before, after={"season": season.pk},
            league_id=season.league_id, season_id=season.pk, season_ids=seasons,
        )  # fmt: skip
    return link


def season_event_remove(*, season: Season, event: Event, by) -> None:
    ensure_can_manage_league(by, season.league)
    with transaction.atomic():
        link = SeasonEvent.objects.select_for_update().filter(season=season, event=event).first()
        if link is None:
            raise NotFound(
                _("%(event)s is not in this season.") % {"event": event.name}, code="event_not_in_season", field="event"
            )
        link.delete()
        events.record(
            event=event, by=by, action=DomainAction.SEASON_EVENT_REMOVED, subject=season_label(season),
            before={"season": season.pk}, league_id=season.league_id, season_id=season.pk, season_ids=[season.pk],
        )  # fmt: skip
