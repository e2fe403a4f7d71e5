/* enfle.c -- Enfle / Schwellen (004 'Enfle'): see enfle.h for the rules. */
#include "enfle.h"

#include <string.h>

#include "hearts.h"

#define EN_BIT(c) (1ULL << (c))
#define EN_SUIT(c) ((c) / 13)
#define EN_SUIT_MASK(s) (0x1FFFULL << (13 * (s)))
#define EN_PACK ((1ULL << EN_CARDS) - 1)

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int en_deal(int players, uint64_t seed, int dealer, uint64_t pack, uint64_t hands[])
{
    int size = popcount64(pack);
    if (players < EN_MIN_PLAYERS || players > EN_MAX_PLAYERS || dealer < 0 || dealer >= players ||
        (pack & ~EN_PACK) || !size || size % players)
        return -1;
    uint8_t a[EN_CARDS];
    int k = 0;
    for (int c = 0; c < EN_CARDS; c++)
        if (pack & EN_BIT(c))
            a[k++] = (uint8_t)c;
    uint64_t rng = seed;
    for (int i = size - 1; i >= 1; i--) { /* as hearts.c's shuffle */
        int j = (int)hc_bounded(&rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    for (int s = 0; s < players; s++)
        hands[s] = 0;
    for (int i = 0; i < size; i++)
        hands[(dealer + 1 + i) % players] |= EN_BIT(a[i]);
    return 0;
}

int en_init(en_hand *h, int players, int dealer, const uint64_t hands[])
{
    if (players < EN_MIN_PLAYERS || players > EN_MAX_PLAYERS || dealer < 0 || dealer >= players)
        return -1;
    uint64_t seen = 0;
    for (int s = 0; s < players; s++) {
        if (!hands[s] || (hands[s] & ~EN_PACK) || (hands[s] & seen))
            return -1;
        seen |= hands[s];
    }
    memset(&h->pos, 0, sizeof h->pos);
    h->players = players;
    h->undo_len = 0;
    en_pos *p = &h->pos;
    for (int s = 0; s < players; s++)
        p->hand[s] = hands[s];
    p->winner = -1;
    p->leader = (uint8_t)((dealer + 1) % players);
    return 0;
}

int en_init_position(en_hand *h, int players, const uint64_t hands[], const uint64_t won[],
                     int leader, const uint8_t trick[], int trick_len)
{
    if (players < EN_MIN_PLAYERS || players > EN_MAX_PLAYERS || leader < 0 || leader >= players ||
        trick_len < 0 || trick_len >= players)
        return -1;
    uint64_t seen = 0;
    for (int s = 0; s < players; s++) {
        if (!hands[s] || ((hands[s] | won[s]) & ~EN_PACK) || (hands[s] & seen) ||
            (won[s] & (seen | hands[s])))
            return -1;
        seen |= hands[s] | won[s];
    }
    for (int i = 0; i < trick_len; i++) {
        if (trick[i] >= EN_CARDS || (seen & EN_BIT(trick[i])))
            return -1;
        seen |= EN_BIT(trick[i]);
    }
    int to_play = (leader + trick_len) % players;
    if (trick_len && !(hands[to_play] & EN_SUIT_MASK(EN_SUIT(trick[0]))))
        return -1;
    memset(&h->pos, 0, sizeof h->pos);
    h->players = players;
    h->undo_len = 0;
    en_pos *p = &h->pos;
    for (int s = 0; s < players; s++) {
        p->hand[s] = hands[s];
        p->won[s] = won[s];
    }
    for (int i = 0; i < trick_len; i++)
        p->trick_cards[i] = trick[i];
    p->trick_len = (uint8_t)trick_len;
    p->winner = -1;
    p->leader = (uint8_t)leader;
    return 0;
}

int en_to_play(const en_hand *h)
{
    const en_pos *p = &h->pos;
    return p->over ? -1 : (p->leader + p->trick_len) % h->players;
}

uint64_t en_legal(const en_hand *h)
{
    const en_pos *p = &h->pos;
    if (p->over)
        return 0;
    uint64_t held = p->hand[en_to_play(h)];
    if (p->trick_len)
        return held & EN_SUIT_MASK(EN_SUIT(p->trick_cards[0]));
    return held;
}

int en_check(const en_hand *h, int card)
{
    const en_pos *p = &h->pos;
    if (p->over)
        return EN_ERR_HAND_OVER;
    if (card < 0 || card >= EN_CARDS)
        return EN_ERR_BAD_CARD;
    if (!(p->hand[en_to_play(h)] & EN_BIT(card)))
        return EN_ERR_NOT_IN_HAND;
    return (en_legal(h) & EN_BIT(card)) ? EN_OK : EN_ERR_MUST_FOLLOW_SUIT;
}

void en_push(en_hand *h, int card)
{
    h->undo[h->undo_len++] = h->pos;
    en_pos *p = &h->pos;
    const int n = h->players;
    int s = en_to_play(h);
    p->hand[s] &= ~EN_BIT(card);
    p->trick_cards[p->trick_len++] = (uint8_t)card;
    if (!p->hand[s]) {
        /* "until one player gets rid of all his cards and thus wins": at once. */
        p->winner = (int8_t)s;
        p->over = 1;
        return;
    }
    int led = EN_SUIT(p->trick_cards[0]);
    en_trick *t = &h->tricks[p->trick_number];
    t->leader = p->leader;
    t->size = p->trick_len;
    memcpy(t->cards, p->trick_cards, sizeof t->cards);
    if (p->trick_len == n) {
        int best = 0;
        uint64_t cards = 0;
        for (int i = 0; i < n; i++) {
            cards |= EN_BIT(p->trick_cards[i]);
            if (EN_SUIT(p->trick_cards[i]) == led && p->trick_cards[i] > p->trick_cards[best])
                best = i;
        }
        int winner = (p->leader + best) % n;
        t->winner = (int8_t)winner;
        t->picker = -1;
        t->picked = 0;
        p->won[winner] |= cards;
        p->tricks_won[winner]++;
        p->leader = (uint8_t)winner;
    } else {
        int next = (s + 1) % n;
        if (p->hand[next] & EN_SUIT_MASK(led))
            return;
        /* "if he cannot he may not discard, but must take up all tricks already won
         * and add them to his hand": this trick's cards too; he leads next. */
        uint64_t picked = 0;
        for (int i = 0; i < n; i++) {
            picked |= p->won[i];
            p->won[i] = 0;
        }
        for (int i = 0; i < p->trick_len; i++)
            picked |= EN_BIT(p->trick_cards[i]);
        t->winner = -1;
        t->picker = (int8_t)next;
        t->picked = picked;
        p->hand[next] |= picked;
        p->leader = (uint8_t)next;
    }
    p->trick_len = 0;
    p->trick_number++;
    if (p->trick_number >= EN_MAX_TRICKS)
        p->over = 1;
}

int en_play(en_hand *h, int card)
{
    int code = en_check(h, card);
    if (code)
        return code;
    en_push(h, card);
    return EN_OK;
}

int en_pop(en_hand *h)
{
    if (!h->undo_len)
        return -1;
    h->pos = h->undo[--h->undo_len];
    return 0;
}

void en_points(const en_hand *h, int64_t out[])
{
    for (int s = 0; s < h->players; s++)
        out[s] = popcount64(h->pos.hand[s]);
}
