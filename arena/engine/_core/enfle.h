/* enfle.h -- Enfle / Schwellen (004 'Enfle'), a small C core of its own.
 *
 * Why its own module: hc_hand plays a fixed number of full tricks from fixed
 * hands; in Enfle a seat that cannot follow takes up every trick won so far
 * into its hand, so hands grow and a hand has no fixed length.  It reuses the
 * deal's SplitMix64 (hc_bounded) and the card indices of hearts.h
 * (index = suit * 13 + rank, suits C D S H).
 *
 * Rules (004 'Enfle': "usually played by four persons with a piquet pack and
 * for a pool. The cards rank as at Hearts, and there is no trump suit. A player
 * must follow suit if he can, but if he cannot he may not discard, but must
 * take up all tricks already won and add them to his hand. Play is continued
 * until one player gets rid of all his cards and thus wins."; the choices
 * where the source is silent are in docs/rules.md 'Enfle'):
 *  - 2..4 players; the pack is a mask (the piquet pack 7..A in the preset),
 *    dealt one card at a time from the dealer's left.  No pass.
 *  - The seat left of the dealer leads the first trick, any card.
 *  - A seat holding the suit led must follow.  A seat that cannot follow does
 *    not play: it takes up every trick won so far and the cards already played
 *    to the current trick (the pickup: the engine's, never a decision), and
 *    leads the next trick.  The broken-off trick is logged with winner -1.
 *  - A trick every seat followed goes to the highest card of the suit led; its
 *    cards lie on the winner's won pile until taken up; the winner leads.
 *  - The hand ends the moment a seat plays its last card (that seat wins; the
 *    trick in progress is left as it is), or once EN_MAX_TRICKS tricks (won or
 *    broken off) have been played: the cap, since a hand may cycle.
 *  - Score: each seat one point per card left in its hand (the winner 0).
 */
#ifndef ENFLE_H
#define ENFLE_H

#include <stdint.h>

#define EN_MIN_PLAYERS 2
#define EN_MAX_PLAYERS 4
#define EN_CARDS 52
#define EN_MAX_TRICKS 200
#define EN_MAX_PLAYS (EN_MAX_TRICKS * EN_MAX_PLAYERS)

#define EN_PHASE_PLAYING 1
#define EN_PHASE_OVER 2

/* Error codes: the shared ones of arena/engine/config.py. */
#define EN_OK 0
#define EN_ERR_HAND_OVER 1
#define EN_ERR_BAD_CARD 3
#define EN_ERR_NOT_IN_HAND 4
#define EN_ERR_MUST_FOLLOW_SUIT 7

/* Everything that one play can change, copied whole onto the undo stack. */
typedef struct {
    uint64_t hand[EN_MAX_PLAYERS];
    uint64_t won[EN_MAX_PLAYERS];  /* the won pile by winner, until taken up */
    uint16_t trick_number;         /* tricks won or broken off */
    uint8_t leader, trick_len, over;
    int8_t winner;                 /* the seat that went out, -1 */
    uint8_t trick_cards[EN_MAX_PLAYERS];
    uint16_t tricks_won[EN_MAX_PLAYERS];
} en_pos;

typedef struct {
    uint8_t leader, size;
    int8_t winner;                 /* -1: broken off by a pickup */
    int8_t picker;                 /* -1: won */
    uint8_t cards[EN_MAX_PLAYERS]; /* cards[i] by (leader + i) % players */
    uint64_t picked;               /* what the picker took up */
} en_trick;

typedef struct {
    int players;
    en_pos pos;
    int undo_len;
    en_pos undo[EN_MAX_PLAYS];
    en_trick tricks[EN_MAX_TRICKS]; /* valid up to pos.trick_number */
} en_hand;

/* Shuffle the cards of `pack` (in index order) with `seed` (SplitMix64,
 * Fisher-Yates as hc_deal) and deal them one at a time from the dealer's left
 * into hands[].  Returns 0, or -1 for a bad player count or dealer or a pack
 * that does not deal evenly. */
int en_deal(int players, uint64_t seed, int dealer, uint64_t pack, uint64_t hands[]);

/* Start a hand from explicit hands (non-empty, disjoint, within the pack);
 * the seat left of `dealer` leads.  Returns 0, or -1. */
int en_init(en_hand *h, int players, int dealer, const uint64_t hands[]);

/* Start a hand from a position in the middle of play, for search: the hands
 * (every seat holds cards), each seat's won pile, who leads the trick in
 * progress and its cards so far (trick[i] by (leader + i) % players).  All
 * cards differ; the seat to play holds the suit led (a seat that does not
 * would have taken up already).  Tricks start empty.  Returns 0, or -1. */
int en_init_position(en_hand *h, int players, const uint64_t hands[], const uint64_t won[],
                     int leader, const uint8_t trick[], int trick_len);

uint64_t en_legal(const en_hand *h);
int en_to_play(const en_hand *h);
int en_check(const en_hand *h, int card);
int en_play(en_hand *h, int card);      /* checked: 0 or an error code */
void en_push(en_hand *h, int card);     /* unchecked (the caller's promise) */
int en_pop(en_hand *h);                 /* 0, or -1 with nothing to undo */
void en_points(const en_hand *h, int64_t out[]);

#endif
