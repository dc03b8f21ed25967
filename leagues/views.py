"""League pages (public), the league's management page, the meta report, ratings, the exports, and the organiser's
names for an event's archetypes.

Views translate HTTP to service calls and selector reads; the charts are SVG
drawn on the server by :mod:`leagues.charts` with the figures also shown as a
table beside them.  Exports are files: CSV (one header row, then a row per
line, written by :func:`core.exports.csv_response`: UTF-8 with a byte-order mark,
a name that starts like a formula quoted) and the Limitless-style JSON standings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from core.exports import csv_response
from leagues import charts, meta, selectors, services
from leagues import doors as league_doors
from leagues.forms import ArchetypeNameForm, LeagueForm, PointsTableForm, SeasonEventForm, SeasonForm, StaffForm
from leagues.meta import seats as seat_stats
from leagues.models import League, RatingChange, Season, SeasonStanding
from leagues.points import PRESETS, PointsTable
from rules import FORMATS, Format
from tournaments import doors, policy, tdf
from tournaments.models import Event, Player
from tournaments.policy import Action


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f} %"


def _standings_chart(season: Season, lines: list[SeasonStanding]) -> str:
    top = lines[:10]
    bars = [charts.Bar(line.player.display_name, line.points, f"{line.points} pts") for line in top]
    leader = f"{top[0].player.display_name} leads with {top[0].points} points" if top else "No results yet"
    return mark_safe(  # noqa: S308 - built by leagues.charts, which escapes every text
        charts.bar_chart(
            f"season-{season.pk}-standings",
            f"{season.name}: points of the top {len(top)}",
            f"{leader}; {len(lines)} players in the standings.",
            bars,
        )  # fmt: skip
    )


def _points_words(table: PointsTable) -> list[str]:
    words = []
    if table.placement:
        bands, last = [], 0
        for down_to, points in table.placement:
            place = f"{last + 1}" if down_to == last + 1 else f"{last + 1}–{down_to}"
            bands.append(f"{place}: {points}")
            last = down_to
        words.append(_("Final placing (top cut counted) — %(bands)s") % {"bands": ", ".join(bands)})
    if table.match_win or table.match_draw:
        words.append(
            _("Each 1v1 match won %(won)s, drawn %(drawn)s (a bye is a win)")
            % {"won": table.match_win, "drawn": table.match_draw}
        )
    if table.pod_placement:
        places = ", ".join(f"{i}: {p}" for i, p in enumerate(table.pod_placement, start=1))
        words.append(_("Each pod — %(places)s") % {"places": places})
    if table.attendance:
        words.append(_("Attending %(points)s") % {"points": table.attendance})
    words.append(
        ngettext("Best %(count)s event counts", "Best %(count)s events count", table.best_n) % {"count": table.best_n}
        if table.best_n
        else _("Every event counts")
    )
    return words


# --- public pages --------------------------------------------------------------------------------------


def league_list(request: HttpRequest) -> HttpResponse:
    can_create = policy.can_create_event(request.user)
    return render(
        request, "leagues/league_list.html",
        {"leagues": selectors.league_list(user=request.user), "form": LeagueForm() if can_create else None,
         "formats": _formats()},
    )  # fmt: skip


def _formats() -> list[tuple[str, str]]:
    return [(f.slug, f.name) for f in FORMATS.values()]


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = enter(request, league_doors.LEAGUE, league_id)
    seasons = selectors.league_seasons(league=league)
    current = seasons[0] if seasons else None
    context = {
        "league": league, "seasons": seasons, "season": current,
        "can_manage": policy.can_manage_league(request.user, league),
        "formats": [(slug, FORMATS[slug].name) for slug in league.formats if slug in FORMATS],
    }  # fmt: skip
    if current is not None:
        lines = selectors.season_standings(season=current)
        context.update(
            lines=lines, chart=_standings_chart(current, lines), events=selectors.season_events(season=current)
        )
    return render(request, "leagues/league.html", context)


def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    season = enter(request, league_doors.SEASON, season_id)
    lines = selectors.season_standings(season=season)
    events = selectors.season_events(season=season)
    names = {e.pk: e.name for e in events}
    return render(
        request, "leagues/season.html",
        {
            "season": season, "league": season.league, "lines": lines, "events": events, "event_names": names,
            "chart": _standings_chart(season, lines),
            "points": _points_words(PointsTable.from_json(season.points_table)),
            "can_manage": policy.can_manage_league(request.user, season.league),
        },
    )  # fmt: skip


def _meta_context(report: meta.Report, *, title: str, chart_id: str) -> dict:
    named = [r for r in report.rows if not r.hidden]
    shares = [
        charts.Bar(r.archetype, r.share, f"{r.players} ({_pct(r.share)})", r.win_rate,
                   _("%(rate)s wins") % {"rate": _pct(r.win_rate)} if r.win_rate is not None else "")
        for r in named[:12]
    ]  # fmt: skip
    hidden = next((r for r in report.rows if r.hidden), None)
    desc = (
        ", ".join(
            _("%(archetype)s %(share)s of players, %(rate)s match wins")
            % {"archetype": r.archetype, "share": _pct(r.share), "rate": _pct(r.win_rate)}
            for r in named[:5]
        )
        or _("No published decklists yet")
    ) + (
        _("; %(players)s players at events whose lists are not published.") % {"players": hidden.players}
        if hidden
        else "."
    )
    converted = [r for r in named if r.conversion is not None][:12]
    conversion = charts.bar_chart(
        f"{chart_id}-cut", _("%(title)s: conversion into the top cut") % {"title": title}, "; ".join(
            _("%(archetype)s %(in_cut)s of %(players)s") % {"archetype": r.archetype, "in_cut": r.in_cut,
                                                             "players": r.players}
            for r in converted) or _("No top cut yet"),
        [charts.Bar(r.archetype, r.conversion or 0, f"{r.in_cut}/{r.players} ({_pct(r.conversion)})")
         for r in converted],
        scale=1,
    ) if converted else ""  # fmt: skip
    return {
        "report": report,
        "rows": [
            {"row": r, "share": _pct(r.share), "win_rate": _pct(r.win_rate), "conversion": _pct(r.conversion)}
            for r in report.rows
        ],
        "share_chart": mark_safe(  # noqa: S308 - leagues.charts escapes every text
            charts.bar_chart(
                f"{chart_id}-share",
                _("%(title)s: share of players and match win rate") % {"title": title},
                desc,
                shares,
                scale=max((b.value for b in shares), default=1) or 1,
                second_label=_("match win rate"),
            )
        )
        if shares
        else "",  # fmt: skip
        "cut_chart": mark_safe(conversion),  # noqa: S308
    }


def season_meta(request: HttpRequest, season_id: int) -> HttpResponse:
    season = enter(request, league_doors.SEASON, season_id)
    events = selectors.season_events(season=season)
    report = selectors.meta_report(events=events)
    context = _meta_context(report, title=season.name, chart_id=f"season-{season.pk}-meta")
    context.update(
        season=season,
        league=season.league,
        events=events,
        heading=_("Meta report · %(season)s") % {"season": season.name},
    )
    return render(request, "leagues/meta.html", context)


def event_meta(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    report = selectors.meta_report(events=[event])
    context = _meta_context(report, title=event.name, chart_id=f"event-{event.pk}-meta")
    context.update(event=event, events=[event], heading=_("Meta report · %(event)s") % {"event": event.name},
                   season_link=selectors.season_of_event(event=event),
                   may_name=policy.can(request.user, Action.MANAGE_DECKS, event))  # fmt: skip
    return render(request, "leagues/meta.html", context)


# --- seat fairness ---------------------------------------------------------------------------------------

#: What seat 1 is at a 1v1 table, and why its figures say nothing of seating (the pairing engine's terms).
ONE_VS_ONE_SEATS = gettext_lazy(
    "At a 1v1 table, seat 1 is the player higher in the standings when the round was paired; who plays first is "
    "decided at the table. So seat 1's figures here measure that standing, not a seat advantage."
)


def _group_heading(group: seat_stats.Group) -> str:
    fmt = FORMATS.get(group.format)
    size = _("1v1 tables") if group.size == 2 else _("%(size)s-player pods") % {"size": group.size}
    return f"{fmt.name if fmt else group.format} · {size}"


def _pct1(value: float) -> str:
    return f"{value * 100:.1f} %"


def _seat_groups(report: seat_stats.Report, chart_prefix: str) -> list[dict[str, Any]]:
    """Each group of the report with its heading, chart and rows in words, for the page."""
    shown = []
    for group in report.groups:
        heading = _group_heading(group)
        bars = [
            charts.IntervalBar(
                _("Seat %(seat)s") % {"seat": f.seat},
                f.win_rate,
                f.low,
                f.high,
                _("%(rate)s of %(tables)s") % {"rate": _pct1(f.win_rate), "tables": f.tables},
            )  # fmt: skip
            for f in group.seats
        ]
        best = max(group.seats, key=lambda f: f.win_rate)
        description = _(
            "%(tables)s tables. Seat %(seat)s won most often, %(rate)s (95 %% interval %(low)s to %(high)s); "
            "a fair share is %(fair)s."
        ) % {
            "tables": group.tables, "seat": best.seat, "rate": _pct1(best.win_rate), "low": _pct1(best.low),
            "high": _pct1(best.high), "fair": _pct1(group.fair_share),
        }  # fmt: skip
        chart = mark_safe(  # noqa: S308 - leagues.charts escapes every text
            charts.interval_chart(
                f"{chart_prefix}-seats-{slugify(group.format) or 'format'}-{group.size}",
                _("Win rate by seat: %(heading)s") % {"heading": heading},
                description,
                bars,
                reference=group.fair_share,
                reference_label=_("fair share %(rate)s") % {"rate": _pct1(group.fair_share)},
            )  # fmt: skip
        )
        shown.append({
            "group": group, "heading": heading, "chart": chart,
            "one_vs_one": str(ONE_VS_ONE_SEATS) if group.size == 2 else "",
            "rows": [{"f": f, "win_rate": _pct1(f.win_rate), "low": _pct1(f.low), "high": _pct1(f.high),
                      "points": f"{f.average_points:.2f}", "placement": f"{f.average_placement:.2f}"}
                     for f in group.seats],
        })  # fmt: skip
    return shown


def event_seats(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    report = selectors.event_seat_report(event=event)
    return render(request, "leagues/seats.html", {
        "event": event, "report": report, "groups": _seat_groups(report, f"event-{event.pk}"),
        "heading": _("Seats · %(event)s") % {"event": event.name}, "csv": reverse("leagues:export-seats", args=[event.pk]),
    })  # fmt: skip


def season_seats(request: HttpRequest, season_id: int) -> HttpResponse:
    season = enter(request, league_doors.SEASON, season_id)
    report = selectors.season_seat_report(season=season)
    return render(request, "leagues/seats.html", {
        "season": season, "league": season.league, "report": report,
        "groups": _seat_groups(report, f"season-{season.pk}"), "heading": _("Seats · %(season)s") % {"season": season.name},
        "csv": reverse("leagues:season-seats-csv", args=[season.pk]),
    })  # fmt: skip


def leaderboard(request: HttpRequest, format_slug: str) -> HttpResponse:
    fmt = enter(request, doors.FORMAT, format_slug)
    board = selectors.leaderboard(format_slug=format_slug, limit=100)
    return render(
        request, "leagues/leaderboard.html",
        {"format": fmt, "board": board, "min_games": selectors.MIN_GAMES,
         "formats": [(f.slug, f.name) for f in FORMATS.values()]},
    )  # fmt: skip


def rating_chart(player: Player, history: list[RatingChange], fmt: Format) -> str:
    events = [c.pod.round.event for c in history]  # the selector reads them with the changes
    points = [charts.Point(f"{e.name} ({e.date})", c.rating_after) for c, e in zip(history, events, strict=True)]
    if history and history[0].games == 1:  # the whole history: it starts where every new player does, at 0
        points.insert(0, charts.Point(_("Before the first rated game"), 0.0))
    last = points[-1].value if points else 0.0
    return mark_safe(  # noqa: S308 - leagues.charts escapes every text
        charts.line_chart(
            f"rating-{player.pk}-{fmt.slug}",
            _("%(player)s's %(format)s rating") % {"player": player.display_name, "format": fmt.name},
            (
                _(
                    "%(games)s rated games; the displayed rating (mu - 3 sigma) is %(now)s now, from %(lowest)s at "
                    "its lowest to %(highest)s at its highest."
                )
                % {
                    "games": len(points),
                    "now": f"{last:.1f}",
                    "lowest": f"{min(p.value for p in points):.1f}",
                    "highest": f"{max(p.value for p in points):.1f}",
                }
                if points
                else _("%(games)s rated games; the displayed rating (mu - 3 sigma) is %(now)s now.")
                % {"games": len(points), "now": f"{last:.1f}"}
            ),  # fmt: skip
            points,
            y_label=_("displayed rating (μ − 3σ)"),
        )  # fmt: skip
    )


def player_league_context(player: Player) -> dict:
    """The player's seasons and ratings with their charts, for their own page (``/me/``): three queries."""
    return {"seasons": selectors.player_seasons(player=player), "per_format": _per_format(player)}


def _per_format(player: Player) -> list[dict]:
    ratings = selectors.player_ratings(player=player)
    history = selectors.rating_history(player=player)
    per_format = []
    for rating in ratings:
        changes = [c for c in history if c.format == rating.format]
        fmt = FORMATS.get(rating.format)
        if fmt is not None:
            per_format.append({"rating": rating, "format": fmt, "chart": rating_chart(player, changes, fmt),
                               "changes": changes[-10:][::-1]})  # fmt: skip
    return per_format


def player_ratings(request: HttpRequest, player_id: int) -> HttpResponse:
    player = enter(request, league_doors.PLAYER, player_id)
    per_format = _per_format(player)
    return render(
        request, "leagues/player_ratings.html",
        {"player": player, "per_format": per_format, "seasons": selectors.player_seasons(player=player)},
    )  # fmt: skip


# --- exports -------------------------------------------------------------------------------------------


def _event_file(event: Event, what: str) -> str:
    return f"{slugify(event.name) or 'event'}-{event.pk}-{what}"


def export_standings_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    placed = selectors.event_final_standings(event=event)
    return csv_response(
        _event_file(event, "standings.csv"),
        ["placing", "swiss_rank", "player_id", "player", "points", "wins", "losses", "draws", "byes", "omw_pct",
         "oomw_pct", "dropped", "deck"],
        ([p.placing, p.standing.rank, p.standing.player_id, p.standing.player.display_name, p.standing.points,
          p.standing.wins, p.standing.losses, p.standing.draws, p.standing.byes,
          f"{p.standing.opp_match_win_pct:.4f}", f"{p.standing.opp_opp_match_win_pct:.4f}",
          "yes" if p.standing.dropped else "no", p.archetype or ""] for p in placed),
    )  # fmt: skip


def export_results_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    seats = selectors.event_results_rows(event=event)
    return csv_response(
        _event_file(event, "results.csv"),
        ["round", "stage", "table", "seat", "player_id", "player", "placement", "points", "games_won", "games_lost",
         "games_drawn"],
        ([s.round.number, s.round.stage, "bye" if s.pod.is_bye else s.pod.table_number, s.seat_order, s.player_id,
          s.player.display_name, "" if s.placement is None else s.placement, "" if s.points is None else s.points,
          "" if s.games_won is None else s.games_won, "" if s.games_lost is None else s.games_lost,
          "" if s.games_drawn is None else s.games_drawn] for s in seats),
    )  # fmt: skip


def export_decklists_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """Decklists only once the organiser published them: before, 404 (nothing hidden is ever exported)."""
    event = enter(request, doors.PUBLISHED_DECKLISTS, event_id)
    placed = selectors.event_final_standings(event=event)
    return csv_response(
        _event_file(event, "decklists.csv"), ["placing", "player_id", "player", "deck", "decklist"],
        ([p.placing, p.standing.player_id, p.standing.player.display_name, p.archetype or "", p.decklist or ""]
         for p in placed),
    )  # fmt: skip


def limitless_standings(event: Event, placed: list[selectors.PlacedStanding]) -> list[dict]:
    """The standings as Limitless-style consumers parse them: one object per player, by placing."""
    rows = []
    for p in placed:
        s = p.standing
        rows.append(
            {
                "name": s.player.display_name,
                "player": str(s.player_id),
                "placing": p.placing,
                "record": {"wins": s.wins, "losses": s.losses, "ties": s.draws},
                "drop": p.drop,
                "deck": {"name": p.archetype} if p.archetype else {"name": None},
            }
        )
    return rows


def export_standings_json(request: HttpRequest, event_id: int) -> JsonResponse:
    event = enter(request, doors.EVENT, event_id)
    data = limitless_standings(event, selectors.event_final_standings(event=event))
    response = JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'inline; filename="{_event_file(event, "standings.json")}"'
    return response


@login_required
def export_tdf(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event as a TOM ``.tdf`` file, for the staff who see its players' IDs (the file holds them)."""
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    response = HttpResponse(tdf.write(selectors.event_tdf(event=event)), content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=_event_file(event, "event.tdf")
    )
    return response


def export_season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = enter(request, league_doors.SEASON, season_id)
    events, lines = selectors.season_export_rows(season=season)
    header = ["rank", "player_id", "player", "points", "events_played", "events_counted", "average_placing",
              "best_placing", "head_to_head"] + [f"{e.name} ({e.date})" for e in events]  # fmt: skip
    rows = []
    for line in lines:
        per_event = {e["event"]: e for e in line.events}
        cells = []
        for e in events:
            got = per_event.get(e.pk)
            cells.append("" if got is None else f"{got['points']}{'' if got['counted'] else '*'}")
        rows.append([line.rank, line.player_id, line.player.display_name, line.points, line.events_played,
                     line.events_counted, f"{line.average_placing:.2f}", line.best_placing,
                     "yes" if line.head_to_head else "no", *cells])  # fmt: skip
    return csv_response(f"{slugify(season.name) or 'season'}-{season.pk}-standings.csv", header, rows)


SEAT_HEADER = ["format", "table_size", "seat", "tables", "wins", "shared_firsts", "win_rate", "ci95_low",
               "ci95_high", "fair_share", "average_points", "average_placement", "too_small"]  # fmt: skip


def seat_csv_rows(report: seat_stats.Report) -> list[list[Any]]:
    """The seat report's rows as the CSV writes them (and the API's figures, rounded to 4 places)."""
    return [
        [group.format, group.size, f.seat, f.tables, f.wins, f.shared_firsts, f"{f.win_rate:.4f}", f"{f.low:.4f}",
         f"{f.high:.4f}", f"{group.fair_share:.4f}", f"{f.average_points:.4f}", f"{f.average_placement:.4f}",
         "yes" if group.too_small else "no"]
        for group in report.groups for f in group.seats
    ]  # fmt: skip


def export_seats_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    return csv_response(_event_file(event, "seats.csv"), SEAT_HEADER,
                        seat_csv_rows(selectors.event_seat_report(event=event)))  # fmt: skip


def export_season_seats_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = enter(request, league_doors.SEASON, season_id)
    return csv_response(f"{slugify(season.name) or 'season'}-{season.pk}-seats.csv", SEAT_HEADER,
                        seat_csv_rows(selectors.season_seat_report(season=season)))  # fmt: skip


# --- management ----------------------------------------------------------------------------------------


def _manage_page(request: HttpRequest, league: League, *, status: int = 200, **bound: forms.Form) -> HttpResponse:
    seasons = selectors.league_seasons(league=league)
    season = seasons[0] if seasons else None
    context = {
        "league": league, "seasons": seasons, "season": season, "staff": selectors.league_staff(league=league),
        "presets": list(PRESETS.values()),
        "season_form": bound.get("season_form") or SeasonForm(),
        "staff_form": bound.get("staff_form") or StaffForm(),
        "trail": selectors.league_trail(league=league, limit=20)[1],
    }  # fmt: skip
    if season is not None:
        context["points_form"] = bound.get("points_form") or PointsTableForm.for_season(season)
        context["event_form"] = bound.get("event_form") or SeasonEventForm(
            events=selectors.events_addable(season=season, user=request.user)
        )
        context["events"] = selectors.season_events(season=season)
    return render(request, "leagues/manage.html", context, status=status)


@login_required
def league_manage(request: HttpRequest, league_id: int) -> HttpResponse:
    return _manage_page(request, enter(request, league_doors.MANAGED_LEAGUE, league_id))


@login_required
@require_POST
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            league = services.league_create(by=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("%(league)s is created: add its first season.") % {"league": league.name})
            return redirect("leagues:manage", league_id=league.pk)
    return render(
        request, "leagues/league_list.html",
        {"leagues": selectors.league_list(user=request.user), "form": form, "formats": _formats()}, status=422,
    )  # fmt: skip


def _act(
    request: HttpRequest, league: League, form_name: str, form: forms.Form, action: Callable[[dict[str, Any]], str]
) -> HttpResponse:
    if form.is_valid():
        try:
            message = action(form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, message)
            return redirect("leagues:manage", league_id=league.pk)
    return _manage_page(request, league, status=422, **{form_name: form})


@login_required
@require_POST
def season_create(request: HttpRequest, league_id: int) -> HttpResponse:
    league = enter(request, league_doors.MANAGED_LEAGUE, league_id)

    def create(data: dict) -> str:
        season = services.season_create(league=league, by=request.user, **data)
        return _("%(season)s is created.") % {"season": season.name}

    return _act(request, league, "season_form", SeasonForm(request.POST), create)


@login_required
@require_POST
def season_points(request: HttpRequest, league_id: int, season_id: int) -> HttpResponse:
    league = enter(request, league_doors.MANAGED_LEAGUE, league_id)
    season = enter(request, league_doors.SEASON_OF_LEAGUE, league, season_id)

    def update(data: dict) -> str:
        reason = data.pop("reason", "")
        services.season_update(season=season, by=request.user, reason=reason, **data)
        return _("The points table is saved: the season's standings are recomputed.")

    return _act(request, league, "points_form", PointsTableForm(request.POST), update)


@login_required
@require_POST
def season_event_add(request: HttpRequest, league_id: int, season_id: int) -> HttpResponse:
    league = enter(request, league_doors.MANAGED_LEAGUE, league_id)
    season = enter(request, league_doors.SEASON_OF_LEAGUE, league, season_id)
    form = SeasonEventForm(request.POST, events=selectors.events_addable(season=season, user=request.user))

    def add(data: dict) -> str:
        event = enter(request, doors.EVENT, data["event"])
        services.season_event_add(season=season, event=event, by=request.user)
        return _("%(event)s is in %(season)s.") % {"event": event.name, "season": season.name}

    return _act(request, league, "event_form", form, add)


@login_required
@require_POST
def league_staff_add(request: HttpRequest, league_id: int) -> HttpResponse:
    league = enter(request, league_doors.MANAGED_LEAGUE, league_id)

    def add(data: dict) -> str:
        services.league_staff_add(league=league, username=data["user"], role=data["role"], by=request.user)
        role = data["role"].replace("_", "-")
        return _("%(user)s is %(role)s of %(league)s.") % {"user": data["user"], "role": role, "league": league.name}

    return _act(request, league, "staff_form", StaffForm(request.POST), add)


# --- the organiser's names for an event's archetypes ----------------------------------------------------


def _archetypes_page(
    request: HttpRequest, event: Event, *, bound: dict[int, ArchetypeNameForm] | None = None, status: int = 200
) -> HttpResponse:
    """The archetypes page; ``bound``: ``{registration id: form}``, a name that came back with errors."""
    bound = bound or {}
    rows = []
    for row in selectors.event_archetypes(event=event):
        form = bound.get(row.registration.pk)
        if form is None:
            form = ArchetypeNameForm(prefix=f"deck-{row.registration.pk}", initial={"name": row.named or ""})
        rows.append((row, form))
    context = {
        "event": event,
        "rows": rows,
        "renamed": sum(1 for row, _ in rows if row.named),
        "refused": [row.registration for row, form in rows if form.errors],
        "may": policy.may(request.user, event),
    }
    return render(request, "leagues/archetypes.html", context, status=status)


@login_required
def event_archetypes(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every deck of the event with the archetype Podium gives it and the organiser's name for it, if any."""
    return _archetypes_page(request, enter(request, doors.event(Action.MANAGE_DECKS), event_id))


@login_required
@require_POST
def archetype_name(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Name one deck's archetype for the meta report; an empty name gives it Podium's name again."""
    event = enter(request, doors.event(Action.MANAGE_DECKS), event_id)
    registration = enter(request, league_doors.REGISTRATION, event.pk, registration_id)
    form = ArchetypeNameForm(request.POST, prefix=f"deck-{registration.pk}")
    if form.is_valid():
        try:
            named = services.archetype_name_set(
                registration=registration, name=form.cleaned_data["name"], by=request.user
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            player = registration.player.display_name
            if named and event.decklists_public:
                said = _("%(player)s's deck is “%(archetype)s” in the meta report.")
            elif named:
                said = _("%(player)s's deck is “%(archetype)s” in the meta report once the decklists are published.")
            elif event.decklists_public:
                said = _("%(player)s's deck has Podium's name again in the meta report.")
            else:
                said = _(
                    "%(player)s's deck has Podium's name again in the meta report once the decklists are published."
                )
            messages.success(request, said % {"player": player, "archetype": named.name if named else ""})
            return redirect(reverse("leagues:archetypes", args=[event.pk]) + f"#deck-{registration.pk}")
    return _archetypes_page(request, event, bound={registration.pk: form}, status=400)
