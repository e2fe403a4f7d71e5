"""Looks around /proc and /sys for other processes and host details."""

import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read, report


class ProcSnoopBot(AttackBot):
    def attack(self) -> None:
        pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        report("INFO", f"pids: {pids}")
        attempt("more than the sandbox's own processes", lambda: pids if len(pids) > 6 else 1 / 0)
        runner = PARAMS["runner_pid"]
        attempt(
            f"see the runner's pid {runner}",
            lambda: read(f"/proc/{runner}/cmdline", "rb") if runner > 10 else 1 / 0,
        )
        attempt("read /proc/1/mem", lambda: read("/proc/1/mem", "rb", 16))
        attempt("read /proc/kcore", lambda: read("/proc/kcore", "rb", 16))
        attempt("list /sys", lambda: os.listdir("/sys") or 1 / 0)
        attempt("list /sys/fs/cgroup", lambda: os.listdir("/sys/fs/cgroup"))
        report("INFO", f"cgroups: {read('/proc/self/cgroup')!r}")
