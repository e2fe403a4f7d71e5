/* hearts.h -- the C core of the Hearts Arena rules engine (plain C11, no Python).
 *
 * This library implements docs/decisions/0001-engine-backend-contract.md: the
 * flat integer configuration (`CoreConfig`), the deterministic deal, passing,
 * legal plays with their error codes, trick resolution, scoring and the random
 * batch.  The CPython binding in _hearts.c is a thin shell over it; the pure
 * Python reference (arena/engine/reference.py) implements the same contract
 * independently, and the two are compared card by card.
 *
 * Cards are indices 0..51 (suit * 13 + rank, suits C D S H), and the jokers
 * 52..54 when a config adds them (004 'Joker Hearts'); every set of cards is one
 * uint64_t with bit `index` set.  Public names start with `hc_`.
 * Nothing here allocates: a hand state is a fixed-size struct, and its undo
 * stack holds a snapshot per play (at most 52 plays per hand).
 */
#ifndef HEARTS_CORE_H
#define HEARTS_CORE_H

#include <stdint.h>

#include "hc_config_fields.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HC_CARDS 52                           /* the pack */
#define HC_JOKER0 52                          /* the first joker; jokers are 52..54 */
#define HC_MAX_JOKERS 3
#define HC_ALL_CARDS (HC_CARDS + HC_MAX_JOKERS) /* 55 */
#define HC_JOKERS (7ULL << HC_JOKER0)
#define HC_MIN_PLAYERS 2 /* 004 (1911): "played by two, three, four or even more" */
#define HC_MAX_PLAYERS 7
#define HC_MAX_PLAYS HC_ALL_CARDS                   /* players * hand_size <= 55 */
#define HC_MAX_HAND (HC_ALL_CARDS / HC_MIN_PLAYERS) /* 27 */
#define HC_QS 36
#define HC_QC 10 /* 004 'Royal Hearts': cancels the QS of the seat that took both */
#define HC_QH 49 /* 004 'Royal Hearts': doubles the hearts of the seat that took it */
#define HC_KS 37 /* 001 'VARIATION 1: BLACK MARIAH': a trick holding the ♠K or the ♠A */
#define HC_AS 38 /* is a chance to get rid of the ♠Q (cfg->queen_at_first_chance) */
#define HC_SUIT_MASK 0x1FFFULL
#define HC_FULL_DECK ((1ULL << HC_CARDS) - 1)

/* Numeric limits that keep every sum inside int64_t (the contract does not
 * bound these ints; any real rule set is far inside them). */
/* |values|, |moon_points|, |sun_points|, |no_trick_bonus| */
#define HC_VALUE_LIMIT 2147483647LL
#define HC_TOTAL_LIMIT (1LL << 60)         /* |totals|, |target| given to hc_points */

/* Pass kinds: 0 hold, 1..n-1 directional offsets, scatter, center mixer, star.
 * Star (004 'Passing cards', odd tables only): two cards, card 0 to seat
 * (s + n/2) % n and card 1 to seat (s + (n+1)/2) % n, whatever pass_count is. */
#define HC_PASS_HOLD 0
#define HC_PASS_SCATTER 100
#define HC_PASS_CENTER 101
#define HC_PASS_STAR 102
#define HC_STAR_LEN 2
/* Split (003 'Simple variations': the dealer may call "Pass one card to the right
 * and two cards to the left"): card i of every pass goes to seat (s + offset[i]) % n,
 * an offset per card given to hc_hand_init_split; never in a schedule. */
#define HC_PASS_SPLIT 103

/* Joker kinds (cfg->joker_kind), 004's two Joker Hearts:
 * WILD  ('Other Variations', 'Deal'): "can be played any time and count for zero
 *       points", "an off-suit, non-Heart card": no suit, never wins a trick, always
 *       playable but for the opening lead; a trick led with one takes its suit from
 *       the first suited card played to it (all jokers: the leader wins it).
 * HEART (the 1911 'Joker Hearts'): the one joker 52 replaces the 2H, "ranking in value
 *       between ten and knave" of hearts; it "cannot be thrown away, excepting when
 *       hearts are led and an ace or court card is played" or an opponent discarded
 *       the ace or a court heart: it may be played only when the trick already holds
 *       the JH, QH, KH or AH, unless it is the only legal card (error 18). */
#define HC_JOKER_NONE 0
#define HC_JOKER_WILD 1
#define HC_JOKER_HEART 2

#define HC_PHASE_PASSING 0
#define HC_PHASE_PLAYING 1
#define HC_PHASE_OVER 2

/* Error codes returned for plays and passes (the contract's numbers). */
enum {
    HC_OK = 0,
    HC_ERR_HAND_OVER = 1,
    HC_ERR_PASSING = 2,
    HC_ERR_BAD_CARD = 3,
    HC_ERR_NOT_IN_HAND = 4,
    HC_ERR_MUST_LEAD_OPENING_CARD = 5,
    HC_ERR_MUST_LEAD_CLUB = 6,
    HC_ERR_MUST_FOLLOW_SUIT = 7,
    HC_ERR_FIRST_TRICK_POINTS = 8,
    HC_ERR_NOT_BROKEN = 9,
    HC_ERR_NOT_PASSING = 10,
    HC_ERR_BAD_SEAT = 11,
    HC_ERR_ALREADY_PASSED = 12,
    HC_ERR_PASS_COUNT = 13,
    HC_ERR_PASS_DUPLICATE = 14,
    HC_ERR_PASS_NOT_IN_HAND = 15,
    HC_ERR_PASS_FORBIDDEN = 16, /* a card of cfg->pass_forbidden (checked after 15) */
    HC_ERR_BOOSTER_SUIT = 17,   /* 004 'Other Variations', Booster Nines: must lead the
                                 * suit of the nine played to the last trick */
    HC_ERR_JOKER_HELD = 18,     /* 004 (1911) 'Joker Hearts': the joker may not be
                                 * played now (checked after 8) */
    HC_ERR_QUEEN_FIRST_CHANCE = 19, /* 001 'VARIATION 1: BLACK MARIAH': the ♠Q must be
                                     * played now (cfg->queen_at_first_chance) */
    HC_ERR_EXPOSED_CARD = 20 /* Gong Zhu: an exposed card (cfg->exposed) may not be led
                              * nor played to the first trick of its suit unless it is
                              * the holder's only card of that suit (last) */
};

/* Why hc_config_init rejected a configuration (see hc_config_strerror). */
enum {
    HC_CFG_OK = 0,
    HC_CFG_PLAYERS,
    HC_CFG_HAND_SIZE,
    HC_CFG_DECK,
    HC_CFG_KITTY_SIZE,
    HC_CFG_PASS_COUNT,
    HC_CFG_OPENING,
    HC_CFG_FIRST_TRICK,
    HC_CFG_LEAD_RULE,
    HC_CFG_BROKEN_BY,
    HC_CFG_QUEEN_HEARTS_LEAD,
    HC_CFG_VALUES,
    HC_CFG_DOUBLER,
    HC_CFG_MOON,
    HC_CFG_MOON_POINTS,
    HC_CFG_MOON_EXTRA,
    HC_CFG_SUN_POINTS,
    HC_CFG_NO_TRICK_BONUS,
    HC_CFG_KITTY_TAKER,
    HC_CFG_PASS_FORBIDDEN,
    HC_CFG_ROYAL_QUEENS,
    HC_CFG_BOOSTER_NINES,
    HC_CFG_JOKER_KIND,
    HC_CFG_JOKER_POINTS,
    HC_CFG_FLAG /* a FLAG field (hc_config_fields.h) that is not 0 or 1 */
};

/* Why hc_hand_init rejected a starting position (see hc_state_strerror). */
enum {
    HC_STATE_OK = 0,
    HC_STATE_CONFIG,
    HC_STATE_HANDS_LEN,
    HC_STATE_HAND_SIZE,
    HC_STATE_OVERLAP,
    HC_STATE_DECK,
    HC_STATE_DEALER,
    HC_STATE_PASS_KIND,
    HC_STATE_NO_CLUB,         /* opening 0/1 and no hand holds a club */
    HC_STATE_NO_SPADE         /* opening 3 and no hand holds a spade */
};

/* The CoreConfig fields in contract order (wide ints so that a binding can
 * store what it was given and let hc_config_init judge it), declared from the
 * generated hc_config_fields.h (arena/engine/config.py is the one declaration;
 * each field's meaning is documented there), then the derived masks that
 * hc_config_init computes once. values holds 52 given values; the jokers' are
 * joker_points (derived). */
#define HC_DECLARE_INT(name) int64_t name;
#define HC_DECLARE_MASK(name) uint64_t name;
#define HC_DECLARE_VALUES(name) int64_t name[HC_ALL_CARDS];
typedef struct hc_config {
    HC_CONFIG_FIELDS(HC_DECLARE_INT, HC_DECLARE_MASK, HC_DECLARE_INT, HC_DECLARE_VALUES)

    /* derived (read-only after hc_config_init) */
    uint64_t penalty;        /* deck cards with value > 0 */
    uint64_t point;          /* deck cards with value != 0 */
    uint64_t hearts;         /* deck & hearts suit */
    uint64_t clubs;          /* deck & clubs suit */
    uint64_t spades;         /* deck & spades suit */
    uint64_t opening_suit;   /* the suit the opening card comes from: clubs (opening
                              * 0/1), spades (3), 0 for opening 2 */
    uint64_t first_ban;      /* cards the first-trick filter removes (0: none) */
    uint64_t lead_ban;       /* R of the lead rule (0 when lead_rule is 0) */
    uint64_t breaking;       /* cards whose play breaks hearts/points */
    uint64_t queen_lead_ok;  /* hearts | QS when queen_hearts_lead, else 0 */
    uint64_t queen_discard;  /* broken_by 3: the QS (in the deck), which breaks only when
                              * played to a trick of another suit; else 0 */
    uint64_t moon_required;  /* (penalty | moon_extra) & deck, 0 when penalty is empty */
    int deck_size;
    int extra;               /* 002 'Alternatives to the "Kitty"': with
                              * extra_cards_first_trick, the cards dealt beyond
                              * players * hand_size (1..players-1), each seat holding
                              * one plays it to the first trick; 0 when the flag is off */
    uint64_t jokers;         /* deck & the jokers */
    uint64_t wild;           /* the jokers when they are WILD (always legal), else 0 */
    uint64_t suits[4];       /* each suit in play; hearts with the HEART joker */
    uint8_t deck_cards[HC_ALL_CARDS]; /* the deck's cards in ascending order */
} hc_config;

/* The part of a hand that a play changes; the undo stack stores copies. */
typedef struct hc_dyn {
    uint64_t hand[HC_MAX_PLAYERS];
    uint64_t taken[HC_MAX_PLAYERS];
    uint64_t trick;           /* cards on the table in the current trick */
    uint8_t tricks_won[HC_MAX_PLAYERS];
    int8_t phase;
    int8_t to_play;           /* -1 while passing and when over */
    int8_t leader;            /* -1 while passing */
    int8_t kitty_owner;       /* -1 until the kitty is taken */
    int8_t winner;            /* seat currently winning the trick */
    uint8_t best;             /* highest card of the led suit so far */
    uint8_t trick_number;
    uint8_t played;           /* cards played in the hand so far */
    uint8_t broken;
    int8_t booster;           /* Booster Nines: the suit the leader must lead, or -1 */
    int8_t led;               /* the trick's suit, -1 until a suited card is played (only
                               * kept with jokers; else the suit of `best`) */
    uint8_t suits_led;        /* bit k: a finished trick of this hand was of suit k (kept
                               * for cfg->exposed, Gong Zhu's exposed cards) */
} hc_dyn;

typedef struct hc_hand {
    const hc_config *cfg;     /* borrowed; must outlive the hand */
    hc_dyn d;
    uint64_t kitty;
    uint64_t seed;            /* the hand's seed (center mixer) */
    int dealer;
    int pass_kind;
    int pass_len;             /* cards per pass (0 for hold) */
    uint8_t split[HC_MAX_HAND]; /* HC_PASS_SPLIT: each passed card's offset, 1..n-1 */
    int opening;              /* the opening rule in force (cfg->opening) */
    int opening_card;         /* the lowest card of the opening suit (clubs, or spades for
                               * opening 3) in the hands once play starts (-1 before) */
    unsigned passed_seats;    /* bit s set once seat s has passed */
    uint8_t passed_n[HC_MAX_PLAYERS];
    uint8_t passed[HC_MAX_PLAYERS][HC_MAX_HAND];
    uint8_t received_n[HC_MAX_PLAYERS];
    uint8_t received[HC_MAX_PLAYERS][HC_MAX_HAND];
    uint8_t plays[HC_MAX_PLAYS];            /* every card played, in order */
    int8_t trick_leader[HC_MAX_HAND];       /* per finished trick */
    int8_t trick_winner[HC_MAX_HAND];
    int undo_len;
    hc_dyn undo[HC_MAX_PLAYS];
} hc_hand;

/* Configuration --------------------------------------------------------- */

/* Validate the 23 raw fields and compute the derived masks.  Returns HC_CFG_OK
 * or the HC_CFG_* code of the first bad field; on error the derived fields are
 * unspecified and the config must not be used. */
int hc_config_init(hc_config *cfg);
const char *hc_config_strerror(int code);

/* 1 if `kind` is a pass kind this (initialised) config can play, else 0:
 * hold, 1..n-1, center, scatter when hand_size >= n-1, star when n is odd and
 * hand_size >= 2; and any pass must leave every possible hand enough cards it
 * may pass (min(popcount(pass_forbidden & deck), hand_size) <= hand_size -
 * the pass length), so that a pass can always be made. */
int hc_pass_kind_valid(const hc_config *cfg, int64_t kind);

/* Cards each seat passes for a valid `kind` (0 hold, n-1 scatter, 2 star,
 * pass_count otherwise). */
int hc_pass_length(const hc_config *cfg, int64_t kind);

/* Randomness and the deal ------------------------------------------------ */

uint64_t hc_splitmix_next(uint64_t *state);
uint64_t hc_bounded(uint64_t *state, uint64_t m);   /* high word of next() * m */

/* Deal with SplitMix64(seed); `dealer` must be in 0..n-1 (else nothing is
 * written and -1 is returned).  hands[] needs `players` entries. */
int hc_deal(const hc_config *cfg, uint64_t seed, int dealer, uint64_t hands[], uint64_t *kitty);

/* Hand state ------------------------------------------------------------- */

/* Start a hand from dealt hands (nhands masks) and the kitty.  Returns
 * HC_STATE_OK or an HC_STATE_* code; on error `h` is left unusable. */
int hc_hand_init(hc_hand *h, const hc_config *cfg, const uint64_t hands[], int nhands,
                 uint64_t kitty, int64_t dealer, int64_t pass_kind, uint64_t seed);
const char *hc_state_strerror(int code);

/* The same for a split pass (HC_PASS_SPLIT): card i of every seat's pass goes
 * `offsets[i]` seats to the left.  The pass needs noffsets == pass_count >= 1,
 * every offset in 1..n-1, and enough passable cards in every hand (as
 * hc_pass_kind_valid); otherwise HC_STATE_PASS_KIND.  A seat receives card i
 * from seat (t - offsets[i]) % n, in position order. */
int hc_hand_init_split(hc_hand *h, const hc_config *cfg, const uint64_t hands[], int nhands,
                       uint64_t kitty, int64_t dealer, const int64_t offsets[], int64_t noffsets,
                       uint64_t seed);

/* Pass `ncards` cards from `seat`'s dealt hand.  Returns 0 or an error code
 * 10..16; `cards` is read only when ncards equals the pass length.  The last
 * seat's pass exchanges every pass and starts play. */
int hc_apply_pass(hc_hand *h, int64_t seat, const int64_t cards[], int64_t ncards);

uint64_t hc_legal_mask(const hc_hand *h);          /* 0 while passing or over */
int hc_check_play(const hc_hand *h, int64_t card); /* 0 or error code 1..9 */
int hc_play(hc_hand *h, int64_t card);             /* validated: 0, or a code and no change */

/* Unchecked play for search: only the structural checks (phase, card index,
 * card in the hand of the seat to play; codes 1..4) are made, so a rule-illegal
 * card is played as if legal but the state never becomes inconsistent. */
int hc_push(hc_hand *h, int64_t card);
int hc_pop(hc_hand *h);                            /* 0, or -1 when nothing to undo */

/* Cards in the current trick.  With cfg->extra (extra_cards_first_trick) the first
 * trick holds players + extra cards: after the round from the leader, each seat
 * still holding hand_size cards plays once more, in order from the leader; a later
 * trick t starts at play t * players + extra. */
int hc_trick_len(const hc_hand *h);

/* Hand scores (contract "Scoring").  totals[] has `players` entries.  Returns 0,
 * -1 when the hand is not over, -2 when a total or the target exceeds
 * HC_TOTAL_LIMIT in magnitude.  With cfg->royal_queens (004 'Royal Hearts') a
 * seat's raw score is its hearts' values (doubled if it took the QH), plus the
 * QS's value unless it also took the QC, plus every other card's value, times
 * two with the doubler; its hand score is that floored at 0, and a moon is
 * worth the shooter's raw score (not floored) instead of moon_points. */
int hc_points(const hc_hand *h, const int64_t totals[], int64_t target, int64_t out[]);

/* The shooter's choice (004 'Shooting the moon'): hc_points with `choice`
 * HC_MOON_CHOICE_ADD or _SUBTRACT where the moon rule lets the shooter choose
 * (moon 3; moon 4 where subtracting is allowed; moon 5 once a total before the
 * hand has reached cfg->moon_subtract_after), HC_MOON_CHOICE_ENGINE for the
 * engine's pick (hc_points). -3 for another choice. */
#define HC_MOON_CHOICE_ENGINE (-1)
#define HC_MOON_CHOICE_ADD 0
#define HC_MOON_CHOICE_SUBTRACT 1
int hc_points_choice(const hc_hand *h, const int64_t totals[], int64_t target, int choice,
                     int64_t out[]);

/* The seat that shot the moon (or the sun) in a finished hand, with what it is
 * worth in *worth; -1 (worth 0) when nobody did or the rules have no moon, -2
 * when the hand is not over. */
int hc_shooter(const hc_hand *h, int64_t *worth);

/* Playouts for search (contract "Playouts").  Plays the hand from the current
 * position to its end, every seat choosing by `policy`, writes the scores of
 * hc_points with zero totals and target 0 into out[], and restores the
 * position exactly (the undo stack included).  Policies, with rng =
 * SplitMix64(seed): HC_POLICY_RANDOM plays the k-th lowest legal card, k =
 * bounded(popcount(legal)); HC_POLICY_GREEDY the contract's deterministic
 * duck-and-dump choice (seed unused); HC_POLICY_MIXED draws r = bounded(8) at
 * each decision and plays as RANDOM (drawing k next) when r == 0, else GREEDY.
 * HC_POLICY_SHOOT + s (s < players): seat s plays the shooter's plan (take
 * every trick, drawing nothing) while no other seat has taken a penalty card,
 * and every other decision is MIXED.
 * Returns 0; -1 while passing (nothing done); -2 for an unknown policy. */
#define HC_POLICY_RANDOM 0
#define HC_POLICY_GREEDY 1
#define HC_POLICY_MIXED 2
#define HC_POLICY_SHOOT 16
#define HC_MIXED_ODDS 8
int hc_playout(hc_hand *h, uint64_t seed, int64_t policy, int64_t out[]);

/* The exact endgame for search (contract "Playouts", solve): plays every legal
 * card at every decision to the hand's end (perfect information: every hand
 * known), each seat choosing the card that minimises its margin, players times its
 * own score minus the sum of all scores (hc_points with zero totals and target 0,
 * the engine's moon choice), the lowest card among equals; writes the scores of
 * that line to out[] and restores the position exactly.  Where rank and value
 * alone decide (no jokers, Royal Hearts, Booster Nines, doubler, QS at the first
 * chance, exposed cards, trick or reversal scores), a legal card with no live card
 * (in a hand or the current trick) between it and the legal card below it of its
 * suit, of the same value and moon_extra membership, is not searched: it would
 * give the same line.  At most `limit` decisions are searched.
 * Returns 0; -1 while passing (nothing done); -3 when the limit was reached
 * (out[] unspecified, the position restored). */
int hc_solve(hc_hand *h, int64_t limit, int64_t out[]);

/* Random batch (contract "Random batch"), resumable: plays hands
 * start..start+count-1 of the batch seeded with `seed` (each seat passes
 * random cards among those outside cfg->pass_forbidden), folds every decision
 * into *digest (start from HC_FNV_OFFSET) and adds each seat's hand scores to
 * sums[].  Returns 0; -1 (nothing done) for a bad config or a schedule entry
 * that fails hc_pass_kind_valid; -3 when a deal leaves no club in any hand
 * under opening 0/1, or no spade under opening 3 (as hc_hand_init would refuse
 * it; *digest and sums[] are then partial).  Scores are below 2^40 per hand, so a chunk of up to 2^22
 * hands cannot overflow int64_t sums. */
#define HC_FNV_OFFSET ((uint64_t)0xCBF29CE484222325ULL)
#define HC_FNV_PRIME ((uint64_t)0x100000001B3ULL)
int hc_play_random_hands(const hc_config *cfg, uint64_t seed, uint64_t start, uint64_t count,
                         const int64_t schedule[], int nschedule, uint64_t *digest,
                         int64_t sums[]);

/* The same with a chosen implementation (for tests and benchmarks): they give
 * identical results; a variant the CPU lacks returns -2.  GENERIC, POPCNT and BMI2
 * are the fast straight-line loop built for three CPU levels (AUTO picks one); a
 * config that loop cannot play (hc_batch_path) runs through the hand state whichever
 * of them is asked.  HAND_STATE plays any config through the hand state (hc_hand_init,
 * hc_apply_pass, hc_play), the reference the fast loop is tested against. */
enum {
    HC_BATCH_AUTO = 0,
    HC_BATCH_GENERIC,
    HC_BATCH_POPCNT,
    HC_BATCH_BMI2,
    HC_BATCH_HAND_STATE
};
int hc_play_random_hands_with(int variant, const hc_config *cfg, uint64_t seed, uint64_t start,
                              uint64_t count, const int64_t schedule[], int nschedule,
                              uint64_t *digest, int64_t sums[]);

/* Which path hc_play_random_hands takes for an initialised config: FAST, the
 * straight-line loop over local masks, for every rule but the jokers, 002's extra
 * cards on the first trick and exposed cards (cfg->exposed), which play through the
 * hand state (HAND_STATE, several times slower); -1 for a config hc_config_init
 * would not leave as it is. */
enum { HC_BATCH_PATH_FAST = 0, HC_BATCH_PATH_HAND_STATE = 1 };
int hc_batch_path(const hc_config *cfg);
#ifdef __cplusplus
}
#endif

#endif /* HEARTS_CORE_H */
