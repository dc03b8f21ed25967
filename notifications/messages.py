"""A delivery in words: the message for one kind, written when it is sent, from what is true then, in the
recipient's language (:func:`notifications.language.language_for`).

Each kind's :func:`compose` reads the facts its delivery names (``params``: ids) and answers a :class:`Message`,
or ``None`` when the message no longer has anything to say (the round was paired again, the result was confirmed
meanwhile, check-in closed): then nothing is sent.  E-mail is rendered from ``templates/notifications/email/``
(subject, text, HTML), a push is the title, the body and the link as JSON for ``static/js/sw-push.js``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email import _header_value_parser as header_parser
from email import headerregistry
from email import policy as email_policy
from typing import Any

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from notifications import selectors
from notifications.kinds import Kind
from notifications.language import language_for
from notifications.models import Delivery
from tournaments import words
from tournaments.models import Event

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


class _WholeTokens(header_parser.UnstructuredTokenList):
    as_ew_allowed = False


class _ListUnsubscribeHeader(headerregistry.UnstructuredHeader):
    """``List-Unsubscribe`` as mail clients read it: its ``<URL>`` whole on a line, however long.  An unstructured
    header's word longer than a line would otherwise go out as an RFC 2047 encoded word, which no client reads
    as a link."""

    @classmethod
    def parse(cls, value: str, kwds: dict[str, Any]) -> None:
        super().parse(value, kwds)
        kwds["parse_tree"] = _WholeTokens(kwds["parse_tree"])


# The e-mail policies share one header registry (default, SMTP): the header is folded so in every message.
_registry: Any = email_policy.SMTP.header_factory
_registry.map_to_type("list-unsubscribe", _ListUnsubscribeHeader)


@dataclass(frozen=True, slots=True)
class Message:
    title: str
    body: str
    #: Where the player acts on it (their page, the event's page): a path of this site.
    path: str


@dataclass(frozen=True, slots=True)
class Email:
    subject: str
    text: str
    html: str
    unsubscribe_url: str
    language: str


def absolute(path: str) -> str:
    return settings.PODIUM_SITE_URL.rstrip("/") + path


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """A signed token that turns one kind's e-mails off for one user, with no sign-in (the e-mail's link)."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """The user id and kind the token was made for; ``None`` for a token that was not (tampered, truncated)."""
    try:
        found = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user_id, kind = int(found["u"]), str(found["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    return (user_id, kind) if kind in Kind.values else None


# --- each kind in words -----------------------------------------------------------------------------------------


def _me() -> str:
    return reverse("accounts:me")


def _round_paired(event: Event, params: dict, user_id: int) -> Message | None:
    seat = selectors.seat_of(round_id=params["round_id"], user_id=user_id)
    if seat is None:  # paired again since (a new round), or the player left it: that pairing has its own message
        return None
    round_ = seat.round
    tables = selectors.table_count(round_id=round_.pk) if round_.stage == round_.Stage.TOP_CUT else 0
    label = words.round_name(
        round_.number, cut=round_.stage == round_.Stage.TOP_CUT, tables=tables, pods=not event.is_one_vs_one
    )
    title = _("%(event)s: %(round)s is paired") % {"event": event.name, "round": label}
    if seat.pod.is_bye:
        return Message(title, _("You have a bye this round."), _me())
    opponents = ", ".join(s.player.display_name for s in seat.pod.seats.all() if s.player_id != seat.player_id)
    body = _("Table %(table)s, against %(opponents)s.") % {"table": seat.pod.table_number, "opponents": opponents}
    return Message(title, body, _me())


def _result_to_confirm(event: Event, params: dict, user_id: int) -> Message | None:
    if not selectors.report_pending(report_id=params["report_id"]):  # confirmed, disputed or settled meanwhile
        return None
    title = _("%(event)s: confirm your result") % {"event": event.name}
    body = _("Round %(round)s, table %(table)s: a result was reported. Confirm it or dispute it on your page.") % {
        "round": params["round"], "table": params["table"],
    }  # fmt: skip
    return Message(title, body, _me())


def _result_disputed(event: Event, params: dict, user_id: int) -> Message | None:
    title = _("%(event)s: a result is disputed") % {"event": event.name}
    body = _("Round %(round)s, table %(table)s: the result is disputed. A judge will settle it.") % {
        "round": params["round"], "table": params["table"],
    }  # fmt: skip
    return Message(title, body, _me())


def _waiting_list_promoted(event: Event, params: dict, user_id: int) -> Message | None:
    title = _("%(event)s: you have a place") % {"event": event.name}
    body = _("A place freed up: you came off the waiting list and are registered.")
    return Message(title, body, reverse("public:event", args=[event.pk]))


def _check_in_open(event: Event, params: dict, user_id: int) -> Message | None:
    if not event.check_in_open:
        return None
    title = _("%(event)s: check-in is open") % {"event": event.name}
    body = _("Check in from your page before the first round.")
    return Message(title, body, _me())


def _judge_call_answered(event: Event, params: dict, user_id: int) -> Message | None:
    title = _("%(event)s: a judge is coming") % {"event": event.name}
    body = _("A judge is on the way to table %(table)s.") % {"table": params["table"]}
    return Message(title, body, _me())


def _round_ending(event: Event, params: dict, user_id: int) -> Message | None:
    title = _("%(event)s: the round ends soon") % {"event": event.name}
    body = _("Round %(round)s ends in %(minutes)s minutes (table %(table)s).") % {
        "round": params["round"], "minutes": params["minutes"], "table": params["table"],
    }  # fmt: skip
    return Message(title, body, _me())


COMPOSERS: dict[str, Callable[[Event, dict, int], Message | None]] = {
    Kind.ROUND_PAIRED: _round_paired,
    Kind.RESULT_TO_CONFIRM: _result_to_confirm,
    Kind.RESULT_DISPUTED: _result_disputed,
    Kind.WAITING_LIST_PROMOTED: _waiting_list_promoted,
    Kind.CHECK_IN_OPEN: _check_in_open,
    Kind.JUDGE_CALL_ANSWERED: _judge_call_answered,
    Kind.ROUND_ENDING: _round_ending,
}


def compose(delivery: Delivery) -> Message | None:
    """The delivery's message in the current language, or ``None`` when there is nothing to say any more."""
    event = selectors.event_of(delivery.params.get("event_id", 0))
    if event is None:
        return None
    return COMPOSERS[delivery.kind](event, delivery.params, delivery.user_id)


def email(delivery: Delivery) -> Email | None:
    """The delivery as an e-mail in the recipient's language (``None``: nothing to say any more)."""
    user: Any = delivery.user
    language = language_for(user)
    with translation.override(language):
        message = compose(delivery)
        if message is None:
            return None
        token = unsubscribe_token(user_id=user.pk, kind=delivery.kind)
        unsubscribe_url = absolute(reverse("notifications:unsubscribe", args=[token]))
        context = {
            "message": message, "url": absolute(message.path), "unsubscribe_url": unsubscribe_url,
            "kind_label": Kind(delivery.kind).label, "settings_url": absolute(reverse("notifications:settings")),
            "username": user.get_username(),
        }  # fmt: skip
        subject = render_to_string("notifications/email/subject.txt", context).strip()
        text = render_to_string("notifications/email/message.txt", context)
        html = render_to_string("notifications/email/message.html", context)
    return Email(subject=" ".join(subject.split()), text=text, html=html, unsubscribe_url=unsubscribe_url,
                 language=language)  # fmt: skip


def push_payload(delivery: Delivery) -> dict[str, Any] | None:
    """The delivery as a push's JSON in the recipient's language (``None``: nothing to say any more)."""
    with translation.override(language_for(delivery.user)):
        message = compose(delivery)
        if message is None:
            return None
        return {
            "title": message.title, "body": message.body, "url": absolute(message.path), "kind": delivery.kind,
            "tag": f"{delivery.kind}:{delivery.key}", "lang": translation.get_language(),
        }  # fmt: skip


def wants(delivery: Delivery) -> bool:
    """Whether the user still wants this kind by this channel (they may have turned it off since it was asked)."""
    return delivery.user_id in selectors.channels_chosen(
        kind=delivery.kind, channel=delivery.channel, user_ids=[delivery.user_id]
    )
