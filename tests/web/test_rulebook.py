"""The rulebook's sentences against the option table: every rule option has a place in
the words (`web.rulebook.OPTION_TOPICS`), and every option a preset sets away from its
default is told on the season page."""

from __future__ import annotations

import pytest

from arena.bots import RandomBot
from arena.engine import PRESETS, Rules, RulesError, preset
from arena.engine.options import OPTIONS
from arena.match.house import play_game
from web.rulebook import OPTION_TOPICS, describe

TOLD = [option for option in OPTIONS if option.reader != "label"]


def set_options(rules: Rules) -> list[str]:
    """The options `rules` sets away from their defaults (the label aside)."""
    return [option.name for option in TOLD if getattr(rules, option.name) != option.default]


def told(rules: Rules, name: str) -> list[tuple[str, str]]:
    """The sentences under the topics that tell option `name`."""
    return [line for line in describe(rules) if line[0] in OPTION_TOPICS[name]]


def played(rules: Rules) -> list[tuple[tuple[int, ...], str]]:
    """Two short games of random bots: each hand's scores and actions (the same seeds for
    any rules, so two rules that play alike play these alike)."""
    try:
        short = rules.replace(max_hands=2)
    except RulesError:
        short = rules
    record: list[tuple[tuple[int, ...], str]] = []
    for seed in (1, 2):
        bots = [RandomBot(seed * 10 + seat) for seat in range(rules.players)]
        play_game(
            short,
            bots,
            seed,
            on_hand=lambda game, scores: record.append((scores, repr(game.hand.history))),
        )
    return record


def comparisons(rules: Rules) -> list[tuple[str, Rules, Rules]]:
    """For each option the preset sets: (option, rules with it, rules without it): the
    preset against itself with the option back at its default or, where that is no valid
    game, the standard preset of as many players against it with the option set."""
    pairs = []
    for option in set_options(rules):
        default = next(o.default for o in TOLD if o.name == option)
        try:
            pairs.append((option, rules, rules.replace(**{option: default})))
            continue
        except (RulesError, ValueError):
            pass
        try:
            base = preset("standard", rules.players)
            if getattr(base, option) != getattr(rules, option):  # else nothing to compare
                pairs.append((option, base.replace(**{option: getattr(rules, option)}), base))
        except (RulesError, ValueError):
            pass  # valid only together with other options: the topic test covers it
    return pairs


def test_every_option_of_the_table_has_its_topics_in_the_rulebook() -> None:
    assert sorted(OPTION_TOPICS) == sorted(option.name for option in TOLD)
    assert all(OPTION_TOPICS.values())


INERT = {
    ("auction", "card_values"): "the suit the declarer names scores, not the card values",
    ("black_maria", "kitty_taker"): "no kitty at four players (it is there at three)",
    ("black_maria_purist", "kitty_taker"): "no kitty at four players (it is there at three)",
    ("cancellation", "kitty_visibility"): "no kitty: two packs deal evenly to eight",
    ("classic", "broken_by"): "any card may be led, so nothing needs breaking",
    ("heartsette", "broken_by"): "any card may be led, so nothing needs breaking",
    ("omnibus", "moon_points"): "26 is what the moon is worth by default too",
}
"""The options a preset sets that act on nothing in its rules (with why): no sentence need
change with them, and resetting them changes no game (checked below)."""


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_option_a_preset_sets_is_told_under_its_topic(name: str) -> None:
    rules = preset(name)
    topics = {topic for topic, _ in describe(rules)}
    untold = [
        option
        for option in set_options(rules)
        if not topics & set(OPTION_TOPICS[option]) and (name, option) not in INERT
    ]
    assert not untold, f"{name} sets {untold}, and no sentence of theirs is shown"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_resetting_an_option_changes_its_sentences(name: str) -> None:
    """Each option the preset sets, reset to its default (or set on the standard preset
    where the reset is no valid game), changes the words under its topics: a sentence
    that ignores an option's value fails here even where its topic is shown."""
    silent = [
        option
        for option, with_it, without_it in comparisons(preset(name))
        if (name, option) not in INERT and told(with_it, option) == told(without_it, option)
    ]
    assert not silent, f"{name}: the sentences of {silent} do not say their value"


@pytest.mark.parametrize(("name", "option"), sorted(INERT))
def test_an_inert_option_changes_neither_the_words_nor_the_game(name: str, option: str) -> None:
    rules = preset(name)
    default = next(o.default for o in TOLD if o.name == option)
    reset = rules.replace(**{option: default})
    assert describe(reset) == describe(rules)
    assert played(reset) == played(rules)
