"""Opens raw, packet and netlink sockets (to sniff, forge, or read the routing tables)."""

import socket

from tests.sandbox.hostile._attack import AttackBot, attempt


class NetRawBot(AttackBot):
    def attack(self) -> None:
        attempt("raw socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, 1))
        attempt("packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW))
        attempt("netlink socket", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
        attempt("vsock socket", lambda: socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM))
