"""The judge console: the pages a judge or scorekeeper records a game on, at the table or at a desk.

*table page*
    One table of a round: its seats, its games (the duels of a Deck Masters match) and the button
    that starts the next one.
*console*
    One game: every player's state in turn order (by name; the Deck Master as its card and where it
    is) with the format's one-tap entries on each player's card (``QUICK_ENTRIES``), the format's
    event forms built from the engine's typed ``VOCABULARY`` (turn events first, the format's own,
    then the judge actions common to every format), and the event log newest first with a void
    button on each live entry.  Whatever it says about players, it says with their names
    (:mod:`games.display`): the engine's refusals, the log, the notices.

The views hold no rules: every write is one service call (``game_create``, ``game_event_append``,
``game_event_void``) and a refusal is shown with its code and rulebook section.  Each form names
the game version it was rendered at (a one-tap button is a form too, posting the fields its entry's
form would); a stale one is refused by the service and the console is shown again at the current
state.  With htmx a form swaps the ``#console`` panel in place (a refusal is
swapped too, so the judge sees it: 422, or 409 when stale); without JavaScript a form posts and
redirects.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from core.htmx import HtmxHttpRequest
from games import display, selectors, services
from games import doors as game_doors
from games.forms import GameEventForm, VoidForm, label, post_fields
from games.models import Game
from rules import Format
from rules.engine import COMMON_VOCABULARY, EventSpec, QuickEntry, When
from rules.speech import say
from tournaments import doors
from tournaments.models import Pod
from tournaments.policy import Action

#: Shown first, in this order, when the format has them.
TURN_EVENTS: tuple[str, ...] = ("start_turn", "phase", "end_turn")
#: Top-level state keys the console shows in their own place (or not at all: ``seq`` is ``version``).
_SHOWN_APART = frozenset({"players", "status", "turn", "result", "notes", "seq"})
#: Player keys shown in the card's heading rather than in its list.
_PLAYER_APART = frozenset({"id", "out", "placement", "out_reason"})


# --- loading and permissions ---------------------------------------------------------------------


# --- presentation helpers ------------------------------------------------------------------------


def _turn(fmt: Format, state: dict[str, Any]) -> tuple[int | None, bool, int | None]:
    """``(turn player, whether their turn is under way, the player who starts the next turn)``.

    Only a default for the forms' player choices: the engine decides whose turn it really is.
    The format says whose turn is under way (``fmt.turn_of``); ``turn.player`` (the engine
    contract) is the last player to take a turn when none is under way.
    """
    turn = state.get("turn") or {}
    current = turn.get("player")
    active = current is not None and fmt.turn_of(state) is not None
    order = [p["id"] for p in state.get("players", [])]
    if not order:
        return current, active, None
    start = order.index(current) + 1 if current in order else int(turn.get("number") or 0)
    upcoming = None
    for step in range(len(order)):
        p = state["players"][(start + step) % len(order)]
        if not p.get("out"):
            upcoming = p["id"]
            break
    return current, active, upcoming


def _next_after(state: dict[str, Any], pid: int | None) -> int | None:
    """The next player still in after ``pid``: a sensible default target or partner."""
    players = state.get("players", [])
    ids = [p["id"] for p in players]
    if pid not in ids:
        return None
    start = ids.index(pid)
    for step in range(1, len(players)):
        p = players[(start + step) % len(players)]
        if not p.get("out"):
            return p["id"]
    return None


def _placements(game: Game, names: dict[int, str]) -> list[dict[str, Any]]:
    players = [p for p in game.state.get("players", []) if p.get("placement") is not None]
    return [
        {"placement": p["placement"], "name": names.get(p["id"], str(p["id"])), "id": p["id"]}
        for p in sorted(players, key=lambda p: p["placement"])
    ]


def _next_game(pod: Pod, games: list[Game], fmt: Format, has_result: bool) -> str | None:
    """The label of the button that starts the table's next game, or ``None`` when there is none."""
    if pod.is_bye or has_result:
        return None
    if not games:
        return _("Start game")
    if fmt.games_per_match == 1 or any(g.status != Game.Status.FINISHED for g in games):
        return None
    if fmt.match_result is None:
        return None
    try:
        undecided = fmt.match_result([g.state["result"] for g in games]) is None
    except (KeyError, TypeError, ValueError):
        return None
    return _("Start next duel") if undecided else None


# --- the table page -------------------------------------------------------------------------------


@login_required
def console_table(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    event = enter(request, doors.event(Action.RECORD_GAMES), event_id)
    pod = enter(request, game_doors.TABLE, event.pk, number, table)
    seats = selectors.table_seats(pod=pod)
    games = selectors.table_games(pod=pod)
    names = {s.player_id: s.player.display_name for s in seats}
    has_result = selectors.table_has_result(pod_id=pod.pk)
    rows = [{"game": g, "placements": _placements(g, names)} for g in games]
    fmt = event.format_spec
    next_game = _next_game(pod, games, fmt, has_result)
    deck_masters = []
    if next_game and "deck_master" in fmt.deck_roles:
        # The judge may name (or change) each player's Deck Master: the last duel's come first, else the registered
        # deck's.
        chosen = selectors.next_duel_deck_masters(event=event, players=names, games=games)
        deck_masters = [(s, chosen.get(str(s.player_id), "")) for s in seats]
    context = {
        "event": event,
        "round": pod.round,
        "pod": pod,
        "seats": seats,
        "games": rows,
        "has_result": has_result,
        "next_game": next_game,
        "deck_masters": deck_masters,
        "format": fmt,
    }
    return render(request, "games/table.html", context)


@login_required
@require_POST
def console_create(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    event = enter(request, doors.event(Action.RECORD_GAMES), event_id)
    pod = enter(request, game_doors.TABLE, event.pk, number, table)
    options = {}
    named = {
        str(pid): request.POST[f"deck_master_{pid}"].strip()[:200]
        for pid in selectors.table_player_ids(pod=pod)
        if request.POST.get(f"deck_master_{pid}", "").strip()
    }
    if named and "deck_master" in event.format_spec.deck_roles:
        options["deck_masters"] = named
    try:
        game = services.game_create(pod=pod, by=request.user, options=options)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("games:console-table", event_id=event.pk, number=number, table=table)
    return redirect("games:console", game_id=game.pk)


# --- the console ---------------------------------------------------------------------------------


def _alert(
    exc: ApplicationError, names: dict[int, str], spec: EventSpec | None = None, *, kind: str = "refused"
) -> dict[str, Any]:
    """A refusal as the judge reads it: the engine's message with names for ids, its code and rule."""
    said = say(exc.phrase, names) if exc.phrase is not None else exc.message
    message = display.with_names(said, names, spec)
    return {"kind": kind, "message": message, "code": exc.code, "rule": exc.extra.get("rule")}


def _offered(quick: QuickEntry, p: dict[str, Any], current: int | None, active: bool, upcoming: int | None) -> bool:
    """Whether ``quick`` is offered on player ``p``'s card in this state (the engine still decides)."""
    if p.get("out") or (quick.needs and not p.get(quick.needs)):
        return False
    if quick.uses_turn_player and (not active or current is None):
        return False
    pid = p["id"]
    match quick.when:
        case When.IN_A_TURN:
            return active
        case When.BETWEEN_TURNS:
            return not active
        case When.THEIR_TURN:
            return active and current == pid
        case When.PLAYS_NEXT:
            return not active and upcoming == pid
        case When.OTHER_TURN:
            return active and current is not None and current != pid
    return True


def _quick_buttons(
    game: Game, p: dict[str, Any], names: dict[int, str], turn: tuple[int | None, bool, int | None]
) -> list[dict[str, Any]]:
    """The one-tap buttons of player ``p``'s card: each posts a complete entry, like its form would."""
    engine = game.format_spec.engine
    current, active, upcoming = turn
    buttons = []
    for quick in engine.QUICK_ENTRIES:
        if not _offered(quick, p, current, active, upcoming):
            continue
        data = quick.entry(player=p["id"], turn_player=current)
        turn_name = names.get(current, _("the turn player")) if current is not None else ""
        text = say(quick.label).replace("{turn}", turn_name)
        buttons.append(
            {
                "key": quick.key,
                "type": quick.type,
                "label": text,
                "fields": post_fields(engine.VOCABULARY[quick.type], data),
                "summary": display.entry_summary(engine.VOCABULARY[quick.type], data, names),
            }
        )
    return buttons


def _tags(state: dict[str, Any], sources: set[str]) -> dict[str, list[str]]:
    """The tags in play for each ``tag`` field's source: the keys of that mapping in every player's state."""
    return {
        source: sorted({str(k) for p in state.get("players", []) for k in (p.get(source) or {})}) for source in sources
    }


def _console_context(
    game: Game,
    *,
    bound: GameEventForm | None = None,
    alert: dict[str, Any] | None = None,
    notice: str | None = None,
    open_type: str | None = None,
) -> dict[str, Any]:
    event = game.pod.round.event
    fmt = game.format_spec
    engine = fmt.engine
    state = game.state
    names = selectors.player_names(ids=list(game.players))
    finished = game.status == Game.Status.FINISHED
    # Closed unfinished: the table's result was recorded by hand (games_supersede); no entry is taken any more.
    closed = game.status == Game.Status.SUPERSEDED
    turn_now = _turn(fmt, state)
    current, active, upcoming = turn_now
    focus = None if finished or closed else (current if active else upcoming)

    players = []
    for p in state.get("players", []):
        players.append(
            {
                "id": p["id"],
                "name": names.get(p["id"], _("Player %(id)s") % {"id": p["id"]}),
                "out": p.get("out", False),
                "out_reason": p.get("out_reason"),
                "placement": p.get("placement"),
                "focus": p["id"] == focus,
                "attrs": display.state_rows(((k, v) for k, v in p.items() if k not in _PLAYER_APART), names),
                "quick": [] if finished or closed else _quick_buttons(game, p, names, turn_now),
            }
        )

    turn = dict(state.get("turn") or {})
    turn_info = {
        "number": turn.pop("number", None),
        "player": names.get(turn.pop("player", None)),
        "active": active,
        "attrs": display.state_rows(turn.items(), names, prefix="turn "),
    }
    extra = display.state_rows(((k, v) for k, v in state.items() if k not in _SHOWN_APART), names)
    notes = [
        {"seq": n.get("seq"), "text": n.get("text"), "player": names.get(n.get("player"))}
        for n in state.get("notes", [])
    ]

    choices = [(pid, names[pid]) for pid in game.players]
    still_in = {p["id"] for p in state.get("players", []) if not p.get("out")}
    sources = {f.source for spec in engine.VOCABULARY.values() for f in spec.fields.values() if f.source}
    tags = _tags(state, sources)
    opponent = _next_after(state, focus)
    forms: dict[str, GameEventForm] = {}
    for type_, spec in engine.VOCABULARY.items():
        if finished and type_ != "ruling_note":
            continue  # a note is the only entry a finished game takes
        if bound is not None and bound.spec.type == type_:
            forms[type_] = bound  # a closed game shows only the refused form, with why
        elif closed:
            continue
        else:
            forms[type_] = GameEventForm(
                spec=spec,
                players=choices,
                still_in=still_in,
                default_player=focus,
                default_opponent=opponent,
                version=game.version,
                tags=tags,
            )
    turn_forms = [forms[t] for t in TURN_EVENTS if t in forms]
    judge_forms = [f for t, f in forms.items() if t in COMMON_VOCABULARY]
    own_forms = [f for t, f in forms.items() if t not in COMMON_VOCABULARY and t not in TURN_EVENTS]
    groups = [
        {"title": pgettext("heading of the console's turn entries", "Turn"), "forms": turn_forms, "judge": False, "open": True},
        {"title": fmt.name, "forms": own_forms, "judge": False, "open": finished},
        {"title": "Judge", "forms": judge_forms, "judge": True, "open": finished},
    ]

    has_result = selectors.table_has_result(pod_id=game.pod_id)
    entries = []
    for e in selectors.game_log(game=game):
        void = e.voided_by
        entries.append(
            {
                "seq": e.seq,
                "type": e.type,
                "label": label(e.type),
                "summary": (
                    f"voids #{e.payload.get('seq')}: {e.payload.get('reason', '')}"
                    if e.type == "void"
                    else display.entry_summary(engine.VOCABULARY.get(e.type), e.payload, names)
                ),
                "recorded_by": e.recorded_by.username if e.recorded_by else "—",
                "recorded_at": e.recorded_at,
                "is_void": e.type == "void",
                "voided": void is not None,
                "voided_seq": void.seq if void else None,
                "voided_by": void.recorded_by.username if void and void.recorded_by else None,
                "void_reason": void.payload.get("reason") if void else None,
                "can_void": void is None and e.type != "void" and not has_result and not closed,
            }
        )

    games = selectors.table_games(pod=game.pod) if fmt.games_per_match > 1 else [game]
    next_game = _next_game(game.pod, games, fmt, has_result) if finished else None
    # The next duel starts with the Deck Masters named for this one (game_create): say which.
    named = (games[-1].options.get("deck_masters") or {}) if next_game and "deck_master" in fmt.deck_roles else {}
    carried = [(names.get(int(pid), _("Player %(id)s") % {"id": pid}), card) for pid, card in named.items() if card]
    reason = (state.get("result") or {}).get("reason")
    return {
        "game": game,
        "event": event,
        "round": game.pod.round,
        "pod": game.pod,
        "format": fmt,
        "players": players,
        "turn": turn_info,
        "extra": extra,
        "notes": notes,
        "groups": [g for g in groups if g["forms"]],
        "entries": entries,
        "finished": finished,
        "closed": closed,
        "result_reason": display.with_names(reason, names) if reason else None,
        "placements": _placements(game, names) if finished else [],
        "has_result": has_result,
        "next_game": next_game,
        "deck_masters_carried": carried,
        "alert": alert,
        "alert_type": bound.spec.type if bound is not None and alert else None,
        "open_type": bound.spec.type if bound is not None else open_type,
        "notice": notice,
    }


def _render_console(request: HtmxHttpRequest, game: Game, *, status: int = 200, **kwargs: Any) -> HttpResponse:
    if not request.htmx:
        return render(request, "games/console.html", _console_context(game, **kwargs), status=status)
    # htmx gets the panel.  A refusal is 422, not 400/404: django-htmx's debug script replaces the
    # whole page with any 400/403/404/500 answer to an htmx request, and the panel swaps 409 and 422.
    if status >= 400 and status != 409:
        status = 422
    return render(request, "games/_console.html", _console_context(game, **kwargs), status=status)


def _recorded(request: HtmxHttpRequest, game: Game, notice: str, *, type_: str | None = None) -> HttpResponse:
    """The answer to a recorded entry: the console again, with the form just used still open."""
    if request.htmx:
        return _render_console(request, game, notice=notice, open_type=type_)
    messages.success(request, notice)
    url = reverse("games:console", kwargs={"game_id": game.pk})
    return redirect(f"{url}?open={type_}#event-{type_}" if type_ else url)


@login_required
def console(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _render_console(
        request, enter(request, game_doors.RECORDED_GAME, game_id), open_type=request.GET.get("open")
    )


def _event_form(game: Game, spec: EventSpec, data: QueryDict, names: dict[int, str]) -> GameEventForm:
    still_in = {p["id"] for p in game.state.get("players", []) if not p.get("out")}
    return GameEventForm(data, spec=spec, players=[(pid, names[pid]) for pid in game.players], still_in=still_in)


@login_required
@require_POST
def console_append(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Record one entry from an event form or a one-tap button (``quick``: the form stays closed)."""
    game = enter(request, game_doors.RECORDED_GAME, game_id)
    spec = game.format_spec.vocabulary.get(request.POST.get("type", ""))
    if spec is None:
        alert = {"kind": "refused", "message": _("Choose one of the format's events."), "code": "unknown_event"}
        return _render_console(request, game, status=400, alert=alert)
    names = selectors.player_names(ids=list(game.players))
    quick = bool(request.POST.get("quick"))
    form = _event_form(game, spec, request.POST, names)
    if not form.is_valid():
        alert = {
            "kind": "invalid",
            "message": _("Check the %(entry)s entry.") % {"entry": label(spec.type)} + " " + form.error_summary(),
        }
        return _render_console(request, game, status=400, bound=form, alert=alert)
    try:
        game, entry = services.game_event_append(
            game=game,
            expected_version=form.cleaned_data["expected_version"],
            type=spec.type,
            data=form.payload,
            by=request.user,
        )
    except services.StaleVersion as exc:
        game = selectors.game_refreshed(game=game)
        # Keep what the judge typed, at the current version: they look at the state, then resubmit.
        data = request.POST.copy()
        data["expected_version"] = str(game.version)
        again = _event_form(game, spec, data, names)
        again.is_valid()
        alert = _alert(exc, names, spec, kind="stale")
        return _render_console(request, game, status=exc.status_code, bound=again, alert=alert)
    except ApplicationError as exc:
        return _render_console(request, game, status=exc.status_code, bound=form, alert=_alert(exc, names, spec))
    summary = display.entry_summary(spec, entry.payload, names)
    what = {"entry": entry.seq, "type": label(entry.type), "summary": summary}
    notice = (
        _("Recorded #%(entry)s: %(type)s — %(summary)s.") % what
        if summary
        else _("Recorded #%(entry)s: %(type)s.") % what
    )
    return _recorded(request, game, notice, type_=None if quick else spec.type)


@login_required
@require_POST
def console_void(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = enter(request, game_doors.RECORDED_GAME, game_id)
    names = selectors.player_names(ids=list(game.players))
    form = VoidForm(request.POST)
    if not form.is_valid():
        message = (
            _("Say why entry #%(entry)s is void.") % {"entry": seq}
            if "reason" in form.errors
            else _("Reload the console and try again.")
        )
        alert = {"kind": "invalid", "message": message}
        return _render_console(request, game, status=400, alert=alert)
    try:
        game, entry = services.game_event_void(
            game=game,
            expected_version=form.cleaned_data["expected_version"],
            seq=seq,
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except services.StaleVersion as exc:
        game = selectors.game_refreshed(game=game)
        return _render_console(request, game, status=exc.status_code, alert=_alert(exc, names, kind="stale"))
    except ApplicationError as exc:
        return _render_console(request, game, status=exc.status_code, alert=_alert(exc, names))
    return _recorded(request, game, _("Entry #%(entry)s is void (#%(void)s).") % {"entry": seq, "void": entry.seq})
