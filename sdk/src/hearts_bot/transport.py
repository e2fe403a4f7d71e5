"""How this process drives gRPC: the core's polling engine and the asyncio event loop.

Measured on the project's 2-core machine (docs/decisions/0002, "Revisited"): gRPC's
Python round trip costs about a third less CPU on the older iomgr poller than on the
EventEngine that grpcio turns on by default, and uvloop takes another tenth off the
asyncio side. A bot answers hundreds of queries per game, so both are the defaults here.

`tune_grpc` only sets a default: a ``GRPC_EXPERIMENTS`` already in the environment is
left alone (set it to an empty string to get gRPC's own defaults back). It must run
before gRPC's core starts, which is why ``hearts_bot`` calls it before importing grpc,
and child processes inherit it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

GRPC_EXPERIMENTS = "-event_engine_client,-event_engine_listener"

T = TypeVar("T")


def tune_grpc() -> None:
    """Make the measured-faster gRPC polling engine this process's default."""
    os.environ.setdefault("GRPC_EXPERIMENTS", GRPC_EXPERIMENTS)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when uvloop is installed (``hearts-bot-sdk[fast]``), else None
    (asyncio's own); ``HEARTS_BOT_LOOP=asyncio`` forces asyncio's."""
    if os.environ.get("HEARTS_BOT_LOOP") == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A new loop of the kind `loop_factory` picks."""
    factory = loop_factory()
    return factory() if factory is not None else asyncio.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` on the loop `loop_factory` picks."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
