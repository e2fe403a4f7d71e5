"""Shared by the hostile bots: report each attempt on stderr, run the attack on the first play.

Each attempt prints one line, ``ATTACK BLOCKED <what>: <why>`` or ``ATTACK ESCAPED <what>:
<result>``, which the tests read back (after ``ATTACK DONE``). The targets on the host
(a canary file's path, listeners' ports, the secret in the runner's environment, ...)
come from params.json, written beside the bot by the test. In the upload, this module
keeps its package path (tests/sandbox/hostile/), so the bots type-check on the host too.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from hearts_bot import Bot, PassView, PlayView

PARAMS: dict[str, Any] = {}
if os.path.exists("/bot/params.json"):  # only inside the sandbox
    with open("/bot/params.json") as _file:
        PARAMS = json.load(_file)

LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def report(outcome: str, what: str) -> None:
    print(f"ATTACK {outcome} {what}"[:1000], file=sys.stderr, flush=True)


def attempt(what: str, action: Callable[[], object]) -> bool:
    """Run `action`: raising means it was blocked, returning means the attack got through."""
    try:
        result = action()
    except BaseException as error:  # any failure is a block
        report("BLOCKED", f"{what}: {type(error).__name__}: {error}")
        return False
    report("ESCAPED", f"{what}: {result!r}")
    return True


def read(path: str, mode: str = "r", size: int = -1) -> object:
    """The content of `path` (raises OSError when it cannot be read)."""
    with open(path, mode) as file:
        return file.read(size)


def syscall(name: str, number: int, *args: int) -> int:
    """A raw system call; raises OSError with errno when it fails."""
    LIBC.syscall.restype = ctypes.c_long
    result = LIBC.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{name}: {os.strerror(code)}")
    return int(result)


def libc_call(name: str, *args: Any) -> int:
    """A libc function returning -1/errno on failure; raises OSError then."""
    result = getattr(LIBC, name)(*args)
    if result == -1:
        code = ctypes.get_errno()
        raise OSError(code, f"{name}: {os.strerror(code)}")
    return int(result)


class AttackBot(Bot):
    """Plays the first legal card; runs `attack()` once, on its first play."""

    attacked = False

    def attack(self) -> None:
        raise NotImplementedError

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        if not self.attacked:
            self.attacked = True
            try:
                self.attack()
            finally:
                report("DONE", type(self).__name__)
        return view.legal[0]


def before_ready_line(action: Callable[[], None]) -> None:
    """Run `action` just before the SDK prints its readiness line (the socket then exists)."""
    import builtins

    original = builtins.print

    def patched(*args: Any, **kwargs: Any) -> None:
        if args and str(args[0]).startswith("HEARTS-BOT READY"):
            action()
        original(*args, **kwargs)

    builtins.print = patched


def serve_raw(answer_play: Callable[[bytes], bytes]) -> None:
    """Serve the bot protocol by hand (no SDK server) on /run/bot/bot.sock, answering every
    play_card query with the raw bytes `answer_play(request)`; print the readiness line and
    serve for ever."""
    import time
    from collections.abc import Iterator
    from concurrent import futures

    import grpc
    from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2

    def ready(request: bytes, context: Any) -> bytes:
        return bot_pb2.ReadyResponse(bot_name="raw").SerializeToString()

    def play(requests: Iterator[bytes], context: Any) -> Iterator[bytes]:
        for raw in requests:
            request = bot_pb2.PlayMatchRequest.FromString(raw)
            if request.HasField("match_start"):
                yield bot_pb2.PlayMatchResponse(
                    request_id=request.request_id, match_start=game_pb2.MatchStartAnswer()
                ).SerializeToString()
            elif request.HasField("play_card"):
                yield answer_play(raw)

    def same(data: bytes) -> bytes:
        return data

    handler = grpc.method_handlers_generic_handler(
        "hearts.v1.BotService",
        {
            "Ready": grpc.unary_unary_rpc_method_handler(ready, same, same),
            "PlayMatch": grpc.stream_stream_rpc_method_handler(play, same, same),
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=[handler])
    server.add_insecure_port("unix:/run/bot/bot.sock")
    server.start()
    print("HEARTS-BOT READY unix:/run/bot/bot.sock", flush=True)
    while True:
        time.sleep(3600)
