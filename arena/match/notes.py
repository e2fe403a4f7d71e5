"""Bots' notes (`PlayMatchResponse.note`): what the runner keeps of them, within bounds it
enforces itself, whatever a bot sends.

A note is cleaned and cut to `NOTE_MAX_CHARS` (the SDK does the same before sending, but a
bot in another language need not); each entrant may keep `NOTES_MAX_BYTES_PER_MATCH`
bytes of notes per match, and a note that does not fit is dropped whole and counted. The
bounds are declared once, in `hearts_bot.notes`, beside the field they bound.
"""

from __future__ import annotations

from hearts_bot.notes import NOTE_MAX_CHARS, NOTES_MAX_BYTES_PER_MATCH, clean_note

__all__ = ["NOTES_MAX_BYTES_PER_MATCH", "NOTE_MAX_CHARS", "NoteBook"]


class NoteBook:
    """Each entrant's notes in one match: how many were kept, how many dropped."""

    def __init__(self, entrants: int, budget: int = NOTES_MAX_BYTES_PER_MATCH) -> None:
        self.kept = [0] * entrants
        self.dropped = [0] * entrants
        self._room = [budget] * entrants

    def keep(self, entrant: int, text: str) -> str | None:
        """The note to record for the entrant's decision, cleaned and cut; None when there
        is none, or when it no longer fits in the entrant's budget (then counted dropped)."""
        note = clean_note(text)
        if not note:
            return None
        size = len(note.encode("utf-8"))
        if size > self._room[entrant]:
            self.dropped[entrant] += 1
            return None
        self._room[entrant] -= size
        self.kept[entrant] += 1
        return note

    def to_replay(self) -> list[dict[str, int]]:
        """The replay's `notes`: per entrant, `kept` and `dropped`."""
        return [
            {"kept": kept, "dropped": dropped}
            for kept, dropped in zip(self.kept, self.dropped, strict=True)
        ]
