"""The event's audit trail, each entry's change in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.domain_actions import DomainAction
from core.doorway import enter
from tournaments import doors, policy, words
from tournaments.forms import shown_name
from tournaments.models import AuditEntry, Penalty, Registration
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.views.staff import ROLE_NAMES

AUDIT_PAGE_SIZE = 50


AUDIT_KIND_NAMES = {
    "": "All",
    "results": "Results",
    "registrations": "Registrations",
    "rounds": "Rounds",
    "staff": "Staff",
    "event": "Event",
    "decks": "Decks",
    "penalties": "Penalties",
    "floor": "Judge calls and deck checks",
}

#: Each action of the audit trail in words (an unknown one is shown from its name), read by the stored text.
AUDIT_ACTION_NAMES: dict[str, str] = {
    DomainAction.EVENT_CREATED: "Event created",
    DomainAction.EVENT_UPDATED: "Settings changed",
    DomainAction.EVENT_FINISHED: "Event finished",
    DomainAction.REGISTRATION_CREATED: "Registered by staff",
    DomainAction.REGISTRATION_SELF_REGISTERED: "Registered themselves",
    DomainAction.REGISTRATION_WAITLISTED: "Joined the waiting list",
    DomainAction.REGISTRATION_PROMOTED: "Moved up from the waiting list",
    DomainAction.REGISTRATION_WITHDRAWN: "Withdrawn",
    DomainAction.REGISTRATION_INVITED: "Invited by staff (the player's record is linked to an account)",
    DomainAction.REGISTRATION_ACCEPTED: "Invitation accepted by the player",
    DomainAction.REGISTRATION_DECLINED: "Invitation declined by the player",
    DomainAction.REGISTRATION_INVITATION_WITHDRAWN: "Invitation withdrawn by staff",
    DomainAction.REGISTRATION_CHECKED_IN: "Checked in",
    DomainAction.REGISTRATION_CHECKED_OUT: "Checked out",
    DomainAction.REGISTRATION_DROPPED: "Dropped",
    DomainAction.REGISTRATION_UNDROPPED: "Drop undone",
    DomainAction.REGISTRATION_FIXED_TABLE: "Fixed table changed",
    DomainAction.REGISTRATION_STREAM_CONSENT: "Stream consent changed",
    DomainAction.REGISTRATION_APPLIED: "Applied to the lottery",
    DomainAction.LOTTERY_DRAWN: "Lottery drawn",
    DomainAction.REGISTRATION_PAID: "Entry fee marked paid",
    DomainAction.REGISTRATION_UNPAID: "Entry fee marked unpaid",
    DomainAction.BYE_ASSIGNED: "Bye assigned",
    DomainAction.BYE_UNASSIGNED: "Bye taken back",
    DomainAction.PLAYER_CLAIM_CODE: "Claim code made",
    DomainAction.PLAYER_CLAIMED: "Player record claimed",
    DomainAction.ROUND_STARTED: "Round paired",
    DomainAction.ROUND_REPAIRED: "Round re-paired",
    DomainAction.ROUND_SWAPPED: "Players swapped",
    DomainAction.TOP_CUT_STARTED: "Top cut started",
    DomainAction.RESULT_ENTERED: "Result entered by staff",
    DomainAction.RESULT_REPORTED: "Result reported by a player",
    DomainAction.RESULT_AGREED: "Report confirmed by a player",
    DomainAction.RESULT_CONFIRMED: "Result final: every player confirmed",
    DomainAction.RESULT_DISPUTED: "Report disputed",
    DomainAction.RESULT_SETTLED: "Result settled by staff",
    DomainAction.RESULT_CORRECTED: "Result corrected",
    DomainAction.STAFF_ADDED: "Staff added",
    DomainAction.STAFF_CHANGED: "Staff role changed",
    DomainAction.STAFF_REMOVED: "Staff removed",
    DomainAction.DECK_SUBMITTED: "Deck submitted",
    DomainAction.DECK_OVERRIDDEN: "Deck ruled on",
    DomainAction.DECK_OVERRIDE_CLEARED: "Deck ruling cleared",
    DomainAction.DECKS_RECHECKED: "Every deck re-checked",
    DomainAction.DECKS_PUBLISHED: "Decklists published or hidden",
    DomainAction.DECKS_OPTIONS_CHANGED: "Deck options changed",
    DomainAction.PENALTY_ISSUED: "Penalty given",
    DomainAction.PENALTY_RESCINDED: "Penalty rescinded",
    DomainAction.JUDGE_CALL_OPENED: "Judge called",
    DomainAction.JUDGE_CALL_CLAIMED: "Judge call claimed",
    DomainAction.JUDGE_CALL_RESOLVED: "Judge call resolved",
    DomainAction.JUDGE_CALL_CANCELLED: "Judge call cancelled",
    DomainAction.DECK_CHECKS_PICKED: "Tables picked for deck checks",
    DomainAction.DECK_CHECK_STARTED: "Deck check started",
    DomainAction.DECK_CHECK_RECORDED: "Deck check recorded",
    DomainAction.DECK_CHECK_PENALTY_LINKED: "Penalty linked to a deck check",
    DomainAction.JUDGE_ASSIGNED: "Judge assigned to tables",
    DomainAction.JUDGE_UNASSIGNED: "Judge taken off tables",
}

_FIELD_NAMES = {"late_entry_round": "late entry from round", "dropped_after_round": "dropped after round"}


def _is_outcome(value: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict) and "placements" in value


def _is_pairing(value: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict) and "tables" in value and "seed" in value


def _audit_player_ids(value: Any) -> set[int]:
    ids: set[int] = set()
    if _is_outcome(value):
        ids.update(int(pid) for pid in value["placements"])
    if isinstance(value, dict):
        for key in ("reported", "says"):
            ids |= _audit_player_ids(value.get(key))
    return ids


def _plain_value(key: str, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "status" and value in Registration.Status.values:
        return str(Registration.Status(value).label).lower()
    if key == "role" and value in ROLE_NAMES:
        return str(ROLE_NAMES[value])
    if isinstance(value, list):
        return ", ".join(_plain_value(key, v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain_value(k, v)}" for k, v in value.items()) or "none"
    return str(value)


def _pairing_words(facts: dict) -> str:
    tables = facts.get("tables") or {}
    played = sum(1 for key in tables if key != "bye")
    byes = len(tables.get("bye", []))
    return (
        f"{played} table{'s' if played != 1 else ''}"
        + (f", {byes} bye{'s' if byes != 1 else ''}" if byes else "")
        + (f", seed {facts['seed']}" if facts.get("seed") else "")
    )


def _stored_outcome(outcome: dict, names: Mapping[int, str]) -> str:
    return words.outcome(outcome["placements"], outcome.get("games"), outcome.get("intentional_draw", False), names)


def _penalty_words(facts: dict) -> str:
    """A penalty in words: "Warning for Drawing extra cards, round 2"."""
    kind = facts.get("penalty")
    name = Penalty.Kind(kind).label if kind in Penalty.Kind.values else str(kind)
    when = f"round {facts['round']}" if facts.get("round") else "before round 1"
    return f"{name} for {facts.get('infraction', '')}, {when}"


def _audit_change(entry: AuditEntry, names: Mapping[int, str]) -> list[str]:
    """An entry's before and after in words: the lines the audit page shows."""
    before, after = entry.before, entry.after
    if entry.action.startswith("penalty.") and isinstance(after, dict):
        lines = [_penalty_words(after)]
        if entry.action == DomainAction.PENALTY_ISSUED and after.get("note"):
            lines.append(f"note: {after['note']}")
        return lines
    if entry.action == DomainAction.RESULT_DISPUTED:
        reported, says = (before or {}).get("reported"), (after or {}).get("says")
        lines = [f"reported: {_stored_outcome(reported, names)}"] if _is_outcome(reported) else []
        lines.append(f"says: {_stored_outcome(says, names)}" if _is_outcome(says) else "says it is wrong")
        return lines
    if _is_outcome(before) or _is_outcome(after):
        lines = [" → ".join(_stored_outcome(v, names) for v in (before, after) if _is_outcome(v))]
        later = (after or {}).get("rounds_paired_since")
        if later:
            lines.append(words.kept_as_paired(later))
        return lines
    if _is_pairing(before) or _is_pairing(after):
        return [" → ".join(_pairing_words(v) for v in (before, after) if _is_pairing(v))]
    if not isinstance(before, dict) and not isinstance(after, dict):
        return [" → ".join(_plain_value("", v) for v in (before, after) if v is not None)] if before or after else []
    before, after = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
    lines = []
    for key in list(before) + [k for k in after if k not in before]:
        field = _FIELD_NAMES.get(key, key.replace("_", " "))
        if key in before and key in after:
            if before[key] != after[key]:
                lines.append(f"{field}: {_plain_value(key, before[key])} → {_plain_value(key, after[key])}")
        elif key in after:
            if after[key] not in (None, False, "", [], {}):  # what a new record leaves unset goes unsaid
                lines.append(f"{field}: {_plain_value(key, after[key])}")
        else:
            lines.append(f"{field}: was {_plain_value(key, before[key])}")
    return lines


@login_required
def event_audit(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's audit trail, newest first, a page at a time, optionally of one kind."""
    event = enter(request, doors.event(Action.READ_AUDIT), event_id)
    kind = request.GET.get("kind", "")
    if kind not in people_selectors.AUDIT_KINDS:
        kind = ""
    paginator = Paginator(people_selectors.event_audit_of_kind(event=event, kind=kind or None), AUDIT_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    entries = list(page.object_list)
    ids = (
        set().union(*(_audit_player_ids(e.before) | _audit_player_ids(e.after) for e in entries)) if entries else set()
    )
    players = people_selectors.players_by_id(ids=ids)
    namesakes = people_selectors.event_namesakes(event=event)
    names = {pid: shown_name(player, namesakes) for pid, player in players.items()}
    rows = [
        {
            "entry": entry,
            "what": AUDIT_ACTION_NAMES.get(entry.action, entry.action.replace(".", " ").replace("_", " ").capitalize()),
            "change": _audit_change(entry, names),
        }
        for entry in entries
    ]
    context = {
        "event": event,
        "may": policy.may(request.user, event),
        "rows": rows,
        "page": page,
        "kind": kind,
        "kinds": list(AUDIT_KIND_NAMES.items()),
        "query": f"kind={kind}&" if kind else "",
    }
    return render(request, "dashboard/event_audit.html", context)
