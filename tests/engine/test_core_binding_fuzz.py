"""Fuzz the C core's CPython binding: no input may crash it or change a state it rejected.

Why: `arena.engine._hearts` is the one place where Python values meet fixed-size C
structs, and its callers include bots' moves and search code that push and pop blindly.
Whatever arrives (hostile configs, card indices that are negative, huge or not ints at
all, bad seats, malformed passes, calls in the wrong phase), the module must answer with
an error code from the contract or raise TypeError/ValueError/IndexError with a message,
and a rejected call must leave every observable part of the state as it was.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engine.config import (
    FULL_DECK,
    PASS_CENTER,
    PASS_SCATTER,
    PASS_STAR,
    CoreConfig,
    standard_config,
)
from tests.engine.backends import pass_size, passable

hearts = pytest.importorskip("arena.engine._hearts")

FUZZ = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CLUBS = 0x1FFF
SPADE_HONOURS = 0x7 << 36  # QS KS AS, kept from the pass in some games (004 'Passing cards')
PLAY_CODES = {*range(10), 17, 18}
PASS_CODES = {0, *range(10, 17)}
ALLOWED = (TypeError, ValueError, IndexError)

HOSTILE = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 2**52, 2**63, 2**64, -(2**63) - 1, True, 1.0, 3j, (), [], {}]),
    st.lists(st.integers(-5, 60), max_size=4),
    st.tuples(st.integers(), st.integers()),
)
CARDS = st.one_of(
    st.integers(min_value=-3, max_value=55),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, False, True]),
)


def expect_error(error: BaseException) -> None:
    """A rejection must be one of the allowed exception types and say why."""
    assert isinstance(error, ALLOWED), repr(error)
    assert str(error), f"{type(error).__name__} without a message"


@st.composite
def configs(draw: st.DrawFn) -> CoreConfig:
    """A valid CoreConfig from the whole option space."""
    players = draw(st.integers(2, 7))
    removed = draw(st.sets(st.integers(0, 51), max_size=12))
    deck = FULL_DECK & ~sum(1 << c for c in removed)
    size = deck.bit_count()
    hand_size = draw(st.integers(1, min(27, size // players)))
    kitty_size = size - players * hand_size
    values = [0] * 52
    for index in range(52):
        if deck >> index & 1:
            values[index] = draw(st.sampled_from([0, 0, 0, 1, 1, 13, -10, 5]))
    opening = draw(st.integers(0, 3))
    if opening != 3 and (deck & CLUBS).bit_count() <= kitty_size:
        opening = 2
    if opening == 3 and (deck & CLUBS << 26).bit_count() <= kitty_size:
        opening = 2  # 003 'HEARTLESS': the lowest spade opens, so a hand needs a spade
    return CoreConfig(
        players=players,
        hand_size=hand_size,
        deck=deck,
        kitty_size=kitty_size,
        pass_count=draw(st.integers(0, min(hand_size, 4))),
        opening=opening,
        first_trick=draw(st.integers(0, 2)),
        lead_rule=draw(st.integers(0, 2)),
        broken_by=draw(st.integers(0, 3)),
        queen_hearts_lead=draw(st.integers(0, 1)),
        values=tuple(values),
        doubler=draw(st.integers(-1, 51)),
        moon=draw(st.integers(0, 4)),
        moon_points=draw(st.integers(-30, 60)),
        moon_extra=draw(st.integers(0, FULL_DECK)),
        sun_points=draw(st.sampled_from([0, 0, 52, -1])),
        no_trick_bonus=draw(st.sampled_from([0, -5, 10])),
        kitty_taker=draw(st.integers(0, 3)),
        pass_forbidden=draw(st.sampled_from([0, 0, 0, SPADE_HONOURS, 1 << 36, FULL_DECK])),
        royal_queens=draw(st.integers(0, 1)),  # 004 'Royal Hearts' scoring
    )


def pass_kinds(cfg: CoreConfig) -> list[int]:
    """The pass kinds `cfg` can play: every hand must keep enough cards it may pass."""
    kinds = [*range(cfg.players), PASS_CENTER]
    if cfg.hand_size >= cfg.players - 1:
        kinds.append(PASS_SCATTER)
    if cfg.players % 2 and cfg.hand_size >= 2:
        kinds.append(PASS_STAR)
    banned = min((cfg.pass_forbidden & cfg.deck).bit_count(), cfg.hand_size)
    return [k for k in kinds if banned <= cfg.hand_size - pass_size(cfg, k)]


def snapshot(state: Any, n: int) -> tuple[Any, ...]:
    """Everything a HandState shows."""
    per_seat = tuple(
        (state.hand(s), state.taken(s), state.tricks_won(s), state.passed(s), state.received(s))
        for s in range(n)
    )
    return (
        state.phase,
        state.to_play,
        state.trick_number,
        state.broken,
        state.leader,
        state.kitty,
        state.kitty_owner,
        state.current_trick(),
        state.history(),
        state.legal_mask(),
        per_seat,
    )


def bits(mask: int) -> list[int]:
    return [c for c in range(55) if mask >> c & 1]


# Configurations ------------------------------------------------------------


@st.composite
def hostile_configs(draw: st.DrawFn) -> tuple[CoreConfig, Any]:
    """(a valid config, a damaged copy of it)."""
    cfg = draw(configs())
    fields = list(cfg)
    how = draw(st.integers(0, 5))
    if how == 0:  # a few fields replaced by anything
        for index in draw(st.sets(st.integers(0, 19), min_size=1, max_size=3)):
            fields[index] = draw(HOSTILE)
        return cfg, tuple(fields)
    if how == 1:  # wrong length
        return cfg, tuple(fields[: draw(st.integers(0, 19))]) + tuple(
            draw(st.lists(st.integers(), max_size=2))
        )
    if how == 2:  # a damaged values tuple
        values = list(cfg.values)
        choice = draw(st.integers(0, 2))
        if choice == 0:
            values = values[: draw(st.integers(0, 51))]
        elif choice == 1:
            values[draw(st.integers(0, 51))] = draw(HOSTILE)
        else:
            values.append(0)
        fields[10] = tuple(values)
        return cfg, tuple(fields)
    if how == 3:  # out-of-range ints in range-checked fields
        index = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 17, 18, 19]))
        fields[index] = draw(st.sampled_from([-1, -(2**64), 2**52, 2**64, 99, 2**31]))
        return cfg, tuple(fields)
    if how == 4:  # not a sequence of fields at all
        return cfg, draw(st.one_of(st.none(), st.text(max_size=5), st.integers(), st.floats()))
    return cfg, list(fields)  # a list is accepted like the NamedTuple


@FUZZ
@given(hostile_configs(), st.integers(0, 2**64 - 1))
def test_hostile_configs_are_rejected_with_a_message(pair, seed):
    cfg, damaged = pair
    hands, kitty = hearts.deal(cfg, seed, 0)
    calls: list[tuple[Any, tuple[Any, ...]]] = [
        (hearts.deal, (damaged, seed, 0)),
        (hearts.HandState, (damaged, hands, kitty, 0, 0, seed)),
        (hearts.play_random_hands, (damaged, seed, 3, (0, 1))),
    ]
    for function, args in calls:
        try:
            function(*args)
        except BaseException as error:
            expect_error(error)


def test_config_errors_name_the_field():
    cfg = standard_config(4)
    cases = {
        "players": cfg._replace(players=9),
        "cfg.deck": cfg._replace(deck=-1),
        "cfg.values": cfg._replace(values=cfg.values[:51]),
        "cfg.values[3]": cfg._replace(values=(*cfg.values[:3], "x", *cfg.values[4:])),  # type: ignore[arg-type]
        "cfg.moon_extra": cfg._replace(moon_extra=2**64),
        "cfg.doubler": cfg._replace(doubler=2**70),
        "kitty_taker": cfg._replace(kitty_taker=4),
        "cfg.pass_forbidden": cfg._replace(pass_forbidden=1 << 55),
        "royal_queens must be 0 or 1": cfg._replace(royal_queens=2),
        "cfg.royal_queens": cfg._replace(royal_queens=2**70),
        "cfg.opening": cfg._replace(opening=1.5),  # type: ignore[arg-type]
        # a 0/1 switch of CONFIG_FLAGS, judged by the generated table, named all the same
        "cfg.queen_at_first_chance must be 0 or 1": cfg._replace(queen_at_first_chance=2),
    }
    for name, bad in cases.items():
        with pytest.raises((TypeError, ValueError), match=name.replace("[", r"\[")):
            hearts.HandState(bad, *hearts.deal(cfg, 1, 0), 0, 0, 1)
    with pytest.raises(ValueError, match=f"{len(CoreConfig._fields)} fields"):
        hearts.deal(tuple(cfg)[:19], 1, 0)
    with pytest.raises(TypeError, match="cfg"):
        hearts.deal("standard", 1, 0)


# Construction --------------------------------------------------------------


@FUZZ
@given(configs(), st.data())
def test_hostile_hand_state_arguments(cfg, data):
    seed = data.draw(st.integers(0, 2**64 - 1))
    hands, kitty = hearts.deal(cfg, seed, 0)
    args = [cfg, hands, kitty, 0, 0, seed]
    index = data.draw(st.integers(1, 5))
    choice = data.draw(st.integers(0, 3))
    if index == 1 and choice == 0:
        hand_list = list(hands)
        hand_list[data.draw(st.integers(0, cfg.players - 1))] = data.draw(HOSTILE)
        args[1] = tuple(hand_list)
    elif index == 1 and choice == 1:
        args[1] = hands[:-1] if data.draw(st.booleans()) else (*hands, 0)
    elif index == 1 and choice == 2:  # swap one card between a hand and another hand
        hand_list = list(hands)
        card = bits(hand_list[0])[0]
        hand_list[0] &= ~(1 << card)
        hand_list[1] |= 1 << card
        args[1] = tuple(hand_list)
    elif index == 2 and choice < 2:
        args[2] = kitty ^ (1 << data.draw(st.integers(0, 63)))
    else:
        args[index] = data.draw(HOSTILE)
    try:
        state = hearts.HandState(*args)
    except BaseException as error:
        expect_error(error)
    else:  # the change happened to keep the position valid
        assert state.phase in (0, 1)


def test_construction_validates_the_contract_list():
    cfg = standard_config(4)
    hands, kitty = hearts.deal(cfg, 7, 0)
    for bad in [
        (cfg, hands[:3], kitty, 0, 0, 7),
        (cfg, hands, kitty, 4, 0, 7),
        (cfg, hands, kitty, -1, 0, 7),
        (cfg, hands, kitty, 0, 4, 7),
        (cfg, hands, kitty, 0, 102, 7),
        (cfg, hands, 1, 0, 0, 7),
        (cfg, hands, kitty, 0, 0, -1),
        (cfg, hands, kitty, 0, 0, 2**64),
        (cfg, (hands[0] | 1 << 60, *hands[1:]), kitty, 0, 0, 7),
    ]:
        with pytest.raises(ValueError, match=r"\w"):
            hearts.HandState(*bad)
    with pytest.raises(TypeError):
        hearts.HandState(cfg, hands, kitty, 0, 0)
    with pytest.raises(TypeError):
        hearts.HandState(cfg, hands, kitty, "0", 0, 7)
    state = hearts.HandState(cfg=cfg, hands=list(hands), kitty=kitty, dealer=0, pass_kind=1, seed=7)
    assert state.phase == 0


# Call sequences --------------------------------------------------------------


class Checker:
    """Drives one HandState with random calls and checks every answer."""

    def __init__(self, state: Any, cfg: CoreConfig, kind: int, rng: random.Random) -> None:
        self.state = state
        self.cfg = cfg
        self.n = cfg.players
        self.kind = kind
        self.rng = rng

    def unchanged(self, before: tuple[Any, ...], what: str) -> None:
        assert snapshot(self.state, self.n) == before, f"{what} changed a state it rejected"

    def check_play(self, card: Any) -> None:
        before = snapshot(self.state, self.n)
        try:
            code = self.state.check_play(card)
        except BaseException as error:
            assert not isinstance(card, int), f"check_play({card!r}) raised {error!r}"
            expect_error(error)
        else:
            assert code in PLAY_CODES
            if isinstance(card, int) and 0 <= card < 55:
                assert (code == 0) == bool(self.state.legal_mask() >> card & 1)
        self.unchanged(before, f"check_play({card!r})")

    def play(self, card: Any) -> None:
        before = snapshot(self.state, self.n)
        try:
            expected = self.state.check_play(card)
            code = self.state.play(card)
        except BaseException as error:
            assert not isinstance(card, int), f"play({card!r}) raised {error!r}"
            expect_error(error)
            self.unchanged(before, f"play({card!r})")
            return
        assert code == expected
        if code:
            self.unchanged(before, f"play({card!r})")
        else:
            assert snapshot(self.state, self.n) != before

    def push(self, card: Any) -> None:
        before = snapshot(self.state, self.n)
        try:
            assert self.state.push(card) is None
        except BaseException as error:
            expect_error(error)
            self.unchanged(before, f"push({card!r})")
        else:
            # only cards of the hand of the seat to play are ever pushed
            assert isinstance(card, int) and before[0] == 1
            assert before[10][before[1]][0] >> card & 1

    def pop(self) -> None:
        before = snapshot(self.state, self.n)
        try:
            self.state.pop()
        except BaseException as error:
            assert isinstance(error, IndexError)
            expect_error(error)
            self.unchanged(before, "pop()")

    def apply_pass(self, seat: Any, cards: Any) -> None:
        before = snapshot(self.state, self.n)
        try:
            code = self.state.apply_pass(seat, cards)
        except BaseException as error:
            expect_error(error)
            self.unchanged(before, f"apply_pass({seat!r}, {cards!r})")
            return
        assert code in PASS_CODES
        if code:
            self.unchanged(before, f"apply_pass({seat!r}, {cards!r})")

    def seat_views(self, seat: Any) -> None:
        before = snapshot(self.state, self.n)
        for name in ("hand", "taken", "tricks_won", "passed", "received"):
            try:
                answer = getattr(self.state, name)(seat)
            except BaseException as error:
                expect_error(error)
                if isinstance(seat, int):
                    assert isinstance(error, IndexError)
                    assert not 0 <= seat < self.n
            else:
                assert isinstance(seat, int) and 0 <= seat < self.n
                assert isinstance(answer, (int, tuple))
        self.unchanged(before, f"views of seat {seat!r}")

    def points(self, totals: Any, target: Any) -> None:
        before = snapshot(self.state, self.n)
        try:
            answer = self.state.points(totals, target)
        except BaseException as error:
            expect_error(error)
            if self.state.phase != 2:
                assert isinstance(error, ValueError)
        else:
            assert self.state.phase == 2
            assert isinstance(answer, tuple) and len(answer) == self.n
            assert all(type(x) is int for x in answer)
        self.unchanged(before, "points()")

    def play_legal(self, pick: int) -> None:
        legal = bits(self.state.legal_mask())
        if legal:
            assert self.state.play(legal[pick % len(legal)]) == 0

    def pass_valid(self) -> None:
        """One seat that has not passed yet makes a valid pass."""
        if self.state.phase != 0:
            return
        length = pass_size(self.cfg, self.kind)
        seats = list(range(self.n))
        self.rng.shuffle(seats)
        for seat in seats:
            cards = tuple(self.rng.sample(passable(self.cfg, self.state.hand(seat)), length))
            code = self.state.apply_pass(seat, cards)
            assert code in (0, 12)
            if code == 0:
                return
        raise AssertionError("no seat could pass")


def operations(n: int) -> st.SearchStrategy[tuple[Any, ...]]:
    seat = st.one_of(st.integers(-2, n + 1), st.integers(-(2**70), 2**70), HOSTILE)
    pass_cards = st.one_of(
        st.lists(st.integers(-2, 54), max_size=6).map(tuple),
        st.lists(CARDS, max_size=4).map(tuple),
        st.lists(st.integers(0, 51), max_size=60).map(tuple),
        HOSTILE,
    )
    totals = st.one_of(
        st.lists(st.integers(-200, 200), min_size=n, max_size=n).map(tuple),
        st.lists(st.integers(-(2**70), 2**70), max_size=n + 1).map(tuple),
        HOSTILE,
    )
    return st.one_of(
        st.tuples(st.just("check_play"), st.one_of(CARDS, HOSTILE)),
        st.tuples(st.just("play"), st.one_of(CARDS, HOSTILE)),
        st.tuples(st.just("push"), st.one_of(CARDS, HOSTILE)),
        st.tuples(st.just("pop")),
        st.tuples(st.just("apply_pass"), seat, pass_cards),
        st.tuples(st.just("seat_views"), seat),
        st.tuples(st.just("points"), totals, st.one_of(st.integers(-300, 300), HOSTILE)),
        st.tuples(st.just("play_legal"), st.integers(0, 51)),
        st.tuples(st.just("play_legal"), st.integers(0, 51)),
        st.tuples(st.just("play_legal"), st.integers(0, 51)),
        st.tuples(st.just("pass_valid")),
    )


@FUZZ
@given(configs(), st.data())
def test_random_call_sequences_never_corrupt_the_state(cfg, data):
    seed = data.draw(st.integers(0, 2**64 - 1))
    dealer = data.draw(st.integers(0, cfg.players - 1))
    kind = data.draw(st.sampled_from(pass_kinds(cfg)))
    hands, kitty = hearts.deal(cfg, seed, dealer)
    rng = data.draw(st.randoms(use_true_random=False))
    checker = Checker(hearts.HandState(cfg, hands, kitty, dealer, kind, seed), cfg, kind, rng)
    for op in data.draw(st.lists(operations(cfg.players), min_size=5, max_size=60)):
        name, *args = op
        getattr(checker, name)(*args)
    # whatever happened, the hand can still be played out and scored
    while checker.state.phase == 0:
        checker.pass_valid()
    while checker.state.phase == 1:
        checker.play_legal(0)
    assert len(checker.state.points((0,) * cfg.players, 0)) == cfg.players


@FUZZ
@given(configs(), st.integers(0, 2**64 - 1), st.data())
def test_push_pop_round_trip(cfg, seed, data):
    hands, kitty = hearts.deal(cfg, seed, 0)
    state = hearts.HandState(cfg, hands, kitty, 0, 0, seed)
    snapshots = []
    while state.phase == 1:
        snapshots.append(snapshot(state, cfg.players))
        hand = state.hand(state.to_play)
        # push skips the rules: any card of the hand of the seat to play
        state.push(data.draw(st.sampled_from(bits(hand))))
    while snapshots:
        state.pop()
        assert snapshot(state, cfg.players) == snapshots.pop()
    with pytest.raises(IndexError):
        state.pop()


# Module functions ----------------------------------------------------------------


def _not_a_long_batch(value: object) -> bool:
    return not (isinstance(value, int) and 5 < value < 2**64)


@FUZZ
@given(configs(), st.data())
def test_hostile_batch_and_deal_arguments(cfg, data):
    seed = data.draw(st.one_of(st.integers(0, 2**64 - 1), HOSTILE))
    # A huge but valid count is no attack, only a very long batch: keep counts small.
    count = data.draw(st.one_of(st.integers(0, 5), HOSTILE.filter(_not_a_long_batch)))
    schedule = data.draw(
        st.one_of(
            st.lists(st.sampled_from(pass_kinds(cfg)), min_size=1, max_size=4).map(tuple),
            st.lists(st.one_of(st.integers(-3, 110), HOSTILE), max_size=3).map(tuple),
            HOSTILE,
        )
    )
    try:
        digest, sums = hearts.play_random_hands(cfg, seed, count, schedule)
    except BaseException as error:
        expect_error(error)
    else:
        assert 0 <= digest < 2**64
        assert isinstance(sums, tuple) and len(sums) == cfg.players
    dealer = data.draw(st.one_of(st.integers(-2, 8), HOSTILE))
    try:
        hands, kitty = hearts.deal(cfg, seed, dealer)
    except BaseException as error:
        expect_error(error)
    else:
        assert len(hands) == cfg.players
        assert sum(h.bit_count() for h in hands) + kitty.bit_count() == cfg.deck.bit_count()


def test_batch_is_reproducible_and_thread_safe():
    cfg = standard_config(4)
    expected = hearts.play_random_hands(cfg, 99, 3000, (1, 3, 2, 0))
    assert hearts.play_random_hands(cfg, 99, 3000, (1, 3, 2, 0)) == expected
    results: list[Any] = []
    threads = [
        threading.Thread(
            target=lambda: results.append(hearts.play_random_hands(cfg, 99, 3000, (1, 3, 2, 0)))
        )
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4
    digest, sums = hearts.play_random_hands(cfg, 99, 0, (0,))
    assert digest == 0xCBF29CE484222325 and sums == (0, 0, 0, 0)
    with pytest.raises(ValueError, match="count"):
        hearts.play_random_hands(cfg, 99, -1, (0,))
    with pytest.raises(ValueError, match="schedule"):
        hearts.play_random_hands(cfg, 99, 1, ())
    with pytest.raises(ValueError, match=r"schedule\[0\]"):
        hearts.play_random_hands(cfg, 99, 1, (4,))
