"""Who may do what: the one place Podium decides it.

Services ask this module before they change anything, and pages and API views
ask it what to show; neither restates a rule.

Terms
=====

* An event's **organiser** owns it.  **Staff** are users the organiser adds to
  the event with one **role** each: co-organiser, scorekeeper, judge or caster.
  **Site staff** (Django's ``is_staff``) may do everything everywhere.
* **Organisers** create events and player records: site staff, the accounts site staff give the organiser
  permission (:data:`ORGANISER_PERMISSION`, in the admin), or every signed-in account where the operator
  switches ``PODIUM_OPEN_ORGANISING`` on.
* A **player** is the person whose account is linked to a :class:`Player`
  record; *a player at a table* is one seated at it.
* An **action** is a kind of change (or of privileged read) on one event.
  :data:`ROLE_ACTIONS` says which roles may take it: that table is the rule,
  the README shows it, and a test keeps the two the same.

**Leagues.**  A league's organiser and its staff hold their roles at every
event of the league's seasons: the league's organiser is an organiser there
(:data:`LEAGUE_ROLE_AT_EVENTS`), and a league co-organiser, scorekeeper, judge
or caster is the same at each event, on top of any role the event gives them.
The leagues app only says who holds which role in which league
(:func:`league_role_source`); what the roles allow is decided here.  A
league's own settings, seasons, points tables and staff are changed by its
organiser and co-organisers (:func:`can_manage_league`); a private league is
read by its staff and the players of its events.

What players may do for themselves (register, withdraw, check in, drop,
report and confirm their table's result, submit their deck) depends on who
they are and on the event's windows, not on a role: :func:`can_act_for_player`
and the services' own checks (registration open, check-in open, player
reports allowed) decide it.

**Invitations.**  A player record linked to an account is its holder's: staff
who enter it at an event invite the player, who accepts or declines
(:func:`registers_directly`, :func:`can_answer_invitation`); a walk-in's record
(no account) and the staff member's own are entered at once.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_noop

from core.exceptions import NotAuthenticated, PermissionDenied

if TYPE_CHECKING:
    from tournaments.models import Event, Player, Registration


class Role(StrEnum):
    ORGANISER = "organiser"
    CO_ORGANISER = "co_organiser"
    SCOREKEEPER = "scorekeeper"
    JUDGE = "judge"
    CASTER = "caster"


class Action(StrEnum):
    EDIT_EVENT = "edit_event"
    MANAGE_STAFF = "manage_staff"
    MANAGE_REGISTRATIONS = "manage_registrations"
    DRAW_LOTTERY = "draw_lottery"
    MANAGE_FEES = "manage_fees"
    PAIR_ROUNDS = "pair_rounds"
    ENTER_RESULTS = "enter_results"
    SETTLE_DISPUTES = "settle_disputes"
    CORRECT_RESULTS = "correct_results"
    CORRECT_FINISHED = "correct_finished"
    RECORD_GAMES = "record_games"
    ISSUE_PENALTIES = "issue_penalties"
    OVERRIDE_DECK_VERDICTS = "override_deck_verdicts"
    MANAGE_DECKS = "manage_decks"
    SEE_HIDDEN_DECKLISTS = "see_hidden_decklists"
    READ_AUDIT = "read_audit"
    USE_DASHBOARD = "use_dashboard"
    RUN_TIMER = "run_timer"
    EXTEND_TABLE_TIME = "extend_table_time"
    RUN_STREAM = "run_stream"
    ANSWER_JUDGE_CALLS = "answer_judge_calls"
    RUN_DECK_CHECKS = "run_deck_checks"
    ASSIGN_JUDGES = "assign_judges"


#: What each action covers, in words (the README's table shows these).
ACTION_TEXT: dict[Action, str] = {
    Action.EDIT_EVENT: "settings, phases (day 1, day 2), registration and check-in windows, lottery, priority windows "
    "and entry fee, player reports, finishing the event",
    Action.MANAGE_STAFF: "add and remove staff",
    Action.MANAGE_REGISTRATIONS: "walk-ins and invitations, check in, drop and undo a drop, fixed tables, byes, "
    "claim codes",
    Action.DRAW_LOTTERY: "draw the lottery for the event's places",
    Action.MANAGE_FEES: "mark entry fees paid or unpaid",
    Action.PAIR_ROUNDS: "start, publish (when staged), undo, re-pair and swap rounds, advance a phase's players (and undo it), "
    "start the top cut",
    Action.ENTER_RESULTS: "enter a table's result (final at once)",
    Action.SETTLE_DISPUTES: "enter the result of a disputed or unconfirmed table, accept a waiting report",
    Action.CORRECT_RESULTS: "correct a recorded result, with a reason",
    Action.CORRECT_FINISHED: "correct a result after the event is finished",
    Action.RECORD_GAMES: "record games on the judge console",
    Action.ISSUE_PENALTIES: "issue and rescind penalties (a disqualification drops the player)",
    Action.OVERRIDE_DECK_VERDICTS: "override a deck's verdict, with a reason",
    Action.MANAGE_DECKS: "re-check decks, deck options, publish decklists",
    Action.SEE_HIDDEN_DECKLISTS: "see decklists before they are published",
    Action.READ_AUDIT: "read the audit trail",
    Action.USE_DASHBOARD: "open the event's dashboard",
    Action.RUN_TIMER: "start, pause, resume and extend the round timer",
    Action.EXTEND_TABLE_TIME: "give a table extra time (kept in its history)",
    Action.RUN_STREAM: "point stream stations at tables, show a decklist on air, overlay tokens",
    Action.ANSWER_JUDGE_CALLS: "see the judge-call queue (live), call a judge to any table, claim, resolve and cancel "
    "calls",
    Action.RUN_DECK_CHECKS: "pick tables for deck checks (by hand or at random) and record them",
    Action.ASSIGN_JUDGES: "assign judges to tables, and take them off",
}

_EVERYTHING = frozenset(Action)

#: The rule: which roles may take which actions.  Casters see hidden decklists only when the organiser allows it.
ROLE_ACTIONS: dict[Role, frozenset[Action]] = {
    Role.ORGANISER: _EVERYTHING,
    Role.CO_ORGANISER: _EVERYTHING - {Action.CORRECT_FINISHED},
    Role.SCOREKEEPER: frozenset(
        {
            Action.MANAGE_REGISTRATIONS,
            Action.MANAGE_FEES,
            Action.PAIR_ROUNDS,
            Action.ENTER_RESULTS,
            Action.SETTLE_DISPUTES,
            Action.CORRECT_RESULTS,
            Action.READ_AUDIT,
            Action.USE_DASHBOARD,
            Action.RUN_TIMER,
        }
    ),
    Role.JUDGE: frozenset(
        {
            Action.SETTLE_DISPUTES,
            Action.RECORD_GAMES,
            Action.ISSUE_PENALTIES,
            Action.OVERRIDE_DECK_VERDICTS,
            Action.SEE_HIDDEN_DECKLISTS,
            Action.READ_AUDIT,
            Action.USE_DASHBOARD,
            Action.RUN_TIMER,
            Action.EXTEND_TABLE_TIME,
            Action.ANSWER_JUDGE_CALLS,
            Action.RUN_DECK_CHECKS,
            Action.ASSIGN_JUDGES,
        }
    ),
    Role.CASTER: frozenset({Action.SEE_HIDDEN_DECKLISTS, Action.USE_DASHBOARD, Action.RUN_STREAM}),
}

_REFUSALS: dict[Action, str] = {
    Action.EDIT_EVENT: gettext_noop("Only the event's organisers may change this event."),
    Action.MANAGE_STAFF: gettext_noop("Only the event's organisers may change its staff."),
    Action.MANAGE_REGISTRATIONS: gettext_noop("Only the event's organisers and scorekeepers may change registrations."),
    Action.DRAW_LOTTERY: gettext_noop("Only the event's organisers may draw its lottery."),
    Action.MANAGE_FEES: gettext_noop("Only the event's organisers and scorekeepers may mark entry fees paid."),
    Action.PAIR_ROUNDS: gettext_noop("Only the event's organisers and scorekeepers may pair rounds."),
    Action.ENTER_RESULTS: gettext_noop("Only the event's organisers and scorekeepers may enter results."),
    Action.SETTLE_DISPUTES: gettext_noop(
        "Only the event's organisers, scorekeepers and judges may settle a table's result."
    ),
    Action.CORRECT_RESULTS: gettext_noop("Only the event's organisers and scorekeepers may correct results."),
    Action.CORRECT_FINISHED: gettext_noop("The event is finished: only its organiser may correct a result."),
    Action.RECORD_GAMES: gettext_noop("Only the event's organisers and judges may record games."),
    Action.ISSUE_PENALTIES: gettext_noop("Only the event's organisers and judges may issue penalties."),
    Action.OVERRIDE_DECK_VERDICTS: gettext_noop(
        "Only the event's organisers and judges may override a deck's verdict."
    ),
    Action.MANAGE_DECKS: gettext_noop("Only the event's organisers may manage its decks."),
    Action.SEE_HIDDEN_DECKLISTS: gettext_noop("Decklists are not public yet."),
    Action.READ_AUDIT: gettext_noop("Only the event's staff may read its audit trail."),
    Action.USE_DASHBOARD: gettext_noop("Only the event's organiser or staff may manage this event."),
    Action.RUN_TIMER: gettext_noop("Only the event's organisers, scorekeepers and judges may run the round timer."),
    Action.EXTEND_TABLE_TIME: gettext_noop("Only the event's organisers and judges may give a table extra time."),
    Action.RUN_STREAM: gettext_noop("Only the event's organisers and casters may run its stream stations."),
    Action.ANSWER_JUDGE_CALLS: gettext_noop("Only the event's organisers and judges may answer judge calls."),
    Action.RUN_DECK_CHECKS: gettext_noop("Only the event's organisers and judges may run deck checks."),
    Action.ASSIGN_JUDGES: gettext_noop("Only the event's organisers and judges may assign judges to tables."),
}


def _signed_in(user) -> bool:
    return bool(user and user.is_authenticated)


def manages_every_event(user) -> bool:
    """Site staff manage every event (and see them all on their dashboard)."""
    return _signed_in(user) and user.is_staff


#: The role a league's organiser holds at the events of the league's seasons.
LEAGUE_ROLE_AT_EVENTS = Role.ORGANISER

#: ``(user id, event id) -> queries`` (each a ``values_list("role", flat=True)``, unordered) of the roles the user
#: holds at the event through a league (the league's organiser as :data:`LEAGUE_ROLE_AT_EVENTS`),
#: and ``(user id, league) -> role values`` in the league itself.  Set by the leagues app (:func:`league_role_source`).
_league_roles_at_event: Callable[[int, int], Any] | None = None
_league_roles: Callable[[int, Any], Any] | None = None


def league_role_source(*, at_event: Callable[[int, int], Any], in_league: Callable[[int, Any], Any]) -> None:
    """The leagues app says where league roles are stored; this module decides what they allow."""
    global _league_roles_at_event, _league_roles
    _league_roles_at_event, _league_roles = at_event, in_league


def roles(user, event: Event) -> frozenset[Role]:
    """The user's roles at the event, its league's included (one query, remembered on the user object for the
    request)."""
    if not _signed_in(user):
        return frozenset()
    cache: dict[int, frozenset[Role]] = user.__dict__.setdefault("_podium_roles", {})
    if event.pk not in cache:
        from tournaments.models import EventStaff

        query = EventStaff.objects.filter(event_id=event.pk, user=user).order_by().values_list("role", flat=True)
        if _league_roles_at_event is not None:
            query = query.union(*_league_roles_at_event(user.pk, event.pk)).order_by()
        found = {Role(r) for r in query}
        if is_organiser(user, event):
            found.add(Role.ORGANISER)
        cache[event.pk] = frozenset(found)
    return cache[event.pk]


def forget_roles(user) -> None:
    """After a staff change: the next check reads the roles again."""
    if user is not None:
        user.__dict__.pop("_podium_roles", None)


def can(user, action: Action, event: Event) -> bool:
    if manages_every_event(user) or is_organiser(user, event):  # the organiser may do everything: no query
        return True
    held = roles(user, event)
    if action == Action.SEE_HIDDEN_DECKLISTS and held == {Role.CASTER} and not event.casters_see_decklists:
        return False
    return any(action in ROLE_ACTIONS[role] for role in held)


def ensure(user, action: Action, event: Event) -> None:
    if not can(user, action, event):
        raise PermissionDenied(gettext(_REFUSALS[action]))


#: Pages that any of several actions open, each with the one sentence that refuses them.
_ANY_OF_REFUSALS: dict[frozenset[Action], str] = {
    frozenset({Action.MANAGE_DECKS, Action.SEE_HIDDEN_DECKLISTS}): gettext_noop(
        "Only the event's organisers and the staff who may see its decklists see this."
    ),
    frozenset({Action.ENTER_RESULTS, Action.SETTLE_DISPUTES}): gettext_noop(
        "Only the event's organisers, scorekeepers and judges may enter a table's result."
    ),
}


def refusal(user, event: Event, *actions: Action) -> str | None:
    """None when the user may take one of ``actions`` at the event (any staff role: open its dashboard, when none
    is named); the one sentence that refuses them otherwise."""
    wanted = actions or (Action.USE_DASHBOARD,)
    if any(can(user, action, event) for action in wanted):
        return None
    return gettext(_REFUSALS[wanted[0]] if len(wanted) == 1 else _ANY_OF_REFUSALS[frozenset(wanted)])


def may(user, event: Event) -> dict[str, bool]:
    """What the user may do at the event, for the pages: one flag per action (``may.pair_rounds``), and
    ``correct``: correct results now (after the finish, correcting is the organiser's alone)."""
    from tournaments.models import Event

    allowed = {action.value: can(user, action, event) for action in Action}
    allowed["correct"] = allowed[Action.CORRECT_RESULTS] and (
        event.status != Event.Status.FINISHED or allowed[Action.CORRECT_FINISHED]
    )
    return allowed


def is_organiser(user, event: Event) -> bool:
    """The user owns the event."""
    return _signed_in(user) and event.organiser_id == user.pk


#: The organiser permission (``Event.Meta.permissions``): site staff grant it in the admin, to a user or a group.
ORGANISER_PERMISSION = "tournaments.organise_events"


def can_create_event(user) -> bool:
    """Organisers create events (and become their organiser) and player records: site staff, accounts site staff
    gave the organiser permission, and, where ``PODIUM_OPEN_ORGANISING`` is on, every signed-in account."""
    from django.conf import settings

    if not _signed_in(user):
        return False
    return manages_every_event(user) or settings.PODIUM_OPEN_ORGANISING or user.has_perm(ORGANISER_PERMISSION)


#: The refusals of :func:`creating_refusal` and :func:`ensure_can_create_event`, whole sentences per ``what``.
_CREATING_REFUSALS = {
    "events and players": gettext_noop(
        "Creating events and players needs the organiser permission: ask the site's staff."
    ),
    "events": gettext_noop("Creating events needs the organiser permission: ask the site's staff."),
    "leagues": gettext_noop("Creating leagues needs the organiser permission: ask the site's staff."),
}
_SIGN_IN_TO_CREATE = {
    "events and players": gettext_noop("Sign in to create events and players."),
    "events": gettext_noop("Sign in to create events."),
    "leagues": gettext_noop("Sign in to create leagues."),
}


def creating_refusal(user, *, what: str = "events and players") -> str | None:
    """None when the user may create ``what`` (:func:`can_create_event`); the sentence that refuses them otherwise."""
    if can_create_event(user):
        return None
    sentence = _CREATING_REFUSALS.get(what)
    if sentence is None:
        return gettext("Creating %(what)s needs the organiser permission: ask the site's staff.") % {"what": what}
    return gettext(sentence)


def ensure_can_create_event(user, *, what: str = "events and players") -> None:
    """Organising (events, player records, leagues) needs the organiser permission (:func:`can_create_event`)."""
    if not _signed_in(user):
        sign_in = _SIGN_IN_TO_CREATE.get(what)
        raise NotAuthenticated(gettext(sign_in) if sign_in else gettext("Sign in to create %(what)s.") % {"what": what})
    message = creating_refusal(user, what=what)
    if message is not None:
        raise PermissionDenied(message)


def is_player(user, player: Player) -> bool:
    """The user is this player (their account is linked to the record)."""
    return _signed_in(user) and player.user_id == user.pk


def can_act_for_player(user, player: Player, event: Event, action: Action = Action.MANAGE_REGISTRATIONS) -> bool:
    """The player themselves, or staff who may take ``action`` at the event."""
    return is_player(user, player) or can(user, action, event)


def registers_directly(user, player: Player) -> bool:
    """Whether staff (``user``) entering ``player`` at an event register them at once: a walk-in's record (no
    account) or their own.  A record linked to someone else's account is only invited: its player decides."""
    return player.user_id is None or is_player(user, player)


def can_answer_invitation(user, registration: Registration) -> bool:
    """The invited player alone accepts or declines an invitation to an event."""
    return is_player(user, registration.player)


# --- the names the pages and services used before roles ----------------------------------------


def can_manage_event(user, event: Event) -> bool:
    """Whether the user may open the event's dashboard (any staff role)."""
    return can(user, Action.USE_DASHBOARD, event)


def ensure_can_manage_event(user, event: Event) -> None:
    ensure(user, Action.EDIT_EVENT, event)


def ensure_can_record_games(user, event: Event) -> None:
    ensure(user, Action.RECORD_GAMES, event)


def can_report_game_result(user, event: Event) -> bool:
    """The result a finished game (or decided match) produces is reported by whoever recorded it: anyone who
    may record games, judges included, whether or not they may enter results by hand (the log is the evidence)."""
    return can(user, Action.RECORD_GAMES, event)


def ensure_can_report_game_result(user, event: Event) -> None:
    if not can_report_game_result(user, event):
        raise PermissionDenied(gettext(_REFUSALS[Action.RECORD_GAMES]))


def can_submit_deck(user, registration: Registration) -> bool:
    """The player, and the event's organisers."""
    return is_player(user, registration.player) or can(user, Action.MANAGE_DECKS, registration.event)


#: A player's own pages at an event (their deck) for a user with no registration there.
NOT_REGISTERED = gettext_noop("You are not registered for this event.")


def deck_refusal(user, registration: Registration) -> str | None:
    """None when the user may submit the registration's deck (:func:`can_submit_deck`)."""
    return None if can_submit_deck(user, registration) else gettext("This is another player's deck.")


def decklist_refusal(user, registration: Registration) -> str | None:
    """None when the user may read the registration's decklist (:func:`can_view_decklist`)."""
    return None if can_view_decklist(user, registration) else gettext(_REFUSALS[Action.SEE_HIDDEN_DECKLISTS])


def can_view_decklist(user, registration: Registration) -> bool:
    """The player and the event's staff who may see them always; everyone else once decklists are published."""
    return (
        registration.event.decklists_public
        or is_player(user, registration.player)
        or can(user, Action.SEE_HIDDEN_DECKLISTS, registration.event)
    )


def can_view_hidden_decklists(user, event: Event) -> bool:
    """Every decklist of the event, published or not."""
    return event.decklists_public or can(user, Action.SEE_HIDDEN_DECKLISTS, event)


#: An overlay page given a token that is not (or no longer) one of the event's.
INVALID_OVERLAY_TOKEN = gettext_noop("The overlay token is not valid (or was revoked).")


def overlay_token_sees_hidden_decklists(event: Event) -> bool:
    """An event's overlay token (a caster's overlay in OBS) reads every decklist when they are published, or
    before when the organiser lets casters see them."""
    return event.decklists_public or event.casters_see_decklists


# --- leagues --------------------------------------------------------------------------------------


def league_roles(user, league: Any) -> frozenset[Role]:
    """The user's roles in the league (one query, remembered on the user object for the request)."""
    if not _signed_in(user):
        return frozenset()
    cache: dict[int, frozenset[Role]] = user.__dict__.setdefault("_podium_league_roles", {})
    if league.pk not in cache:
        found = set() if _league_roles is None else {Role(r) for r in _league_roles(user.pk, league)}
        if is_league_organiser(user, league):
            found.add(Role.ORGANISER)
        cache[league.pk] = frozenset(found)
    return cache[league.pk]


def is_league_organiser(user, league: Any) -> bool:
    """The user owns the league."""
    return _signed_in(user) and league.organiser_id == user.pk


def can_manage_league(user, league: Any) -> bool:
    """Settings, seasons, points tables, attaching events and staff: the league's organisers."""
    if manages_every_event(user):
        return True
    return bool(league_roles(user, league) & {Role.ORGANISER, Role.CO_ORGANISER})


def league_refusal(user, league: Any) -> str | None:
    """None when the user may change the league (:func:`can_manage_league`); the sentence that refuses it otherwise."""
    return None if can_manage_league(user, league) else gettext("Only the league's organisers may change this league.")


def ensure_can_manage_league(user, league: Any) -> None:
    message = league_refusal(user, league)
    if message is not None:
        raise PermissionDenied(message)


def can_view_league(user, league: Any, *, played: bool = False) -> bool:
    """A public league: anyone.  A private one: its staff, and the players of its events (``played``)."""
    return league.is_public or played or manages_every_event(user) or bool(league_roles(user, league))


def forget_league_roles(user) -> None:
    if user is not None:
        user.__dict__.pop("_podium_league_roles", None)
        user.__dict__.pop("_podium_roles", None)


def roles_table() -> str:
    """The role x action table, in Markdown (the README shows it; a test keeps them equal)."""
    order = [Role.ORGANISER, Role.CO_ORGANISER, Role.SCOREKEEPER, Role.JUDGE, Role.CASTER]
    head = "| action | " + " | ".join(r.value.replace("_", "-") for r in order) + " |"
    rows = [head, "|---|" + "---|" * len(order)]
    for action in Action:
        marks = []
        for role in order:
            if action == Action.SEE_HIDDEN_DECKLISTS and role == Role.CASTER:
                marks.append("if allowed")
            else:
                marks.append("✓" if action in ROLE_ACTIONS[role] else "")
        rows.append(f"| {ACTION_TEXT[action]} | " + " | ".join(marks) + " |")
    return "\n".join(rows)
