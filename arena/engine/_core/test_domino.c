/* test_domino.c -- the Domino core's own tests, under the sanitizers (run_tests.sh):
 * the sentences of 000 'Domino Hearts' on explicit deals, a mid-hand position, and
 * random play with undo keeping every card in one place. */
#include <stdio.h>
#include <string.h>

#include "domino.h"

static int passed, failed;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (cond)                                                                          \
            passed++;                                                                      \
        else {                                                                             \
            failed++;                                                                      \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, \
                    #cond);                                                                \
        }                                                                                  \
    } while (0)

static int card(const char *s)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "CDSH";
    return (int)(strchr(suits, s[1]) - suits) * 13 + (int)(strchr(ranks, s[0]) - ranks);
}

static uint64_t cards(const char *list)
{
    uint64_t mask = 0;
    for (const char *p = list; *p; p += (p[2] ? 3 : 2))
        mask |= 1ULL << card(p);
    return mask;
}

static dh_config config(int players)
{
    dh_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.players = players;
    cfg.dealer = 0;
    cfg.moon = DH_MOON_OLD;
    cfg.moon_points = 13;
    for (int c = 39; c < 52; c++)
        cfg.values[c] = 1;
    return cfg;
}

/* Hands as given, the stock: `top` first, then the rest of the pack in index order. */
static int deal(dh_hand *h, int players, const char *const hands[], const char *top)
{
    uint64_t masks[DH_MAX_PLAYERS], used = 0;
    for (int s = 0; s < players; s++)
        used |= masks[s] = cards(hands[s]);
    uint8_t stock[DH_CARDS];
    int size = 0;
    for (const char *p = top; *p; p += (p[2] ? 3 : 2)) {
        stock[size++] = (uint8_t)card(p);
        used |= 1ULL << card(p);
    }
    for (int c = 0; c < DH_CARDS; c++)
        if (!(used >> c & 1))
            stock[size++] = (uint8_t)c;
    dh_config cfg = config(players);
    return dh_init(h, &cfg, masks, stock, size);
}

static dh_hand h; /* large: keep it off the stack */

static void test_a_void_seat_draws_until_it_can_follow(void)
{
    const char *hands[] = {"2D 3D 4D 5D 6D 7D", "2C 3C 4C 5C 6C 7C", "2S 3S 4S 8D 9D TD"};
    CHECK(deal(&h, 3, hands, "5S 6H 9C") == 0);
    CHECK(h.pos.to_play == 1);
    CHECK(dh_play(&h, card("7C")) == DH_OK);
    CHECK(h.pos.to_play == 2 && h.pos.drawn[2] == 3 && h.pos.draw_count == 3);
    CHECK(dh_legal(&h) == cards("9C"));
    CHECK(dh_play(&h, card("5S")) == DH_ERR_MUST_FOLLOW_SUIT);
    CHECK(dh_play(&h, card("9C")) == DH_OK);
}

static void test_with_the_stock_out_a_void_seat_discards(void)
{
    const char *hands[] = {"2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH "
                           "JH QH",
                           "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD "
                           "JD QD KD AD"};
    CHECK(deal(&h, 2, hands, "KH AH") == 0);
    CHECK(dh_play(&h, card("2C")) == DH_OK);
    CHECK(h.pos.stock_pos == 2 && dh_legal(&h) == h.pos.hand[0]);
    CHECK(dh_play(&h, card("QH")) == DH_OK && h.pos.broken);
}

static void test_dropping_out_and_the_lead_passing_left(void)
{
    const char *hands[] = {"3C QD 4H", "2C KD 2H 3H", "AC"};
    CHECK(deal(&h, 3, hands, "") == 0);
    CHECK(dh_play(&h, card("2H")) == DH_ERR_NOT_BROKEN);
    CHECK(dh_play(&h, card("2C")) == DH_OK);
    CHECK(dh_play(&h, card("AC")) == DH_OK);
    CHECK(dh_play(&h, card("3C")) == DH_OK);
    /* Seat 2 won with its last card: the first seat on its left still in leads. */
    CHECK(h.tricks[0].winner == 2 && h.pos.leader == 0 && h.pos.active == 0x3);
    CHECK(dh_play(&h, card("QD")) == DH_OK && dh_play(&h, card("KD")) == DH_OK);
    CHECK(h.tricks[1].size == 2 && dh_legal(&h) == cards("2H 3H")); /* only hearts */
    CHECK(dh_play(&h, card("2H")) == DH_OK && dh_play(&h, card("4H")) == DH_OK);
    /* The last survivor keeps his 3H and the stock that nobody drew. */
    CHECK(h.pos.over && h.pos.kept_by == 1 && (h.pos.kept >> card("3H") & 1));
    int64_t points[DH_MAX_PLAYERS];
    dh_points(&h, points);
    CHECK(points[0] == 2 && points[1] == 11 && points[2] == 0);
}

static void test_a_position_plays_on_and_refuses_a_trick_out_of_turn(void)
{
    dh_config cfg = config(3);
    uint64_t hands[] = {cards("3C 4C"), cards("9D"), cards("5C 6D")};
    uint8_t stock[] = {(uint8_t)card("7H")};
    uint8_t seats[] = {1, 2}, trick[] = {(uint8_t)card("2C"), (uint8_t)card("8C")};
    CHECK(dh_init_position(&h, &cfg, hands, stock, 1, 1, 0, seats, trick, 2) == 0);
    CHECK(h.pos.to_play == 0 && dh_legal(&h) == cards("3C 4C"));
    uint8_t wrong[] = {2, 1};
    CHECK(dh_init_position(&h, &cfg, hands, stock, 1, 1, 0, wrong, trick, 2) == -1);
    CHECK(dh_init_position(&h, &cfg, hands, stock, 1, 1, 0, seats, (uint8_t[]){2, 2}, 2) == -1);
}

static void test_random_play_with_undo_keeps_every_card_in_one_place(void)
{
    uint64_t rng = 7;
    for (int game = 0; game < 300; game++) {
        int players = 2 + game % 6;
        uint64_t hands[DH_MAX_PLAYERS];
        uint8_t stock[DH_CARDS];
        int size = dh_deal(players, (uint64_t)game, game % players, hands, stock);
        dh_config cfg = config(players);
        cfg.dealer = game % players;
        CHECK(dh_init(&h, &cfg, hands, stock, size) == 0);
        while (!h.pos.over) {
            uint64_t legal = dh_legal(&h);
            CHECK(legal != 0);
            int k = (int)((rng = rng * 6364136223846793005ULL + 1) >> 33) % __builtin_popcountll(legal);
            int c = 0;
            for (uint64_t m = legal;; m &= m - 1)
                if (k-- == 0) {
                    c = __builtin_ctzll(m);
                    break;
                }
            dh_push(&h, c);
            if ((rng >> 40) % 10 == 0) {
                CHECK(dh_pop(&h) == 0);
                dh_push(&h, c);
            }
        }
        uint64_t all = h.pos.kept;
        for (int s = 0; s < players; s++) {
            CHECK(!(all & h.pos.taken[s]));
            all |= h.pos.taken[s];
        }
        CHECK(all == (1ULL << 52) - 1);
    }
}

int main(void)
{
    test_a_void_seat_draws_until_it_can_follow();
    test_with_the_stock_out_a_void_seat_discards();
    test_dropping_out_and_the_lead_passing_left();
    test_a_position_plays_on_and_refuses_a_trick_out_of_turn();
    test_random_play_with_undo_keeps_every_card_in_one_place();
    printf("domino: %d checks passed, %d failed\n", passed, failed);
    return failed != 0;
}
