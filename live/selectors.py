"""Reads of the live app: what overlays, the caster's page, venue displays and printouts show.

Everything an overlay reads is plain JSON-ready data (dicts and lists), built in a
fixed number of queries; the same builders make the payloads of the live events
(:mod:`live.readers`) and the answers of the API, so a pushed change and a fresh
read look alike.  Private facts (hidden decklists) are in only when the caller
says the reader may see them (``decks_visible``).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from decks.models import DeckVersion
from games.models import Game, GameEvent
from live.models import LiveEvent, LiveStream, OverlayToken, RoundTimer, Station, TableTimeExtension, token_digest
from rules import Format
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Player, Pod, Round, Seat, Standing

#: Standings rows a live event and the snapshot carry (a lower third shows 8, a ticker 16).
STANDINGS_SHOWN = 16


# --- looking up what a URL names ------------------------------------------------------------------------------


def events() -> QuerySet[Event]:
    return Event.objects.select_related("organiser")


def event_by_id(*, event_id: int) -> Event | None:
    return Event.objects.filter(pk=event_id).first()


def stations_of(*, event: Event) -> list[Station]:
    """The event's stations, by slug, with the player on air: one query."""
    return list(Station.objects.filter(event=event).select_related("revealed_player").order_by("slug"))


def station_of(*, event: Event, slug: str) -> Station | None:
    """The event's station ``slug``, or ``None``: one query."""
    return Station.objects.filter(event=event, slug=slug).select_related("revealed_player").first()


def token_of(*, event: Event, key: str | None) -> OverlayToken | None:
    """The event's overlay token with this key, if it has not been revoked: one query by the key's digest (none
    without a key)."""
    if not key:
        return None
    return OverlayToken.objects.filter(event=event, digest=token_digest(key), revoked_at__isnull=True).first()


def token_by_id(*, event: Event, token_id: int) -> OverlayToken | None:
    return OverlayToken.objects.filter(event=event, pk=token_id).first()


def tokens_of(*, event: Event) -> list[OverlayToken]:
    return list(OverlayToken.objects.filter(event=event).select_related("created_by"))


def latest_round(*, event_id: int) -> Round | None:
    return Round.objects.filter(event_id=event_id).select_related("event").order_by("-number").first()


def round_of(*, event: Event, number: int) -> Round | None:
    return Round.objects.filter(event=event, number=number).select_related("event").first()


def round_timer(*, round_: Round) -> RoundTimer | None:
    return RoundTimer.objects.filter(round=round_).first()


def table_of(*, round_: Round, table: int) -> Pod | None:
    return Pod.objects.filter(round=round_, table_number=table).first()


# --- the pieces of every view ----------------------------------------------------------------------------------


def round_info(round_: Round | None, *, tables: int | None = None) -> dict[str, Any] | None:
    if round_ is None:
        return None
    return {
        "number": round_.number,
        "stage": round_.stage,
        "label": tournament_selectors.round_label(round_=round_, tables=tables),
    }


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


def table_extensions(*, pod_ids: Iterable[int]) -> dict[int, int]:
    """``{pod id: seconds of extra time}`` for the tables that have some: one query."""
    rows = (
        TableTimeExtension.objects.filter(pod_id__in=list(pod_ids))
        .values("pod_id")
        .annotate(total=Sum("seconds"))
        .values_list("pod_id", "total")
    )
    return {pod_id: int(total) for pod_id, total in rows}


def table_clock(*, event: Event, round_number: int, pod_id: int) -> dict[str, Any] | None:
    """A player's table clock: the round's clock with the table's extra time, and the live number it is as of
    (the page follows the event's stream from there).  One query."""
    extra = (
        TableTimeExtension.objects.filter(pod_id=pod_id).values("pod_id").annotate(total=Sum("seconds")).values("total")
    )
    seq = LiveStream.objects.filter(event_id=OuterRef("event_id")).values("last_seq")
    round_ = (
        Round.objects.filter(event=event, number=round_number)
        .select_related("timer")
        .annotate(extra=Coalesce(Subquery(extra), 0), seq=Coalesce(Subquery(seq), 0))
        .first()
    )
    if round_ is None:
        return None
    round_.event = event
    timer = getattr(round_, "timer", None)
    return {
        "timer": timer_view(round_, timer, extra_seconds=int(round_.extra)),
        "extension": int(round_.extra),
        "seq": int(round_.seq),
    }


def extensions_of(*, pod: Pod) -> list[TableTimeExtension]:
    return list(TableTimeExtension.objects.filter(pod=pod).select_related("given_by"))


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


def latest_decks(*, event_id: int, player_ids: Iterable[int]) -> dict[int, DeckVersion]:
    """``{player id: latest deck version}`` of these players at the event: one query."""
    latest: dict[int, DeckVersion] = {}
    for version in (
        DeckVersion.objects.filter(registration__event_id=event_id, registration__player_id__in=list(player_ids))
        .select_related("registration")
        .order_by("registration_id", "-number")
    ):
        latest.setdefault(version.registration.player_id, version)
    return latest


def standings_rows(*, event_id: int, limit: int = STANDINGS_SHOWN, one_vs_one: bool = True) -> list[dict[str, Any]]:
    """The first ``limit`` standings as overlays show them: one query."""
    rows = Standing.objects.filter(event_id=event_id).select_related("player").order_by("rank", "player_id")[:limit]
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
    """``{player id: {"active", "out", "placement", "counters"}}`` from a game's state (empty without a game)."""
    return players_in_state(fmt, game.state if game is not None else None)


def players_in_state(fmt: Format, state: Mapping[str, Any] | None) -> dict[int, dict[str, Any]]:
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
    from games.display import entry_summary, label

    spec = fmt.vocabulary.get(type_)
    voided = payload.get("seq") if type_ == "void" else None
    return {
        "seq": seq,
        "type": type_,
        "label": label(type_).capitalize(),
        "summary": entry_summary(spec, payload, names) if type_ != "void" else f"entry #{voided} voided",
    }


# --- a station's feature match -----------------------------------------------------------------------------------


def feature_match(*, station: Station, decks_visible: bool, round_: Round | None = None) -> dict[str, Any]:
    """What a station's overlay shows: its table in the current round, the players in seat order with their
    records, who is active, the format's counters from the game in progress, games won in a best of 3, deck
    names (when ``decks_visible``), the timer and the decklist on air.  About ten queries."""
    event = station.event
    fmt = event.format_spec
    round_ = round_ if round_ is not None else latest_round(event_id=event.pk)
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
    }
    if round_ is None:
        return answer
    answer["round"] = round_info(round_)
    timer = round_timer(round_=round_)
    pod = None
    if station.table_number is not None:
        pod = (
            Pod.objects.filter(round=round_, table_number=station.table_number)
            .select_related("result")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat_order")))
            .first()
        )
    extension = table_extensions(pod_ids=[pod.pk]).get(pod.pk, 0) if pod is not None else 0
    answer["timer"] = timer_view(round_, timer, extra_seconds=extension)
    if pod is None:
        return answer
    seats = list(pod.seats.all())
    ids = [s.player_id for s in seats]
    standings = {s.player_id: s for s in Standing.objects.filter(event=event, player_id__in=ids)}
    games = list(Game.objects.filter(pod=pod).order_by("number"))
    game = games[-1] if games else None
    in_game = players_in_game(fmt, game)
    wins = game_wins(games) if fmt.games_per_match > 1 else {}
    decks = latest_decks(event_id=event.pk, player_ids=ids) if decks_visible else {}
    answer["result"] = getattr(pod, "result", None) is not None
    answer["game"] = game_info(game, fmt)
    answer["players"] = [
        {
            "id": s.player_id,
            "name": s.player.display_name,
            "seat": s.seat_order,
            "seed": s.cut_seed,
            "record": record_of(standings.get(s.player_id), one_vs_one=event.is_one_vs_one),
            "game_wins": wins.get(s.player_id, 0) if fmt.games_per_match > 1 else None,
            "deck": deck_name(decks[s.player_id].roles) if s.player_id in decks else None,
            "placement": s.placement,
            **in_game.get(s.player_id, {"active": False, "out": False, "counters": []}),
        }
        for s in seats
    ]
    if game is not None and game.version:
        entry = GameEvent.objects.filter(game=game, seq=game.version).first()
        if entry is not None:
            names = {s.player_id: s.player.display_name for s in seats}
            answer["last_entry"] = entry_info(entry, fmt, names)
    on_air = station.revealed_player_id
    if on_air is not None and decks_visible:
        version = decks.get(on_air) or latest_decks(event_id=event.pk, player_ids=[on_air]).get(on_air)
        if version is not None:
            named = {s.player_id: s.player.display_name for s in seats}
            if on_air not in named:
                named = players_named(ids=[on_air])
            answer["decklist"] = {
                "player": on_air, "name": named.get(on_air), "deck": deck_name(version.roles),
                "decklist": version.decklist,
            }  # fmt: skip
    elif on_air is not None:
        answer["decklist"] = {"player": on_air, "name": None, "deck": None, "decklist": None, "hidden": True}
    return answer


def stations_on_table(*, event_id: int, round_number: int, table: int | None) -> list[str]:
    """The slugs of the stations pointed at this table, when the round is the current one: one query (two when
    a station points at it)."""
    if table is None:
        return []
    slugs = list(Station.objects.filter(event_id=event_id, table_number=table).values_list("slug", flat=True))
    if not slugs:
        return []
    latest = Round.objects.filter(event_id=event_id).order_by("-number").values_list("number", flat=True).first()
    return slugs if latest == round_number else []


# --- the whole event ------------------------------------------------------------------------------------------------


def round_tables(*, round_: Round) -> list[dict[str, Any]]:
    """The round's tables (byes last) as the pairings overlay and the venue display show them: two queries."""
    pods = tournament_selectors.round_pods(round_=round_)
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


def bracket_data(*, event: Event) -> dict[str, Any] | None:
    bracket = tournament_selectors.top_cut_bracket(event=event)
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


def last_seq(*, event_id: int) -> int:
    return LiveStream.objects.filter(event_id=event_id).values_list("last_seq", flat=True).first() or 0


def event_snapshot(*, event: Event) -> dict[str, Any]:
    """Everything the event's overlays and screens show, at once: the current round and its tables, the timer,
    the first standings, the stations, the bracket, and the live number it is as of.  About twelve queries."""
    seq = last_seq(event_id=event.pk)
    round_ = latest_round(event_id=event.pk)
    tables = round_tables(round_=round_) if round_ is not None else []
    timer = round_timer(round_=round_) if round_ is not None else None
    return {
        "seq": seq,
        "event": {
            "id": event.pk,
            "name": event.name,
            "format": event.format,
            "format_name": event.format_spec.name,
            "status": event.status,
            "venue": event.venue,
            "one_vs_one": event.is_one_vs_one,
        },  # fmt: skip
        "round": round_info(round_, tables=sum(1 for t in tables if not t["bye"])),
        "tables": tables,
        "timer": timer_view(round_, timer),
        "standings": standings_rows(event_id=event.pk, one_vs_one=event.is_one_vs_one),
        "standings_current": event.standings_current,
        "stations": [{"slug": s.slug, "name": s.name, "table": s.table_number} for s in stations_of(event=event)],
        "bracket": bracket_data(event=event),
    }


def station_snapshot(*, station: Station) -> dict[str, Any]:
    """What a station's stream starts with (or a client too far behind): its feature match, as anyone sees it."""
    return {"seq": last_seq(event_id=station.event_id), **feature_match(station=station, decks_visible=False)}


# --- the live log -------------------------------------------------------------------------------------------------


def live_events_after(*, event_id: int, seq: int, limit: int) -> list[LiveEvent]:
    """The event's numbered live events after ``seq``, oldest first, at most ``limit``: one query."""
    return list(LiveEvent.objects.filter(event_id=event_id, seq__gt=seq).order_by("seq")[:limit])


def first_kept_seq(*, event_id: int) -> int | None:
    return (
        LiveEvent.objects.filter(event_id=event_id, seq__isnull=False)
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )


def players_named(*, ids: Iterable[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=list(ids)).values_list("pk", "display_name"))
