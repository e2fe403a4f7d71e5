"""Traces other processes: ptrace attach, process_vm_readv."""

from tests.sandbox.hostile._attack import AttackBot, attempt, read, syscall

PTRACE_ATTACH = 16
PTRACE_TRACEME = 0


class PtraceAttachBot(AttackBot):
    def attack(self) -> None:
        attempt("ptrace attach pid 1", lambda: syscall("ptrace", 101, PTRACE_ATTACH, 1, 0, 0))
        attempt("ptrace traceme", lambda: syscall("ptrace", 101, PTRACE_TRACEME, 0, 0, 0))
        attempt(
            "process_vm_readv pid 1", lambda: syscall("process_vm_readv", 310, 1, 0, 0, 0, 0, 0)
        )
        attempt("read /proc/1/mem", lambda: read("/proc/1/mem", "rb", 1))
