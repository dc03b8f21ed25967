"""State changes of the games app: creating games, appending and voiding log entries.

``game_event_append`` is the one write path for a judge's entry: it locks the
game row, refuses a stale client (the version it last saw is not the current
one: HTTP 409 with the current state), lets the format's engine apply the
event (a refusal becomes a 400 carrying the rule's ``code`` and ``rule``), and
stores the entry with the new snapshot.  When the game (or a best-of-3 match)
ends, its placements become the table's result through
:func:`tournaments.services.pod_result_report`, in the same transaction,
reported by the judge who recorded the entry that ended it: an entry whose
result the table would refuse (a top-cut table needs one winner) is refused
itself, and nothing is stored.  The result's domain event updates the
standings; each entry and void is a domain event too (``game.entry_recorded``,
``game.entry_voided``) for the readers that follow games (:mod:`core.events`).
A result recorded by hand (staff, or a report its players confirmed) while a
game of the table is in progress closes that game (``superseded``,
:func:`games_supersede`): it takes no more entries nor voids.

Every event handed to an engine carries its log number (``seq``), on append and
on replay, so what the state cites (a ruling note's number) is the number the
log and the API show, also after a void.  A Deck Masters duel starts with each
player's Deck Master as named for the table's last duel, else from their
registered deck, unless the caller names another for this duel.  A game plays by the event's options that its engine reads (:meth:`Event.options_for`), stored
with the game so a replay plays by them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound
from core.language import in_sentence
from decks import selectors as deck_selectors
from games import selectors
from games.models import Game, GameEvent
from rules.base import GameFamily
from rules.cards import YugiohCardType
from rules.deckrules import Problem
from rules.engine import GameEvent as EngineEvent
from rules.engine import RuleViolation
from rules.options import Use, same
from rules.speech import say
from tournaments.models import Event, Pod, PodResult, Seat
from tournaments.policy import ensure_can_record_games
from tournaments.services import pod_result_report
from tournaments.services._common import shared_event
from tournaments.services.results import pod_result_check


class StaleVersion(Conflict):
    def __init__(self, game: Game):
        super().__init__(
            _(
                "Someone recorded an entry since you loaded this game (it is now at version %(version)s): "
                "look at the current state and try again."
            )
            % {"version": game.version},
            code="stale_version",
            extra={"version": game.version, "state": game.state},
        )


def _rule_error(exc: RuleViolation) -> ApplicationError:
    return ApplicationError(exc.message, code=exc.code, extra={"rule": exc.rule})


def _ensure_staff(user, event: Event) -> None:
    ensure_can_record_games(user, event)


def game_create(*, pod: Pod, by, options: Mapping[str, Any] | None = None) -> Game:
    """Start the next game at a table: game 1, or the next duel of an undecided best-of-3 match."""
    event = pod.round.event
    _ensure_staff(by, event)
    if pod.is_bye:
        raise ApplicationError(_("A bye has no game to record."), code="bye")
    fmt = event.format_spec
    with transaction.atomic():
        # The event shared first, as every report does: a re-pairing of the round (which holds the event for
        # update) finishes before, or starts after, and never deletes the table under a new game.
        shared_event(event.pk)
        # Then the table itself: a new table has no game row to lock, and two judges may start it at once.
        if not Pod.objects.select_for_update().filter(pk=pod.pk).exists():
            raise Conflict(
                _("Round %(round)s was paired again since this table was read: look at its tables again.")
                % {"round": pod.round.number},
                code="pairing_changed",
            )
        if PodResult.objects.filter(pod_id=pod.pk).exists():
            raise Conflict(_("This table already has a result."), code="result_exists")
        games = list(Game.objects.filter(pod=pod).order_by("number"))
        if games and games[-1].status == Game.Status.IN_PROGRESS:
            raise Conflict(
                _("Game %(game)s of this table is still in progress.") % {"game": games[-1].number},
                code="game_in_progress",
            )
        if games and fmt.games_per_match == 1:
            raise Conflict(_("This table's game is over."), code="game_over")
        players = list(pod.seats.order_by("seat_order").values_list("player_id", flat=True))
        given = dict(options or {})
        options = {
            **_event_options(event, given), **given, **_chosen_options(event, fmt.deck_roles, players, games, given),
        }  # fmt: skip
        if "deck_masters" in options and "deck_master" in fmt.deck_roles and fmt.family == GameFamily.YUGIOH:
            options["deck_masters"] = _named_deck_masters(options["deck_masters"], given.get("deck_masters"))
        try:
            state = fmt.engine.new_game(players, options)
        except RuleViolation as exc:
            raise _rule_error(exc) from exc
        game = Game.objects.create(
            pod=pod, number=len(games) + 1, format=event.format, options=options, players=players, state=state,
            created_by=by,
        )  # fmt: skip
        # Overlays on the table show the new game at once (not only at its first entry).
        events.record(
            action=DomainAction.GAME_STARTED, event=event.pk, by=by, audit=False, game_id=game.pk,
            game_number=game.number, round=pod.round.number, table=pod.table_number, version=game.version,
            status=game.status, pod_id=pod.pk, format=game.format, state=game.state,
        )  # fmt: skip
        return game


def _event_options(event: Event, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options of the event that its engine reads (variants, house rules): chosen once on the event, so a
    game started with another value for one of them is refused."""
    chosen = event.options_for(Use.GAME)
    for name, value in given.items():
        if name in chosen and not same(value, chosen[name]):
            option = event.format_spec.option(name)
            raise ApplicationError(
                _("This event plays %(label)s '%(option)s': the event's organiser sets it in the event's options.")
                % {"label": in_sentence(say(option.label)), "option": say(option.describe(chosen[name]))},
                code="invalid_option",
                field="options",
            )
    return chosen


def _chosen_options(
    event: Event, roles: tuple[str, ...], players: list[int], games: list[Game], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Game options the players chose before: today each Deck Masters player's Deck Master, as named for the
    table's last duel, else from their registered deck; the ones ``given`` for this duel replace them player by
    player (a player may choose another Deck Master for each duel)."""
    named = given.get("deck_masters", {})
    if "deck_master" not in roles or not isinstance(named, Mapping):
        return {}  # a malformed choice is left for the engine to refuse, as given
    chosen = selectors.next_duel_deck_masters(event=event, players=players, games=games)
    chosen.update({str(pid): name for pid, name in named.items()})
    return {"deck_masters": chosen} if chosen else {}


def _named_deck_masters(chosen: Any, given: Any) -> Any:
    """The Deck Masters named for this duel (``given``), read against the Yu-Gi-Oh! card pool as a registered deck's
    Deck Master is (``decks.selectors.yugioh_card_named``): "Only Monster Cards are allowed to be Deck Masters ...
    Spell Cards and Trap Cards are not allowed to be Deck Masters" (DUEL SETUP), so a Spell or Trap is refused
    (``invalid_deck_master``), and a name the pool does not hold too (``unknown_card``, as in a deck).  With no
    Yu-Gi-Oh! card data imported there is nothing to read them against: the names are taken as given.  A passcode
    becomes its card's name.  The ones carried over (the last duel's, the registered deck's) were read before."""
    if not isinstance(chosen, Mapping) or not isinstance(given, Mapping):
        return chosen  # a malformed choice is left for the engine to refuse, as given
    named = dict(chosen)
    for pid, ref in given.items():
        if not isinstance(ref, str) or not ref.strip():
            continue
        card = deck_selectors.yugioh_card_named(ref)
        if card is None:
            return chosen  # no card data imported
        if isinstance(card, Problem):
            hint = " " + _("Did you mean '%(card)s'?") % {"card": card.suggestion} if card.suggestion else ""
            raise ApplicationError(
                _("The Deck Master '%(ref)s' matches no Yu-Gi-Oh! card.") % {"ref": ref.strip()[:200]} + hint,
                code="unknown_card",
                field="options",
            )
        if card.card_type != YugiohCardType.MONSTER:
            raise ApplicationError(
                _("%(card)s is a %(card_type)s Card: only Monster Cards are allowed to be Deck Masters (DUEL SETUP).")
                % {"card": card.name, "card_type": card.card_type.value},
                code="invalid_deck_master",
                field="options",
            )
        named[str(pid)] = card.name
    return named


def _locked_game(game: Game) -> Game:
    """Lock the game for an entry, in the order every report of its table takes: the event shared, the table's
    seats, then the game (a staff result holds the first two when it closes the game)."""
    shared_event(game.pod.round.event_id)
    list(Seat.objects.select_for_update(of=("self",)).filter(pod_id=game.pod_id).order_by("seat_order").values("pk"))
    try:
        game = Game.objects.select_for_update(of=("self",)).select_related("pod__round__event").get(pk=game.pk)
    except Game.DoesNotExist:
        raise NotFound(_("Game %(game)s does not exist.") % {"game": game.pk}) from None
    if game.status == Game.Status.SUPERSEDED:
        raise Conflict(
            _(
                "Game %(game)s of this table is closed: its result was recorded by hand while the game was in progress, so the game takes no more entries. Correct the table's result on the dashboard if needed."
            )
            % {"game": game.number},
            code="game_superseded",
        )
    return game


def games_supersede(*, pod_id: int) -> int:
    """Close the table's games still in progress: its result was recorded without them.  Returns how many.

    Called by the games app's handler of the result events (:mod:`games.readers`), inside the transaction that
    records the result, which holds the table's seats: an entry (which takes them first) waits for it and is then
    refused (``game_superseded``).  The result's own service has asked the policy.
    """
    return Game.objects.filter(pod_id=pod_id, status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.SUPERSEDED, finished_at=timezone.now()
    )


def game_event_append(
    *, game: Game, expected_version: int, type: str, data: Mapping[str, Any], by
) -> tuple[Game, GameEvent]:
    _ensure_staff(by, game.pod.round.event)
    if type == "void":
        raise ApplicationError(_("Void an entry with the void action, naming its sequence number."), code="use_void")
    with transaction.atomic():
        game = _locked_game(game)
        if game.version != expected_version:
            raise StaleVersion(game)
        try:
            state = game.format_spec.engine.apply(
                game.state, EngineEvent(type=type, data=dict(data), seq=game.version + 1)
            )
        except RuleViolation as exc:
            raise _rule_error(exc) from exc
        entry = GameEvent.objects.create(game=game, seq=game.version + 1, type=type, payload=dict(data), recorded_by=by)
        _store(game, state)
        _recorded(game, entry, by=by)
    return game, entry


def _recorded(game: Game, entry: GameEvent, *, by) -> None:
    """After an entry is stored (inside its transaction): its domain event, and the table's result if it ended
    the game or decided the match.  A result the table refuses raises here and nothing of the entry is stored."""
    pod, round_ = game.pod, game.pod.round
    events.record(
        action=DomainAction.GAME_ENTRY_VOIDED if entry.type == "void" else DomainAction.GAME_ENTRY_RECORDED,
        event=round_.event_id, by=by, audit=False, game_id=game.pk, game_number=game.number, round=round_.number,
        table=pod.table_number, seq=entry.seq, type=entry.type, version=game.version, status=game.status,
        pod_id=game.pod_id, format=game.format, payload=entry.payload, state=game.state,
    )  # fmt: skip
    if game.status == Game.Status.FINISHED:
        game_result_report(game=game, by=by)


def _store(game: Game, state: dict) -> None:
    game.state = state
    game.version += 1
    fields = ["state", "version"]
    finished = state.get("status") == "finished"
    if finished != (game.status == Game.Status.FINISHED):
        game.status = Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS
        game.finished_at = timezone.now() if finished else None
        fields += ["status", "finished_at"]
    game.save(update_fields=fields)


def replay(game: Game, exclude: AbstractSet[int] = frozenset()) -> dict:
    """The state from ``new_game`` and every live (not voided, not void) entry except ``exclude``."""
    engine = game.format_spec.engine
    state = engine.new_game(game.players, game.options)
    entries = game.events.filter(voided_by__isnull=True).exclude(type="void").exclude(seq__in=exclude).order_by("seq")
    for entry in entries:
        try:
            state = engine.apply(state, EngineEvent(type=entry.type, data=entry.payload, seq=entry.seq))
        except RuleViolation as exc:
            raise Conflict(
                _(
                    "Without it, entry #%(entry)s (%(type)s) would be refused: %(message)s (%(rule)s). Void the later entries first."
                )
                % {"entry": entry.seq, "type": entry.type, "message": exc.message, "rule": exc.rule},
                code="void_breaks_log",
                extra={"rule": exc.rule, "blocking_seq": entry.seq},
            ) from exc
    return state


def game_event_void(*, game: Game, expected_version: int, seq: int, reason: str, by) -> tuple[Game, GameEvent]:
    """Void entry ``seq``: recorded as a ``void`` entry; the state is replayed without the voided one."""
    _ensure_staff(by, game.pod.round.event)
    if not reason.strip():
        raise ApplicationError(_("Say why the entry is voided."), field="reason")
    with transaction.atomic():
        game = _locked_game(game)
        if game.version != expected_version:
            raise StaleVersion(game)
        if PodResult.objects.filter(pod_id=game.pod_id).exists():
            raise Conflict(_("The table's result is recorded: ask the organiser to correct it."), code="result_exists")
        if Game.objects.filter(pod_id=game.pod_id, number__gt=game.number).exists():
            raise Conflict(
                _("Game %(game)s is closed: a later game of this table exists.") % {"game": game.number},
                code="later_game_exists",
            )
        target = game.events.filter(seq=seq).first()
        if target is None:
            raise NotFound(_("Entry #%(entry)s does not exist.") % {"entry": seq}, code="entry_not_found")
        if target.type == "void" or target.voided_by_id:
            raise Conflict(
                _("Entry #%(entry)s is already void or is itself a void.") % {"entry": seq}, code="already_void"
            )
        state = replay(game, exclude={seq})
        entry = GameEvent.objects.create(
            game=game, seq=game.version + 1, type="void", payload={"seq": seq, "reason": reason.strip()}, recorded_by=by
        )
        target.voided_by = entry
        target.save(update_fields=["voided_by"])
        _store(game, state)
        _recorded(game, entry, by=by)
    return game, entry


def _table_outcome(game: Game, state: Mapping[str, Any]):
    """What the table's result would be with ``game`` finished in ``state``: ``(placements, games,
    intentional_draw)``, or ``None`` while its best-of-3 match goes on."""
    match_result = game.format_spec.match_result
    if match_result is not None:
        earlier = Game.objects.filter(pod_id=game.pod_id, status=Game.Status.FINISHED, number__lt=game.number)
        duels = [*(g.state["result"] for g in earlier.order_by("number")), state["result"]]
        placements = match_result(duels)
        if placements is None:
            return None  # the match goes on: the next duel is created by the judge
        games, intentional = _duel_scores(duels, placements)
    else:
        placements, games, intentional = state["result"]["placements"], None, False
    return {int(k): v for k, v in placements.items()}, games, intentional


def game_result_report(*, game: Game, by) -> PodResult | None:
    """Write a finished game's (or decided match's) placements to the table's result; safe to run twice.

    Called inside the transaction that finished the game, with the game row locked.  ``by`` is the judge who
    recorded the entry that ended it: the result's reporter.  An ending the table could not take (a drawn
    top-cut game) is refused even when the staff entered the table's result meanwhile; otherwise that result
    stands.
    """
    if game.status != Game.Status.FINISHED:
        return None
    outcome = _table_outcome(game, game.state)
    if outcome is None:
        return None
    placements, games, intentional = outcome
    # The table's own refusal (a top-cut table needs one winner) names its rule, like the engine's refusals.
    pod_result_check(pod=game.pod, placements=placements, games=games, intentional_draw=intentional)
    if PodResult.objects.filter(pod_id=game.pod_id).exists():
        return None
    event = game.pod.round.event
    result, _warnings = pod_result_report(
        # A game is never played at a bye (game_create refuses it), so its table has a number.
        event=event, round_number=game.pod.round.number, table_number=cast(int, game.pod.table_number),
        placements=placements, by=by, source=PodResult.Source.GAME, games=games, intentional_draw=intentional,
    )  # fmt: skip
    return result


def _duel_scores(duels: list[Mapping[str, Any]], placements: Mapping[str, int]):
    """The match's game score from its duels (won, lost, drawn per player) and whether it was an intentional draw.

    ``(None, False)`` when the score would not show the match's winner (a
    disqualification decides a match whatever the duels said).
    """
    # The engine writes the reason in words ("intentional draw", as the format's match_result reads it).
    if any(str(d.get("reason", "")).startswith("intentional draw") for d in duels):
        return None, set(placements.values()) == {1}
    players = list(placements)
    score = {p: [0, 0, 0] for p in players}
    for duel in duels:
        places = {str(k): v for k, v in duel["placements"].items()}
        a, b = players
        if places.get(a) == places.get(b):
            score[a][2] += 1
            score[b][2] += 1
        elif places.get(a) == 1:
            score[a][0] += 1
            score[b][1] += 1
        elif places.get(b) == 1:
            score[b][0] += 1
            score[a][1] += 1
    a, b = players
    wins_agree = (score[a][0] > score[b][0]) == (placements[a] < placements[b]) and (score[a][0] == score[b][0]) == (
        placements[a] == placements[b]
    )
    return ({int(p): tuple(v) for p, v in score.items()} if wins_agree else None), False
