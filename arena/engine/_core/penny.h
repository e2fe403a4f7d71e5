/* penny.h -- the multi-rounds of 003 'FOUR-PENNY HEARTS' (plain C11, no Python).
 *
 * 003 'FOUR-PENNY HEARTS': "Each penny marks a round of Hearts called a
 * 'penny-round'. ... Four penny-rounds are played at the same time, and are
 * called a 'multi-round'."  With n players there are n pennies (003 'THREE-PENNY
 * AND FIVE-PENNY HEARTS').  Several tricks are open at once, which hc_hand (one
 * trick at a time) does not model, so the multi-rounds live here; the deal, the
 * pass and the regular opening tricks stay in hearts.c.  The pure-Python
 * reference arena/engine/variants/penny_reference.py states the contract and implements
 * it independently; tests compare the two card by card.
 *
 * Cards are hearts.h's indices 0..51 (suit * 13 + rank); sets are uint64_t.
 * Public names start with `pc_`.  Nothing allocates; a state is a fixed struct
 * (copy it to search).
 */
#ifndef PENNY_CORE_H
#define PENNY_CORE_H

#include <stdint.h>

#include "hearts.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PC_MIN_PLAYERS 3
#define PC_MAX_PLAYERS 7
#define PC_MAX_PLAYS HC_CARDS /* every card of the pack at most once */

/* Error codes: hearts.h's numbers where the rule is the same, 23..25 (issue 9's
 * allocation for the penny games) for the pennies themselves. */
enum {
    PC_ERR_BAD_PENNY = 23,    /* no such penny */
    PC_ERR_PENNY_FULL = 24,   /* the penny already holds n cards */
    PC_ERR_PENNY_PLAYED = 25  /* simple version: the seat has played to it already */
};

/* Why pc_init rejected a starting position. */
enum {
    PC_STATE_OK = 0,
    PC_STATE_PLAYERS,
    PC_STATE_ROUNDS,
    PC_STATE_HAND,
    PC_STATE_OVERLAP,
    PC_STATE_TAKEN,
    PC_STATE_TRICKS_WON,
    PC_STATE_LEADER,
    PC_STATE_MASK
};

typedef struct pc_state {
    int players;
    int advanced;             /* 1: several cards of one seat may go to a penny */
    int rounds;               /* multi-rounds in all */
    int round;                /* the one in play (== rounds once over) */
    int leader;               /* its lead player */
    int to_play;              /* -1 once over */
    int broken;
    int played;               /* cards played in the current multi-round */
    uint64_t lead_ban;        /* not led to an empty penny until broken (unless only these) */
    uint64_t breaking;        /* playing one of these breaks */
    uint64_t hand[PC_MAX_PLAYERS];
    uint64_t taken[PC_MAX_PLAYERS];
    int tricks_won[PC_MAX_PLAYERS];
    uint8_t count[PC_MAX_PLAYERS];   /* cards on each penny */
    uint8_t seats_on[PC_MAX_PLAYERS]; /* bit s: seat s has played to the penny */
    uint8_t penny_seat[PC_MAX_PLAYERS][PC_MAX_PLAYERS]; /* the current multi-round */
    uint8_t penny_card[PC_MAX_PLAYERS][PC_MAX_PLAYERS];
    /* finished penny-rounds in order (multi-round, then penny) */
    int finished;
    uint8_t hist_penny[PC_MAX_PLAYS];
    int8_t hist_winner[PC_MAX_PLAYS];
    uint8_t hist_seat[PC_MAX_PLAYS][PC_MAX_PLAYERS];
    uint8_t hist_card[PC_MAX_PLAYS][PC_MAX_PLAYERS];
} pc_state;

/* Start `rounds` multi-rounds led by `leader`; each hand must hold rounds * n
 * cards.  Returns PC_STATE_OK or a PC_STATE_* code (then `s` is unusable). */
int pc_init(pc_state *s, int64_t players, int64_t advanced, int64_t rounds,
            const uint64_t hands[], const uint64_t taken[], const int64_t tricks_won[],
            int64_t leader, int64_t broken, uint64_t lead_ban, uint64_t breaking);
const char *pc_state_strerror(int code);

/* The cards the seat to play may play to `penny` (0 for a bad penny or once over). */
uint64_t pc_legal(const pc_state *s, int64_t penny);

/* 0 if `card` may go to `penny` now, else an error code (1, 3, 4, 7, 9, 23..25). */
int pc_check(const pc_state *s, int64_t penny, int64_t card);

/* Play it: 0, or the error code and nothing changes. */
int pc_play(pc_state *s, int64_t penny, int64_t card);

#ifdef __cplusplus
}
#endif

#endif /* PENNY_CORE_H */
