"""Phases: splitting an event's Swiss into parts (day 1, day 2) and advancing players from one to the next.

The terms and the pure rules are in :mod:`tournaments.standings.phases`.
An event's plan is its :class:`~tournaments.models.Phase` rows; without rows
it is one phase.  :func:`event_phases_set` writes the plan (and the event's
``planned_rounds``, their sum); :func:`phase_advance` ends a phase, once its
last round is complete, by marking who goes on (``Registration.phase``);
:func:`phase_advance_undo` takes that back before the next phase is paired.
Pairing (:mod:`.rounds`) pairs only the players of the current phase, and
the standings (:mod:`.standings`) rank a later phase's players first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound
from tournaments import selectors, words
from tournaments.models import Event, Phase, Registration, Round
from tournaments.policy import Action, ensure
from tournaments.selectors.standings import phase_going_on
from tournaments.services._common import locked_event, missing_message, tables_without_result
from tournaments.standings import phases as rules

__all__ = ["event_phases_set", "phase_advance", "phase_advance_undo"]


def _plan(phase: Phase) -> rules.PhasePlan:
    return rules.plan_of([phase])[0]


def _phases(event: Event) -> list[Phase]:
    return list(Phase.objects.filter(event=event).order_by("number"))


def _facts(phases: Sequence[rules.PhasePlan]) -> list[dict[str, Any]]:
    return [
        {"name": p.name, "rounds": p.rounds, "advance_points": p.advance_points, "advance_top": p.advance_top}
        for p in phases
    ]


def event_phases_set(
    *, event: Event, by, phases: Sequence[rules.PhasePlan] | None = None, preset: str | None = None
) -> list[Phase]:
    """Replace the event's plan of phases (``[]``: no phases) or apply a preset (``"pokemon_day2"``).

    The event's ``planned_rounds`` becomes the plan's total.  A phase whose
    players have advanced cannot change; nor can a phase be given fewer
    rounds than it has paired.  A preset also plans its top cut
    (``planned_cut_size``) when the event has none planned yet.
    """
    ensure(by, Action.EDIT_EVENT, event)
    if (phases is None) == (preset is None):
        raise ApplicationError(_("Give the phases or a preset, not both."), field="phases")
    if preset is not None:
        if preset not in rules.PRESETS:
            raise ApplicationError(
                _("Unknown preset '%(preset)s': choose %(presets)s.")
                % {"preset": preset, "presets": ", ".join(map(repr, rules.PRESETS))},
                field="preset",
            )
        phases = rules.PRESETS[preset][0]
    assert phases is not None
    plan = list(phases)
    if plan:
        try:
            rules.check_plan(plan)
        except ValueError as exc:
            raise ApplicationError(_("This plan cannot run: %(problem)s.") % {"problem": exc}, field="phases") from None
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        if event.top_cut_size:
            raise Conflict(_("The top cut has started: the Swiss phases are over."), code="top_cut_started")
        current = _phases(event)
        played = selectors.swiss_rounds_paired(event)
        for old in current:
            if old.advanced_at is None:
                continue
            new = plan[old.number - 1] if old.number <= len(plan) else None
            if new is None or _plan(old) != new:
                raise Conflict(
                    _("%(phase)s's players have advanced: it cannot change (undo the advance first).")
                    % {"phase": old.name},
                    code="phase_advanced",
                    field="phases",
                )
        total = sum(p.rounds for p in plan) if plan else event.planned_rounds
        if total < played:
            raise Conflict(
                _("%(played)s Swiss round(s) have been paired: the phases need at least as many rounds.")
                % {"played": played},
                code="rounds_already_paired",
                field="phases",
            )
        if plan and played:
            # A paired round stays in the phase it was paired in: the advance that opened it must still hold.
            for number in range(1, len(plan)):
                if rules.last_round(plan, number) < played and (
                    number > len(current) or current[number - 1].advanced_at is None
                ):
                    raise Conflict(
                        _(
                            "Round %(round)s has been paired without %(phase)s's players advancing: this plan does "
                            "not fit the rounds played."
                        )
                        % {"round": rules.last_round(plan, number) + 1, "phase": plan[number - 1].name},
                        code="rounds_already_paired",
                        field="phases",
                    )
        before = {"phases": _facts([_plan(p) for p in current]), "planned_rounds": event.planned_rounds}
        advanced = {p.number: (p.advanced_at, p.advanced_count) for p in current}
        Phase.objects.filter(event=event).delete()
        rows = Phase.objects.bulk_create(
            Phase(
                event=event, number=n, name=p.name.strip(), rounds=p.rounds, advance_points=p.advance_points,
                advance_top=p.advance_top, advanced_at=advanced.get(n, (None, None))[0],
                advanced_count=advanced.get(n, (None, None))[1],
            )
            for n, p in enumerate(plan, start=1)
        )  # fmt: skip
        event.planned_rounds = total
        event.phase_count = len(plan)
        changed = ["planned_rounds", "phase_count"]
        if preset is not None and event.planned_cut_size is None:
            event.planned_cut_size = rules.PRESETS[preset][1]  # the preset's cut, unless one is planned already
            changed.append("planned_cut_size")
        event.save(update_fields=changed)
        events.record(
            event=event, by=by, action=DomainAction.EVENT_PHASES_PLANNED, subject="Phases", before=before,
            after={"phases": _facts(plan), "planned_rounds": event.planned_rounds}, phases=len(plan),
            planned_rounds=event.planned_rounds,
        )  # fmt: skip
    return rows


def _phase(event: Event, number: int) -> tuple[list[Phase], Phase]:
    phases = _phases(event)
    if not 1 <= number <= len(phases):
        raise NotFound(_("The event has no phase %(phase)s.") % {"phase": number}, code="phase_not_found")
    return phases, phases[number - 1]


def phase_advance(*, event: Event, number: int, by) -> list[int]:
    """End phase ``number``: the players its rule lets through go on to the next phase; returns their ids.

    Refused until every round of the phase is paired and every table has its
    result, when the phase has advanced already, or when nobody qualifies.
    Players who do not go on keep their record and standing; they are not
    paired again.  Pre-assigned byes of the next phase stay with the players
    they were given to (a player who does not go on simply is not paired).
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        phases, phase = _phase(event, number)
        plan = [_plan(p) for p in phases]
        if number == len(phases):
            raise Conflict(
                _("%(phase)s is the last phase: the top cut or the end follows it.") % {"phase": phase.name},
                code="last_phase",
            )
        if phase.advanced_at is not None:
            raise Conflict(
                _("%(phase)s's players have advanced already.") % {"phase": phase.name}, code="phase_advanced"
            )
        if number > 1 and phases[number - 2].advanced_at is None:
            raise Conflict(
                _("%(phase)s has not advanced yet.") % {"phase": phases[number - 2].name}, code="phase_not_advanced"
            )
        last = rules.last_round(plan, number)
        played = selectors.swiss_rounds_paired(event)
        if played < last:
            raise Conflict(
                _("%(phase)s ends with round %(round)s: %(left)s of its rounds remain to be played.")
                % {"phase": phase.name, "round": last, "left": last - played},
                code="phase_incomplete",
            )
        missing = tables_without_result(event)
        if missing:
            raise Conflict(missing_message(missing), code="round_incomplete")
        going_on = phase_going_on(event=event, number=number, plan=plan)
        if not going_on:
            raise Conflict(_("No player qualifies for %(phase)s (%(current)s: %(rule)s).") % {"phase": phases[number].name, "current": phase.name, "rule": words.phase_rule(advance_points=plan[number - 1].advance_points, advance_top=plan[number - 1].advance_top)}, code="nobody_advances")  # fmt: skip
        Registration.objects.filter(event=event, player_id__in=going_on).update(phase=number + 1)
        phase.advanced_at = timezone.now()
        phase.advanced_count = len(going_on)
        phase.save(update_fields=["advanced_at", "advanced_count"])
        event.advanced_phases = number
        event.save(update_fields=["advanced_phases"])
        events.record(
            event=event, by=by, action=DomainAction.PHASE_ADVANCED, subject=phase.name,
            after={"to": phases[number].name, "rule": plan[number - 1].rule_text(), "players": going_on},
            phase=number, advanced=len(going_on),
        )  # fmt: skip
    return going_on


def phase_advance_undo(*, event: Event, number: int, by) -> None:
    """Take back phase ``number``'s advance: allowed until the next phase's first round is paired."""
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        phases, phase = _phase(event, number)
        if phase.advanced_at is None:
            raise Conflict(
                _("%(phase)s's players have not advanced.") % {"phase": phase.name}, code="phase_not_advanced"
            )
        plan = [_plan(p) for p in phases]
        if Round.objects.filter(event=event, number__gt=rules.last_round(plan, number)).exists():
            raise Conflict(
                _("%(phase)s has started: re-pairing its rounds away comes first.") % {"phase": phases[number].name},
                code="phase_started",
            )
        players = list(Registration.objects.filter(event=event, phase__gt=number).values_list("player_id", flat=True))
        Registration.objects.filter(event=event, phase__gt=number).update(phase=number)
        before = {"advanced_at": phase.advanced_at.isoformat(), "players": players}
        phase.advanced_at = None
        phase.advanced_count = None
        phase.save(update_fields=["advanced_at", "advanced_count"])
        event.advanced_phases = number - 1
        event.save(update_fields=["advanced_phases"])
        events.record(
            event=event, by=by, action=DomainAction.PHASE_ADVANCE_UNDONE, subject=phase.name, before=before,
            phase=number,
        )  # fmt: skip
