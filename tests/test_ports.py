"""`arena.ports.free_port`: a port of 127.0.0.1 that nothing listens on, that a server can
then bind."""

from __future__ import annotations

import socket

from arena.ports import free_port


def test_the_port_given_is_closed_and_a_server_can_bind_it() -> None:
    port = free_port()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))
        server.listen()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
