"""What Podium notifies a player of, and by which channel: the kinds and channels are contracts (the API's codes).

*kind*
    One thing that happened to the player (:class:`Kind`): their round is paired (``round_paired``), a result
    waits for them to confirm (``result_to_confirm``) or was disputed (``result_disputed``), they came off the
    waiting list (``waiting_list_promoted``), check-in opened (``check_in_open``), a judge answered their table's
    call (``judge_call_answered``), the round's clock is in its last minutes (``round_ending``).
*channel*
    How it reaches them (:class:`Channel`): ``email``, or ``push`` (Web Push to each browser they subscribed).
*default*
    What a player gets before they choose: e-mail only for what happens away from the venue (the waiting list,
    check-in), push for everything (push needs a subscribed browser, which is itself an opt-in).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    ROUND_PAIRED = "round_paired", _("Round paired: your table and opponents")
    RESULT_TO_CONFIRM = "result_to_confirm", _("A result waits for you to confirm it")
    RESULT_DISPUTED = "result_disputed", _("A result at your table is disputed")
    WAITING_LIST_PROMOTED = "waiting_list_promoted", _("You came off the waiting list")
    CHECK_IN_OPEN = "check_in_open", _("Check-in is open")
    JUDGE_CALL_ANSWERED = "judge_call_answered", _("A judge answered your table's call")
    ROUND_ENDING = "round_ending", _("The round is ending soon")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Push")


#: Kinds sent by e-mail unless the player turns them off; the others only when they turn them on.
EMAIL_BY_DEFAULT = frozenset({Kind.WAITING_LIST_PROMOTED, Kind.CHECK_IN_OPEN})


def default(kind: str, channel: str) -> bool:
    """Whether ``kind`` goes by ``channel`` for a player who has not chosen."""
    return kind in EMAIL_BY_DEFAULT if channel == Channel.EMAIL else True
