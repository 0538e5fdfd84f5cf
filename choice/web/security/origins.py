"""Reading an `Origin` header strictly: `scheme://host[:port]`, exactly as a browser writes it.

A browser serialises an origin one way (RFC 6454 §6.1): `http` or `https`, `://`, the host
in lower case (a DNS name, an IPv4 address, or an IPv6 address in brackets), and a port
only when it is not the scheme's default, in decimal without leading zeros; nothing else.
`urlsplit` is lenient about all of it (it took `http://127.0.0.1:8765/`,
`http://127.0.0.1:08765`, `ftp://127.0.0.1:8765` and `http://user@127.0.0.1:8765` as the
portal's own origin), so the check that stops cross-site writes reads the header here and
treats anything else as foreign.

Owns only the grammar. Whether an origin is ours is `guards.OriginCheck.is_ours`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

DEFAULT_PORTS = {"http": 80, "https": 443}
_ORIGIN = re.compile(
    r"(?P<scheme>https?)://"
    r"(?P<host>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])"
    r"(?::(?P<port>[1-9][0-9]{0,4}))?")
"""Lower-case scheme and host; a name starts and ends with a letter or digit (no trailing
dot); a port has no leading zero and no sign."""


class Origin(NamedTuple):
    scheme: str
    host: str
    """Without the brackets of an IPv6 address, as `split_host` gives the `Host` header's."""
    port: int
    """The scheme's default when the header named none."""


def parse_origin(value: str) -> Origin | None:
    """The origin a browser sent, or None for anything that is not one written exactly as a
    browser writes it (`null` included: the caller decides what `null` may mean)."""
    match = _ORIGIN.fullmatch(value)
    if match is None:
        return None
    scheme, host, port = match["scheme"], match["host"], match["port"]
    number = int(port) if port is not None else DEFAULT_PORTS[scheme]
    if number > 65535:
        return None
    return Origin(scheme, host.strip("[]"), number)
