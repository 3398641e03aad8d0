"""The client's address, as every counter and log-in lockout of the site sees it.

Behind a reverse proxy every request comes from the proxy, which names the client in a header (CLIENT_IP_HEADER,
X-Forwarded-For unless set otherwise). Anyone can send that header, so it is believed only when the request comes
straight from one of TRUSTED_PROXIES, and then only as far as the chain of trusted proxies goes: read from the
right (each proxy appends the address it was reached from), the first address that is not a trusted proxy is the
client. Whatever stands to its left was written by the client and could be anything.
"""

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_ip(request) -> str:
    """The address of the client that sent the request: the direct peer (REMOTE_ADDR), or, when that peer is a
    trusted proxy, the rightmost address in CLIENT_IP_HEADER that is not a trusted proxy."""
    remote = request.META.get("REMOTE_ADDR") or ""
    peer = parse_address(remote)
    if peer is None:
        return remote
    proxies = trusted_proxies(tuple(settings.TRUSTED_PROXIES))
    if not _within(peer, proxies):
        return str(peer)
    client = peer
    for part in reversed((request.headers.get(settings.CLIENT_IP_HEADER) or "").split(",")):
        address = parse_address(part)
        if address is None:
            break  # the chain cannot be followed further: the last hop known stands for the client
        client = address
        if not _within(address, proxies):
            break
    return str(client)


def parse_address(value: str) -> Address | None:
    """An IP address as proxies write it ("203.0.113.7", "203.0.113.7:5120", "[2001:db8::7]:443", "2001:db8::7"),
    an IPv4 address mapped into IPv6 as the IPv4 address; None for anything else ("unknown", "", a host name)."""
    value = value.strip().strip('"')
    if value.startswith("["):
        value, closed, port = value[1:].partition("]")
        if not closed or (port and not port.startswith(":")):
            return None
    elif value.count(":") == 1:
        value = value.partition(":")[0]
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


@lru_cache(maxsize=8)
def trusted_proxies(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """TRUSTED_PROXIES (addresses or CIDR ranges) as networks."""
    try:
        return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())
    except ValueError as error:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {error}") from None


def _within(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address in network for network in networks)
