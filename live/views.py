"""Pages of the live app: overlays for OBS, the caster's page, the round timer, venue displays, printouts, the bracket.

* **Overlays** (``/live/events/{id}/...``): 1920×1080, transparent, no site chrome,
  kept up to date by the event's (or the station's) stream without a reload
  (``static/js/live.js``).  Styled by query parameters that set CSS variables:
  ``accent``, ``text``, ``panel`` (hex colours without ``#``), ``font`` (a font
  family name) and ``scale`` (0.5–2).  They may be framed by other pages (they
  hold no form).
* **The caster's page** points each station at a table with a preview, puts a
  decklist on air, and makes overlay tokens; **the timer card** on the dashboard
  starts, pauses, resumes and extends the round's clock; a table's **extra time**
  page is the judges'.
* **The venue display** cycles the pairings by name, the standings and the timer
  full screen; **printouts** (print CSS, A4) give the pairings by name and by table,
  a match slip per table with signature lines, the standings with tiebreakers,
  and the bracket.

Views read through :mod:`live.selectors` (and the tournaments selectors: rounds, tables, standings, the
bracket), shape what overlays show with :mod:`live.payloads`, and change through :mod:`live.services`; who may
do what is :mod:`tournaments.policy`'s.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST

from core.doorway import enter, refuse
from core.exceptions import ApplicationError
from core.htmx import HtmxHttpRequest
from live import doors as live_doors
from live import payloads, selectors, services
from tournaments import doors, policy
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors

#: Names per page of the venue display's pairings (three columns).
DISPLAY_PAGE = 60
_HEX = re.compile(r"^[0-9a-fA-F]{3,8}$")
_FONT = re.compile(r"^[A-Za-z0-9 \-]{1,40}$")


def overlay_style(request: HttpRequest) -> str:
    """The CSS variables an overlay's query parameters set, as JSON ``{"--accent": "#ff3366", ...}`` that the page
    sets through the CSSOM (the Content-Security-Policy allows no inline style); each value is checked, so nothing
    else reaches the CSS."""
    rules: dict[str, str] = {}
    for name in ("accent", "text", "panel"):
        value = request.GET.get(name, "")
        if _HEX.match(value):
            rules[f"--{name}"] = f"#{value}"
    font = request.GET.get("font", "")
    if _FONT.match(font):
        rules["--font"] = f"'{font}', system-ui, sans-serif"
    try:
        scale = float(request.GET.get("scale", "1"))
    except ValueError:
        scale = 1.0
    if 0.5 <= scale <= 2 and scale != 1:
        rules["--scale"] = f"{scale:g}"
    return json.dumps(rules) if rules else ""


#: Overlays may be framed by any page (an overlay host, the caster's preview): their policy opens frame-ancestors.
overlay_csp = csp_override({**settings.SECURE_CSP, "frame-ancestors": ["*"]})


def _overlay(request: HttpRequest, name: str, event: Event, **context: Any) -> HttpResponse:
    """An overlay page, or (``?fragment=1``) its stage alone, which the page fetches again after a push."""
    snapshot = payloads.event_snapshot(selectors.event_snapshot(event=event))
    base = {
        "event": event,
        "snapshot": snapshot,
        "style": overlay_style(request),
        "stream_url": reverse("live-api:event-stream", args=[event.pk]),
        "snapshot_url": reverse("live-api:event-live", args=[event.pk]),
    }
    template = f"live/_{name}_overlay.html" if request.GET.get("fragment") == "1" else f"live/overlay_{name}.html"
    return render(request, template, {**base, **context})


# --- overlays for OBS ---------------------------------------------------------------------------------------------


@overlay_csp
@xframe_options_exempt
def station_overlay(request: HttpRequest, event_id: int, slug: str) -> HttpResponse:
    """A station's feature match (1v1 or a pod of up to 4), for an OBS browser source."""
    event = enter(request, doors.EVENT, event_id)
    station = enter(request, live_doors.STATION, event, slug)
    token = request.GET.get("token", "")
    visible = policy.can_view_hidden_decklists(request.user, event)
    if token:
        if selectors.token_of(event=event, key=token) is None:
            raise refuse(request, _(policy.INVALID_OVERLAY_TOKEN))
        visible = visible or policy.overlay_token_sees_hidden_decklists(event)
    match = payloads.feature_match(selectors.feature_match(station=station, decks_visible=visible))
    context = {
        "event": event,
        "station": station,
        "match": match,
        "state": {"seq": selectors.last_seq(event_id=event.pk), **match},
        "pod": len(match["players"]) > 2,
        "style": overlay_style(request),
        "stream_url": reverse("live-api:station-stream", args=[event.pk, slug]),
        "data_url": reverse("live-api:station-detail", args=[event.pk, slug]) + (f"?token={token}" if token else ""),
        "show_decklist": request.GET.get("decklist", "1") != "0",
    }
    template = "live/_feature_stage.html" if request.GET.get("fragment") == "1" else "live/overlay_feature.html"
    return render(request, template, context)


@overlay_csp
@xframe_options_exempt
def standings_overlay(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings as a lower third (``?mode=lower-third``, the default) or a ticker (``?mode=ticker``)."""
    mode = "ticker" if request.GET.get("mode") == "ticker" else "lower-third"
    try:
        limit = max(1, min(16, int(request.GET.get("limit", "8"))))
    except ValueError:
        limit = 8
    return _overlay(request, "standings", enter(request, doors.EVENT, event_id), mode=mode, limit=limit)


@overlay_csp
@xframe_options_exempt
def pairings_overlay(request: HttpRequest, event_id: int) -> HttpResponse:
    """The current round's tables."""
    return _overlay(request, "pairings", enter(request, doors.EVENT, event_id))


@overlay_csp
@xframe_options_exempt
def bracket_overlay(request: HttpRequest, event_id: int) -> HttpResponse:
    """The top-cut bracket, filling in as results arrive."""
    return _overlay(request, "bracket", enter(request, doors.EVENT, event_id))


@overlay_csp
@xframe_options_exempt
def timer_overlay(request: HttpRequest, event_id: int) -> HttpResponse:
    """The round timer alone."""
    return _overlay(request, "timer", enter(request, doors.EVENT, event_id))


# --- the public bracket page ------------------------------------------------------------------------------------


def bracket_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The top cut on the public pages: the bracket as it fills in, and the final placements once it is over."""
    event = enter(request, doors.EVENT, event_id)
    context: dict[str, Any] = {
        "event": event,
        "bracket": payloads.bracket_data(tournament_selectors.top_cut_bracket(event=event)),
        "rounds": [],
        "page": "bracket",
        "seq": selectors.last_seq(event_id=event.pk),
        "stream_url": reverse("live-api:event-stream", args=[event.pk]),
    }
    template = "live/_bracket.html" if request.GET.get("fragment") == "1" else "live/bracket.html"
    return render(request, template, context)


# --- the venue display ----------------------------------------------------------------------------------------------


def venue_display(request: HttpRequest, event_id: int) -> HttpResponse:
    """The room's screen: pairings by name (alphabetical, with table numbers), standings and the timer, in turn."""
    event = enter(request, doors.EVENT, event_id)
    round_ = tournament_selectors.event_shown_round(event=event.pk)
    rows = tournament_selectors.round_pairings_by_name(round_=round_) if round_ is not None else []
    snapshot = payloads.event_snapshot(selectors.event_snapshot(event=event))
    context = {
        "event": event,
        "round": snapshot["round"],
        "pages": [rows[i : i + DISPLAY_PAGE] for i in range(0, len(rows), DISPLAY_PAGE)],
        "snapshot": snapshot,
        "seq": snapshot["seq"],
        "stream_url": reverse("live-api:event-stream", args=[event.pk]),
    }
    template = "live/_display_panels.html" if request.GET.get("fragment") == "1" else "live/display.html"
    return render(request, template, context)


# --- the caster's page ------------------------------------------------------------------------------------------


@login_required
def caster(request: HttpRequest, event_id: int) -> HttpResponse:
    """Stations, the table each shows (with a preview), the decklist on air, overlay tokens."""
    event = enter(request, doors.event(Action.RUN_STREAM), event_id)
    return _caster_page(request, event)


def _caster_page(request: HttpRequest, event: Event, **extra: Any) -> HttpResponse:
    round_ = tournament_selectors.event_shown_round(event=event.pk)  # what the stations can put on air
    tables = payloads.round_tables(tournament_selectors.round_pods(round_=round_)) if round_ is not None else []
    base = request.build_absolute_uri("/")[:-1]
    stations = selectors.stations_of(event=event)
    for station in stations:
        station.event = event
    context = {
        "event": event,
        "round": payloads.round_info(round_, tournament_selectors.round_label(round_=round_) if round_ else ""),
        "tables": [t for t in tables if not t["bye"]],
        "stations": stations,
        "players": {t["table"]: t["players"] for t in tables if not t["bye"]},
        "withheld": people_selectors.withheld_tables(round_=round_) if round_ is not None else set(),
        "tokens": selectors.tokens_of(event=event),
        "base": base,
        "decks_visible": policy.can_view_hidden_decklists(request.user, event),
        "may": policy.may(request.user, event),
        "overlays": [
            (_("Standings lower third"), reverse("live:standings-overlay", args=[event.pk])),
            (_("Standings ticker"), reverse("live:standings-overlay", args=[event.pk]) + "?mode=ticker"),
            (_("Pairings"), reverse("live:pairings-overlay", args=[event.pk])),
            (_("Bracket"), reverse("live:bracket-overlay", args=[event.pk])),
            (_("Round timer"), reverse("live:timer-overlay", args=[event.pk])),
            (_("Venue display"), reverse("live:display", args=[event.pk])),
        ],
        **extra,
    }
    return render(request, "live/caster.html", context)


def _back_to_caster(event: Event) -> HttpResponse:
    return redirect("live:caster", event_id=event.pk)


@login_required
@require_POST
def caster_station_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    try:
        station = services.station_create(
            event=event, slug=request.POST.get("slug", ""), name=request.POST.get("name", ""), by=request.user
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Station %(station)s added.") % {"station": station.slug})
    return _back_to_caster(event)


def _optional_int(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise ApplicationError(_("Choose one from the list."))
    return int(raw)


@login_required
@require_POST
def caster_station_update(request: HttpRequest, event_id: int, slug: str) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    station = enter(request, live_doors.STATION, event, slug)
    changes: dict[str, Any] = {}
    try:
        if "table" in request.POST:
            changes["table_number"] = _optional_int(request.POST.get("table"))
        if "decklist_on_air" in request.POST:
            changes["revealed_player"] = _optional_int(request.POST.get("decklist_on_air"))
        services.station_update(station=station, by=request.user, **changes)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(station)s updated.") % {"station": station.name})
    return _back_to_caster(event)


@never_cache
@login_required
@require_POST
def caster_token_add(request: HttpRequest, event_id: int) -> HttpResponse:
    """The caster's page with the new token's key on it, this once: the key is neither stored nor put in a message
    (messages travel in a cookie or the session), and the answer is not cached."""
    event = enter(request, doors.EVENT, event_id)
    try:
        token, key = services.overlay_token_create(event=event, label=request.POST.get("label", ""), by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return _back_to_caster(event)
    return _caster_page(request, event, new_token={"label": token.label, "key": key})


@login_required
@require_POST
def caster_token_revoke(request: HttpRequest, event_id: int, token_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    token = enter(request, live_doors.TOKEN, event, token_id)
    try:
        services.overlay_token_revoke(token=token, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return _back_to_caster(event)


# --- the round timer on the dashboard ---------------------------------------------------------------------------


@login_required
def timer_card(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The dashboard's clock of the current round: start, pause, resume, extend; at zero, the end-of-round
    procedure (and the dashboard marks the tables without a result)."""
    event = enter(request, doors.event(), event_id)
    round_ = tournament_selectors.event_latest_round(event=event.pk)
    timer = selectors.round_timer(round_=round_) if round_ is not None else None
    context = {
        "event": event,
        "round": round_,
        "timer": payloads.timer_view(round_, timer) if round_ is not None else None,
        "may_run": policy.can(request.user, Action.RUN_TIMER, event),
        "may_stream": policy.can(request.user, Action.RUN_STREAM, event),
        "stream_url": reverse("live-api:event-stream", args=[event.pk]),
        "seq": selectors.last_seq(event_id=event.pk),
        "standalone": not request.htmx,
        # The printouts' links on both papers, the event's own first.
        "print_papers": sorted(Event.Paper.choices, key=lambda choice: choice[0] != event.paper),
    }
    return render(request, "live/timer_card.html" if request.htmx else "live/timer_page.html", context)


@login_required
@require_POST
def timer_action(request: HttpRequest, event_id: int, number: int, action: str) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    try:
        if action == "start":
            services.timer_start(
                event=event, round_number=number, minutes=_whole(request.POST.get("minutes")), by=request.user
            )
        elif action == "pause":
            services.timer_pause(event=event, round_number=number, by=request.user)
        elif action == "resume":
            services.timer_resume(event=event, round_number=number, by=request.user)
        else:  # "extend": the URL takes no other action
            services.timer_extend(
                event=event, round_number=number, minutes=_whole(request.POST.get("minutes")), by=request.user
            )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#round-timer")


def _whole(raw: str | None) -> int:
    raw = (raw or "").strip()
    if not raw.isdigit() or len(raw) > 4:
        raise ApplicationError(_("Give a whole number of minutes."), field="minutes")
    return int(raw)


@login_required
def table_extension(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """A table's extra time: its history, and (for judges) the form that adds some."""
    event = enter(request, doors.event(), event_id)
    pod = enter(request, live_doors.TABLE, event, number, table)
    round_ = pod.round
    error = None
    if request.method == "POST":
        try:
            services.table_time_extend(
                event=event, round_number=number, table_number=table, minutes=_whole(request.POST.get("minutes")),
                reason=request.POST.get("reason", ""), by=request.user,
            )  # fmt: skip
        except ApplicationError as exc:
            error = exc.message
        else:
            messages.success(request, _("Table %(table)s has more time.") % {"table": table})
            return redirect(reverse("dashboard:event-detail", args=[event.pk]) + f"#table-{pod.pk}")
    context = {
        "event": event,
        "round": round_,
        "table": table,
        "extensions": selectors.extensions_of(pod=pod),
        "may_extend": policy.can(request.user, Action.EXTEND_TABLE_TIME, event),
        "error": error,
        "typed": {"minutes": request.POST.get("minutes", "3"), "reason": request.POST.get("reason", "")},
    }
    return render(request, "live/table_extension.html", context, status=400 if error else 200)


# --- printouts ------------------------------------------------------------------------------------------------------


def _printout(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """A printout laid out for the paper ``?paper=`` names (``a4`` or ``letter``), else the event's; another value
    is a 400 page naming the two (a misprint is not silently A4)."""
    event: Event = context["event"]
    paper = request.GET.get("paper", event.paper)
    if paper not in Event.Paper.values:
        shown = paper if len(paper) <= 20 else paper[:20] + "…"
        message = _("There is no paper '%(paper)s' here: print on ?paper=a4 or ?paper=letter.") % {"paper": shown}
        return render(request, "live/print_refused.html", {"event": event, "message": message}, status=400)
    links = []
    for value, label in Event.Paper.choices:  # the same printout on the other paper, its other choices kept
        query = request.GET.copy()
        query["paper"] = value
        links.append({"label": label, "url": f"?{query.urlencode()}", "current": value == paper})
    return render(request, template, {**context, "paper": paper, "paper_links": links})


def _print_round(request: HttpRequest, event: Event) -> Round | None:
    # Staff print a staged round to pin it up as they publish it; everyone else prints what the players see.
    staff = policy.can(request.user, Action.USE_DASHBOARD, event)
    number = request.GET.get("round", "")
    if number.isdigit() and len(number) < 6:
        round_ = tournament_selectors.round_get(event=event, number=int(number))
        return round_ if round_ is None or staff or round_.published else None
    if staff:
        return tournament_selectors.event_latest_round(event=event.pk)
    return tournament_selectors.event_shown_round(event=event.pk)


def print_pairings(request: HttpRequest, event_id: int) -> HttpResponse:
    """Pairings to pin up: by name (``?by=name``, alphabetical with table numbers) or by table."""
    event = enter(request, doors.EVENT, event_id)
    round_ = _print_round(request, event)
    by_name = request.GET.get("by", "name") != "table"
    context = {
        "event": event,
        "round": round_,
        "label": tournament_selectors.round_label(round_=round_) if round_ else "",
        "by_name": by_name,
        "rows": tournament_selectors.round_pairings_by_name(round_=round_) if round_ and by_name else [],
        "tables": payloads.round_tables(tournament_selectors.round_pods(round_=round_))
        if round_ and not by_name
        else [],
    }
    return _printout(request, "live/print_pairings.html", context)


@login_required
def print_slips(request: HttpRequest, event_id: int) -> HttpResponse:
    """A match slip for every table of a round, with a line per player for the result and a signature."""
    event = enter(request, doors.event(), event_id)
    round_ = _print_round(request, event)
    context = {
        "event": event,
        "round": round_,
        "label": tournament_selectors.round_label(round_=round_) if round_ else "",
        "tables": [t for t in payloads.round_tables(tournament_selectors.round_pods(round_=round_)) if not t["bye"]]
        if round_
        else [],
        "games": event.format_spec.games_per_match,
    }
    return _printout(request, "live/print_slips.html", context)


def print_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings with every tiebreaker, to pin up."""
    event = enter(request, doors.EVENT, event_id)
    context = {
        "event": event,
        "standings": list(tournament_selectors.event_standings(event=event)),
        "namesakes": people_selectors.event_namesakes(event=event),
    }
    return _printout(request, "live/print_standings.html", context)


def print_bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    bracket = payloads.bracket_data(tournament_selectors.top_cut_bracket(event=event))
    return _printout(request, "live/print_bracket.html", {"event": event, "bracket": bracket})
