"""The workers unpack a stored upload (`arena.uploads.unpack`): the forms, every refusal."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from arena.uploads import STORED_LIMITS, UploadError, unpack
from tests.workers.bots import FIRST_LEGAL, zipped


def tarred(files: dict[str, bytes], *, link: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        if link:
            info = tarfile.TarInfo(link)
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/shadow"
            archive.addfile(info)
    return buffer.getvalue()


def test_a_single_python_file_is_the_bot(tmp_path: Path) -> None:
    assert unpack(FIRST_LEGAL, tmp_path) == "bot.py"
    assert (tmp_path / "bot.py").read_bytes() == FIRST_LEGAL


def test_a_zip_with_bot_py_and_requirements(tmp_path: Path) -> None:
    content = zipped({"bot.py": FIRST_LEGAL, "requirements.txt": b"six\n", "lib/util.py": b""})
    assert unpack(content, tmp_path) == "bot.py"
    assert (tmp_path / "requirements.txt").read_text() == "six\n"
    assert (tmp_path / "lib" / "util.py").exists()


def test_a_tar_whose_files_sit_in_one_folder_and_whose_only_module_is_the_bot(
    tmp_path: Path,
) -> None:
    assert unpack(tarred({"mybot/player.py": FIRST_LEGAL}), tmp_path) == "player.py"
    assert (tmp_path / "player.py").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (zipped({"../x.py": b""}), "climbs out of the archive"),
        (zipped({"/etc/x.py": b""}), "is an absolute path"),
        (tarred({"bot.py": b""}, link="evil"), "is a link"),
        (zipped({"a.py": b"", "b.py": b""}), "cannot tell which file"),
        (b"\x00\x01\x02 binary", "not valid Python"),
        (b"\xff\xfe binary", "not UTF-8"),
        (b"PK\x03\x04 not really", "not a readable zip"),
        (zipped({f"f{i}.txt": b"" for i in range(STORED_LIMITS.members + 1)}), "entries"),
    ],
)
def test_refusals_say_why(tmp_path: Path, content: bytes, message: str) -> None:
    with pytest.raises(UploadError, match=message):
        unpack(content, tmp_path)


def test_a_stored_version_beyond_todays_upload_cap_still_unpacks(tmp_path: Path) -> None:
    """Caps may tighten after a version was accepted; the workers still build it."""
    from arena.uploads import UPLOAD_LIMITS, inspect_upload

    data = b"x" * (UPLOAD_LIMITS.upload_bytes + 1)
    content = zipped({"bot.py": FIRST_LEGAL, "data.bin": data})
    with pytest.raises(UploadError) as refused:
        inspect_upload("bot.zip", content)
    assert refused.value.reason == "too_large"
    assert unpack(content, tmp_path / "stored") == "bot.py"
    assert (tmp_path / "stored" / "data.bin").stat().st_size == len(data)
