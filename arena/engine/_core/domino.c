/* domino.c -- Domino Hearts (000 'Domino Hearts'): see domino.h for the rules. */
#include "domino.h"

#include <string.h>

#include "hearts.h"

#define DH_BIT(c) (1ULL << (c))
#define DH_SUIT(c) ((c) / 13)
#define DH_SUIT_MASK(s) (0x1FFFULL << (13 * (s)))
#define DH_HEARTS DH_SUIT_MASK(3)
#define DH_PACK ((1ULL << DH_CARDS) - 1)

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int dh_deal(int players, uint64_t seed, int dealer, uint64_t hands[], uint8_t stock[])
{
    if (players < DH_MIN_PLAYERS || players > DH_MAX_PLAYERS || dealer < 0 || dealer >= players)
        return -1;
    uint8_t a[DH_CARDS];
    for (int i = 0; i < DH_CARDS; i++)
        a[i] = (uint8_t)i;
    uint64_t rng = seed;
    for (int i = DH_CARDS - 1; i >= 1; i--) { /* as hearts.c's shuffle */
        int j = (int)hc_bounded(&rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    for (int s = 0; s < players; s++)
        hands[s] = 0;
    int dealt = players * DH_HAND_SIZE;
    for (int k = 0; k < dealt; k++)
        hands[(dealer + 1 + k) % players] |= DH_BIT(a[k]);
    for (int k = dealt; k < DH_CARDS; k++)
        stock[k - dealt] = a[k];
    return DH_CARDS - dealt;
}

int dh_init(dh_hand *h, const dh_config *cfg, const uint64_t hands[], const uint8_t stock[],
            int stock_size)
{
    int n = cfg->players;
    if (n < DH_MIN_PLAYERS || n > DH_MAX_PLAYERS || cfg->dealer < 0 || cfg->dealer >= n ||
        stock_size < 0 || stock_size > DH_CARDS || (cfg->moon != DH_MOON_NONE && cfg->moon != DH_MOON_OLD))
        return -1;
    uint64_t seen = 0;
    for (int s = 0; s < n; s++) {
        if (!hands[s] || (hands[s] & ~DH_PACK) || (hands[s] & seen))
            return -1;
        seen |= hands[s];
    }
    for (int k = 0; k < stock_size; k++) {
        if (stock[k] >= DH_CARDS || (seen & DH_BIT(stock[k])))
            return -1;
        seen |= DH_BIT(stock[k]);
    }
    if (seen != DH_PACK)
        return -1;
    memset(h, 0, sizeof *h);
    h->cfg = *cfg;
    h->stock_size = stock_size;
    memcpy(h->stock, stock, (size_t)stock_size);
    dh_pos *p = &h->pos;
    for (int s = 0; s < n; s++) {
        p->hand[s] = hands[s];
        p->active |= (uint8_t)(1u << s);
    }
    p->kept_by = -1;
    p->leader = p->to_play = (uint8_t)((cfg->dealer + 1) % n);
    return 0;
}

static int next_active(const dh_pos *p, int n, int s);
static void draw_until_able(dh_hand *h);

int dh_init_position(dh_hand *h, const dh_config *cfg, const uint64_t hands[],
                     const uint8_t stock[], int stock_size, int leader, int broken,
                     const uint8_t trick_seats[], const uint8_t trick[], int trick_len)
{
    int n = cfg->players;
    if (n < DH_MIN_PLAYERS || n > DH_MAX_PLAYERS || cfg->dealer < 0 || cfg->dealer >= n ||
        leader < 0 || leader >= n || stock_size < 0 || stock_size > DH_CARDS || trick_len < 0 ||
        trick_len >= n || (cfg->moon != DH_MOON_NONE && cfg->moon != DH_MOON_OLD))
        return -1;
    uint64_t seen = 0;
    uint8_t active = 0;
    for (int s = 0; s < n; s++) {
        if ((hands[s] & ~DH_PACK) || (hands[s] & seen))
            return -1;
        seen |= hands[s];
        if (hands[s])
            active |= (uint8_t)(1u << s);
    }
    for (int k = 0; k < stock_size + trick_len; k++) {
        uint8_t c = k < stock_size ? stock[k] : trick[k - stock_size];
        if (c >= DH_CARDS || (seen & DH_BIT(c)))
            return -1;
        seen |= DH_BIT(c);
    }
    /* The seats that played: the leader first, then seats on his left, each once. */
    int last = leader;
    for (int i = 0; i < trick_len; i++) {
        int seat = trick_seats[i];
        if (seat >= n || (i == 0 && seat != leader) ||
            (i > 0 && ((seat - leader + n) % n) <= ((last - leader + n) % n)))
            return -1;
        active |= (uint8_t)(1u << seat);
        last = seat;
    }
    memset(h, 0, sizeof *h);
    h->cfg = *cfg;
    h->stock_size = stock_size;
    memcpy(h->stock, stock, (size_t)stock_size);
    dh_pos *p = &h->pos;
    for (int s = 0; s < n; s++)
        p->hand[s] = hands[s];
    p->kept_by = -1;
    p->broken = (uint8_t)(broken != 0);
    p->leader = (uint8_t)leader;
    p->active = active;
    for (int i = 0; i < trick_len; i++) {
        p->trick_cards[i] = trick[i];
        if (DH_BIT(trick[i]) & DH_HEARTS)
            p->broken = 1;
    }
    p->trick_len = (uint8_t)trick_len;
    if (popcount64(active) < 2 || trick_len >= popcount64(active))
        return -1;
    /* The seats between two that played must be out (they would have played). */
    for (int i = 1; i < trick_len; i++)
        if (next_active(p, n, trick_seats[i - 1]) != trick_seats[i])
            return -1;
    p->to_play = (uint8_t)(trick_len ? next_active(p, n, last) : leader);
    if (!p->hand[p->to_play] || (trick_len && p->to_play == leader))
        return -1;
    draw_until_able(h);
    return 0;
}

uint64_t dh_legal(const dh_hand *h)
{
    const dh_pos *p = &h->pos;
    if (p->over)
        return 0;
    uint64_t held = p->hand[p->to_play];
    if (p->trick_len) {
        uint64_t follow = held & DH_SUIT_MASK(DH_SUIT(p->trick_cards[0]));
        return follow ? follow : held; /* void only once the stock is out */
    }
    if (!p->broken && (held & ~DH_HEARTS))
        return held & ~DH_HEARTS;
    return held;
}

int dh_check(const dh_hand *h, int card)
{
    const dh_pos *p = &h->pos;
    if (p->over)
        return DH_ERR_HAND_OVER;
    if (card < 0 || card >= DH_CARDS)
        return DH_ERR_BAD_CARD;
    if (!(p->hand[p->to_play] & DH_BIT(card)))
        return DH_ERR_NOT_IN_HAND;
    if (dh_legal(h) & DH_BIT(card))
        return DH_OK;
    return p->trick_len ? DH_ERR_MUST_FOLLOW_SUIT : DH_ERR_NOT_BROKEN;
}

/* The next seat after `s` (to its left) that takes part in the trick. */
static int next_active(const dh_pos *p, int n, int s)
{
    for (int k = 1; k <= n; k++) {
        int t = (s + k) % n;
        if (p->active & (1u << t))
            return t;
    }
    return s;
}

/* A seat to play that is void in the suit led draws until it can follow. */
static void draw_until_able(dh_hand *h)
{
    dh_pos *p = &h->pos;
    if (!p->trick_len)
        return;
    int s = p->to_play;
    uint64_t suit = DH_SUIT_MASK(DH_SUIT(p->trick_cards[0]));
    while (!(p->hand[s] & suit) && p->stock_pos < h->stock_size) {
        uint8_t c = h->stock[p->stock_pos++];
        p->hand[s] |= DH_BIT(c);
        p->drawn[s]++;
        h->draw_trick[p->draw_count] = p->trick_number;
        h->draw_seat[p->draw_count] = (uint8_t)s;
        h->draw_card[p->draw_count] = c;
        p->draw_count++;
    }
}

static void finish_deal(dh_hand *h, int last_winner)
{
    dh_pos *p = &h->pos;
    int n = h->cfg.players, survivor = -1;
    for (int s = 0; s < n; s++)
        if (p->hand[s])
            survivor = s;
    uint64_t rest = 0;
    for (int k = p->stock_pos; k < h->stock_size; k++)
        rest |= DH_BIT(h->stock[k]);
    p->stock_pos = (uint8_t)h->stock_size;
    if (survivor >= 0) {
        rest |= p->hand[survivor];
        p->hand[survivor] = 0;
    }
    p->kept = rest;
    p->kept_by = (int8_t)(rest ? (survivor >= 0 ? survivor : last_winner) : -1);
    p->active = 0;
    p->trick_len = 0;
    p->over = 1;
}

void dh_push(dh_hand *h, int card)
{
    h->undo[h->undo_len++] = h->pos;
    dh_pos *p = &h->pos;
    const int n = h->cfg.players;
    int s = p->to_play;
    p->hand[s] &= ~DH_BIT(card);
    p->trick_cards[p->trick_len++] = (uint8_t)card;
    if (DH_BIT(card) & DH_HEARTS)
        p->broken = 1;
    if (p->trick_len < popcount64(p->active)) {
        p->to_play = (uint8_t)next_active(p, n, s);
        draw_until_able(h);
        return;
    }
    /* The trick is complete: the highest card of the suit led wins it. */
    dh_trick *t = &h->tricks[p->trick_number];
    int led = DH_SUIT(p->trick_cards[0]), best = 0, seat = p->leader;
    t->leader = p->leader;
    t->size = p->trick_len;
    uint64_t won = 0;
    for (int i = 0; i < p->trick_len; i++) {
        int c = p->trick_cards[i];
        t->seats[i] = (uint8_t)seat;
        t->cards[i] = (uint8_t)c;
        won |= DH_BIT(c);
        if (DH_SUIT(c) == led && c > p->trick_cards[best])
            best = i;
        seat = next_active(p, n, seat);
    }
    int winner = t->seats[best];
    t->winner = (uint8_t)winner;
    p->taken[winner] |= won;
    p->tricks_won[winner]++;
    p->trick_number++;
    p->trick_len = 0;
    uint8_t active = 0;
    for (int i = 0; i < n; i++)
        if (p->hand[i])
            active |= (uint8_t)(1u << i);
    p->active = active;
    if (popcount64(active) < 2) {
        finish_deal(h, winner);
        return;
    }
    /* "If a player wins a trick with his last card, the turn to lead passes to the
     * first active player on his left." */
    p->leader = p->to_play =
        (uint8_t)((active & (1u << winner)) ? winner : next_active(p, n, winner));
}

int dh_play(dh_hand *h, int card)
{
    int code = dh_check(h, card);
    if (code)
        return code;
    dh_push(h, card);
    return DH_OK;
}

int dh_pop(dh_hand *h)
{
    if (!h->undo_len)
        return -1;
    h->pos = h->undo[--h->undo_len];
    return 0;
}

void dh_points(const dh_hand *h, int64_t out[])
{
    const dh_pos *p = &h->pos;
    const int n = h->cfg.players;
    uint64_t penalty = 0;
    for (int c = 0; c < DH_CARDS; c++)
        if (h->cfg.values[c] > 0)
            penalty |= DH_BIT(c);
    int shooter = -1;
    for (int s = 0; s < n; s++) {
        uint64_t charged = p->taken[s] | (p->kept_by == s ? p->kept : 0);
        int64_t sum = 0;
        for (uint64_t m = charged; m; m &= m - 1)
            sum += h->cfg.values[__builtin_ctzll(m)];
        out[s] = sum;
        /* a moon is every penalty card won in tricks; cards kept never make one */
        if (penalty && (p->taken[s] & penalty) == penalty)
            shooter = s;
    }
    if (h->cfg.moon == DH_MOON_OLD && shooter >= 0 && p->over)
        for (int s = 0; s < n; s++)
            out[s] = s == shooter ? 0 : h->cfg.moon_points;
}
