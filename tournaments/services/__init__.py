"""Every state change of the tournaments app goes through a function here.

Functions are keyword-only and named ``<entity>_<action>``.  Each one asks
:mod:`tournaments.policy` whether the caller may act, checks the rules, and
writes inside one transaction; a refused request raises
:class:`core.exceptions.ApplicationError` (or a subclass) and changes nothing.
Views, API views, the demo command and the games app all call these, so there
is one write path per change.  One module per concern, the names all here:

* :mod:`.events` - players and events, settings, finishing;
* :mod:`.registrations` - entries and invitations, late entries, check-in, fixed tables, byes, drops;
* :mod:`.entry` - scarce places and fees: the lottery's draw, priority windows, entry fees marked paid;
* :mod:`.roster` - players brought in from a roster file (CSV or TOM ``.tdf``), all or none;
* :mod:`.phases` - an event's Swiss in phases (day 1, day 2) and who advances from one to the next;
* :mod:`.rounds` - pairing rounds, re-pairing, swaps, the top cut;
* :mod:`.results` - a table's result;
* :mod:`.penalties` - penalties given and rescinded (a disqualification drops the player);
* :mod:`.standings` - computing and storing standings, asked for after every change.

A service records what it did as a domain event (:mod:`core.events`) inside
its transaction; the audit trail and the standings are subscribers
(:mod:`tournaments.readers`).  Services never hand work to Celery themselves
and never import tasks.
"""

from tournaments.services.entry import lottery_draw, registration_mark_paid
from tournaments.services.events import event_create, event_finish, event_update, organiser_permission_grant
from tournaments.services.keep_apart import keep_apart_add, keep_apart_remove
from tournaments.services.penalties import penalty_issue, penalty_rescind
from tournaments.services.phases import event_phases_set, phase_advance, phase_advance_undo
from tournaments.services.players import player_create
from tournaments.services.registrations import (
    bye_assign,
    bye_unassign,
    registration_accept,
    registration_check_in,
    registration_create,
    registration_decline,
    registration_drop,
    registration_stream_consent_set,
    registration_update,
)
from tournaments.services.results import pod_result_report
from tournaments.services.roster import roster_import
from tournaments.services.rounds import (
    round_publish,
    round_repair,
    round_start,
    round_start_undo,
    round_swap,
    top_cut_start,
)
from tournaments.services.standings import standings_recompute

__all__ = [
    "bye_assign",
    "bye_unassign",
    "event_create",
    "event_finish",
    "event_phases_set",
    "event_update",
    "lottery_draw",
    "keep_apart_add",
    "keep_apart_remove",
    "organiser_permission_grant",
    "penalty_issue",
    "penalty_rescind",
    "phase_advance",
    "phase_advance_undo",
    "player_create",
    "pod_result_report",
    "registration_accept",
    "registration_check_in",
    "registration_create",
    "registration_decline",
    "registration_drop",
    "registration_stream_consent_set",
    "registration_mark_paid",
    "registration_update",
    "roster_import",
    "round_publish",
    "round_repair",
    "round_start",
    "round_start_undo",
    "round_swap",
    "standings_recompute",
    "top_cut_start",
]
