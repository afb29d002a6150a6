"""Which `Host` and `Origin` headers the dev server answers.

A page on another domain can make its own name resolve to 127.0.0.1 once the browser
has loaded it (DNS rebinding); its requests then reach `talkpages serve` as requests
of that page's own origin, and it can read the site, its drafts and the error overlay,
which quotes the site's files. The browser still sends the attacker's name in `Host`,
so the server answers only names that cannot be anyone else's: `localhost`,
`127.0.0.1`, `[::1]` and the address given to `--bind`, with the server's port.

Bound to every address (`0.0.0.0`, `::`), the server is reached from other devices by
one of this computer's addresses, which it cannot list reliably. Any address written
as digits is accepted then: rebinding needs a name, and a page whose origin is an
address can only be the site served from there. A request without `Host` (HTTP/1.0,
scripts) is answered: browsers always send one.

The live-reload stream checks `Origin` too, when the browser sends one: an
`EventSource` opened by a page of another origin is refused before it is held open.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def split_host(value: str) -> tuple[str, int | None] | None:
    """`name:port`, `[v6]:port` or a bare name -> (name in lower case, port or None);
    None when the header is not a host at all."""
    value = value.strip().lower()
    if value.startswith("["):
        address, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        name, port_text = address, rest[1:] if rest else None
    elif value.count(":") == 1:
        name, port_text = value.split(":")
    else:
        name, port_text = value, None
    if not name or any(c in name for c in "/@?#\\ "):
        return None
    if port_text is None:
        return name, None
    if not port_text.isdigit() or len(port_text) > 5:
        return None
    return name, int(port_text)


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostPolicy:
    """The names and the port a dev server bound to `bind`:`port` answers to."""

    def __init__(self, bind: str, port: int) -> None:
        self.bind = bind.strip().strip("[]").lower()
        self.port = port

    def allows_name(self, name: str) -> bool:
        if name in LOCAL_NAMES or name == self.bind:
            return True
        return self.bind in WILDCARDS and _is_address(name)

    def allows_host(self, header: str | None) -> bool:
        if header is None:
            return True
        parts = split_host(header)
        if parts is None:
            return False
        name, port = parts
        return self.allows_name(name) and (port if port is not None else 80) == self.port

    def allows_origin(self, header: str | None) -> bool:
        if header is None:
            return True
        try:
            origin = urlsplit(header.strip())
            port = origin.port
        except ValueError:
            return False
        if origin.scheme != "http" or not origin.hostname or origin.path not in ("", "/"):
            return False
        return self.allows_name(origin.hostname) and (port or 80) == self.port
