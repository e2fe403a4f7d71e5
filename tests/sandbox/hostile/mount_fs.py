"""Mounts file systems and changes its root."""

import os

from tests.sandbox.hostile._attack import AttackBot, attempt, libc_call, syscall


class MountFsBot(AttackBot):
    def attack(self) -> None:
        os.makedirs("/tmp/mnt", exist_ok=True)
        attempt("mount tmpfs", lambda: libc_call("mount", b"none", b"/tmp/mnt", b"tmpfs", 0, None))
        attempt("mount proc", lambda: libc_call("mount", b"proc", b"/tmp/mnt", b"proc", 0, None))
        attempt("chroot", lambda: os.chroot("/tmp"))
        attempt("pivot_root", lambda: syscall("pivot_root", 155, 0, 0))
        attempt("fsopen", lambda: syscall("fsopen", 430, 0, 0))
