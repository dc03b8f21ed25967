"""Web Push with VAPID (pywebpush): the server's key pair, and one encrypted message to one browser.

*VAPID keys*
    The server signs each push with its private key; browsers subscribe with its public key (the
    ``applicationServerKey``, base64url of the uncompressed P-256 point).  They come from ``VAPID_PUBLIC_KEY`` and
    ``VAPID_PRIVATE_KEY`` (base64url of the raw 32-byte private value, as ``manage.py vapid_keys`` prints them),
    and ``VAPID_SUBJECT`` (a ``mailto:`` or ``https:`` address push services may write to).  Without them, in
    ``DEBUG`` (``./bin run``, the demo), a pair is made once and kept in ``var/vapid.json`` (``PODIUM_VAR_DIR``,
    never committed); otherwise push is off and only e-mail is sent.
*gone*
    A push service answers 404 or 410 for a subscription that no longer exists (the browser unsubscribed, the
    site's data was cleared): :class:`Gone`, and the subscription is deleted.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

logger = logging.getLogger(__name__)

#: Seconds a push service may take to answer (a request in-process waits for it).
TIMEOUT = 10.0
#: How long a push service keeps a message for a browser that is offline (a notification older is stale).
TTL_SECONDS = 60 * 60


@dataclass(frozen=True, slots=True)
class Keys:
    public: str
    private: str


class Gone(Exception):
    """The push service no longer knows the subscription (404/410): delete it."""


class PushFailed(Exception):
    """The push service refused or could not be reached; worth trying again later."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def generate_keys() -> Keys:
    """A new VAPID key pair (P-256), both base64url."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return Keys(public=_b64(public), private=_b64(private.private_numbers().private_value.to_bytes(32, "big")))


_lock = threading.Lock()


def _kept_keys(path: Path) -> Keys:
    with _lock:
        try:
            stored = json.loads(path.read_text())
            return Keys(public=stored["public"], private=stored["private"])
        except (OSError, ValueError, KeyError):
            keys = generate_keys()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"public": keys.public, "private": keys.private}))
            path.chmod(0o600)
            logger.info("Made a VAPID key pair for this development server in %s.", path)
            return keys


def keys() -> Keys | None:
    """The server's VAPID keys: the settings', or in ``DEBUG`` a pair kept in ``var/``; ``None``: push is off."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        return Keys(public=settings.VAPID_PUBLIC_KEY, private=settings.VAPID_PRIVATE_KEY)
    if settings.DEBUG:
        return _kept_keys(Path(settings.VAR_DIR) / "vapid.json")
    return None


def public_key() -> str:
    """The ``applicationServerKey`` browsers subscribe with (empty: push is off)."""
    found = keys()
    return found.public if found else ""


def send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> None:
    """Push ``payload`` (JSON) to one browser, encrypted for it (aes128gcm) and signed with the VAPID key.

    Raises :class:`Gone` (delete the subscription) or :class:`PushFailed` (try again later)."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    found = keys()
    if found is None:
        raise PushFailed("Push is off: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.")
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload),
            vapid_private_key=Vapid.from_raw(found.private.encode()),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=TIMEOUT,
            ttl=TTL_SECONDS,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            raise Gone(str(status)) from exc
        raise PushFailed(f"{status}: {exc.message}"[:400]) from exc
    except Exception as exc:  # noqa: BLE001 - the network, a malformed key: never a request's failure
        raise PushFailed(repr(exc)[:400]) from exc
