"""Uploads of other kinds (docs/languages.md): a `hearts-bot.toml` manifest names a native
or node bot; the site checks it and its entry, and refuses a bad one with the field named
(400 on the page, 422 from the API), before anything is stored."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from arena.uploads import UploadError, inspect_upload, unpack
from tests.web.conftest import csrf_token
from tests.web.factories import BOT_SOURCE
from tests.web.test_uploads import tar_of, zip_of

ELF = b"\x7fELF\x02\x01\x01" + bytes(9) + (2).to_bytes(2, "little") + (62).to_bytes(2, "little")
NATIVE = b'kind = "native"\nentry = "bot"\nprotocol = "hearts.v1"\n'
NODE = b'kind = "node"\nentry = "dist/bot.js"\nprotocol = "hearts.v1"\n'


def test_a_native_bot_with_its_manifest_is_accepted() -> None:
    package = inspect_upload("bot.tar.gz", tar_of({"hearts-bot.toml": NATIVE, "bot": ELF}))
    assert (package.bot_kind, package.module, package.requirements) == ("native", "bot", ())


def test_a_node_bot_in_one_folder_is_accepted() -> None:
    files = {"owl/hearts-bot.toml": NODE, "owl/dist/bot.js": b"require('x')\n"}
    package = inspect_upload("owl.zip", zip_of(files))
    assert (package.bot_kind, package.module) == ("node", "dist/bot.js")


def test_a_python_upload_may_name_its_module_in_a_manifest() -> None:
    manifest = b'kind = "python"\nentry = "shark.py"\nprotocol = "hearts.v1"\n'
    package = inspect_upload("s.zip", zip_of({"hearts-bot.toml": manifest, "shark.py": BOT_SOURCE}))
    assert (package.bot_kind, package.module) == ("python", "shark.py")
    with pytest.raises(UploadError, match="defines no bot"):
        inspect_upload("s.zip", zip_of({"hearts-bot.toml": manifest, "shark.py": b"x = 1\n"}))


@pytest.mark.parametrize(
    ("files", "words"),
    [
        ({"hearts-bot.toml": NATIVE}, "the archive has no bot, the entry hearts-bot.toml names"),
        ({"hearts-bot.toml": NATIVE, "bot": b"#!/bin/sh\n"}, "not a Linux executable"),
        (
            {"hearts-bot.toml": NATIVE, "bot": ELF[:18] + (183).to_bytes(2, "little")},
            "not x86-64",
        ),
        ({"hearts-bot.toml": NATIVE.replace(b"native", b"java"), "bot": ELF}, "kind 'java'"),
        ({"hearts-bot.toml": NATIVE + b'extra = "x"\n', "bot": ELF}, "unknown key 'extra'"),
        ({"hearts-bot.toml": b'kind = "native"\n', "bot": ELF}, "entry is missing"),
        ({"hearts-bot.toml": NATIVE.replace(b"v1", b"v9"), "bot": ELF}, "'hearts.v9'"),
        ({"hearts-bot.toml": NATIVE.replace(b'"bot"', b'"../bot"'), "bot": ELF}, "inside"),
        ({"hearts-bot.toml": NODE.replace(b"bot.js", b"bot.ts")}, "compile TypeScript"),
        ({"hearts-bot.toml": b"kind = [", "bot": ELF}, "not valid TOML"),
    ],
)
def test_a_bad_manifest_or_entry_is_refused_naming_what_is_wrong(
    files: dict[str, bytes], words: str, tmp_path: Path
) -> None:
    with pytest.raises(UploadError) as refused:
        inspect_upload("bot.zip", zip_of(files))
    assert refused.value.reason == "not_a_bot"
    assert words in str(refused.value)
    with pytest.raises(UploadError) as rejected:  # the workers say the same
        unpack(zip_of(files), tmp_path / "upload")
    assert words in str(rejected.value)


def test_the_workers_unpack_a_native_bot_to_its_entry(tmp_path: Path) -> None:
    assert unpack(tar_of({"hearts-bot.toml": NATIVE, "bot": ELF}), tmp_path / "u") == "bot"


def test_the_upload_page_and_the_api_refuse_a_bad_manifest(client, auth, world) -> None:
    auth.login()
    bad = zip_of({"hearts-bot.toml": NATIVE.replace(b"native", b"cobol"), "bot": ELF})
    page = client.post(
        "/upload",
        data={
            "name": "polyglot",
            "file": (io.BytesIO(bad), "bot.zip"),
            "csrf_token": csrf_token(client, "/upload"),
        },
        content_type="multipart/form-data",
    )
    assert page.status_code == 400
    assert "kind &#39;cobol&#39; is not one of native, node, python" in page.get_data(as_text=True)


# -- the [env] table (issue 31, item 3) -------------------------------------------------------


def test_a_manifest_may_name_the_variables_its_bot_needs() -> None:
    manifest = NATIVE + b'\n[env]\nSEARCH_DEPTH = "3"\nOPENING_BOOK = "/bot/book.txt"\n'
    package = inspect_upload("bot.tar.gz", tar_of({"hearts-bot.toml": manifest, "bot": ELF}))
    assert package.bot_kind == "native"
    from arena.match.manifest import parse_manifest

    assert parse_manifest(manifest).env == (
        ("SEARCH_DEPTH", "3"),
        ("OPENING_BOOK", "/bot/book.txt"),
    )


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (b'LD_PRELOAD = "/bot/x.so"', "may not set LD_PRELOAD: names starting LD_"),
        (b'PYTHONPATH = "/bot"', "may not set PYTHONPATH: names starting PYTHON"),
        (b'GRPC_TRACE = "all"', "may not set GRPC_TRACE: names starting GRPC_"),
        (b'NODE_OPTIONS = "--require x"', "may not set NODE_OPTIONS: names starting NODE_"),
        (b'PATH = "/bot"', "may not set PATH: the platform, the shell or the loader"),
        (b'HOME = "/tmp"', "may not set HOME"),
        (b'ARENA_SECRET_KEY = "x"', "may not set ARENA_SECRET_KEY"),
        (b'search_depth = "3"', "'search_depth' is not a variable name"),
        (b'"9LIVES" = "x"', "'9LIVES' is not a variable name"),
        (b"DEPTH = 3", 'DEPTH must be a string (quote it: DEPTH = "'),
        (b'NUL = "a\\u0000b"', "NUL holds a NUL character"),
        (b'LONG = "' + b"x" * 1025 + b'"', "LONG is 1025 characters long (at most 1024)"),
        (b"".join(b'V%d = "x"\n' % i for i in range(33)), "sets 33 variables (at most 32)"),
    ],
)
def test_a_manifests_variables_are_bounded_and_never_the_runtimes(
    table: bytes, words: str, tmp_path: Path
) -> None:
    files = {"hearts-bot.toml": NATIVE + b"\n[env]\n" + table + b"\n", "bot": ELF}
    with pytest.raises(UploadError) as refused:
        inspect_upload("bot.zip", zip_of(files))
    assert words in str(refused.value)
    with pytest.raises(UploadError) as rejected:  # the workers say the same
        unpack(zip_of(files), tmp_path / "upload")
    assert words in str(rejected.value)


def test_env_must_be_a_table() -> None:
    with pytest.raises(UploadError, match=r"\[env\] must be a table"):
        inspect_upload("b.zip", zip_of({"hearts-bot.toml": NATIVE + b'env = "X=1"\n', "bot": ELF}))
