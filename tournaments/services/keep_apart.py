"""Keep-apart pairs: two players the organiser asks the pairing not to seat together (family, teammates).

The pairing engines avoid repeated opponents first; a keep-apart pair is handed to them as if the two had already
met (:func:`tournaments.services.rounds._entrants`), so it weighs exactly as a rematch: two kept-apart players sit
together only when every pairing of the field has at least as many rematches and kept-apart pairs together.  The
round still counts only real rematches (what ``rematch_unavoidable`` asks about), and a kept-apart pair the
pairing could not separate is said on their seats (``keep_apart``: the pairings page explains it).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict
from tournaments.models import Event, KeepApart, Registration
from tournaments.policy import Action, ensure
from tournaments.services._common import locked_event

__all__ = ["keep_apart_add", "keep_apart_remove"]


def keep_apart_add(*, event: Event, player_a: int, player_b: int, by, note: str = "") -> KeepApart:
    """Keep two players of the event apart from the next pairing on (rounds already paired stay as they are)."""
    ensure(by, Action.MANAGE_REGISTRATIONS, event)
    if player_a == player_b:
        raise ApplicationError(_("Choose two different players."), field="players")
    low, high = sorted((player_a, player_b))
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        entered = set(
            Registration.objects.filter(event=event, player_id__in=(low, high)).values_list("player_id", flat=True)
        )
        missing = [p for p in (low, high) if p not in entered]
        if missing:
            raise ApplicationError(
                _("Player %(players)s is not registered for this event.") % {"players": ", ".join(map(str, missing))},
                field="players",
            )
        try:
            with transaction.atomic():
                pair = KeepApart.objects.create(event=event, player_a_id=low, player_b_id=high, note=note.strip(),
                                                created_by=by)  # fmt: skip
        except IntegrityError:
            raise Conflict(_("These two players are already kept apart."), code="keep_apart_exists") from None
        events.record(
            event=event, by=by, action=DomainAction.KEEP_APART_ADDED, subject=f"Players {low} and {high}",
            after={"players": [low, high], "note": pair.note},
        )  # fmt: skip
    return pair


def keep_apart_remove(*, pair: KeepApart, by) -> None:
    ensure(by, Action.MANAGE_REGISTRATIONS, pair.event)
    with transaction.atomic():
        event = locked_event(pair.event_id)
        before = {"players": [pair.player_a_id, pair.player_b_id], "note": pair.note}
        KeepApart.objects.filter(pk=pair.pk).delete()
        events.record(
            event=event, by=by, action=DomainAction.KEEP_APART_REMOVED,
            subject=f"Players {pair.player_a_id} and {pair.player_b_id}", before=before,
        )  # fmt: skip
