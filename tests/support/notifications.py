"""Notifications under test: a real SMTP server and a real push endpoint, both in this process.

* :class:`MailServer` - aiosmtpd on a free local port: ``server.messages`` holds every mail received (parsed),
  ``server.wait(n)`` waits (boundedly) for ``n`` of them, ``server.mailer()`` the ``MAILERS`` entry pointing at it.
* :class:`PushEndpoint` - an HTTP server thread standing in for a browser's push service: it keeps each POST
  (``endpoint.received``, header names in lower case) and answers 201, or the statuses queued for a path (``endpoint.answer(path, 500, 201)``).
* :class:`Browser` - a browser's push subscription: its own P-256 key pair and auth secret, the
  ``PushSubscription`` JSON to send, and :meth:`Browser.read` to decrypt a push it received (``http_ece``).
"""

from __future__ import annotations

import base64
import email
import json
import os
import socket
import threading
import time
from collections import defaultdict, deque
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class MailServer:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._lock = threading.Lock()
        self.port = free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        with self._lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def start(self) -> MailServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def mailer(self) -> dict[str, Any]:
        return {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": self.port, "timeout": 5},
        }

    def wait(self, count: int, timeout: float = 5.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.02)
        raise AssertionError(f"{len(self.messages)} mails arrived, not {count}")

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()


def body_of(message: Message, subtype: str) -> str:
    """The ``text/plain`` or ``text/html`` part of a received mail, decoded."""
    for part in message.walk():
        if part.get_content_type() == f"text/{subtype}":
            return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    raise AssertionError(f"no text/{subtype} part")


class PushEndpoint:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self._answers: dict[str, deque[int]] = defaultdict(deque)
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's hook name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answers = owner._answers[self.path]
                status = answers.popleft() if answers else 201
                headers = {name.lower(): value for name, value in self.headers.items()}
                owner.received.append({"path": self.path, "headers": headers, "body": body,
                                       "status": status})  # fmt: skip
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> PushEndpoint:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, path: str, *statuses: int) -> None:
        self._answers[path].extend(statuses)

    def to(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.received if r["path"] == path]


class Browser:
    """A browser's push subscription to ``endpoint`` (the push service's URL for it)."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }

    def read(self, received: dict[str, Any]) -> dict[str, Any]:
        """The JSON of a push this browser received, decrypted as a browser does (aes128gcm)."""
        assert received["headers"].get("content-encoding") == "aes128gcm", received["headers"]
        plain = http_ece.decrypt(received["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)
