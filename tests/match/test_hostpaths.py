"""Host folders rewritten to the names a bot's owner is shown (`arena.match.hostpaths`)."""

from __future__ import annotations

import doctest

from arena.match import hostpaths
from arena.match.hostpaths import PathScrubber

SHA = "ab" * 32


def test_each_known_folder_becomes_its_sandbox_name_longest_first() -> None:
    scrub = PathScrubber.of(
        {"/srv/data": "<data>", f"/srv/data/versions/{SHA}/venv": "/venv", "/opt/py": "/python"}
    )
    text = (
        f'File "/srv/data/versions/{SHA}/venv/lib/python3.12/site-packages/x.py", line 1\n'
        'File "/opt/py/lib/python3.12/json/decoder.py", line 2\n'
        "/srv/database is another folder; /srv/data/tmp stays hidden\n"
    )
    assert scrub(text) == (
        'File "/venv/lib/python3.12/site-packages/x.py", line 1\n'
        'File "/python/lib/python3.12/json/decoder.py", line 2\n'
        "/srv/database is another folder; <data>/tmp stays hidden\n"
    )


def test_upload_scratch_and_version_folders_of_any_data_folder_are_hidden() -> None:
    scrub = PathScrubber.of({})
    text = (
        "ERROR: cannot open /var/lib/arena/tmp/upload-k3j_9x/upload/requirements.txt\n"
        f"/elsewhere/versions/{SHA}/bot/bot.py and /x/versions/{SHA}/venv/bin/python\n"
    )
    assert scrub(text) == (
        "ERROR: cannot open requirements.txt\n/bot/bot.py and /venv/bin/python\n"
    )


def test_the_module_examples() -> None:
    assert doctest.testmod(hostpaths).failed == 0
