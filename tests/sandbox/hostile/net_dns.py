"""Resolves names through DNS (a way out through the resolver)."""

import socket

from tests.sandbox.hostile._attack import AttackBot, attempt, read


class NetDnsBot(AttackBot):
    def attack(self) -> None:
        attempt("getaddrinfo pypi.org", lambda: socket.getaddrinfo("pypi.org", 443))
        attempt("read /etc/resolv.conf", lambda: read("/etc/resolv.conf"))
