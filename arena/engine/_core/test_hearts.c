/* test_hearts.c -- standalone tests of the C rules core (run_tests.sh builds it
 * with the sanitizers).  Scenario tests are named after the rule they check
 * (docs/decisions/0001-engine-backend-contract.md); the random-play loop checks
 * invariants and that the batch and the hand state agree decision by decision.
 * Prints "N passed, N failed" and exits 0 only if nothing failed.
 */
#include "hearts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (cond) {                                                                        \
            passed++;                                                                      \
        } else {                                                                           \
            failed++;                                                                      \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, \
                    #cond);                                                                \
        }                                                                                  \
    } while (0)

#define CHECK_EQ(a, b)                                                                       \
    do {                                                                                     \
        long long a_ = (long long)(a), b_ = (long long)(b);                                  \
        if (a_ == b_) {                                                                      \
            passed++;                                                                        \
        } else {                                                                             \
            failed++;                                                                        \
            fprintf(stderr, "%s:%d: %s: %s == %lld, expected %s == %lld\n", __FILE__,        \
                    __LINE__, __func__, #a, a_, #b, b_);                                     \
        }                                                                                    \
    } while (0)

/* Cards and configs ------------------------------------------------------- */

#define BIT_OF(c) (1ULL << (c))

/* "QS" -> 36, "JK1" -> 52; -1 for a bad name. */
static int card(const char *s)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "CDSH";
    if (s[0] == 'J' && s[1] == 'K' && s[2] >= '1' && s[2] <= '3')
        return HC_JOKER0 + (s[2] - '1');
    const char *r = strchr(ranks, s[0]), *u = strchr(suits, s[1]);
    if (!s[0] || !s[1] || !r || !u)
        return -1;
    return (int)(u - suits) * 13 + (int)(r - ranks);
}

/* "2C 3C QS" -> mask */
static uint64_t cards(const char *list)
{
    uint64_t m = 0;
    char buf[4];
    while (*list) {
        while (*list == ' ')
            list++;
        if (!*list)
            break;
        buf[0] = list[0];
        buf[1] = list[1];
        buf[2] = list[0] == 'J' && list[1] == 'K' ? list[2] : 0;
        buf[3] = 0;
        int c = card(buf);
        if (c < 0) {
            fprintf(stderr, "bad card %s\n", buf);
            exit(2);
        }
        m |= 1ULL << c;
        list += buf[2] ? 3 : 2;
    }
    return m;
}

static int popcount(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static int lowest(uint64_t x)
{
    int i = 0;
    while (!(x >> i & 1))
        i++;
    return i;
}

/* The standard four-hand game (config.standard_config). */
static hc_config standard(int players)
{
    hc_config c;
    memset(&c, 0, sizeof c);
    c.players = players;
    c.hand_size = 52 / players;
    c.deck = HC_FULL_DECK;
    c.kitty_size = 52 % players;
    c.pass_count = 3;
    c.opening = 0;
    c.first_trick = 1;
    c.lead_rule = 1;
    c.broken_by = 1;
    c.queen_hearts_lead = 0;
    for (int i = 39; i < 52; i++)
        c.values[i] = 1;
    c.values[HC_QS] = 13;
    c.doubler = -1;
    c.moon = 1;
    c.moon_points = 26;
    c.moon_extra = 0;
    c.sun_points = 0;
    c.no_trick_bonus = 0;
    c.kitty_taker = 0;
    return c;
}

static hc_config init_ok(hc_config c)
{
    int code = hc_config_init(&c);
    if (code) {
        fprintf(stderr, "config rejected: %s\n", hc_config_strerror(code));
        exit(2);
    }
    return c;
}

/* Hands with the given cards per seat (NULL: none), the rest of the deck dealt
 * in ascending order to fill every hand; what is left is the kitty. */
static void build(const hc_config *c, const char *const given[], uint64_t hands[], uint64_t *kitty)
{
    int n = (int)c->players;
    uint64_t used = 0;
    for (int s = 0; s < n; s++) {
        hands[s] = given && given[s] ? cards(given[s]) : 0;
        used |= hands[s];
    }
    uint64_t rest = c->deck & ~used;
    for (int s = 0; s < n; s++) {
        while (popcount(hands[s]) < c->hand_size) {
            int x = lowest(rest);
            hands[s] |= 1ULL << x;
            rest &= rest - 1;
        }
    }
    *kitty = rest;
}

static hc_hand *new_hand(const hc_config *c, const char *const given[], int dealer, int kind)
{
    static hc_hand h;
    uint64_t hands[HC_MAX_PLAYERS], kitty;
    build(c, given, hands, &kitty);
    int code = hc_hand_init(&h, c, hands, c->players, kitty, dealer, kind, 42);
    if (code) {
        fprintf(stderr, "hand rejected: %s\n", hc_state_strerror(code));
        exit(2);
    }
    return &h;
}

/* Randomness and the deal -------------------------------------------------- */

static void test_splitmix_reference_values(void)
{
    /* SplitMix64 seeded with 0 (the published reference sequence) */
    uint64_t s = 0;
    CHECK(hc_splitmix_next(&s) == 0xE220A8397B1DCDAFULL);
    CHECK(hc_splitmix_next(&s) == 0x6E789E6AA1B965F4ULL);
    CHECK(hc_splitmix_next(&s) == 0x06C45D188009454FULL);
    s = 0;
    CHECK_EQ(hc_bounded(&s, 52), 45); /* high word of 0xE220A8397B1DCDAF * 52 */
    s = 7;
    for (int i = 0; i < 1000; i++)
        CHECK(hc_bounded(&s, (uint64_t)(i % 52) + 1) <= (uint64_t)(i % 52));
}

static void test_deal_is_deterministic_partition(void)
{
    for (int players = 3; players <= 7; players++) {
        hc_config c = init_ok(standard(players));
        for (uint64_t seed = 0; seed < 50; seed++) {
            uint64_t a[HC_MAX_PLAYERS], b[HC_MAX_PLAYERS], ka, kb, all = 0;
            int dealer = (int)(seed % (uint64_t)players);
            CHECK_EQ(hc_deal(&c, seed, dealer, a, &ka), 0);
            hc_deal(&c, seed, dealer, b, &kb);
            CHECK(memcmp(a, b, sizeof(uint64_t) * (size_t)players) == 0 && ka == kb);
            int ok = 1;
            for (int s = 0; s < players; s++) {
                ok &= popcount(a[s]) == c.hand_size && !(all & a[s]);
                all |= a[s];
            }
            CHECK(ok && !(all & ka) && (all | ka) == c.deck && popcount(ka) == c.kitty_size);
            /* the dealer deals from their left: moving the deal rotates the hands */
            uint64_t r[HC_MAX_PLAYERS], kr;
            hc_deal(&c, seed, (dealer + 1) % players, r, &kr);
            ok = kr == ka;
            for (int s = 0; s < players; s++)
                ok &= r[(s + 1) % players] == a[s];
            CHECK(ok);
        }
    }
    hc_config c = init_ok(standard(4));
    uint64_t h[HC_MAX_PLAYERS], k;
    CHECK_EQ(hc_deal(&c, 1, 4, h, &k), -1);
    CHECK_EQ(hc_deal(&c, 1, -1, h, &k), -1);
}

static void test_deal_follows_fisher_yates_from_the_top(void)
{
    /* the contract's shuffle, spelled out: the first card dealt goes to the
     * dealer's left */
    hc_config c = init_ok(standard(4));
    uint8_t a[52];
    for (int i = 0; i < 52; i++)
        a[i] = (uint8_t)i;
    uint64_t rng = 99;
    for (int i = 51; i >= 1; i--) {
        int j = (int)hc_bounded(&rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    uint64_t h[HC_MAX_PLAYERS], k;
    hc_deal(&c, 99, 2, h, &k);
    CHECK(h[3] & (1ULL << a[0]));
    CHECK(h[0] & (1ULL << a[1]));
    CHECK(h[2] & (1ULL << a[51]));
}

/* Configuration validation ------------------------------------------------ */

static void test_config_rejects_impossible_values(void)
{
    hc_config c;
#define REJECT(field, value, code)        \
    c = standard(4);                      \
    c.field = value;                      \
    CHECK_EQ(hc_config_init(&c), code);
    REJECT(players, 1, HC_CFG_PLAYERS);
    REJECT(players, 8, HC_CFG_PLAYERS);
    REJECT(hand_size, 0, HC_CFG_HAND_SIZE);
    REJECT(hand_size, 14, HC_CFG_HAND_SIZE);
    REJECT(deck, 1ULL << 55 | 1, HC_CFG_DECK);
    REJECT(kitty_size, 1, HC_CFG_KITTY_SIZE);
    REJECT(pass_count, -1, HC_CFG_PASS_COUNT);
    REJECT(pass_count, 14, HC_CFG_PASS_COUNT);
    REJECT(opening, 4, HC_CFG_OPENING);
    REJECT(opening, -1, HC_CFG_OPENING);
    REJECT(first_trick, -1, HC_CFG_FIRST_TRICK);
    REJECT(lead_rule, 3, HC_CFG_LEAD_RULE);
    REJECT(broken_by, 4, HC_CFG_BROKEN_BY);
    REJECT(queen_hearts_lead, 2, HC_CFG_QUEEN_HEARTS_LEAD);
    REJECT(values[7], 1LL << 40, HC_CFG_VALUES);
    REJECT(doubler, -2, HC_CFG_DOUBLER);
    REJECT(doubler, 52, HC_CFG_DOUBLER);
    REJECT(moon, 6, HC_CFG_MOON);
    REJECT(moon_subtract_after, 1LL << 40, HC_CFG_MOON);
    REJECT(moon_points, -(1LL << 40), HC_CFG_MOON_POINTS);
    REJECT(moon_extra, 1ULL << 60, HC_CFG_MOON_EXTRA);
    REJECT(sun_points, 1LL << 33, HC_CFG_SUN_POINTS);
    REJECT(no_trick_bonus, INT64_MIN, HC_CFG_NO_TRICK_BONUS);
    REJECT(kitty_taker, 4, HC_CFG_KITTY_TAKER);
    REJECT(pass_forbidden, 1ULL << 55, HC_CFG_PASS_FORBIDDEN);
    REJECT(royal_queens, 2, HC_CFG_ROYAL_QUEENS);
    REJECT(royal_queens, -1, HC_CFG_ROYAL_QUEENS);
    REJECT(booster_nines, 2, HC_CFG_BOOSTER_NINES);
    REJECT(booster_nines, -1, HC_CFG_BOOSTER_NINES);
    REJECT(queen_at_first_chance, 2, HC_CFG_FLAG); /* a FLAG: checked without its own code */
    REJECT(queen_at_first_chance, -1, HC_CFG_FLAG);
    REJECT(joker_kind, 3, HC_CFG_JOKER_KIND);
    REJECT(joker_kind, -1, HC_CFG_JOKER_KIND);
    REJECT(joker_points, 1LL << 40, HC_CFG_JOKER_POINTS);
    /* jokers in the deck need a joker kind; the 1911 joker is the one card 52 */
    c = standard(4);
    c.deck = (HC_FULL_DECK & ~cards("2D 2S")) | 3ULL << 52;
    CHECK_EQ(hc_config_init(&c), HC_CFG_JOKER_KIND);
    c.joker_kind = HC_JOKER_HEART;
    CHECK_EQ(hc_config_init(&c), HC_CFG_JOKER_KIND);
    c.joker_kind = HC_JOKER_WILD;
    CHECK_EQ(hc_config_init(&c), HC_CFG_OK);
#undef REJECT
    /* a deck whose clubs can all sit in the kitty is a valid config ... */
    c = standard(4);
    c.deck = HC_FULL_DECK & ~0x1FF0ULL; /* clubs 2C..5C only */
    c.hand_size = 8;
    c.kitty_size = 43 - 32;
    CHECK_EQ(hc_config_init(&c), HC_CFG_OK);
    /* ... but a position with no club in any hand cannot open on a club */
    uint64_t hands[4] = {0}, kitty = cards("2C 3C 4C 5C"), rest = c.deck & ~kitty;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 8; i++) {
            hands[s] |= 1ULL << lowest(rest);
            rest &= rest - 1;
        }
    kitty |= rest;
    hc_hand h;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 0, 0), HC_STATE_NO_CLUB);
    c.opening = 2;
    CHECK_EQ(hc_config_init(&c), HC_CFG_OK);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 0, 0), HC_STATE_OK);
    /* the batch refuses such a deal too */
    c.opening = 1;
    c = init_ok(c);
    int64_t sched[1] = {0}, sums[4] = {0};
    uint64_t digest = HC_FNV_OFFSET;
    int rc = 0;
    for (uint64_t seed = 0; seed < 200 && rc == 0; seed++)
        rc = hc_play_random_hands(&c, seed, 0, 50, sched, 1, &digest, sums);
    CHECK_EQ(rc, -3);
    /* opening 3 (003 'HEARTLESS', lowest spade) needs a spade in some hand */
    c = standard(4);
    c.deck = HC_FULL_DECK & ~(0x1FF0ULL << 26); /* spades 2S..5S only */
    c.hand_size = 8;
    c.kitty_size = 43 - 32;
    c.opening = 3;
    c = init_ok(c);
    CHECK(c.opening_suit == cards("2S 3S 4S 5S") && c.spades == c.opening_suit);
    uint64_t sh[4] = {0}, skitty = cards("2S 3S 4S 5S"), srest = c.deck & ~skitty;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 8; i++) {
            sh[s] |= 1ULL << lowest(srest);
            srest &= srest - 1;
        }
    skitty |= srest;
    CHECK_EQ(hc_hand_init(&h, &c, sh, 4, skitty, 0, 0, 0), HC_STATE_NO_SPADE);
    CHECK(strstr(hc_state_strerror(HC_STATE_NO_SPADE), "spade") != NULL);
    rc = 0;
    digest = HC_FNV_OFFSET;
    for (uint64_t seed = 0; seed < 200 && rc == 0; seed++)
        rc = hc_play_random_hands(&c, seed, 0, 50, sched, 1, &digest, sums);
    CHECK_EQ(rc, -3);
    CHECK(strlen(hc_config_strerror(HC_CFG_PLAYERS)) > 0);
    CHECK(strlen(hc_config_strerror(999)) > 0);
}

static void test_config_derives_masks(void)
{
    hc_config c = init_ok(standard(4));
    CHECK(c.penalty == (cards("QS") | (0x1FFFULL << 39)));
    CHECK(c.point == c.penalty);
    CHECK(c.first_ban == c.penalty);
    CHECK(c.lead_ban == (0x1FFFULL << 39));
    CHECK(c.breaking == (cards("QS") | (0x1FFFULL << 39)));
    CHECK_EQ(c.queen_lead_ok, 0);
    c = standard(4);
    c.values[card("JD")] = -10;
    c.first_trick = 2;
    c.lead_rule = 2;
    c.broken_by = 2;
    c = init_ok(c);
    CHECK(c.point == (c.penalty | cards("JD")));
    CHECK(c.first_ban == c.point && c.lead_ban == c.point && c.breaking == c.point);
}

static void test_hand_init_validates_the_position(void)
{
    hc_config c = init_ok(standard(4));
    uint64_t hands[HC_MAX_PLAYERS], kitty;
    hc_hand h;
    build(&c, NULL, hands, &kitty);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, kitty, 0, 0, 0), HC_STATE_HANDS_LEN);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 4, 0, 0), HC_STATE_DEALER);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, -1, 0, 0), HC_STATE_DEALER);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 4, 0), HC_STATE_PASS_KIND);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 102, 0), HC_STATE_PASS_KIND);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 100, 0), HC_STATE_OK);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, 101, 0), HC_STATE_OK);
    uint64_t bad[4];
    memcpy(bad, hands, sizeof bad);
    bad[0] ^= 1; /* 12 cards */
    CHECK_EQ(hc_hand_init(&h, &c, bad, 4, kitty, 0, 0, 0), HC_STATE_HAND_SIZE);
    memcpy(bad, hands, sizeof bad);
    bad[1] = (bad[1] & ~(1ULL << lowest(bad[1]))) | (1ULL << lowest(bad[0]));
    CHECK_EQ(hc_hand_init(&h, &c, bad, 4, kitty, 0, 0, 0), HC_STATE_OVERLAP);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, 1, 0, 0, 0), HC_STATE_OVERLAP);
    hc_config d = standard(4);
    d.deck &= ~cards("2C 3C 4C 5C");
    d.hand_size = 12;
    d = init_ok(d);
    build(&d, NULL, hands, &kitty);
    hands[0] = (hands[0] & ~(1ULL << lowest(hands[0]))) | 1; /* the removed 2C */
    CHECK_EQ(hc_hand_init(&h, &d, hands, 4, kitty, 0, 0, 0), HC_STATE_DECK);
    hc_config raw = standard(4); /* never initialised */
    CHECK_EQ(hc_hand_init(&h, &raw, hands, 4, kitty, 0, 0, 0), HC_STATE_CONFIG);
    /* scatter needs players - 1 cards per hand */
    hc_config e = standard(7);
    e.hand_size = 5;
    e.kitty_size = 52 - 35;
    e.pass_count = 2;
    e = init_ok(e);
    CHECK(!hc_pass_kind_valid(&e, HC_PASS_SCATTER));
    CHECK(hc_pass_kind_valid(&e, 6) && hc_pass_kind_valid(&e, HC_PASS_CENTER));
    CHECK(!hc_pass_kind_valid(&e, 7) && !hc_pass_kind_valid(&e, -1));
}

/* Legal plays --------------------------------------------------------------- */

static void test_opening_lowest_club_must_be_led(void)
{
    hc_config c = init_ok(standard(4));
    const char *g[] = {"AS", NULL, "2C 3C AH", NULL};
    hc_hand *h = new_hand(&c, g, 0, HC_PASS_HOLD);
    CHECK_EQ(h->d.phase, HC_PHASE_PLAYING);
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(h->d.leader, 2);
    CHECK(hc_legal_mask(h) == cards("2C"));
    CHECK_EQ(hc_check_play(h, card("3C")), HC_ERR_MUST_LEAD_OPENING_CARD);
    CHECK_EQ(hc_check_play(h, card("AH")), HC_ERR_MUST_LEAD_OPENING_CARD);
    CHECK_EQ(hc_check_play(h, card("AS")), HC_ERR_NOT_IN_HAND);
    CHECK_EQ(hc_check_play(h, 52), HC_ERR_BAD_CARD);
    CHECK_EQ(hc_check_play(h, -1), HC_ERR_BAD_CARD);
    CHECK_EQ(hc_check_play(h, INT64_MAX), HC_ERR_BAD_CARD);
    CHECK_EQ(hc_check_play(h, card("2C")), 0);
    /* without the 2C in play the lowest club in the hands opens */
    hc_config d = standard(4);
    d.deck &= ~cards("2C 3C 4C 5C");
    d.hand_size = 12;
    d = init_ok(d);
    const char *g2[] = {NULL, "6C", NULL, NULL};
    h = new_hand(&d, g2, 0, HC_PASS_HOLD);
    CHECK(hc_legal_mask(h) == cards("6C"));
    CHECK_EQ(h->d.to_play, 1);
    CHECK_EQ(hc_check_play(h, card("2C")), HC_ERR_BAD_CARD);
}

static void test_opening_any_club(void)
{
    hc_config c = standard(4);
    c.opening = 1;
    c = init_ok(c);
    const char *g[] = {NULL, "2C 9C KC QS AH", NULL, NULL};
    hc_hand *h = new_hand(&c, g, 0, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 1);
    CHECK(hc_legal_mask(h) == (h->d.hand[1] & 0x1FFFULL));
    CHECK_EQ(hc_check_play(h, card("KC")), 0);
    CHECK_EQ(hc_check_play(h, card("QS")), HC_ERR_MUST_LEAD_CLUB);
    CHECK_EQ(hc_check_play(h, card("AH")), HC_ERR_MUST_LEAD_CLUB);
}

static void test_opening_left_of_dealer_uses_the_lead_rule(void)
{
    hc_config c = standard(4);
    c.opening = 2;
    c = init_ok(c);
    const char *g[] = {NULL, NULL, "2H 3H QS 4D", NULL};
    hc_hand *h = new_hand(&c, g, 1, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(hc_check_play(h, card("2H")), HC_ERR_NOT_BROKEN);
    /* QS is not a heart (lead rule 1) but is penalty (first-trick filter) */
    CHECK_EQ(hc_check_play(h, card("QS")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_check_play(h, card("4D")), 0);
    CHECK(!(hc_legal_mask(h) & cards("2H 3H QS")));
    /* first_trick 0: QS may be led */
    c.first_trick = 0;
    c = init_ok(c);
    h = new_hand(&c, g, 1, HC_PASS_HOLD);
    CHECK_EQ(hc_check_play(h, card("QS")), 0);
}

/* 003 'HEARTLESS': "The first card lead when the scoring suit is Hearts or
 * Spades is the Two of Clubs. Otherwise it is the Two of Spades." Opening 3:
 * the holder of the lowest spade in the hands leads it (error 5 otherwise). */
static void test_opening_lowest_spade_must_be_led(void)
{
    hc_config c = standard(4);
    c.opening = 3;
    c = init_ok(c);
    CHECK(c.opening_suit == (0x1FFFULL << 26));
    const char *g[] = {"2C", NULL, "2S 3S AH", NULL};
    hc_hand *h = new_hand(&c, g, 0, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(h->d.leader, 2);
    CHECK_EQ(h->opening_card, card("2S"));
    CHECK(hc_legal_mask(h) == cards("2S"));
    CHECK_EQ(hc_check_play(h, card("3S")), HC_ERR_MUST_LEAD_OPENING_CARD);
    CHECK_EQ(hc_check_play(h, card("AH")), HC_ERR_MUST_LEAD_OPENING_CARD);
    CHECK_EQ(hc_check_play(h, card("2C")), HC_ERR_NOT_IN_HAND);
    CHECK_EQ(hc_play(h, card("3S")), HC_ERR_MUST_LEAD_OPENING_CARD);
    CHECK_EQ(hc_play(h, card("2S")), 0);
    CHECK_EQ(h->d.to_play, 3);
    /* followers follow spades as usual; the first-trick filter still applies */
    CHECK(hc_legal_mask(h) == (h->d.hand[3] & (0x1FFFULL << 26)));
    /* without the 2S and 3S in play the lowest spade in the hands opens */
    hc_config d = standard(4);
    d.deck &= ~cards("2S 3S 4S 5S");
    d.hand_size = 12;
    d.opening = 3;
    d = init_ok(d);
    const char *g2[] = {NULL, NULL, NULL, "6S"};
    h = new_hand(&d, g2, 0, HC_PASS_HOLD);
    CHECK(hc_legal_mask(h) == cards("6S"));
    CHECK_EQ(h->d.to_play, 3);
    CHECK_EQ(hc_check_play(h, card("2S")), HC_ERR_BAD_CARD);
    /* after a pass the receiver of the 2S leads it */
    const char *g3[] = {"2S", NULL, NULL, NULL};
    h = new_hand(&c, g3, 0, 1);
    for (int s = 0; s < 4; s++) {
        /* seat 0 gives the 2S and its two lowest other cards; the others their lowest */
        int64_t give[3];
        uint64_t rest = h->d.hand[s];
        int i = 0;
        if (s == 0) {
            give[i++] = card("2S");
            rest &= ~cards("2S");
        }
        for (; i < 3; i++) {
            give[i] = lowest(rest);
            rest &= rest - 1;
        }
        CHECK_EQ(hc_apply_pass(h, s, give, 3), 0);
    }
    CHECK_EQ(h->d.to_play, 1);
    CHECK(hc_legal_mask(h) == cards("2S"));
}

static void test_follow_suit(void)
{
    hc_config c = init_ok(standard(4));
    /* seat 0 leads 2C; seat 1 holds clubs and must follow */
    const char *g[] = {"2C", "5C 8H", "KD", "9C"};
    hc_hand *h = new_hand(&c, g, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), 0);
    CHECK_EQ(h->d.to_play, 1);
    CHECK_EQ(hc_check_play(h, card("8H")), HC_ERR_MUST_FOLLOW_SUIT);
    CHECK_EQ(hc_check_play(h, card("5C")), 0);
    CHECK(hc_legal_mask(h) == (h->d.hand[1] & 0x1FFFULL));
    CHECK_EQ(hc_play(h, card("8H")), HC_ERR_MUST_FOLLOW_SUIT);
    CHECK_EQ(h->d.played, 1); /* nothing changed */
    CHECK_EQ(hc_play(h, card("5C")), 0);
    CHECK_EQ(hc_trick_len(h), 2);
}

static void test_first_trick_filter(void)
{
    hc_config c = init_ok(standard(4));
    /* seat 1 void in clubs: may discard, but no penalty card on trick 0 */
    const char *g1[] = {"2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "QS AH 2D", NULL, NULL};
    hc_hand *h = new_hand(&c, g1, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), 0);
    CHECK_EQ(hc_check_play(h, card("QS")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_check_play(h, card("AH")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_check_play(h, card("2D")), 0);
    CHECK(!(hc_legal_mask(h) & c.penalty));
    /* a seat holding only hearts and the QS may play any of them */
    const char *g2[] = {"2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS", NULL, NULL};
    h = new_hand(&c, g2, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), 0);
    CHECK(hc_legal_mask(h) == h->d.hand[1]);
    CHECK_EQ(hc_check_play(h, card("QS")), 0);
    CHECK_EQ(hc_check_play(h, card("KH")), 0);
    /* first_trick 2 bans any point card, including a negative one */
    hc_config d = standard(4);
    d.values[card("JD")] = -10;
    d.first_trick = 2;
    d = init_ok(d);
    const char *g3[] = {"2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "JD 3D", NULL, NULL};
    h = new_hand(&d, g3, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), 0);
    CHECK_EQ(hc_check_play(h, card("JD")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_check_play(h, card("3D")), 0);
    /* first_trick 1 allows the JD (value -10 is not a penalty) */
    d.first_trick = 1;
    d = init_ok(d);
    h = new_hand(&d, g3, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), 0);
    CHECK_EQ(hc_check_play(h, card("JD")), 0);
    /* the filter is checked after follow suit: a club follower is told 7 */
    const char *g4[] = {"2C", "3C QS", NULL, NULL};
    h = new_hand(&c, g4, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    CHECK_EQ(hc_check_play(h, card("QS")), HC_ERR_MUST_FOLLOW_SUIT);
}

/* Plays the rest of the current trick with each seat's lowest legal card. */
static void finish_trick(hc_hand *h)
{
    do {
        uint64_t l = hc_legal_mask(h);
        hc_play(h, lowest(l));
    } while (h->d.phase == HC_PHASE_PLAYING && hc_trick_len(h) != 0);
}

static void test_hearts_may_not_be_led_until_broken(void)
{
    hc_config c = init_ok(standard(4));
    /* seat 0 wins trick 0 with AC and must then lead */
    const char *g[] = {"AC 2H 3H 2S", "2C", "3C", "4C"};
    hc_hand *h = new_hand(&c, g, 3, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 1);
    hc_play(h, card("2C"));
    hc_play(h, card("3C"));
    hc_play(h, card("4C"));
    hc_play(h, card("AC"));
    CHECK_EQ(h->d.trick_number, 1);
    CHECK_EQ(h->d.to_play, 0);
    CHECK_EQ(h->d.broken, 0);
    CHECK_EQ(hc_check_play(h, card("2H")), HC_ERR_NOT_BROKEN);
    CHECK_EQ(hc_check_play(h, card("2S")), 0);
    CHECK(!(hc_legal_mask(h) & c.hearts));
    /* a leader holding only hearts may lead one, and that breaks hearts */
    const char *g2[] = {"AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "2C", "3C", "4C"};
    h = new_hand(&c, g2, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK_EQ(h->d.to_play, 0);
    CHECK(hc_legal_mask(h) == h->d.hand[0]);
    CHECK_EQ(hc_play(h, card("5H")), 0);
    CHECK_EQ(h->d.broken, 1);
}

static void test_queen_breaks_hearts_with_broken_by_1(void)
{
    hc_config c = init_ok(standard(4));
    /* trick 1: seat 0 leads a diamond, seat 1 (void) discards the QS */
    const char *g[] = {"AC 2D 3H", "2C QS 2H 3S 4S 5S 6S 7S 8S 9S TS JS KS", "3C", "4C"};
    hc_hand *h = new_hand(&c, g, 3, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 1);
    hc_play(h, card("2C"));
    finish_trick(h);
    CHECK_EQ(h->d.to_play, 0);
    CHECK_EQ(hc_play(h, card("2D")), 0);
    CHECK(!(h->d.hand[1] & 0x1FFFULL << 13)); /* seat 1 is void in diamonds */
    CHECK_EQ(hc_play(h, card("QS")), 0);
    CHECK_EQ(h->d.broken, 1);
    hc_config d = standard(4);
    d.broken_by = 0;
    d = init_ok(d);
    h = new_hand(&d, g, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    finish_trick(h);
    hc_play(h, card("2D"));
    CHECK_EQ(hc_play(h, card("QS")), 0);
    CHECK_EQ(h->d.broken, 0);
}

/* broken_by 3, 000 'The Play': "until a heart or the queen of spades has been
 * discarded": the QS played to a spade trick breaks nothing, discarded it breaks */
static void test_queen_breaks_hearts_only_discarded_with_broken_by_3(void)
{
    hc_config c = standard(4);
    c.broken_by = 3;
    c = init_ok(c);
    CHECK(c.breaking == c.hearts && c.queen_discard == (1ULL << HC_QS));
    /* seat 0 leads the 2S after the 2C trick; seat 1 follows with the QS */
    const char *f[] = {"AC 2S 2D", "2C QS 3S 2H", "3C 4S", "4C 5S"};
    hc_hand *h = new_hand(&c, f, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    finish_trick(h);
    CHECK_EQ(h->d.to_play, 0);
    CHECK_EQ(hc_play(h, card("2S")), 0);
    CHECK_EQ(hc_play(h, card("QS")), 0);
    CHECK_EQ(h->d.broken, 0);
    /* seat 1 (left of dealer 0, opening 2) leads the QS: nothing broken either */
    hc_config o = standard(4);
    o.broken_by = 3;
    o.opening = 2;
    o.first_trick = 0;
    o = init_ok(o);
    const char *l[] = {NULL, "QS 3S", NULL, NULL};
    h = new_hand(&o, l, 0, HC_PASS_HOLD);
    CHECK_EQ(h->d.to_play, 1);
    CHECK_EQ(hc_play(h, card("QS")), 0);
    CHECK_EQ(h->d.broken, 0);
    /* the QS discarded on a diamond lead breaks, and undoing it unbreaks */
    const char *g[] = {"AC 2D 3H", "2C QS 2H 3S 4S 5S 6S 7S 8S 9S TS JS KS", "3C", "4C"};
    h = new_hand(&c, g, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    finish_trick(h);
    hc_play(h, card("2D"));
    CHECK_EQ(hc_play(h, card("QS")), 0);
    CHECK_EQ(h->d.broken, 1);
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(h->d.broken, 0);
}

static void test_queen_hearts_lead(void)
{
    /* leader holds only hearts and the QS after trick 0 */
    const char *g[] = {"AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C", "3C", "4C"};
    hc_config c = init_ok(standard(4)); /* queen_hearts_lead 0, lead_rule 1 */
    hc_hand *h = new_hand(&c, g, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK_EQ(h->d.to_play, 0);
    CHECK(hc_legal_mask(h) == cards("QS"));
    CHECK_EQ(hc_check_play(h, card("2H")), HC_ERR_NOT_BROKEN);
    c.queen_hearts_lead = 1;
    c = init_ok(c);
    h = new_hand(&c, g, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK(hc_legal_mask(h) == h->d.hand[0]);
    CHECK_EQ(hc_check_play(h, card("2H")), 0);
    /* with another suit in hand the exception does not apply */
    const char *g2[] = {"AC QS 2H 3H 2D", "2C", "3C", "4C"};
    h = new_hand(&c, g2, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK_EQ(hc_check_play(h, card("2H")), HC_ERR_NOT_BROKEN);
    CHECK_EQ(hc_check_play(h, card("QS")), 0);
    /* lead rule 2 (points): QS and hearts are both restricted */
    hc_config d = standard(4);
    d.lead_rule = 2;
    d = init_ok(d);
    h = new_hand(&d, g2, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK_EQ(hc_check_play(h, card("QS")), HC_ERR_NOT_BROKEN);
    CHECK((hc_legal_mask(h) & cards("2D")) && !(hc_legal_mask(h) & d.point));
}

static void test_lead_rule_0_allows_any_lead(void)
{
    hc_config c = standard(4);
    c.lead_rule = 0;
    c = init_ok(c);
    const char *g[] = {"AC 2H 3H 2S", "2C", "3C", "4C"};
    hc_hand *h = new_hand(&c, g, 3, HC_PASS_HOLD);
    finish_trick(h);
    CHECK(hc_legal_mask(h) == h->d.hand[0]);
}

/* Passing -------------------------------------------------------------------- */

static void test_pass_errors_in_order(void)
{
    hc_config c = init_ok(standard(4));
    hc_hand *h = new_hand(&c, NULL, 0, 1);
    CHECK_EQ(h->d.phase, HC_PHASE_PASSING);
    CHECK_EQ(h->d.to_play, -1);
    CHECK_EQ(hc_legal_mask(h), 0);
    CHECK_EQ(hc_check_play(h, 0), HC_ERR_PASSING);
    CHECK_EQ(hc_check_play(h, 99), HC_ERR_PASSING);
    CHECK_EQ(hc_play(h, 0), HC_ERR_PASSING);
    CHECK_EQ(hc_push(h, 0), HC_ERR_PASSING);
    CHECK_EQ(hc_pop(h), -1);
    /* seat 0 holds 2C..AC (13 clubs) from build() */
    int64_t ok[3] = {0, 1, 2}, dup[3] = {0, 1, 0}, out[3] = {0, 1, 60}, foreign[3] = {0, 1, 20};
    CHECK_EQ(hc_apply_pass(h, 4, ok, 3), HC_ERR_BAD_SEAT);
    CHECK_EQ(hc_apply_pass(h, -1, ok, 3), HC_ERR_BAD_SEAT);
    CHECK_EQ(hc_apply_pass(h, 0, ok, 2), HC_ERR_PASS_COUNT);
    CHECK_EQ(hc_apply_pass(h, 0, NULL, 1000), HC_ERR_PASS_COUNT);
    CHECK_EQ(hc_apply_pass(h, 0, dup, 3), HC_ERR_PASS_DUPLICATE);
    int64_t dup_out[3] = {60, 60, 1};
    CHECK_EQ(hc_apply_pass(h, 0, dup_out, 3), HC_ERR_PASS_DUPLICATE);
    CHECK_EQ(hc_apply_pass(h, 0, out, 3), HC_ERR_PASS_NOT_IN_HAND);
    CHECK_EQ(hc_apply_pass(h, 0, foreign, 3), HC_ERR_PASS_NOT_IN_HAND);
    int64_t neg[3] = {0, -1, 2};
    CHECK_EQ(hc_apply_pass(h, 0, neg, 3), HC_ERR_PASS_NOT_IN_HAND);
    CHECK_EQ(h->passed_seats, 0);
    CHECK_EQ(hc_apply_pass(h, 0, ok, 3), 0);
    CHECK_EQ(hc_apply_pass(h, 0, ok, 3), HC_ERR_ALREADY_PASSED);
    CHECK_EQ(hc_apply_pass(h, 0, ok, 2), HC_ERR_ALREADY_PASSED);
    CHECK(h->d.hand[0] == 0x1FFFULL); /* nothing moves before the last pass */
    for (int s = 1; s < 4; s++) {
        int64_t p[3];
        uint64_t m = h->d.hand[s];
        for (int i = 0; i < 3; i++) {
            p[i] = lowest(m);
            m &= m - 1;
        }
        CHECK_EQ(hc_apply_pass(h, s, p, 3), 0);
    }
    CHECK_EQ(h->d.phase, HC_PHASE_PLAYING);
    CHECK_EQ(hc_apply_pass(h, 0, ok, 3), HC_ERR_NOT_PASSING);
    CHECK_EQ(hc_apply_pass(h, 9, ok, 3), HC_ERR_NOT_PASSING);
    /* pass left: seat 1 received seat 0's 2C 3C 4C, and leads the 2C */
    CHECK_EQ(h->received_n[1], 3);
    CHECK(h->received[1][0] == 0 && h->received[1][1] == 1 && h->received[1][2] == 2);
    CHECK_EQ(h->d.to_play, 1);
    CHECK(hc_legal_mask(h) == 1);
    CHECK_EQ(hc_pop(h), -1); /* passes are not undone */
    for (int s = 0; s < 4; s++)
        CHECK_EQ(popcount(h->d.hand[s]), 13);
}

/* Passes each seat's lowest `len` cards, in ascending order. */
static void pass_lowest(hc_hand *h)
{
    for (int s = 0; s < h->cfg->players; s++) {
        int64_t p[HC_MAX_HAND];
        uint64_t m = h->d.hand[s];
        for (int i = 0; i < h->pass_len; i++) {
            p[i] = lowest(m);
            m &= m - 1;
        }
        CHECK_EQ(hc_apply_pass(h, s, p, h->pass_len), 0);
    }
}

static void test_pass_directions(void)
{
    hc_config c = init_ok(standard(4));
    for (int kind = 1; kind <= 3; kind++) {
        hc_hand *h = new_hand(&c, NULL, 0, kind);
        uint64_t before[4], given[4];
        memcpy(before, h->d.hand, sizeof before);
        pass_lowest(h);
        for (int s = 0; s < 4; s++) {
            given[s] = 0;
            for (int i = 0; i < 3; i++)
                given[s] |= 1ULL << h->passed[s][i];
        }
        for (int s = 0; s < 4; s++)
            CHECK(h->d.hand[(s + kind) % 4] ==
                  ((before[(s + kind) % 4] & ~given[(s + kind) % 4]) | given[s]));
    }
    /* scatter: seat s's i-th card to (s + 1 + i) % n, received in giver order */
    hc_hand *h = new_hand(&c, NULL, 0, HC_PASS_SCATTER);
    CHECK_EQ(h->pass_len, 3);
    pass_lowest(h);
    for (int t = 0; t < 4; t++) {
        int m = 0, ok = h->received_n[t] == 3;
        for (int g = 0; g < 4; g++) {
            if (g == t)
                continue;
            int i = (t - g - 1 + 4) % 4;
            ok &= h->received[t][m++] == h->passed[g][i];
            ok &= (h->d.hand[t] >> h->passed[g][i]) & 1;
        }
        CHECK(ok);
    }
    /* center: the pool (seat 0 first) shuffled with seed ^ C3A5..., dealt from
     * the dealer's left */
    h = new_hand(&c, NULL, 2, HC_PASS_CENTER);
    pass_lowest(h);
    uint8_t pool[12];
    int m = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 3; i++)
            pool[m++] = h->passed[s][i];
    uint64_t rng = 42 ^ 0xC3A5C85C97CB3127ULL;
    for (int i = m - 1; i >= 1; i--) {
        int j = (int)hc_bounded(&rng, (uint64_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    int ok = 1, got[4] = {0};
    for (int k = 0; k < m; k++) {
        int t = (2 + 1 + k) % 4;
        ok &= h->received[t][got[t]++] == pool[k];
        ok &= (h->d.hand[t] >> pool[k]) & 1;
    }
    CHECK(ok);
    CHECK(got[0] == 3 && got[1] == 3 && got[2] == 3 && got[3] == 3);
}

/* 004 'Passing cards', star passing: seat s gives its card 0 to (s + n/2) % n
 * and its card 1 to (s + (n+1)/2) % n; seat t receives the card 0 of seat
 * t - n/2 first, then the card 1 of seat t - (n+1)/2. */
static void check_star_exchange(int players, int dealer)
{
    hc_config c = init_ok(standard(players));
    hc_hand *h = new_hand(&c, NULL, dealer, HC_PASS_STAR);
    CHECK_EQ(h->pass_len, 2); /* two cards, whatever pass_count (3) says */
    uint64_t first = h->d.hand[0], second = first & (first - 1), third = second & (second - 1);
    int64_t three[3] = {lowest(first), lowest(second), lowest(third)};
    CHECK_EQ(hc_apply_pass(h, 0, three, 3), HC_ERR_PASS_COUNT);
    uint64_t before[HC_MAX_PLAYERS];
    memcpy(before, h->d.hand, sizeof before);
    pass_lowest(h);
    CHECK_EQ(h->d.phase, HC_PHASE_PLAYING);
    int near = players / 2, far = (players + 1) / 2, ok = 1;
    for (int t = 0; t < players; t++) {
        int g0 = (t - near + players) % players, g1 = (t - far + players) % players;
        ok &= h->received_n[t] == 2;
        ok &= h->received[t][0] == h->passed[g0][0];
        ok &= h->received[t][1] == h->passed[g1][1];
        uint64_t gave = 1ULL << h->passed[t][0] | 1ULL << h->passed[t][1];
        uint64_t got = 1ULL << h->passed[g0][0] | 1ULL << h->passed[g1][1];
        ok &= h->d.hand[t] == ((before[t] & ~gave) | got);
        ok &= popcount(h->d.hand[t]) == c.hand_size;
    }
    CHECK(ok);
}

static void test_star_pass_routes(void)
{
    check_star_exchange(3, 0);
    check_star_exchange(5, 2);
    check_star_exchange(7, 4);
    /* spelled out for five: seat 0's cards go to seats 2 and 3; seat 0 gets the
     * card 0 of seat 3 and then the card 1 of seat 2 */
    hc_config c = init_ok(standard(5));
    hc_hand *h = new_hand(&c, NULL, 0, HC_PASS_STAR);
    pass_lowest(h);
    CHECK(h->d.hand[2] >> h->passed[0][0] & 1);
    CHECK(h->d.hand[3] >> h->passed[0][1] & 1);
    CHECK_EQ(h->received[0][0], h->passed[3][0]);
    CHECK_EQ(h->received[0][1], h->passed[2][1]);
    /* three players: card 0 to the left (s + 1), card 1 to the right (s + 2) */
    c = init_ok(standard(3));
    h = new_hand(&c, NULL, 1, HC_PASS_STAR);
    pass_lowest(h);
    CHECK(h->d.hand[1] >> h->passed[0][0] & 1);
    CHECK(h->d.hand[2] >> h->passed[0][1] & 1);
    CHECK_EQ(h->received[0][0], h->passed[2][0]);
    CHECK_EQ(h->received[0][1], h->passed[1][1]);
}

static void test_star_pass_needs_an_odd_table(void)
{
    for (int players = 4; players <= 6; players += 2) {
        hc_config c = init_ok(standard(players));
        uint64_t hands[HC_MAX_PLAYERS], kitty;
        hc_hand h;
        build(&c, NULL, hands, &kitty);
        CHECK(!hc_pass_kind_valid(&c, HC_PASS_STAR));
        CHECK_EQ(hc_hand_init(&h, &c, hands, players, kitty, 0, HC_PASS_STAR, 0),
                 HC_STATE_PASS_KIND);
        int64_t sched[2] = {1, HC_PASS_STAR}, sums[HC_MAX_PLAYERS] = {0};
        uint64_t d = HC_FNV_OFFSET;
        CHECK_EQ(hc_play_random_hands(&c, 1, 0, 2, sched, 2, &d, sums), -1);
    }
    for (int players = 3; players <= 7; players += 2) {
        hc_config c = init_ok(standard(players));
        CHECK(hc_pass_kind_valid(&c, HC_PASS_STAR));
        CHECK_EQ(hc_pass_length(&c, HC_PASS_STAR), 2);
    }
    /* two cards must fit in the hand */
    hc_config one = standard(3);
    one.hand_size = 1;
    one.kitty_size = 49;
    one.pass_count = 1;
    one.opening = 2;
    one = init_ok(one);
    CHECK(!hc_pass_kind_valid(&one, HC_PASS_STAR));
}

/* 003 'Simple variations': "Pass one card to the right and two cards to the
 * left": card i of every pass goes split[i] seats left; seat t receives card i
 * of seat t - split[i], in position order, and every hand keeps its size. */
static void test_split_pass_routes_each_card_its_own_way(void)
{
    for (int players = 3; players <= 7; players++) {
        hc_config c = init_ok(standard(players));
        uint64_t hands[HC_MAX_PLAYERS], kitty;
        build(&c, NULL, hands, &kitty);
        static hc_hand h;
        int64_t split[3] = {players - 1, 1, 1}; /* one right, two left */
        CHECK_EQ(hc_hand_init_split(&h, &c, hands, players, kitty, 0, split, 3, 5), HC_STATE_OK);
        CHECK_EQ(h.pass_kind, HC_PASS_SPLIT);
        CHECK_EQ(h.pass_len, 3);
        CHECK_EQ(h.d.phase, HC_PHASE_PASSING);
        uint64_t before[HC_MAX_PLAYERS];
        memcpy(before, h.d.hand, sizeof before);
        pass_lowest(&h);
        CHECK_EQ(h.d.phase, HC_PHASE_PLAYING);
        int ok = 1;
        for (int t = 0; t < players; t++) {
            uint64_t gave = 0, got = 0;
            for (int i = 0; i < 3; i++) {
                int giver = (int)((t - split[i] + players) % players);
                ok &= h.received[t][i] == h.passed[giver][i];
                gave |= 1ULL << h.passed[t][i];
                got |= 1ULL << h.passed[giver][i];
            }
            ok &= h.received_n[t] == 3;
            ok &= h.d.hand[t] == ((before[t] & ~gave) | got);
        }
        CHECK(ok);
        /* spelled out: seat 0's first card went right, its others left */
        CHECK(h.d.hand[players - 1] >> h.passed[0][0] & 1);
        CHECK(h.d.hand[1] >> h.passed[0][1] & 1);
        CHECK(h.d.hand[1] >> h.passed[0][2] & 1);
    }
}

static void test_split_pass_is_validated(void)
{
    hc_config c = init_ok(standard(4));
    uint64_t hands[HC_MAX_PLAYERS], kitty;
    build(&c, NULL, hands, &kitty);
    static hc_hand h;
    int64_t two[2] = {1, 3}, zero[3] = {1, 0, 3}, four[3] = {1, 4, 3}, ok3[3] = {2, 2, 1};
    /* 003: "each player passes three cards and receives three cards" */
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 0, two, 2, 0), HC_STATE_PASS_KIND);
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 0, zero, 3, 0), HC_STATE_PASS_KIND);
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 0, four, 3, 0), HC_STATE_PASS_KIND);
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 9, ok3, 3, 0), HC_STATE_DEALER);
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 0, ok3, 3, 0), HC_STATE_OK);
    /* a split is never a schedule entry */
    CHECK(!hc_pass_kind_valid(&c, HC_PASS_SPLIT));
    CHECK_EQ(hc_hand_init(&h, &c, hands, 4, kitty, 0, HC_PASS_SPLIT, 0), HC_STATE_PASS_KIND);
    /* pass errors are those of any pass */
    CHECK_EQ(hc_hand_init_split(&h, &c, hands, 4, kitty, 0, ok3, 3, 0), HC_STATE_OK);
    int64_t short_pass[2] = {lowest(h.d.hand[0]), lowest(h.d.hand[0] & (h.d.hand[0] - 1))};
    CHECK_EQ(hc_apply_pass(&h, 0, short_pass, 2), HC_ERR_PASS_COUNT);
}

/* 004 'Passing cards': "Passing the Ace, King and/or Queen of Spades may be
 * allowed or prohibited." */
static void test_pass_forbidden_cards(void)
{
    hc_config c = standard(4);
    c.pass_forbidden = cards("QS KS AS");
    c = init_ok(c);
    const char *g[] = {"2C 3C QS KS AS", NULL, NULL, NULL};
    hc_hand *h = new_hand(&c, g, 0, 1);
    int64_t queen[3] = {card("2C"), card("3C"), card("QS")};
    int64_t ace[3] = {card("AS"), card("2C"), card("3C")};
    CHECK_EQ(hc_apply_pass(h, 0, queen, 3), HC_ERR_PASS_FORBIDDEN);
    CHECK_EQ(hc_apply_pass(h, 0, ace, 3), HC_ERR_PASS_FORBIDDEN);
    CHECK_EQ(h->passed_seats, 0); /* nothing recorded */
    /* the older codes come first: count, duplicate, not in hand */
    CHECK_EQ(hc_apply_pass(h, 0, queen, 2), HC_ERR_PASS_COUNT);
    int64_t dup[3] = {card("QS"), card("QS"), card("2C")};
    CHECK_EQ(hc_apply_pass(h, 0, dup, 3), HC_ERR_PASS_DUPLICATE);
    int64_t foreign[3] = {card("QS"), card("2C"), card("AH")};
    CHECK_EQ(hc_apply_pass(h, 0, foreign, 3), HC_ERR_PASS_NOT_IN_HAND);
    /* the other seats pass freely */
    uint64_t rest = h->d.hand[1], rest2 = rest & (rest - 1), rest3 = rest2 & (rest2 - 1);
    int64_t fine[3] = {lowest(rest), lowest(rest2), lowest(rest3)};
    int64_t good[3] = {card("2C"), card("3C"), 0};
    uint64_t mine = h->d.hand[0] & ~cards("2C 3C QS KS AS");
    good[2] = lowest(mine);
    CHECK_EQ(hc_apply_pass(h, 0, good, 3), HC_OK);
    CHECK_EQ(hc_apply_pass(h, 1, fine, 3), HC_OK);
    /* star passes obey it as well */
    hc_config s5 = standard(5);
    s5.pass_forbidden = cards("QS KS AS");
    s5 = init_ok(s5);
    const char *g5[] = {"QS 3C 4C", NULL, NULL, NULL, NULL};
    h = new_hand(&s5, g5, 0, HC_PASS_STAR);
    int64_t star_bad[2] = {card("3C"), card("QS")}, star_ok[2] = {card("3C"), card("4C")};
    CHECK_EQ(hc_apply_pass(h, 0, star_bad, 2), HC_ERR_PASS_FORBIDDEN);
    CHECK_EQ(hc_apply_pass(h, 0, star_ok, 2), HC_OK);
    /* every hand must keep enough passable cards: three-card hands, one banned
     * card in play, a pass of three is impossible; hold still works */
    hc_config tiny = standard(4);
    tiny.hand_size = 3;
    tiny.kitty_size = 40;
    tiny.opening = 2;
    tiny.pass_forbidden = cards("QS");
    tiny = init_ok(tiny);
    CHECK(!hc_pass_kind_valid(&tiny, 1) && !hc_pass_kind_valid(&tiny, HC_PASS_SCATTER));
    CHECK(hc_pass_kind_valid(&tiny, HC_PASS_HOLD));
    tiny.pass_count = 2;
    tiny = init_ok(tiny);
    CHECK(hc_pass_kind_valid(&tiny, 1) && hc_pass_kind_valid(&tiny, HC_PASS_CENTER));
    /* a forbidden card that is not in play counts for nothing */
    tiny.pass_count = 3;
    tiny.deck &= ~cards("QS");
    tiny.kitty_size = 39;
    tiny.values[HC_QS] = 0;
    tiny = init_ok(tiny);
    CHECK(hc_pass_kind_valid(&tiny, 1));
}

/* Scoring --------------------------------------------------------------------- */

/* A finished hand with the given taken masks and trick counts. */
static hc_hand *over(const hc_config *c, const uint64_t taken[], const int won[])
{
    hc_hand *h = new_hand(c, NULL, 0, HC_PASS_HOLD);
    for (int s = 0; s < c->players; s++) {
        h->d.taken[s] = taken[s];
        h->d.tricks_won[s] = (uint8_t)won[s];
    }
    h->d.phase = HC_PHASE_OVER;
    return h;
}

static int64_t zero[HC_MAX_PLAYERS];

#define SCORES(h, totals, target, a, b, c_, d)                  \
    do {                                                        \
        int64_t o_[HC_MAX_PLAYERS];                             \
        CHECK_EQ(hc_points(h, totals, target, o_), 0);          \
        CHECK_EQ(o_[0], a);                                     \
        CHECK_EQ(o_[1], b);                                     \
        CHECK_EQ(o_[2], c_);                                    \
        CHECK_EQ(o_[3], d);                                     \
    } while (0)

static void test_scoring_plain_and_doubler(void)
{
    hc_config c = init_ok(standard(4));
    uint64_t t[4] = {cards("QS 2H"), cards("3H 4H 5H"), cards("6H 7H 8H 9H TH JH QH KH AH"), 0};
    int w[4] = {3, 4, 5, 1};
    hc_hand *h = over(&c, t, w);
    SCORES(h, zero, 0, 14, 3, 9, 0);
    /* 002: the 10 of clubs doubles its taker's hand score */
    c.doubler = card("TC");
    c.values[card("JD")] = -10;
    c = init_ok(c);
    uint64_t t2[4] = {cards("QS 2H TC"), cards("JD TC") & ~cards("TC"), cards("3H"), cards("4H")};
    t2[1] |= cards("5H 6H 7H 8H 9H TH JH QH KH AH");
    h = over(&c, t2, w);
    SCORES(h, zero, 0, 28, 0, 1, 1);
    uint64_t t3[4] = {cards("JD TC"), cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), 0, 0};
    h = over(&c, t3, w);
    SCORES(h, zero, 0, 6, 0, 26, 26); /* seat 1 shot the moon: -20 + 26 */
    /* not over: error */
    hc_hand *g = new_hand(&c, NULL, 0, HC_PASS_HOLD);
    int64_t o[4];
    CHECK_EQ(hc_points(g, zero, 0, o), -1);
    int64_t huge[4] = {0, 0, INT64_MAX, 0};
    h = over(&c, t3, w); /* new_hand reuses one static state */
    CHECK_EQ(hc_points(h, huge, 0, o), -2);
    CHECK_EQ(hc_points(h, zero, INT64_MIN, o), -2);
}

/* 004 'Slobberhannes': the first trick, the last trick and the QC a counter each, "If he
 * takes all three he forfeits four points"; Gong Zhu (Pagat, negated): the lone ten of
 * clubs -50, all the hearts reversed, the pig with them. */
static void test_scoring_trick_points_and_reversal(void)
{
    hc_config c = standard(4);
    for (int i = 0; i < HC_CARDS; i++)
        c.values[i] = 0;
    c.values[card("QC")] = 1;
    c.moon = 0;
    c.first_trick_points = 1;
    c.last_trick_points = 1;
    c.every_penalty_extra = 1;
    c = init_ok(c);
    uint64_t t[4] = {cards("QC 2C"), cards("3C"), 0, 0};
    int w[4] = {10, 3, 0, 0};
    hc_hand *h = over(&c, t, w);
    h->trick_winner[0] = 0;
    h->trick_winner[12] = 0;
    SCORES(h, zero, 0, 4, 0, 0, 0); /* all three: four */
    h->trick_winner[12] = 1;
    SCORES(h, zero, 0, 2, 1, 0, 0);
    h->trick_winner[0] = 2;
    SCORES(h, zero, 0, 1, 1, 1, 0);

    hc_config g = standard(4);
    for (int i = 0; i < HC_CARDS; i++)
        g.values[i] = 0;
    const char *ranks = "56789TJQKA";
    const int64_t worth[] = {10, 10, 10, 10, 10, 10, 20, 30, 40, 50};
    for (int r = 0; r < 10; r++) {
        char name[3] = {ranks[r], 'H', 0};
        g.values[card(name)] = worth[r];
    }
    g.values[HC_QS] = 100;
    g.values[card("JD")] = -100;
    g.doubler = card("TC");
    g.doubler_alone_points = -50;
    g.all_hearts_reversed = 1;
    g.all_hearts_reverse_queen = 1;
    g.moon = 0;
    g = init_ok(g);
    uint64_t hearts = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    uint64_t a[4] = {cards("TC 2C"), cards("3H QS"), hearts & ~cards("3H"), cards("JD")};
    h = over(&g, a, w);
    SCORES(h, zero, 0, -50, 100, 200, -100); /* the TC alone; no seat has every heart */
    uint64_t b[4] = {cards("TC 3H"), cards("QS"), hearts & ~cards("3H"), cards("JD")};
    h = over(&g, b, w);
    SCORES(h, zero, 0, 0, 100, 200, -100); /* "the 4, 3 and 2 of hearts are scoring cards" */
    uint64_t d[4] = {hearts | cards("QS"), cards("TC"), cards("JD"), 0};
    h = over(&g, d, w);
    SCORES(h, zero, 0, -300, -50, -100, 0); /* all reds and the pig: -200 - 100 */
    uint64_t e[4] = {hearts | cards("QS JD TC"), 0, 0, 0};
    h = over(&g, e, w);
    SCORES(h, zero, 0, -800, 0, 0, 0); /* all sixteen, doubled */
    g.all_hearts_reverse_queen = 0;
    g = init_ok(g);
    h = over(&g, d, w);
    SCORES(h, zero, 0, -100, -50, -100, 0); /* the pig not reversed: -200 + 100 */
}

static void test_scoring_moon_variants(void)
{
    uint64_t all = cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    uint64_t t[4] = {cards("2C"), all, cards("3C"), cards("4C")};
    int w[4] = {3, 6, 3, 1};
    hc_config c = init_ok(standard(4));
    SCORES(over(&c, t, w), zero, 0, 26, 0, 26, 26); /* old moon */
    c.moon = 2;
    c = init_ok(c);
    SCORES(over(&c, t, w), zero, 0, 0, -26, 0, 0); /* new moon */
    c.moon = 0;
    c = init_ok(c);
    SCORES(over(&c, t, w), zero, 0, 0, 26, 0, 0); /* no moon */
    /* shooter's choice: old while the shooter ends strictly lowest, else new */
    c.moon = 3;
    c = init_ok(c);
    SCORES(over(&c, t, w), zero, 0, 26, 0, 26, 26);
    int64_t tot[4] = {10, 50, 80, 90};
    SCORES(over(&c, t, w), tot, 0, 0, -26, 0, 0); /* 50 is not below 10 + 26 */
    int64_t tie[4] = {0, 26, 80, 90};
    SCORES(over(&c, t, w), tie, 0, 0, -26, 0, 0); /* tied after adding: subtract */
    int64_t tot2[4] = {10, 5, 80, 90};
    SCORES(over(&c, t, w), tot2, 100, 26, 0, 26, 26);
    uint64_t t4[4] = {cards("2C AD"), all, cards("3C"), cards("4C")};
    c.values[card("AD")] = -3; /* a negative card with another seat */
    c.moon_points = 20;
    c = init_ok(c);
    int64_t tot4[4] = {5, 0, 0, 0};
    SCORES(over(&c, t4, w), tot4, 0, 17, 0, 20, 20);
    /* 004 add unless losing: 100-point game, shooter 90, others 95, 63, 70 */
    hc_config a = standard(4);
    a.moon = 4;
    a = init_ok(a);
    int64_t tl[4] = {95, 90, 63, 70};
    SCORES(over(&a, t, w), tl, 100, 0, -26, 0, 0); /* old would sink the shooter */
    int64_t tw[4] = {95, 40, 63, 70};
    SCORES(over(&a, t, w), tw, 100, 26, 0, 26, 26); /* shooter stays lowest */
    int64_t tt[4] = {95, 89, 63, 70};
    SCORES(over(&a, t, w), tt, 100, 26, 0, 26, 26); /* tied lowest is not losing */
    SCORES(over(&a, t, w), tl, 0, 26, 0, 26, 26);   /* no target: always add */
    int64_t tn[4] = {5, 90, 6, 7};
    SCORES(over(&a, t, w), tn, 100, 26, 0, 26, 26); /* game not ending */
    /* moon_extra: the JD is required too */
    hc_config e = standard(4);
    e.moon_extra = cards("JD");
    e = init_ok(e);
    SCORES(over(&e, t, w), zero, 0, 0, 26, 0, 0);
    uint64_t tj[4] = {cards("2C"), all | cards("JD"), cards("3C"), cards("4C")};
    SCORES(over(&e, tj, w), zero, 0, 26, 0, 26, 26);
}

#define CHOSEN(h, totals, target, choice, a, b, c_, d)                 \
    do {                                                               \
        int64_t o_[HC_MAX_PLAYERS];                                    \
        CHECK_EQ(hc_points_choice(h, totals, target, choice, o_), 0);  \
        CHECK_EQ(o_[0], a);                                            \
        CHECK_EQ(o_[1], b);                                            \
        CHECK_EQ(o_[2], c_);                                           \
        CHECK_EQ(o_[3], d);                                            \
    } while (0)

/* 004 'Shooting the moon': the shooter's own choice where the rule offers one, and the
 * sub-rule "a player may subtract after a predetermined score has been reached". */
static void test_scoring_the_shooters_choice(void)
{
    uint64_t all = cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    uint64_t t[4] = {cards("2C"), all, cards("3C"), cards("4C")};
    int w[4] = {3, 6, 3, 1};
    int64_t worth = 0;
    hc_config c = standard(4);
    c.moon = 3;
    c = init_ok(c);
    CHECK_EQ(hc_shooter(over(&c, t, w), &worth), 1);
    CHECK_EQ(worth, 26);
    CHOSEN(over(&c, t, w), zero, 0, HC_MOON_CHOICE_SUBTRACT, 0, -26, 0, 0);
    CHOSEN(over(&c, t, w), zero, 0, HC_MOON_CHOICE_ADD, 26, 0, 26, 26);
    CHOSEN(over(&c, t, w), zero, 0, HC_MOON_CHOICE_ENGINE, 26, 0, 26, 26); /* the pick */
    int64_t o[4];
    CHECK_EQ(hc_points_choice(over(&c, t, w), zero, 0, 2, o), -3);
    /* old and new moon take no choice */
    c.moon = 1;
    c = init_ok(c);
    CHOSEN(over(&c, t, w), zero, 0, HC_MOON_CHOICE_SUBTRACT, 26, 0, 26, 26);
    /* add unless losing: a choice only where subtracting is allowed */
    c.moon = 4;
    c = init_ok(c);
    int64_t tl[4] = {95, 90, 63, 70};
    CHOSEN(over(&c, t, w), tl, 100, HC_MOON_CHOICE_ADD, 26, 0, 26, 26);
    int64_t tw[4] = {95, 40, 63, 70};
    CHOSEN(over(&c, t, w), tw, 100, HC_MOON_CHOICE_SUBTRACT, 26, 0, 26, 26);
    /* subtract after 50: add until some total has reached it, then choose */
    c.moon = 5;
    c.moon_subtract_after = 50;
    c = init_ok(c);
    int64_t below[4] = {49, 0, 10, 20};
    CHOSEN(over(&c, t, w), below, 100, HC_MOON_CHOICE_SUBTRACT, 26, 0, 26, 26);
    int64_t reached[4] = {50, 0, 10, 20};
    CHOSEN(over(&c, t, w), reached, 100, HC_MOON_CHOICE_SUBTRACT, 0, -26, 0, 0);
    CHOSEN(over(&c, t, w), reached, 100, HC_MOON_CHOICE_ADD, 26, 0, 26, 26);
    /* nobody shot: -1 */
    uint64_t none[4] = {cards("QS"), all & ~cards("QS"), 0, 0};
    CHECK_EQ(hc_shooter(over(&c, none, w), &worth), -1);
    CHECK_EQ(worth, 0);
}

static void test_scoring_sun_and_no_trick_bonus(void)
{
    hc_config c = standard(4);
    c.sun_points = 52;
    c = init_ok(c);
    uint64_t t[4] = {0, c.deck, 0, 0};
    int w[4] = {0, 13, 0, 0};
    SCORES(over(&c, t, w), zero, 0, 52, 0, 52, 52); /* sun replaces the moon */
    c.moon = 2;
    c = init_ok(c);
    SCORES(over(&c, t, w), zero, 0, 0, -52, 0, 0);
    c.moon = 0;
    c = init_ok(c);
    SCORES(over(&c, t, w), zero, 0, 0, 26, 0, 0); /* no moon: no sun either */
    /* the sun needs every trick, not just every card */
    c.moon = 1;
    c = init_ok(c);
    int w2[4] = {1, 12, 0, 0};
    SCORES(over(&c, t, w2), zero, 0, 26, 0, 26, 26);
    /* no-trick bonus, added last (also on top of a moon) */
    hc_config b = standard(4);
    b.no_trick_bonus = -5;
    b = init_ok(b);
    uint64_t t3[4] = {cards("2H"), cards("QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), 0, 0};
    int w3[4] = {6, 7, 0, 0};
    SCORES(over(&b, t3, w3), zero, 0, 1, 25, -5, -5);
    uint64_t t4[4] = {0, cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), 0, 0};
    int w4[4] = {6, 7, 0, 0};
    SCORES(over(&b, t4, w4), zero, 0, 26, 0, 21, 21);
    /* no penalty card at all: nobody shoots the moon */
    hc_config z = standard(4);
    memset(z.values, 0, sizeof z.values);
    z = init_ok(z);
    SCORES(over(&z, t4, w4), zero, 0, 0, 0, 0, 0);
}

/* 001 'VARIATION 1: BLACK MARIAH': "a player holding the Q of spades must get rid of it on
 * the first trick they legitimately can (by playing it as the first discard in a voided
 * suit, or by playing it when an opponent leads A of spades or K of spades)". */
static void test_queen_at_first_chance_goes_at_the_first_chance(void)
{
    const uint64_t qs = 1ULL << card("QS");
    hc_config c = standard(4);
    c.first_trick = 0;
    c.queen_at_first_chance = 1;
    c = init_ok(c);
    /* void in the suit led: the QS is the only legal discard */
    const char *void_holder[] = {"2C 3C", "QS 2D", "4C AS", "5C KS"};
    hc_hand *h = new_hand(&c, void_holder, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    CHECK(hc_legal_mask(h) == qs);
    CHECK_EQ(hc_check_play(h, card("2D")), HC_ERR_QUEEN_FIRST_CHANCE);
    CHECK_EQ(hc_play(h, card("QS")), HC_OK);

    /* no points on the first trick: that trick is no chance (the QS is not legal) */
    hc_config f = standard(4);
    f.queen_at_first_chance = 1;
    f = init_ok(f);
    h = new_hand(&f, void_holder, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    CHECK(!(hc_legal_mask(h) & qs));
    CHECK_EQ(hc_check_play(h, card("2D")), HC_OK);

    /* spades led: only once the trick holds the AS or KS */
    hc_config s = standard(4);
    s.first_trick = 0;
    s.opening = 2;
    s.queen_at_first_chance = 1;
    s = init_ok(s);
    const char *spades[] = {"AS 3S", "QS 2S", "4S 5S", "6S 7S"};
    h = new_hand(&s, spades, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("AS")), HC_OK);
    CHECK(hc_legal_mask(h) == qs);
    CHECK_EQ(hc_check_play(h, card("2S")), HC_ERR_QUEEN_FIRST_CHANCE);
    h = new_hand(&s, spades, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("3S")), HC_OK);
    CHECK(hc_legal_mask(h) == (qs | 1ULL << card("2S")));
    CHECK_EQ(hc_check_play(h, card("2S")), HC_OK);
}

/* 004 'Other Variations': "Booster Nines - if a nine is played then an extra round in
 * the suit is played": the nine of the suit led makes the next trick's leader lead that
 * suit again if he holds it, even hearts before they are broken. */
static void test_booster_nine_of_the_suit_led_forces_the_next_lead(void)
{
    hc_config c = standard(4);
    c.booster_nines = 1;
    c = init_ok(c);
    const char *given[] = {"2C 5D 6D", "9C 2S", "AC KC 2D 4H", "3C 3S"};
    hc_hand *h = new_hand(&c, given, 3, HC_PASS_HOLD);
    CHECK_EQ(h->d.booster, -1);
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    CHECK_EQ(hc_play(h, card("9C")), HC_OK);
    CHECK_EQ(hc_play(h, card("AC")), HC_OK);
    CHECK_EQ(h->d.booster, -1); /* set when the trick is finished */
    CHECK_EQ(hc_play(h, card("3C")), HC_OK);
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(h->d.booster, 0);
    CHECK_EQ(hc_check_play(h, card("2D")), HC_ERR_BOOSTER_SUIT);
    CHECK_EQ(hc_check_play(h, card("4H")), HC_ERR_BOOSTER_SUIT);
    CHECK(hc_legal_mask(h) == (h->d.hand[2] & HC_SUIT_MASK));
    CHECK_EQ(hc_play(h, card("2D")), HC_ERR_BOOSTER_SUIT);
    CHECK_EQ(hc_play(h, card("KC")), HC_OK);
    CHECK_EQ(h->d.booster, 0); /* the obligation stays while its trick is played */
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(h->d.booster, -1); /* undone with the trick */

    /* without booster_nines the same position leads freely (but no heart) */
    hc_config p = init_ok(standard(4));
    h = new_hand(&p, given, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    hc_play(h, card("9C"));
    hc_play(h, card("AC"));
    hc_play(h, card("3C"));
    CHECK_EQ(h->d.booster, -1);
    CHECK_EQ(hc_check_play(h, card("2D")), HC_OK);

    /* a leader void in the suit leads under the usual rules (no heart before broken) */
    const char *void_leader[] = {"2C 9C", "3C", "4C", "AC 2D 4H 5H 6H 7H 8H 9H TH JH QH KH AH"};
    h = new_hand(&c, void_leader, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    hc_play(h, card("3C"));
    hc_play(h, card("4C"));
    CHECK_EQ(h->d.booster, -1);
    hc_play(h, card("AC"));
    CHECK_EQ(h->d.booster, -1); /* 2C led: the nine of clubs was not in that trick */
}

/* A booster heart lead: a nine of hearts played to a heart trick makes the winner lead a
 * heart next, though a heart lead is otherwise refused before breaking -- here hearts are
 * broken by the heart trick anyway; what the override matters for is lead_rule 2, where a
 * point card may not be led before points are broken. */
static void test_booster_overrides_the_lead_rule(void)
{
    hc_config c = standard(4);
    c.booster_nines = 1;
    c.lead_rule = 2;   /* no point card led until broken */
    c.broken_by = 0;   /* only hearts break */
    c.values[card("JD")] = -10;
    c = init_ok(c);
    const char *given[] = {"2C 9D", "3C JD 2S", "4C TD", "5C 3D"};
    hc_hand *h = new_hand(&c, given, 3, HC_PASS_HOLD);
    hc_play(h, card("2C"));
    hc_play(h, card("3C"));
    hc_play(h, card("4C"));
    hc_play(h, card("5C"));
    CHECK_EQ(h->d.to_play, 3);
    /* seat 3 leads a diamond; seat 0 plays the 9D, seat 1 wins with the JD */
    uint64_t d3 = h->d.hand[3] & (HC_SUIT_MASK << 13);
    CHECK(d3 != 0);
    CHECK_EQ(hc_play(h, lowest(d3)), HC_OK);
    CHECK_EQ(hc_play(h, card("9D")), HC_OK);
    CHECK_EQ(hc_play(h, card("JD")), HC_OK);
    CHECK_EQ(hc_play(h, card("TD")), HC_OK);
    CHECK_EQ(h->d.to_play, 1);
    CHECK_EQ(h->d.booster, 1);
    CHECK(!h->d.broken);
    /* seat 1's diamonds must be led: its point-free cards (the 2S) are refused */
    CHECK_EQ(hc_check_play(h, card("2S")), HC_ERR_BOOSTER_SUIT);
}

/* 004 'Other Variations': "Joker Hearts - adding the joker cards, which can be played
 * any time and count for zero points"; 004 'Deal': three players, two jokers, 18 cards. */
static hc_config wild_jokers(int jokers)
{
    hc_config c = standard(3);
    c.deck = HC_FULL_DECK | ((1ULL << jokers) - 1) << HC_JOKER0;
    c.hand_size = (52 + jokers) / 3;
    c.kitty_size = (52 + jokers) % 3;
    c.joker_kind = HC_JOKER_WILD;
    return init_ok(c);
}

static void test_wild_joker_may_be_played_holding_the_suit_and_never_wins(void)
{
    hc_config c = wild_jokers(2);
    CHECK_EQ(c.hand_size, 18);
    CHECK(c.values[HC_JOKER0] == 0 && !(c.point & c.jokers));
    const char *given[] = {"2C 3D", "AC KC JK1 2S", "QC JK2 3S"};
    hc_hand *h = new_hand(&c, given, 2, HC_PASS_HOLD);
    CHECK(!(hc_legal_mask(h) & c.jokers)); /* the opening lead is the 2C */
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    /* seat 1 holds clubs, and may still play its joker */
    CHECK(hc_legal_mask(h) & BIT_OF(card("JK1")));
    CHECK_EQ(hc_check_play(h, card("2S")), HC_ERR_MUST_FOLLOW_SUIT);
    CHECK_EQ(hc_play(h, card("JK1")), HC_OK);
    CHECK_EQ(hc_play(h, card("QC")), HC_OK);
    CHECK_EQ(h->trick_winner[0], 2); /* the joker never wins */
    /* seat 2 leads its joker: the next card sets the suit */
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(hc_play(h, card("JK2")), HC_OK);
    CHECK(hc_legal_mask(h) == h->d.hand[0]); /* no suit yet: anything but a heart rule */
    CHECK_EQ(hc_play(h, card("3D")), HC_OK);
    uint64_t dia = h->d.hand[1] & (HC_SUIT_MASK << 13);
    CHECK(dia == 0 || hc_legal_mask(h) == dia);
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(h->d.to_play, 2);
}

static void test_wild_jokers_only_trick_goes_to_its_leader(void)
{
    hc_config c = wild_jokers(3);
    CHECK_EQ(c.hand_size, 18);
    CHECK_EQ(c.kitty_size, 1);
    const char *given[] = {"2C JK1", "3C JK2", "4C JK3"};
    hc_hand *h = new_hand(&c, given, 2, HC_PASS_HOLD);
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    CHECK_EQ(hc_play(h, card("3C")), HC_OK);
    CHECK_EQ(hc_play(h, card("4C")), HC_OK);
    CHECK_EQ(h->d.to_play, 2);
    CHECK_EQ(hc_play(h, card("JK3")), HC_OK);
    CHECK_EQ(hc_play(h, card("JK1")), HC_OK);
    CHECK_EQ(hc_play(h, card("JK2")), HC_OK);
    CHECK_EQ(h->trick_winner[1], 2);
    CHECK_EQ(h->d.to_play, 2);
}

/* 004 (1911) 'Joker Hearts': the 2H out, the joker in, a heart between the TH and JH
 * worth 5 to its taker, played only after a higher heart is in the trick. */
/* A small explicit deal: every seat's cards given, the deck exactly their union. */
static hc_hand *joker_1911_hand(const char *const given[4])
{
    static hc_config c;
    static hc_hand st;
    uint64_t hands[4];
    c = standard(4);
    c.deck = 0;
    for (int s = 0; s < 4; s++)
        c.deck |= hands[s] = cards(given[s]);
    c.hand_size = popcount(hands[0]);
    for (int i = 0; i < 52; i++)
        c.values[i] = c.deck >> i & 1 && i >= 39 ? 1 : 0;
    c.values[HC_QS] = c.deck >> HC_QS & 1 ? 13 : 0;
    c.joker_kind = HC_JOKER_HEART;
    c.joker_points = 5;
    c.first_trick = 0;
    c = init_ok(c);
    if (hc_hand_init(&st, &c, hands, 4, 0, 3, HC_PASS_HOLD, 1) != HC_STATE_OK)
        exit(2);
    return &st;
}

static void test_joker_1911_refused_as_a_discard_until_an_opponent_discards_a_high_heart(void)
{
    /* "if an opponent discards the ace or a court card of hearts, then the holder of the
     * joker may discard it" -- and not before */
    const char *refused[] = {"2C 3S 4S", "3C JK1 5D", "4C KH 6D", "5C 9S 7D"};
    hc_hand *h = joker_1911_hand(refused);
    const char *plays[] = {"2C", "3C", "4C", "5C", "9S", "3S"};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(hc_play(h, card(plays[i])), HC_OK);
    CHECK_EQ(hc_check_play(h, card("JK1")), HC_ERR_JOKER_HELD);
    CHECK(hc_legal_mask(h) == cards("5D"));
    const char *allowed[] = {"2C 3S 4S", "3C KH 5D", "4C JK1 6D", "5C 9S 7D"};
    h = joker_1911_hand(allowed);
    for (int i = 0; i < 6; i++)
        CHECK_EQ(hc_play(h, card(plays[i])), HC_OK);
    CHECK_EQ(hc_play(h, card("KH")), HC_OK); /* an opponent discards a court heart */
    CHECK(hc_legal_mask(h) == cards("JK1 6D"));
    CHECK_EQ(hc_play(h, card("JK1")), HC_OK);
    CHECK_EQ(hc_play(h, card("7D")), HC_OK);
    CHECK_EQ(h->trick_winner[1], 3);
    CHECK(h->d.taken[3] & BIT_OF(HC_JOKER0));
}

static void test_joker_1911_rules_in_one_trick(void)
{
    /* a four-card deal where every seat is void of what it needs */
    const char *given[] = {"2C 3S 4S 5S", "3C JK1 2D 3D", "4C AH 6S 7S", "5C 8S KH QH"};
    uint64_t hands[4];
    hc_config c = standard(4);
    c.deck = 0;
    for (int s = 0; s < 4; s++)
        c.deck |= hands[s] = cards(given[s]);
    c.hand_size = 4;
    c.kitty_size = 0;
    for (int i = 0; i < 52; i++)
        c.values[i] = c.deck >> i & 1 && i >= 39 ? 1 : 0;
    c.joker_kind = HC_JOKER_HEART;
    c.joker_points = 5;
    c.first_trick = 0;
    c.lead_rule = 0;
    c.moon = 0;
    c = init_ok(c);
    static hc_hand st;
    CHECK_EQ(hc_hand_init(&st, &c, hands, 4, 0, 3, HC_PASS_HOLD, 1), HC_STATE_OK);
    hc_hand *h = &st;
    CHECK_EQ(hc_play(h, card("2C")), HC_OK);
    CHECK_EQ(hc_play(h, card("3C")), HC_OK);
    CHECK_EQ(hc_play(h, card("4C")), HC_OK);
    CHECK_EQ(hc_play(h, card("5C")), HC_OK); /* seat 3 wins, leads */
    CHECK_EQ(hc_play(h, card("8S")), HC_OK);
    CHECK_EQ(hc_play(h, card("3S")), HC_OK);
    /* seat 1: void in spades, holds the joker and diamonds: the joker is refused */
    CHECK_EQ(hc_check_play(h, card("JK1")), HC_ERR_JOKER_HELD);
    CHECK_EQ(hc_play(h, card("2D")), HC_OK);
    CHECK_EQ(hc_play(h, card("6S")), HC_OK);
    /* seat 3 wins with the 8S; a heart lead, KH: seat 0 void, discards */
    CHECK_EQ(h->d.to_play, 3);
    CHECK_EQ(hc_play(h, card("KH")), HC_OK);
    CHECK_EQ(hc_play(h, card("4S")), HC_OK);
    /* seat 1 follows hearts with the joker (its only heart) after the KH: allowed */
    CHECK(hc_legal_mask(h) == BIT_OF(HC_JOKER0));
    CHECK_EQ(hc_play(h, card("JK1")), HC_OK);
    CHECK_EQ(hc_play(h, card("AH")), HC_OK);
    CHECK_EQ(h->trick_winner[2], 2);
    CHECK(h->d.taken[2] & BIT_OF(HC_JOKER0));
    while (h->d.phase == HC_PHASE_PLAYING)
        hc_play(h, lowest(hc_legal_mask(h)));
    int64_t out[4];
    CHECK_EQ(hc_points(h, zero, 0, out), 0);
    CHECK(out[2] >= 5 + 2); /* the joker's 5 and the KH, AH */
}

/* 004 'Royal Hearts' (royal_queens): the QS 26, the QD -10, the QH doubles its
 * taker's hearts, the QC cancels its taker's QS, no hand below 0, and a moon
 * worth the shooter's own score. */
static hc_config royal(void)
{
    hc_config c = standard(4);
    c.values[HC_QS] = 26;
    c.values[card("QD")] = -10;
    c.royal_queens = 1;
    c.moon_points = 999; /* ignored: the moon is worth the shooter's score */
    return init_ok(c);
}

static void test_scoring_royal_moon_is_the_shooters_own_score(void)
{
    /* 004: 52 with neither helping queen, "the Q-diamond (-10) makes the benefit
     * 42 points, the Q-club (-26 with Q-spade) reduces it to 26, and both of
     * these combined make the reward only 16 points" */
    const uint64_t all = cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    const char *extra[4] = {"", "QD", "QC", "QD QC"};
    const int64_t worth[4] = {52, 42, 26, 16};
    int w[4] = {3, 7, 2, 1};
    for (int i = 0; i < 4; i++) {
        uint64_t mine = all | cards(extra[i]);
        uint64_t rest = cards("QD QC") & ~mine;
        uint64_t t[4] = {cards("2C") | rest, mine, cards("3C"), cards("4C")};
        hc_config c = royal();
        SCORES(over(&c, t, w), zero, 0, worth[i], 0, worth[i], worth[i]); /* old */
        c.moon = 2;
        c = init_ok(c);
        SCORES(over(&c, t, w), zero, 0, 0, -worth[i], 0, 0); /* new; seat 0's QD floored */
        c.moon = 0;
        c = init_ok(c);
        SCORES(over(&c, t, w), zero, 0, 0, worth[i], 0, 0);
    }
    /* without royal_queens the same hand is a plain moon of moon_points */
    hc_config p = royal();
    p.royal_queens = 0;
    p.moon_points = 26;
    p = init_ok(p);
    uint64_t t[4] = {cards("2C"), all | cards("QD QC"), cards("3C"), cards("4C")};
    SCORES(over(&p, t, w), zero, 0, 26, 0, 26, 26);
    /* a sun keeps its own worth */
    hc_config s = royal();
    s.sun_points = 52;
    s = init_ok(s);
    uint64_t ts[4] = {0, s.deck, 0, 0};
    int ws[4] = {0, 13, 0, 0};
    SCORES(over(&s, ts, ws), zero, 0, 52, 0, 52, 52);
}

static void test_scoring_royal_queens(void)
{
    hc_config c = royal();
    c.moon = 0;
    c = init_ok(c);
    int w[4] = {3, 4, 5, 1};
    /* the QH doubles the hearts of its taker only (and counts as one of them) */
    uint64_t t1[4] = {cards("QH 2H 3H"), cards("4H 5H"), cards("QS"), 0};
    SCORES(over(&c, t1, w), zero, 0, 6, 2, 26, 0);
    /* the QC cancels the QS of the seat that took both ... */
    uint64_t t2[4] = {cards("QS QC 2H"), 0, 0, 0};
    SCORES(over(&c, t2, w), zero, 0, 1, 0, 0, 0);
    /* ... and nothing when another seat took it */
    uint64_t t3[4] = {cards("QS 2H"), cards("QC"), 0, 0};
    SCORES(over(&c, t3, w), zero, 0, 27, 0, 0, 0);
    /* the QD subtracts 10, but no hand goes below 0 */
    uint64_t t4[4] = {cards("QD 2H 3H"), 0, cards("QS"), 0};
    SCORES(over(&c, t4, w), zero, 0, 0, 0, 26, 0);
    uint64_t t5[4] = {cards("QD QS 2H"), 0, 0, 0};
    SCORES(over(&c, t5, w), zero, 0, 17, 0, 0, 0);
    /* the floor comes before the no-trick bonus */
    c.no_trick_bonus = -5;
    c = init_ok(c);
    int w6[4] = {13, 0, 0, 0};
    uint64_t t6[4] = {cards("QD 2H"), 0, 0, 0};
    SCORES(over(&c, t6, w6), zero, 0, 0, -5, -5, -5);
    /* royal_queens 0 keeps plain sums */
    c = royal();
    c.moon = 0;
    c.royal_queens = 0;
    c = init_ok(c);
    SCORES(over(&c, t1, w), zero, 0, 3, 2, 26, 0);
    SCORES(over(&c, t2, w), zero, 0, 27, 0, 0, 0);
    SCORES(over(&c, t4, w), zero, 0, -8, 0, 26, 0);
}

/* Kitty ----------------------------------------------------------------------- */

/* Plays a hand out with the lowest legal card each time. */
static void play_lowest(hc_hand *h)
{
    while (h->d.phase == HC_PHASE_PLAYING)
        CHECK_EQ(hc_play(h, lowest(hc_legal_mask(h))), 0);
}

static void test_kitty_takers(void)
{
    /* three players: 17 cards each and a one-card kitty */
    hc_config c = init_ok(standard(3));
    for (uint64_t seed = 0; seed < 40; seed++) {
        uint64_t hands[3], kitty;
        hc_deal(&c, seed, 0, hands, &kitty);
        hc_hand h;
        CHECK_EQ(hc_hand_init(&h, &c, hands, 3, kitty, 0, 0, seed), 0);
        CHECK_EQ(h.d.kitty_owner, -1);
        CHECK_EQ(hc_play(&h, lowest(hc_legal_mask(&h))), 0);
        while (hc_trick_len(&h))
            hc_play(&h, lowest(hc_legal_mask(&h)));
        CHECK_EQ(h.d.kitty_owner, h.trick_winner[0]); /* winner of trick 0 */
        CHECK(h.d.taken[h.d.kitty_owner] & kitty);
        play_lowest(&h);
        CHECK_EQ(h.d.tricks_won[0] + h.d.tricks_won[1] + h.d.tricks_won[2], 17);
    }
    hc_config k = standard(3);
    k.kitty_taker = 1;
    k = init_ok(k);
    for (uint64_t seed = 0; seed < 40; seed++) {
        uint64_t hands[3], kitty;
        hc_deal(&k, seed, 1, hands, &kitty);
        hc_hand h;
        hc_hand_init(&h, &k, hands, 3, kitty, 1, 0, seed);
        play_lowest(&h);
        int expect = h.trick_winner[16];
        for (int t = 16; t >= 0; t--) {
            uint64_t tm = 0;
            for (int i = 0; i < 3; i++)
                tm |= 1ULL << h.plays[t * 3 + i];
            if (tm & k.point)
                expect = h.trick_winner[t];
        }
        CHECK_EQ(h.d.kitty_owner, expect);
        CHECK(h.d.taken[expect] & kitty);
    }
}

/* kitty_taker 2 (004 'Deal': "goes to whoever takes the first heart") and 3 (004 'The
 * Kitty and the First Trick': "the first trick takes one card, and the second trick
 * takes the next") */
static void test_kitty_to_the_first_heart_and_a_card_a_trick(void)
{
    hc_config k = standard(3);
    k.kitty_taker = 2;
    k = init_ok(k);
    for (uint64_t seed = 0; seed < 40; seed++) {
        uint64_t hands[3], kitty;
        hc_deal(&k, seed, 2, hands, &kitty);
        hc_hand h;
        hc_hand_init(&h, &k, hands, 3, kitty, 2, 0, seed);
        play_lowest(&h);
        int expect = h.trick_winner[16];
        for (int t = 16; t >= 0; t--) {
            uint64_t tm = 0;
            for (int i = 0; i < 3; i++)
                tm |= 1ULL << h.plays[t * 3 + i];
            if (tm & k.hearts)
                expect = h.trick_winner[t];
        }
        CHECK_EQ(h.d.kitty_owner, expect);
        CHECK(h.d.taken[expect] & kitty);
    }
    /* seven players, 7 cards each and a kitty of three, a card a trick */
    hc_config e = standard(7);
    e.kitty_taker = 3;
    e = init_ok(e);
    CHECK_EQ(e.kitty_size, 3);
    for (uint64_t seed = 0; seed < 40; seed++) {
        uint64_t hands[7], kitty;
        hc_deal(&e, seed, 0, hands, &kitty);
        hc_hand h;
        hc_hand_init(&h, &e, hands, 7, kitty, 0, 0, seed);
        play_lowest(&h);
        uint64_t rest = kitty;
        for (int t = 0; t < 3; t++) {
            uint64_t low = rest & (0 - rest);
            CHECK(h.d.taken[h.trick_winner[t]] & low);
            rest &= rest - 1;
        }
        CHECK_EQ(h.d.kitty_owner, h.trick_winner[0]);
    }
}

/* Two players (004, 1911: "played by two, three, four or even more"): 26 cards each */
static void test_two_players_deal_the_whole_pack(void)
{
    hc_config c = init_ok(standard(2));
    CHECK(c.hand_size == 26 && c.kitty_size == 0);
    uint64_t hands[2], kitty;
    hc_deal(&c, 5, 1, hands, &kitty);
    CHECK(popcount(hands[0]) == 26 && (hands[0] | hands[1]) == HC_FULL_DECK && !kitty);
    hc_hand h;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 2, kitty, 1, 1, 5), 0);
    CHECK_EQ(hc_pass_kind_valid(&c, 1), 1);
    CHECK_EQ(hc_pass_kind_valid(&c, HC_PASS_STAR), 0);
    pass_lowest(&h);
    play_lowest(&h);
    CHECK_EQ(h.d.tricks_won[0] + h.d.tricks_won[1], 26);
}

/* Undo ------------------------------------------------------------------------- */

static void test_push_pop_restores_state(void)
{
    hc_config c = init_ok(standard(4));
    uint64_t rng = 5;
    for (int game = 0; game < 50; game++) {
        uint64_t hands[4], kitty;
        hc_deal(&c, (uint64_t)game, game % 4, hands, &kitty);
        static hc_hand h, start;
        hc_hand_init(&h, &c, hands, 4, kitty, game % 4, 0, 0);
        start = h;
        hc_dyn snaps[HC_MAX_PLAYS + 1];
        int k = 0;
        while (h.d.phase == HC_PHASE_PLAYING) {
            snaps[k++] = h.d;
            uint64_t l = hc_legal_mask(&h);
            int pick = (int)hc_bounded(&rng, (uint64_t)popcount(l));
            while (pick--)
                l &= l - 1;
            CHECK_EQ(game % 2 ? hc_push(&h, lowest(l)) : hc_play(&h, lowest(l)), 0);
        }
        CHECK_EQ(k, 52);
        CHECK_EQ(h.d.to_play, -1);
        CHECK_EQ(h.d.trick_number, 13);
        CHECK_EQ(hc_push(&h, 0), HC_ERR_HAND_OVER);
        CHECK_EQ(hc_play(&h, 0), HC_ERR_HAND_OVER);
        CHECK_EQ(hc_check_play(&h, 0), HC_ERR_HAND_OVER);
        int ok = 1;
        while (k > 0) {
            ok &= hc_pop(&h) == 0;
            ok &= memcmp(&h.d, &snaps[--k], sizeof h.d) == 0;
        }
        CHECK(ok);
        CHECK_EQ(hc_pop(&h), -1);
        CHECK(memcmp(&h.d, &start.d, sizeof h.d) == 0);
    }
    /* push checks what keeps the state consistent, nothing more */
    hc_hand *h = new_hand(&c, NULL, 3, HC_PASS_HOLD);
    CHECK_EQ(hc_push(h, 60), HC_ERR_BAD_CARD);
    CHECK_EQ(hc_push(h, -5), HC_ERR_BAD_CARD);
    CHECK_EQ(hc_push(h, card("AS")), HC_ERR_NOT_IN_HAND);
    CHECK_EQ(hc_push(h, card("3C")), 0); /* rule-illegal, structurally fine */
    CHECK_EQ(hc_pop(h), 0);
    CHECK_EQ(hc_pop(h), -1);
}

/* Playouts ------------------------------------------------------------------- */

/* The random policy by hand, with the contract's rng: the k-th lowest legal card. */
static void manual_random_playout(hc_hand *h, uint64_t seed, int64_t out[])
{
    uint64_t rng = seed;
    int pushed = 0;
    while (h->d.phase == HC_PHASE_PLAYING) {
        uint64_t l = hc_legal_mask(h);
        int k = (int)hc_bounded(&rng, (uint64_t)popcount(l));
        while (k--)
            l &= l - 1;
        hc_push(h, lowest(l));
        pushed++;
    }
    hc_points(h, (const int64_t[HC_MAX_PLAYERS]){0}, 0, out);
    while (pushed--)
        hc_pop(h);
}

static void test_playout_restores_the_state_and_scores_the_hand(void)
{
    hc_config c = init_ok(standard(4));
    uint64_t rng = 99;
    int restored = 1, scored = 1, random_agrees = 1, deterministic = 1;
    for (int game = 0; game < 200; game++) {
        uint64_t hands[4], kitty;
        hc_deal(&c, (uint64_t)game * 7919, game % 4, hands, &kitty);
        static hc_hand h, before;
        hc_hand_init(&h, &c, hands, 4, kitty, game % 4, 0, 0);
        int steps = (int)hc_bounded(&rng, 52);
        for (int i = 0; i < steps; i++) {
            uint64_t l = hc_legal_mask(&h);
            hc_play(&h, lowest(l));
        }
        before = h;
        for (int policy = HC_POLICY_RANDOM; policy <= HC_POLICY_MIXED; policy++) {
            int64_t out[4], again[4], manual[4];
            uint64_t seed = hc_splitmix_next(&rng);
            CHECK_EQ(hc_playout(&h, seed, policy, out), 0);
            restored &= memcmp(&h.d, &before.d, sizeof h.d) == 0 && h.undo_len == before.undo_len;
            int64_t sum = out[0] + out[1] + out[2] + out[3];
            scored &= sum == 26 || sum == 78;
            CHECK_EQ(hc_playout(&h, seed, policy, again), 0);
            deterministic &= memcmp(out, again, sizeof out) == 0;
            if (policy == HC_POLICY_RANDOM) {
                manual_random_playout(&h, seed, manual);
                random_agrees &= memcmp(out, manual, sizeof out) == 0;
            }
        }
        /* the undo stack still undoes every play made before the playouts */
        int popped = 0;
        while (hc_pop(&h) == 0)
            popped++;
        restored &= popped == steps;
    }
    CHECK(restored);
    CHECK(scored);
    CHECK(random_agrees);
    CHECK(deterministic);
    /* passing: refused; unknown policy: refused; over: the hand's own points */
    int64_t out[4], pts[4];
    hc_hand *h = new_hand(&c, NULL, 0, 1);
    CHECK_EQ(hc_playout(h, 1, HC_POLICY_GREEDY, out), -1);
    h = new_hand(&c, NULL, 0, HC_PASS_HOLD);
    CHECK_EQ(hc_playout(h, 1, 3, out), -2);
    CHECK_EQ(hc_playout(h, 1, -1, out), -2);
    while (h->d.phase == HC_PHASE_PLAYING)
        hc_play(h, lowest(hc_legal_mask(h)));
    CHECK_EQ(hc_playout(h, 1, HC_POLICY_GREEDY, out), 0);
    hc_points(h, (const int64_t[HC_MAX_PLAYERS]){0}, 0, pts);
    CHECK(memcmp(out, pts, sizeof out) == 0);
}

static void test_greedy_playout_of_a_seat_holding_every_club(void)
{
    /* Seat 0 holds every club, leads them one by one (the lowest rank first) and wins
     * every trick, whatever the others shed: all 26 points, an old moon. */
    hc_config c = init_ok(standard(4));
    const char *given[4] = {
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD QS",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    };
    hc_hand *h = new_hand(&c, given, 3, HC_PASS_HOLD);
    int64_t out[4];
    CHECK_EQ(hc_playout(h, 0, HC_POLICY_GREEDY, out), 0);
    CHECK_EQ(out[0], 0);
    CHECK_EQ(out[1], 26);
    CHECK_EQ(out[2], 26);
    CHECK_EQ(out[3], 26);
    CHECK_EQ(h->d.played, 0);
}

/* Random play ----------------------------------------------------------------- */

static uint64_t test_rng = 12345;

static int64_t rnd(int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)hc_bounded(&test_rng, (uint64_t)(hi - lo + 1));
}

static hc_config random_config(void)
{
    for (;;) {
        hc_config c;
        memset(&c, 0, sizeof c);
        c.players = rnd(2, 7); /* 004 (1911): "played by two, three, four or even more" */
        c.deck = HC_FULL_DECK;
        int removed = (int)rnd(0, 12);
        for (int i = 0; i < removed; i++)
            c.deck &= ~(1ULL << rnd(0, 51));
        int size = popcount(c.deck);
        int64_t max_hand = size / c.players;
        if (max_hand > HC_MAX_HAND)
            max_hand = HC_MAX_HAND;
        c.hand_size = rnd(1, max_hand);
        c.kitty_size = size - c.players * c.hand_size;
        c.pass_count = rnd(0, c.hand_size < 4 ? c.hand_size : 4);
        c.opening = rnd(0, 3);
        if (c.opening != 3 && popcount(c.deck & 0x1FFFULL) <= c.kitty_size)
            c.opening = 2; /* a deal could leave every club in the kitty */
        if (c.opening == 3 && popcount(c.deck & (0x1FFFULL << 26)) <= c.kitty_size)
            c.opening = 2; /* ... or every spade */
        c.first_trick = rnd(0, 2);
        c.lead_rule = rnd(0, 2);
        c.broken_by = rnd(0, 3);
        c.queen_hearts_lead = rnd(0, 1);
        int style = (int)rnd(0, 2);
        for (int i = 0; i < 52; i++) {
            if (!(c.deck >> i & 1))
                continue;
            if (style == 0)
                c.values[i] = i >= 39;
            else if (style == 1)
                c.values[i] = rnd(0, 5) == 0 ? rnd(-10, 13) : 0;
        }
        if (style != 2)
            c.values[HC_QS] = c.deck >> HC_QS & 1 ? 13 : 0;
        c.doubler = rnd(0, 3) ? -1 : rnd(0, 51);
        c.moon = rnd(0, 4);
        c.moon_points = rnd(-5, 30);
        c.moon_extra = rnd(0, 2) ? 0 : 1ULL << rnd(0, 51);
        c.sun_points = rnd(0, 2) ? 0 : rnd(-5, 60);
        c.no_trick_bonus = rnd(0, 2) ? 0 : rnd(-5, 10);
        c.kitty_taker = rnd(0, 3);
        /* 004 'Passing cards': the AS, KS, QS (or any cards) kept from the pass */
        c.pass_forbidden = 0;
        if (rnd(0, 3) == 0) {
            int banned = (int)rnd(1, 4);
            for (int i = 0; i < banned; i++)
                c.pass_forbidden |= 1ULL << rnd(0, 51);
        }
        /* 004 'Royal Hearts' scoring, sometimes with its QS 26 and QD -10 */
        c.royal_queens = rnd(0, 3) == 0;
        if (c.royal_queens && rnd(0, 1)) {
            c.values[HC_QS] = c.deck >> HC_QS & 1 ? 26 : 0;
            c.values[card("QD")] = c.deck >> card("QD") & 1 ? -10 : 0;
        }
        /* 004 'Other Variations': Booster Nines */
        c.booster_nines = rnd(0, 3) == 0;
        /* 004 'Joker Hearts': wild jokers, or the 1911 joker for the 2H */
        c.joker_kind = rnd(0, 3);
        if (c.joker_kind == HC_JOKER_WILD || (c.joker_kind == HC_JOKER_HEART && rnd(0, 1))) {
            int add = c.joker_kind == HC_JOKER_WILD ? (int)rnd(1, 3) : 1;
            c.deck |= ((1ULL << add) - 1) << HC_JOKER0;
            c.kitty_size += add; /* the same hands, a bigger kitty */
            if (c.opening != 3 && popcount(c.deck & 0x1FFFULL) <= c.kitty_size)
                c.opening = 2; /* which could now hold every club ... */
            if (c.opening == 3 && popcount(c.deck & (0x1FFFULL << 26)) <= c.kitty_size)
                c.opening = 2; /* ... or every spade */
            c.joker_points = c.joker_kind == HC_JOKER_HEART ? 5 : rnd(0, 4) == 0 ? rnd(-3, 3) : 0;
        } else if (c.joker_kind == 3) {
            c.joker_kind = 0;
        }
        if (hc_config_init(&c) == HC_CFG_OK)
            return c;
    }
}

static int64_t random_kind(const hc_config *c)
{
    for (;;) {
        int64_t k = rnd(0, c->players + 2);
        if (k == c->players)
            k = HC_PASS_SCATTER;
        else if (k == c->players + 1)
            k = HC_PASS_CENTER;
        else if (k == c->players + 2)
            k = HC_PASS_STAR;
        if (hc_pass_kind_valid(c, k))
            return k;
    }
}

static int kth(uint64_t set, uint64_t k)
{
    while (k--)
        set &= set - 1;
    return lowest(set);
}

#define FNV(h, c) ((h) = ((h) ^ (uint64_t)(c)) * HC_FNV_PRIME)

/* The random batch replayed through the hand state, from the contract text. */
static void replay_batch(const hc_config *c, uint64_t seed, uint64_t count, const int64_t *sched,
                         int nsched, uint64_t *digest, int64_t sums[], int *ok)
{
    uint64_t master = seed, h = HC_FNV_OFFSET;
    int n = (int)c->players;
    memset(sums, 0, sizeof(int64_t) * (size_t)n);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t hs = hc_splitmix_next(&master), hands[HC_MAX_PLAYERS], kitty;
        int dealer = (int)(i % (uint64_t)n);
        int64_t kind = sched[i % (uint64_t)nsched];
        hc_deal(c, hs, dealer, hands, &kitty);
        static hc_hand st;
        *ok &= hc_hand_init(&st, c, hands, n, kitty, dealer, kind, hs) == 0;
        uint64_t policy = hs ^ 0x5851F42D4C957F2DULL;
        if (kind != HC_PASS_HOLD) {
            for (int s = 0; s < n; s++) {
                uint64_t rest = hands[s];
                int64_t chosen[HC_MAX_HAND];
                for (int j = 0; j < st.pass_len; j++) {
                    uint64_t allowed = rest & ~c->pass_forbidden;
                    int x = kth(allowed, hc_bounded(&policy, (uint64_t)popcount(allowed)));
                    rest &= ~(1ULL << x);
                    chosen[j] = x;
                    FNV(h, x);
                }
                *ok &= hc_apply_pass(&st, s, chosen, st.pass_len) == 0;
            }
        }
        uint64_t played = 0;
        while (st.d.phase == HC_PHASE_PLAYING) {
            uint64_t l = hc_legal_mask(&st);
            *ok &= l != 0 && (l & ~st.d.hand[st.d.to_play]) == 0;
            int x = kth(l, hc_bounded(&policy, (uint64_t)popcount(l)));
            FNV(h, x);
            *ok &= hc_play(&st, x) == 0;
            *ok &= !(played >> x & 1);
            played |= 1ULL << x;
        }
        /* invariants: every dealt card played once, everything taken */
        uint64_t dealt = c->deck & ~kitty, taken = 0;
        int tricks = 0;
        for (int s = 0; s < n; s++) {
            *ok &= st.d.hand[s] == 0;
            *ok &= !(taken & st.d.taken[s]);
            taken |= st.d.taken[s];
            tricks += st.d.tricks_won[s];
        }
        *ok &= played == dealt && taken == c->deck && tricks == c->hand_size;
        /* the kitty goes whole to its taker, or (kitty_taker 3, 004 'The Kitty and the
         * First Trick') a card a trick, its "owner" being the first trick's winner */
        *ok &= st.d.kitty_owner >= 0 &&
               (c->kitty_taker == 3 ? st.d.kitty_owner == st.trick_winner[0]
                                    : (st.d.taken[st.d.kitty_owner] & kitty) == kitty);
        int64_t out[HC_MAX_PLAYERS], total = 0, expected = 0;
        *ok &= hc_points(&st, zero, 0, out) == 0;
        for (int s = 0; s < n; s++) {
            sums[s] += out[s];
            total += out[s];
        }
        for (int x = 0; x < HC_ALL_CARDS; x++)
            expected += c->deck >> x & 1 ? c->values[x] : 0;
        int moon = c->moon_required &&
                   ((st.d.taken[0] & c->moon_required) == c->moon_required ||
                    (st.d.taken[1] & c->moon_required) == c->moon_required ||
                    (st.d.taken[2] & c->moon_required) == c->moon_required ||
                    (n > 3 && (st.d.taken[3] & c->moon_required) == c->moon_required) ||
                    (n > 4 && (st.d.taken[4] & c->moon_required) == c->moon_required) ||
                    (n > 5 && (st.d.taken[5] & c->moon_required) == c->moon_required) ||
                    (n > 6 && (st.d.taken[6] & c->moon_required) == c->moon_required));
        int sun = c->sun_points > 0;
        if (c->moon == 0 || (!moon && !sun)) {
            if (c->doubler < 0 && c->no_trick_bonus == 0 && !c->royal_queens)
                *ok &= total == expected;
        }
    }
    *digest = h;
}

static void test_random_play_invariants_and_batch_agreement(void)
{
    int ok = 1, agree = 1, tried = 0;
    for (int round = 0; round < 300; round++) {
        hc_config c = round == 0 ? init_ok(standard(4)) : random_config();
        int64_t sched[4];
        int ns = (int)rnd(1, 4);
        for (int i = 0; i < ns; i++)
            sched[i] = random_kind(&c);
        uint64_t seed = hc_splitmix_next(&test_rng), count = (uint64_t)rnd(1, 12);
        uint64_t d1;
        int64_t s1[HC_MAX_PLAYERS];
        replay_batch(&c, seed, count, sched, ns, &d1, s1, &ok);
        for (int v = HC_BATCH_AUTO; v <= HC_BATCH_HAND_STATE; v++) {
            uint64_t d2 = HC_FNV_OFFSET;
            int64_t s2[HC_MAX_PLAYERS] = {0};
            int rc = hc_play_random_hands_with(v, &c, seed, 0, count, sched, ns, &d2, s2);
            if (rc == -2)
                continue; /* the CPU lacks this variant */
            tried++;
            size_t sums_size = sizeof(int64_t) * (size_t)c.players;
            agree &= rc == 0 && d1 == d2 && memcmp(s1, s2, sums_size) == 0;
            /* resumable: two chunks give the same result */
            uint64_t d3 = HC_FNV_OFFSET;
            int64_t s3[HC_MAX_PLAYERS] = {0};
            hc_play_random_hands_with(v, &c, seed, 0, count / 2, sched, ns, &d3, s3);
            uint64_t half = count / 2;
            hc_play_random_hands_with(v, &c, seed, half, count - half, sched, ns, &d3, s3);
            agree &= d3 == d1 && memcmp(s1, s3, sums_size) == 0;
        }
    }
    CHECK(ok);
    CHECK(agree);
    CHECK(tried >= 600);
    /* invalid schedules and configs are refused */
    hc_config c = init_ok(standard(4));
    int64_t bad[1] = {4}, good[1] = {1};
    uint64_t d = 0;
    int64_t s[4] = {0};
    CHECK_EQ(hc_play_random_hands(&c, 1, 0, 1, bad, 1, &d, s), -1);
    CHECK_EQ(hc_play_random_hands(&c, 1, 0, 1, good, 0, &d, s), -1);
    CHECK_EQ(hc_play_random_hands_with(99, &c, 1, 0, 1, good, 1, &d, s), -2);
    hc_config raw = standard(4);
    CHECK_EQ(hc_play_random_hands(&raw, 1, 0, 1, good, 1, &d, s), -1);
    d = HC_FNV_OFFSET;
    CHECK_EQ(hc_play_random_hands(&c, 1, 0, 0, good, 1, &d, s), 0);
    CHECK(d == HC_FNV_OFFSET && s[0] == 0);
}

/* The random batch passes only cards it may; with nothing forbidden its
 * stream is the one it always was. */
static void test_batch_passes_only_allowed_cards(void)
{
    hc_config c = standard(5);
    c.pass_forbidden = cards("QS KS AS");
    c = init_ok(c);
    int64_t sched[4] = {HC_PASS_STAR, 1, HC_PASS_SCATTER, HC_PASS_CENTER};
    uint64_t d1, d2 = HC_FNV_OFFSET;
    int64_t s1[HC_MAX_PLAYERS], s2[HC_MAX_PLAYERS] = {0};
    int ok = 1;
    replay_batch(&c, 77, 40, sched, 4, &d1, s1, &ok);
    CHECK(ok); /* every pass of the replay was accepted: none held a spade honour */
    CHECK_EQ(hc_play_random_hands(&c, 77, 0, 40, sched, 4, &d2, s2), 0);
    CHECK(d1 == d2 && memcmp(s1, s2, sizeof(int64_t) * 5) == 0);
    /* forbidding cards changes the choices, so the digest too */
    hc_config free_ = init_ok(standard(5));
    uint64_t d3 = HC_FNV_OFFSET;
    int64_t s3[HC_MAX_PLAYERS] = {0};
    CHECK_EQ(hc_play_random_hands(&free_, 77, 0, 40, sched, 4, &d3, s3), 0);
    CHECK(d3 != d2);
}

static void test_standard_batch_totals(void)
{
    /* old moon, 26 points per hand: sum = 26 per hand plus 52 per moon */
    hc_config c = init_ok(standard(4));
    int64_t sched[4] = {1, 3, 2, 0}, s[4] = {0};
    uint64_t d = HC_FNV_OFFSET;
    CHECK_EQ(hc_play_random_hands(&c, 2024, 0, 20000, sched, 4, &d, s), 0);
    int64_t total = s[0] + s[1] + s[2] + s[3];
    CHECK(total >= 26 * 20000 && (total - 26 * 20000) % 52 == 0);
}

/* 002's extra cards on the first trick (extra_cards_first_trick) -------------------
 * 002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards
 * to players and allow the player with them to play an additional card on the first
 * trick." */

/* The standard game for 3 or 5 players with the extra cards dealt, not a kitty. */
static hc_config extra_config(int players)
{
    hc_config c = standard(players);
    c.kitty_size = 0;
    c.extra_cards_first_trick = 1;
    return init_ok(c);
}

/* As build(), the seats in `longer` (a bit per seat) filled to hand_size + 1. */
static void build_extra(const hc_config *c, const char *const given[], unsigned longer,
                        uint64_t hands[])
{
    int n = (int)c->players;
    uint64_t used = 0;
    for (int s = 0; s < n; s++) {
        hands[s] = given && given[s] ? cards(given[s]) : 0;
        used |= hands[s];
    }
    uint64_t rest = c->deck & ~used;
    for (int s = 0; s < n; s++) {
        while (popcount(hands[s]) < c->hand_size + (int)(longer >> s & 1)) {
            hands[s] |= 1ULL << lowest(rest);
            rest &= rest - 1;
        }
    }
}

static void test_extra_cards_config_errors(void)
{
    hc_config c = extra_config(3);
    CHECK_EQ(c.extra, 1);
    CHECK_EQ(extra_config(5).extra, 2);
    CHECK_EQ(init_ok(standard(3)).extra, 0); /* the flag off: a kitty, no extra */
    /* a kitty with the flag */
    c = standard(3);
    c.extra_cards_first_trick = 1;
    CHECK_EQ(hc_config_init(&c), HC_CFG_KITTY_SIZE);
    /* an even deal with the flag: no extra card */
    c = standard(4);
    c.extra_cards_first_trick = 1;
    CHECK_EQ(hc_config_init(&c), HC_CFG_KITTY_SIZE);
    /* as many extra cards as players (or more) */
    c = standard(3);
    c.hand_size = 16; /* 4 left over */
    c.kitty_size = 0;
    c.extra_cards_first_trick = 1;
    CHECK_EQ(hc_config_init(&c), HC_CFG_KITTY_SIZE);
    c.deck &= ~BIT_OF(card("2D")) & ~BIT_OF(card("3D")) & ~BIT_OF(card("4D")); /* 49: 1 */
    CHECK_EQ(hc_config_init(&c), HC_CFG_OK);
    CHECK_EQ(c.extra, 1);
    c.extra_cards_first_trick = 2;
    CHECK_EQ(hc_config_init(&c), HC_CFG_FLAG);
    CHECK(strstr(hc_config_strerror(HC_CFG_KITTY_SIZE), "extra_cards_first_trick") != NULL);
    /* an altered `extra` makes the config insane */
    c = extra_config(3);
    c.extra = 0;
    uint64_t hands[3], kitty;
    CHECK_EQ(hc_deal(&c, 1, 0, hands, &kitty), -1);
}

static void test_extra_cards_deal_gives_the_extras_to_the_dealers_left(void)
{
    hc_config c = extra_config(5);
    hc_config plain = init_ok(standard(5));
    for (int dealer = 0; dealer < 5; dealer++) {
        uint64_t hands[5], kitty = 1, ph[5], pk;
        CHECK_EQ(hc_deal(&c, 77, dealer, hands, &kitty), 0);
        hc_deal(&plain, 77, dealer, ph, &pk);
        uint64_t all = 0;
        for (int s = 0; s < 5; s++) {
            int left = (s - dealer - 1 + 5) % 5; /* 0 for the dealer's left */
            CHECK_EQ(popcount(hands[s]), left < 2 ? 11 : 10);
            CHECK(!(all & hands[s]));
            all |= hands[s];
        }
        CHECK(all == HC_FULL_DECK && kitty == 0);
        /* the same shuffle: what was the kitty goes round from the dealer's left */
        uint64_t got = 0;
        for (int s = 0; s < 5; s++)
            got |= hands[s] & ~ph[s];
        CHECK(got == pk && (hands[(dealer + 1) % 5] & ~ph[(dealer + 1) % 5]) != 0);
        hc_hand h;
        CHECK_EQ(hc_hand_init(&h, &c, hands, 5, kitty, dealer, 1, 77), HC_STATE_OK);
    }
}

static void test_extra_cards_hand_init_checks_the_hand_sizes(void)
{
    hc_config c = extra_config(3);
    uint64_t hands[3], kitty;
    hc_hand h;
    build_extra(&c, NULL, 1u << 1, hands); /* any seat may hold the extra card */
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, 0, 0, 0, 1), HC_STATE_OK);
    build_extra(&c, NULL, 0, hands); /* 17 each and a kitty */
    kitty = c.deck & ~(hands[0] | hands[1] | hands[2]);
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, kitty, 0, 0, 1), HC_STATE_HAND_SIZE);
    build_extra(&c, NULL, 1u << 2, hands); /* 17 17 18, then one moved: 16 18 18 */
    uint64_t one = hands[0] & (0 - hands[0]);
    hands[0] &= ~one;
    hands[1] |= one;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, 0, 0, 0, 1), HC_STATE_HAND_SIZE);
    CHECK(strstr(hc_state_strerror(HC_STATE_HAND_SIZE), "extra_cards_first_trick") != NULL);
    /* without the flag, a hand of hand_size + 1 is refused as ever */
    hc_config plain = init_ok(standard(3));
    build_extra(&plain, NULL, 1u << 0, hands);
    CHECK_EQ(hc_hand_init(&h, &plain, hands, 3, 0, 0, 0, 1), HC_STATE_HAND_SIZE);
}

/* Three players, 52 cards: the seat with 18 cards plays twice on trick 0, after the
 * round; its extra card (a club: it must follow) wins the trick; pop undoes it. */
static void test_extra_cards_three_players_the_holder_plays_twice(void)
{
    hc_config c = extra_config(3);
    const char *given[3] = {"2C", "5C", "3C 9C"};
    uint64_t hands[3];
    build_extra(&c, given, 1u << 2, hands);
    CHECK_EQ(popcount(hands[2] & c.clubs), 2); /* seat 0 took every other club */
    static hc_hand h;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, 0, 2, HC_PASS_HOLD, 1), HC_STATE_OK);
    CHECK_EQ(h.d.to_play, 0);
    CHECK_EQ(hc_play(&h, card("2C")), 0);
    CHECK_EQ(h.d.to_play, 1);
    CHECK_EQ(hc_play(&h, card("5C")), 0);
    CHECK_EQ(h.d.to_play, 2);
    CHECK_EQ(hc_trick_len(&h), 2);
    CHECK(hc_legal_mask(&h) == cards("3C 9C"));
    CHECK_EQ(hc_play(&h, card("3C")), 0);
    /* the round is over; the holder of the extra card plays again */
    CHECK_EQ(h.d.trick_number, 0);
    CHECK_EQ(h.d.to_play, 2);
    CHECK_EQ(hc_trick_len(&h), 3);
    CHECK(hc_legal_mask(&h) == cards("9C"));
    CHECK_EQ(hc_check_play(&h, lowest(hands[2] & ~c.clubs)), HC_ERR_MUST_FOLLOW_SUIT);
    hc_dyn before = h.d;
    CHECK_EQ(hc_play(&h, card("9C")), 0);
    CHECK_EQ(h.d.trick_number, 1);
    CHECK_EQ(hc_trick_len(&h), 0);
    CHECK_EQ(h.trick_leader[0], 0);
    CHECK_EQ(h.trick_winner[0], 2); /* the extra card won */
    CHECK_EQ(h.d.to_play, 2);
    CHECK(h.d.taken[2] == cards("2C 5C 3C 9C"));
    for (int s = 0; s < 3; s++)
        CHECK_EQ(popcount(h.d.hand[s]), 16);
    CHECK(h.plays[0] == card("2C") && h.plays[1] == card("5C") && h.plays[2] == card("3C") &&
          h.plays[3] == card("9C"));
    /* pop undoes the extra play, then the round's last */
    CHECK_EQ(hc_pop(&h), 0);
    CHECK(memcmp(&h.d, &before, sizeof before) == 0);
    CHECK_EQ(h.d.to_play, 2);
    CHECK_EQ(hc_trick_len(&h), 3);
    CHECK_EQ(hc_pop(&h), 0);
    CHECK_EQ(h.d.to_play, 2);
    CHECK_EQ(hc_trick_len(&h), 2);
    CHECK(h.d.hand[2] & BIT_OF(card("3C")));
    CHECK_EQ(hc_push(&h, card("9C")), 0); /* the other order: 9C in the round */
    CHECK_EQ(h.d.to_play, 2);
    CHECK_EQ(hc_push(&h, card("3C")), 0);
    CHECK_EQ(h.trick_winner[0], 2);
    /* the later tricks hold 3 cards; 17 tricks in all */
    int lens_ok = 1, tricks = 1;
    while (h.d.phase == HC_PHASE_PLAYING) {
        int t = h.d.trick_number;
        lens_ok &= hc_trick_len(&h) == h.d.played - 4 - 3 * (t - 1);
        CHECK_EQ(hc_play(&h, lowest(hc_legal_mask(&h))), 0);
        tricks += h.d.trick_number != t;
    }
    CHECK(lens_ok);
    CHECK_EQ(tricks, 17);
    CHECK_EQ(h.d.played, 52);
    CHECK_EQ(h.d.tricks_won[0] + h.d.tricks_won[1] + h.d.tricks_won[2], 17);
    int64_t out[3];
    CHECK_EQ(hc_points(&h, zero, 0, out), 0);
    CHECK_EQ(out[0] + out[1] + out[2] == 26 || out[0] + out[1] + out[2] == 52, 1);
}

/* Five players, two holders: they play in order from the leader, the leader first
 * when it holds one; a holder that cannot follow discards on its extra card, and the
 * first-trick ban holds. */
static void test_extra_cards_five_players_holders_play_in_order_from_the_leader(void)
{
    hc_config c = extra_config(5);
    const char *given[5] = {NULL, "4C 2D 3D AH KH QH JH TH 9H QS 8H", NULL, "2C 3C", NULL};
    uint64_t hands[5];
    build_extra(&c, given, 1u << 1 | 1u << 3, hands);
    static hc_hand h;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 5, 0, 0, HC_PASS_HOLD, 1), HC_STATE_OK);
    CHECK_EQ(h.d.leader, 3); /* the holder of the 2C, itself a holder */
    int order[5] = {3, 4, 0, 1, 2};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(h.d.to_play, order[i]);
        CHECK_EQ(hc_trick_len(&h), i);
        CHECK_EQ(hc_play(&h, lowest(hc_legal_mask(&h))), 0);
    }
    CHECK(!(h.d.hand[1] & c.clubs));
    /* the leader's extra card first, then seat 1's */
    CHECK_EQ(h.d.to_play, 3);
    CHECK_EQ(hc_trick_len(&h), 5);
    CHECK(hc_legal_mask(&h) == (h.d.hand[3] & c.clubs));
    CHECK_EQ(hc_play(&h, lowest(hc_legal_mask(&h))), 0);
    CHECK_EQ(h.d.to_play, 1);
    CHECK_EQ(hc_trick_len(&h), 6);
    CHECK(hc_legal_mask(&h) == cards("2D 3D")); /* a discard, no points on trick 0 */
    CHECK_EQ(hc_check_play(&h, card("QS")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_check_play(&h, card("AH")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_play(&h, card("QS")), HC_ERR_FIRST_TRICK_POINTS);
    CHECK_EQ(hc_play(&h, card("3D")), 0);
    CHECK_EQ(h.d.trick_number, 1);
    CHECK_EQ(hc_trick_len(&h), 0);
    CHECK(popcount(h.d.taken[h.trick_winner[0]]) == 7);
    for (int s = 0; s < 5; s++)
        CHECK_EQ(popcount(h.d.hand[s]), 9);
    CHECK_EQ(h.d.to_play, h.trick_winner[0]);
    CHECK_EQ(hc_play(&h, lowest(hc_legal_mask(&h))), 0);
    CHECK_EQ(hc_trick_len(&h), 1);
    play_lowest(&h);
    CHECK_EQ(h.d.played, 52);
    CHECK_EQ(h.d.trick_number, 10);
}

/* The greedy policy's "last to play" is the trick's last card: the 4th card of a
 * 3-player first trick with one extra card, not the 3rd.  Seat 0 leads the 2C and
 * holds the extra card.  Seat 2, third in the round and not the last, must win: it
 * plays its lowest club, the 5C; seat 0, the last, must win too and plays its highest,
 * the KC.  Seat 0 then leads the 7C, seat 2's 9C wins it and takes the QS seat 1
 * discards.  (With the old "players - 1" test, seat 2 plays the 9C, seat 0 ducks with
 * the 7C and later takes the QS with its KC.) */
static void test_extra_cards_greedy_last_to_play_is_the_tricks_last_card(void)
{
    hc_config c = standard(3);
    c.deck = cards("2C 3C 5C 7C 9C KC QS");
    c.hand_size = 2;
    c.kitty_size = 0;
    c.pass_count = 0;
    c.moon = 0;
    c.extra_cards_first_trick = 1;
    c = init_ok(c);
    uint64_t hands[3] = {cards("2C 7C KC"), cards("3C QS"), cards("5C 9C")};
    static hc_hand h;
    CHECK_EQ(hc_hand_init(&h, &c, hands, 3, 0, 2, HC_PASS_HOLD, 1), HC_STATE_OK);
    int64_t out[3];
    CHECK_EQ(hc_playout(&h, 0, HC_POLICY_GREEDY, out), 0);
    CHECK_EQ(out[0], 0);
    CHECK_EQ(out[1], 0);
    CHECK_EQ(out[2], 13);
    CHECK_EQ(h.d.played, 0);
    /* played by hand: the same */
    const char *line[] = {"2C", "3C", "5C", "KC", "7C", "QS", "9C"};
    for (int i = 0; i < 7; i++)
        CHECK_EQ(hc_play(&h, card(line[i])), 0);
    CHECK_EQ(h.trick_winner[0], 0);
    CHECK_EQ(h.trick_winner[1], 2);
    CHECK_EQ(hc_points(&h, zero, 0, out), 0);
    CHECK_EQ(out[2], 13);
}

/* Random deals with the extra cards: every trick has the right length, the holders
 * play in order, and the batch equals the hands played through the hand state. */
static void test_extra_cards_random_play_and_batch_agreement(void)
{
    int ok = 1, agree = 1, lens = 1, configs = 0;
    for (int round = 0; configs < 120 && round < 2000; round++) {
        hc_config c = random_config();
        int size = popcount(c.deck), n = (int)c.players;
        if (size % n == 0 || size / n > HC_MAX_HAND)
            continue;
        c.hand_size = size / n;
        if (c.pass_count > c.hand_size)
            c.pass_count = c.hand_size;
        c.kitty_size = 0;
        c.extra_cards_first_trick = 1;
        if (hc_config_init(&c) != HC_CFG_OK)
            continue;
        configs++;
        int64_t sched[4];
        int ns = (int)rnd(1, 4);
        for (int i = 0; i < ns; i++)
            sched[i] = random_kind(&c);
        uint64_t seed = hc_splitmix_next(&test_rng), count = (uint64_t)rnd(1, 8);
        uint64_t d1;
        int64_t s1[HC_MAX_PLAYERS];
        replay_batch(&c, seed, count, sched, ns, &d1, s1, &ok);
        for (int v = HC_BATCH_AUTO; v <= HC_BATCH_HAND_STATE; v++) {
            uint64_t d2 = HC_FNV_OFFSET;
            int64_t s2[HC_MAX_PLAYERS] = {0};
            int rc = hc_play_random_hands_with(v, &c, seed, 0, count, sched, ns, &d2, s2);
            if (rc == -2)
                continue;
            agree &= rc == 0 && d1 == d2 && memcmp(s1, s2, sizeof(int64_t) * (size_t)n) == 0;
        }
        /* one hand by hand: the trick lengths and who plays the extra cards */
        uint64_t hands[HC_MAX_PLAYERS], kitty;
        int dealer = (int)rnd(0, n - 1);
        hc_deal(&c, seed, dealer, hands, &kitty);
        static hc_hand h;
        if (hc_hand_init(&h, &c, hands, n, kitty, dealer, HC_PASS_HOLD, seed) != HC_STATE_OK) {
            ok = 0;
            continue;
        }
        int k = 0, first = n + c.extra;
        while (h.d.phase == HC_PHASE_PLAYING) {
            int expect = k < first ? k : (k - first) % n;
            lens &= hc_trick_len(&h) == expect;
            if (k >= n && k < first) {
                /* the first seat from the leader still holding hand_size cards */
                int s = h.d.leader;
                while (popcount(h.d.hand[s]) < c.hand_size)
                    s = (s + 1) % n;
                lens &= h.d.to_play == s && popcount(h.d.hand[s]) == c.hand_size;
            }
            uint64_t l = hc_legal_mask(&h);
            int x = kth(l, (uint64_t)rnd(0, popcount(l) - 1));
            ok &= hc_play(&h, x) == 0;
            k++;
        }
        lens &= k == size && h.d.trick_number == c.hand_size;
        /* playouts from the first trick's extra cards restore the position */
        while (h.d.played > n && hc_pop(&h) == 0)
            ;
        lens &= h.d.played == n && hc_trick_len(&h) == n;
        hc_dyn before = h.d;
        int64_t out[HC_MAX_PLAYERS];
        for (int policy = HC_POLICY_RANDOM; policy <= HC_POLICY_MIXED; policy++) {
            ok &= hc_playout(&h, seed, policy, out) == 0;
            ok &= memcmp(&h.d, &before, sizeof before) == 0;
        }
    }
    CHECK(configs >= 100);
    CHECK(ok);
    CHECK(agree);
    CHECK(lens);
}

/* The two batch paths (issue 30) --------------------------------------------------
 * The fast straight-line loop and the hand state must give one digest and the same
 * sums for every config the fast loop plays, and hc_batch_path says which one a
 * config takes: the `standard` preset (the QS breaks hearts only when discarded) had
 * fallen to the hand-state path, three times slower, and nothing said so. */

/* 1 if every fast variant the CPU has gives the digest and the sums of
 * HC_BATCH_HAND_STATE on `count` hands of `c`, and the config takes the fast path. */
static int fast_batch_matches_hand_state(const hc_config *c, uint64_t seed, uint64_t count,
                                         const int64_t *sched, int ns)
{
    uint64_t d0 = HC_FNV_OFFSET;
    int64_t s0[HC_MAX_PLAYERS] = {0};
    int ok = hc_batch_path(c) == HC_BATCH_PATH_FAST &&
             hc_play_random_hands_with(HC_BATCH_HAND_STATE, c, seed, 0, count, sched, ns, &d0,
                                       s0) == 0;
    int tried = 0;
    for (int v = HC_BATCH_AUTO; v <= HC_BATCH_BMI2; v++) {
        uint64_t d = HC_FNV_OFFSET;
        int64_t s[HC_MAX_PLAYERS] = {0};
        int rc = hc_play_random_hands_with(v, c, seed, 0, count, sched, ns, &d, s);
        if (rc == -2)
            continue; /* the CPU lacks this variant */
        tried++;
        ok &= rc == 0 && d == d0 && memcmp(s, s0, sizeof(int64_t) * (size_t)c->players) == 0;
    }
    return ok && tried >= 2;
}

/* 000 'The Play': "until a heart or the queen of spades has been discarded" (broken_by
 * 3), the rest as standard(): the `standard` preset's config. */
static hc_config queen_discarded(int players)
{
    hc_config c = standard(players);
    c.broken_by = 3;
    return c;
}

static void test_batch_paths_agree_on_the_rules_the_fast_loop_plays(void)
{
    int64_t four[4] = {1, 3, 2, 0}, odd[3] = {1, 2, 0}, hold[1] = {0};
    /* the standard preset */
    hc_config c = init_ok(queen_discarded(4));
    CHECK(fast_batch_matches_hand_state(&c, 2026, 3000, four, 4));
    /* with Booster Nines (the booster_nines preset) */
    c = queen_discarded(4);
    c.booster_nines = 1;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 9, 2000, four, 4));
    /* 001 'BLACK MARIAH' purist: the QS at the first chance, points on the first trick
     * barred, the kitty-free pack, any point card breaks */
    c = standard(4);
    c.first_trick = 2;
    c.lead_rule = 2;
    c.broken_by = 2;
    c.kitty_taker = 1;
    c.queen_at_first_chance = 1;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 13, 2000, four, 4));
    /* ... and free first tricks with any lead, so the QS may go on the first trick */
    c.first_trick = 0;
    c.opening = 2;
    c.lead_rule = 0;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 14, 2000, hold, 1));
    /* 004 'Deal': the kitty to the first heart (3 players), and a card a trick (7) */
    c = queen_discarded(3);
    c.kitty_taker = 2;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 3, 2000, odd, 3));
    c = queen_discarded(7);
    c.kitty_taker = 3;
    c = init_ok(c);
    CHECK_EQ(c.kitty_size, 3);
    CHECK(fast_batch_matches_hand_state(&c, 7, 2000, odd, 3));
    /* 004 'Slobberhannes': the first and last tricks and all three */
    c = standard(4);
    for (int i = 0; i < HC_CARDS; i++)
        c.values[i] = 0;
    c.values[card("QC")] = 1;
    c.moon = 0;
    c.opening = 2;
    c.first_trick_points = 1;
    c.last_trick_points = 1;
    c.every_penalty_extra = 1;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 4, 2000, hold, 1));
    /* Gong Zhu's scores: the TC alone -50, all the hearts reversed with the pig, and
     * the exposed TC quadrupling */
    c = standard(4);
    for (int i = 0; i < HC_CARDS; i++)
        c.values[i] = i >= 42 ? 10 * (i - 41) : 0;
    c.values[HC_QS] = 100;
    c.values[card("JD")] = -100;
    c.doubler = card("TC");
    c.doubler_alone_points = -50;
    c.all_hearts_reversed = 1;
    c.all_hearts_reverse_queen = 1;
    c.moon = 0;
    c.opening = 3;
    c.first_trick = 0;
    c.lead_rule = 0;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 5, 2000, hold, 1));
    c.doubler_exposed = 1;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 6, 2000, hold, 1));
    /* 004 'Royal Hearts' with the QS discarded */
    c = queen_discarded(4);
    c.royal_queens = 1;
    c.values[card("QD")] = -10;
    c = init_ok(c);
    CHECK(fast_batch_matches_hand_state(&c, 8, 2000, four, 4));
}

/* Random configs (no jokers) with the options only the hand state played before. */
static void test_batch_paths_agree_on_random_configs(void)
{
    int ok = 1, configs = 0;
    while (configs < 200) {
        hc_config c = random_config();
        if (c.joker_kind)
            continue;
        c.queen_at_first_chance = rnd(0, 2) == 0;
        c.booster_nines = rnd(0, 2) == 0;
        if (rnd(0, 2) == 0) {
            c.first_trick_points = rnd(-3, 3);
            c.last_trick_points = rnd(-3, 3);
            c.every_penalty_extra = rnd(-3, 3);
        }
        if (rnd(0, 2) == 0) {
            c.all_hearts_reversed = 1;
            c.all_hearts_reverse_queen = rnd(0, 1);
        }
        if (c.doubler >= 0 && rnd(0, 1)) {
            c.doubler_alone_points = rnd(0, 1) ? rnd(-60, 60) : 0;
            c.doubler_exposed = rnd(0, 1);
        }
        c = init_ok(c);
        int64_t sched[4];
        int ns = (int)rnd(1, 4);
        for (int i = 0; i < ns; i++)
            sched[i] = random_kind(&c);
        ok &= fast_batch_matches_hand_state(&c, hc_splitmix_next(&test_rng), (uint64_t)rnd(1, 40),
                                            sched, ns);
        configs++;
    }
    CHECK(ok);
}

/* hc_batch_path: the fast loop for all but the jokers, the extra cards and the
 * exposed cards; -1 for a config that was never initialised. */
static void test_batch_path_names_the_hand_state_rules(void)
{
    hc_config c = init_ok(queen_discarded(4));
    CHECK_EQ(hc_batch_path(&c), HC_BATCH_PATH_FAST);
    c = standard(3);
    c.deck |= 1ULL << HC_JOKER0;
    c.kitty_size = 2;
    c.joker_kind = HC_JOKER_WILD;
    c = init_ok(c);
    CHECK_EQ(hc_batch_path(&c), HC_BATCH_PATH_HAND_STATE);
    c = extra_config(3);
    CHECK_EQ(hc_batch_path(&c), HC_BATCH_PATH_HAND_STATE);
    c = standard(4);
    c.exposed = cards("QS AH");
    c = init_ok(c);
    CHECK_EQ(hc_batch_path(&c), HC_BATCH_PATH_HAND_STATE);
    hc_config raw = queen_discarded(4);
    CHECK_EQ(hc_batch_path(&raw), -1);
    /* an unknown variant is refused; HAND_STATE plays a fast config too */
    int64_t good[1] = {1}, s1[4] = {0}, s2[4] = {0};
    uint64_t d1 = HC_FNV_OFFSET, d2 = HC_FNV_OFFSET;
    c = init_ok(queen_discarded(4));
    CHECK_EQ(hc_play_random_hands_with(HC_BATCH_HAND_STATE + 1, &c, 1, 0, 1, good, 1, &d1, s1),
             -2);
    CHECK_EQ(hc_play_random_hands_with(HC_BATCH_HAND_STATE, &c, 1, 0, 50, good, 1, &d1, s1), 0);
    CHECK_EQ(hc_play_random_hands(&c, 1, 0, 50, good, 1, &d2, s2), 0);
    CHECK(d1 == d2 && memcmp(s1, s2, sizeof s1) == 0);
}

int main(void)
{
    test_splitmix_reference_values();
    test_deal_is_deterministic_partition();
    test_deal_follows_fisher_yates_from_the_top();
    test_config_rejects_impossible_values();
    test_config_derives_masks();
    test_hand_init_validates_the_position();
    test_opening_lowest_club_must_be_led();
    test_opening_any_club();
    test_opening_left_of_dealer_uses_the_lead_rule();
    test_opening_lowest_spade_must_be_led();
    test_follow_suit();
    test_first_trick_filter();
    test_hearts_may_not_be_led_until_broken();
    test_queen_breaks_hearts_with_broken_by_1();
    test_queen_breaks_hearts_only_discarded_with_broken_by_3();
    test_queen_hearts_lead();
    test_lead_rule_0_allows_any_lead();
    test_pass_errors_in_order();
    test_pass_directions();
    test_star_pass_routes();
    test_star_pass_needs_an_odd_table();
    test_split_pass_routes_each_card_its_own_way();
    test_split_pass_is_validated();
    test_pass_forbidden_cards();
    test_scoring_plain_and_doubler();
    test_scoring_trick_points_and_reversal();
    test_scoring_moon_variants();
    test_scoring_the_shooters_choice();
    test_scoring_sun_and_no_trick_bonus();
    test_scoring_royal_moon_is_the_shooters_own_score();
    test_booster_nine_of_the_suit_led_forces_the_next_lead();
    test_queen_at_first_chance_goes_at_the_first_chance();
    test_booster_overrides_the_lead_rule();
    test_wild_joker_may_be_played_holding_the_suit_and_never_wins();
    test_wild_jokers_only_trick_goes_to_its_leader();
    test_joker_1911_refused_as_a_discard_until_an_opponent_discards_a_high_heart();
    test_joker_1911_rules_in_one_trick();
    test_scoring_royal_queens();
    test_kitty_takers();
    test_kitty_to_the_first_heart_and_a_card_a_trick();
    test_two_players_deal_the_whole_pack();
    test_push_pop_restores_state();
    test_playout_restores_the_state_and_scores_the_hand();
    test_greedy_playout_of_a_seat_holding_every_club();
    test_random_play_invariants_and_batch_agreement();
    test_batch_passes_only_allowed_cards();
    test_standard_batch_totals();
    test_extra_cards_config_errors();
    test_extra_cards_deal_gives_the_extras_to_the_dealers_left();
    test_extra_cards_hand_init_checks_the_hand_sizes();
    test_extra_cards_three_players_the_holder_plays_twice();
    test_extra_cards_five_players_holders_play_in_order_from_the_leader();
    test_extra_cards_greedy_last_to_play_is_the_tricks_last_card();
    test_extra_cards_random_play_and_batch_agreement();
    test_batch_paths_agree_on_the_rules_the_fast_loop_plays();
    test_batch_paths_agree_on_random_configs();
    test_batch_path_names_the_hand_state_rules();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
