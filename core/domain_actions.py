"""The catalogue of domain events: every action a service may record, each one a constant.

An action's name (``round.started``, ``result.corrected``) is a contract: the
audit trail stores it, the overlays and the league's trail show it, readers
subscribe to it.  Services record and readers subscribe through these
constants (``DomainAction.ROUND_STARTED``), never a string of their own, and
:mod:`core.events` refuses a name that is not here: a misspelt reader fails
when its module is imported, not silently on the day it should have run.

Each action says what ``docs/domain-events.md`` says of it (the page is
written from this catalogue, ``python -m core.events_doc``):

*recorded_by*
    The service functions that record it, and when.
*audited*
    Whether it is an entry of the audit trail (:func:`core.events.record`
    refuses a call that says otherwise).
*data*
    The facts in the event's ``data``, for readers.
*readers*
    What its subscribers, besides the audit trail, do with it.

Adding an action: add it here, record it in its service, and regenerate the
page.  Never rename one: stored audit entries keep the old name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class About:
    """What the catalogue says of one action (see the module docstring); Markdown, as the page shows it."""

    recorded_by: str
    audited: bool = True
    data: str = ""
    readers: str = ""


_RESULT = "`round`, `table`, `pod_id`"
_RESULT_READERS = "standings; live; games: closes the table's game in progress{}; leagues: the format's ratings"
_GAME = "`game_id`, `game_number`, `round`, `table`, `version`, `status`, `pod_id`, `format`"
_SEASON = "`league_id`, `season_id`, `season_ids`"
_SEASON_READERS = "the league's trail; leagues: season standings"


class DomainAction(StrEnum):
    """Every action a service records; its value is the name stored and sent (``<entity>.<verb>``)."""

    about: About

    def __new__(cls, value: str, about: About) -> DomainAction:
        member = str.__new__(cls, value)
        member._value_ = value
        member.about = about
        return member

    # A table, one action to a line or a few: laid out by hand.
    # fmt: off
    # --- events ------------------------------------------------------------------------------------------
    EVENT_CREATED = "event.created", About("`event_create`")
    EVENT_UPDATED = "event.updated", About(
        "`event_update`", data="`standings_settings` (tiebreakers or floor changed)",
        readers="standings, when `standings_settings`; leagues: the format's ratings, when the date changed; "
        "notifications: check-in open, when `check_in_open` turned on",
    )
    EVENT_FINISHED = "event.finished", About("`event_finish`")
    EVENT_IMPORTED = "event.imported", About(
        "`event_import` (the command of that name stored a bundle as a new event; the entry's values after name "
        "the source, the event's id there and what was stored)"
    )

    # --- registrations -------------------------------------------------------------------------------------
    REGISTRATION_CREATED = "registration.created", About(
        "`registration_create` (staff)", data="`late_entry`", readers="standings, when `late_entry`"
    )
    REGISTRATION_SELF_REGISTERED = "registration.self_registered", About("`registration_self_register`")
    REGISTRATION_WAITLISTED = "registration.waitlisted", About("`registration_self_register` (the event is full)")
    REGISTRATION_PROMOTED = "registration.promoted", About(
        "`promote_waiting_list` (a place freed up)", data="`player_id`", readers="notifications (the player)"
    )
    REGISTRATION_WITHDRAWN = "registration.withdrawn", About("`registration_withdraw`")
    REGISTRATION_INVITED = "registration.invited", About(
        "`registration_create` (staff, a player record linked to another account)", data="`player_id`"
    )
    REGISTRATION_ACCEPTED = "registration.accepted", About("`registration_accept` (the invited player)")
    REGISTRATION_DECLINED = "registration.declined", About(
        "`registration_decline`, `registration_withdraw` (the invited player)"
    )
    REGISTRATION_INVITATION_WITHDRAWN = "registration.invitation_withdrawn", About(
        "`registration_withdraw` (staff, an invitation)"
    )
    REGISTRATION_CHECKED_IN = "registration.checked_in", About(
        "`registration_check_in`", data="`late_entry`", readers="standings, when `late_entry`"
    )
    REGISTRATION_CHECKED_OUT = "registration.checked_out", About("`registration_check_in`", data="`late_entry`")
    REGISTRATION_DROPPED = "registration.dropped", About(
        "`registration_drop`, a disqualification (`penalty_issue`)", readers="standings"
    )
    REGISTRATION_UNDROPPED = "registration.undropped", About("`registration_undrop`", readers="standings")
    REGISTRATION_FIXED_TABLE = "registration.fixed_table", About("`registration_update`")
    REGISTRATION_STREAM_CONSENT = "registration.stream_consent", About(
        "`registration_stream_consent_set` (the player, or staff, opts out of being streamed or back in)",
        data="`player_id`, `stream_opt_out`",
        readers="live: a station showing the player's table stops showing it (`feature.changed`)",
    )
    REGISTRATION_APPLIED = "registration.applied", About(
        "`registration_self_register` (the event's lottery takes applications)"
    )
    LOTTERY_DRAWN = "lottery.drawn", About(
        "`lottery_draw` (the organiser, or the sweep at the draw's time)",
        data="`seed`, `places`, `winners`, `waiting` (player ids in drawn order)",
    )
    REGISTRATION_PAID = "registration.paid", About("`registration_mark_paid` (staff)")
    REGISTRATION_UNPAID = "registration.unpaid", About("`registration_mark_paid` (staff, `paid=False`)")
    BYE_ASSIGNED = "bye.assigned", About("`bye_assign`")
    KEEP_APART_ADDED = "keep_apart.added", About("`keep_apart_add` (two players the pairing keeps apart)")
    KEEP_APART_REMOVED = "keep_apart.removed", About("`keep_apart_remove`")
    BYE_UNASSIGNED = "bye.unassigned", About("`bye_unassign`")
    PLAYER_CLAIM_CODE = "player.claim_code", About("`player_claim_code_create`")
    PLAYER_CLAIMED = "player.claimed", About("`player_claim`")

    # --- rounds and results --------------------------------------------------------------------------------
    ROUND_STARTED = "round.started", About(
        "`round_start` (Swiss and cut rounds)", data="`byes` (how many)",
        readers="standings (always asks for a recompute; marks them out of date when `byes`); live; "
        "notifications: round paired (unless staged)",
    )
    ROUND_REPAIRED = "round.repaired", About("`round_repair`", readers="standings; live; notifications")
    ROUND_SWAPPED = "round.swapped", About(
        "`round_swap`", data="`byes` (a bye moved)", readers="standings, when `byes`; live; notifications"
    )
    TOP_CUT_STARTED = "top_cut.started", About("`top_cut_start`", readers="live; notifications")
    ROUND_PUBLISHED = "round.published", About(
        "`round_publish` (a staged round shown to the players)", readers="live (the round as if it had just started); notifications: round paired"
    )
    ROUND_UNDONE = "round.undone", About(
        "`round_start_undo` (the latest round taken back before any result)",
        data="`round`, `byes` (how many it had), `cut_ended`", readers="standings (when `byes`); live",
    )
    EVENT_PHASES_PLANNED = "event.phases_planned", About(
        "`event_phases_set` (the event's Swiss split into phases: day 1, day 2)", data="`phases`, `planned_rounds`"
    )
    PHASE_ADVANCED = "phase.advanced", About(
        "`phase_advance` (the players who go on to the next phase)",
        data="`phase` (the phase that ended), `advanced` (how many)", readers="standings; live",
    )
    PHASE_ADVANCE_UNDONE = "phase.advance_undone", About(
        "`phase_advance_undo` (before the next phase's first round)", data="`phase`", readers="standings; live"
    )
    RESULT_ENTERED = "result.entered", About(
        "`pod_result_report` (staff, or a finished game)", data=_RESULT, readers=_RESULT_READERS.format(" (superseded)")
    )
    RESULT_SETTLED = "result.settled", About(
        "`pod_result_report` on a disputed or waiting table", data=_RESULT, readers=_RESULT_READERS.format("")
    )
    RESULT_REPORTED = "result.reported", About(
        "`result_player_report` (a player)", data="`round`, `table`", readers="live; notifications (the table's other players)"
    )
    RESULT_AGREED = "result.agreed", About("`result_respond`", data="`round`, `table`")
    RESULT_DISPUTED = "result.disputed", About(
        "`result_respond`", data="`round`, `table`", readers="live; notifications (the table's other players)"
    )
    RESULT_CONFIRMED = "result.confirmed", About(
        "`result_respond`, when the last player agrees; `result_report_accept` (staff accept a report, its reason "
        "names who did not confirm)",
        data=_RESULT, readers=_RESULT_READERS.format(""),
    )
    RESULT_CORRECTED = "result.corrected", About("`result_correct`", data=_RESULT, readers=_RESULT_READERS.format(""))
    ROUND_COMPLETED = "round.completed", About(
        "`pod_result_report`, `result_respond`, `result_report_accept` (once, when the round's last table has its "
        "result)",
        audited=False, data="`round`", readers="live (the round's clock reads finished)",
    )

    # --- penalties and staff -------------------------------------------------------------------------------
    PENALTY_ISSUED = "penalty.issued", About("`penalty_issue`")
    PENALTY_RESCINDED = "penalty.rescinded", About("`penalty_rescind`")
    STAFF_ADDED = "staff.added", About("`staff_add`")
    STAFF_CHANGED = "staff.changed", About("`staff_add` (someone already on the staff, a new role)")
    STAFF_REMOVED = "staff.removed", About("`staff_remove`")

    # --- decks ---------------------------------------------------------------------------------------------
    DECK_SUBMITTED = "deck.submitted", About(
        "`deck_submit`", data="`version_id`", readers="decks: checks the version (Celery)"
    )
    DECKS_RECHECKED = "decks.rechecked", About(
        "`deck_recheck_start`", data="`run_id`", readers="decks: runs the re-check (Celery)"
    )
    DECKS_REVALIDATION_ASKED = "decks.revalidation_asked", About(
        "`decks_revalidate_family` (after a card import)", audited=False, data="`family`, `version_ids`",
        readers="decks: checks each version (Celery)",
    )
    DECKS_OPTIONS_CHANGED = "decks.options_changed", About("`event_deck_options_set`")
    DECKS_PUBLISHED = "decks.published", About("`event_decklists_publish`")
    DECK_OVERRIDDEN = "deck.overridden", About("`deck_verdict_override`")
    DECK_OVERRIDE_CLEARED = "deck.override_cleared", About("`deck_verdict_clear`")

    # --- games ---------------------------------------------------------------------------------------------
    GAME_STARTED = "game.started", About(
        "`game_create` (a judge starts a table's game, or the next duel)", audited=False,
        data=f"{_GAME}, `state` (the new game's)", readers="live",
    )
    GAME_ENTRY_RECORDED = "game.entry_recorded", About(
        "`game_event_append`", audited=False,
        data=f"{_GAME}, `seq`, `type`, `payload` (the entry's), `state` (the game's after it)", readers="live",
    )
    GAME_ENTRY_VOIDED = "game.entry_voided", About(
        "`game_event_void`", audited=False, data="the same as `game.entry_recorded`", readers="live"
    )

    # --- standings -----------------------------------------------------------------------------------------
    STANDINGS_UPDATED = "standings.updated", About(
        "`standings_recompute` (the task)", audited=False, data="`version`",
        readers="leagues: the event's seasons (marked out of date, then recomputed); live",
    )

    # --- live (`live/services.py`) -------------------------------------------------------------------------
    TIMER_STARTED = "timer.started", About("`timer_start`", data="`round`", readers="live")
    TIMER_PAUSED = "timer.paused", About("`timer_pause`", data="`round`", readers="live")
    TIMER_RESUMED = "timer.resumed", About("`timer_resume`", data="`round`", readers="live")
    TIMER_EXTENDED = "timer.extended", About("`timer_extend`", data="`round`", readers="live")
    TABLE_TIME_EXTENDED = "table.time_extended", About(
        "`table_time_extend` (a judge gives a table extra time)", data="`round`, `table`", readers="live"
    )
    STATION_CREATED = "station.created", About(
        "`station_create` (a caster adds a station)", data="`station_id`", readers="live"
    )
    STATION_CHANGED = "station.changed", About(
        "`station_update` (a caster points a station at a table, puts a decklist on air)", data="`station_id`",
        readers="live",
    )
    OVERLAY_TOKEN_CREATED = "overlay_token.created", About("`overlay_token_create`")
    OVERLAY_TOKEN_REVOKED = "overlay_token.revoked", About("`overlay_token_revoke`")

    # --- the venue floor (`floor/services.py`) ------------------------------------------------------------------
    JUDGE_CALL_OPENED = "judge_call.opened", About(
        "`judge_call_open` (a player calls a judge to their table, or staff open a call for one)",
        data="`call_id`, `round`, `table`, `state`, `players`", readers="live (the staff stream, the table's players)",
    )
    JUDGE_CALL_CLAIMED = "judge_call.claimed", About(
        "`judge_call_claim` (a judge is on the way)", data="the same as `judge_call.opened`",
        readers="live (the staff stream, the table's players); notifications: judge call answered",
    )
    JUDGE_CALL_RESOLVED = "judge_call.resolved", About(
        "`judge_call_resolve` (with the judge's note; extra time is `table.time_extended`)",
        data="the same as `judge_call.opened`", readers="live (the staff stream, the table's players)",
    )
    JUDGE_CALL_CANCELLED = "judge_call.cancelled", About(
        "`judge_call_cancel` (the calling player, or staff)", data="the same as `judge_call.opened`",
        readers="live (the staff stream, the table's players)",
    )
    DECK_CHECKS_PICKED = "deck_checks.picked", About(
        "`deck_checks_pick` (tables of a round chosen by hand, or drawn at random with a recorded seed)",
        data="`round`, `tables`, `seed`",
    )
    DECK_CHECK_STARTED = "deck_check.started", About("`deck_check_start`", data="`round`, `table`")
    DECK_CHECK_RECORDED = "deck_check.recorded", About(
        "`deck_check_finish` (its end, outcome and note; extra time is `table.time_extended`)",
        data="`round`, `table`",
    )
    DECK_CHECK_PENALTY_LINKED = "deck_check.penalty_linked", About("`deck_check_penalty_link`")
    JUDGE_ASSIGNED = "judge.assigned", About("`judge_assign` (a judge to a table or a range, for the event or a round)")
    JUDGE_UNASSIGNED = "judge.unassigned", About("`judge_unassign`")

    # --- leagues -------------------------------------------------------------------------------------------
    LEAGUE_CREATED = "league.created", About("`league_create`", data="`league_id`", readers="the league's trail")
    LEAGUE_UPDATED = "league.updated", About("`league_update`", data="`league_id`", readers="the league's trail")
    LEAGUE_STAFF_ADDED = "league.staff_added", About(
        "`league_staff_add`", data="`league_id`", readers="the league's trail"
    )
    LEAGUE_STAFF_CHANGED = "league.staff_changed", About(
        "`league_staff_add` (someone already on the league's staff, a new role)", data="`league_id`",
        readers="the league's trail",
    )
    LEAGUE_STAFF_REMOVED = "league.staff_removed", About(
        "`league_staff_remove`", data="`league_id`", readers="the league's trail"
    )
    SEASON_CREATED = "season.created", About("`season_create`", data=_SEASON, readers="the league's trail")
    SEASON_UPDATED = "season.updated", About(
        "`season_update` (name, dates, points table, with a reason)",
        data=f"{_SEASON} (when the points table changed)", readers=_SEASON_READERS,
    )
    SEASON_EVENT_ADDED = "season.event_added", About("`season_event_add`", data=_SEASON, readers=_SEASON_READERS)
    SEASON_EVENT_MOVED = "season.event_moved", About(
        "`season_event_add` (the event was in another season of the league)",
        data=f"{_SEASON} (both seasons)", readers=_SEASON_READERS,
    )
    SEASON_EVENT_REMOVED = "season.event_removed", About(
        "`season_event_remove`", data=_SEASON, readers=_SEASON_READERS
    )
    SEASON_STANDINGS_UPDATED = "season.standings_updated", About(
        "`season_standings_recompute` (the task)", audited=False, data="`season_id`, `version`"
    )
    ARCHETYPE_NAMED = "archetype.named", About("`archetype_name_set` (the organiser names a deck)")
    RATINGS_UPDATED = "ratings.updated", About(
        "`ratings_update` (the task)", audited=False, data="`format`, `changes`"
    )
    # fmt: on


#: Each action by its name.
BY_NAME: dict[str, DomainAction] = {action.value: action for action in DomainAction}
