/* test_penny.c -- standalone tests of the penny core (run_tests.sh builds it with
 * the sanitizers): 003 'FOUR-PENNY HEARTS' sentence by sentence, then random
 * multi-rounds checking the invariants.  Prints "N passed, N failed". */
#include "penny.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

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

/* "2C" -> 0, "AH" -> 51 */
static int card(const char *text)
{
    const char *ranks = "23456789TJQKA", *suits = "CDSH";
    return (int)(strchr(suits, text[1]) - suits) * 13 + (int)(strchr(ranks, text[0]) - ranks);
}

/* "2C 3C" -> mask */
static uint64_t cards(const char *text)
{
    uint64_t mask = 0;
    for (const char *p = text; *p; p += p[2] ? 3 : 2)
        mask |= 1ULL << card(p);
    return mask;
}

static int play(pc_state *s, int penny, const char *c) { return pc_play(s, penny, card(c)); }

static void start(pc_state *s, int advanced, int leader, int broken, const char *h0,
                  const char *h1, const char *h2, const char *h3)
{
    uint64_t hands[4] = {cards(h0), cards(h1), cards(h2), cards(h3)}, taken[4] = {0};
    int64_t won[4] = {0};
    uint64_t scoring = cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    CHECK_EQ(pc_init(s, 4, advanced, 1, hands, taken, won, leader, broken, scoring, scoring),
             PC_STATE_OK);
}

static void test_the_suit_led_to_a_penny_must_be_followed_there(void)
{
    pc_state s;
    start(&s, 0, 0, 0, "2C 3C 2D 3D", "4C 5C 4D 5D", "6C 7C 6D 7D", "8C 9C 8D 9D");
    CHECK_EQ(play(&s, 0, "2C"), 0);
    CHECK_EQ(play(&s, 1, "4D"), 0);
    /* seat 2 holds both suits: clubs on penny 0, diamonds on penny 1 */
    CHECK_EQ(pc_legal(&s, 0), cards("6C 7C"));
    CHECK_EQ(pc_legal(&s, 1), cards("6D 7D"));
    CHECK_EQ(play(&s, 0, "6D"), HC_ERR_MUST_FOLLOW_SUIT);
    CHECK_EQ(play(&s, 9, "6D"), PC_ERR_BAD_PENNY);
    CHECK_EQ(play(&s, 0, "AH"), HC_ERR_NOT_IN_HAND);
    CHECK_EQ(play(&s, 0, "6C"), 0);
}

static void test_a_scoring_card_is_not_led_until_one_is_played(void)
{
    pc_state s;
    start(&s, 0, 0, 0, "QS 2H 2C 3C", "AH 4C 5C 6C", "2D 3D 4D 5D", "6D 7D 8D 9D");
    CHECK_EQ(pc_legal(&s, 0), cards("2C 3C"));
    CHECK_EQ(play(&s, 0, "2H"), HC_ERR_NOT_BROKEN);
    CHECK_EQ(play(&s, 0, "2C"), 0);
    CHECK_EQ(play(&s, 0, "4C"), 0);
    CHECK_EQ(play(&s, 0, "2D"), 0); /* seat 2 void in clubs: discards a diamond */
    CHECK_EQ(play(&s, 1, "6D"), 0); /* seat 3 leads penny 1 */
    CHECK_EQ(play(&s, 1, "QS"), 0); /* seat 0 void in diamonds: the QS breaks */
    CHECK_EQ(s.broken, 1);
    CHECK_EQ(play(&s, 2, "AH"), 0); /* seat 1 leads a heart in the same multi-round */
}

static void test_the_simple_version_one_card_to_each_penny(void)
{
    pc_state s;
    start(&s, 0, 0, 1, "2C 3C 4C 5C", "6C 7C 8C 9C", "TC JC QC KC", "AC 2D 3D 4D");
    CHECK_EQ(play(&s, 0, "2C"), 0);
    CHECK_EQ(play(&s, 0, "6C"), 0);
    CHECK_EQ(play(&s, 0, "TC"), 0);
    CHECK_EQ(play(&s, 0, "AC"), 0);
    CHECK_EQ(play(&s, 0, "3C"), PC_ERR_PENNY_FULL);
    CHECK_EQ(play(&s, 1, "3C"), 0);
    CHECK_EQ(play(&s, 1, "7C"), 0);
    CHECK_EQ(play(&s, 1, "JC"), 0);
    CHECK_EQ(play(&s, 2, "2D"), 0);
    CHECK_EQ(play(&s, 1, "4C"), PC_ERR_PENNY_PLAYED); /* penny 1 has room, not for seat 0 */
}

static void test_the_advanced_version_exactly_four_to_a_penny(void)
{
    pc_state s;
    start(&s, 1, 0, 1, "2C 3C 4C 5C", "6C 7C 8C 9C", "TC JC QC KC", "AC 2D 3D 4D");
    CHECK_EQ(play(&s, 0, "2C"), 0);
    CHECK_EQ(play(&s, 1, "6C"), 0);
    CHECK_EQ(play(&s, 0, "TC"), 0);
    CHECK_EQ(play(&s, 1, "AC"), 0);
    CHECK_EQ(play(&s, 0, "3C"), 0); /* seat 0's second card on penny 0 */
    CHECK_EQ(play(&s, 0, "7C"), 0); /* the fourth: penny 0 is full */
    CHECK_EQ(pc_legal(&s, 0), 0);
    CHECK_EQ(play(&s, 0, "JC"), PC_ERR_PENNY_FULL);
}

static void test_the_tie_goes_to_the_first_tied_player_left_of_the_lead(void)
{
    pc_state s;
    start(&s, 0, 1, 1, "AC KC AD KD", "2C 3C 2D 3D", "AS KS AH KH", "2S 3S 2H 3H");
    const char *moves[16][2] = {{"0", "2C"}, {"1", "AS"}, {"1", "2S"}, {"0", "AC"},
                                {"2", "2D"}, {"3", "AH"}, {"3", "2H"}, {"2", "AD"},
                                {"1", "3C"}, {"0", "KS"}, {"0", "3S"}, {"1", "KC"},
                                {"3", "3D"}, {"2", "KH"}, {"2", "3H"}, {"3", "KD"}};
    for (int i = 0; i < 16; i++)
        CHECK_EQ(play(&s, moves[i][0][0] - '0', moves[i][1]), 0);
    CHECK_EQ(s.to_play, -1);
    CHECK_EQ(s.hist_winner[0], 0);
    CHECK_EQ(s.hist_winner[1], 2);
    CHECK_EQ(s.leader, 2); /* seats 0 and 2 tie; seat 2 is first to the left of seat 1 */
}

static void test_random_multi_rounds_keep_the_invariants(void)
{
    uint64_t rng = 42;
    for (int game = 0; game < 2000; game++) {
        int n = 3 + (int)hc_bounded(&rng, 5), rounds = 1 + (int)hc_bounded(&rng, 52 / (n * n));
        int deck[52];
        for (int i = 0; i < 52; i++)
            deck[i] = i;
        for (int i = 51; i > 0; i--) {
            int j = (int)hc_bounded(&rng, (uint64_t)i + 1), t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        uint64_t hands[PC_MAX_PLAYERS] = {0}, taken[PC_MAX_PLAYERS] = {0};
        int64_t won[PC_MAX_PLAYERS] = {0};
        for (int i = 0; i < n * rounds * n; i++)
            hands[i % n] |= 1ULL << deck[i];
        pc_state s;
        CHECK_EQ(pc_init(&s, n, game & 1, rounds, hands, taken, won, game % n, 0,
                         cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
                         cards("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")),
                 PC_STATE_OK);
        int plays = 0;
        while (s.to_play >= 0) {
            int legal[PC_MAX_PLAYERS * 52][2], count = 0;
            for (int p = 0; p < n; p++)
                for (int c = 0; c < 52; c++)
                    if (pc_legal(&s, p) >> c & 1) {
                        legal[count][0] = p;
                        legal[count][1] = c;
                        count++;
                    }
            if (count == 0) {
                CHECK_EQ(count, 1); /* a seat to play always has a move */
                break;
            }
            int k = (int)hc_bounded(&rng, (uint64_t)count);
            CHECK_EQ(pc_play(&s, legal[k][0], legal[k][1]), 0);
            plays++;
        }
        int total = 0;
        uint64_t all = 0;
        for (int i = 0; i < n; i++) {
            total += s.tricks_won[i];
            all |= s.taken[i];
            CHECK_EQ(s.hand[i], 0);
        }
        CHECK_EQ(plays, rounds * n * n);
        CHECK_EQ(total, rounds * n);
        CHECK_EQ(__builtin_popcountll(all), rounds * n * n);
    }
}

int main(void)
{
    test_the_suit_led_to_a_penny_must_be_followed_there();
    test_a_scoring_card_is_not_led_until_one_is_played();
    test_the_simple_version_one_card_to_each_penny();
    test_the_advanced_version_exactly_four_to_a_penny();
    test_the_tie_goes_to_the_first_tied_player_left_of_the_lead();
    test_random_multi_rounds_keep_the_invariants();
    printf("penny: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
