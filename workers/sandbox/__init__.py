"""The sandbox that runs untrusted bots: bubblewrap, a seccomp filter, cgroups and rlimits.

Typical use by a worker (see docs/sandbox.md for the threat model and each layer)::

    env = build_environment(upload, versions / digest, runtime_root=root)  # at validation
    sandbox = Sandbox()                      # once per process; SandboxUnavailableError
    with sandbox.start(env, seat=2, policy=SandboxPolicy()) as bot:
        if bot.wait_ready(timeout=10):
            channel = grpc.insecure_channel(bot.address, options=CHANNEL_OPTIONS)
            ...                              # play the match
    bot.exit_reason()                        # ExitReason: stopped, memory, cpu_time, ...
    bot.stderr.text()                        # capped logs, for the bot's owner
"""

from .environment import BotEnvironment, build_environment, build_runtime, parse_requirements
from .errors import (
    EnvironmentBuildError,
    PackageIndexUnavailableError,
    SandboxError,
    SandboxUnavailableError,
)
from .launcher import Sandbox, check_available
from .local import SandboxedBotFile, start_bot_file, start_unsandboxed
from .policy import SandboxPolicy
from .process import BotProcess, ExitKind, ExitReason

MAX_MESSAGE_BYTES = 1024 * 1024
"""The largest reply the runner should accept from a bot (gRPC's receive limit)."""
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", 4 * MAX_MESSAGE_BYTES),
    ("grpc.enable_retries", 0),
)
"""gRPC channel options for dialling a bot: a bot's huge reply is refused, not buffered."""

__all__ = [
    "CHANNEL_OPTIONS",
    "MAX_MESSAGE_BYTES",
    "BotEnvironment",
    "BotProcess",
    "EnvironmentBuildError",
    "ExitKind",
    "ExitReason",
    "PackageIndexUnavailableError",
    "Sandbox",
    "SandboxError",
    "SandboxPolicy",
    "SandboxUnavailableError",
    "SandboxedBotFile",
    "build_environment",
    "build_runtime",
    "check_available",
    "parse_requirements",
    "start_bot_file",
    "start_unsandboxed",
]
