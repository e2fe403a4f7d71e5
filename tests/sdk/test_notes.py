"""`Bot.note`: a note rides on the answer of the decision that made it, cut to the
protocol's bound; notes made anywhere else are never sent."""

from __future__ import annotations

from hearts_bot import Bot
from hearts_bot.notes import NOTE_CUT_MARK, NOTE_MAX_CHARS, clean_note
from hearts_bot.session import MatchSession

from .conftest import pass_query, play_query, play_stream, requests, start_kind


class Explains(Bot):
    def on_match_start(self, match):
        self.note("at the start: never sent")

    def on_trick_end(self, event):
        self.note("in a hook: never sent")

    def pass_cards(self, view):
        self.note("x" * (3 * NOTE_MAX_CHARS))
        return list(view.hand[: view.count])

    def play_card(self, view):
        self.note("why:")
        self.note(f"lowest of {len(view.legal)}")
        return view.legal[0]


def answers(bot, *kinds):
    session = MatchSession(bot)
    return [session.handle(request) for request in requests(start_kind(), *kinds)]


def test_a_note_goes_with_its_decisions_answer_and_several_are_joined():
    start, played = answers(Explains(), {"play_card": play_query()})
    assert start.note == ""  # match_start is no decision: its hook's note is not sent
    assert played.note == "why:\nlowest of 3"


def test_a_long_note_is_cut_to_the_bound_with_a_mark():
    _, passed = answers(Explains(), {"pass_cards": pass_query()})
    assert len(passed.note) == NOTE_MAX_CHARS and passed.note.endswith(NOTE_CUT_MARK)


def test_a_note_made_in_a_hook_is_not_sent_with_the_next_answer():
    from hearts_bot.proto.hearts.v1 import game_pb2

    trick = game_pb2.Trick(leader=0, cards=["2C", "KC", "3C", "4C"], winner=1)
    trick_end = {"trick_end": game_pb2.TrickEnd(hand_number=0, trick_number=0, trick=trick)}
    _, nothing, played = answers(Explains(), trick_end, {"play_card": play_query()})
    assert nothing is None
    assert played.note == "why:\nlowest of 3"


def test_a_bot_without_notes_sends_none():
    class Quiet(Explains):
        def play_card(self, view):
            return view.legal[0]

    _, played = answers(Quiet(), {"play_card": play_query()})
    assert played.note == "" and played.play_card.card == "3C"


def test_cleaning_drops_control_characters_and_is_idempotent():
    dirty = "\x1b[31mred\x1b[0m\tand\nmore\x00" + "y" * 2000
    cleaned = clean_note(dirty)
    assert "\x1b" not in cleaned and "\x00" not in cleaned and "\t" in cleaned
    assert clean_note(cleaned) == cleaned
    assert clean_note("   ") == "" and clean_note("") == ""


def test_notes_cross_a_real_server(start_bot, tmp_path):
    bot_file = tmp_path / "noting.py"
    bot_file.write_text(
        "from hearts_bot import Bot\n"
        "class Noting(Bot):\n"
        "    def pass_cards(self, view):\n"
        "        return list(view.hand[: view.count])\n"
        "    def play_card(self, view):\n"
        "        self.note(f'{len(view.legal)} legal')\n"
        "        return view.legal[0]\n"
    )
    bot = start_bot(str(bot_file))
    result = play_stream(bot.stub(), requests(start_kind(), {"play_card": play_query()}))
    assert [r.note for r in result.responses] == ["", "3 legal"]
