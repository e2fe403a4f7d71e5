"""Probes what a bot can learn of, and do to, the warm template it was forked from; and
reports its own view of its sandbox (what a warm and a cold start must give alike).

params.json: ``mode`` (``plant``: leave traces for a later bot; ``check``: look for a
previous bot's traces; both also attack the template), ``template_pid`` (the template's
host pid), ``secret_sha256`` (the hash of a secret in the worker's environment: found in
this process's memory only if the template carried it), ``plant`` (a random token).

It prints ``VIEW <json>`` (uid, capabilities, seccomp, no_new_privs, environment,
working folder, descriptors, processes it sees, rlimits, sys.path's shape) and
``RANDOM <first draw of random>`` on stderr, then the attacks' lines as every hostile bot.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import random
import re
import resource
import signal
import sys

from tests.sandbox.hostile._attack import LIBC, PARAMS, AttackBot, attempt, report

PTRACE_ATTACH = 16
PREFIX = ("hearts-arena-" + "canary-").encode()
PLANTS = ("/tmp/planted", "/dev/shm/planted", "/run/bot/planted")
FIRST_DRAW = random.random()  # at import: before anything of ours used the generator


def view() -> dict[str, object]:
    """This process's view of its sandbox."""
    status = {}
    with open("/proc/self/status") as file:
        for line in file:
            key, _, value = line.partition(":")
            status[key] = value.strip()
    return {
        "uid": os.getuid(),
        "gid": os.getgid(),
        "groups": os.getgroups(),
        "caps": {key: status[key] for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")},
        "seccomp": status["Seccomp"],
        "no_new_privs": status["NoNewPrivs"],
        "environ": dict(os.environ),
        "cwd": os.getcwd(),
        "hostname": os.uname().nodename,
        "fds": sorted(int(fd) for fd in os.listdir("/proc/self/fd")),
        "pids": sorted(int(name) for name in os.listdir("/proc") if name.isdigit()),
        "rlimits": {
            name: resource.getrlimit(getattr(resource, name))
            for name in ("RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_FSIZE", "RLIMIT_CORE")
        },
        "sys_path": [
            "venv" if "/venv/" in path else "runtime" if "/runtime/" in path else path
            for path in sys.path
        ],
        "executable": "venv" if "/venv/" in sys.executable else sys.executable,
        "dumpable": os.access("/proc/self/mem", os.R_OK),
        "dont_write_bytecode": sys.dont_write_bytecode,
        "argv0": os.path.basename(sys.argv[0]),
    }


def find_secret() -> str:
    """Scans this process's readable memory for the worker's secret (by its hash)."""
    wanted = PARAMS["secret_sha256"]
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            bounds, perms = line.split()[:2]
            if not perms.startswith("r"):
                continue
            start, end = (int(value, 16) for value in bounds.split("-"))
            if end - start > 256 << 20:
                continue
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except (OSError, OverflowError, ValueError):
                continue
            for match in re.finditer(re.escape(PREFIX) + rb"[0-9a-f]{16}", chunk):
                if hashlib.sha256(match.group()).hexdigest() == wanted:
                    return f"found at {start + match.start():#x}"
    raise LookupError("the secret is nowhere in this process's memory")


def plant() -> str:
    """Leaves traces a later bot of the same template could find."""
    token = PARAMS["plant"]
    planted = []
    for path in PLANTS:
        try:
            with open(path, "w") as file:
                file.write(token)
            planted.append(path)
        except OSError:
            pass
    os.environ["HEARTS_ARENA_PLANTED"] = token
    os.putenv("HEARTS_ARENA_PLANTED", token)
    # Memory pages shared with the template (copy-on-write): overwrite a module's
    # constant there, in place.
    import hearts_bot.server

    marker = hearts_bot.server.READY_PREFIX
    buffer = ctypes.c_char.from_address(id(marker) + sys.getsizeof(marker) - len(marker) - 1)
    ctypes.memmove(ctypes.addressof(buffer), (token * 4).encode()[: len(marker)], len(marker))
    os.dup2(0, 200)  # a descriptor left open
    return ", ".join(planted)


def find_plants() -> list[str]:
    """A previous bot's traces that reached this one."""
    token = PARAMS["plant"]
    found = []
    for path in PLANTS:
        try:
            with open(path) as file:
                if token in file.read():
                    found.append(path)
        except OSError:
            pass
    if os.environ.get("HEARTS_ARENA_PLANTED") or os.getenv("HEARTS_ARENA_PLANTED"):
        found.append("environment")
    import hearts_bot.server

    if hearts_bot.server.READY_PREFIX != "HEARTS-BOT READY":
        found.append(f"shared memory: READY_PREFIX is {hearts_bot.server.READY_PREFIX!r}")
    if 200 in {int(fd) for fd in os.listdir("/proc/self/fd")}:
        found.append("descriptor 200")
    return found


class TemplateProbeBot(AttackBot):
    def attack(self) -> None:
        report("VIEW", json.dumps(view()))
        report("RANDOM", repr(FIRST_DRAW))
        template = int(PARAMS["template_pid"])
        attempt("signal the template", lambda: os.kill(template, signal.SIGKILL))
        attempt("stop the template", lambda: os.kill(template, signal.SIGSTOP))

        def read_proc(name: str) -> bytes:
            with open(f"/proc/{template}/{name}", "rb") as file:
                return file.read(64)

        attempt("open the template's memory", lambda: read_proc("mem"))
        attempt("read the template's environ", lambda: read_proc("environ"))

        def ptrace() -> int:
            if LIBC.ptrace(PTRACE_ATTACH, template, None, None) != 0:
                code = ctypes.get_errno()
                raise OSError(code, os.strerror(code))
            return template

        attempt("ptrace the template", ptrace)
        attempt("find the worker's secret in memory inherited from the template", find_secret)
        if PARAMS["mode"] == "plant":
            report("PLANTED", plant())
            report("SELFCHECK", ", ".join(find_plants()))  # the check sees each kind
        else:

            def traces() -> list[str]:
                found = find_plants()
                if not found:
                    raise LookupError("no trace of the previous bot")
                return found

            attempt("find a previous bot's traces", traces)


if __name__ == "__main__" and "--scan" in sys.argv:  # the positive control, on the host
    PARAMS.update(json.loads(sys.argv[-1]))
    print(find_secret())
