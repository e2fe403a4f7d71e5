"""Bot notes: the bounds of `PlayMatchResponse.note`, declared once, and how a note is cut.

A note is a few words a bot attaches to an answer for its owner ("passing the QS: short
in spades"); the arena stores it beside the decision in the replay and shows it only to
the owner. The arena enforces these bounds itself (it never trusts a bot); the SDK cuts
a note the same way before sending it, so a chatty bot never sends a message the arena's
size limit would refuse.

>>> clean_note("  keep\\tthe\\x00 queen  ")
'keep\\tthe queen'
>>> len(clean_note("x" * 5000)) == NOTE_MAX_CHARS
True
>>> clean_note("x" * 5000).endswith(NOTE_CUT_MARK)
True
"""

from __future__ import annotations

import re
from typing import Final

NOTE_MAX_CHARS: Final = 1000
"""The most characters of one decision's note that are kept; a longer note is cut to this
length, its last character replaced by `NOTE_CUT_MARK`."""
NOTES_MAX_BYTES_PER_MATCH: Final = 64 * 1024
"""The most note text (UTF-8 bytes) kept per bot per match; notes past it are dropped
whole and counted in the replay's `notes[entrant].dropped`."""
NOTE_CUT_MARK: Final = "…"

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
"""Control characters other than tab and newline: a note is text for a page, not a terminal."""


def clean_note(text: str) -> str:
    """`text` without control characters (tab and newline stay) or surrounding blanks, cut
    to `NOTE_MAX_CHARS` (ending with `NOTE_CUT_MARK` when cut); "" for no note.
    Idempotent: a cleaned note cleans to itself."""
    if not text:
        return ""
    text = _CONTROL.sub("", text[: 4 * NOTE_MAX_CHARS]).strip()
    if len(text) > NOTE_MAX_CHARS:
        text = text[: NOTE_MAX_CHARS - len(NOTE_CUT_MARK)] + NOTE_CUT_MARK
    return text
