"""Which path the engine's random batch takes for every preset: a structural test, not a timed one.

Why: the C core's batch plays most rules in a straight-line loop over masks and the rest
through its hand state, about three times slower, with the same digest and sums either way;
only the speed shows which one ran. So a preset can fall to the slow path unseen: the
`standard` preset did when it moved to broken_by 'hearts_or_queen_discarded' (issue 30).
Every preset of the registry is checked here, so a new one is covered by itself: those the
fast loop can express take it, and the others are listed below with the reason, so a preset
moving to a slower path fails this test until someone says why.
"""

from __future__ import annotations

import pytest

from arena.engine import PRESETS, Rules, batch_path, preset
from arena.engine import backend as engine_backend
from arena.engine.options import family_of

from .backends import C_BACKEND

HAND_STATE_PRESETS: dict[str, str] = {
    "joker": "wild jokers have no suit and never win: a trick's suit and winner no longer "
    "follow from its first card",
    "joker_1911": "the 1911 joker ranks among the hearts and may be thrown only after a high "
    "heart (error 18): a filter on every play",
    "extra_cards": "002's extra cards: a first trick of more cards than seats, and hands of "
    "two sizes",
}
"""Presets whose rules the fast loop cannot express: the C batch plays them through the hand
state (hc_batch_path in arena/engine/_core/hearts.c says which rules)."""

OWN_CORE_PRESETS: dict[str, str] = {
    "cancellation": "two packs (arena.engine.variants.cancellation)",
    "cancellation_four": "two packs (arena.engine.variants.cancellation)",
    "domino": "a stock drawn from instead of a deal (arena.engine.variants.domino)",
    "enfle": "a seat that cannot follow takes the trick up (arena.engine.variants.enfle)",
    "four_penny": "several tricks in play at once (arena.engine.variants.penny)",
    "four_penny_advanced": "several tricks in play at once (arena.engine.variants.penny)",
    "three_penny": "several tricks in play at once (arena.engine.variants.penny)",
    "three_penny_advanced": "several tricks in play at once (arena.engine.variants.penny)",
    "five_penny": "several tricks in play at once (arena.engine.variants.penny)",
    "five_penny_advanced": "several tricks in play at once (arena.engine.variants.penny)",
}
"""Presets a variant family plays on its own core: the hearts batch does not play their
hands at all, and `batch_path` names the family."""


def _expected_c_path(name: str) -> str:
    """The C core's path for a preset that the hearts engine plays."""
    return "hand_state" if name in HAND_STATE_PRESETS else "fast"


def test_the_lists_name_only_presets_of_the_registry() -> None:
    """A preset renamed or removed leaves no stale reason behind."""
    assert set(HAND_STATE_PRESETS) <= set(PRESETS)
    assert set(OWN_CORE_PRESETS) <= set(PRESETS)
    assert not set(HAND_STATE_PRESETS) & set(OWN_CORE_PRESETS)


@pytest.mark.skipif(C_BACKEND is None, reason="the C core is not built")
def test_the_standard_preset_takes_the_fast_batch() -> None:
    """Issue 30: the standard game (the QS breaks hearts only when discarded) is the one a
    season plays most; its batch is the straight-line loop."""
    assert C_BACKEND is not None
    assert C_BACKEND.batch_path(preset("standard").core_config()) == "fast"


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_takes_its_batch_path(name: str) -> None:
    """The fast loop for every preset it can express; the hand state or the family's own
    core only for the presets listed above, for the reason given there."""
    rules = preset(name)
    if name in OWN_CORE_PRESETS:
        family = family_of(rules)
        assert family is not None, f"{name} is listed as played on its own core, but is not"
        assert batch_path(rules) == family
        return
    assert family_of(rules) is None, f"{name} is played by a variant family: list it"
    if C_BACKEND is not None:
        assert C_BACKEND.batch_path(rules.core_config()) == _expected_c_path(name), (
            f"preset {name!r} moved to another batch path: express its rules in the fast "
            "loop (hearts.c, fast_batch_plays) or list it in HAND_STATE_PRESETS with the "
            "reason"
        )
    expected = _expected_c_path(name) if engine_backend.BACKEND_NAME == "c" else "reference"
    assert batch_path(rules) == expected


def test_the_reference_has_no_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the pure-Python reference every hearts rule set answers 'reference', and a family
    still answers its own name."""
    monkeypatch.setattr(engine_backend, "BACKEND_NAME", "reference")
    assert batch_path(preset("standard")) == engine_backend.BATCH_PATH_REFERENCE
    assert batch_path(preset("joker")) == engine_backend.BATCH_PATH_REFERENCE
    assert batch_path(preset("domino")) == "domino"


def test_batch_path_takes_rules_only() -> None:
    """A name or a CoreConfig is refused with an error saying what it takes."""
    with pytest.raises(TypeError, match="takes a Rules, not str"):
        batch_path("standard")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Rules, not CoreConfig"):
        batch_path(preset("standard").core_config())  # type: ignore[arg-type]


@pytest.mark.skipif(C_BACKEND is None, reason="the C core is not built")
def test_the_c_binding_judges_the_config_it_is_given() -> None:
    """The binding parses the configuration as every other entry does."""
    assert C_BACKEND is not None
    with pytest.raises(TypeError, match="cfg must be a CoreConfig"):
        C_BACKEND.batch_path(3)
    with pytest.raises(ValueError, match="cfg must have"):
        C_BACKEND.batch_path((4, 13))


def test_a_preset_outside_the_lists_at_another_table_size_keeps_its_path() -> None:
    """The path depends on the rules, not on the table: the standard game at three and
    five seats (cards removed, a kitty-free deal) takes the fast loop too."""
    for players in (3, 5):
        rules: Rules = preset("standard", players)
        expected = "fast" if engine_backend.BACKEND_NAME == "c" else "reference"
        assert batch_path(rules) == expected
