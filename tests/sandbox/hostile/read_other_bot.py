"""Reads another bot's files and reaches for its socket."""

import glob
import os
import socket

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read


def connect(path: str) -> str:
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(2)
    client.connect(path)
    return "connected"


class ReadOtherBotBot(AttackBot):
    def attack(self) -> None:
        attempt("read the other bot's file", lambda: read(PARAMS["other_bot_file"]))
        attempt("list the other bot's environment", lambda: os.listdir(PARAMS["other_env"]))
        attempt("connect to the other seat's socket", lambda: connect(PARAMS["other_socket"]))
        attempt("another root's socket through /proc", other_roots)


def other_roots() -> str:
    """Connect to a socket in /proc/*/root/run/bot that is not this bot's own."""
    own = os.stat("/run/bot/bot.sock").st_ino
    for path in glob.glob("/proc/*/root/run/bot/*"):
        try:
            if os.stat(path).st_ino != own:
                return connect(path)
        except OSError:
            continue
    raise FileNotFoundError("no socket but its own")
