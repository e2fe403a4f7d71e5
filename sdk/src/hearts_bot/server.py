"""`serve(bot)`: run a bot as the gRPC server the arena calls, on TCP or a Unix socket.

The server prints one readiness line on standard output once it accepts calls::

    HEARTS-BOT READY unix:/tmp/bot.sock

and stops cleanly on SIGTERM or SIGINT (a second signal, or a bot stuck in a decision
past the grace period, ends the process at once). A malformed or out-of-order message,
or an exception in the bot, ends only that match's stream with a gRPC status (see
`hearts_bot.session`); the server keeps answering.

Why grpc.aio with the bot called inline: a decision then costs no thread hand-off, which
is most of the difference between the two servers (docs/decisions/0002). The arena asks
one question at a time, so a bot that thinks simply delays its own answer; a Ready call
that arrives meanwhile is answered when the decision is done.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from types import FrameType
from typing import Any

import grpc
import grpc.aio

from . import transport
from .bot import Bot
from .proto.hearts.v1 import bot_pb2
from .session import MalformedMessage, MatchSession, StreamError

READY_PREFIX = "HEARTS-BOT READY"
"""The start of the line printed once the server accepts calls; the address follows."""
DEFAULT_ADDRESS = "127.0.0.1:50051"
SERVICE_NAME = "hearts.v1.BotService"
MAX_CONCURRENT_RPCS = 8
SHUTDOWN_GRACE_SECONDS = 2.0
START_TIMEOUT_SECONDS = 10.0


SDK_VERSION = "0.1.0"
"""This distribution's version (sdk/pyproject.toml's; tests/sdk/test_server.py checks they
agree). A constant, not ``importlib.metadata``: looking it up imports a dozen modules
(zipfile, email, csv, pathlib, ...) that cost a serving bot about 20 ms of CPU at every
start, in every match (docs/benchmarks.md, "Starting a bot")."""


@functools.cache
def sdk_version() -> str:
    """``hearts-bot-sdk/<version> python/<x.y.z>``, as a bot reports it in ReadyResponse."""
    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"hearts-bot-sdk/{SDK_VERSION} python/{python}"


class AddressError(ValueError):
    """An address that is neither ``unix:PATH`` nor ``HOST:PORT``, or cannot be listened on."""


def parse_address(address: str) -> tuple[str, str | None]:
    """Split an address into gRPC's form and, for a Unix socket, its file path.

    >>> parse_address("unix:/tmp/bot.sock")
    ('unix:/tmp/bot.sock', '/tmp/bot.sock')
    >>> parse_address("127.0.0.1:0")
    ('127.0.0.1:0', None)
    """
    if address.startswith("unix:"):
        path = address.removeprefix("unix:")
        if path.startswith("//"):
            path = path[2:]
        if not path:
            raise AddressError(f"address {address!r} names no socket file")
        return f"unix:{path}", path
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise AddressError(f"address {address!r} is neither unix:PATH nor HOST:PORT")
    return address, None


def _parser(message_type: Any) -> Callable[[bytes], object]:
    """A request parser that never raises: bad bytes become a MalformedMessage, which the
    handler answers with INVALID_ARGUMENT (gRPC itself would say INTERNAL)."""

    def parse(data: bytes) -> object:
        try:
            return message_type.FromString(data)
        except Exception as error:  # DecodeError, or anything the runtime raises
            return MalformedMessage(error)

    return parse


def _serialize(message: Any) -> bytes:
    data: bytes = message.SerializeToString()
    return data


class _Handlers:
    """The BotService methods over one bot."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.lock = threading.Lock()

    async def ready(self, request: object, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        if isinstance(request, MalformedMessage):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"malformed ReadyRequest: {request.error}"
            )
        name = self.bot.name or type(self.bot).__name__
        return bot_pb2.ReadyResponse(bot_name=name, sdk_version=sdk_version())

    async def play_match(
        self, requests: object, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        session = MatchSession(self.bot, self.lock)
        while True:
            request = await context.read()
            if request is grpc.aio.EOF:  # type: ignore[attr-defined]  # missing from the stubs
                return
            try:
                response = session.handle(request)
            except StreamError as error:
                await context.abort(error.code, error.details)
            if response is not None:
                await context.write(response)

    def generic_handler(self) -> Any:
        return grpc.method_handlers_generic_handler(
            SERVICE_NAME,
            {
                "Ready": grpc.unary_unary_rpc_method_handler(
                    self.ready, _parser(bot_pb2.ReadyRequest), _serialize
                ),
                "PlayMatch": grpc.stream_stream_rpc_method_handler(
                    self.play_match, _parser(bot_pb2.PlayMatchRequest), _serialize
                ),
            },
        )


class _Running:
    """A started aio server and what is needed to stop it."""

    def __init__(
        self,
        server: grpc.aio.Server,
        handlers: _Handlers,
        address: str,
        socket_path: str | None,
        health: Any,
    ) -> None:
        self.server = server
        self.handlers = handlers
        self.address = address
        self.socket_path = socket_path
        self.health = health

    async def stop(self, grace: float) -> None:
        if self.health is not None:
            await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)
        if self.socket_path is not None:
            _remove_stale_socket(self.socket_path)


async def _start(bot: Bot, address: str) -> _Running:
    grpc_address, socket_path = parse_address(address)
    if socket_path is not None:
        _remove_stale_socket(socket_path)
    handlers = _Handlers(bot)
    server = grpc.aio.server(
        handlers=[handlers.generic_handler()],
        maximum_concurrent_rpcs=MAX_CONCURRENT_RPCS,
        options=[("grpc.so_reuseport", 0)],
    )
    health = await _add_health(server)
    try:
        port = server.add_insecure_port(grpc_address)
    except RuntimeError as error:
        raise AddressError(f"cannot listen on {address}: {error}") from None
    await server.start()
    bound = grpc_address if socket_path else f"{grpc_address.rpartition(':')[0]}:{port}"
    return _Running(server, handlers, bound, socket_path, health)


def serve(bot: Bot, address: str = DEFAULT_ADDRESS, *, ready_line: bool = True) -> None:
    """Serve `bot` at `address` (``unix:/path`` or ``host:port``) until SIGTERM or SIGINT.

    Prints ``HEARTS-BOT READY <address>`` on standard output once the server accepts
    calls (with the real port when `address` asks for port 0). Must run in the main
    thread (use `BotServer` elsewhere). Raises AddressError when it cannot listen.
    """
    transport.run(_serve_until_signal(bot, address, ready_line))


async def _serve_until_signal(bot: Bot, address: str, ready_line: bool) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    running = await _start(bot, address)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():  # a second signal: leave now
            _exit_now("a second signal")
        loop.call_soon_threadsafe(stop.set)
        # The loop cannot stop while the bot is deciding: give it the grace period.
        watchdog = threading.Timer(
            SHUTDOWN_GRACE_SECONDS + 1.0,
            _exit_now,
            args=("the bot was still deciding at shutdown",),
        )
        watchdog.daemon = True
        watchdog.start()

    previous = {
        signum: signal.signal(signum, on_signal) for signum in (signal.SIGTERM, signal.SIGINT)
    }
    # What is loaded now (grpc, the SDK, the bot's module) lives as long as the process:
    # out of the collector's reach, later collections do not scan it again.
    gc.freeze()
    try:
        if ready_line:
            print(f"{READY_PREFIX} {running.address}", flush=True)
        await stop.wait()
        await running.stop(SHUTDOWN_GRACE_SECONDS)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _exit_now(reason: str) -> None:
    print(f"hearts-bot: exiting: {reason}", file=sys.stderr)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)


class BotServer:
    """A bot served from a background thread (for tests and embedding).

    >>> class FirstLegal(Bot):
    ...     def pass_cards(self, view): return list(view.passable[: view.count])
    ...     def play_card(self, view): return view.legal[0]
    >>> server = BotServer(FirstLegal(), "127.0.0.1:0")
    >>> server.address.startswith("127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, bot: Bot, address: str = DEFAULT_ADDRESS) -> None:
        self._loop = transport.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="hearts-bot-server", daemon=True
        )
        self._thread.start()
        started: Future[_Running] = asyncio.run_coroutine_threadsafe(
            _start(bot, address), self._loop
        )
        try:
            self._running = started.result(START_TIMEOUT_SECONDS)
        except BaseException:
            self._close_loop()
            raise
        self.address = self._running.address

    def stop(self, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
        """Stop the server (running calls get `grace` seconds) and its thread."""
        asyncio.run_coroutine_threadsafe(self._running.stop(grace), self._loop).result(grace + 5)
        self._close_loop()

    def _close_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()


def run(bot: Bot, argv: list[str] | None = None) -> None:
    """Serve `bot` with the address from ``--address`` (or $HEARTS_BOT_ADDRESS).

    For a bot file's ``if __name__ == "__main__": run(MyBot())``; exits with status 2
    when the address is unusable.
    """
    parser = argparse.ArgumentParser(description=f"Serve the Hearts bot {bot.name}.")
    parser.add_argument(
        "--address",
        default=os.environ.get("HEARTS_BOT_ADDRESS", DEFAULT_ADDRESS),
        help="unix:/path/to.sock or host:port (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        serve(bot, args.address)
    except AddressError as error:
        parser.exit(2, f"hearts-bot: {error}\n")


def _remove_stale_socket(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISSOCK(os.stat(path).st_mode):
            os.unlink(path)


async def _add_health(server: grpc.aio.Server) -> Any:
    """Also serve the standard grpc.health.v1 service if grpcio-health-checking is installed."""
    try:
        from grpc_health.v1 import (  # type: ignore[import-untyped, unused-ignore]
            health,
            health_pb2,
            health_pb2_grpc,
        )
    except ImportError:
        return None
    servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]  # as above
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    for name in ("", SERVICE_NAME):
        await servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return servicer
