"""The engine backends the tests run against, and random valid configurations for them.

Why: every engine test runs once per backend (the pure-Python reference always, the C core
when it is built), and the invariant and differential tests need configurations drawn from
the whole option space, not only the presets.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from arena.engine import reference
from arena.engine.config import (
    FULL_DECK,
    JOKER_HEART,
    JOKER_WILD,
    MOON_SUBTRACT_AFTER_SCORE,
    PASS_CENTER,
    PASS_HOLD,
    PASS_SCATTER,
    PASS_STAR,
    CoreConfig,
)

CLUBS = 0x1FFF
SPADES = CLUBS << 26
RANKS = "23456789TJQKA"
SUITS = "CDSH"


def card(text: str) -> int:
    """The index of a card written like 'QS' or 'TD', or a joker 'JK1'..'JK3' (52..54)."""
    if text.startswith("JK"):
        return 51 + int(text[2])
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def _load_c_backend() -> ModuleType | None:
    try:
        return importlib.import_module("arena.engine._hearts")
    except ImportError:
        return None


C_BACKEND = _load_c_backend()
"""`arena.engine._hearts` if it is built, else None."""

BACKENDS: list[ModuleType] = [reference] + ([C_BACKEND] if C_BACKEND is not None else [])
BACKEND_IDS = ["reference", "c"][: len(BACKENDS)]

# 000 'The Deal': the cards removed so that 3, 5, 6 and 7 players get equal hands.
STANDARD_REMOVALS = {
    3: ["2D"],
    4: [],
    5: ["2D", "2C"],
    6: ["2D", "3D", "3C", "4C"],
    7: ["2S", "3D", "3C"],
}


def random_pass_kind(rng: random.Random, players: int) -> int:
    """A pass kind valid for `players` (and every `random_config`): hold, a direction,
    scatter, center, and star at an odd table (004 'Passing cards')."""
    kinds: list[int] = [0, *range(1, players), PASS_SCATTER, PASS_CENTER]
    if players % 2:
        kinds.append(PASS_STAR)
    return rng.choice(kinds)


def random_split(rng: random.Random, cfg: CoreConfig) -> tuple[int, ...]:
    """A split pass (003 'Simple variations'): an offset 1..n-1 per passed card."""
    return tuple(rng.randrange(1, cfg.players) for _ in range(cfg.pass_count))


def pass_size(cfg: CoreConfig, kind: int | tuple[int, ...]) -> int:
    """Cards each seat passes in a pass of `kind` (contract "Passing"); a tuple is a split
    pass of one offset per card."""
    if isinstance(kind, tuple):
        return len(kind)
    if kind == PASS_HOLD:
        return 0
    if kind == PASS_SCATTER:
        return cfg.players - 1
    if kind == PASS_STAR:
        return 2
    return cfg.pass_count


def passable(cfg: CoreConfig, hand: int) -> list[int]:
    """The cards of `hand` its seat may pass (those outside `pass_forbidden`)."""
    allowed = hand & ~cfg.pass_forbidden
    return [c for c in range(55) if allowed >> c & 1]


def random_schedule(rng: random.Random, players: int) -> tuple[int, ...]:
    """A pass rotation of 1 to 5 random valid kinds."""
    return tuple(random_pass_kind(rng, players) for _ in range(rng.randint(1, 5)))


def _random_deck(rng: random.Random, players: int) -> tuple[int, int, int]:
    """(deck, hand_size, kitty_size): standard removals, a kitty, or random removals."""
    mode = rng.random()
    if mode < 0.3:
        removed = sum(1 << card(text) for text in STANDARD_REMOVALS[players])
        deck = FULL_DECK & ~removed
        return deck, deck.bit_count() // players, 0
    if mode < 0.55:
        # 002 '"Kitty" variants': the odd cards form a kitty (or a 4-card kitty for four).
        hand_size = 52 // players
        if players == 4 and rng.random() < 0.5:
            hand_size = 12
        return FULL_DECK, hand_size, 52 - players * hand_size
    # Anything goes: a smaller hand, a random kitty, random cards removed (the 2C and the QS
    # included). Hands keep at least players - 1 cards so that a scatter pass is possible.
    hand_size = rng.randint(players - 1, 52 // players)
    spare = 52 - players * hand_size
    kitty_size = rng.choice([0, 0, rng.randint(0, min(spare, 6)), rng.randint(0, spare)])
    in_play = players * hand_size + kitty_size
    if rng.random() < 0.5:
        cards = rng.sample(range(52), in_play)
    else:
        # Remove low cards first, as the rule books do.
        cards = sorted(range(52), key=lambda c: (c % 13) + rng.random() * 4)[52 - in_play :]
    return sum(1 << c for c in cards), hand_size, kitty_size


def _random_values(rng: random.Random, deck: int) -> tuple[int, ...]:
    """Mostly the standard hearts 1, QS 13, with the variants of 002 and 004 mixed in."""
    values = [0] * 52
    hearts = rng.choices(["standard", "spot", "spot14", "high", "ace5"], [6, 1, 1, 1, 1])[0]
    for rank in range(13):
        index = 39 + rank
        if hearts == "spot":  # 002 'Spot hearts': ace counts 1
            values[index] = rank + 2 if rank < 12 else 1
        elif hearts == "spot14":  # 004: "the ace counts 14"
            values[index] = rank + 2
        elif hearts == "high":  # 004: "A=5, K=4, Q=3, J=2"
            values[index] = max(1, rank - 7)
        elif hearts == "ace5":  # 002: "The Ace of Hearts counts 5 points"
            values[index] = 5 if rank == 12 else 1
        else:
            values[index] = 1
    values[card("QS")] = rng.choices([13, 5, 0, 25], [7, 1, 1, 1])[0]
    bonus = rng.choices([None, "JD", "TD"], [5, 3, 2])[0]
    if bonus is not None:
        values[card(bonus)] = -10
    if rng.random() < 0.15:  # 004 'Scoring variants': Hooligan Hearts, 7C = 7
        values[card("7C")] = 7
    if rng.random() < 0.1:  # 004: "The AS can also be a penalty card"
        values[card("AS")] = rng.choice([7, 10])
    if rng.random() < 0.1:  # anything at all, zero-valued hearts included
        for index in rng.sample(range(52), rng.randint(1, 6)):
            values[index] = rng.randint(-10, 15)
    return tuple(value if deck >> index & 1 else 0 for index, value in enumerate(values))


def _random_forbidden(rng: random.Random, deck: int, room: int) -> int:
    """Cards kept from the pass (004 'Passing cards': the AS, KS and/or QS), at most `room`
    of them in play so that every pass kind stays possible; sometimes cards not in play."""
    if room <= 0 or rng.random() < 0.7:
        return 0
    honours = [card(text) for text in ("QS", "KS", "AS")]
    pool = honours if rng.random() < 0.6 else rng.sample(range(52), rng.randint(1, 5))
    forbidden = 0
    for index in pool:
        in_play = (forbidden & deck).bit_count() + (deck >> index & 1)
        if in_play <= room and rng.random() < 0.8:
            forbidden |= 1 << index
    return forbidden


def random_config(rng: random.Random) -> CoreConfig:
    """A random valid `CoreConfig` covering every option of the contract, for which every
    `random_pass_kind` is valid."""
    players = rng.randint(3, 7)
    deck, hand_size, kitty_size = _random_deck(rng, players)
    values = _random_values(rng, deck)
    pass_count = min(hand_size, rng.choices([3, 2, 1, 4, 0], [6, 2, 1, 1, 1])[0])
    opening = rng.randint(0, 3)
    if opening != 3 and (deck & CLUBS).bit_count() <= kitty_size:
        opening = 2  # the kitty could hold every club: only the left of the dealer can open
    if opening == 3 and (deck & SPADES).bit_count() <= kitty_size:
        opening = 2  # ... or every spade, for 003 'HEARTLESS's lowest-spade opening
    penalty_total = sum(value for value in values if value > 0)
    moon_extra = 0
    extra_mode = rng.random()
    if extra_mode < 0.3:
        # 002: "The Jack (or Ten) of Diamonds is required to Shoot the Moon".
        moon_extra = sum(1 << index for index, value in enumerate(values) if value < 0)
    elif extra_mode < 0.4:
        moon_extra = 1 << rng.randrange(52)
    cfg = CoreConfig(
        players=players,
        hand_size=hand_size,
        deck=deck,
        kitty_size=kitty_size,
        pass_count=pass_count,
        opening=opening,
        first_trick=rng.randint(0, 2),
        lead_rule=rng.randint(0, 2),
        broken_by=rng.randint(0, 2),
        queen_hearts_lead=rng.randint(0, 1),
        values=values,
        doubler=rng.choices([-1, card("TC"), rng.randrange(52)], [6, 3, 1])[0],
        moon=rng.randint(0, 4),
        moon_points=rng.choices([26, penalty_total, rng.randint(0, 60)], [6, 2, 1])[0],
        moon_extra=moon_extra,
        sun_points=rng.choice([0, 52]),
        no_trick_bonus=rng.choice([0, -5, 10]),
        kitty_taker=rng.randint(0, 1),
        # Drawn last, so that the fields above are what they were before it existed.
        pass_forbidden=_random_forbidden(
            rng, deck, hand_size - max(pass_count, players - 1, 2 if players % 2 else 0)
        ),
    )
    # Drawn after every other field, so that they are what they were before it existed.
    cfg = _random_royal(rng, cfg)
    # Booster Nines (004 'Other Variations'), drawn after royal for the same reason.
    cfg = cfg._replace(booster_nines=int(rng.random() < 0.25))
    cfg = _random_jokers(rng, cfg)
    # 001 'VARIATION 1: BLACK MARIAH', the QS at the first chance: drawn last, likewise.
    cfg = cfg._replace(queen_at_first_chance=int(rng.random() < 0.25))
    # 004 'Shooting the moon', subtract after a score: drawn last, likewise.
    if rng.random() < 0.2:
        cfg = cfg._replace(moon=MOON_SUBTRACT_AFTER_SCORE, moon_subtract_after=rng.randint(1, 120))
    cfg = _random_deal_rules(rng, cfg)
    # 004 'Slobberhannes' and Gong Zhu's scoring, drawn after all the rest likewise.
    cfg = _random_trick_scoring(rng, cfg)
    # 002's extra cards on the first trick, drawn after the rest likewise.
    cfg = _random_extra_cards(rng, cfg)
    # Gong Zhu's exposed cards, drawn last likewise.
    return _random_exposed(rng, cfg)


def _random_exposed(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Sometimes Gong Zhu's exposed cards (the play rule: not led nor followed to the first
    trick of their suit unless a singleton) and an exposed, quadrupling doubler: a few
    cards of the deck, Pagat's four or any (without jokers, as `Rules` requires)."""
    if rng.random() < 0.25 and not cfg.deck >> 52:
        pool = [i for i in range(52) if cfg.deck >> i & 1]
        chosen = rng.sample(pool, min(len(pool), rng.randint(1, 6)))
        if rng.random() < 0.5:
            chosen = [card(c) for c in ("AH", "QS", "JD", "TC") if cfg.deck >> card(c) & 1]
        cfg = cfg._replace(
            exposed=sum(1 << i for i in set(chosen)),
            doubler_exposed=int(cfg.doubler >= 0 and rng.random() < 0.5),
        )
    return cfg


def extra_cards(cfg: CoreConfig) -> int:
    """The cards dealt beyond `hand_size` and played to the first trick (002's
    `extra_cards_first_trick`), 0 without the rule."""
    return cfg.deck.bit_count() - cfg.players * cfg.hand_size - cfg.kitty_size


def _random_extra_cards(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Sometimes 002 'Alternatives to the "Kitty"': a kitty smaller than the table is dealt
    out instead, one more card to each of the first seats, played to the first trick."""
    if rng.random() < 0.2 and 0 < cfg.kitty_size < cfg.players:
        cfg = cfg._replace(kitty_size=0, extra_cards_first_trick=1)
    return cfg


def _random_trick_scoring(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Sometimes 004 'Slobberhannes's trick points and extra, and sometimes Gong Zhu's
    lone doubler and all-hearts reversal (the reversal only without jokers and royal
    scoring, as `Rules` requires)."""
    if rng.random() < 0.25:
        cfg = cfg._replace(
            first_trick_points=rng.choice([0, 1, 3, -2]),
            last_trick_points=rng.choice([0, 1, 5]),
            every_penalty_extra=rng.choice([0, 1, 4]),
        )
    if rng.random() < 0.25 and not cfg.royal_queens and not cfg.deck >> 52:
        reversed_ = rng.randint(0, 1)
        cfg = cfg._replace(
            doubler_alone_points=rng.choice([0, -50, 7]),
            all_hearts_reversed=reversed_,
            all_hearts_reverse_queen=reversed_ * rng.randint(0, 1),
        )
    return cfg


def _random_deal_rules(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Issue #23's deal rules, drawn after every other field (so those stay as they were):
    000's QS-discarded breaking (broken_by 3), 004's kitty to the first heart (2) or a
    card a trick (3), and sometimes the same deck dealt to two players (004, 1911)."""
    if rng.random() < 0.25:
        cfg = cfg._replace(broken_by=3)
    if rng.random() < 0.3:
        cfg = cfg._replace(kitty_taker=rng.choice([2, 3]))
    if rng.random() < 0.15:
        size = cfg.deck.bit_count()
        hand_size = (size - cfg.kitty_size) // 2
        kitty_size = size - 2 * hand_size
        opening = cfg.opening
        if opening != 3 and (cfg.deck & CLUBS).bit_count() <= kitty_size:
            opening = 2
        if opening == 3 and (cfg.deck & SPADES).bit_count() <= kitty_size:
            opening = 2
        cfg = cfg._replace(players=2, hand_size=hand_size, kitty_size=kitty_size, opening=opening)
    return cfg


def _random_jokers(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Sometimes 004's jokers, added to the kitty's count so the hands stay as drawn:
    1 to 3 wild jokers ('Other Variations', 'Deal': "played any time", no suit) worth 0
    (or anything), or the 1911 heart joker (card 52) worth 5."""
    if rng.random() >= 0.25:
        return cfg
    kind = rng.choice([JOKER_WILD, JOKER_HEART])
    added = rng.randint(1, 3) if kind == JOKER_WILD else 1
    points = 5 if kind == JOKER_HEART else rng.choice([0, 0, 0, 1, -2])
    kitty_size = cfg.kitty_size + added
    opening = cfg.opening
    # A bigger kitty could now hold every club (or spade): then the left of the dealer opens.
    if opening != 3 and (cfg.deck & CLUBS).bit_count() <= kitty_size:
        opening = 2
    if opening == 3 and (cfg.deck & SPADES).bit_count() <= kitty_size:
        opening = 2
    return cfg._replace(
        deck=cfg.deck | ((1 << added) - 1) << 52,
        kitty_size=kitty_size,
        opening=opening,
        joker_kind=kind,
        joker_points=points,
    )


def _random_royal(rng: random.Random, cfg: CoreConfig) -> CoreConfig:
    """Sometimes 004 'Royal Hearts' scoring (`royal_queens`), half of those with its own
    values (QS 26, QD -10) for the queens in play, else on whatever values were drawn."""
    if rng.random() >= 0.25:
        return cfg
    values = list(cfg.values)
    if rng.random() < 0.5:
        for name, value in (("QS", 26), ("QD", -10)):
            if cfg.deck >> card(name) & 1:
                values[card(name)] = value
    return cfg._replace(royal_queens=1, values=tuple(values))


def seed_chunks(first: int, count: int, size: int) -> list[range]:
    """`range(first, first + count)` cut in order into ranges of at most `size` seeds: a full
    differential's tests, so that none nears pytest's timeout and pytest-xdist can spread
    them over the cores. Their union is the whole range, each seed once (empty for 0)."""
    stop = first + count
    return [range(start, min(start + size, stop)) for start in range(first, stop, size)]


def chunk_id(seeds: range) -> str:
    """A chunk's test id: its first and last seed."""
    return f"{seeds.start}-{seeds.stop - 1}"
