"""Sends UDP datagrams to a listener on the host's loopback."""

import socket

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt


def send() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        return udp.sendto(b"exfiltrated", ("127.0.0.1", PARAMS["udp_port"]))


class NetUdpBot(AttackBot):
    def attack(self) -> None:
        attempt("udp sendto 127.0.0.1", send)
