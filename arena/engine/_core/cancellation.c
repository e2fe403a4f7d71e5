/* cancellation.c -- Cancellation Hearts: see cancellation.h for the rules and
 * the decisions; arena/engine/variants/cancellation_reference.py is the contract. */
#include "cancellation.h"

#include <string.h>

#include "hearts.h"

#define RANKS 13
#define BIT(c) (1ULL << (c))
#define SUIT_MASK(s) (0x1FFFULL << (RANKS * (s)))
#define HEARTS_MASK SUIT_MASK(3)
#define QUEEN_OF_SPADES (2 * RANKS + 10)

enum { PHASE_PASSING, PHASE_PLAYING, PHASE_OVER };
enum {
    ERR_HAND_OVER = 1, ERR_PASSING, ERR_BAD_CARD, ERR_NOT_IN_HAND,
    ERR_MUST_LEAD_OPENING_CARD, ERR_MUST_FOLLOW_SUIT = 7, ERR_FIRST_TRICK_POINTS,
    ERR_NOT_BROKEN, ERR_NOT_PASSING, ERR_BAD_SEAT, ERR_ALREADY_PASSED, ERR_PASS_COUNT,
    ERR_PASS_NOT_IN_HAND = 15
};
enum { OPENING_LOWEST_CLUB = 0, OPENING_LEFT_OF_DEALER = 2 };
enum { FIRST_TRICK_ANY, FIRST_TRICK_NO_PENALTY, FIRST_TRICK_NO_POINTS };
enum { LEAD_ANY, LEAD_NOT_HEARTS, LEAD_NOT_POINTS };
enum { BROKEN_BY_HEARTS, BROKEN_BY_HEARTS_OR_QUEEN, BROKEN_BY_POINTS };
enum { MOON_NONE, MOON_OLD };

/* Multisets ---------------------------------------------------------------- */

int cx_count(cx_multiset m, int card)
{
    return (int)((m.once >> card) & 1) + (int)((m.twice >> card) & 1);
}

int cx_size(cx_multiset m)
{
    return __builtin_popcountll(m.once) + __builtin_popcountll(m.twice);
}

cx_multiset cx_union(cx_multiset a, cx_multiset b)
{
    cx_multiset r = {a.once | b.once, a.twice | b.twice | (a.once & b.once)};
    return r;
}

static void add_card(cx_multiset *m, int card)
{
    if (m->once & BIT(card))
        m->twice |= BIT(card);
    else
        m->once |= BIT(card);
}

static void remove_card(cx_multiset *m, int card)
{
    if (m->twice & BIT(card))
        m->twice &= ~BIT(card);
    else
        m->once &= ~BIT(card);
}

static int64_t value_of(const cx_config *c, cx_multiset m)
{
    int64_t sum = 0;
    for (uint64_t b = m.once; b; b &= b - 1)
        sum += c->values[__builtin_ctzll(b)];
    for (uint64_t b = m.twice; b; b &= b - 1)
        sum += c->values[__builtin_ctzll(b)];
    return sum;
}

/* The configuration -------------------------------------------------------- */

int cx_config_init(cx_config *c)
{
    const uint64_t all = BIT(CX_CARDS) - 1;
    if (c->players < 3 || c->players > CX_MAX_PLAYERS || (c->deck_once & ~all) ||
        (c->deck_twice & ~c->deck_once) || c->hand_size < 1 || c->widow_size < 0 ||
        c->players * c->hand_size + c->widow_size !=
            __builtin_popcountll(c->deck_once) + __builtin_popcountll(c->deck_twice) ||
        c->pass_count < 0 || c->pass_count >= c->hand_size)
        return -1;
    if (c->opening != OPENING_LOWEST_CLUB && c->opening != OPENING_LEFT_OF_DEALER)
        return -1;
    if (c->first_trick < 0 || c->first_trick > 2 || c->lead_rule < 0 || c->lead_rule > 2 ||
        c->broken_by < 0 || c->broken_by > 2 || (c->moon != MOON_NONE && c->moon != MOON_OLD))
        return -1;
    c->penalty = c->point = 0;
    for (int k = 0; k < CX_CARDS; k++) {
        if (c->values[k] > 0)
            c->penalty |= BIT(k);
        if (c->values[k] != 0)
            c->point |= BIT(k);
    }
    c->breaking = c->broken_by == BROKEN_BY_HEARTS           ? HEARTS_MASK
                  : c->broken_by == BROKEN_BY_HEARTS_OR_QUEEN ? HEARTS_MASK | BIT(QUEEN_OF_SPADES)
                                                              : c->point;
    c->lead_restricted = c->lead_rule == LEAD_ANY          ? 0
                         : c->lead_rule == LEAD_NOT_HEARTS ? HEARTS_MASK
                                                           : c->point;
    c->first_banned = c->first_trick == FIRST_TRICK_ANY          ? 0
                      : c->first_trick == FIRST_TRICK_NO_PENALTY ? c->penalty
                                                                 : c->point;
    uint64_t clubs = c->deck_once & SUIT_MASK(0);
    c->lowest_club = clubs ? __builtin_ctzll(clubs) : -1;
    if (c->lowest_club >= 0 && (c->deck_twice & BIT(c->lowest_club)))
        c->lowest_club = -1;
    if (c->opening == OPENING_LOWEST_CLUB && (c->widow_size || c->lowest_club < 0))
        return -1;
    return 0;
}

/* The deal ----------------------------------------------------------------- */

int cx_deal(const cx_config *c, uint64_t seed, int dealer, cx_multiset hands[],
            cx_multiset *widow)
{
    const int n = c->players;
    if (dealer < 0 || dealer >= n)
        return -1;
    uint8_t a[CX_MAX_COPIES];
    int len = 0;
    for (int k = 0; k < CX_CARDS; k++) {
        if (c->deck_once & BIT(k))
            a[len++] = (uint8_t)k;
        if (c->deck_twice & BIT(k))
            a[len++] = (uint8_t)k;
    }
    uint64_t rng = seed;
    for (int i = len - 1; i >= 1; i--) { /* Fisher-Yates from the top, as hc_deal */
        int j = (int)hc_bounded(&rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    memset(hands, 0, sizeof(cx_multiset) * (size_t)n);
    memset(widow, 0, sizeof *widow);
    const int dealt = n * c->hand_size;
    for (int k = 0; k < dealt; k++)
        add_card(&hands[(dealer + 1 + k) % n], a[k]);
    for (int k = dealt; k < len; k++)
        add_card(widow, a[k]);
    return 0;
}

/* One deal ----------------------------------------------------------------- */

static void reset_play(cx_hand *h)
{
    const cx_config *c = h->cfg;
    const int n = c->players;
    memcpy(h->hands, h->start, sizeof(cx_multiset) * (size_t)n);
    memset(h->taken, 0, sizeof h->taken);
    memset(h->won, 0, sizeof h->won);
    memset(&h->pending, 0, sizeof h->pending);
    memset(&h->discarded, 0, sizeof h->discarded);
    h->trick_len = h->trick_number = h->broken = 0;
    h->widow_owner = -1;
    h->phase = PHASE_PLAYING;
    h->leader = (h->dealer + 1) % n;
    if (c->opening == OPENING_LOWEST_CLUB)
        for (int s = 0; s < n; s++)
            if (h->hands[s].once & BIT(c->lowest_club))
                h->leader = s;
    h->to_play = h->leader;
}

int cx_hand_init(cx_hand *h, const cx_config *c, const cx_multiset hands[], int nhands,
                 cx_multiset widow, int dealer, int pass_offset)
{
    const int n = c->players;
    if (nhands != n || dealer < 0 || dealer >= n || pass_offset < 0 || pass_offset >= n ||
        (pass_offset && !c->pass_count))
        return -1;
    cx_multiset all = widow;
    if ((widow.twice & ~widow.once) || cx_size(widow) != c->widow_size)
        return -1;
    for (int s = 0; s < n; s++) {
        if ((hands[s].twice & ~hands[s].once) || cx_size(hands[s]) != c->hand_size)
            return -1;
        if (all.twice & hands[s].once)   /* a third copy */
            return -1;
        if (all.once & hands[s].twice)
            return -1;
        all = cx_union(all, hands[s]);
    }
    if (all.once != c->deck_once || all.twice != c->deck_twice)
        return -1;
    memset(h, 0, sizeof *h);
    h->cfg = c;
    h->dealer = dealer;
    h->pass_offset = pass_offset;
    h->widow = widow;
    memcpy(h->dealt, hands, sizeof(cx_multiset) * (size_t)n);
    memcpy(h->start, hands, sizeof(cx_multiset) * (size_t)n);
    reset_play(h);
    if (pass_offset) {
        h->phase = PHASE_PASSING;
        h->to_play = h->leader = -1;
    }
    return 0;
}

int cx_pass(cx_hand *h, int seat, const int64_t cards[], int n)
{
    const cx_config *c = h->cfg;
    if (h->phase != PHASE_PASSING)
        return ERR_NOT_PASSING;
    if (seat < 0 || seat >= c->players)
        return ERR_BAD_SEAT;
    if (h->has_passed[seat])
        return ERR_ALREADY_PASSED;
    if (n != c->pass_count)
        return ERR_PASS_COUNT;
    cx_multiset left = h->dealt[seat];
    for (int k = 0; k < n; k++)
        if (cards[k] < 0 || cards[k] >= CX_CARDS || !(left.once & BIT(cards[k])))
            return ERR_PASS_NOT_IN_HAND;
    for (int k = 0; k < n; k++) {
        if (!(left.once & BIT(cards[k])))
            return CX_ERR_PASS_COPIES;
        remove_card(&left, (int)cards[k]);
    }
    for (int k = 0; k < n; k++)
        h->given[seat][k] = (uint8_t)cards[k];
    h->has_passed[seat] = 1;
    for (int s = 0; s < c->players; s++)
        if (!h->has_passed[s])
            return 0;
    /* Every pass is in: exchange them and start the play. */
    cx_multiset start[CX_MAX_PLAYERS];
    memcpy(start, h->dealt, sizeof start);
    for (int s = 0; s < c->players; s++) {
        const int to = (s + h->pass_offset) % c->players;
        for (int k = 0; k < n; k++) {
            remove_card(&start[s], h->given[s][k]);
            h->got[to][h->got_len[to]++] = h->given[s][k];
        }
    }
    for (int s = 0; s < c->players; s++) /* add after every removal: no third copy */
        for (int k = 0; k < h->got_len[s]; k++)
            add_card(&start[s], h->got[s][k]);
    memcpy(h->start, start, sizeof start);
    reset_play(h);
    return 0;
}

/* The play ----------------------------------------------------------------- */

static uint64_t lead_filter(const cx_hand *h, uint64_t held)
{
    const uint64_t restricted = h->cfg->lead_restricted;
    if (!restricted || h->broken)
        return held;
    return (held & ~restricted) ? held & ~restricted : held;
}

/* The filters from the hand to the legal plays, each with its code: returns the
 * count; allowed[i] the cards left after filter i. */
static int narrowing(const cx_hand *h, int codes[], uint64_t allowed[])
{
    const cx_config *c = h->cfg;
    const uint64_t held = h->hands[h->to_play].once;
    int k = 0;
    if (h->trick_len) {
        const uint64_t follow = held & SUIT_MASK(h->trick[0] / RANKS);
        codes[k] = ERR_MUST_FOLLOW_SUIT;
        allowed[k++] = follow ? follow : held;
    } else if (h->trick_number == 0 && c->opening == OPENING_LOWEST_CLUB) {
        codes[k] = ERR_MUST_LEAD_OPENING_CARD;
        allowed[k++] = held & BIT(c->lowest_club);
    } else {
        codes[k] = ERR_NOT_BROKEN;
        allowed[k++] = lead_filter(h, held);
    }
    if (h->trick_number == 0 && c->first_banned) {
        const uint64_t prev = allowed[k - 1];
        codes[k] = ERR_FIRST_TRICK_POINTS;
        allowed[k++] = (prev & ~c->first_banned) ? prev & ~c->first_banned : prev;
    }
    return k;
}

uint64_t cx_legal(const cx_hand *h)
{
    if (h->phase != PHASE_PLAYING)
        return 0;
    int codes[2];
    uint64_t allowed[2];
    return allowed[narrowing(h, codes, allowed) - 1];
}

int cx_check_play(const cx_hand *h, int64_t card)
{
    if (h->phase == PHASE_OVER)
        return ERR_HAND_OVER;
    if (h->phase == PHASE_PASSING)
        return ERR_PASSING;
    if (card < 0 || card >= CX_CARDS || !(h->cfg->deck_once & BIT(card)))
        return ERR_BAD_CARD;
    if (!(h->hands[h->to_play].once & BIT(card)))
        return ERR_NOT_IN_HAND;
    int codes[2];
    uint64_t allowed[2];
    const int k = narrowing(h, codes, allowed);
    for (int i = 0; i < k; i++)
        if (!(allowed[i] & BIT(card)))
            return codes[i];
    return 0;
}

/* The offset from the leader of the winning card, or -1: the highest card of the
 * suit led that is in the trick once (two copies cancel). */
static int trick_winner(const uint8_t cards[], int n)
{
    uint64_t seen = 0, paired = 0;
    for (int i = 0; i < n; i++) {
        paired |= seen & BIT(cards[i]);
        seen |= BIT(cards[i]);
    }
    const uint64_t alive = seen & ~paired & SUIT_MASK(cards[0] / RANKS);
    if (!alive)
        return -1;
    const int best = 63 - __builtin_clzll(alive);
    for (int i = 0; i < n; i++)
        if (cards[i] == best)
            return i;
    return -1;
}

static void finish_trick(cx_hand *h)
{
    const cx_config *c = h->cfg;
    const int n = c->players;
    const int offset = trick_winner(h->trick, n);
    const int winner = offset < 0 ? -1 : (h->leader + offset) % n;
    cx_trick *record = &h->history[h->trick_number];
    record->leader = (int8_t)h->leader;
    record->winner = (int8_t)winner;
    memcpy(record->cards, h->trick, (size_t)n);
    for (int i = 0; i < n; i++)
        add_card(&h->pending, h->trick[i]);
    if (h->trick_number == 0) /* 000: "The widow is added to the first trick." */
        h->pending = cx_union(h->pending, h->widow);
    if (winner >= 0) {
        if (h->widow_owner < 0 && h->widow.once)
            h->widow_owner = winner;
        h->taken[winner] = cx_union(h->taken[winner], h->pending);
        memset(&h->pending, 0, sizeof h->pending);
        h->won[winner]++;
        h->leader = winner;
    }
    h->trick_len = 0;
    h->trick_number++;
    h->to_play = h->leader;
    if (h->trick_number == c->hand_size) {
        h->discarded = h->pending;
        memset(&h->pending, 0, sizeof h->pending);
        h->phase = PHASE_OVER;
        h->to_play = -1;
    }
}

static void apply(cx_hand *h, int card)
{
    remove_card(&h->hands[h->to_play], card);
    h->trick[h->trick_len++] = (uint8_t)card;
    if (h->cfg->breaking & BIT(card))
        h->broken = 1;
    if (h->trick_len < h->cfg->players)
        h->to_play = (h->to_play + 1) % h->cfg->players;
    else
        finish_trick(h);
}

int cx_push(cx_hand *h, int card)
{
    if (h->phase != PHASE_PLAYING || card < 0 || card >= CX_CARDS ||
        !(h->hands[h->to_play].once & BIT(card)))
        return -1;
    h->plays[h->nplays++] = (uint8_t)card;
    apply(h, card);
    return 0;
}

int cx_play(cx_hand *h, int64_t card)
{
    const int code = cx_check_play(h, card);
    if (code == 0)
        cx_push(h, (int)card);
    return code;
}

int cx_pop(cx_hand *h)
{
    if (h->nplays == 0)
        return -1;
    const int count = --h->nplays;
    reset_play(h);
    for (int i = 0; i < count; i++)
        apply(h, h->plays[i]);
    return 0;
}

int cx_points(const cx_hand *h, int64_t out[])
{
    const cx_config *c = h->cfg;
    if (h->phase != PHASE_OVER)
        return -1;
    const int n = c->players;
    for (int s = 0; s < n; s++)
        out[s] = value_of(c, h->taken[s]);
    if (c->moon != MOON_OLD)
        return 0;
    for (int s = 0; s < n; s++) {
        const cx_multiset t = h->taken[s];
        if ((t.once & c->penalty) == (c->deck_once & c->penalty) &&
            (t.twice & c->penalty) == (c->deck_twice & c->penalty)) {
            for (int o = 0; o < n; o++)
                out[o] = o == s ? 0 : out[o] + c->moon_points;
            return 0;
        }
    }
    return 0;
}
