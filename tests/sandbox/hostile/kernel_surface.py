"""Reaches for kernel interfaces a bot never needs: bpf, perf, userfaultfd, modules, kexec."""

from tests.sandbox.hostile._attack import AttackBot, attempt, syscall


class KernelSurfaceBot(AttackBot):
    def attack(self) -> None:
        attempt("bpf", lambda: syscall("bpf", 321, 0, 0, 0))
        attempt("perf_event_open", lambda: syscall("perf_event_open", 298, 0, 0, -1, -1, 0))
        attempt("userfaultfd", lambda: syscall("userfaultfd", 323, 0))
        attempt("init_module", lambda: syscall("init_module", 175, 0, 0, 0))
        attempt("kexec_load", lambda: syscall("kexec_load", 246, 0, 0, 0, 0))
        attempt("personality", lambda: syscall("personality", 135, 0x0040000))
