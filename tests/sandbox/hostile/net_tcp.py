"""Connects out over TCP: to a listener on the host's loopback, and over IPv6."""

import socket

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt


class NetTcpBot(AttackBot):
    def attack(self) -> None:
        port = PARAMS["tcp_port"]
        attempt("tcp connect 127.0.0.1", lambda: socket.create_connection(("127.0.0.1", port), 2))
        attempt("tcp connect ::1", lambda: socket.create_connection(("::1", port), 2))
        attempt("tcp socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
