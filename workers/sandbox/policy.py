"""`SandboxPolicy`: the limits one sandboxed bot runs under (a frozen value with defaults)."""

from __future__ import annotations

import dataclasses

KIB = 1024
MIB = 1024 * KIB


@dataclasses.dataclass(frozen=True)
class SandboxPolicy:
    """The limits of one bot process tree; every field has a default fit for a match.

    >>> SandboxPolicy().memory_bytes // MIB, SandboxPolicy(cpu_seconds=5).cpu_seconds
    (256, 5)
    """

    memory_bytes: int = 256 * MIB
    """Memory of the whole tree (cgroup ``memory.max`` / ``memory.limit_in_bytes``); the
    kernel kills the bot past it. Also the base of `data_bytes`."""
    data_bytes: int | None = None
    """``RLIMIT_DATA`` of each process (heap and private writable mappings), always set:
    the memory bound where there is no cgroup. Default: 2 x `memory_bytes` with a cgroup
    (so the cgroup, which says why it killed, acts first), `memory_bytes` without."""
    max_processes: int = 64
    """Processes and threads of the tree (``pids.max`` and ``RLIMIT_NPROC``, which counts
    threads too: a gRPC server needs a dozen)."""
    cpu_seconds: float = 300.0
    """CPU time of the whole tree over its life (cgroup accounting, checked by a watchdog;
    and ``RLIMIT_CPU`` per process, always)."""
    cpu_cores: float = 1.0
    """CPU bandwidth (cgroup ``cpu.max`` / CFS quota), in cores."""
    file_size_bytes: int = 16 * MIB
    """Largest file the bot may write (``RLIMIT_FSIZE``)."""
    open_files: int = 256
    """Open file descriptors per process (``RLIMIT_NOFILE``)."""
    tmp_bytes: int = 16 * MIB
    """Size of the private tmpfs on /tmp."""
    socket_dir_bytes: int = 64 * KIB
    """Size of the private tmpfs that holds the bot's socket (/run/bot)."""
    log_bytes: int = 64 * KIB
    """Output kept per stream (stdout, stderr): the first 3/4 and the last 1/4 of it."""
    ready_timeout: float = 30.0
    """Default seconds `BotProcess.wait_ready` waits for the readiness line."""
    freeze_off_turn: bool = True
    """Keep the bot frozen (cgroup v2 ``cgroup.freeze``) while it is not answering: the
    runner thaws it for each request and freezes it on the answer (`BotProcess.thaw`,
    `BotProcess.freeze`), so it uses CPU on its own time only. Needs a v2 group."""
    require_cgroup: bool = False
    """Refuse to start (SandboxUnavailableError) when no cgroup can hold the bot, instead
    of running on rlimits alone."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value <= 0:
                raise ValueError(f"SandboxPolicy.{field.name} must be positive, not {value!r}")

    def data_limit(self, *, with_cgroup: bool) -> int:
        """The ``RLIMIT_DATA`` to set (see `data_bytes`)."""
        if self.data_bytes is not None:
            return self.data_bytes
        return 2 * self.memory_bytes if with_cgroup else self.memory_bytes
