"""The public pages: the home page, the events list with its filters, a format's rules, an event's page, its pairings (by table and by name) and its
standings."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.doorway import enter
from core.htmx import HtmxHttpRequest
from rules import FORMATS
from rules.speech import say
from tournaments import doors, filters, policy, selectors
from tournaments.models import Event, Round
from tournaments.selectors import cutline as cutline_selectors
from tournaments.selectors import people as people_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.views._tables import _round_context

#: The home page lists the latest events.
HOME_EVENTS = 100


def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_by_status(limit=HOME_EVENTS)
    return render(request, "public/home.html", {"events": events})


#: The events page lists this many a page.
EVENTS_PAGE_SIZE = 50


def events(request: HttpRequest) -> HttpResponse:
    """Every event, newest first, filtered as the API's list is (:mod:`tournaments.filters`: format, status, dates,
    name), a page at a time; a filter it does not know or a bad value is a 400 page saying which, not ignored."""
    wanted, errors = filters.read_event_filters(request.GET, also=("page",))
    page_number = request.GET.get("page", "1")
    if not (page_number.isdigit() and 0 < len(page_number) < 7 and int(page_number) > 0):
        errors["page"] = [_("page is a page number: 1, 2, ...")]
    context: dict[str, Any] = {
        "formats": sorted((fmt.slug, fmt.name) for fmt in FORMATS.values()),
        "statuses": Event.Status.choices,
        "given": {name: request.GET.get(name, "") for name in filters.NAMES},
        "given_statuses": [s for v in request.GET.getlist("status") for s in v.split(",")],
        "errors": errors,
    }
    if errors:
        return render(request, "public/events.html", context, status=400)
    page = selectors.events_page(number=int(page_number), size=EVENTS_PAGE_SIZE, **wanted.as_selector_arguments())
    query = request.GET.copy()
    query.pop("page", None)
    context.update(page=page, query=f"{query.urlencode()}&" if query else "")
    return render(request, "public/events.html", context)


def format_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """A format's options and its interpretations: the rulebook's text, Podium's choice, the option."""
    fmt = enter(request, doors.FORMAT, slug)
    options = [
        {
            "option": o,
            "values": _("the name of an imported banlist") if o.named
            else "; ".join(say(o.describe(v)) for v in o.choices) if o.choices
            else _("%(minimum)s to %(maximum)s") % {"minimum": o.minimum, "maximum": o.maximum},
            "default": _("the newest imported list") if o.named else say(o.describe(o.default)),
        }
        for o in fmt.options
    ]  # fmt: skip
    return render(request, "public/format_rules.html", {"fmt": fmt, "options": options})


def _public_event_round(request: HttpRequest, event_id: int) -> tuple[Event, Round | None]:
    event = enter(request, doors.EVENT, event_id)
    number = request.GET.get("round")
    round_ = None
    if number and number.isdigit():
        round_ = selectors.round_get(event=event, number=int(number))
    if round_ is None or not round_.published:  # a staged round is the staff's until they publish it
        round_ = selectors.event_shown_round(event=event)
    return event, round_


def public_event(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    context = _round_context(event, round_, manage=False)
    standings = selectors.standings_read(event=event)
    bracket = selectors.top_cut_bracket(event=event)
    context.update(
        final_placements=bracket.placements if bracket else [],
        standings=standings.rows,
        standings_current=standings.current,
        namesakes=people_selectors.event_namesakes(event=event),
        rounds=selectors.event_round_numbers(event=event, published_only=True),
        can_manage=policy.can_manage_event(request.user, event),
        my_registration=people_selectors.registration_of_user(event=event, user=request.user)
        if request.user.is_authenticated
        else None,
        decklists=people_selectors.registrations_with_decklist(event=event) if event.decklists_public else [],
        **cutline_selectors.structure_card(event=event, cut=cutline_selectors.event_cut_line(event=event)),
        entry=people_selectors.entry_facts(event=event) if _has_entry_rules(event) else None,
    )
    return render(request, "public/event.html", context)


def _has_entry_rules(event: Event) -> bool:
    """The event's page says how to get a place: a lottery, a priority window, an opening time, a fee."""
    upcoming = event.status == Event.Status.REGISTRATION
    timed = upcoming and (event.registration_opens_at is not None or event.priority_opens_at is not None)
    return event.lottery or event.has_fee or timed


def public_pairings(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    context = _round_context(event, round_, manage=False)
    context["rounds"] = selectors.event_round_numbers(event=event, published_only=True)
    context["namesakes"] = _seated_namesakes(context["tables"])
    return render(request, "public/pairings.html", context)


def _seated_namesakes(tables: list[dict[str, Any]]) -> frozenset[int]:
    """Players of these tables who share their name with another of them (the pages add their player ID)."""
    return people_selectors.namesakes_of(s.player for t in tables for s in t["seats"])


def public_pairings_by_name(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    rows = selectors.round_pairings_by_name(round_=round_) if round_ else []
    rounds = selectors.event_round_numbers(event=event, published_only=True)
    player = request.GET.get("player", "")
    context = {
        "event": event,
        "round": round_,
        "round_label": selectors.round_label(round_=round_) if round_ else "",
        "rows": rows,
        "rounds": rounds,
        "highlight": int(player) if player.isdigit() else None,
    }
    return render(request, "public/pairings_by_name.html", context)


def public_standings(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The standings; an event in phases also has each phase's own (``?phase=1``: day 1's, as it ended)."""
    event = enter(request, doors.EVENT, event_id)
    phases = standings_selectors.event_phases(event=event)
    asked = request.GET.get("phase", "")
    phase = phases[int(asked) - 1] if asked.isdigit() and 1 <= int(asked) <= len(phases) else None
    if phase is not None:
        rows: list[Any] = standings_selectors.phase_standing_rows(event=event, number=phase.number)
        current = event.standings_current
    else:
        standings = selectors.standings_read(event=event)
        rows, current = standings.rows, standings.current
        names = {p.number: p.name for p in phases[1:]}
        for row in rows if names else ():
            row.phase_name = names.get(row.phase)  # type: ignore[attr-defined]  # a later phase's players: its name
    template = "public/_standings_table.html" if request.htmx else "public/standings.html"
    context = {
        "event": event,
        "cut": None if request.htmx or phase is not None else cutline_selectors.event_cut_line(event=event),
        "caveat": cutline_selectors.CAVEAT,
        "standings": rows,
        "standings_current": current,
        "namesakes": people_selectors.event_namesakes(event=event),
        "phases": phases,
        "phase": phase,
    }
    return render(request, template, context)
