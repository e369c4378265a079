"""Who a request came from, when the judge sits behind a reverse proxy.

The log-in and sign-up throttles count per client address, so that address must
be the real client's and not one the client chose. A proxy such as Caddy
appends the address of *its* peer to ``X-Forwarded-For`` (``client, proxy1,
...``); anything further left was written by someone the judge cannot vouch
for, since any client can send the header itself. So the rule is:

* if the socket's peer is not a trusted proxy (``Settings.trusted_proxies``,
  empty by default), the peer is the client and the header is ignored: a
  client talking to the judge directly cannot claim another address;
* otherwise walk the header from the right, skipping trusted proxies; the
  first address that is not one is the client (it was written by a proxy we
  trust). If every hop is trusted, the left-most is the client.

A hop that is not an IP address (a misconfigured proxy) stops the walk and the
peer is used: wrong, but never attacker-chosen. uvicorn's own
``proxy_headers`` stays off (``serve.py``) so this is the only place the header
is read.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    """The settings' strings as networks, parsed once per distinct setting (the
    settings already validated them)."""
    return tuple(ipaddress.ip_network(item, strict=False) for item in trusted)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def client_address(peer: str, forwarded_for: list[str], trusted: tuple[str, ...]) -> str:
    """The client's address: ``peer`` (the socket's) unless it is a trusted proxy,
    then the right-most ``X-Forwarded-For`` hop that is not one (see the module)."""
    networks = _networks(trusted)
    if not networks:
        return peer
    peer_address = _address(peer)
    if peer_address is None or not _trusted(peer_address, networks):
        return peer
    # several X-Forwarded-For lines are one list, in order (RFC 9110 5.3)
    hops = [hop for line in forwarded_for for hop in line.split(",") if hop.strip()]
    client = peer_address
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return peer
        client = address
        if not _trusted(address, networks):
            break
    return str(client)


def request_client(request: Request, trusted: tuple[str, ...]) -> str:
    """:func:`client_address` of a Starlette request."""
    peer = request.client.host if request.client else "unknown"
    return client_address(peer, request.headers.getlist("x-forwarded-for"), trusted)
