"""Announces a 2 GiB reply and streams junk into it (issue 30): on the first play query of
a connection it writes, by hand, an HTTP/2 DATA frame whose gRPC message header announces
2 GiB - 1 bytes, then junk DATA frames as fast as the runner's flow-control windows let it,
until the connection is closed under it.

It speaks HTTP/2 at the frame level only (no h2 package in the sandbox): the SDK's own
server (`BotServer`, on /tmp/inner.sock, the first legal card) answers everything else,
behind a proxy on /run/bot/bot.sock that forwards whole frames both ways and reads the
runner's (SETTINGS, WINDOW_UPDATE, RST_STREAM and the gRPC messages in DATA) to know when
a play query comes and how much it may send. Once a connection is attacked, nothing more
of the server's reaches the runner on it. It keeps within the runner's flow-control
windows, as a conforming sender must; frames on a stream the runner reset count against
the connection's window only (RFC 9113, 6.9), so the stream's reset does not stop it.

params.json "attacks": how many connections to attack (default 1; later ones are served
honestly). On stderr: ``ATTACK CONNECTED connection=N attacked_still_open=M,...`` for
each connection the runner opens (the attacked ones whose runner's end is still open
then), and per attacked connection ``ATTACK STREAMING connection=N bytes=B``
every `PROGRESS` bytes, and ``ATTACK WROTE connection=N bytes=B ended=<why>`` once the
connection is closed under it (BrokenPipeError, ConnectionResetError, or EOF when the
runner closed it while the bot waited for window).
"""

from __future__ import annotations

import asyncio
import os
import select
from typing import ClassVar

from hearts_bot import Bot, BotServer, PassView, PlayView
from hearts_bot.proto.hearts.v1 import bot_pb2

from tests.sandbox.hostile._attack import PARAMS, report

SOCKET = "/run/bot/bot.sock"
INNER = "/tmp/inner.sock"
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, WINDOW_UPDATE = 0, 1, 3, 4, 8
ACK, PADDED = 0x1, 0x8
INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE = 0x4, 0x5
DEFAULT_WINDOW, DEFAULT_FRAME = 65_535, 16_384
ANNOUNCED = 2**31 - 1
PROGRESS = 64 << 20
JUNK = os.urandom(1 << 20)


class FirstLegal(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        return view.legal[0]


def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    head = len(payload).to_bytes(3, "big") + bytes((kind, flags)) + stream.to_bytes(4, "big")
    return head + payload


async def read_frame(reader: asyncio.StreamReader) -> tuple[bytes, int, int, int, bytes]:
    """One frame: its bytes, type, flags, stream id and payload (IncompleteReadError at EOF)."""
    head = await reader.readexactly(9)
    payload = await reader.readexactly(int.from_bytes(head[:3], "big"))
    stream = int.from_bytes(head[5:], "big") & 0x7FFF_FFFF
    return head + payload, head[3], head[4], stream, payload


class Connection:
    """One runner connection: the proxy's two directions and, once triggered, the attack."""

    count = 0
    attacks_left = int(PARAMS.get("attacks", 1))
    attacked_ones: ClassVar[list[Connection]] = []

    def __init__(self, runner: asyncio.StreamWriter, inner: asyncio.StreamWriter) -> None:
        Connection.count += 1
        self.number = Connection.count
        # Which attacked connection does the runner still hold open as it dials again?
        held = [str(c.number) for c in Connection.attacked_ones if not c.hung_up()]
        report("CONNECTED", f"connection={self.number} attacked_still_open={','.join(held)}")
        self.runner = runner
        self.inner = inner
        self.window = DEFAULT_WINDOW  # what the runner's connection window lets us send
        self.initial = DEFAULT_WINDOW
        self.streams: dict[int, int] = {}  # each stream's window
        self.max_frame = DEFAULT_FRAME
        self.messages: dict[int, bytearray] = {}  # the runner's gRPC bytes, per stream
        self.attacked: int | None = None
        self.reset = False  # the runner reset the attacked stream
        self.closed = False  # the runner's side reached EOF
        self.credit = asyncio.Event()

    def hung_up(self) -> bool:
        """Whether the runner has closed its end: the transport saw it (a failed write
        closes it), or the kernel says so, whatever this loop has handled yet."""
        if self.runner.is_closing():
            return True
        poll = select.poll()
        poll.register(self.runner.get_extra_info("socket").fileno(), select.POLLRDHUP)
        return any(events & (select.POLLRDHUP | select.POLLHUP) for _, events in poll.poll(0))

    async def upstream(self, reader: asyncio.StreamReader) -> None:
        """The runner's frames, forwarded to the server and read for what they grant."""
        try:
            self.inner.write(await reader.readexactly(len(PREFACE)))
            while True:
                raw, kind, flags, stream, payload = await read_frame(reader)
                self.inner.write(raw)
                if kind == SETTINGS and not flags & ACK:
                    self.settings(payload)
                elif kind == WINDOW_UPDATE:
                    grant = int.from_bytes(payload[:4], "big") & 0x7FFF_FFFF
                    if stream == 0:
                        self.window += grant
                    else:
                        self.streams[stream] = self.streams.get(stream, self.initial) + grant
                elif kind == RST_STREAM and stream == self.attacked:
                    self.reset = True
                elif kind == HEADERS:
                    self.streams.setdefault(stream, self.initial)
                elif kind == DATA:
                    self.runner_data(stream, flags, payload)
                self.credit.set()
                if self.attacked is None:
                    await self.inner.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        self.closed = True
        self.credit.set()

    def settings(self, payload: bytes) -> None:
        for at in range(0, len(payload) - 5, 6):
            key = int.from_bytes(payload[at : at + 2], "big")
            value = int.from_bytes(payload[at + 2 : at + 6], "big")
            if key == INITIAL_WINDOW_SIZE:
                for stream in self.streams:
                    self.streams[stream] += value - self.initial
                self.initial = value
            elif key == MAX_FRAME_SIZE:
                self.max_frame = value

    def runner_data(self, stream: int, flags: int, payload: bytes) -> None:
        if flags & PADDED:
            payload = payload[1 : len(payload) - payload[0]]
        pending = self.messages.setdefault(stream, bytearray())
        pending += payload
        while len(pending) >= 5 and len(pending) >= 5 + int.from_bytes(pending[1:5], "big"):
            end = 5 + int.from_bytes(pending[1:5], "big")
            message = bytes(pending[5:end])
            del pending[:end]
            self.on_message(stream, message)

    def on_message(self, stream: int, message: bytes) -> None:
        if self.attacked is not None or Connection.attacks_left <= 0:
            return
        if bot_pb2.PlayMatchRequest.FromString(message).HasField("play_card"):
            Connection.attacks_left -= 1
            self.attacked = stream
            Connection.attacked_ones.append(self)
            asyncio.get_running_loop().create_task(self.attack(stream))

    async def downstream(self, reader: asyncio.StreamReader) -> None:
        """The server's frames, forwarded whole until the attack starts (then dropped)."""
        try:
            while True:
                raw, kind, _, stream, payload = await read_frame(reader)
                if self.attacked is not None:
                    continue
                if kind == DATA:
                    self.window -= len(payload)
                    self.streams[stream] = self.streams.get(stream, self.initial) - len(payload)
                self.runner.write(raw)
                await self.runner.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    def room(self, stream: int) -> int:
        """How many bytes the windows let us send on `stream` now."""
        if self.reset:  # a reset stream's frames count against the connection only
            return self.window
        return min(self.window, self.streams.get(stream, self.initial))

    async def attack(self, stream: int) -> None:
        header = (0).to_bytes(1, "big") + ANNOUNCED.to_bytes(4, "big")  # not compressed
        pending = memoryview(header + JUNK)
        written, ended = 0, "EOF"
        try:
            while True:
                room = self.room(stream)
                if room <= 0:
                    if self.closed:  # one more write, to see how the connection ended
                        self.runner.write(frame(DATA, 0, stream, JUNK[:1]))
                        await self.runner.drain()
                        break
                    self.credit.clear()
                    await self.credit.wait()
                    continue
                size = min(room, self.max_frame, len(pending))
                self.runner.write(frame(DATA, 0, stream, bytes(pending[:size])))
                pending = pending[size:] or memoryview(JUNK)
                self.window -= size
                self.streams[stream] = self.streams.get(stream, self.initial) - size
                before, written = written, written + size
                if written // PROGRESS > before // PROGRESS:
                    report("STREAMING", f"connection={self.number} bytes={written}")
                await self.runner.drain()
        except OSError as error:  # BrokenPipeError, ConnectionResetError
            ended = type(error).__name__
        report("WROTE", f"connection={self.number} bytes={written} ended={ended}")


async def proxy(runner_reader: asyncio.StreamReader, runner: asyncio.StreamWriter) -> None:
    inner_reader, inner = await asyncio.open_unix_connection(INNER)
    connection = Connection(runner, inner)
    await asyncio.gather(
        connection.upstream(runner_reader),
        connection.downstream(inner_reader),
        return_exceptions=True,
    )
    runner.close()
    inner.close()


async def main() -> None:
    server = await asyncio.start_unix_server(proxy, SOCKET)
    print(f"HEARTS-BOT READY unix:{SOCKET}", flush=True)
    async with server:
        await server.serve_forever()


inner_server = BotServer(FirstLegal(), f"unix:{INNER}")
asyncio.run(main())
