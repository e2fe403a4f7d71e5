/* test_cancellation.c -- standalone tests of cancellation.c (run_tests.sh builds
 * them with the sanitizers): the sources' sentences on tiny explicit deals, then
 * random-play invariants (every copy ends in exactly one place; the points scored
 * plus the points discarded are the points in play; pop undoes a play).
 * Prints "N passed, N failed" and exits 0 only if nothing failed. */
#include "cancellation.h"

#include <stdio.h>
#include <string.h>

#include "hearts.h"

static int passed, failed;

#define CHECK_EQ(a, b)                                                                     \
    do {                                                                                   \
        long long a_ = (long long)(a), b_ = (long long)(b);                                \
        if (a_ == b_) {                                                                    \
            passed++;                                                                      \
        } else {                                                                           \
            failed++;                                                                      \
            fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__, __LINE__, \
                    __func__, #a, a_, b_);                                                 \
        }                                                                                  \
    } while (0)

static int card(const char *s)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "CDSH";
    const char *r = strchr(ranks, s[0]), *u = strchr(suits, s[1]);
    return (int)(u - suits) * 13 + (int)(r - ranks);
}

/* "6C 6C TD" -> a multiset (a card named twice is held twice) */
static cx_multiset cards(const char *list)
{
    cx_multiset m = {0, 0};
    char buf[3] = {0};
    while (*list) {
        while (*list == ' ')
            list++;
        if (!*list)
            break;
        buf[0] = list[0];
        buf[1] = list[1];
        list += 2;
        const int c = card(buf);
        if (m.once & (1ULL << c))
            m.twice |= 1ULL << c;
        else
            m.once |= 1ULL << c;
    }
    return m;
}

/* A config holding exactly the given hands and widow (left of dealer leads, any
 * card anywhere, points break, standard values, old moon). */
static cx_config config_for(int n, const cx_multiset hands[], cx_multiset widow)
{
    cx_config c;
    memset(&c, 0, sizeof c);
    c.players = n;
    c.hand_size = cx_size(hands[0]);
    c.widow_size = cx_size(widow);
    c.opening = 2;
    c.lead_rule = 0;
    c.broken_by = 2;
    c.moon = 1;
    cx_multiset all = widow;
    for (int s = 0; s < n; s++)
        all = cx_union(all, hands[s]);
    c.deck_once = all.once;
    c.deck_twice = all.twice;
    for (int k = 39; k < 52; k++)
        c.values[k] = 1;
    c.values[card("QS")] = 13;
    c.moon_points = 0;
    for (int k = 0; k < CX_CARDS; k++)
        if (c.values[k] > 0)
            c.moon_points += c.values[k] * cx_count(all, k);
    return c;
}

/* 003: "If the lead player plays the Six of Clubs, and the other players play the
 * Six of Clubs, the Ten of Diamonds, and the Queen of Hearts, there is no high card
 * in the suit that was led, and nobody wins the trick"; being the last trick, it is
 * "discarded and ... not counted in the scoring". */
static void test_six_of_clubs_nobody_wins(void)
{
    cx_multiset hands[4] = {cards("6C"), cards("6C"), cards("TD"), cards("QH")};
    cx_config c = config_for(4, hands, cards(""));
    CHECK_EQ(cx_config_init(&c), 0);
    cx_hand h;
    CHECK_EQ(cx_hand_init(&h, &c, hands, 4, cards(""), 3, 0), 0);
    CHECK_EQ(h.to_play, 0);
    const char *plays[] = {"6C", "6C", "TD", "QH"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(cx_play(&h, card(plays[i])), 0);
    CHECK_EQ(h.history[0].winner, -1);
    CHECK_EQ(h.discarded.once, cards("6C TD QH").once);
    CHECK_EQ(h.discarded.twice, cards("6C 6C").twice);
    int64_t out[4];
    CHECK_EQ(cx_points(&h, out), 0);
    for (int s = 0; s < 4; s++)
        CHECK_EQ(out[s], 0);
}

/* 003: "If nobody wins a trick, it is set aside, and the same lead player leads in
 * the next round. Then the next player who wins a trick also wins any tricks that
 * have been set aside." */
static void test_set_aside_to_next_winner_same_leader(void)
{
    cx_multiset hands[4] = {cards("6C 9C"), cards("6C KC"), cards("TD JD"), cards("QH QS")};
    cx_config c = config_for(4, hands, cards(""));
    CHECK_EQ(cx_config_init(&c), 0);
    cx_hand h;
    CHECK_EQ(cx_hand_init(&h, &c, hands, 4, cards(""), 3, 0), 0);
    const char *plays[] = {"6C", "6C", "TD", "QH", "9C", "KC", "JD", "QS"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(cx_play(&h, card(plays[i])), 0);
    CHECK_EQ(h.leader, 0); /* the same lead player */
    CHECK_EQ(cx_size(h.pending), 4);
    for (int i = 4; i < 8; i++)
        CHECK_EQ(cx_play(&h, card(plays[i])), 0);
    CHECK_EQ(h.history[1].winner, 1);
    CHECK_EQ(cx_size(h.taken[1]), 8);
    CHECK_EQ(h.won[1], 1);
    int64_t out[4];
    cx_points(&h, out);
    CHECK_EQ(out[1], 0); /* every point in play: the old moon */
    CHECK_EQ(out[0], 14);
}

/* 000: "The widow is added to the first trick." */
static void test_widow_to_first_trick_winner(void)
{
    cx_multiset hands[3] = {cards("6C"), cards("7C"), cards("8C")};
    cx_config c = config_for(3, hands, cards("QS"));
    CHECK_EQ(cx_config_init(&c), 0);
    cx_hand h;
    CHECK_EQ(cx_hand_init(&h, &c, hands, 3, cards("QS"), 2, 0), 0);
    CHECK_EQ(cx_play(&h, card("6C")), 0);
    CHECK_EQ(cx_play(&h, card("7C")), 0);
    CHECK_EQ(cx_play(&h, card("8C")), 0);
    CHECK_EQ(h.widow_owner, 2);
    CHECK_EQ(cx_count(h.taken[2], card("QS")), 1);
}

/* Two copies may be passed only by a seat holding both (code 21). */
static void test_pass_copies(void)
{
    cx_multiset hands[3] = {cards("6C 6C 2H"), cards("7C 9C 3H"), cards("8C 9C 4H")};
    cx_config c = config_for(3, hands, cards(""));
    c.pass_count = 2;
    CHECK_EQ(cx_config_init(&c), 0);
    cx_hand h;
    CHECK_EQ(cx_hand_init(&h, &c, hands, 3, cards(""), 2, 1), 0);
    int64_t twice_6c[2] = {card("6C"), card("6C")}, twice_9c[2] = {card("9C"), card("9C")};
    CHECK_EQ(cx_pass(&h, 1, twice_9c, 2), CX_ERR_PASS_COPIES);
    CHECK_EQ(cx_pass(&h, 0, twice_6c, 2), 0);
    int64_t p1[2] = {card("9C"), card("3H")}, p2[2] = {card("9C"), card("4H")};
    CHECK_EQ(cx_pass(&h, 1, p1, 2), 0);
    CHECK_EQ(cx_pass(&h, 2, p2, 2), 0);
    CHECK_EQ(cx_count(h.hands[1], card("6C")), 2);
    CHECK_EQ(cx_count(h.hands[0], card("9C")), 1);
    CHECK_EQ(cx_count(h.hands[2], card("9C")), 1);
}

/* Random play on two full packs at 7..10 players. */
static void test_random_invariants(void)
{
    for (int n = 7; n <= 10; n++) {
        cx_config c;
        memset(&c, 0, sizeof c);
        c.players = n;
        c.deck_once = c.deck_twice = (1ULL << 52) - 1;
        c.hand_size = 104 / n;
        c.widow_size = 104 % n;
        c.opening = 2;
        c.first_trick = 1;
        c.lead_rule = 1;
        c.broken_by = 1;
        c.moon = 1;
        c.moon_points = 52;
        for (int k = 39; k < 52; k++)
            c.values[k] = 1;
        c.values[card("QS")] = 13;
        CHECK_EQ(cx_config_init(&c), 0);
        int bad = 0;
        for (uint64_t seed = 1; seed <= 300; seed++) {
            cx_multiset hands[CX_MAX_PLAYERS], widow;
            cx_deal(&c, seed, (int)(seed % (uint64_t)n), hands, &widow);
            cx_hand h;
            if (cx_hand_init(&h, &c, hands, n, widow, (int)(seed % (uint64_t)n), 0) != 0) {
                bad++;
                continue;
            }
            uint64_t rng = seed * 977;
            while (h.phase == 1) {
                const uint64_t legal = cx_legal(&h);
                const int k = (int)hc_bounded(&rng, (uint64_t)__builtin_popcountll(legal));
                uint64_t m = legal;
                for (int i = 0; i < k; i++)
                    m &= m - 1;
                const int chosen = __builtin_ctzll(m);
                if (hc_bounded(&rng, 16) == 0) { /* pop undoes a play exactly */
                    cx_hand before = h;
                    cx_push(&h, chosen);
                    cx_pop(&h);
                    bad += memcmp(&before.hands, &h.hands, sizeof h.hands) != 0 ||
                           before.to_play != h.to_play || before.trick_len != h.trick_len;
                }
                bad += cx_play(&h, chosen) != 0;
            }
            cx_multiset all = h.discarded;
            int64_t scored = 0, out[CX_MAX_PLAYERS];
            cx_points(&h, out);
            int moon = 0;
            for (int s = 0; s < n; s++) {
                bad += (all.twice & h.taken[s].once) != 0; /* no third copy */
                all = cx_union(all, h.taken[s]);
                scored += out[s];
                moon |= out[s] == 0 && cx_size(h.taken[s]) > 0 && scored > 0;
            }
            bad += all.once != c.deck_once || all.twice != c.deck_twice || h.pending.once != 0;
            int64_t discarded = 0;
            for (int k = 0; k < 52; k++)
                discarded += c.values[k] * cx_count(h.discarded, k);
            if (scored != 52 * (n - 1)) /* no moon: raw points plus discarded are 52 */
                bad += scored + discarded != 52;
        }
        CHECK_EQ(bad, 0);
    }
}

int main(void)
{
    test_six_of_clubs_nobody_wins();
    test_set_aside_to_next_winner_same_leader();
    test_widow_to_first_trick_winner();
    test_pass_copies();
    test_random_invariants();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
