"""The event's audit trail, each entry's change in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.domain_actions import DomainAction
from core.doorway import enter
from core.language import in_sentence
from tournaments import doors, policy, words
from tournaments.forms import shown_name
from tournaments.models import AuditEntry, Penalty, Registration
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.views.staff import ROLE_NAMES

AUDIT_PAGE_SIZE = 50


AUDIT_KIND_NAMES = {
    "": gettext_lazy("All"),
    "results": gettext_lazy("Results"),
    "registrations": gettext_lazy("Registrations"),
    "rounds": gettext_lazy("Rounds"),
    "staff": gettext_lazy("Staff"),
    "event": gettext_lazy("Event"),
    "decks": gettext_lazy("Decks"),
    "penalties": gettext_lazy("Penalties"),
    "floor": gettext_lazy("Judge calls and deck checks"),
}

#: Each action of the audit trail in words (an unknown one is shown from its name), read by the stored text.
AUDIT_ACTION_NAMES: dict[str, object] = {
    DomainAction.EVENT_CREATED: gettext_lazy("Event created"),
    DomainAction.EVENT_UPDATED: gettext_lazy("Settings changed"),
    DomainAction.EVENT_FINISHED: gettext_lazy("Event finished"),
    DomainAction.REGISTRATION_CREATED: gettext_lazy("Registered by staff"),
    DomainAction.REGISTRATION_SELF_REGISTERED: gettext_lazy("Registered themselves"),
    DomainAction.REGISTRATION_WAITLISTED: gettext_lazy("Joined the waiting list"),
    DomainAction.REGISTRATION_PROMOTED: gettext_lazy("Moved up from the waiting list"),
    DomainAction.REGISTRATION_WITHDRAWN: gettext_lazy("Withdrawn"),
    DomainAction.REGISTRATION_INVITED: gettext_lazy("Invited by staff (the player's record is linked to an account)"),
    DomainAction.REGISTRATION_ACCEPTED: gettext_lazy("Invitation accepted by the player"),
    DomainAction.REGISTRATION_DECLINED: gettext_lazy("Invitation declined by the player"),
    DomainAction.REGISTRATION_INVITATION_WITHDRAWN: gettext_lazy("Invitation withdrawn by staff"),
    DomainAction.REGISTRATION_CHECKED_IN: gettext_lazy("Checked in"),
    DomainAction.REGISTRATION_CHECKED_OUT: gettext_lazy("Checked out"),
    DomainAction.REGISTRATION_DROPPED: gettext_lazy("Dropped"),
    DomainAction.REGISTRATION_UNDROPPED: gettext_lazy("Drop undone"),
    DomainAction.REGISTRATION_FIXED_TABLE: gettext_lazy("Fixed table changed"),
    DomainAction.REGISTRATION_STREAM_CONSENT: gettext_lazy("Stream consent changed"),
    DomainAction.REGISTRATION_APPLIED: gettext_lazy("Applied to the lottery"),
    DomainAction.LOTTERY_DRAWN: gettext_lazy("Lottery drawn"),
    DomainAction.REGISTRATION_PAID: gettext_lazy("Entry fee marked paid"),
    DomainAction.REGISTRATION_UNPAID: gettext_lazy("Entry fee marked unpaid"),
    DomainAction.BYE_ASSIGNED: gettext_lazy("Bye assigned"),
    DomainAction.BYE_UNASSIGNED: gettext_lazy("Bye taken back"),
    DomainAction.PLAYER_CLAIM_CODE: gettext_lazy("Claim code made"),
    DomainAction.PLAYER_CLAIMED: gettext_lazy("Player record claimed"),
    DomainAction.ROUND_STARTED: gettext_lazy("Round paired"),
    DomainAction.ROUND_REPAIRED: gettext_lazy("Round re-paired"),
    DomainAction.ROUND_SWAPPED: gettext_lazy("Players swapped"),
    DomainAction.TOP_CUT_STARTED: gettext_lazy("Top cut started"),
    DomainAction.RESULT_ENTERED: gettext_lazy("Result entered by staff"),
    DomainAction.RESULT_REPORTED: gettext_lazy("Result reported by a player"),
    DomainAction.RESULT_AGREED: gettext_lazy("Report confirmed by a player"),
    DomainAction.RESULT_CONFIRMED: gettext_lazy("Result final: every player confirmed"),
    DomainAction.RESULT_DISPUTED: gettext_lazy("Report disputed"),
    DomainAction.RESULT_SETTLED: gettext_lazy("Result settled by staff"),
    DomainAction.RESULT_CORRECTED: gettext_lazy("Result corrected"),
    DomainAction.STAFF_ADDED: gettext_lazy("Staff added"),
    DomainAction.STAFF_CHANGED: gettext_lazy("Staff role changed"),
    DomainAction.STAFF_REMOVED: gettext_lazy("Staff removed"),
    DomainAction.DECK_SUBMITTED: gettext_lazy("Deck submitted"),
    DomainAction.DECK_OVERRIDDEN: gettext_lazy("Deck ruled on"),
    DomainAction.DECK_OVERRIDE_CLEARED: gettext_lazy("Deck ruling cleared"),
    DomainAction.DECKS_RECHECKED: gettext_lazy("Every deck re-checked"),
    DomainAction.DECKS_PUBLISHED: gettext_lazy("Decklists published or hidden"),
    DomainAction.DECKS_OPTIONS_CHANGED: gettext_lazy("Deck options changed"),
    DomainAction.PENALTY_ISSUED: gettext_lazy("Penalty given"),
    DomainAction.PENALTY_RESCINDED: gettext_lazy("Penalty rescinded"),
    DomainAction.JUDGE_CALL_OPENED: gettext_lazy("Judge called"),
    DomainAction.JUDGE_CALL_CLAIMED: gettext_lazy("Judge call claimed"),
    DomainAction.JUDGE_CALL_RESOLVED: gettext_lazy("Judge call resolved"),
    DomainAction.JUDGE_CALL_CANCELLED: gettext_lazy("Judge call cancelled"),
    DomainAction.DECK_CHECKS_PICKED: gettext_lazy("Tables picked for deck checks"),
    DomainAction.DECK_CHECK_STARTED: gettext_lazy("Deck check started"),
    DomainAction.DECK_CHECK_RECORDED: gettext_lazy("Deck check recorded"),
    DomainAction.DECK_CHECK_PENALTY_LINKED: gettext_lazy("Penalty linked to a deck check"),
    DomainAction.JUDGE_ASSIGNED: gettext_lazy("Judge assigned to tables"),
    DomainAction.JUDGE_UNASSIGNED: gettext_lazy("Judge taken off tables"),
}

_FIELD_NAMES = {
    "late_entry_round": gettext_lazy("late entry from round"),
    "dropped_after_round": gettext_lazy("dropped after round"),
}


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
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "status" and value in Registration.Status.values:
        return in_sentence(Registration.Status(value).label)
    if key == "role" and value in ROLE_NAMES:
        return str(ROLE_NAMES[value])
    if isinstance(value, list):
        return ", ".join(_plain_value(key, v) for v in value) or _("none")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain_value(k, v)}" for k, v in value.items()) or _("none")
    return str(value)


def _pairing_words(facts: dict) -> str:
    tables = facts.get("tables") or {}
    played = sum(1 for key in tables if key != "bye")
    byes = len(tables.get("bye", []))
    parts = [ngettext("%(tables)s table", "%(tables)s tables", played) % {"tables": played}]
    if byes:
        parts.append(ngettext("%(byes)s bye", "%(byes)s byes", byes) % {"byes": byes})
    if facts.get("seed"):
        parts.append(_("seed %(seed)s") % {"seed": facts["seed"]})
    return ", ".join(parts)


def _stored_outcome(outcome: dict, names: Mapping[int, str]) -> str:
    return words.outcome(outcome["placements"], outcome.get("games"), outcome.get("intentional_draw", False), names)


def _penalty_words(facts: dict) -> str:
    """A penalty in words: "Warning for Drawing extra cards, round 2"."""
    kind = facts.get("penalty")
    name = Penalty.Kind(kind).label if kind in Penalty.Kind.values else str(kind)
    said = {"penalty": name, "infraction": facts.get("infraction", ""), "round": facts.get("round")}
    if facts.get("round"):
        return _("%(penalty)s for %(infraction)s, round %(round)s") % said
    return _("%(penalty)s for %(infraction)s, before round 1") % said


def _audit_change(entry: AuditEntry, names: Mapping[int, str]) -> list[str]:
    """An entry's before and after in words: the lines the audit page shows."""
    before, after = entry.before, entry.after
    if entry.action.startswith("penalty.") and isinstance(after, dict):
        lines = [_penalty_words(after)]
        if entry.action == DomainAction.PENALTY_ISSUED and after.get("note"):
            lines.append(_("note: %(note)s") % {"note": after["note"]})
        return lines
    if entry.action == DomainAction.RESULT_DISPUTED:
        reported, says = (before or {}).get("reported"), (after or {}).get("says")
        lines = (
            [_("reported: %(result)s") % {"result": _stored_outcome(reported, names)}] if _is_outcome(reported) else []
        )
        lines.append(
            _("says: %(result)s") % {"result": _stored_outcome(says, names)}
            if _is_outcome(says)
            else _("says it is wrong")
        )
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
        field = str(_FIELD_NAMES.get(key, key.replace("_", " ")))
        if key in before and key in after:
            if before[key] != after[key]:
                lines.append(f"{field}: {_plain_value(key, before[key])} → {_plain_value(key, after[key])}")
        elif key in after:
            if after[key] not in (None, False, "", [], {}):  # what a new record leaves unset goes unsaid
                lines.append(f"{field}: {_plain_value(key, after[key])}")
        else:
            lines.append(_("%(field)s: was %(value)s") % {"field": field, "value": _plain_value(key, before[key])})
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
            "what": str(
                AUDIT_ACTION_NAMES.get(entry.action, entry.action.replace(".", " ").replace("_", " ").capitalize())
            ),
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
