"""`Inbox`: what a stream's reader task hands to the seat waiting for an answer.

A leaner `asyncio.Queue` for one reader and one waiter: the reader's `put` wakes the
waiting `get` through one bare future, and `get` creates that future only when the inbox
is empty. An `asyncio.Queue` does more Python-level bookkeeping per item (its getters
deque, unfinished-task counting, a re-check loop after every wake-up), and the match
runner pays it on every decision (docs/decisions/0002).

Cancelling a `get` (a timeout) loses nothing: items stay in the inbox until taken.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """Items in arrival order, for one consumer awaiting them one at a time.

    >>> import asyncio
    >>> async def demo() -> list[int]:
    ...     inbox: Inbox[int] = Inbox()
    ...     inbox.put(1)
    ...     asyncio.get_running_loop().call_soon(inbox.put, 2)
    ...     return [await inbox.get(), await inbox.get()]
    >>> asyncio.run(demo())
    [1, 2]
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: T) -> None:
        """Keep `item` and wake the waiting `get`, if any."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none (only one `get` at a time).

        The item stays in the inbox until `get` has woken and taken it, so a `get`
        cancelled just after an item arrived leaves it for the next one."""
        while not self._items:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.popleft()
