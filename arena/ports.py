"""A free TCP port of 127.0.0.1: the one helper every process starter shares.

The servers a run starts for itself (`workers.scratch_servers`), the site behind the live
server (`arena platform`), the live bench's stack (`web.crowdbench`) and the tests that
start real processes all ask here. It lives at the top of `arena`, below every contract
in pyproject.toml ([tool.importlinter]): `web` may not import `workers`, and both, like
the tests, may import `arena`; it imports nothing but the standard library.

>>> port = free_port()
>>> 1024 <= port <= 65535
True
"""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now (the kernel picks it: bound to
    port 0, then released). Another process may take it before the caller binds it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
