"""The starter bots and the example bot decide sensibly from a view."""

from __future__ import annotations

import pytest
from hearts_bot import Bot
from hearts_bot.convert import pass_view_from_proto, play_view_from_proto
from hearts_bot.loader import BotLoadError, load_bot
from hearts_bot.proto.hearts.v1 import game_pb2
from hearts_bot.starters.heuristic_bot import HeuristicBot
from hearts_bot.starters.random_bot import RandomBot

from .conftest import HAND, SDK, pass_query, play_query, state


def play(bot: Bot, hand: list[str], trick: list[str], legal: list[str]) -> str:
    current = game_pb2.Trick(leader=(2 - len(trick)) % 4, cards=trick)
    query = play_query(state=state(hand=hand, current_trick=current), legal_cards=legal)
    return bot.play_card(play_view_from_proto(query))


@pytest.mark.timeout(30)
def test_the_heuristic_passes_the_dangerous_cards():
    view = pass_view_from_proto(pass_query())
    assert HeuristicBot().pass_cards(view) == ["AS", "QS", "AH"]


@pytest.mark.timeout(30)
def test_the_heuristic_ducks_under_the_winning_card():
    assert play(HeuristicBot(), HAND, ["2C", "JC"], ["3C", "7C", "QC"]) == "7C"


@pytest.mark.timeout(30)
def test_the_heuristic_dumps_the_queen_when_void():
    hand = ["2S", "QS", "AS", "5H", "AH"]
    assert play(HeuristicBot(), hand, ["4D"], hand) == "QS"
    assert play(HeuristicBot(), ["2S", "5H", "AH"], ["4D"], ["2S", "5H", "AH"]) == "AH"


@pytest.mark.timeout(30)
def test_the_heuristic_leads_low():
    assert play(HeuristicBot(), HAND, [], HAND[:-4]) == "2S"


@pytest.mark.timeout(30)
def test_the_heuristic_takes_a_trick_it_cannot_duck_with_its_highest_card_when_last():
    hand = ["9C", "QC", "2D"]
    assert play(HeuristicBot(), hand, ["2C", "3C", "4C"], ["9C", "QC"]) == "QC"
    assert play(HeuristicBot(), hand, ["2C", "3C"], ["9C", "QC"]) == "9C"


@pytest.mark.timeout(30)
def test_the_random_bot_is_repeatable_with_a_seed():
    view = play_view_from_proto(play_query())
    assert {RandomBot(seed=4).play_card(view) for _ in range(5)} <= {"3C", "7C", "QC"}
    assert RandomBot(seed=4).pass_cards(pass_view_from_proto(pass_query())) == RandomBot(
        seed=4
    ).pass_cards(pass_view_from_proto(pass_query()))


@pytest.mark.timeout(30)
def test_the_loader_finds_bots_by_file_module_and_starter_name():
    assert type(load_bot(str(SDK / "examples" / "low_bot.py"))).__name__ == "LowBot"
    assert type(load_bot("hearts_bot.starters.random_bot:RandomBot")).__name__ == "RandomBot"
    assert type(load_bot("hearts_bot.starters.heuristic_bot")).__name__ == "HeuristicBot"
    assert type(load_bot("starter:random")).__name__ == "RandomBot"


@pytest.mark.timeout(30)
def test_the_loader_explains_what_is_wrong(tmp_path):
    (tmp_path / "two.py").write_text(
        "from hearts_bot.starters.random_bot import RandomBot\n"
        "class A(RandomBot): pass\nclass B(RandomBot): pass\n"
    )
    (tmp_path / "half.py").write_text(
        "from hearts_bot import Bot\nclass Half(Bot):\n"
        "    def play_card(self, view): return view.legal[0]\n"
    )
    (tmp_path / "broken.py").write_text("import no_such_module\n")
    with pytest.raises(BotLoadError, match=r"exactly one Bot subclass.*found: A, B"):
        load_bot(str(tmp_path / "two.py"))
    with pytest.raises(BotLoadError, match="found: none"):
        load_bot(str(tmp_path / "half.py"))
    with pytest.raises(BotLoadError, match="does not implement pass_cards"):
        load_bot(f"{tmp_path / 'half.py'}:Half")
    with pytest.raises(BotLoadError, match="raised ModuleNotFoundError"):
        load_bot(str(tmp_path / "broken.py"))
    with pytest.raises(BotLoadError, match="no such bot file"):
        load_bot(str(tmp_path / "missing.py"))
    with pytest.raises(BotLoadError, match="unknown starter"):
        load_bot("starter:genius")
