"""Connects to the host's Unix sockets: an abstract one and one on the filesystem."""

import socket

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt


def connect(address: str) -> str:
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(2)
    client.connect(address)
    client.sendall(b"hello from the sandbox")
    return "connected"


class NetHostUnixBot(AttackBot):
    def attack(self) -> None:
        attempt("abstract unix socket", lambda: connect("\0" + PARAMS["abstract_name"]))
        attempt("host unix socket path", lambda: connect(PARAMS["unix_path"]))
