"""Uploads: a bot file or archive, size-capped and checked before anything is unpacked."""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
import zipfile

import pytest
from sqlalchemy import select

from arena.store.models import Bot, BotVersion, VersionStatus
from arena.uploads import Limits, UploadError, archive_kind, extract, inspect_upload
from tests.web.conftest import csrf_token
from tests.web.factories import BOT_SOURCE


def zip_of(entries: dict[str, bytes], *, links: tuple[str, ...] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def tar_of(
    entries: dict[str, bytes], *, special: tuple[tarfile.TarInfo, ...] = (), mode: str = "w:gz"
) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:  # type: ignore[call-overload]
        for name, content in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
        for info in special:
            archive.addfile(info)
    return buffer.getvalue()


def special(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


# -- the checks themselves -------------------------------------------------------------


def test_a_single_python_file_is_a_bot():
    package = inspect_upload("shark.py", BOT_SOURCE)
    assert package.kind == "file"
    assert package.module == "bot.py"
    assert package.files == {"bot.py": BOT_SOURCE}


def test_an_archive_of_one_folder_with_requirements():
    data = zip_of(
        {
            "shark/bot.py": BOT_SOURCE,
            "shark/requirements.txt": b"numpy>=1.26\n# c\n",
            "shark/lib/util.py": b"X = 1\n",
            "__MACOSX/._bot.py": b"junk",
        }
    )
    package = inspect_upload("shark.zip", data)
    assert package.kind == "zip"
    assert package.module == "bot.py"
    assert set(package.files) == {"bot.py", "requirements.txt", "lib/util.py"}
    assert package.requirements == ("numpy>=1.26",)


def test_a_tar_in_every_compression_and_the_only_py_file_as_entry():
    for mode in ("w", "w:gz", "w:bz2", "w:xz"):
        data = tar_of({"main.py": BOT_SOURCE, "data/table.json": b"{}"}, mode=mode)
        assert archive_kind(data) == "tar"
        assert inspect_upload("shark.tar", data).module == "main.py"


def test_a_bot_that_imports_its_class_from_its_own_package():
    data = zip_of({"bot.py": b"from shark.core import SharkBot\n", "shark/core.py": BOT_SOURCE})
    assert inspect_upload("shark.zip", data).module == "bot.py"


@pytest.mark.parametrize(
    ("data", "reason", "words"),
    [
        (zip_of({"../evil.py": b"x", "bot.py": BOT_SOURCE}), "unsafe", "'..'"),
        (zip_of({"/etc/evil.py": b"x", "bot.py": BOT_SOURCE}), "unsafe", "absolute"),
        (zip_of({"C:/evil.py": b"x", "bot.py": BOT_SOURCE}), "unsafe", "absolute"),
        (zip_of({"a\\..\\evil.py": b"x", "bot.py": BOT_SOURCE}), "unsafe", "backslash"),
        (zip_of({"bot.py": BOT_SOURCE}, links=("link.py",)), "unsafe", "symbolic link"),
        (
            tar_of({"bot.py": BOT_SOURCE}, special=(special("x", tarfile.SYMTYPE, "/etc/passwd"),)),
            "unsafe",
            "link",
        ),
        (
            tar_of({"bot.py": BOT_SOURCE}, special=(special("x", tarfile.LNKTYPE, "bot.py"),)),
            "unsafe",
            "link",
        ),
        (
            tar_of({"bot.py": BOT_SOURCE}, special=(special("dev", tarfile.CHRTYPE),)),
            "unsafe",
            "not a regular file",
        ),
        (
            tar_of({"bot.py": BOT_SOURCE}, special=(special("fifo", tarfile.FIFOTYPE),)),
            "unsafe",
            "not a regular file",
        ),
        (tar_of({"../../evil.py": b"x", "bot.py": BOT_SOURCE}), "unsafe", "'..'"),
        (tar_of({"bot.py": BOT_SOURCE, "a/" * 10 + "x.py": b""}), "unsafe", "nested"),
    ],
)
def test_unsafe_archives_are_refused(data, reason, words):
    with pytest.raises(UploadError, match=words) as caught:
        inspect_upload("upload", data)
    assert caught.value.reason == reason


def test_the_same_name_twice_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", BOT_SOURCE)
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("bot.py", b"# evil twin\n")
    with pytest.raises(UploadError, match="twice"):
        inspect_upload("twins.zip", buffer.getvalue())


def test_decompression_bombs_are_refused():
    zeros = b"\0" * (20 * 1024 * 1024)
    with pytest.raises(UploadError, match="expands more than") as caught:
        inspect_upload("bomb.zip", zip_of({"bot.py": BOT_SOURCE, "zeros.bin": zeros}))
    assert caught.value.reason == "too_large"
    with pytest.raises(UploadError, match=r"bomb|larger than") as caught:
        inspect_upload("bomb.tgz", tar_of({"bot.py": BOT_SOURCE, "zeros.bin": zeros}))
    assert caught.value.reason == "too_large"
    raw = gzip.compress(zeros)  # a gzip stream that is not even a tar
    with pytest.raises(UploadError) as caught:
        inspect_upload("bomb.tgz", raw)
    assert caught.value.reason == "too_large"


def test_a_zip_whose_header_lies_about_sizes_is_refused():
    data = bytearray(zip_of({"bot.py": BOT_SOURCE, "big.txt": b"a" * 5000}))
    central = data.rfind(b"PK\x01\x02")  # the last central directory entry (big.txt)
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")  # claims 10 bytes
    with pytest.raises(UploadError):
        inspect_upload("liar.zip", bytes(data))


def test_size_and_count_caps():
    with pytest.raises(UploadError, match="larger than") as caught:
        inspect_upload("big.py", b"#" * (1024 * 1024 + 1))
    assert caught.value.reason == "too_large"
    many = {f"m{i}.txt": b"" for i in range(300)} | {"bot.py": BOT_SOURCE}
    with pytest.raises(UploadError, match="more than 256 entries"):
        inspect_upload("many.zip", zip_of(many))
    with pytest.raises(UploadError, match="larger than"):
        inspect_upload(
            "one.zip",
            zip_of({"bot.py": BOT_SOURCE, "x.bin": os.urandom(600 * 1024)}),
            Limits(file_bytes=512 * 1024),
        )


@pytest.mark.parametrize(
    ("filename", "data", "words"),
    [
        ("notes.txt", b"hello", "upload a Python file"),
        ("empty.py", b"", "empty"),
        ("shark.py", b"def play(:\n", "not valid Python"),
        ("shark.py", b"\xff\xfe", "not UTF-8"),
        ("shark.py", b"print('hello')\n", "defines no bot"),
        ("shark.zip", zip_of({"README.md": b"# hi"}), "cannot tell which file is the bot"),
        ("shark.zip", zip_of({"a.py": BOT_SOURCE, "b.py": BOT_SOURCE}), "cannot tell"),
        (
            "shark.zip",
            zip_of({"bot.py": BOT_SOURCE, "requirements.txt": b"-e git+https://x/y\n"}),
            "options",
        ),
        (
            "shark.zip",
            zip_of({"bot.py": BOT_SOURCE, "requirements.txt": b"pkg @ https://x/y.whl\n"}),
            "URLs",
        ),
        (
            "shark.zip",
            zip_of({"bot.py": BOT_SOURCE, "requirements.txt": b"not a requirement!!\n"}),
            "line 1",
        ),
        ("shark.zip", b"PK\x03\x04 broken", "not a readable zip"),
        ("shark.tgz", b"\x1f\x8b\x08\x00broken", "corrupt|not a readable tar"),
    ],
)
def test_uploads_that_are_not_bots(filename, data, words):
    with pytest.raises(UploadError, match=words):
        inspect_upload(filename, data)


def test_extract_writes_only_the_checked_files(tmp_path):
    data = zip_of({"shark/bot.py": BOT_SOURCE, "shark/lib/util.py": b"X = 1\n"})
    package = extract(data, tmp_path / "out")
    assert (tmp_path / "out" / "bot.py").read_bytes() == BOT_SOURCE
    assert (tmp_path / "out" / "lib" / "util.py").read_text() == "X = 1\n"
    assert package.size == len(BOT_SOURCE) + 6
    with pytest.raises(FileExistsError):
        extract(data, tmp_path / "out")
    with pytest.raises(UploadError):
        extract(zip_of({"../x.py": b""}), tmp_path / "other")
    assert not (tmp_path / "x.py").exists()


# -- the upload page ---------------------------------------------------------------------


def upload(client, name, filename, data):
    return client.post(
        "/upload",
        data={
            "name": name,
            "file": (io.BytesIO(data), filename),
            "csrf_token": csrf_token(client, "/upload"),
        },
        content_type="multipart/form-data",
    )


def test_upload_makes_a_pending_version(client, auth, world, db):
    auth.login("bob")
    response = upload(client, "whale", "whale.py", BOT_SOURCE + b"# whale\n")
    assert response.status_code == 302
    version = db.scalars(select(BotVersion).join(Bot).where(Bot.name == "whale")).one()
    assert version.status is VersionStatus.PENDING
    assert response.headers["Location"] == f"/versions/{version.id}"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'data-settled="false"' in page
    assert "site.js" in page
    again = upload(client, "whale", "whale.py", BOT_SOURCE + b"# whale\n")
    assert again.headers["Location"] == f"/versions/{version.id}"  # the same bytes: that version
    newer = upload(client, "whale", "whale.zip", zip_of({"bot.py": BOT_SOURCE + b"# 2\n"}))
    assert newer.headers["Location"] != f"/versions/{version.id}"


@pytest.mark.parametrize(
    ("filename", "data", "words"),
    [
        ("evil.zip", zip_of({"../evil.py": b"x", "bot.py": BOT_SOURCE}), "climbs out"),
        ("link.zip", zip_of({"bot.py": BOT_SOURCE}, links=("l",)), "symbolic link"),
        ("notes.txt", b"hello", "upload a Python file"),
        ("plain.py", b"x = 1\n", "defines no bot"),
    ],
)
def test_bad_uploads_are_refused_with_the_reason(client, auth, world, filename, data, words):
    auth.login()
    response = upload(client, "bad", filename, data)
    assert response.status_code == 400
    assert words in response.get_data(as_text=True).replace("&#39;", "'")


def test_too_large_uploads_are_refused(client, auth, world):
    auth.login()
    response = upload(client, "huge", "huge.py", b"#" * (2 * 1024 * 1024))
    assert response.status_code == 413
    assert "The upload is larger than 1024 KiB." in response.get_data(as_text=True)
    just_over = upload(client, "big", "big.py", b"#" * (1024 * 1024 + 10))
    assert just_over.status_code == 400
    assert "larger than 1024 KiB" in just_over.get_data(as_text=True)


def test_upload_form_checks_its_fields(client, auth, world):
    auth.login()
    response = client.post(
        "/upload",
        data={"name": "no file", "csrf_token": csrf_token(client, "/upload")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert "choose a file" in response.get_data(as_text=True)
