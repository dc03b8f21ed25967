"""Players and events: creating them, changing an event's settings, finishing it."""

from __future__ import annotations

import datetime
import functools
import re
import zoneinfo
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.translation import gettext as _

from core import events, option_names
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict
from rules import Format, UnknownFormat, get_format
from rules.options import OptionError
from tournaments import audit, selectors
from tournaments.models import Event, Player, Registration
from tournaments.pairing import topcut
from tournaments.policy import ORGANISER_PERMISSION, Action, ensure, ensure_can_create_event
from tournaments.selectors import people as people_selectors
from tournaments.services._common import locked_event, missing_message, tables_without_result
from tournaments.services.registrations import promote_waiting_list


def organiser_permission_grant(*, user) -> None:
    """Give ``user`` the organiser permission (:data:`tournaments.policy.ORGANISER_PERMISSION`), as site staff do
    in the admin: the demo's organiser, a benchmark's."""
    from django.contrib.auth.models import Permission

    app_label, codename = ORGANISER_PERMISSION.split(".")
    user.user_permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    for cached in ("_perm_cache", "_user_perm_cache"):  # Django remembers permissions on the user object
        user.__dict__.pop(cached, None)


def event_create(
    *,
    organiser,
    name: str,
    format: str,
    planned_rounds: int,
    date: datetime.date,
    venue: str = "",
    tiebreakers: str = Event.Tiebreakers.CLASSIC,
    players_per_table: int | None = None,
    pod_leftovers: str = Event.Leftovers.TABLES,
    options: Mapping[str, Any] | None = None,
    time_zone: str | None = None,
    paper: str | None = None,
    language: str = "",
) -> Event:
    """A new event, open for its organiser to set up; ``options``: the format's options it plays by (its
    variants and house rules; left out, the rulebook's defaults); ``time_zone`` (an IANA name) and ``paper``:
    left out, the site's; ``language``: its public pages' default language (blank: the visitor's browser's)."""
    ensure_can_create_event(organiser)
    try:
        fmt = get_format(format)
    except UnknownFormat:
        raise ApplicationError(
            _("Unknown format '%(format)s'.") % {"format": format}, code="unknown_format", field="format"
        ) from None
    if not name.strip():
        raise ApplicationError(_("An event needs a name."), field="name")
    _check_planned_rounds(planned_rounds)
    _check_tiebreakers(tiebreakers)
    _check_table_options(fmt, players_per_table, pod_leftovers)
    options = _checked_options(fmt, options or {})
    where = {}
    if time_zone is not None:
        where["time_zone"] = _checked_time_zone(time_zone)
    if paper is not None:
        where["paper"] = _checked_paper(paper)
    if language:
        where["language"] = _checked_language(language)
    with transaction.atomic():
        event = Event.objects.create(
            organiser=organiser,
            name=name.strip(),
            format=format,
            planned_rounds=planned_rounds,
            date=date,
            venue=venue,
            tiebreakers=tiebreakers,
            players_per_table=players_per_table,
            pod_leftovers=pod_leftovers,
            options=options,
            **where,
        )
        events.record(
            event=event, by=organiser, action=DomainAction.EVENT_CREATED, subject=event.name,
            after=audit.snapshot(event, _AUDITED_FIELDS),
        )  # fmt: skip
    return event


def _checked_options(fmt: Format, given: Mapping[str, Any], stored: Mapping[str, Any] | None = None) -> dict:
    """The options to store: ``given`` (``None`` values back to the default) over ``stored``, checked against the
    format (a refusal is a 400 naming the values allowed)."""
    merged = {**(stored or {}), **given}
    names = {o.name: option_names.names(o.name) for o in fmt.options if o.named and merged.get(o.name) is not None}
    try:
        return fmt.clean_options(merged, names=names)
    except OptionError as exc:
        raise ApplicationError(exc.message, code="invalid_option", field="options") from None


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _loads(name: str) -> bool:
    """Whether ``zoneinfo`` finds the zone though it is not listed (a machine whose tz database lists none)."""
    if _time_zones() or not name:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _checked_time_zone(name: str) -> str:
    """An IANA time zone name as the tz database spells it (``Europe/Paris``, ``America/New_York``, ``UTC``)."""
    name = name.strip()
    if name not in _time_zones() and not _loads(name):
        raise ApplicationError(
            _("Unknown time zone '%(zone)s': give an IANA name such as Europe/Paris or America/New_York.")
            % {"zone": name},
            field="time_zone",
        )
    return name


def _checked_paper(paper: str) -> str:
    if paper not in Event.Paper.values:
        raise ApplicationError(
            _("Unknown paper '%(paper)s': use %(choices)s.")
            % {"paper": paper, "choices": " or ".join(Event.Paper.values)},
            field="paper",
        )
    return paper


def _checked_language(language: str) -> str:
    """One of ``settings.LANGUAGES`` (``pt-BR`` is read as ``pt-br``), or "" (the visitor's browser's)."""
    codes = [code for code, _name in settings.LANGUAGES]
    if language.strip().lower() not in [*codes, ""]:
        raise ApplicationError(
            _("Unknown language %(language)s: use one of %(languages)s (or nothing for the browser's).")
            % {"language": repr(language), "languages": ", ".join(codes)},
            field="language",
        )
    return language.strip().lower()


def _check_planned_rounds(planned_rounds: int) -> None:
    if not 1 <= planned_rounds <= 30:
        raise ApplicationError(_("Planned rounds must be between 1 and 30."), field="planned_rounds")


def _check_tiebreakers(tiebreakers: str) -> None:
    if tiebreakers not in Event.Tiebreakers.values:
        raise ApplicationError(
            _("Unknown tiebreakers '%(tiebreakers)s'.") % {"tiebreakers": tiebreakers}, field="tiebreakers"
        )


def _check_table_options(fmt, players_per_table: int | None, pod_leftovers: str) -> None:
    if players_per_table is not None and not (
        players_per_table == 2 and fmt.table_size.min == 2 and not fmt.table_size.is_one_vs_one
    ):
        allowed = "2 (1v1 Swiss)" if fmt.table_size.min == 2 and not fmt.is_one_vs_one else "nothing but the default"
        raise ApplicationError(
            _("%(format)s events can set players per table to %(allowed)s.") % {"format": fmt.name, "allowed": allowed},
            field="players_per_table",
        )
    if pod_leftovers not in Event.Leftovers.values:
        raise ApplicationError(
            _("Unknown choice '%(choice)s': use %(choices)s.")
            % {"choice": pod_leftovers, "choices": " or ".join(Event.Leftovers.values)},
            field="pod_leftovers",
        )


#: Places and fees (:mod:`tournaments.services.entry`): the lottery, the priority window, the entry fee.
_ENTRY_FIELDS = {
    "lottery", "lottery_draw_at", "registration_opens_at", "priority_opens_at", "priority_season_id",
    "priority_min_points", "entry_fee", "fee_currency", "checkout_url", "unpaid_check_in",
}  # fmt: skip
#: Settings that can change while the event runs, and the ones fixed once round 1 is paired.
_EVENT_LIVE_FIELDS = {
    "name", "venue", "date", "planned_rounds", "tiebreakers", "magic_floor", "registration_open",
    "registration_deadline", "capacity", "check_in_open", "player_reports", "casters_see_decklists", "time_zone",
    "paper", "language", "planned_cut_size", "stage_pairings", *_ENTRY_FIELDS,
}  # fmt: skip
_EVENT_SETUP_FIELDS = {"players_per_table", "pod_leftovers", "options"}
_AUDITED_FIELDS = sorted(_EVENT_LIVE_FIELDS | _EVENT_SETUP_FIELDS | {"format"})
#: Settings whose change re-ranks the standings.
_STANDINGS_FIELDS = {"tiebreakers", "magic_floor"}


def event_update(*, event: Event, by, **changes) -> Event:
    """Change an event's settings.  Pairing settings are fixed once round 1 is paired.

    ``planned_rounds`` may go up at any time and down to the rounds already paired.
    A larger ``capacity`` promotes players from the waiting list, in order.
    """
    ensure(by, Action.EDIT_EVENT, event)
    priority_players = changes.pop("priority_players", None)
    unknown = set(changes) - _EVENT_LIVE_FIELDS - _EVENT_SETUP_FIELDS
    if unknown:
        raise ApplicationError(
            _("These settings cannot be changed: %(settings)s.") % {"settings": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        played = selectors.swiss_rounds_paired(event)
        fixed = sorted(f for f in set(changes) & _EVENT_SETUP_FIELDS if changes[f] != getattr(event, f))
        if fixed and played:
            raise Conflict(
                _("%(settings)s cannot change once round 1 is paired.") % {"settings": ", ".join(fixed)},
                code="event_started",
                field=fixed[0],
            )
        if "name" in changes:
            changes["name"] = changes["name"].strip()
            if not changes["name"]:
                raise ApplicationError(_("An event needs a name."), field="name")
        if "planned_rounds" in changes:
            _check_planned_rounds(changes["planned_rounds"])
            if changes["planned_rounds"] != event.planned_rounds and event.phase_count:
                raise Conflict(
                    _("This event's rounds come from its phases: change the phases' rounds instead."),
                    code="planned_by_phases",
                    field="planned_rounds",
                )
            if changes["planned_rounds"] < played:
                raise Conflict(
                    _("%(played)s Swiss round(s) have been paired: planned rounds cannot be fewer.")
                    % {"played": played},
                    code="rounds_already_paired",
                    field="planned_rounds",
                )
        if "tiebreakers" in changes:
            _check_tiebreakers(changes["tiebreakers"])
        if "time_zone" in changes:
            changes["time_zone"] = _checked_time_zone(changes["time_zone"])
        if "paper" in changes:
            changes["paper"] = _checked_paper(changes["paper"])
        if "language" in changes:
            changes["language"] = _checked_language(changes["language"])
        if "magic_floor" in changes and changes["magic_floor"] not in Event.Floor.values:
            raise ApplicationError(
                _("Unknown floor '%(floor)s'.") % {"floor": changes["magic_floor"]}, field="magic_floor"
            )
        if "planned_cut_size" in changes and changes["planned_cut_size"] != event.planned_cut_size:
            _check_planned_cut(event, changes["planned_cut_size"])
        if changes.get("capacity") is not None and changes["capacity"] < 1:
            raise ApplicationError(_("A capacity is 1 or more (or none for no limit)."), field="capacity")
        _check_table_options(
            event.format_spec,
            changes.get("players_per_table", event.players_per_table),
            changes.get("pod_leftovers", event.pod_leftovers),
        )
        if "options" in changes:
            changes["options"] = _checked_options(event.format_spec, changes["options"], event.options)
            if changes["options"] != event.options and played:
                raise Conflict(_("The format's options cannot change once round 1 is paired."), code="event_started",
                               field="options")  # fmt: skip
        changes = _checked_entry(event, changes)
        retiebreak = any(f in changes and changes[f] != getattr(event, f) for f in _STANDINGS_FIELDS)
        before = audit.snapshot(event, sorted(changes))
        named = _checked_priority_players(priority_players)
        if named is not None:
            before["priority_players"] = sorted(event.priority_players.values_list("pk", flat=True))
        for field, value in changes.items():
            setattr(event, field, value)
        if changes or named is not None:
            event.save(update_fields=sorted(changes))
            after = audit.snapshot(event, sorted(changes))
            if named is not None:
                event.priority_players.set(named)
                after["priority_players"] = sorted(named)
            if after != before:
                events.record(
                    event=event, by=by, action=DomainAction.EVENT_UPDATED, subject=event.name, before=before,
                    after=after, standings_settings=retiebreak,
                )  # fmt: skip
        if "capacity" in changes:
            promote_waiting_list(event, by=by)
    return event


def _check_planned_cut(event: Event, size: int | None) -> None:
    """A planned cut is a size the event's bracket can take (1v1: 2, 4, 8, 16 or 32; pods: one pod or a pod of
    pods), or 0 for none; it cannot change once the top cut has started."""
    if event.top_cut_size:
        raise Conflict(
            _("The top cut has started: its size is fixed."), code="top_cut_started", field="planned_cut_size"
        )
    if size is None or size == 0:
        return
    pod_size = selectors.cut_pod_size(event)
    allowed = topcut.cut_sizes(players=max(size, 1), pod_size=pod_size)
    if size not in allowed:
        shapes = ", ".join(map(str, topcut.cut_sizes(players=10_000, pod_size=pod_size)))
        raise ApplicationError(_("A top cut of %(size)s is not possible here: choose 0 (none) or %(shapes)s.") % {"size": size, "shapes": shapes},
                               field="planned_cut_size")  # fmt: skip


def _checked_entry(event: Event, changes: dict[str, Any]) -> dict[str, Any]:
    """The lottery, priority window and fee settings checked against each other (as they will stand)."""
    if not _ENTRY_FIELDS & set(changes) and "capacity" not in changes:
        return changes

    def will(name: str) -> Any:
        return changes.get(name, getattr(event, name))

    if will("lottery") and will("capacity") is None:
        field = "lottery" if "lottery" in changes else "capacity"
        raise ApplicationError(_("A lottery draws places: give the event a capacity."), field=field)
    if event.lottery_drawn_at is not None and "lottery" in changes and changes["lottery"] != event.lottery:
        raise Conflict(_("The lottery has been drawn: it stays as it was."), code="lottery_drawn", field="lottery")
    if (
        event.lottery
        and not will("lottery")
        and event.registrations.filter(status=Registration.Status.APPLIED).exists()
    ):
        raise ApplicationError(
            _("Players have applied to the lottery: draw it (or they withdraw) before turning it off."), field="lottery"
        )
    opens, priority = will("registration_opens_at"), will("priority_opens_at")
    if priority is not None and (opens is None or priority >= opens):
        raise ApplicationError(
            _("The priority window opens before registration opens to everyone: set both, priority first."),
            field="priority_opens_at",
        )
    season_id, points = will("priority_season_id"), will("priority_min_points")
    if (season_id is None) != (points is None):
        raise ApplicationError(
            _("Priority by league points needs both a season and the points it takes."),
            field="priority_min_points" if season_id is not None else "priority_season_id",
        )
    if "priority_season_id" in changes and season_id is not None and people_selectors.season_points(season_id) is None:
        raise ApplicationError(
            _("Season %(season)s does not exist.") % {"season": season_id}, field="priority_season_id"
        )
    fee = will("entry_fee")
    if fee is not None and fee < 0:
        raise ApplicationError(_("An entry fee is 0 or more (or none for a free event)."), field="entry_fee")
    if "fee_currency" in changes:
        changes["fee_currency"] = (changes["fee_currency"] or "").strip().upper()
    currency = changes.get("fee_currency", event.fee_currency)
    if currency and not re.fullmatch(r"[A-Z]{3}", currency):
        raise ApplicationError(_("A currency is its three-letter code: EUR, USD, GBP, JPY."), field="fee_currency")
    if fee is not None and fee > 0 and not currency:
        raise ApplicationError(_("Give the fee's currency (EUR, USD, GBP, JPY)."), field="fee_currency")
    if "checkout_url" in changes:
        changes["checkout_url"] = (changes["checkout_url"] or "").strip()
        try:
            _CHECKOUT_URL(changes["checkout_url"]) if changes["checkout_url"] else None
        except ValidationError:
            raise ApplicationError(
                _("The checkout link is a web address (https://...)."), field="checkout_url"
            ) from None
    return changes


_CHECKOUT_URL = URLValidator(schemes=["https", "http"])


def _checked_priority_players(player_ids: Any) -> list[int] | None:
    """The players named for an earned invite (ids), checked to exist; ``None``: not changed."""
    if player_ids is None:
        return None
    wanted = sorted({int(p) for p in player_ids})
    found = set(Player.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    missing = [p for p in wanted if p not in found]
    if missing:
        raise ApplicationError(
            _("No player has the id %(ids)s.") % {"ids": ", ".join(map(str, missing))}, field="priority_players"
        )  # fmt: skip
    return wanted


def event_finish(*, event: Event, by) -> Event:
    ensure(by, Action.EDIT_EVENT, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is already finished."), code="event_finished")
        missing = tables_without_result(event)
        if missing:
            raise Conflict(missing_message(missing), code="round_incomplete")
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
        events.record(event=event, by=by, action=DomainAction.EVENT_FINISHED, subject=event.name)
    return event
