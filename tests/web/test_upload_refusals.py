"""Hostile uploads found by the outside reliability probe (issue 31): each is a 4xx naming
the problem, on the API (both databases), the upload form and the workers' unpacker,
never a 500 or a later surprise.

- a `hearts-bot.toml` nested ~500 levels deep (tomllib ran out of stack: a 500);
- a native entry built for FreeBSD (it passed the upload and failed only at validation);
- a bot name ending in a newline (a 409 "conflict" instead of a 400);
- a 100 KB `?enter=` (echoed whole in the error).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from arena.uploads import MANIFEST_TOO_DEEP, UploadError, inspect_upload, unpack
from tests.web.conftest import csrf_token
from tests.web.factories import BOT_SOURCE
from tests.web.test_api import bearer, post_bot, token
from tests.web.test_upload_kinds import ELF, NATIVE
from tests.web.test_uploads import tar_of, zip_of
from workers.config import Settings
from workers.environments import version_environment

__all__ = ["token"]  # the API token fixture, registered for these tests

DEEP_MANIFESTS = {
    "arrays": b"kind = " + b"[" * 500 + b"]" * 500 + b"\n",
    "tables": b"kind = " + b"{a = " * 400 + b"1" + b"}" * 400 + b"\n",
}


def deep_upload(kind: str) -> bytes:
    return zip_of({"hearts-bot.toml": DEEP_MANIFESTS[kind], "bot": ELF})


@pytest.mark.parametrize("kind", sorted(DEEP_MANIFESTS))
def test_a_deeply_nested_manifest_is_refused_by_the_upload_check(kind: str) -> None:
    with pytest.raises(UploadError) as refused:
        inspect_upload("bot.zip", deep_upload(kind))
    assert refused.value.reason == "not_a_bot"
    assert str(refused.value) == MANIFEST_TOO_DEEP
    assert "hearts-bot.toml nests arrays or tables too deeply" in MANIFEST_TOO_DEEP


@pytest.mark.parametrize("kind", sorted(DEEP_MANIFESTS))
def test_the_workers_reject_a_deeply_nested_manifest_with_the_reason(
    kind: str, tmp_path: Path
) -> None:
    with pytest.raises(UploadError, match="too deeply"):
        unpack(deep_upload(kind), tmp_path / "upload")
    # What validation does with a stored version (workers.validation.judge): an
    # UploadError is the bot's rejection, with its message.
    settings = Settings(
        data_dir=tmp_path / "data",
        database_url="sqlite://",
        broker_url="memory://",
        result_backend=None,
    )
    with pytest.raises(UploadError, match="too deeply"):
        version_environment(settings, "0" * 64, lambda: deep_upload(kind))


def test_the_api_refuses_a_deeply_nested_manifest(client, token) -> None:
    answer = post_bot(client, "deep", deep_upload("arrays"), "bot.zip", headers=bearer(token))
    assert answer.status_code == 422
    assert answer.json["error"]["message"] == MANIFEST_TOO_DEEP
    assert answer.json["error"]["reason"] == "not_a_bot"


def upload_page(client, name: str, data: bytes, filename: str = "bot.zip"):
    return client.post(
        "/upload",
        data={
            "name": name,
            "file": (io.BytesIO(data), filename),
            "csrf_token": csrf_token(client, "/upload"),
        },
        content_type="multipart/form-data",
    )


def test_the_upload_form_refuses_a_deeply_nested_manifest(client, auth, world) -> None:
    auth.login()
    page = upload_page(client, "deep", deep_upload("tables"))
    assert page.status_code == 400
    assert "hearts-bot.toml nests arrays or tables too deeply" in page.get_data(as_text=True)


# -- a native entry for another operating system -------------------------------------------

FREEBSD_ELF = ELF[:7] + bytes([9]) + ELF[8:]  # EI_OSABI 9: FreeBSD


@pytest.mark.parametrize(("abi", "name"), [(9, "FreeBSD"), (6, "Solaris"), (255, "standalone")])
def test_a_native_entry_for_another_system_is_refused_at_upload(abi: int, name: str) -> None:
    elf = ELF[:7] + bytes([abi]) + ELF[8:]
    with pytest.raises(UploadError) as refused:
        inspect_upload("bot.tar.gz", tar_of({"hearts-bot.toml": NATIVE, "bot": elf}))
    assert refused.value.reason == "not_a_bot"
    assert f"OS ABI {abi}" in str(refused.value)
    assert name in str(refused.value)


@pytest.mark.parametrize("abi", [0, 3])
def test_a_native_entry_for_linux_passes(abi: int) -> None:
    elf = ELF[:7] + bytes([abi]) + ELF[8:]
    package = inspect_upload("bot.tar.gz", tar_of({"hearts-bot.toml": NATIVE, "bot": elf}))
    assert package.bot_kind == "native"


def test_the_api_refuses_a_freebsd_executable(client, token) -> None:
    upload = tar_of({"hearts-bot.toml": NATIVE, "bot": FREEBSD_ELF})
    answer = post_bot(client, "beastie", upload, "bot.tar.gz", headers=bearer(token))
    assert answer.status_code == 422
    assert "FreeBSD" in answer.json["error"]["message"]


# -- names and flags -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["orca%0A", "orca%0D%0A", "orca%0Aorca", "%0Aorca"])
def test_a_bot_name_with_a_newline_is_a_400(client, token, name: str) -> None:
    answer = post_bot(client, name, BOT_SOURCE, headers=bearer(token))
    assert answer.status_code == 400
    assert "is not allowed" in answer.json["error"]["message"]


def test_the_upload_form_refuses_a_name_ending_in_a_newline(client, auth, world) -> None:
    auth.login()
    page = upload_page(client, "orca\n", BOT_SOURCE, "orca.py")
    assert page.status_code == 400
    assert "letters, digits" in page.get_data(as_text=True)


def test_a_huge_enter_flag_is_refused_without_being_echoed(client, token) -> None:
    huge = "x" * 100_000
    answer = client.post(
        f"/api/v1/bots/orca/versions?enter={huge}",
        data={"file": (io.BytesIO(BOT_SOURCE), "bot.py")},
        headers=bearer(token),
        content_type="multipart/form-data",
    )
    assert answer.status_code == 400
    message = answer.json["error"]["message"]
    assert "'enter' must be true or false" in message
    assert len(message) < 200
    assert len(answer.get_data()) < 1000
