"""The C core against the pure-Python reference, decision by decision, on random hands.

Why: the scenario tests pin the rules we thought of; this runs both backends side by side
on random configurations (tests.engine.backends.random_config) and random play, asking
both the same question at every decision, so any drift shows up with the config, the
seed and the step that exposes it. The quick run is part of every test run; the full run
is for CI: it runs when selected with `-m slow` or when ARENA_DIFF_HANDS (its number of
hands, 100,000 by default) is set.
"""

from __future__ import annotations

import math
import os
import random
from typing import Any

import pytest

from arena.engine import CardSet, Hand, PassDirection, Rules, Suit, preset, reference
from arena.engine.config import (
    OPENING_LOWEST_SPADE,
    PASS_HOLD,
    PHASE_PASSING,
    PHASE_PLAYING,
    CoreConfig,
    standard_config,
)
from arena.engine.rules import FirstTrick, KittyTaker, MoonRule, standard_values
from tests.engine.backends import (
    C_BACKEND,
    pass_size,
    passable,
    random_config,
    random_pass_kind,
    random_schedule,
    random_split,
)

pytestmark = [
    pytest.mark.skipif(
        C_BACKEND is None,
        reason="the C backend arena.engine._hearts is not built "
        "(.venv/bin/python setup.py build_ext --inplace)",
    ),
    pytest.mark.long,  # started first (tests/conftest.py)
]

QUICK_HANDS = 2_000
FULL_HANDS = int(os.environ.get("ARENA_DIFF_HANDS", "100000"))
HANDS_PER_CHUNK = 5_000
CHUNKS = max(1, math.ceil(FULL_HANDS / HANDS_PER_CHUNK))


def outcome(state: Any, name: str, args: tuple[Any, ...] | None) -> Any:
    """What `state.name` (a property, when `args` is None) or `state.name(*args)` answers,
    with an exception reduced to its type's name: raising is an answer to compare too."""
    try:
        value = getattr(state, name)
        return value if args is None else value(*args)
    except Exception as error:
        return f"raised {type(error).__name__}"


class Pair:
    """The same hand in both backends; every question goes to both and must agree."""

    def __init__(
        self,
        cfg: CoreConfig,
        seed: int,
        dealer: int,
        kind: int | tuple[int, ...],
        label: str,
        position: tuple[tuple[int, ...], int] | None = None,
    ) -> None:
        """Deal from `seed` in both backends, or start both from `position` (hands, kitty)."""
        assert C_BACKEND is not None
        self.n = cfg.players
        self.context = (
            f"hand {label}: cfg={cfg!r}, seed={seed:#x}, dealer={dealer}, pass_kind={kind}"
            + ("" if position is None else f", position={position!r}")
        )
        self.step = "construction"
        self.decisions: list[Any] = []
        if position is None:
            self.ref_deal = reference.deal(cfg, seed, dealer)
            self.same("deal", self.ref_deal, C_BACKEND.deal(cfg, seed, dealer))
        else:
            self.ref_deal = position
        hands, kitty = self.ref_deal
        self.ref = reference.HandState(cfg, hands, kitty, dealer, kind, seed)
        self.c = C_BACKEND.HandState(cfg, hands, kitty, dealer, kind, seed)

    def same(self, what: str, ref_answer: Any, c_answer: Any) -> None:
        # Compared with ==, so a list where the contract promises a tuple is a disagreement.
        if ref_answer != c_answer:
            raise AssertionError(
                f"C and reference disagree on {what} at step {self.step}\n"
                f"  {self.context}\n"
                f"  decisions so far: {self.decisions}\n"
                f"  reference: {ref_answer!r}\n"
                f"  C:         {c_answer!r}"
            )

    def call(self, method: str, *args: Any) -> Any:
        """Call `method(*args)` on both states; return the (agreed) answer."""
        ref_answer = outcome(self.ref, method, args)
        c_answer = outcome(self.c, method, args)
        if ref_answer != c_answer:  # the call's words are written only for the report
            self.same(f"{method}({', '.join(map(repr, args))})", ref_answer, c_answer)
        return ref_answer

    def quick_views(self) -> None:
        for name in (
            "phase",
            "to_play",
            "trick_number",
            "broken",
            "leader",
            "kitty_owner",
            "booster",
        ):
            self.same(name, outcome(self.ref, name, None), outcome(self.c, name, None))
        self.call("current_trick")

    def all_views(self) -> None:
        self.quick_views()
        self.same("kitty", outcome(self.ref, "kitty", None), outcome(self.c, "kitty", None))
        self.call("legal_mask")
        self.call("history")
        for seat in range(self.n):
            for name in ("hand", "taken", "tricks_won", "passed", "received"):
                self.call(name, seat)


def probes(rng: random.Random, hand: int) -> list[int]:
    """A few card indices to ask check_play about: in the hand, anywhere, out of range."""
    held = [c for c in range(55) if hand >> c & 1]
    picks = [rng.randrange(52) for _ in range(3)]
    picks += rng.sample(held, min(2, len(held)))
    picks.append(rng.choice([-1, 52, 63, 64, -(2**40), 2**70, rng.randint(-100, 200)]))
    return picks


def bad_pass(rng: random.Random, size: int, hand: int, forbidden: int) -> tuple[int, ...]:
    """A random, usually wrong, pass made of a hand's cards."""
    cards = rng.sample([c for c in range(55) if hand >> c & 1], size)
    banned = [c for c in range(55) if hand & forbidden >> c & 1]
    kind = rng.randrange(6)
    if kind == 0:  # one card too many or too few
        if cards and rng.random() < 0.5:
            cards.pop()
        else:
            cards.append(rng.randrange(52))
    elif kind == 1 and len(cards) > 1:  # a card twice
        cards[-1] = cards[0]
    elif kind == 2 and cards:  # any card, most likely not in the hand
        cards[rng.randrange(len(cards))] = rng.randrange(52)
    elif kind == 3 and cards:  # not a card at all
        cards[rng.randrange(len(cards))] = rng.choice([-1, 52, 99, -(2**33)])
    elif kind == 4 and cards and banned:  # a card the rules keep from the pass
        cards[rng.randrange(len(cards))] = rng.choice(banned)
    return tuple(cards)


def compare_hand(
    cfg: CoreConfig, rng: random.Random, label: str, kinds: tuple[int, ...] | None = None
) -> None:
    """Play one random hand in both backends, comparing every answer on the way; its pass
    kind is one of `kinds`, or any kind valid for `random_config` configurations."""
    n = cfg.players
    seed, dealer = rng.getrandbits(64), rng.randrange(n)
    kind: int | tuple[int, ...] = random_pass_kind(rng, n) if kinds is None else rng.choice(kinds)
    # One hand in eight of the random ones passes split (003 'Simple variations'), drawn
    # from its own generator so the other hands stay the ones they were.
    split_rng = random.Random(f"split {label}")
    if kinds is None and cfg.pass_count and split_rng.random() < 1 / 8:
        kind = random_split(split_rng, cfg)
    pair = Pair(cfg, seed, dealer, kind, label)
    pair.all_views()
    if pair.ref.phase == PHASE_PASSING:
        pair.call("playout", 1, 1)  # while passing: both must raise
        compare_passes(pair, cfg, kind, rng)
    compare_play(pair, cfg, rng, label)


def compare_play(pair: Pair, cfg: CoreConfig, rng: random.Random, label: str) -> None:
    """Play the pair's hand out at random from where it stands, comparing every answer."""
    n = cfg.players
    pair.call("points", (0,) * n, 0)  # before the end: both must raise
    pair.call("pop")  # nothing to undo: both must raise
    step = 0
    # Playouts draw from their own generator, so the hands above stay the ones they were.
    playout_rng = random.Random(f"playout {label}")
    playout_step = playout_rng.randrange(cfg.hand_size * n)
    while pair.ref.phase == PHASE_PLAYING:
        pair.step = f"play {step}"
        if step == playout_step:
            compare_playouts(pair, playout_rng)
        legal = pair.call("legal_mask")
        for probe in probes(rng, pair.ref.hand(pair.ref.to_play)):
            pair.call("check_play", probe)
        illegal = [c for c in range(55) if not legal >> c & 1]
        if illegal and rng.random() < 0.1:
            assert pair.call("play", rng.choice(illegal)) != 0
            pair.quick_views()
        choice = rng.choice([c for c in range(55) if legal >> c & 1])
        if rng.random() < 0.1:
            pair.call("push", choice)
            pair.all_views()
            pair.call("pop")
            pair.all_views()
        pair.decisions.append(choice)
        assert pair.call("play", choice) == 0
        pair.quick_views()
        step += 1
    pair.step = "end"
    pair.all_views()
    pair.call("playout", playout_rng.getrandbits(64), playout_rng.randrange(3))  # over: points
    for probe in (0, 51, -1, 52):
        pair.call("check_play", probe)
    targets = [0, 50, 100, rng.randint(1, 200)]
    for _ in range(4):
        target = rng.choice(targets)
        totals = tuple(rng.randint(max(0, target - 40) - 60, target + 20) for _ in range(n))
        pair.call("points", totals, target)
        # 004 'Shooting the moon': the shooter's own choice, where the rule offers one.
        choice_rng = random.Random(f"choice {label} {totals}")
        pair.call("points", totals, target, choice_rng.choice([-1, 0, 1]))
    pair.call("shooter")
    pair.call("points", (0,) * n, 0, 2)  # not a choice: both must raise
    if rng.random() < 0.2:  # undo the last trick, then play it again
        plays = [d for d in pair.decisions if isinstance(d, int)]
        for _ in range(n):
            pair.call("pop")
        pair.all_views()
        for choice in plays[-n:]:
            pair.call("push", choice)
        pair.all_views()
        pair.call("points", (0,) * n, 0)


def snapshot(state: Any, n: int) -> tuple[Any, ...]:
    """Everything a state shows, to check that a call left it as it was."""
    seats = tuple(
        (state.hand(s), state.taken(s), state.tricks_won(s), state.passed(s), state.received(s))
        for s in range(n)
    )
    return (
        state.phase,
        state.to_play,
        state.trick_number,
        state.broken,
        state.booster,
        state.leader,
        state.kitty_owner,
        state.current_trick(),
        state.history(),
        state.legal_mask(),
        seats,
    )


def compare_playouts(pair: Pair, rng: random.Random) -> None:
    """Every playout policy from this position gives the same scores in both backends and
    leaves the state as it was (contract "Playouts"); bad arguments raise in both."""
    before = [snapshot(pair.ref, pair.n), snapshot(pair.c, pair.n)]
    shooter = SHOOT + rng.randrange(pair.n)  # one seat plays the shooter's plan
    for policy in (*PLAYOUT_POLICIES, shooter):
        pair.call("playout", rng.getrandbits(64), policy)
        pair.same(
            "the state after playout", before, [snapshot(s, pair.n) for s in (pair.ref, pair.c)]
        )
    pair.call("playout", 0, rng.choice([-1, 3, SHOOT - 1, SHOOT + pair.n, 2**70]))
    pair.call("playout", rng.choice([-1, 2**64]), 1)


def compare_passes(
    pair: Pair, cfg: CoreConfig, kind: int | tuple[int, ...], rng: random.Random
) -> None:
    """Random wrong passes, then every seat's pass in a random order."""
    n = cfg.players
    hands = pair.ref_deal[0]
    size = pass_size(cfg, kind)
    seats = list(range(n))
    rng.shuffle(seats)
    done: set[int] = set()
    for seat in seats:
        pair.step = f"pass of seat {seat}"
        for _ in range(rng.randint(0, 2)):
            cards = bad_pass(rng, size, hands[seat], cfg.pass_forbidden)
            giver = rng.choice([-1, n, rng.randrange(n)]) if rng.random() < 0.2 else seat
            if pair.call("apply_pass", giver, cards) == 0:
                done.add(giver)
                pair.decisions.append(("pass", giver, cards))
        pair.call("check_play", rng.randrange(-2, 54))
        if seat not in done:
            given = tuple(rng.sample(passable(cfg, hands[seat]), size))
            pair.decisions.append(("pass", seat, given))
            assert pair.call("apply_pass", seat, given) == 0
            done.add(seat)
        pair.all_views()
    pair.call("apply_pass", 0, ())  # after the exchange


PLAYOUT_POLICIES = (0, 1, 2)  # random, greedy, mixed
SHOOT = 16  # 16 + s: seat s plays the shooter's plan, every other decision mixed


def compare_batch(rng: random.Random, label: str) -> None:
    """play_random_hands must give the same digest and sums."""
    cfg = random_config(rng)
    schedule = random_schedule(rng, cfg.players)
    seed, count = rng.getrandbits(64), rng.randint(0, 25)
    compare_batch_of(cfg, schedule, seed, count, label)


def compare_batch_of(
    cfg: CoreConfig, schedule: tuple[int, ...], seed: int, count: int, label: str
) -> None:
    """play_random_hands of `cfg` and `schedule` must give the same digest and sums."""
    assert C_BACKEND is not None
    ref_answer = reference.play_random_hands(cfg, seed, count, schedule)
    c_answer = C_BACKEND.play_random_hands(cfg, seed, count, schedule)
    if ref_answer != c_answer:
        raise AssertionError(
            f"C and reference disagree on play_random_hands (batch {label})\n"
            f"  cfg={cfg!r}, seed={seed:#x}, count={count}, schedule={schedule}\n"
            f"  reference: {ref_answer!r}\n"
            f"  C:         {c_answer!r}"
        )


def run(first: int, count: int) -> None:
    """Compare hands `first..first+count-1` (each reproducible from its own label)."""
    cfg = random_config(random.Random("config-0"))
    for index in range(first, first + count):
        rng = random.Random(f"hand-{index}")
        if index % 4 == 0:
            cfg = random_config(rng)
        compare_hand(cfg, rng, f"#{index} (random.Random('hand-{index}'))")
        if index % 10 == 0:
            compare_batch(rng, f"#{index}")


def compare_rule_set(
    name: str, cfg: Any, kinds: tuple[int, ...], hands: int, *, batches: int, most: int
) -> None:
    """C against the reference on one rule set: `hands` hands dealt and played one at a
    time, then `batches` batch calls of 1..`most` hands, every seed drawn from `name` (so
    a failure names the `random.Random` seed that replays it)."""
    for index in range(hands):
        rng = random.Random(f"{name} hand {index}")
        compare_hand(cfg, rng, f"{name!r} #{index} (random.Random('{name} hand {index}'))", kinds)
    rng = random.Random(f"{name} batch")
    for index in range(batches):
        compare_batch_of(cfg, kinds, rng.getrandbits(64), rng.randint(1, most), f"{name} {index}")


def test_c_matches_reference_on_standard_batches():
    assert C_BACKEND is not None
    for players in range(3, 8):
        cfg = standard_config(players)
        for schedule in [(0,), (1, players - 1, 0), (100, 101)]:
            args = (cfg, 12345 + players, 50, schedule)
            assert reference.play_random_hands(*args) == C_BACKEND.play_random_hands(*args)


def test_c_matches_reference_on_random_hands():
    run(0, QUICK_HANDS)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_c_matches_reference_on_many_random_hands(request, chunk):
    markexpr = request.config.getoption("markexpr") or ""
    if "slow" not in markexpr and "ARENA_DIFF_HANDS" not in os.environ:
        pytest.skip("the full differential run: select it with -m slow (size: ARENA_DIFF_HANDS)")
    first = QUICK_HANDS + chunk * HANDS_PER_CHUNK
    run(first, min(HANDS_PER_CHUNK, FULL_HANDS - chunk * HANDS_PER_CHUNK))


# Rule sets built with `Rules`, as a season would: star passing at three, five and seven
# players and the spade honours kept from the pass (004 'Passing cards'), mixed with the
# other pass kinds each table allows.
STAR, LEFT, RIGHT, HOLD = (
    PassDirection.STAR,
    PassDirection.LEFT,
    PassDirection.RIGHT,
    PassDirection.HOLD,
)
HONOURS = "QS KS AS"
RULES_HANDS = 400


def pass_rules() -> dict[str, Rules]:
    scatter, center = PassDirection.SCATTER, PassDirection.CENTER
    return {
        "3 star": preset("standard", players=3).replace(pass_schedule=(STAR, LEFT, RIGHT, HOLD)),
        "5 star": preset("standard", players=5).replace(pass_schedule=(LEFT, STAR, RIGHT, HOLD)),
        "3 star honours": preset("standard", players=3).replace(
            pass_schedule=(STAR, scatter, center, LEFT), pass_forbidden=HONOURS
        ),
        "5 star honours": preset("standard", players=5).replace(
            pass_schedule=(STAR, PassDirection.LEFT2, scatter, center), pass_forbidden=HONOURS
        ),
        "7 star honours": preset("standard", players=7).replace(
            pass_schedule=(STAR, LEFT, center), pass_forbidden=HONOURS
        ),
        "4 honours": preset("standard").replace(
            pass_schedule=(LEFT, RIGHT, PassDirection.ACROSS, scatter, center),
            pass_forbidden=HONOURS,
        ),
    }


# 003 'HEARTLESS': the rules of a hand once its suit is revealed. Clubs and diamonds open
# with the lowest spade (opening 3), hearts and spades with the lowest club.
HEARTLESS_HANDS = 120


def heartless_rules() -> dict[str, Rules]:
    return {
        f"heartless {players} {suit.name.lower()}": preset("heartless", players).for_scoring_suit(
            suit
        )
        for players in (3, 4, 5)
        for suit in Suit
    }


@pytest.mark.parametrize("name", list(heartless_rules()))
def test_c_matches_reference_on_revealed_heartless_rules(name):
    rules = heartless_rules()[name]
    cfg = rules.core_config()
    assert (cfg.opening == OPENING_LOWEST_SPADE) == (name.endswith(("clubs", "diamonds")))
    kinds = (PASS_HOLD, *(d.core_kind(rules.players) for d in rules.pass_schedule))
    compare_rule_set(name, cfg, kinds, HEARTLESS_HANDS, batches=4, most=30)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_c_matches_reference_on_post_reveal_heartless_hands(players):
    """The position a Heartless `Hand` plays from: dealt, passed and revealed under the
    preset, then a hold hand of the revealed suit's rules from the hands after the pass."""
    rules = preset("heartless", players)
    openings = set()
    for index in range(150):
        rng = random.Random(f"heartless {players} position {index}")
        seed, dealer = rng.getrandbits(64), rng.randrange(players)
        hand = Hand.deal(rules, seed, dealer=dealer, pass_direction=rng.choice(rules.pass_schedule))
        size = rules.pass_size(hand.pass_direction)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
        for seat in hand.reveals_pending:
            hand.apply_reveal(seat, rng.choice(list(hand.hand_of(seat))))
        cfg = hand.rules.core_config()
        openings.add(cfg.opening)
        position = (tuple(hand.hand_of(s).mask for s in range(players)), hand.kitty.mask)
        label = f"heartless {players} position {index}"
        pair = Pair(cfg, seed, dealer, PASS_HOLD, label, position)
        pair.all_views()
        compare_play(pair, cfg, rng, label)
    assert OPENING_LOWEST_SPADE in openings and 0 in openings


@pytest.mark.parametrize("name", list(pass_rules()))
def test_c_matches_reference_on_star_and_forbidden_pass_rules(name):
    rules = pass_rules()[name]
    cfg = rules.core_config()
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, RULES_HANDS, batches=8, most=30)


# 004 'Royal Hearts' (`royal_queens`): the QH doubling its taker's hearts, the QC cancelling
# the QS, hands floored at 0 and moons worth the shooter's own score, as the `royal` preset
# and its variants play them.
ROYAL_HANDS = 300


def royal_rules() -> dict[str, Rules]:
    royal = preset("royal")
    return {
        "royal 4": royal,
        "royal 3": preset("royal", 3),
        "royal 5 new moon": preset("royal", 5).replace(moon="new"),
        "royal 4 sun and bonus": royal.replace(sun_points=52, no_trick_bonus=-5),
    }


@pytest.mark.parametrize("name", list(royal_rules()))
def test_c_matches_reference_on_royal_rules(name):
    rules = royal_rules()[name]
    cfg = rules.core_config()
    assert cfg.royal_queens == 1
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, ROYAL_HANDS, batches=8, most=60)


# 000 'Auction Hearts': the rules of a hand once the declarer has named the suit to avoid
# (each card of it 1, nothing else, a free lead, the suit not led until broken).
AUCTION_HANDS = 120


def auction_rules() -> dict[str, Rules]:
    return {
        f"auction {players} {suit.name.lower()}": preset("auction", players).for_scoring_suit(suit)
        for players in (3, 4, 7)
        for suit in Suit
    }


@pytest.mark.parametrize("name", list(auction_rules()))
def test_c_matches_reference_on_named_auction_rules(name):
    rules = auction_rules()[name]
    cfg = rules.core_config()
    kinds = (PASS_HOLD,)
    compare_rule_set(name, cfg, kinds, AUCTION_HANDS, batches=4, most=30)


# Booster Nines (004 'Other Variations', `booster_nines`): the nine of the suit led forcing
# the next lead, as the `booster_nines` preset plays it at every table and with the rules
# it overrides (points broken, Omnibus' JD).
BOOSTER_HANDS = 300


def booster_rules() -> dict[str, Rules]:
    rules = {f"booster {n}": preset("booster_nines", n) for n in range(3, 8)}
    rules["booster omnibus"] = preset("omnibus").replace(booster_nines=True)
    rules["booster black maria"] = preset("black_maria").replace(booster_nines=True)
    return rules


@pytest.mark.parametrize("name", list(booster_rules()))
def test_c_matches_reference_on_booster_rules(name):
    rules = booster_rules()[name]
    cfg = rules.core_config()
    assert cfg.booster_nines == 1
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, BOOSTER_HANDS, batches=8, most=60)


# 001 'VARIATION 1: BLACK MARIAH' (`queen_at_first_chance`): the purists' preset at its
# three tables, and the rule on the standard game under each first-trick rule and with
# Booster Nines (whose forced lead it meets).
QUEEN_HANDS = 300


def queen_rules() -> dict[str, Rules]:
    rules = {f"black_maria_purist {n}": preset("black_maria_purist", n) for n in (3, 4, 5)}
    for first in ("any", "no_penalty_cards", "no_point_cards"):
        rules[f"queen standard {first}"] = preset("standard").replace(
            queen_at_first_chance=True, first_trick=first
        )
    rules["queen booster"] = preset("booster_nines").replace(queen_at_first_chance=True)
    return rules


@pytest.mark.parametrize("name", list(queen_rules()))
def test_c_matches_reference_on_queen_at_first_chance_rules(name):
    rules = queen_rules()[name]
    cfg = rules.core_config()
    assert cfg.queen_at_first_chance == 1
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, QUEEN_HANDS, batches=8, most=60)


# Joker Hearts (004, `joker_kind`): the wild jokers of the `joker` preset at each of its
# tables and the 1911 joker of `joker_1911` at every table, alone and with Booster Nines.
JOKER_HANDS = 200


def joker_rules() -> dict[str, Rules]:
    rules = {f"joker {n}": preset("joker", n) for n in range(3, 7)}
    rules.update({f"joker_1911 {n}": preset("joker_1911", n) for n in range(3, 8)})
    rules["joker booster"] = preset("joker").replace(booster_nines=True)
    rules["joker_1911 booster"] = preset("joker_1911").replace(booster_nines=True)
    return rules


@pytest.mark.parametrize("name", list(joker_rules()))
def test_c_matches_reference_on_joker_rules(name):
    rules = joker_rules()[name]
    cfg = rules.core_config()
    assert cfg.joker_kind != 0 and cfg.deck >> 52
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, JOKER_HANDS, batches=8, most=60)


# Heartsette (004 1911 'Heartsette', `heartsette`): the 2S out, twelve cards each, a widow
# of three to the first trick's winner, any first lead and any discard.
HEARTSETTE_HANDS = 300


def test_c_matches_reference_on_heartsette():
    rules = preset("heartsette")
    cfg = rules.core_config()
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set("heartsette", cfg, kinds, HEARTSETTE_HANDS, batches=8, most=60)


# The deal side of issue #23: 000's QS-discarded breaking (`standard` and every table, with
# wild jokers whose lead leaves the suit open, and with the 1911 joker); 004's kitty to the
# first heart and a kitty card a trick at each of their tables (and their kitty shown face
# up or after the first trick); two-player Hearts with every pass it allows.
DEAL_HANDS = 250


def deal_rules() -> dict[str, Rules]:
    rules = {f"standard discarded {n}": preset("standard", n) for n in range(3, 8)}
    rules["joker discarded"] = preset("joker")
    rules["joker_1911 discarded"] = preset("joker_1911")
    rules["points lead discarded"] = preset("standard").replace(lead_rule="points_broken")
    rules.update({f"first_heart_kitty {n}": preset("first_heart_kitty", n) for n in (3, 5)})
    rules.update({f"kitty_each_trick {n}": preset("kitty_each_trick", n) for n in (3, 5, 6, 7)})
    rules["kitty_each_trick face_up"] = preset("kitty_each_trick", 7).replace(
        kitty_visibility="face_up", first_trick="any"
    )
    rules["first_heart_kitty old breaking"] = preset("first_heart_kitty", 5).replace(
        broken_by="hearts_or_queen"
    )
    rules["two_player"] = preset("two_player")
    rules["two_player scatter center"] = preset("two_player").replace(
        pass_schedule=("scatter", "center", "hold")
    )
    rules["two_player jokers"] = preset("two_player").replace(
        removed_cards="2C 2D",
        jokers=2,
        joker_kind="wild",
        card_values=preset("standard").card_values,
    )
    return rules


# 002's extra cards on the first trick (`extra_cards_first_trick`): the `extra_cards` preset
# at three and five players, and the rule with the first-trick ban, Black Maria's queen at
# the first chance, Booster Nines, wild jokers and a kitty-less 1911 joker deck, whose
# legality the extra card must obey as the round's cards do.
EXTRA_HANDS = 300


def extra_card_rules() -> dict[str, Rules]:
    rules = {f"extra_cards {n}": preset("extra_cards", n) for n in (3, 5)}
    rules["extra_cards no bleeding"] = preset("extra_cards", 5).replace(
        first_trick="no_penalty_cards"
    )
    rules["extra_cards queen first chance"] = preset("extra_cards").replace(
        queen_at_first_chance=True, first_trick="no_penalty_cards", card_values=standard_values()
    )
    rules["extra_cards booster"] = preset("extra_cards", 5).replace(booster_nines=True)
    rules["extra_cards wild jokers"] = preset("extra_cards").replace(
        jokers=1, joker_kind="wild", card_values=preset("joker").card_values
    )
    rules["extra_cards 7 players"] = preset("standard", 7).replace(
        removed_cards=CardSet(), card_values=standard_values(), extra_cards_first_trick=True
    )
    return rules


@pytest.mark.parametrize("name", list(extra_card_rules()))
def test_c_matches_reference_on_extra_cards_on_the_first_trick(name):
    rules = extra_card_rules()[name]
    cfg = rules.core_config()
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, EXTRA_HANDS, batches=8, most=60)


# The scoring side of 004's older forms and its named relatives (`first_trick_points`,
# `last_trick_points`, `every_penalty_extra`, `doubler_alone_points`, `all_hearts_reversed`,
# `all_hearts_reverse_queen`): each preset at each of its tables, and the options mixed
# with a moon, a sun, the no-trick bonus and a kitty, where their order matters.
SCORING_HANDS = 300


def scoring_rules() -> dict[str, Rules]:
    rules = {
        "slobberhannes 4": preset("slobberhannes"),
        "four_jacks 4": preset("four_jacks"),
        **{f"gong_zhu {n}": preset("gong_zhu", n) for n in (4, 5)},
        **{f"rickety_kate {n}": preset("rickety_kate", n) for n in range(3, 8)},
    }
    rules["trick points standard"] = preset("standard").replace(
        first_trick_points=3, last_trick_points=-2, every_penalty_extra=5, no_trick_bonus=-5
    )
    rules["trick points doubler sun"] = preset("omnibus").replace(
        first_trick=FirstTrick.ANY,
        first_trick_points=1,
        last_trick_points=1,
        every_penalty_extra=1,
        doubler="TC",
        sun_points=52,
    )
    rules["gong_zhu new moon"] = preset("gong_zhu").replace(moon=MoonRule.NEW)
    rules["gong_zhu kitty"] = preset("gong_zhu", 5).replace(
        removed_cards="", kitty_size=2, kitty_taker=KittyTaker.FIRST_POINTS, first_trick_points=7
    )
    rules["reversed hearts only"] = preset("standard").replace(
        all_hearts_reversed=True, moon=MoonRule.NONE
    )
    return rules


@pytest.mark.parametrize("name", list(deal_rules()))
def test_c_matches_reference_on_deal_rules(name):
    rules = deal_rules()[name]
    cfg = rules.core_config()
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, DEAL_HANDS, batches=8, most=60)


@pytest.mark.parametrize("name", list(scoring_rules()))
def test_c_matches_reference_on_trick_and_reversal_scoring(name):
    rules = scoring_rules()[name]
    cfg = rules.core_config()
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set(name, cfg, kinds, SCORING_HANDS, batches=8, most=60)


# Gong Zhu's exposed cards (Pagat; Wikipedia 'Gong Zhu'): the core's `exposed` mask (an
# exposed card waits for the second time its suit is led unless it is a singleton) and
# `doubler_exposed` (the TC quadruples), with the values the hand's rules double; each
# table, one card at a time and all four, and the play rule on the standard game.
EXPOSED_HANDS = 300


def exposure_configs() -> dict[str, CoreConfig]:
    configs = {}
    for players in (4, 5):
        rules = preset("gong_zhu", players)
        for shown in ("AH", "QS", "JD", "TC", "AH QS JD TC"):
            cards = CardSet.parse(shown)
            configs[f"gong_zhu {players} {shown}"] = (
                rules.for_exposures(cards)
                .core_config()
                ._replace(exposed=cards.mask, doubler_exposed=int("TC" in shown))
            )
    configs["standard exposed"] = (
        preset("standard").core_config()._replace(exposed=CardSet.parse("QS AH 2C JD").mask)
    )
    return configs


@pytest.mark.parametrize("name", list(exposure_configs()))
def test_c_matches_reference_on_exposed_cards(name):
    cfg = exposure_configs()[name]
    kinds = (0,) if name.startswith("gong_zhu") else (1, 3, 2, 0)
    compare_rule_set(name, cfg, kinds, EXPOSED_HANDS, batches=8, most=60)


# The shooter's choice (004 'Shooting the moon'): `points(totals, target, choice)` and
# `shooter()` under every moon rule that may ask the shooter, on deals where seat 3 takes
# every card (a moon and a sun), for many game totals, targets and choices; then random
# hands of the same rules. The no-hearts pledge (004 'Scoring variants') is the Hand's, on
# an unchanged core: its preset is compared as it is; the dealer's counts (004 'Passing
# cards') reach the core as `pass_count`, one rule set per count.
ONE_SUIT_EACH = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)
CHOICE_HANDS = 150


def choice_rules() -> dict[str, Rules]:
    standard = preset("standard")
    rules = {
        "shooters_choice": standard.replace(moon="shooters_choice"),
        "add_unless_losing": standard.replace(moon="add_unless_losing"),
        "omnibus_jack": preset("omnibus_jack"),
        "sun shooters_choice": preset("sun").replace(moon="shooters_choice"),
    }
    for score in (1, 50, 90):
        rules[f"subtract_after {score}"] = standard.replace(
            moon="subtract_after_score", moon_subtract_after=score
        )
    return rules


@pytest.mark.parametrize("name", list(choice_rules()))
def test_c_matches_reference_on_the_shooters_choice(name):
    rules = choice_rules()[name]
    cfg = rules.core_config()
    hands = tuple(CardSet.parse(cards).mask for cards in ONE_SUIT_EACH)
    pair = Pair(cfg, 0, 2, PASS_HOLD, name, position=(hands, 0))
    rng = random.Random(f"{name} choices")
    while pair.ref.phase == PHASE_PLAYING:
        legal = pair.call("legal_mask")
        choice = rng.choice([c for c in range(52) if legal >> c & 1])
        assert pair.call("play", choice) == 0
    assert pair.call("shooter")[0] == 3
    answers = set()
    for _ in range(200):
        target = rng.choice([0, 100, rng.randint(1, 150)])
        totals = tuple(rng.randint(-30, 130) for _ in range(4))
        for choice in (-1, 0, 1):
            answers.add(pair.call("points", totals, target, choice))
    assert len(answers) >= 2, "the choice changes the scores somewhere"
    compare_rule_set(name, cfg, (PASS_HOLD,), CHOICE_HANDS, batches=4, most=40)


def test_a_royal_moon_is_worth_the_shooters_own_score_with_its_trick_points():
    """004 'Royal Hearts': the moon is "based on the total point count of that player", and
    with 004 'Slobberhannes's trick points that count includes them (contract "Scoring":
    trick points come before the doubler and the moon). Seat 3 holds every club, leads the
    2C and takes every trick; `shooter()` must say what `points()` scores it with, on both
    backends (they once differed: the reference's shooter() left the trick points out)."""
    rules = preset("royal").replace(
        first_trick_points=2, last_trick_points=1, every_penalty_extra=1
    )
    cfg = rules.core_config()
    hands = tuple(CardSet.parse(cards).mask for cards in ONE_SUIT_EACH)
    pair = Pair(cfg, 0, 2, PASS_HOLD, "royal trick points", position=(hands, 0))
    while pair.ref.phase == PHASE_PLAYING:
        legal = pair.call("legal_mask")
        assert pair.call("play", min(c for c in range(52) if legal >> c & 1)) == 0
    seat, worth = pair.call("shooter")
    assert seat == 3
    old_moon = pair.call("points", (0, 0, 0, 0), 0, -1)
    assert old_moon[3] == 0 and old_moon[0] == worth  # the others take the shooter's count
    trick_points = 2 + 1 + 1
    assert worth > trick_points


def test_c_matches_reference_on_the_pledge_preset():
    rules = preset("pledge")
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_schedule)
    compare_rule_set("pledge", rules.core_config(), kinds, 100, batches=4, most=40)


@pytest.mark.parametrize("count", preset("dealer_counts").pass_call_counts)
def test_c_matches_reference_on_the_dealers_counts(count):
    rules = preset("dealer_counts")
    cfg = rules.core_config()._replace(pass_count=count)
    kinds = tuple(direction.core_kind(rules.players) for direction in rules.pass_call_options)
    compare_rule_set(f"dealer_counts {count}", cfg, kinds, 60, batches=4, most=40)
