/* cancellation.h -- Cancellation Hearts in C: two packs, identical cards cancel.
 *
 * Rule sources: 000 'Cancellation Hearts' and 003 'CANCELLATION HEARTS' (in
 * ../shared/rules/).  The mask core (hearts.h) holds one bit per card; two
 * packs hold each card up to twice, so a multiset here is two masks: `once`
 * (held at least once) and `twice` (held twice, a subset of `once`).  The
 * pure-Python reference, arena/engine/variants/cancellation_reference.py, is the
 * contract; both are compared on thousands of random deals.
 *
 * Design decisions (docs/rules.md 'Cancellation Hearts' has the reasons):
 *   - two copies of one card in a trick cancel and neither can win (003's
 *     "exactly the same card"); the highest uncancelled card of the suit led
 *     wins; with none, nobody wins (003's Six of Clubs example), the trick is
 *     set aside and the same player leads again;
 *   - the next trick won takes every set-aside trick; the widow is part of the
 *     first trick (000 "The widow is added to the first trick");
 *   - nobody winning the last trick discards it and the set-aside tricks (003);
 *   - follow suit, and the opening, first-trick, lead and breaking rules are the
 *     shared ones (arena/engine/config.py numbers), breaking on the play;
 *   - a moon is every penalty copy in play, scored the old way.
 * Error codes are the shared ones; 21 is a pass naming a card more often than
 * the seat holds it.
 */
#ifndef CANCELLATION_H
#define CANCELLATION_H

#include <stdint.h>

#define CX_MAX_PLAYERS 10
#define CX_CARDS 52
#define CX_MAX_COPIES 104
#define CX_ERR_PASS_COPIES 21

typedef struct {
    uint64_t once;  /* cards held at least once */
    uint64_t twice; /* cards held twice; a subset of once */
} cx_multiset;

typedef struct {
    int players, hand_size, widow_size, pass_count;
    int opening, first_trick, lead_rule, broken_by, moon;
    int64_t moon_points;
    uint64_t deck_once, deck_twice;
    int64_t values[CX_CARDS];
    /* derived by cx_config_init */
    uint64_t penalty, point, breaking, lead_restricted, first_banned;
    int lowest_club;
} cx_config;

typedef struct {
    int8_t leader, winner;
    uint8_t cards[CX_MAX_PLAYERS];
} cx_trick;

typedef struct {
    const cx_config *cfg;
    int phase, dealer, pass_offset;
    cx_multiset dealt[CX_MAX_PLAYERS], start[CX_MAX_PLAYERS];
    cx_multiset hands[CX_MAX_PLAYERS], taken[CX_MAX_PLAYERS];
    cx_multiset widow, pending, discarded;
    uint8_t given[CX_MAX_PLAYERS][CX_MAX_COPIES];
    uint8_t got[CX_MAX_PLAYERS][CX_MAX_COPIES];
    int got_len[CX_MAX_PLAYERS];
    int has_passed[CX_MAX_PLAYERS];
    int leader, to_play, trick_number, broken, widow_owner;
    uint8_t trick[CX_MAX_PLAYERS];
    int trick_len;
    int won[CX_MAX_PLAYERS];
    int nplays;
    uint8_t plays[CX_MAX_COPIES];
    cx_trick history[CX_MAX_COPIES];
} cx_hand;

/* Multisets ---------------------------------------------------------------- */
int cx_count(cx_multiset m, int card);
int cx_size(cx_multiset m);
/* Both sides' copies together (the caller keeps every card at two at most). */
cx_multiset cx_union(cx_multiset a, cx_multiset b);

/* Check `c`'s fields and derive its masks: 0, or -1 when it cannot be played. */
int cx_config_init(cx_config *c);

/* Deal with SplitMix64(seed) from the dealer's left, the rest to the widow:
 * 0, or -1 for a bad dealer.  hands[] needs `players` entries. */
int cx_deal(const cx_config *c, uint64_t seed, int dealer, cx_multiset hands[],
            cx_multiset *widow);

/* Start a deal (a pass `pass_offset` seats left, 0 for none): 0, or -1 when the
 * cards do not make a deal of `c`. */
int cx_hand_init(cx_hand *h, const cx_config *c, const cx_multiset hands[], int nhands,
                 cx_multiset widow, int dealer, int pass_offset);

/* `seat`'s pass of `n` card indices: 0 or a code 10..15, 21. */
int cx_pass(cx_hand *h, int seat, const int64_t cards[], int n);

uint64_t cx_legal(const cx_hand *h);          /* distinct legal cards; 0 unless playing */
int cx_check_play(const cx_hand *h, int64_t card); /* 0 or the first code forbidding it */
int cx_play(cx_hand *h, int64_t card);         /* cx_check_play, then the play if 0 */
int cx_push(cx_hand *h, int card);             /* unchecked play; -1 if not held / not due */
int cx_pop(cx_hand *h);                        /* undo the last play; -1 if none */

/* The deal's score per seat (out[] needs `players` entries): -1 before the end. */
int cx_points(const cx_hand *h, int64_t out[]);

#endif
