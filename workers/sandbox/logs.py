"""`CapturedStream`: a bot's stdout or stderr, read from its pipe and kept within a cap.

The pipe is always drained (a bot writing without end is never blocked on us, and never
fills our memory): the first three quarters of the cap and the last quarter are kept,
with the number of bytes dropped between them. A callback sees each complete line of
stdout while it is short, which is how the readiness line is noticed.
"""

from __future__ import annotations

import collections
import os
import threading
from collections.abc import Callable

CHUNK = 65536
LINE_SCAN_LIMIT = 4096
"""Lines longer than this are not passed to the line callback (nor buffered for it)."""


class CapturedStream:
    """Reads `fd` to its end on a daemon thread, keeping at most `cap` bytes."""

    def __init__(
        self,
        fd: int,
        cap: int,
        name: str,
        on_line: Callable[[bytes], None] | None = None,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.cap = cap
        self._head_cap = cap - cap // 4
        self._tail_cap = cap // 4
        self._head = bytearray()
        self._tail: collections.deque[bytes] = collections.deque()
        self._tail_size = 0
        self.total = 0
        """Bytes the bot wrote in all."""
        self._on_line = on_line
        self._on_end = on_end
        self._partial = bytearray()
        self._lock = threading.Lock()
        self._fd = fd
        self._thread = threading.Thread(target=self._run, name=f"sandbox-{name}", daemon=True)
        self._thread.start()

    @property
    def truncated(self) -> bool:
        """Whether bytes were dropped."""
        return self.total > len(self._head) + min(self._tail_size, self._tail_cap)

    def _keep(self, data: bytes) -> None:
        room = self._head_cap - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data or self._tail_cap == 0:
            return
        self._tail.append(data[-self._tail_cap :])
        self._tail_size += len(self._tail[-1])
        while self._tail_size - len(self._tail[0]) >= self._tail_cap:
            self._tail_size -= len(self._tail.popleft())

    def _scan_lines(self, data: bytes) -> None:
        assert self._on_line is not None
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            if len(self._partial) + end - start <= LINE_SCAN_LIMIT:
                self._on_line(bytes(self._partial + data[start:end]))
            self._partial.clear()
            start = end + 1
        if len(self._partial) + len(data) - start <= LINE_SCAN_LIMIT:
            self._partial += data[start:]
        else:
            self._partial = bytearray(b"\0" * (LINE_SCAN_LIMIT + 1))  # too long: skip it

    def _run(self) -> None:
        try:
            while data := os.read(self._fd, CHUNK):
                with self._lock:
                    self.total += len(data)
                    self._keep(data)
                if self._on_line is not None:
                    self._scan_lines(data)
        except OSError:
            pass
        finally:
            os.close(self._fd)
            if self._on_end is not None:
                self._on_end()

    def join(self, timeout: float) -> bool:
        """Wait for the end of the stream; True if it ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def data(self) -> bytes:
        """What was kept, with a marker where bytes were dropped."""
        with self._lock:
            tail = b"".join(self._tail)
            if len(tail) > self._tail_cap:
                tail = tail[-self._tail_cap :]
            dropped = self.total - len(self._head) - len(tail)
            if dropped <= 0:
                return bytes(self._head) + tail
            marker = f"\n[... {dropped} bytes of {self.name} dropped ...]\n".encode()
            return bytes(self._head) + marker + tail

    def text(self) -> str:
        """`data()` decoded (bad bytes replaced)."""
        return self.data().decode("utf-8", "replace")
