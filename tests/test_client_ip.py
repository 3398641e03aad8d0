"""The client's address (clubsite.kit.ip.client_ip): the direct peer, unless that is a trusted proxy; then the
rightmost address in the client-address header that is not a trusted proxy. allauth's rate limits use the same."""

import pytest
from allauth.core.internal.ratelimit import get_ip
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from clubsite.kit.ip import client_ip, parse_address, trusted_proxies


def request(remote="127.0.0.1", header=None, name="HTTP_X_FORWARDED_FOR"):
    meta = {"REMOTE_ADDR": remote}
    if header is not None:
        meta[name] = header
    return RequestFactory().get("/", **meta)


@pytest.fixture(autouse=True)
def proxies(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8", "2001:db8:ffff::/48"]
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"


@pytest.mark.parametrize(
    ("remote", "header", "expected"),
    [
        # Straight from a client: the header, whatever it says, is not believed.
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),
        ("203.0.113.9", None, "203.0.113.9"),
        # Through the trusted proxy: the address it appended.
        ("127.0.0.1", "198.51.100.1", "198.51.100.1"),
        # What the client wrote to the left of it is not believed.
        ("127.0.0.1", "1.2.3.4, 198.51.100.1", "198.51.100.1"),
        ("127.0.0.1", "garbage, 198.51.100.1", "198.51.100.1"),
        # A chain of trusted proxies is followed to the first address that is not one of them.
        ("127.0.0.1", "1.2.3.4, 198.51.100.1, 10.9.8.7, 10.0.0.2", "198.51.100.1"),
        # The proxy sent no header, or nothing readable: the proxy is all that is known.
        ("127.0.0.1", None, "127.0.0.1"),
        ("127.0.0.1", "unknown", "127.0.0.1"),
        ("127.0.0.1", "198.51.100.1, unknown", "127.0.0.1"),
        # Every address a trusted proxy: the leftmost one.
        ("127.0.0.1", "10.0.0.5, 10.0.0.2", "10.0.0.5"),
        # Ports, brackets, IPv6 and IPv4 written as IPv6.
        ("127.0.0.1", "198.51.100.1:5120", "198.51.100.1"),
        ("127.0.0.1", "[2001:db8::7]:443", "2001:db8::7"),
        ("2001:db8:ffff::1", "2001:db8::7", "2001:db8::7"),
        ("::ffff:127.0.0.1", "198.51.100.1", "198.51.100.1"),
        ("::ffff:203.0.113.9", "198.51.100.1", "203.0.113.9"),
    ],
)
def test_the_client_address(remote, header, expected):
    assert client_ip(request(remote, header)) == expected


def test_another_header_when_the_proxy_names_the_client_in_it(settings):
    settings.CLIENT_IP_HEADER = "X-Real-IP"
    assert client_ip(request("127.0.0.1", "198.51.100.1", name="HTTP_X_REAL_IP")) == "198.51.100.1"
    # X-Forwarded-For is no longer read at all.
    assert client_ip(request("127.0.0.1", "198.51.100.1")) == "127.0.0.1"
    assert client_ip(request("203.0.113.9", "198.51.100.1", name="HTTP_X_REAL_IP")) == "203.0.113.9"


def test_no_trusted_proxies_by_default_means_the_peer(settings):
    settings.TRUSTED_PROXIES = []
    assert client_ip(request("127.0.0.1", "198.51.100.1")) == "127.0.0.1"


@pytest.mark.parametrize(
    ("remote", "header"), [("127.0.0.1", "198.51.100.1"), ("203.0.113.9", "198.51.100.1"), ("2001:db8::1", None)]
)
def test_allauths_rate_limits_see_the_same_address(remote, header):
    assert get_ip(request(remote, header)) == client_ip(request(remote, header)).replace("2001:db8::1", "2001:db8::")


def test_a_malformed_trusted_proxy_is_refused():
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        trusted_proxies(("10.0.0.0/8", "proxy.internal"))


@pytest.mark.parametrize("value", ["", "unknown", "proxy.internal", "1.2.3", "[::1", "_hidden"])
def test_what_is_not_an_address(value):
    assert parse_address(value) is None
