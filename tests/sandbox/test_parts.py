"""The sandbox's parts on their own: the seccomp program, logs, the socket pin, cgroups,
environments, the policy and the availability check."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
from pathlib import Path

import pytest

from workers.sandbox import (
    EnvironmentBuildError,
    SandboxPolicy,
    SandboxUnavailableError,
    build_environment,
    check_available,
    parse_requirements,
    seccomp,
)
from workers.sandbox.cgroups import CgroupDriver, CgroupLimits
from workers.sandbox.endpoint import SocketRefusedError, open_socket
from workers.sandbox.logs import CapturedStream
from workers.sandbox.syscalls import X86_64

pytestmark = pytest.mark.timeout(60)

# -- seccomp -------------------------------------------------------------------------------------

PROGRAM = seccomp.build_filter(X86_64)


def verdict(name: str, *args: int) -> int:
    return seccomp.evaluate(PROGRAM, X86_64[name], args)


def errno_of(value: int) -> int:
    assert value & 0xFFFF0000 == 0x00050000, hex(value)
    return value & 0xFFFF


def test_seccomp_allows_unix_sockets_only() -> None:
    assert verdict("socket", socket.AF_UNIX, socket.SOCK_STREAM) == seccomp.RET_ALLOW
    for family in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET):
        assert errno_of(verdict("socket", family, socket.SOCK_STREAM)) == errno.EAFNOSUPPORT
    assert errno_of(verdict("socketpair", socket.AF_INET)) == errno.EAFNOSUPPORT


def test_seccomp_refuses_new_namespaces_but_not_threads() -> None:
    threads = 0x3D0F00  # what glibc's pthread_create passes
    assert verdict("clone", threads) == seccomp.RET_ALLOW
    assert errno_of(verdict("clone", threads | 0x10000000)) == errno.EPERM  # CLONE_NEWUSER
    assert errno_of(verdict("clone", 0x40000000 | 17)) == errno.EPERM  # CLONE_NEWNET
    assert errno_of(verdict("clone3")) == errno.ENOSYS  # so glibc falls back to clone
    assert errno_of(verdict("unshare", 0)) == errno.EPERM


@pytest.mark.parametrize(
    "name",
    [
        "ptrace",
        "keyctl",
        "add_key",
        "io_uring_setup",
        "mount",
        "bpf",
        "perf_event_open",
        "open_by_handle_at",
        "setns",
        "userfaultfd",
        "kexec_load",
        "init_module",
        "pivot_root",
    ],
)
def test_seccomp_refuses_dangerous_calls(name: str) -> None:
    assert errno_of(verdict(name)) == errno.EPERM


def test_seccomp_refuses_terminal_injection_only() -> None:
    assert errno_of(verdict("ioctl", 0, seccomp.TIOCSTI)) == errno.EPERM
    assert verdict("ioctl", 0, 0x541B) == seccomp.RET_ALLOW  # FIONREAD


@pytest.mark.parametrize(
    "name",
    [
        "flock",
        "inotify_init",
        "inotify_init1",
        "inotify_add_watch",
        "fanotify_init",
        "fadvise64",
        "readahead",
        "mincore",
    ],
)
def test_seccomp_refuses_calls_on_objects_bots_share(name: str) -> None:
    assert errno_of(verdict(name)) == errno.EPERM


def test_seccomp_refuses_locks_leases_and_notifications_but_not_descriptor_flags() -> None:
    for command in (5, 6, 7, 36, 37, 38, 1024, 1025, 1026):  # F_[OFD_]{GET,SET}LK[W], leases
        assert errno_of(verdict("fcntl", 3, command)) == errno.EPERM, command
    for command in (1, 2, 3, 4, 1030):  # F_GETFD F_SETFD F_GETFL F_SETFL F_DUPFD_CLOEXEC
        assert verdict("fcntl", 3, command) == seccomp.RET_ALLOW, command


def test_seccomp_refuses_cache_probes_and_evictions_only() -> None:
    assert errno_of(verdict("preadv2", 3, 0, 1, 0, 0, seccomp.RWF_NOWAIT)) == errno.EPERM
    assert errno_of(verdict("pwritev2", 3, 0, 1, 0, 0, 0x8 | 0x2)) == errno.EPERM
    assert verdict("preadv2", 3, 0, 1, 0, 0, 0x1) == seccomp.RET_ALLOW  # RWF_HIPRI
    assert errno_of(verdict("madvise", 0, 4096, 21)) == errno.EPERM  # MADV_PAGEOUT
    assert errno_of(verdict("madvise", 0, 4096, 20)) == errno.EPERM  # MADV_COLD
    assert verdict("madvise", 0, 4096, 4) == seccomp.RET_ALLOW  # MADV_DONTNEED (malloc)


def test_seccomp_kills_other_abis_and_answers_unknown_calls_enosys() -> None:
    assert seccomp.evaluate(PROGRAM, 0, (), arch=0x40000003) == seccomp.RET_KILL_PROCESS  # i386
    assert seccomp.evaluate(PROGRAM, 0x40000000 | 1, ()) == seccomp.RET_KILL_PROCESS  # x32
    assert errno_of(seccomp.evaluate(PROGRAM, 999, ())) == errno.ENOSYS


def test_seccomp_table_must_name_every_call() -> None:
    with pytest.raises(ValueError, match="missing from the table"):
        seccomp.build_filter({"read": 0})


# -- logs ---------------------------------------------------------------------------------------


def test_captured_stream_keeps_head_and_tail_and_sees_lines() -> None:
    read_end, write_end = os.pipe()
    lines: list[bytes] = []
    stream = CapturedStream(read_end, 1000, "stdout", lines.append)
    os.write(write_end, b"HEARTS-BOT READY unix:/x\n")
    os.write(write_end, b"a" * 100_000 + b"\n")
    os.write(write_end, b"the end\n")
    os.close(write_end)
    assert stream.join(5)
    data = stream.data()
    assert data.startswith(b"HEARTS-BOT READY") and data.endswith(b"the end\n")
    assert b"bytes of stdout dropped" in data and len(data) < 1100
    assert stream.truncated and stream.total == 100_034
    assert lines == [b"HEARTS-BOT READY unix:/x", b"the end"]  # the long line is skipped


# -- the socket pin -----------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "run" / "bot").mkdir(parents=True)
    return tmp_path


def pin(folder: Path, owner: int | None = None) -> str:
    root = os.open(folder, os.O_PATH | os.O_DIRECTORY)
    try:
        pinned = open_socket(root, "run/bot/bot.sock", os.getuid() if owner is None else owner)
    finally:
        os.close(root)
    pinned.close()
    return pinned.address


def listen(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen()
    return server


def test_a_real_socket_is_pinned_and_dialled_through_proc(folder: Path) -> None:
    server = listen(folder / "run" / "bot" / "bot.sock")
    root = os.open(folder, os.O_PATH | os.O_DIRECTORY)
    pinned = open_socket(root, "run/bot/bot.sock", os.getuid())
    os.close(root)
    (folder / "run" / "bot" / "bot.sock").rename(folder / "moved.sock")
    os.symlink("/nonexistent", folder / "run" / "bot" / "bot.sock")
    client = socket.socket(socket.AF_UNIX)
    client.connect(pinned.address.removeprefix("unix:"))  # still the same inode
    assert server.accept()
    pinned.close()
    server.close()


def test_a_symlink_to_a_socket_is_refused(folder: Path) -> None:
    server = listen(folder / "elsewhere.sock")
    os.symlink(folder / "elsewhere.sock", folder / "run" / "bot" / "bot.sock")
    with pytest.raises(SocketRefusedError, match="is a symbolic link, not a socket") as refused:
        pin(folder)
    assert refused.value.final  # no honest server puts it there: no waiting for a change
    server.close()


def test_a_symlinked_folder_on_the_way_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    server = listen(tmp_path / "real" / "bot.sock")
    (tmp_path / "run").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "run" / "bot")
    with pytest.raises(SocketRefusedError, match=r"/run/bot is not a plain directory") as refused:
        pin(tmp_path)
    assert refused.value.final
    server.close()


def test_a_plain_file_a_missing_socket_and_a_stranger_socket_are_refused(folder: Path) -> None:
    with pytest.raises(SocketRefusedError, match=r"no socket at /run/bot/bot\.sock") as refused:
        pin(folder)
    assert not refused.value.final  # a server may say it is ready just before it binds
    (folder / "run" / "bot" / "bot.sock").write_text("")
    with pytest.raises(SocketRefusedError, match="a regular file, not a socket") as refused:
        pin(folder)
    assert refused.value.final
    (folder / "run" / "bot" / "bot.sock").unlink()
    server = listen(folder / "run" / "bot" / "bot.sock")
    with pytest.raises(SocketRefusedError, match="owned by uid") as refused:
        pin(folder, owner=os.getuid() + 12345)
    assert refused.value.final
    server.close()


# -- cgroups ------------------------------------------------------------------------------------


def fake_proc(tmp_path: Path, cgroup: str, mounts: list[str]) -> Path:
    proc = tmp_path / "proc" / "self"
    proc.mkdir(parents=True)
    (proc / "cgroup").write_text(cgroup)
    (proc / "mountinfo").write_text("".join(f"{i} 1 0:{i} / {m}\n" for i, m in enumerate(mounts)))
    return tmp_path / "proc"


def test_cgroup_v2_driver_writes_v2_limits(tmp_path: Path) -> None:
    mount = tmp_path / "unified"
    (mount / "worker").mkdir(parents=True)
    (mount / "worker" / "cgroup.controllers").write_text("cpu memory pids io\n")
    (mount / "worker" / "cgroup.subtree_control").write_text("")
    proc = fake_proc(
        tmp_path, "0::/worker\n", [f"{mount} rw shared:1 - cgroup2 cgroup2 rw,nsdelegate"]
    )
    driver = CgroupDriver.detect(proc)
    assert driver.controllers == {"memory", "pids", "cpu"} and driver.problems == []
    assert driver.describe() == "memory:v2 pids:v2 cpu:v2 cpuacct:v2 membership:v2"
    group_path = mount / "worker" / "hearts-arena" / "bot"
    group = driver.create("bot", CgroupLimits(64 << 20, 32, 0.5))
    assert (group_path / "memory.max").read_text() == str(64 << 20)
    assert (group_path / "pids.max").read_text() == "32"
    assert (group_path / "cpu.max").read_text() == "50000 100000"
    (group_path / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    (group_path / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    assert group.oom_kills() == 1 and group.cpu_seconds() == 2.5


def test_cgroup_v1_driver_writes_v1_limits(tmp_path: Path) -> None:
    mounts = []
    for name in ("memory", "pids", "cpu,cpuacct"):
        (tmp_path / name / "job").mkdir(parents=True)
        mounts.append(f"{tmp_path / name} rw shared:1 - cgroup cgroup rw,{name}")
    proc = fake_proc(tmp_path, "4:memory:/job\n3:pids:/job\n2:cpu,cpuacct:/job\n", mounts)
    driver = CgroupDriver.detect(proc)
    assert driver.controllers == {"memory", "pids", "cpu"}
    group = driver.create("bot", CgroupLimits(64 << 20, 32, 1.5))
    base = "job/hearts-arena/bot"
    assert (tmp_path / "memory" / base / "memory.limit_in_bytes").read_text() == str(64 << 20)
    assert (tmp_path / "pids" / base / "pids.max").read_text() == "32"
    assert (tmp_path / "cpu,cpuacct" / base / "cpu.cfs_quota_us").read_text() == "150000"
    (tmp_path / "cpu,cpuacct" / base / "cpuacct.usage").write_text("1500000000\n")
    (tmp_path / "memory" / base / "memory.oom_control").write_text("oom_kill 2\n")
    assert group.cpu_seconds() == 1.5 and group.oom_kills() == 2


def test_no_cgroup_mount_is_reported_not_raised(tmp_path: Path) -> None:
    driver = CgroupDriver.detect(fake_proc(tmp_path, "0::/\n", []))
    assert not driver.usable
    assert "no writable cgroup memory controller" in driver.problems


def test_real_cgroup_holds_kills_and_removes_a_process() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root")
    driver = CgroupDriver.detect()
    if not driver.usable:
        if os.environ.get("CI"):
            pytest.fail(f"no cgroup on CI: {driver.problems}")
        pytest.skip(f"no usable cgroup here: {driver.problems}")
    group = driver.create(f"{os.getpid()}-test-parts", CgroupLimits(64 << 20, 16, 1.0))
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        group.attach(sleeper.pid)
        assert sleeper.pid in group.processes()
        assert group.kill()
        assert sleeper.wait(5) == -9
    finally:
        sleeper.kill()
        assert group.remove()


# -- environments -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "--index-url http://example.invalid/",
        "-e .",
        "./local",
        "pkg @ https://example.invalid/pkg.whl",
        "-r /etc/shadow",
        "not a requirement!",
    ],
)
def test_requirements_are_plain_names_and_versions_only(line: str) -> None:
    with pytest.raises(EnvironmentBuildError, match="not a plain requirement"):
        parse_requirements(line)


def upload(tmp_path: Path, requirements: str | None) -> Path:
    folder = tmp_path / "upload"
    folder.mkdir()
    (folder / "bot.py").write_text("from hearts_bot.starters.random_bot import RandomBot\n")
    (folder / "helper.py").write_text("VALUE = 1\n")
    os.symlink("/etc/hostname", folder / "link")
    if requirements is not None:
        (folder / "requirements.txt").write_text(requirements)
    return folder


def test_environment_with_empty_requirements(tmp_path: Path) -> None:
    env = build_environment(
        upload(tmp_path, "# nothing\n"),
        tmp_path / "env",
        runtime_root=tmp_path / "state",
        offline=True,
    )
    assert (env.bot_dir / "helper.py").exists() and not (env.bot_dir / "link").exists()
    probe = subprocess.run(
        [
            str(env.python),
            "-c",
            "import hearts_bot, grpc, sys; print(hearts_bot.__file__); print(sys.flags.no_site)",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={},
    )
    assert probe.stdout.startswith(str(env.runtime))
    again = build_environment(
        tmp_path / "upload", tmp_path / "env", runtime_root=tmp_path / "state"
    )
    assert again == env  # built once


def test_environment_does_not_reinstall_what_the_runtime_has(tmp_path: Path) -> None:
    env = build_environment(
        upload(tmp_path, "grpcio>=1.0\nprotobuf\n"),
        tmp_path / "env",
        runtime_root=tmp_path / "state",
        offline=True,
    )
    site = next((env.venv / "lib").glob("python3*/site-packages"))
    assert not (site / "grpc").exists()  # satisfied by the runtime, nothing downloaded


def test_environment_reports_an_unavailable_requirement(tmp_path: Path) -> None:
    with pytest.raises(EnvironmentBuildError, match="installing the requirements failed"):
        build_environment(
            upload(tmp_path, "surely-no-such-package-hearts==1.0\n"),
            tmp_path / "env",
            runtime_root=tmp_path / "state",
            offline=True,
        )


@pytest.mark.parametrize("entry", ["../bot.py", "/etc/passwd.py", "missing.py", "bot.txt"])
def test_environment_needs_a_bot_file_inside_the_upload(tmp_path: Path, entry: str) -> None:
    with pytest.raises(EnvironmentBuildError):
        build_environment(
            upload(tmp_path, None), tmp_path / "env", runtime_root=tmp_path / "state", entry=entry
        )


def test_runtime_holds_the_sdk_and_grpc_but_not_the_platform(tmp_path: Path) -> None:
    from workers.sandbox import build_runtime

    site = build_runtime(tmp_path)
    names = {path.name for path in site.iterdir()}
    assert {"hearts_bot", "grpc", "google"} <= names
    assert not names & {"arena", "workers", "celery", "flask", "sqlalchemy", "pytest"}


# -- policy and availability -------------------------------------------------------------------


def test_policy_refuses_non_positive_limits() -> None:
    with pytest.raises(ValueError, match="memory_bytes must be positive"):
        SandboxPolicy(memory_bytes=0)
    assert SandboxPolicy().data_limit(with_cgroup=True) == 2 * SandboxPolicy().memory_bytes


def test_a_missing_bubblewrap_is_named() -> None:
    with pytest.raises(SandboxUnavailableError, match=r"could not be run|needs root"):
        check_available("/nonexistent/bwrap")


def test_a_non_root_worker_is_refused_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from workers.sandbox import launcher

    monkeypatch.setattr("workers.sandbox.launcher.os.geteuid", lambda: 1000)
    with pytest.raises(SandboxUnavailableError, match="needs root"):
        launcher._probe("/usr/bin/bwrap")


def test_a_bubblewrap_not_installed_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("workers.sandbox.launcher.shutil.which", lambda *args, **kwargs: None)
    with pytest.raises(
        SandboxUnavailableError, match=r"bwrap is not installed \(Debian package bubblewrap\)"
    ):
        check_available()


# -- the /proc view and the platform's paths -----------------------------------------------------


def test_every_global_proc_entry_is_covered_or_replaced() -> None:
    from workers.sandbox import procfs

    covered = procfs.cover_args()
    targets = {covered[i + 2] for i, arg in enumerate(covered) if arg == "--ro-bind"}
    targets |= {covered[i + 1] for i, arg in enumerate(covered) if arg == "--tmpfs"}
    replaced = {path for path, _ in procfs.synthetic_files(SandboxPolicy())}
    for entry in os.listdir("/proc"):
        path = f"/proc/{entry}"
        if entry.isdigit() or entry in procfs.KEPT:
            assert path not in targets
            continue
        assert (path in targets) != (path in replaced), path  # exactly one of the two
    assert {"/proc/sys", "/proc/pressure", "/proc/vmstat", "/proc/locks"} <= targets


def test_the_fixed_proc_files_say_what_programs_look_for_and_nothing_that_moves() -> None:
    from workers.sandbox import procfs

    files = dict(procfs.synthetic_files(SandboxPolicy(memory_bytes=128 << 20)))
    meminfo = files["/proc/meminfo"].decode()
    assert "MemTotal:         131072 kB" in meminfo and "Shmem:                 0 kB" in meminfo
    cpus = [line for line in files["/proc/stat"].decode().splitlines() if line.startswith("cpu")]
    assert len(cpus) == 1 + (os.cpu_count() or 1)
    assert "cpu MHz" not in files["/proc/cpuinfo"].decode()
    assert files == dict(procfs.synthetic_files(SandboxPolicy(memory_bytes=128 << 20)))


def test_platform_paths_inside_the_mounts_are_hidden_but_not_the_runtime_or_venv(
    tmp_path: Path,
) -> None:
    import sys
    import sysconfig

    from workers.sandbox.environment import BotEnvironment, platform_paths

    found = platform_paths()
    base = Path(os.path.realpath(sys.base_prefix))
    site = Path(os.path.realpath(sysconfig.get_path("purelib", vars={"base": str(base)})))
    if site.is_dir():
        assert site in found
    assert all(not any(p in path.parents for p in found) for path in found)  # outermost only
    env = BotEnvironment(tmp_path, tmp_path / "bot", tmp_path / "venv", tmp_path / "rt", "b.py")
    hidden = env.hidden_paths()
    mounted = [Path("/usr"), *env.host_mounts()]
    assert all(any(root == p or root in p.parents for root in mounted) for p in hidden)
    if site.is_dir() and (site == base or base in site.parents):
        assert site in hidden
    inside = BotEnvironment(tmp_path, tmp_path / "bot", site / "venv", site / "rt", "b.py")
    assert site not in inside.hidden_paths()  # never cover what the bot runs from
