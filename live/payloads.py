"""The live payloads: what overlays, the caster's page, venue displays, printouts and live events show.

Every payload is plain JSON-ready data (dicts and lists), built in two steps: its facts are read by
:mod:`live.selectors` (and the tournaments, decks and games selectors) in a fixed number of queries, then shaped
here by a function that runs none.  The same functions make the payloads of the live events
(:mod:`live.readers`) and the answers of the API, so a pushed change and a fresh read look alike.  Private facts
(hidden decklists) are in only when the facts were read for a reader who may see them (``decks_visible``).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from games.models import Game, GameEvent
from rules import Format

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from live.models import RoundTimer
    from live.selectors import ClockFigures, FeatureMatch, Snapshot
    from tournaments.models import Pod, Round, Standing
    from tournaments.selectors import Bracket


def round_info(round_: Round | None, label: str) -> dict[str, Any] | None:
    """A round as overlays name it; ``label``: as :func:`tournaments.selectors.round_label` reads it."""
    if round_ is None:
        return None
    return {"number": round_.number, "stage": round_.stage, "label": label}


def timer_view(
    round_: Round | None, timer: RoundTimer | None, *, extra_seconds: int = 0, now: datetime.datetime | None = None
) -> dict[str, Any] | None:
    """The round's clock as overlays count it down: the deadline once, and the server's time to correct the
    viewer's clock by.  ``extra_seconds``: a table's extensions (its own deadline is that much later).

    ``state``: ``not_started``, ``running``, ``paused``, or ``finished`` once every table of the round has its
    result (``Round.completed_at``): the clock has stopped, wherever it stood, and counts nothing down."""
    if round_ is None:
        return None
    now = now or timezone.now()
    procedure = round_.event.format_spec.time_called
    base: dict[str, Any] = {
        "round": round_.number,
        "server_time": now.isoformat(),
        "procedure": procedure.procedure if procedure else None,
        "extra_turns": procedure.extra_turns if procedure else None,
        "extension": extra_seconds,
    }
    if round_.completed_at is not None:
        return {**base, "state": "finished", "deadline": None, "remaining": None,
                "duration": timer.duration_seconds if timer is not None else None, "time_up": False}  # fmt: skip
    if timer is None:
        return {**base, "state": "not_started", "deadline": None, "remaining": None, "duration": None,
                "time_up": False}  # fmt: skip
    remaining = timer.remaining(now) + extra_seconds
    deadline = timer.deadline + datetime.timedelta(seconds=extra_seconds) if timer.deadline else None
    return {
        **base,
        "state": "paused" if timer.paused else "running",
        "deadline": deadline.isoformat() if deadline else None,
        "remaining": remaining,
        "duration": timer.duration_seconds,
        "time_up": remaining <= 0,
    }


def table_clock(round_: WithAnnotations[Round, ClockFigures] | None) -> dict[str, Any] | None:
    """A player's table clock, from the round :func:`live.selectors.round_clock` read: the round's clock with the
    table's extra time, and the live number it is as of (the page follows the event's stream from there)."""
    if round_ is None:
        return None
    timer = getattr(round_, "timer", None)
    return {
        "timer": timer_view(round_, timer, extra_seconds=int(round_.extra)),
        "extension": int(round_.extra),
        "seq": int(round_.seq),
    }


def record_of(standing: Standing | None, *, one_vs_one: bool) -> str:
    """A player's record as an overlay shows it: ``3-1-0`` (1v1), ``7 pts`` (pods)."""
    if standing is None:
        return "0-0-0" if one_vs_one else "0 pts"
    if one_vs_one:
        return f"{standing.wins}-{standing.losses}-{standing.draws}"
    return f"{standing.points} pts"


def deck_name(roles: Mapping[str, Any] | None) -> str | None:
    """A deck as overlays name it: its key cards (the roles chosen when it was registered), or ``None``."""
    names = [str(v).strip() for v in (roles or {}).values() if isinstance(v, str) and v.strip()]
    return " · ".join(names) or None


def standings_rows(rows: Iterable[Standing], *, one_vs_one: bool = True) -> list[dict[str, Any]]:
    """Standings rows (read in the standings order, with their players) as overlays show them."""
    return [
        {"rank": s.rank, "player": s.player_id, "name": s.player.display_name, "points": s.points,
         "record": record_of(s, one_vs_one=one_vs_one), "dropped": s.dropped}
        for s in rows
    ]  # fmt: skip


def game_wins(games: list[Game]) -> dict[int, int]:
    """Games won by each player in a match's finished games (a drawn game counts for nobody)."""
    wins: dict[int, int] = defaultdict(int)
    for game in games:
        result = (game.state or {}).get("result") or {}
        placements = result.get("placements") or {}
        winners = [pid for pid, place in placements.items() if place == 1]
        if game.status == Game.Status.FINISHED and len(winners) == 1:
            wins[int(winners[0])] += 1
    return wins


def players_in_game(fmt: Format, game: Game | None) -> dict[int, dict[str, Any]]:
    """``{player id: {"active", "out", "placement", "counters", "status_conditions"}}`` from a game's state (empty
    without a game)."""
    return players_in_state(fmt, game.state if game is not None else None)


def players_in_state(fmt: Format, state: dict[str, Any] | None) -> dict[int, dict[str, Any]]:
    """:func:`players_in_game` from the state itself."""
    if state is None:
        return {}
    active = fmt.turn_of(state) if state.get("status") != "finished" else None
    shown = {}
    for p in state.get("players", []):
        shown[int(p["id"])] = {
            "active": p["id"] == active,
            "out": bool(p.get("out")),
            "placement": p.get("placement"),
            "counters": [
                {"name": c.name, "label": c.label, "value": c.read(p)} for c in fmt.counters if c.read(p) is not None
            ],
            "status_conditions": list(fmt.status_conditions(p)),
        }
    return shown


def game_info(game: Game | None, fmt: Format) -> dict[str, Any] | None:
    if game is None:
        return None
    return game_facts(fmt, game_id=game.pk, number=game.number, status=game.status, version=game.version,
                      state=game.state or {})  # fmt: skip


def game_facts(
    fmt: Format, *, game_id: int, number: int, status: str, version: int, state: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        "id": game_id,
        "number": number,
        "status": status,
        "version": version,
        "turn": (state.get("turn") or {}).get("number"),
        "best_of": fmt.games_per_match,
    }


def entry_info(entry: GameEvent, fmt: Format, names: Mapping[int, str]) -> dict[str, Any]:
    """A log entry as an overlay's caption reads it: ``LP changes: Kaiba −1800``."""
    return entry_facts(fmt, seq=entry.seq, type_=entry.type, payload=entry.payload, names=names)


def entry_facts(
    fmt: Format, *, seq: int, type_: str, payload: Mapping[str, Any], names: Mapping[int, str]
) -> dict[str, Any]:
    from games.display import entry_summary

    spec = fmt.vocabulary.get(type_)
    voided = payload.get("seq") if type_ == "void" else None
    return {
        "seq": seq,
        "type": type_,
        "label": type_.replace("_", " ").capitalize(),  # English: a push goes to viewers of every language
        "summary": entry_summary(spec, payload, names) if type_ != "void" else f"entry #{voided} voided",
    }


# --- a station's feature match -----------------------------------------------------------------------------------


def feature_match(match: FeatureMatch) -> dict[str, Any]:
    """What a station's overlay shows (read by :func:`live.selectors.feature_match`): its table in the current
    round, the players in seat order with their records, who is active, the format's counters and the Status
    Conditions on their Creatures from the game in progress, games won in a best of 3, deck names (when the decks were visible to the reader), the timer and the
    decklist on air.  ``withheld``: a player at the station's table opted out of being streamed, and only the
    round and its clock are given."""
    station = match.station
    event = station.event
    fmt = event.format_spec
    answer: dict[str, Any] = {
        "station": {"slug": station.slug, "name": station.name},
        "event": {"id": event.pk, "name": event.name, "format": event.format, "format_name": fmt.name},
        "round": None,
        "table": station.table_number,
        "players": [],
        "game": None,
        "last_entry": None,
        "result": False,
        "timer": None,
        "decklist": None,
        "withheld": match.withheld,
    }
    round_ = match.round_
    if round_ is None:
        return answer
    answer["round"] = round_info(round_, match.label)
    answer["timer"] = timer_view(round_, match.timer, extra_seconds=match.extension)
    if match.withheld:  # a player there opted out of being streamed: the round and its clock, no table, no decklist
        return answer
    pod = match.pod
    if pod is None:
        return answer
    seats = match.seats
    games = match.games
    game = games[-1] if games else None
    in_game = players_in_game(fmt, game)
    wins = game_wins(games) if fmt.games_per_match > 1 else {}
    decks = match.decks
    answer["result"] = getattr(pod, "result", None) is not None
    answer["game"] = game_info(game, fmt)
    answer["players"] = [
        {
            "id": s.player_id,
            "name": s.player.display_name,
            "seat": s.seat_order,
            "seed": s.cut_seed,
            "record": record_of(match.standings.get(s.player_id), one_vs_one=event.is_one_vs_one),
            "game_wins": wins.get(s.player_id, 0) if fmt.games_per_match > 1 else None,
            "deck": deck_name(decks[s.player_id].roles) if s.player_id in decks else None,
            "placement": s.placement,
            **in_game.get(s.player_id, {"active": False, "out": False, "counters": [], "status_conditions": []}),
        }
        for s in seats
    ]
    if match.last_entry is not None:
        names = {s.player_id: s.player.display_name for s in seats}
        answer["last_entry"] = entry_info(match.last_entry, fmt, names)
    on_air = station.revealed_player_id
    if on_air is not None and match.decks_visible:
        version = match.on_air
        if version is not None:
            answer["decklist"] = {
                "player": on_air, "name": match.on_air_name, "deck": deck_name(version.roles),
                "decklist": version.decklist,
            }  # fmt: skip
    elif on_air is not None:
        answer["decklist"] = {"player": on_air, "name": None, "deck": None, "decklist": None, "hidden": True}
    return answer


# --- the whole event ------------------------------------------------------------------------------------------------


def round_tables(pods: Iterable[Pod]) -> list[dict[str, Any]]:
    """A round's tables (read by :func:`tournaments.selectors.round_pods`: byes last, with their seats, players and
    results) as the pairings overlay and the venue display show them."""
    return [
        {
            "table": pod.table_number,
            "bye": pod.is_bye,
            "result": getattr(pod, "result", None) is not None,
            "players": [
                {"id": s.player_id, "name": s.player.display_name, "seat": s.seat_order, "placement": s.placement}
                for s in pod.seats.all()
            ],
        }
        for pod in pods
    ]


def bracket_data(bracket: Bracket | None) -> dict[str, Any] | None:
    """The top cut (read by :func:`tournaments.selectors.top_cut_bracket`) as overlays and printouts show it."""
    if bracket is None:
        return None
    return {
        "size": bracket.size,
        "pods": bracket.pods,
        "complete": bracket.complete,
        "rounds": [
            {
                "number": r.number,
                "label": r.label,
                "tables": [
                    {
                        "number": t.number,
                        "decided": t.decided,
                        "to_come": t.to_come,
                        "fed_by": t.fed_by,
                        "seats": [
                            {
                                "seed": s.seed,
                                "player": s.player_id,
                                "name": s.name,
                                "placement": s.placement,
                                "games_won": s.games_won,
                                "won": s.won,
                            }
                            for s in t.seats
                        ],
                    }  # fmt: skip
                    for t in r.tables
                ],
            }
            for r in bracket.rounds
        ],
        "placements": [
            {"place": p.place, "label": p.label, "player": p.player_id, "name": p.name, "seed": p.seed}
            for p in bracket.placements
        ],
    }


def event_snapshot(snapshot: Snapshot) -> dict[str, Any]:
    """Everything the event's overlays and screens show, at once (read by :func:`live.selectors.event_snapshot`):
    the current round and its tables, the timer, the first standings, the stations, the bracket, and the live
    number it is as of."""
    event = snapshot.event
    round_ = snapshot.round_
    return {
        "seq": snapshot.seq,
        "event": {
            "id": event.pk,
            "name": event.name,
            "format": event.format,
            "format_name": event.format_spec.name,
            "status": event.status,
            "venue": event.venue,
            "one_vs_one": event.is_one_vs_one,
        },  # fmt: skip
        "round": round_info(round_, snapshot.label),
        "tables": round_tables(snapshot.pods),
        "timer": timer_view(round_, snapshot.timer),
        "standings": standings_rows(snapshot.standings, one_vs_one=event.is_one_vs_one),
        "standings_current": event.standings_current,
        "stations": [  # a withheld table (a player there opted out of being streamed) is no station's
            {"slug": s.slug, "name": s.name, "table": None if s.table_number in snapshot.withheld else s.table_number}
            for s in snapshot.stations
        ],
        "bracket": bracket_data(snapshot.bracket),
    }


def station_snapshot(*, seq: int, match: FeatureMatch) -> dict[str, Any]:
    """What a station's stream starts with (or a client too far behind): its feature match, as anyone sees it (read
    with ``decks_visible=False``), and the live number it is as of."""
    return {"seq": seq, **feature_match(match)}
