/* test_enfle.c -- the Enfle core's own tests, under the sanitizers (run_tests.sh):
 * the sentences of 004 'Enfle' on explicit deals (the pickup, the first to empty
 * his hand wins), the cap on a hand that cycles, and random play with undo
 * keeping every card in one place. */
#include <stdio.h>
#include <string.h>

#include "enfle.h"

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

static en_hand h; /* large (the undo stack): static, not on the stack */

static void test_enfle_pickup_when_a_seat_cannot_follow(void)
{
    uint64_t hands[] = {cards("7C 8D 9H AS"), cards("8C 9D TH KS"), cards("9C TD JH QS"),
                        cards("TC JD 7S 8S")};
    CHECK(en_init(&h, 4, 3, hands) == 0);
    CHECK(en_to_play(&h) == 0 && en_legal(&h) == hands[0]);
    /* A seat holding the suit led must follow. */
    CHECK(en_play(&h, card("7C")) == EN_OK);
    CHECK(en_check(&h, card("9D")) == EN_ERR_MUST_FOLLOW_SUIT && en_legal(&h) == cards("8C"));
    CHECK(en_play(&h, card("9D")) == EN_ERR_MUST_FOLLOW_SUIT);
    const char *plays[] = {"8C", "9C", "TC", "7S", "AS", "KS", "QS", "9H", "TH", "JH"};
    for (int i = 0; i < 10; i++)
        CHECK(en_play(&h, card(plays[i])) == EN_OK);
    /* Trick 1 to seat 3 (TC), trick 2 to seat 0 (AS); on trick 3 seat 3 holds no heart:
     * it takes up both tricks and the 9H TH JH, and leads. */
    CHECK(h.pos.trick_number == 3);
    CHECK(h.tricks[0].winner == 3 && h.tricks[1].winner == 0);
    CHECK(h.tricks[2].winner == -1 && h.tricks[2].picker == 3 && h.tricks[2].size == 3);
    CHECK(h.tricks[2].picked == cards("7C 8C 9C TC 7S AS KS QS 9H TH JH"));
    CHECK(h.pos.hand[3] == cards("JD 8S 7C 8C 9C TC 7S AS KS QS 9H TH JH"));
    CHECK(h.pos.won[0] == 0 && h.pos.won[3] == 0);
    CHECK(en_to_play(&h) == 3 && h.pos.leader == 3 && h.pos.trick_len == 0);
    /* With nothing won on the table, a pickup takes the trick's cards alone. */
    CHECK(en_play(&h, card("9C")) == EN_OK);
    CHECK(h.pos.trick_number == 4 && h.tricks[3].picker == 0 && h.tricks[3].picked == cards("9C"));
    CHECK(h.pos.hand[0] == cards("8D 9C") && en_to_play(&h) == 0);
    CHECK(en_pop(&h) == 0);
    CHECK(h.pos.trick_number == 3 && h.pos.hand[0] == cards("8D") && en_to_play(&h) == 3);
}

static void test_the_first_to_empty_his_hand_wins(void)
{
    uint64_t hands[] = {cards("7C 8D 9H AS"), cards("8C 9D TH KS"), cards("9C TD JH QS"),
                        cards("TC JD 7S 8S")};
    CHECK(en_init(&h, 4, 3, hands) == 0);
    const char *plays[] = {"7C", "8C", "9C", "TC", "7S", "AS", "KS", "QS", "9H", "TH", "JH",
                           "JD", "8D"};
    for (int i = 0; i < 13; i++)
        CHECK(en_play(&h, card(plays[i])) == EN_OK);
    /* Seat 0 played its last card: it wins at once, the trick left unfinished. */
    CHECK(h.pos.over && h.pos.winner == 0 && en_to_play(&h) == -1);
    CHECK(h.pos.trick_len == 2);
    int64_t points[EN_MAX_PLAYERS];
    en_points(&h, points);
    CHECK(points[0] == 0 && points[1] == 1 && points[2] == 1 && points[3] == 12);
    CHECK(en_play(&h, card("9D")) == EN_ERR_HAND_OVER);
}

static void test_enfle_cap_ends_a_hand_that_cycles(void)
{
    /* Four cards of four suits between two seats: whatever is led, the other seat is
     * void and takes it up, so the hand never ends by itself. */
    uint64_t hands[] = {cards("7C 7S"), cards("7D 7H")};
    CHECK(en_init(&h, 2, 1, hands) == 0);
    int plays = 0;
    while (!h.pos.over) {
        uint64_t legal = en_legal(&h);
        CHECK(legal != 0);
        CHECK(en_play(&h, __builtin_ctzll(legal)) == EN_OK);
        plays++;
    }
    CHECK(plays == EN_MAX_TRICKS && h.pos.trick_number == EN_MAX_TRICKS);
    CHECK(h.pos.winner == -1);
    int64_t points[EN_MAX_PLAYERS];
    en_points(&h, points);
    CHECK(points[0] == 2 && points[1] == 2);
    for (int t = 0; t < EN_MAX_TRICKS; t++)
        CHECK(h.tricks[t].winner == -1 && h.tricks[t].picker == (t + 1) % 2);
}

static void test_a_position_mid_hand_plays_on(void)
{
    /* Seat 1 led the 9C; seat 0 holds clubs; seat 1's won pile lies on the table. */
    uint64_t hands[] = {cards("7C 8C"), cards("7D 8D")}, won[] = {0, cards("7S 8S")};
    uint8_t trick[] = {(uint8_t)card("9C")};
    CHECK(en_init_position(&h, 2, hands, won, 1, trick, 1) == 0);
    CHECK(en_to_play(&h) == 0 && en_legal(&h) == cards("7C 8C"));
    CHECK(en_play(&h, card("7C")) == EN_OK); /* 9C wins: seat 1 leads */
    CHECK(h.pos.won[1] == cards("7S 8S 7C 9C") && en_to_play(&h) == 1);
    CHECK(en_play(&h, card("7D")) == EN_OK); /* seat 0 has no diamond: takes all up */
    CHECK(h.pos.hand[0] == cards("8C 7S 8S 7C 9C 7D") && h.tricks[1].picker == 0);
    uint8_t void_trick[] = {(uint8_t)card("9H")};
    CHECK(en_init_position(&h, 2, hands, won, 1, void_trick, 1) == -1); /* seat 0 void */
    uint64_t twice[] = {0, cards("7C")};
    CHECK(en_init_position(&h, 2, hands, twice, 1, trick, 1) == -1);   /* 7C twice */
    uint64_t empty[] = {cards("7C 8C"), 0};
    CHECK(en_init_position(&h, 2, empty, won, 1, trick, 1) == -1);     /* seat 1 empty */
}

static void test_random_play_with_undo_keeps_every_card_in_one_place(void)
{
    uint64_t rng = 7, pack = 0;
    for (int s = 0; s < 4; s++)
        pack |= 0x1FE0ULL << (13 * s); /* 7 .. A */
    for (int game = 0; game < 300; game++) {
        int players = 2 + game % 3;
        uint64_t deal_pack = players == 3 ? pack & ~cards("7C 7D") : pack;
        uint64_t hands[EN_MAX_PLAYERS];
        CHECK(en_deal(players, (uint64_t)game, game % players, deal_pack, hands) == 0);
        CHECK(en_init(&h, players, game % players, hands) == 0);
        while (!h.pos.over) {
            uint64_t legal = en_legal(&h);
            CHECK(legal != 0);
            int k = (int)((rng = rng * 6364136223846793005ULL + 1) >> 33) % __builtin_popcountll(legal);
            int c = 0;
            for (uint64_t m = legal;; m &= m - 1)
                if (k-- == 0) {
                    c = __builtin_ctzll(m);
                    break;
                }
            en_push(&h, c);
            if ((rng >> 40) % 10 == 0) {
                CHECK(en_pop(&h) == 0);
                en_push(&h, c);
            }
        }
        uint64_t all = 0;
        for (int i = 0; i < h.pos.trick_len; i++)
            all |= 1ULL << h.pos.trick_cards[i];
        for (int s = 0; s < players; s++) {
            CHECK(!(all & h.pos.hand[s]) && !(all & h.pos.won[s]));
            all |= h.pos.hand[s] | h.pos.won[s];
        }
        CHECK(all == deal_pack);
    }
    uint64_t hands[EN_MAX_PLAYERS];
    CHECK(en_deal(3, 1, 0, pack, hands) == -1); /* 32 cards do not deal to three */
    CHECK(en_deal(5, 1, 0, pack, hands) == -1);
}

int main(void)
{
    test_enfle_pickup_when_a_seat_cannot_follow();
    test_the_first_to_empty_his_hand_wins();
    test_enfle_cap_ends_a_hand_that_cycles();
    test_a_position_mid_hand_plays_on();
    test_random_play_with_undo_keeps_every_card_in_one_place();
    printf("enfle: %d checks passed, %d failed\n", passed, failed);
    return failed != 0;
}
