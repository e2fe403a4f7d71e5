"""The reader-to-seat hand-off (`arena.match.inbox.Inbox`)."""

from __future__ import annotations

import asyncio
import contextlib

from arena.match.inbox import Inbox


def test_items_come_out_in_arrival_order_whether_or_not_someone_waits() -> None:
    async def scenario() -> list[int]:
        inbox: Inbox[int] = Inbox()
        inbox.put(1)
        inbox.put(2)
        loop = asyncio.get_running_loop()
        loop.call_soon(inbox.put, 3)
        return [await inbox.get(), await inbox.get(), await inbox.get()]

    assert asyncio.run(scenario()) == [1, 2, 3]


def test_a_cancelled_get_loses_nothing_even_when_the_item_arrived_first() -> None:
    async def scenario() -> list[int]:
        inbox: Inbox[int] = Inbox()
        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)  # the get is waiting
        inbox.put(7)  # wakes it ...
        waiting.cancel()  # ... but it is cancelled before it runs
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        inbox.put(8)
        return [await inbox.get(), await inbox.get()]

    assert asyncio.run(scenario()) == [7, 8]


def test_a_timed_out_get_leaves_a_late_item_for_the_next_get() -> None:
    async def scenario() -> int:
        inbox: Inbox[int] = Inbox()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.01):
                await inbox.get()
        inbox.put(5)
        return await inbox.get()

    assert asyncio.run(scenario()) == 5
