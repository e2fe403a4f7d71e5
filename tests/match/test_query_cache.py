"""The SDK's per-stream query cache reads every real play query exactly as the plain
conversion does: whole games under many rule sets, one cache per seat as a bot's stream
has, and every field of real queries broken in turn."""

import random

import pytest
from hearts_bot.convert import ProtocolError, play_view_from_proto
from hearts_bot.proto.hearts.v1 import game_pb2
from hearts_bot.querycache import QueryCache

from arena.engine import preset
from arena.match import protocol
from arena.match.seats import DecisionContext

from .test_protocol import play_games


def _queries(name, players, seed=11):
    rules = preset(name, players)
    rng = random.Random(seed)
    queries = []

    def collect(hand, seat, number, scores):
        bank = rng.choice([10.0, 10.0, 9.75, 0.0])
        lives = tuple(rng.choice([3, 2, 0]) for _ in scores) if rules.lives else ()
        context = DecisionContext(number, scores, 1.0, bank, rng.choice([0, 0, 3]), lives)
        queries.append((seat, protocol.play_query(hand.view(seat), context)))

    play_games(rules, seed, collect)
    return queries


def _outcome(convert, query):
    try:
        return convert(query)
    except ProtocolError as error:
        return f"ProtocolError: {error}"


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("standard", 4),
        ("midwest", 5),
        ("omnibus", 4),
        ("black_maria", 3),
        ("heartless", 4),
        ("sweepstakes", 4),
        ("royal", 4),
        ("auction", 4),  # bids and a declarer: the full path
        ("danger", 4),  # lives on the fast path
        ("cancellation", 8),  # two packs: the full path
        ("cancellation_four", 4),
        ("rickety_kate", 4),  # a refused or accepted QS (HandState.queen_offer): the full path
        ("pledge", 4),  # the no-hearts pledges (HandState.pledges): the full path
        ("gong_zhu", 4),  # the exposed cards (HandState.exposures): the full path
        ("extra_cards", 3),  # 002's extra cards on the first trick: the full path
        ("extra_cards", 5),
    ],
)
def test_every_play_query_of_whole_games_reads_as_the_plain_conversion(name, players):
    caches = [QueryCache() for _ in range(players)]
    queries = _queries(name, players)
    for seat, query in queries:
        assert caches[seat].play_view(query) == play_view_from_proto(query)
    assert len(queries) > 100


def _mutations(query):
    """Copies of `query` each with one field broken (or merely changed)."""
    cases = []

    def case(change):
        broken = game_pb2.PlayCardQuery()
        broken.CopyFrom(query)
        change(broken)
        cases.append(broken)

    state = "state"
    case(lambda q: q.ClearField(state))
    case(lambda q: q.state.ClearField("rules"))
    case(lambda q: q.state.ClearField("current_trick"))
    case(lambda q: setattr(q.state, "seat", 9))
    case(lambda q: setattr(q.state, "seat", (q.state.seat + 1) % 4))
    case(lambda q: setattr(q.state, "dealer", 4))
    case(lambda q: setattr(q.state, "kitty_taker", 4))
    case(lambda q: setattr(q.state, "kitty_taker", 1))
    case(lambda q: setattr(q.state, "pass_direction", 0))
    case(lambda q: setattr(q.state, "pass_direction", 99))
    case(lambda q: q.state.scores.append(3))
    case(lambda q: q.state.hand.append("1H"))
    case(lambda q: q.state.hand.append(q.state.hand[0]))
    case(lambda q: q.state.ClearField("hand"))
    case(lambda q: q.ClearField("legal_cards"))
    case(lambda q: q.legal_cards.append("ZZ"))
    case(lambda q: q.legal_cards.append(q.legal_cards[0]))
    case(lambda q: q.state.passed.extend(["2C", "2C"]))
    case(lambda q: q.state.received.append("XX"))
    case(lambda q: q.state.kitty.append(q.state.hand[0]))
    case(lambda q: q.state.kitty.append("2X"))
    case(lambda q: q.state.current_trick.cards.append("QQ"))
    case(lambda q: setattr(q.state.current_trick, "winner", 1))
    case(lambda q: setattr(q.state.current_trick, "winner", 7))
    case(lambda q: setattr(q.state.current_trick, "leader", 6))
    case(lambda q: q.state.current_trick.cards.append(q.state.hand[-1]))
    case(lambda q: q.state.reveals.extend(["", "", "", ""]))
    case(lambda q: setattr(q.state, "scoring_suit", "X"))
    case(lambda q: q.state.lives.extend([3, 2]))  # Danger Hearts: not one per seat
    case(lambda q: q.state.lives.extend([3, 2, 1, 0]))
    case(lambda q: q.state.bids.add(seat=9))  # Auction Hearts: no such seat
    case(lambda q: setattr(q.state, "declarer", 1))
    case(lambda q: setattr(q.state.queen_offer, "giver", 7))  # Rickety Kate: no such seat
    case(lambda q: setattr(q.state.queen_offer, "receiver", q.state.queen_offer.giver))
    case(lambda q: setattr(q.state.clock.bank_remaining, "seconds", 3))
    if query.state.tricks:
        case(lambda q: q.state.tricks[0].ClearField("winner"))
        case(lambda q: setattr(q.state.tricks[0], "winner", 5))
        case(lambda q: setattr(q.state.tricks[0], "leader", 5))
        case(lambda q: q.state.tricks[0].cards.append("3H"))
        case(lambda q: setattr(q.state.tricks[-1], "winner", (q.state.tricks[-1].winner + 1) % 4))
        case(lambda q: q.state.tricks[0].cards.__setitem__(0, "nope"))
        case(lambda q: q.state.tricks[0].cards.__setitem__(1, q.state.hand[0]))
        case(lambda q: q.state.tricks.add().CopyFrom(q.state.tricks[0]))
    return cases


def test_a_broken_field_is_refused_with_the_same_error_or_read_the_same():
    queries = [q for _, q in _queries("standard", 4)]
    cache = QueryCache()  # one cache throughout: what it has seen must not mask a change
    checked = 0
    for query in queries[::7]:
        for broken in _mutations(query):
            assert _outcome(cache.play_view, broken) == _outcome(play_view_from_proto, broken)
            checked += 1
        assert cache.play_view(query) == play_view_from_proto(query)
    assert checked > 1000
