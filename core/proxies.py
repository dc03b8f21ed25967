"""Who the client is, behind the reverse proxies an operator trusts, and no one else's say-so.

Terms: the *peer* is the address the connection came from (``REMOTE_ADDR``);
a *trusted proxy* is a peer whose address is in ``PODIUM_PROXIES`` (addresses
or networks; default: none).  Each proxy appends the address it received the
request from to ``X-Forwarded-For``, so reading that list from the right, the
client is the first address that is not a trusted proxy.  Anything further
left was written by the client and is never believed.

:class:`ForwardedHeadersMiddleware` (first in ``MIDDLEWARE``) removes the
forwarding headers (``X-Forwarded-For``, ``X-Forwarded-Proto`` or the header
``SECURE_PROXY_SSL_HEADER`` names, ``X-Forwarded-Host``, ``X-Real-IP``,
``Forwarded``) from every request whose peer is not a trusted proxy, so
nothing downstream (Django's HTTPS detection included) can be told a lie by
a client that connects directly.  :func:`client_ip` is the one answer to "who
is this" for the throttles (:mod:`core.throttling`) and sign-in lockouts
(django-axes).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Forwarding headers a client could forge (``request.META`` keys); the HTTPS header is added from the settings.
FORWARDING_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_REAL_IP",
    "HTTP_FORWARDED",
)


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def trusted_networks() -> tuple[Network, ...]:
    return _networks(tuple(settings.PODIUM_PROXIES))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # 203.0.113.7:51234
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_trusted(address: str | None, networks: Sequence[Network] | None = None) -> bool:
    parsed = _address(address or "")
    networks = trusted_networks() if networks is None else networks
    return parsed is not None and any(parsed in network for network in networks)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: the peer, unless it is a trusted proxy; then the first untrusted address of
    ``X-Forwarded-For`` from the right (the peer itself if the list names no one else or is malformed)."""
    peer = request.META.get("REMOTE_ADDR")
    networks = trusted_networks()
    if not networks or not is_trusted(peer, networks):
        return peer
    client = peer
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        address = _address(hop)
        if address is None:
            break  # a trusted proxy wrote this list: garbage in it came from further out, stop at the last good hop
        client = str(address)
        if not any(address in network for network in networks):
            break
    return client


def _forwarding_headers() -> tuple[str, ...]:
    https = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    return FORWARDING_HEADERS + ((https[0],) if https else ())


class ForwardedHeadersMiddleware:
    """Drop the forwarding headers of requests that did not come through a trusted proxy (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_trusted(request.META.get("REMOTE_ADDR")):
            for header in _forwarding_headers():
                request.META.pop(header, None)
        return self.get_response(request)
