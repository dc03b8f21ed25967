"""Who the client is: the peer, unless the peer is a proxy in PODIUM_PROXIES; forwarding headers from anyone
else are dropped before anything reads them."""

from __future__ import annotations

import pytest
from django.test import RequestFactory, override_settings

from core.proxies import client_ip

factory = RequestFactory()


def ip(peer: str, forwarded: str | None = None) -> str | None:
    extra = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_ip(factory.get("/", REMOTE_ADDR=peer, **extra))


@override_settings(PODIUM_PROXIES=[])
def test_with_no_proxy_configured_x_forwarded_for_is_never_believed():
    assert ip("198.51.100.7", "203.0.113.9") == "198.51.100.7"


@override_settings(PODIUM_PROXIES=["10.0.0.0/8"])
@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("10.0.0.1", "203.0.113.7", "203.0.113.7"),  # one proxy
        ("10.0.0.1", "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # the client wrote 6.6.6.6 itself
        ("10.0.0.1", "6.6.6.6, 203.0.113.7, 10.1.2.3", "203.0.113.7"),  # two proxies
        ("10.0.0.1", None, "10.0.0.1"),  # a proxy's own request
        ("10.0.0.1", "10.4.4.4, 10.1.2.3", "10.4.4.4"),  # only proxies: the outermost
        ("10.0.0.1", "not-an-address", "10.0.0.1"),
        ("10.0.0.1", "203.0.113.7:5123", "203.0.113.7"),
        ("10.0.0.1", "[2001:db8::1]:443", "2001:db8::1"),
        ("198.51.100.7", "203.0.113.7", "198.51.100.7"),  # not a proxy: its header is a lie
    ],
)
def test_behind_trusted_proxies_the_client_is_the_first_untrusted_address_from_the_right(peer, forwarded, client):
    assert ip(peer, forwarded) == client


@override_settings(PODIUM_PROXIES=["192.0.2.1/32"], SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_forwarding_headers_of_a_request_not_from_a_proxy_are_dropped(client):
    from django.http import HttpResponse

    seen = {}

    def view(request):
        seen.update(secure=request.is_secure(), forwarded=request.META.get("HTTP_X_FORWARDED_FOR"))
        return HttpResponse()

    from core.proxies import ForwardedHeadersMiddleware

    headers = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_FOR": "6.6.6.6"}
    ForwardedHeadersMiddleware(view)(factory.get("/", REMOTE_ADDR="198.51.100.7", **headers))
    assert seen == {"secure": False, "forwarded": None}
    ForwardedHeadersMiddleware(view)(factory.get("/", REMOTE_ADDR="192.0.2.1", **headers))
    assert seen == {"secure": True, "forwarded": "6.6.6.6"}
