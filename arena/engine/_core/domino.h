/* domino.h -- Domino Hearts (000 'Domino Hearts'), a small C core of its own.
 *
 * Why its own module: hc_hand deals a fixed hand to every seat and plays a
 * fixed number of full tricks; Domino Hearts deals six cards each, leaves the
 * rest as a face-down stock, makes a seat that cannot follow draw from it,
 * and drops seats out as their hands run dry, so tricks shrink.  It reuses
 * the deal's SplitMix64 (hc_bounded) and the card indices of hearts.h
 * (index = suit * 13 + rank, suits C D S H, hearts 39..51).
 *
 * Rules (000 'Domino Hearts'; the choices where the source is silent are in
 * docs/rules.md):
 *  - 2..7 players, the 52-card pack; six cards each, dealt one at a time from
 *    the dealer's left; the rest is the stock, drawn from its top (index 0).
 *  - No pass.  The seat left of the dealer leads first, any card; a heart may
 *    be led once a heart has been played, or by a leader holding only hearts.
 *  - A seat void in the suit led draws from the stock, one card at a time,
 *    until it draws a card of that suit (which it then must play); the draws
 *    are made by the engine, they are not decisions.  With the stock empty a
 *    void seat may play any card.
 *  - Only seats holding cards when a trick is led take part in it.  A winner
 *    out of cards passes the lead to the first seat on his left still in.
 *  - When fewer than two seats hold cards the deal ends: the last survivor
 *    keeps his hand and whatever is left of the stock (charged to him); if
 *    the last trick emptied every hand, the stock left goes to its winner.
 *  - Score: each seat the values of the cards it took or kept; a moon (one
 *    seat charged every card of value > 0) under DH_MOON_OLD scores 0 and
 *    gives every other seat `moon_points`.
 */
#ifndef DOMINO_H
#define DOMINO_H

#include <stdint.h>

#define DH_MAX_PLAYERS 7
#define DH_MIN_PLAYERS 2
#define DH_CARDS 52
#define DH_HAND_SIZE 6
#define DH_MAX_PLAYS 52

#define DH_MOON_NONE 0
#define DH_MOON_OLD 1

#define DH_PHASE_PLAYING 1
#define DH_PHASE_OVER 2

/* Error codes: the shared ones of arena/engine/config.py where they mean the
 * same; none of Domino's own is needed (a draw is never asked for). */
#define DH_OK 0
#define DH_ERR_HAND_OVER 1
#define DH_ERR_BAD_CARD 3
#define DH_ERR_NOT_IN_HAND 4
#define DH_ERR_MUST_FOLLOW_SUIT 7
#define DH_ERR_NOT_BROKEN 9

typedef struct {
    int players;
    int dealer;
    int moon;
    int64_t moon_points;
    int64_t values[DH_CARDS];
} dh_config;

/* Everything that one play can change, copied whole onto the undo stack. */
typedef struct {
    uint64_t hand[DH_MAX_PLAYERS];
    uint64_t taken[DH_MAX_PLAYERS];
    uint64_t kept;          /* cards charged outside tricks at the end */
    int8_t kept_by;         /* who they are charged to, -1 for nobody */
    uint8_t stock_pos;      /* the next card drawn is stock[stock_pos] */
    uint8_t leader, to_play, trick_len, broken, over;
    uint8_t active;         /* bit s: seat s takes part in the current trick */
    uint8_t trick_number;   /* finished tricks */
    uint8_t draw_count;     /* length of the draw log */
    uint8_t trick_cards[DH_MAX_PLAYERS]; /* in play order, from the leader */
    uint8_t tricks_won[DH_MAX_PLAYERS];
    uint8_t drawn[DH_MAX_PLAYERS];
} dh_pos;

typedef struct {
    uint8_t leader, size, winner;
    uint8_t seats[DH_MAX_PLAYERS];
    uint8_t cards[DH_MAX_PLAYERS];
} dh_trick;

typedef struct {
    dh_config cfg;
    int stock_size;
    uint8_t stock[DH_CARDS];
    dh_pos pos;
    int undo_len;
    dh_pos undo[DH_MAX_PLAYS];
    dh_trick tricks[DH_MAX_PLAYS];     /* valid up to pos.trick_number */
    uint8_t draw_trick[DH_CARDS];      /* valid up to pos.draw_count */
    uint8_t draw_seat[DH_CARDS];
    uint8_t draw_card[DH_CARDS];
} dh_hand;

/* Shuffle the pack with `seed` (SplitMix64, Fisher-Yates as hc_deal) and deal
 * six cards a seat one at a time from the dealer's left: hands[] gets the
 * masks, stock[] the rest in order from the top; returns the stock's size,
 * or -1 for a bad player count or dealer. */
int dh_deal(int players, uint64_t seed, int dealer, uint64_t hands[], uint8_t stock[]);

/* Start a hand from explicit hands and stock (top first).  Returns 0, or -1
 * when they are not a partition of the pack, a hand is empty, or the config
 * is bad. */
int dh_init(dh_hand *h, const dh_config *cfg, const uint64_t hands[], const uint8_t stock[],
            int stock_size);

/* Start a hand from a position in the middle of play, for search: the hands, the
 * stock (top first), who leads the trick in progress, whether hearts are broken,
 * and the cards played to it so far (trick[i] by trick_seats[i]: the leader,
 * then the seats on his left still in).  The cards given need not be the whole pack (those
 * already won are left out), but must all differ; a seat takes part in the trick
 * if it holds cards or has played to it.  Tricks, takings and draws start empty.
 * Returns 0, or -1 for an impossible position. */
int dh_init_position(dh_hand *h, const dh_config *cfg, const uint64_t hands[],
                     const uint8_t stock[], int stock_size, int leader, int broken,
                     const uint8_t trick_seats[], const uint8_t trick[], int trick_len);

uint64_t dh_legal(const dh_hand *h);
int dh_check(const dh_hand *h, int card);
int dh_play(dh_hand *h, int card);      /* checked: 0 or an error code */
void dh_push(dh_hand *h, int card);     /* unchecked (the caller's promise) */
int dh_pop(dh_hand *h);                 /* 0, or -1 with nothing to undo */
void dh_points(const dh_hand *h, int64_t out[]);

#endif
