/* hearts.c -- rules of Hearts for the Hearts Arena engine (see hearts.h).
 *
 * Rule sources (/work/shared/rules, cited by file and section):
 *   000 standard four-hand Hearts: deal from the dealer's left, pass left/right/
 *       across/hold, 2C lead, no points on the first trick, hearts broken,
 *       QS = 13, shooting the moon; 3..7 players with cards removed; hearts
 *       broken by a heart or the QS *discarded* (broken_by 3).
 *   004 (1911) "Hearts may be played by two, three, four or even more
 *       players": 2..7 players; 'Deal': the set-aside cards "go to whoever
 *       takes the first heart" (kitty_taker 2); 'The Kitty and the First
 *       Trick': "the first trick takes one card, and the second trick takes
 *       the next" (kitty_taker 3).
 *   001 kitty to the first player taking a point card; points broken by any
 *       point card; Black Maria (QS may not be led before points are broken).
 *   002 "Play variants": 10C doubles the hand, JD/TD required to shoot, QS breaks
 *       hearts, a leader holding only hearts and the QS may lead any of them,
 *       any first lead; kitty variants; no-trick bonus; Shooting the Sun;
 *       scatter and center ("smoosh") passes.
 *   004 old moon, new moon, shooter's choice (the shooter's own, or the
 *       engine's pick), add unless losing, subtract after a score; center mixer;
 *       'Passing cards': star passing at an odd table (three, five, seven), and cards
 *       (the AS, KS, QS) that may be prohibited from the pass; 'Royal Hearts':
 *       the QH doubles its taker's hearts, the QC cancels the QS of the seat
 *       that took both, a hand scores at least 0, a moon is worth the
 *       shooter's own score (cfg->royal_queens).
 * Which of these a game uses is decided once, in arena.engine.rules.Rules,
 * and compiled into the integer CoreConfig this file reads; the exact
 * semantics are docs/decisions/0001-engine-backend-contract.md.
 *
 * Design decisions:
 *  - A card is an index 0..51 and a set of cards one uint64_t, so every rule
 *    is a few mask operations: the legal set is a mask and so is a trick.
 *  - The options are hoisted into masks once (hc_config_init): the first-trick
 *    ban, the lead ban R, the breaking set, the queen-and-hearts set, the
 *    moon's required set.  "Rule off" is the empty mask, so the play code has
 *    no per-option branches beyond testing a mask.
 *  - A hand state is a fixed struct; a play snapshots the small hc_dyn part
 *    onto a fixed undo stack (one entry per possible play), so push/pop never
 *    allocate.  The play log and trick log are append-only and need no undo.
 *  - Everything is validated at the boundary (config, starting position,
 *    card, seat, phase) and reported as a code; no input can make the library
 *    read or write outside its structs.
 *  - The random batch is a separate straight-line loop over local masks (no
 *    undo, no logs), instantiated for three CPU levels (generic, popcnt,
 *    popcnt+BMI2 pdep) and dispatched at run time, so the library needs no
 *    -march flags.  All three give identical results.  The few rules the loop
 *    does not play (fast_batch_plays: jokers, extra cards, exposed cards) batch
 *    through the hand state with the same results; hc_batch_path says which
 *    path a config takes, and a test pins it for every preset, since only the
 *    speed would show it.
 */
#include "hearts.h"

#include <stddef.h>
#include <string.h>

#define BIT(c) (1ULL << (c))
#define HC_NINE 7 /* the rank index of the nine (2 = 0) */
#define HC_HIGH_HEARTS (0xFULL << 48) /* JH QH KH AH */
#define HC_JOKER_ORDER (2 * 47 + 1)   /* the 1911 joker ranks between the TH (47) and JH */
#define GOLDEN 0x9E3779B97F4A7C15ULL
#define POLICY_SALT 0x5851F42D4C957F2DULL
#define CENTER_SALT 0xC3A5C85C97CB3127ULL

#if defined(__GNUC__) || defined(__clang__)
#define HC_ALWAYS_INLINE inline __attribute__((always_inline))
#define HC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define HC_ALWAYS_INLINE inline
#define HC_UNLIKELY(x) (x)
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HC_X86 1
#include <immintrin.h>
#endif

/* Bits ------------------------------------------------------------------ */

static HC_ALWAYS_INLINE int popcount_sw(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Index of the lowest set bit; x must not be 0. */
static HC_ALWAYS_INLINE int lowest(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* Index of the highest set bit; x must not be 0. */
static HC_ALWAYS_INLINE int highest(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(x);
#else
    int i = 63;
    while (!(x >> i))
        i--;
    return i;
#endif
}

/* Index of the k-th lowest set bit of x (k < popcount(x)), branch-free and
 * without tables: per-byte counts by SWAR and a broadword compare find the
 * byte, then the same compare on that byte's bits spread one per byte. */
static HC_ALWAYS_INLINE int select_sw(uint64_t x, unsigned k)
{
    const uint64_t l8 = 0x0101010101010101ULL, h8 = 0x8080808080808080ULL;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555ULL);
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    const uint64_t prefix = s * l8; /* byte i: set bits in bytes 0..i */
    uint64_t geq = ((((uint64_t)k * l8) | h8) - prefix) & h8;
    const unsigned place = (unsigned)(((geq >> 7) * l8) >> 53) & ~7u;
    const unsigned rank = k - (unsigned)(((prefix << 8) >> place) & 0xFF);
    const uint64_t byte = (x >> place) & 0xFF;
    /* lane i of `lanes` is bit i of byte */
    const uint64_t spread = (byte * l8) & 0x8040201008040201ULL;
    const uint64_t lanes = ((spread + 0x7F7F7F7F7F7F7F7FULL) >> 7) & l8;
    geq = ((((uint64_t)rank * l8) | h8) - lanes * l8) & h8;
    return (int)place + (int)(((geq >> 7) * l8) >> 56);
}

#ifdef HC_X86
__attribute__((target("popcnt"))) static inline int popcount_hw(uint64_t x)
{
    return __builtin_popcountll(x);
}

__attribute__((target("bmi2"))) static inline int select_pdep(uint64_t x, unsigned k)
{
    return (int)__builtin_ctzll(_pdep_u64(1ULL << k, x));
}
#endif

/* Randomness (contract "Randomness") ------------------------------------- */

static HC_ALWAYS_INLINE uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static HC_ALWAYS_INLINE uint64_t mulhi(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)a * b) >> 64);
#else
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

static HC_ALWAYS_INLINE uint64_t bounded(uint64_t *state, uint64_t m)
{
    return mulhi(splitmix(state), m);
}

uint64_t hc_splitmix_next(uint64_t *state) { return splitmix(state); }

uint64_t hc_bounded(uint64_t *state, uint64_t m) { return bounded(state, m); }

/* Fisher-Yates from the top, as the contract's deal and center mixer. */
static void shuffle(uint8_t *a, int len, uint64_t *rng)
{
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)bounded(rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Configuration --------------------------------------------------------- */

static const char *const config_errors[] = {
    [HC_CFG_OK] = "ok",
    [HC_CFG_PLAYERS] = "players must be 2..7",
    [HC_CFG_HAND_SIZE] =
        "hand_size must be at least 1 and players * hand_size at most the deck size",
    [HC_CFG_DECK] = "deck must be a mask of cards 0..54 (52..54 the jokers)",
    [HC_CFG_KITTY_SIZE] = "kitty_size must equal popcount(deck) - players * hand_size; with "
                          "extra_cards_first_trick, kitty_size must be 0 and popcount(deck) - "
                          "players * hand_size (the extra cards) 1..players-1",
    [HC_CFG_PASS_COUNT] = "pass_count must be 0..hand_size",
    [HC_CFG_OPENING] = "opening must be 0, 1, 2 or 3",
    [HC_CFG_FIRST_TRICK] = "first_trick must be 0, 1 or 2",
    [HC_CFG_LEAD_RULE] = "lead_rule must be 0, 1 or 2",
    [HC_CFG_BROKEN_BY] = "broken_by must be 0, 1, 2 or 3",
    [HC_CFG_QUEEN_HEARTS_LEAD] = "queen_hearts_lead must be 0 or 1",
    [HC_CFG_VALUES] = "values must be 52 ints of magnitude below 2**31 (and so must "
                      "first_trick_points, last_trick_points, every_penalty_extra and "
                      "doubler_alone_points)",
    [HC_CFG_DOUBLER] = "doubler must be -1 or a card index 0..51",
    [HC_CFG_MOON] = "moon must be 0..5, and moon_subtract_after of magnitude below 2**31",
    [HC_CFG_MOON_POINTS] = "moon_points must have magnitude below 2**31",
    [HC_CFG_MOON_EXTRA] = "moon_extra must be a mask of cards 0..54",
    [HC_CFG_SUN_POINTS] = "sun_points must have magnitude below 2**31",
    [HC_CFG_NO_TRICK_BONUS] = "no_trick_bonus must have magnitude below 2**31",
    [HC_CFG_KITTY_TAKER] = "kitty_taker must be 0, 1, 2 or 3",
    [HC_CFG_PASS_FORBIDDEN] = "pass_forbidden must be a mask of cards 0..54",
    [HC_CFG_ROYAL_QUEENS] = "royal_queens must be 0 or 1",
    [HC_CFG_BOOSTER_NINES] = "booster_nines must be 0 or 1",
    [HC_CFG_JOKER_KIND] = "joker_kind must be 0, 1 or 2; a deck holds jokers (52..54) only "
                          "with joker_kind 1 or 2, and with 2 at most the joker 52",
    [HC_CFG_JOKER_POINTS] = "joker_points must have magnitude below 2**31",
    [HC_CFG_FLAG] = "a 0/1 switch (a FLAG of hc_config_fields.h) must be 0 or 1",
};

const char *hc_config_strerror(int code)
{
    if (code < 0 || code > HC_CFG_FLAG)
        return "unknown configuration error";
    return config_errors[code];
}

static int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

static int value_ok(int64_t v) { return in_range(v, -HC_VALUE_LIMIT, HC_VALUE_LIMIT); }

int hc_config_init(hc_config *c)
{
    if (!in_range(c->players, HC_MIN_PLAYERS, HC_MAX_PLAYERS))
        return HC_CFG_PLAYERS;
    if (c->deck >> HC_ALL_CARDS)
        return HC_CFG_DECK;
    int size = popcount_sw(c->deck);
    if (!in_range(c->hand_size, 1, HC_MAX_HAND) || c->players * c->hand_size > size)
        return HC_CFG_HAND_SIZE;
    /* 002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra
     * cards to players and allow the player with them to play an additional card on
     * the first trick" (no kitty; fewer extra cards than players) */
    const int64_t extra = size - c->players * c->hand_size;
    if (c->extra_cards_first_trick) { /* a value other than 0/1: HC_CFG_FLAG below */
        if (c->kitty_size != 0 || !in_range(extra, 1, c->players - 1))
            return HC_CFG_KITTY_SIZE;
    } else if (c->kitty_size != extra) {
        return HC_CFG_KITTY_SIZE;
    }
    if (!in_range(c->pass_count, 0, c->hand_size))
        return HC_CFG_PASS_COUNT;
    if (!in_range(c->opening, 0, 3))
        return HC_CFG_OPENING;
    if (!in_range(c->first_trick, 0, 2))
        return HC_CFG_FIRST_TRICK;
    if (!in_range(c->lead_rule, 0, 2))
        return HC_CFG_LEAD_RULE;
    if (!in_range(c->broken_by, 0, 3))
        return HC_CFG_BROKEN_BY;
    if (!in_range(c->queen_hearts_lead, 0, 1))
        return HC_CFG_QUEEN_HEARTS_LEAD;
    for (int i = 0; i < HC_CARDS; i++)
        if (!value_ok(c->values[i]))
            return HC_CFG_VALUES;
    if (!value_ok(c->first_trick_points) || !value_ok(c->last_trick_points) ||
        !value_ok(c->every_penalty_extra) || !value_ok(c->doubler_alone_points))
        return HC_CFG_VALUES;
    if (!in_range(c->doubler, -1, HC_CARDS - 1))
        return HC_CFG_DOUBLER;
    if (!in_range(c->moon, 0, 5) || !value_ok(c->moon_subtract_after))
        return HC_CFG_MOON;
    if (!value_ok(c->moon_points))
        return HC_CFG_MOON_POINTS;
    if (c->moon_extra >> HC_ALL_CARDS)
        return HC_CFG_MOON_EXTRA;
    if (!value_ok(c->sun_points))
        return HC_CFG_SUN_POINTS;
    if (!value_ok(c->no_trick_bonus))
        return HC_CFG_NO_TRICK_BONUS;
    if (!in_range(c->kitty_taker, 0, 3))
        return HC_CFG_KITTY_TAKER;
    if (c->pass_forbidden >> HC_ALL_CARDS)
        return HC_CFG_PASS_FORBIDDEN;
    if (!in_range(c->royal_queens, 0, 1))
        return HC_CFG_ROYAL_QUEENS;
    if (!in_range(c->booster_nines, 0, 1))
        return HC_CFG_BOOSTER_NINES;
    if (!in_range(c->joker_kind, 0, 2) || ((c->deck & HC_JOKERS) && c->joker_kind == 0) ||
        (c->joker_kind == HC_JOKER_HEART && (c->deck & HC_JOKERS & ~BIT(HC_JOKER0))))
        return HC_CFG_JOKER_KIND;
    if (!value_ok(c->joker_points))
        return HC_CFG_JOKER_POINTS;
#define CHECK_FLAG(name)                                                                      \
    if (!in_range(c->name, 0, 1))                                                             \
        return HC_CFG_FLAG;
#define CHECK_NONE(name)
    HC_CONFIG_FIELDS(CHECK_NONE, CHECK_NONE, CHECK_FLAG, CHECK_NONE)
#undef CHECK_FLAG
#undef CHECK_NONE

    c->extra = c->extra_cards_first_trick ? (int)extra : 0;
    c->penalty = c->point = 0;
    c->deck_size = 0;
    for (int i = HC_CARDS; i < HC_ALL_CARDS; i++)
        c->values[i] = c->joker_points;
    for (int i = 0; i < HC_ALL_CARDS; i++) {
        if (!(c->deck & BIT(i)))
            continue;
        c->deck_cards[c->deck_size++] = (uint8_t)i;
        if (c->values[i] > 0)
            c->penalty |= BIT(i);
        if (c->values[i] != 0)
            c->point |= BIT(i);
    }
    for (int i = c->deck_size; i < HC_ALL_CARDS; i++)
        c->deck_cards[i] = 0;
    c->jokers = c->deck & HC_JOKERS;
    c->wild = c->joker_kind == HC_JOKER_WILD ? c->jokers : 0;
    for (int s = 0; s < 4; s++)
        c->suits[s] = c->deck & (HC_SUIT_MASK << (13 * s));
    /* 004 (1911) 'Joker Hearts': the joker "takes its place" among the hearts */
    if (c->joker_kind == HC_JOKER_HEART)
        c->suits[3] |= c->jokers;
    c->hearts = c->suits[3];
    c->clubs = c->deck & HC_SUIT_MASK;
    c->spades = c->deck & (HC_SUIT_MASK << 26);
    /* 003 'HEARTLESS': "Otherwise it is the Two of Spades" (opening 3) */
    c->opening_suit = c->opening == 3 ? c->spades : c->opening == 2 ? 0 : c->clubs;
    c->first_ban = c->first_trick == 1 ? c->penalty : c->first_trick == 2 ? c->point : 0;
    c->lead_ban = c->lead_rule == 1 ? c->hearts : c->lead_rule == 2 ? c->point : 0;
    c->breaking = c->broken_by == 0 || c->broken_by == 3 ? c->hearts
                  : c->broken_by == 1                      ? c->hearts | (c->deck & BIT(HC_QS))
                                                           : c->point;
    /* 000 'The Play': "until a heart or the queen of spades has been discarded" */
    c->queen_discard = c->broken_by == 3 ? c->deck & BIT(HC_QS) : 0;
    c->queen_lead_ok = c->queen_hearts_lead ? c->hearts | BIT(HC_QS) : 0;
    c->moon_required = c->penalty ? (c->penalty | c->moon_extra) & c->deck : 0;
    return HC_CFG_OK;
}

/* 1 if `c` is what hc_config_init makes of its raw fields (guards the entry
 * points against a config that was never initialised or was altered). */
static int config_sane(const hc_config *c)
{
    hc_config t = *c;
    if (hc_config_init(&t) != HC_CFG_OK)
        return 0;
    return t.penalty == c->penalty && t.point == c->point && t.hearts == c->hearts &&
           t.clubs == c->clubs && t.spades == c->spades && t.opening_suit == c->opening_suit &&
           t.first_ban == c->first_ban && t.lead_ban == c->lead_ban &&
           t.breaking == c->breaking && t.queen_lead_ok == c->queen_lead_ok &&
           t.queen_discard == c->queen_discard &&
           t.moon_required == c->moon_required && t.deck_size == c->deck_size &&
           t.extra == c->extra &&
           t.jokers == c->jokers && t.wild == c->wild &&
           memcmp(t.suits, c->suits, sizeof t.suits) == 0 &&
           memcmp(t.values, c->values, sizeof t.values) == 0 &&
           memcmp(t.deck_cards, c->deck_cards, sizeof t.deck_cards) == 0;
}

int hc_pass_length(const hc_config *c, int64_t kind)
{
    if (kind == HC_PASS_HOLD)
        return 0;
    if (kind == HC_PASS_SCATTER)
        return (int)c->players - 1;
    if (kind == HC_PASS_STAR)
        return HC_STAR_LEN;
    return (int)c->pass_count;
}

/* 1 if every hand this config can deal keeps `len` cards it may pass: at worst
 * one hand holds every forbidden card in play. */
static int passable_enough(const hc_config *c, int len)
{
    int banned = popcount_sw(c->pass_forbidden & c->deck);
    if (banned > c->hand_size)
        banned = (int)c->hand_size;
    return banned <= c->hand_size - len;
}

int hc_pass_kind_valid(const hc_config *c, int64_t kind)
{
    int known;
    if (kind >= 0 && kind < c->players)
        known = 1;
    else if (kind == HC_PASS_SCATTER)
        known = c->players - 1 <= c->hand_size;
    else if (kind == HC_PASS_STAR) /* 004: "with three or five players" */
        known = c->players % 2 == 1 && c->hand_size >= HC_STAR_LEN;
    else
        known = kind == HC_PASS_CENTER;
    return known && passable_enough(c, hc_pass_length(c, kind));
}

/* The deal ---------------------------------------------------------------- */

int hc_deal(const hc_config *c, uint64_t seed, int dealer, uint64_t hands[], uint64_t *kitty)
{
    int n = (int)c->players;
    if (!config_sane(c) || dealer < 0 || dealer >= n)
        return -1;
    uint8_t a[HC_ALL_CARDS];
    memcpy(a, c->deck_cards, sizeof a);
    uint64_t rng = seed;
    shuffle(a, c->deck_size, &rng);
    for (int s = 0; s < n; s++)
        hands[s] = 0;
    /* with extra cards (002), the first `extra` seats from the dealer's left get one more */
    int dealt = n * (int)c->hand_size + c->extra;
    for (int k = 0; k < dealt; k++)
        hands[(dealer + 1 + k) % n] |= BIT(a[k]);
    *kitty = 0;
    for (int k = dealt; k < c->deck_size; k++)
        *kitty |= BIT(a[k]);
    return 0;
}

/* Scoring (contract "Scoring") -------------------------------------------- */

/* The moon (or sun) and the no-trick bonus, on top of raw scores in out[];
 * `shooter` is -1 or the seat that shot, `m` what the shot is worth; `choice`
 * the shooter's own (HC_MOON_CHOICE_ADD/_SUBTRACT) where the moon rule lets him
 * choose, or HC_MOON_CHOICE_ENGINE for the engine's pick (also what a choice
 * the rule does not offer becomes). */
static HC_ALWAYS_INLINE void finish_score(const hc_config *c, const uint8_t won[],
                                          const int64_t totals[], int64_t target, int shooter,
                                          int64_t m, int choice, int64_t out[])
{
    const int n = (int)c->players;
    if (HC_UNLIKELY(c->moon != 0 && shooter >= 0)) {
        int64_t old_[HC_MAX_PLAYERS] = {0}, new_[HC_MAX_PLAYERS] = {0};
        for (int s = 0; s < n; s++) {
            old_[s] = s == shooter ? 0 : out[s] + m;
            new_[s] = s == shooter ? -m : out[s];
        }
        int use_new = c->moon == 2;
        /* 004 "a player may subtract after a predetermined score has been reached
         * by him or any other player": reached by a total before this hand */
        int reached = 0;
        if (c->moon == 5)
            for (int s = 0; s < n; s++)
                reached |= totals[s] >= c->moon_subtract_after;
        if (c->moon == 3 || c->moon == 4 || (c->moon == 5 && reached)) {
            /* margins and the "losing" test are on the totals after the hand */
            int64_t min_old = INT64_MAX, max_old = INT64_MIN;
            for (int s = 0; s < n; s++) {
                int64_t o = totals[s] + old_[s];
                if (o > max_old)
                    max_old = o;
                if (s != shooter && o < min_old)
                    min_old = o;
            }
            int64_t mine_old = totals[shooter] + old_[shooter];
            if (c->moon != 4) /* add while strictly ahead, else subtract */
                use_new = mine_old >= min_old;
            else
                use_new = target > 0 && max_old >= target && mine_old > min_old;
            /* the shooter's own choice: always under 3 and 5 (once reached);
             * under 4 only where subtracting is allowed ("he may subtract") */
            if (choice != HC_MOON_CHOICE_ENGINE && (c->moon != 4 || use_new))
                use_new = choice == HC_MOON_CHOICE_SUBTRACT;
        }
        for (int s = 0; s < n; s++)
            out[s] = use_new ? new_[s] : old_[s];
    }
    const int64_t bonus = c->no_trick_bonus;
    for (int s = 0; s < n; s++)
        out[s] += won[s] == 0 ? bonus : 0;
}

/* The sun replaces the moon: the seat that won every trick, if any. */
static HC_ALWAYS_INLINE int sun_shooter(const hc_config *c, const uint8_t won[], int shooter,
                                        int64_t *m)
{
    if (c->sun_points > 0) {
        for (int s = 0; s < (int)c->players; s++) {
            if (won[s] == c->hand_size) {
                *m = c->sun_points;
                return s;
            }
        }
    }
    return shooter;
}

/* 004 'Royal Hearts', before the doubler and the floor: the values of the
 * hearts taken, doubled with the QH ("doubles the point value of all Hearts
 * captured by the player who takes it, and is itself also a Heart"); the QS's
 * value unless the QC was taken too ("negates the Q-spade's point value"); and
 * the value of every other card taken (the QD's -10). */
static int64_t royal_raw(const hc_config *c, uint64_t taken)
{
    int64_t hearts = 0, rest = 0;
    for (uint64_t x = taken & c->point & c->hearts; x; x &= x - 1)
        hearts += c->values[lowest(x)];
    if (taken & BIT(HC_QH))
        hearts *= 2;
    uint64_t others = taken & c->point & ~c->hearts;
    if ((taken & BIT(HC_QC)) && (taken & BIT(HC_QS)))
        others &= ~BIT(HC_QS);
    for (uint64_t x = others; x; x &= x - 1)
        rest += c->values[lowest(x)];
    return hearts + rest;
}

/* Royal scoring on raw (doubled) scores in out[]: the moon is worth the
 * shooter's raw score, then every hand score is floored at 0 (004: "this
 * cannot result in a negative score for the hand"). */
static HC_ALWAYS_INLINE void royal_floor(const hc_config *c, int shooter, int64_t *m,
                                         int64_t out[])
{
    if (shooter >= 0)
        *m = out[shooter];
    for (int s = 0; s < (int)c->players; s++)
        out[s] = out[s] < 0 ? 0 : out[s];
}

/* 1 if any of the trick and reversal scoring options (004 'Slobberhannes'; Gong
 * Zhu) is set: the random batch then plays through the hand state. */
static HC_ALWAYS_INLINE int trick_scoring(const hc_config *c)
{
    return c->first_trick_points || c->last_trick_points || c->every_penalty_extra ||
           c->doubler_alone_points || c->all_hearts_reversed;
}

/* The raw score's additions of the trick and reversal options, before the
 * doubler (contract "Scoring"): Gong Zhu's "all reds" (a seat with every heart
 * scores them negated, and its QS too with all_hearts_reverse_queen: "If one
 * player takes all the hearts, they score +200 instead of -200 ... the score
 * for the pig becomes +100"), then 004 'Slobberhannes': a counter for "the
 * first or last trick", and "If he takes all three he forfeits four points". */
static int64_t trick_extra(const hc_config *c, uint64_t taken, int s, int first, int last)
{
    int64_t add = 0;
    if (c->all_hearts_reversed && c->hearts && (taken & c->hearts) == c->hearts) {
        uint64_t flip = c->hearts;
        if (c->all_hearts_reverse_queen)
            flip |= taken & BIT(HC_QS);
        for (uint64_t x = flip & c->point; x; x &= x - 1)
            add -= 2 * c->values[lowest(x)];
    }
    int all = 1;
    if (c->first_trick_points) {
        add += s == first ? c->first_trick_points : 0;
        all &= s == first;
    }
    if (c->last_trick_points) {
        add += s == last ? c->last_trick_points : 0;
        all &= s == last;
    }
    if (c->every_penalty_extra && all && (taken & c->penalty) == c->penalty)
        add += c->every_penalty_extra;
    return add;
}

/* Raw scores into out[] (the royal floor applied) and the shooter of the moon
 * or the sun (-1 if none), with what the shot is worth in *m. `first` and
 * `last` are the winners of the first and last tricks (-1 if none): the trick
 * scoring options read them. */
static int raw_scores(const hc_config *c, const uint64_t taken[], const uint8_t won[],
                      int first, int last, int64_t *m, int64_t out[])
{
    int n = (int)c->players;
    int shooter = -1;
    *m = c->moon_points;
    const int extras = trick_scoring(c);
    for (int s = 0; s < n; s++) {
        int64_t raw = 0;
        if (HC_UNLIKELY(c->royal_queens)) {
            raw = royal_raw(c, taken[s]);
        } else {
            for (uint64_t x = taken[s] & c->point; x; x &= x - 1)
                raw += c->values[lowest(x)];
        }
        if (HC_UNLIKELY(extras))
            raw += trick_extra(c, taken[s], s, first, last);
        if (c->doubler >= 0 && (taken[s] & BIT(c->doubler))) {
            /* Gong Zhu: the ten of clubs "counts +50 if the player who takes it
             * takes no other scoring cards" (a heart worth 0 is one: "Note that
             * the 4, 3 and 2 of hearts are scoring cards") */
            uint64_t scoring = c->point | (c->all_hearts_reversed ? c->hearts : 0);
            if (c->doubler_alone_points && !(taken[s] & scoring & ~BIT(c->doubler)))
                raw += c->doubler_alone_points;
            else
                raw *= c->doubler_exposed ? 4 : 2; /* Gong Zhu: exposed, it quadruples */
        }
        out[s] = raw;
        if (c->moon_required && (taken[s] & c->moon_required) == c->moon_required)
            shooter = s;
    }
    if (HC_UNLIKELY(c->royal_queens))
        royal_floor(c, shooter, m, out);
    return sun_shooter(c, won, shooter, m);
}

static void score_hand(const hc_config *c, const uint64_t taken[], const uint8_t won[],
                       int first, int last, const int64_t totals[], int64_t target, int choice,
                       int64_t out[])
{
    int64_t m;
    int shooter = raw_scores(c, taken, won, first, last, &m, out);
    finish_score(c, won, totals, target, shooter, m, choice, out);
}

/* Hand state --------------------------------------------------------------- */

static const char *const state_errors[] = {
    [HC_STATE_OK] = "ok",
    [HC_STATE_CONFIG] = "the configuration was not initialised",
    [HC_STATE_HANDS_LEN] = "hands must hold one mask per player",
    [HC_STATE_HAND_SIZE] = "every hand must hold exactly hand_size cards (with "
                           "extra_cards_first_trick, exactly `extra` hands hold hand_size + 1 "
                           "and the others hand_size)",
    [HC_STATE_OVERLAP] = "the hands and the kitty must be disjoint",
    [HC_STATE_DECK] = "the hands and the kitty together must be exactly the deck",
    [HC_STATE_DEALER] = "dealer must be a seat 0..players-1",
    [HC_STATE_PASS_KIND] = "pass_kind must be 0 (hold), 1..players-1, 100 (scatter, needs "
                           "hand_size >= players-1), 101 (center) or 102 (star, needs an odd "
                           "number of players and hand_size >= 2), or a split of pass_count "
                           "offsets each 1..players-1, and every hand must keep enough cards "
                           "that pass_forbidden allows it to pass",
    [HC_STATE_NO_CLUB] = "the opening rule (0 or 1) needs a club, and no hand holds one",
    [HC_STATE_NO_SPADE] = "the opening rule (3) needs a spade, and no hand holds one",
};

const char *hc_state_strerror(int code)
{
    if (code < 0 || code > HC_STATE_NO_SPADE)
        return "unknown state error";
    return state_errors[code];
}

static HC_ALWAYS_INLINE int next_seat(int s, int n) { return s + 1 == n ? 0 : s + 1; }

static void start_play(hc_hand *h)
{
    const hc_config *c = h->cfg;
    int n = (int)c->players;
    hc_dyn *d = &h->d;
    uint64_t all = 0;
    for (int s = 0; s < n; s++)
        all |= d->hand[s];
    d->phase = HC_PHASE_PLAYING;
    h->opening = (int)c->opening;
    h->opening_card = -1;
    d->leader = (int8_t)((h->dealer + 1) % n);
    if (h->opening != 2) {
        if (all & c->opening_suit) {
            int low = lowest(all & c->opening_suit);
            h->opening_card = low;
            for (int s = 0; s < n; s++)
                if (d->hand[s] & BIT(low))
                    d->leader = (int8_t)s;
        } else {
            h->opening = 2; /* unreachable for a validated config */
        }
    }
    d->to_play = d->leader;
    d->booster = d->led = -1;
    h->undo_len = 0;
}

/* hc_hand_init with the pass kind's validity already judged by the caller
 * (`kind_ok`): the checks of the deal, then the state. */
static int hand_init(hc_hand *h, const hc_config *c, const uint64_t hands[], int nhands,
                     uint64_t kitty, int64_t dealer, int64_t pass_kind, int kind_ok,
                     int pass_len, uint64_t seed)
{
    int n = (int)c->players;
    if (nhands != n)
        return HC_STATE_HANDS_LEN;
    uint64_t all = 0;
    int longer = 0; /* hands of hand_size + 1 (the extra cards, 002) */
    for (int s = 0; s < n; s++) {
        int size = popcount_sw(hands[s]);
        if (size == c->hand_size + 1 && c->extra)
            longer++;
        else if (size != c->hand_size)
            return HC_STATE_HAND_SIZE;
        if (all & hands[s])
            return HC_STATE_OVERLAP;
        all |= hands[s];
    }
    if (longer != c->extra)
        return HC_STATE_HAND_SIZE;
    if (all & kitty)
        return HC_STATE_OVERLAP;
    if ((all | kitty) != c->deck)
        return HC_STATE_DECK;
    if (!in_range(dealer, 0, n - 1))
        return HC_STATE_DEALER;
    if (!kind_ok)
        return HC_STATE_PASS_KIND;
    if (c->opening != 2 && !(all & c->opening_suit))
        return c->opening == 3 ? HC_STATE_NO_SPADE : HC_STATE_NO_CLUB;

    hc_dyn *d = &h->d;
    for (int s = 0; s < n; s++)
        d->hand[s] = hands[s];
    h->kitty = kitty;
    h->seed = seed;
    h->dealer = (int)dealer;
    h->pass_kind = (int)pass_kind;
    h->opening = (int)c->opening;
    h->opening_card = -1;
    d->to_play = d->leader = d->kitty_owner = d->winner = d->booster = d->led = -1;
    if (pass_kind == HC_PASS_HOLD) {
        h->pass_len = 0;
        start_play(h);
    } else {
        h->pass_len = pass_len;
        d->phase = HC_PHASE_PASSING;
    }
    return HC_STATE_OK;
}

int hc_hand_init(hc_hand *h, const hc_config *c, const uint64_t hands[], int nhands,
                 uint64_t kitty, int64_t dealer, int64_t pass_kind, uint64_t seed)
{
    memset(h, 0, offsetof(hc_hand, undo));
    h->cfg = c;
    if (!config_sane(c))
        return HC_STATE_CONFIG;
    int ok = hc_pass_kind_valid(c, pass_kind);
    return hand_init(h, c, hands, nhands, kitty, dealer, pass_kind, ok,
                     ok ? hc_pass_length(c, pass_kind) : 0, seed);
}

int hc_hand_init_split(hc_hand *h, const hc_config *c, const uint64_t hands[], int nhands,
                       uint64_t kitty, int64_t dealer, const int64_t offsets[], int64_t noffsets,
                       uint64_t seed)
{
    memset(h, 0, offsetof(hc_hand, undo));
    h->cfg = c;
    if (!config_sane(c))
        return HC_STATE_CONFIG;
    /* 003: "each player passes three cards and receives three cards" */
    int ok = noffsets == c->pass_count && noffsets >= 1 && noffsets <= HC_MAX_HAND &&
             passable_enough(c, (int)noffsets);
    for (int i = 0; ok && i < HC_MAX_HAND && i < noffsets; i++) {
        ok = in_range(offsets[i], 1, c->players - 1);
        h->split[i] = (uint8_t)offsets[i];
    }
    return hand_init(h, c, hands, nhands, kitty, dealer, HC_PASS_SPLIT, ok,
                     ok ? (int)noffsets : 0, seed);
}

static void exchange(hc_hand *h)
{
    const hc_config *c = h->cfg;
    int n = (int)c->players, len = h->pass_len;
    uint64_t *hand = h->d.hand;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < len; i++)
            hand[s] &= ~BIT(h->passed[s][i]);
    if (h->pass_kind == HC_PASS_SCATTER) {
        /* seat g's i-th card goes to (g + 1 + i) % n; received in giver order */
        for (int t = 0; t < n; t++) {
            int m = 0;
            for (int g = 0; g < n; g++) {
                if (g == t)
                    continue;
                uint8_t card = h->passed[g][(t - g - 1 + 2 * n) % n];
                hand[t] |= BIT(card);
                h->received[t][m++] = card;
            }
            h->received_n[t] = (uint8_t)m;
        }
    } else if (h->pass_kind == HC_PASS_STAR) {
        /* 004 'Passing cards': "pass one each to the two players situated
         * closest to the exact opposite side of the table"; target t receives
         * the card 0 of seat t - n/2, then the card 1 of seat t - (n+1)/2 */
        const int near = n / 2, far = (n + 1) / 2;
        for (int t = 0; t < n; t++) {
            uint8_t a = h->passed[(t - near + n) % n][0], b = h->passed[(t - far + n) % n][1];
            hand[t] |= BIT(a) | BIT(b);
            h->received[t][0] = a;
            h->received[t][1] = b;
            h->received_n[t] = HC_STAR_LEN;
        }
    } else if (h->pass_kind == HC_PASS_SPLIT) {
        /* 003 'Simple variations': card i goes split[i] seats left, so seat t
         * receives card i of seat t - split[i], in position order */
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < len; i++) {
                uint8_t card = h->passed[(t - h->split[i] + n) % n][i];
                hand[t] |= BIT(card);
                h->received[t][i] = card;
            }
            h->received_n[t] = (uint8_t)len;
        }
    } else if (h->pass_kind == HC_PASS_CENTER) {
        uint8_t pool[HC_ALL_CARDS];
        int m = 0;
        for (int s = 0; s < n; s++)
            for (int i = 0; i < len; i++)
                pool[m++] = h->passed[s][i];
        uint64_t rng = h->seed ^ CENTER_SALT;
        shuffle(pool, m, &rng);
        for (int k = 0; k < m; k++) {
            int t = (h->dealer + 1 + k) % n;
            hand[t] |= BIT(pool[k]);
            h->received[t][h->received_n[t]++] = pool[k];
        }
    } else {
        int k = h->pass_kind;
        for (int s = 0; s < n; s++) {
            int t = (s + k) % n;
            for (int i = 0; i < len; i++) {
                hand[t] |= BIT(h->passed[s][i]);
                h->received[t][i] = h->passed[s][i];
            }
            h->received_n[t] = (uint8_t)len;
        }
    }
}

int hc_apply_pass(hc_hand *h, int64_t seat, const int64_t cards[], int64_t ncards)
{
    int n = (int)h->cfg->players;
    if (h->d.phase != HC_PHASE_PASSING)
        return HC_ERR_NOT_PASSING;
    if (seat < 0 || seat >= n)
        return HC_ERR_BAD_SEAT;
    if (h->passed_seats & (1u << seat))
        return HC_ERR_ALREADY_PASSED;
    if (ncards != h->pass_len)
        return HC_ERR_PASS_COUNT;
    for (int i = 0; i < ncards; i++)
        for (int j = 0; j < i; j++)
            if (cards[i] == cards[j])
                return HC_ERR_PASS_DUPLICATE;
    for (int i = 0; i < ncards; i++)
        if (cards[i] < 0 || cards[i] >= HC_ALL_CARDS || !(h->d.hand[seat] & BIT(cards[i])))
            return HC_ERR_PASS_NOT_IN_HAND;
    for (int i = 0; i < ncards; i++) /* 004 'Passing cards': may be prohibited */
        if (h->cfg->pass_forbidden & BIT(cards[i]))
            return HC_ERR_PASS_FORBIDDEN;
    for (int i = 0; i < ncards; i++)
        h->passed[seat][i] = (uint8_t)cards[i];
    h->passed_n[seat] = (uint8_t)ncards;
    h->passed_seats |= 1u << seat;
    if (h->passed_seats == (1u << n) - 1) {
        exchange(h);
        start_play(h);
    }
    return HC_OK;
}

int hc_trick_len(const hc_hand *h)
{
    if (h->d.phase != HC_PHASE_PLAYING)
        return 0;
    int t = h->d.trick_number;
    return h->d.played - (t ? t * (int)h->cfg->players + h->cfg->extra : 0);
}

/* The number of cards of the current trick: players, and players + extra on the
 * first trick (002's extra cards). */
static HC_ALWAYS_INLINE int trick_size(const hc_hand *h)
{
    return (int)h->cfg->players + (h->d.trick_number ? 0 : h->cfg->extra);
}

/* The lead rule (contract "Leading a later trick"). */
static HC_ALWAYS_INLINE uint64_t lead_filter(const hc_config *c, uint64_t hand, int broken)
{
    if (broken || !c->lead_ban)
        return hand;
    if (c->queen_lead_ok && !(hand & ~c->queen_lead_ok))
        return hand;
    uint64_t x = hand & ~c->lead_ban;
    return x ? x : hand;
}

/* The legal set, and the code naming the first filter that removed `card`
 * (0 if it survived; card < 0 means "no card to judge"). */
static uint64_t legal_for(const hc_hand *h, int card, int *code)
{
    const hc_config *c = h->cfg;
    const hc_dyn *d = &h->d;
    uint64_t hand = d->hand[d->to_play], b = card >= 0 ? BIT(card) : 0, legal;
    int first = d->trick_number == 0;
    *code = HC_OK;
    if (!d->trick) {
        if (first && (h->opening == 0 || h->opening == 3)) {
            legal = BIT(h->opening_card);
            if (b && !(legal & b))
                *code = HC_ERR_MUST_LEAD_OPENING_CARD;
        } else if (first && h->opening == 1) {
            legal = hand & c->clubs;
            if (b && !(legal & b))
                *code = HC_ERR_MUST_LEAD_CLUB;
        } else if (HC_UNLIKELY(d->booster >= 0) && (hand & c->suits[d->booster])) {
            /* 004 'Other Variations': "Booster Nines - if a nine is played then an extra
             * round in the suit is played"; the obligation overrides the lead rule (a
             * wild joker may still be played "any time") */
            legal = (hand & c->suits[d->booster]) | (hand & c->wild);
            if (b && !(legal & b))
                *code = HC_ERR_BOOSTER_SUIT;
        } else {
            legal = lead_filter(c, hand, d->broken);
            if (b && !(legal & b))
                *code = HC_ERR_NOT_BROKEN;
        }
    } else if (HC_UNLIKELY(c->joker_kind)) {
        /* a trick led with a wild joker has no suit until a suited card is played */
        legal = d->led >= 0 ? hand & c->suits[d->led] : 0;
        legal = legal ? legal | (hand & c->wild) : hand;
        if (b && !(legal & b))
            *code = HC_ERR_MUST_FOLLOW_SUIT;
    } else {
        legal = hand & (HC_SUIT_MASK << (13 * (d->best / 13)));
        if (!legal)
            legal = hand;
        if (b && !(legal & b))
            *code = HC_ERR_MUST_FOLLOW_SUIT;
    }
    if (first && c->first_ban) {
        uint64_t x = legal & ~c->first_ban;
        if (x) {
            if (b && !*code && !(x & b))
                *code = HC_ERR_FIRST_TRICK_POINTS;
            legal = x;
        }
    }
    /* 004 (1911) 'Joker Hearts': "It cannot be thrown away, excepting when hearts are
     * led and an ace or court card is played, though if an opponent discards the ace or
     * a court card of hearts, then the holder of the joker may discard it": only once
     * the trick holds the JH, QH, KH or AH (on a heart lead or as discards), unless it
     * is the only legal card */
    if (HC_UNLIKELY(c->joker_kind == HC_JOKER_HEART) && (legal & c->jokers) &&
        !(d->trick & HC_HIGH_HEARTS)) {
        uint64_t x = legal & ~c->jokers;
        if (x) {
            if (b && !*code && !(x & b))
                *code = HC_ERR_JOKER_HELD;
            legal = x;
        }
    }
    /* 001 'VARIATION 1: BLACK MARIAH': "a player holding the Q of spades must get rid of
     * it on the first trick they legitimately can (by playing it as the first discard in
     * a voided suit, or by playing it when an opponent leads A of spades or K of
     * spades)": once the ♠Q is a legal play to someone else's lead, and either the seat
     * is discarding (a suit other than spades was led) or the trick holds the ♠A or ♠K,
     * it is the only legal play. The first-trick rule is applied first: where it bars
     * the ♠Q, the ♠Q is no opportunity. (Rules allows no jokers with it; for the core,
     * a trick led with a wild joker and no suit yet counts as not spades.) */
    if (HC_UNLIKELY(c->queen_at_first_chance) && d->trick && (legal & BIT(HC_QS)) &&
        ((c->joker_kind ? d->led : d->best / 13) != 2 ||
         (d->trick & (BIT(HC_KS) | BIT(HC_AS))))) {
        if (b && !*code && b != BIT(HC_QS))
            *code = HC_ERR_QUEEN_FIRST_CHANCE;
        legal = BIT(HC_QS);
    }
    /* Gong Zhu (Wikipedia): "An exposed card may not be played the first time its suit
     * is led, including the lead itself, unless it is a singleton": an exposed card of
     * a suit not led yet in this hand may not be led, nor played to the first trick led
     * in its suit, while the seat holds another card of that suit. A discard is free. */
    if (HC_UNLIKELY(c->exposed) && (legal & c->exposed)) {
        uint64_t barred = 0;
        int lead_suit = !d->trick ? -1 : c->joker_kind ? d->led : (int)(d->best / 13);
        for (uint64_t x = legal & c->exposed; x; x &= x - 1) {
            int e = lowest(x), k = e / 13;
            if (d->suits_led & (1u << k))
                continue; /* a trick of its suit has been finished already */
            if (d->trick && k != lead_suit)
                continue; /* a discard */
            if (hand & c->suits[k] & ~BIT(e))
                barred |= BIT(e);
        }
        uint64_t x = legal & ~barred;
        if (barred && x) {
            if (b && !*code && !(x & b))
                *code = HC_ERR_EXPOSED_CARD;
            legal = x;
        }
    }
    return legal;
}

uint64_t hc_legal_mask(const hc_hand *h)
{
    int code;
    if (h->d.phase != HC_PHASE_PLAYING)
        return 0;
    return legal_for(h, -1, &code);
}

/* Phase, index and ownership checks shared by play and push (codes 1..4). */
static int structural_check(const hc_hand *h, int64_t card)
{
    if (h->d.phase == HC_PHASE_OVER)
        return HC_ERR_HAND_OVER;
    if (h->d.phase != HC_PHASE_PLAYING)
        return HC_ERR_PASSING;
    if (card < 0 || card >= HC_ALL_CARDS || !(h->cfg->deck & BIT(card)))
        return HC_ERR_BAD_CARD;
    if (!(h->d.hand[h->d.to_play] & BIT(card)))
        return HC_ERR_NOT_IN_HAND;
    return HC_OK;
}

int hc_check_play(const hc_hand *h, int64_t card)
{
    int code = structural_check(h, card);
    if (code)
        return code;
    legal_for(h, (int)card, &code);
    return code;
}

/* The suit of a card: its own, hearts for the 1911 joker, -1 for a wild joker. */
static HC_ALWAYS_INLINE int suit_index(const hc_config *c, int card)
{
    if (card < HC_CARDS)
        return card / 13;
    return c->joker_kind == HC_JOKER_HEART ? 3 : -1;
}

/* Rank order within a suit: index order, the 1911 joker between the TH and the JH. */
static HC_ALWAYS_INLINE int card_order(int card)
{
    return card < HC_CARDS ? 2 * card : HC_JOKER_ORDER;
}

/* Trick bookkeeping with jokers: the suit is set by the first suited card (a wild
 * joker has none, and never wins; a trick of only wild jokers goes to its leader). */
static void joker_trick_play(const hc_config *c, hc_dyn *d, int card, int p)
{
    int suit = suit_index(c, card);
    if (!d->trick) {
        d->led = (int8_t)suit;
        d->best = (uint8_t)card;
        d->winner = (int8_t)p;
    } else if (d->led < 0) {
        if (suit >= 0) {
            d->led = (int8_t)suit;
            d->best = (uint8_t)card;
            d->winner = (int8_t)p;
        }
    } else if (suit == d->led && card_order(card) > card_order(d->best)) {
        d->best = (uint8_t)card;
        d->winner = (int8_t)p;
    }
}

/* With 002's extra cards (cfg->extra > 0), after seat `p` played: 1 and the next
 * seat to play set if the trick goes on, 0 if it is complete.  "Deal out the extra
 * cards to players and allow the player with them to play an additional card on the
 * first trick": the first trick goes round once from the leader, then each seat still
 * holding hand_size cards (one extra) plays again, in order from the leader, until it
 * holds players + extra cards; a later trick t is plays t * players + extra onwards. */
static int extra_trick_goes_on(hc_hand *h, int p)
{
    const hc_config *c = h->cfg;
    hc_dyn *d = &h->d;
    const int n = (int)c->players, len = hc_trick_len(h);
    if (len < n) {
        d->to_play = (int8_t)next_seat(p, n);
        return 1;
    }
    if (d->trick_number == 0 && len < n + c->extra) {
        int s = d->leader;
        while (popcount_sw(d->hand[s]) < c->hand_size)
            s = next_seat(s, n);
        d->to_play = (int8_t)s;
        return 1;
    }
    return 0;
}

/* Play a card already known to be in the hand of the seat to play. */
static void do_play(hc_hand *h, int card)
{
    const hc_config *c = h->cfg;
    hc_dyn *d = &h->d;
    int n = (int)c->players, p = d->to_play;
    uint64_t b = BIT(card);
    h->undo[h->undo_len++] = *d;
    d->hand[p] &= ~b;
    if (HC_UNLIKELY(c->joker_kind)) {
        joker_trick_play(c, d, card, p);
    } else if (!d->trick) {
        d->best = (uint8_t)card;
        d->winner = (int8_t)p;
    } else if (card / 13 == d->best / 13 && card > d->best) {
        d->best = (uint8_t)card;
        d->winner = (int8_t)p;
    }
    d->trick |= b;
    if (b & c->breaking)
        d->broken = 1;
    /* broken_by 3: the QS breaks only when discarded, i.e. the trick's suit (set by
     * the lead, or with wild jokers by the first suited card) is not spades */
    if (HC_UNLIKELY(b & c->queen_discard) && (c->joker_kind ? d->led : d->best / 13) != 2)
        d->broken = 1;
    h->plays[d->played++] = (uint8_t)card;
    if (HC_UNLIKELY(c->extra)) {
        if (extra_trick_goes_on(h, p))
            return;
    } else if (d->played % n) {
        d->to_play = (int8_t)next_seat(p, n);
        return;
    }
    int w = d->winner, t = d->trick_number;
    d->taken[w] |= d->trick;
    d->tricks_won[w]++;
    h->trick_leader[t] = d->leader;
    h->trick_winner[t] = (int8_t)w;
    int last = t + 1 == c->hand_size;
    if (HC_UNLIKELY(c->kitty_taker == 3)) {
        /* 004 'The Kitty and the First Trick': a card a trick, the lowest left first;
         * the last trick takes whatever is left; kitty_owner: the first trick's winner */
        uint64_t rest = h->kitty;
        for (int s = 0; s < n; s++)
            rest &= ~d->taken[s];
        d->taken[w] |= last ? rest : rest & (0 - rest);
        if (d->kitty_owner < 0)
            d->kitty_owner = (int8_t)w;
    } else if (d->kitty_owner < 0 &&
               (c->kitty_taker == 0 || last ||
                (d->trick & (c->kitty_taker == 1 ? c->point : c->hearts)))) {
        /* 002: the first trick; 001: the first point card; 004 'Deal': the first heart */
        d->kitty_owner = (int8_t)w;
        d->taken[w] |= h->kitty;
    }
    /* Gong Zhu's exposed cards: the suit of each finished trick has been led */
    if (HC_UNLIKELY(c->exposed)) {
        int led = c->joker_kind ? d->led : d->best / 13;
        if (led >= 0)
            d->suits_led |= (uint8_t)(1u << led);
    }
    /* Booster Nines: the nine of the suit led (rank 7) in this trick */
    d->booster = -1;
    if (HC_UNLIKELY(c->booster_nines) && !last) {
        int led = c->joker_kind ? d->led : d->best / 13;
        if (led >= 0 && (d->trick & BIT(13 * led + HC_NINE)))
            d->booster = (int8_t)led;
    }
    d->trick = 0;
    d->trick_number++;
    d->leader = (int8_t)w;
    if (last) {
        d->phase = HC_PHASE_OVER;
        d->to_play = -1;
    } else {
        d->to_play = (int8_t)w;
    }
}

int hc_play(hc_hand *h, int64_t card)
{
    int code = hc_check_play(h, card);
    if (code)
        return code;
    do_play(h, (int)card);
    return HC_OK;
}

int hc_push(hc_hand *h, int64_t card)
{
    int code = structural_check(h, card);
    if (code)
        return code;
    if (h->undo_len >= HC_MAX_PLAYS)
        return HC_ERR_HAND_OVER; /* unreachable: a hand has at most 52 plays */
    do_play(h, (int)card);
    return HC_OK;
}

int hc_pop(hc_hand *h)
{
    if (h->undo_len <= 0)
        return -1;
    h->d = h->undo[--h->undo_len];
    return 0;
}

int hc_points_choice(const hc_hand *h, const int64_t totals[], int64_t target, int choice,
                     int64_t out[])
{
    int n = (int)h->cfg->players;
    if (h->d.phase != HC_PHASE_OVER)
        return -1;
    if (!in_range(target, -HC_TOTAL_LIMIT, HC_TOTAL_LIMIT))
        return -2;
    for (int s = 0; s < n; s++)
        if (!in_range(totals[s], -HC_TOTAL_LIMIT, HC_TOTAL_LIMIT))
            return -2;
    if (!in_range(choice, HC_MOON_CHOICE_ENGINE, HC_MOON_CHOICE_SUBTRACT))
        return -3;
    score_hand(h->cfg, h->d.taken, h->d.tricks_won, h->trick_winner[0],
               h->trick_winner[h->cfg->hand_size - 1], totals, target, choice, out);
    return 0;
}

int hc_points(const hc_hand *h, const int64_t totals[], int64_t target, int64_t out[])
{
    return hc_points_choice(h, totals, target, HC_MOON_CHOICE_ENGINE, out);
}

int hc_shooter(const hc_hand *h, int64_t *worth)
{
    int64_t out[HC_MAX_PLAYERS];
    if (h->d.phase != HC_PHASE_OVER)
        return -2;
    int shooter = raw_scores(h->cfg, h->d.taken, h->d.tricks_won, h->trick_winner[0],
                             h->trick_winner[h->cfg->hand_size - 1], worth, out);
    if (h->cfg->moon == 0 || shooter < 0) {
        *worth = 0;
        return -1;
    }
    return shooter;
}

/* Playouts (contract "Playouts") ------------------------------------------ */

#define RANK_MASK (1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39) /* rank 0 of every suit */

/* The lowest-ranked card of a non-empty set, the lowest index among equals. */
static int lowest_rank(uint64_t set)
{
    for (int r = 0;; r++)
        if (set & (RANK_MASK << r))
            return lowest(set & (RANK_MASK << r));
}

/* The greedy policy: lead the lowest rank (a card worth nothing if possible);
 * follow with the highest card that loses to the trick's best, else (when it
 * must win) the highest card worth no penalty as the last to play and the
 * lowest otherwise; when void, dump the largest (max(value, 0), rank, index). */
static int greedy_card(const hc_hand *h, uint64_t legal)
{
    const hc_config *c = h->cfg;
    const hc_dyn *d = &h->d;
    int led = d->trick ? d->best / 13 : -1;
    uint64_t under = d->trick ? BIT(d->best) - 1 : 0; /* the cards ranked below best */
    if (HC_UNLIKELY(c->jokers)) {
        /* never a joker while another card is legal */
        uint64_t j = legal & c->jokers;
        if (j == legal)
            return lowest(legal);
        legal &= ~j;
        led = d->trick ? d->led : -1;
        if (d->best == HC_JOKER0 && c->joker_kind == HC_JOKER_HEART)
            under = BIT(48) - 1;
    }
    if (led < 0) {
        uint64_t calm = legal & ~c->point;
        return lowest_rank(calm ? calm : legal);
    }
    uint64_t suit = HC_SUIT_MASK << (13 * led);
    if (legal & suit) {
        uint64_t below = legal & suit & under;
        if (below)
            return highest(below);
        uint64_t safe = legal & ~c->penalty;
        if (!safe)
            safe = legal;
        return hc_trick_len(h) == trick_size(h) - 1 ? highest(safe) : lowest(safe);
    }
    /* (max(value, 0), rank, index) as one int: values are below 2^31 (HC_VALUE_LIMIT) */
    int best = -1;
    int64_t best_key = -1;
    for (uint64_t x = legal; x; x &= x - 1) {
        int card = lowest(x);
        int64_t value = c->values[card] > 0 ? c->values[card] : 0;
        int64_t key = value << 12 | (int64_t)(card % 13) << 6 | card;
        if (key > best_key) {
            best = card;
            best_key = key;
        }
    }
    return best;
}

/* The shooter's plan (policy HC_POLICY_SHOOT + s, contract "Playouts"): seat s
 * tries to take every trick while no other seat has taken a penalty card.
 * Leading: a master card (the highest of its suit still in a hand) of the suit
 * s holds most of (the lowest suit on ties), else its highest rank (highest
 * index on ties).  Following: the highest card that beats the trick's best, the
 * lowest such card as the last to play; else the lowest of the suit.  Void: the
 * lowest rank worth no penalty (lowest index on ties), else the lowest rank. */
static int shoot_card(const hc_hand *h, uint64_t legal)
{
    const hc_config *c = h->cfg;
    const hc_dyn *d = &h->d;
    const uint64_t mine = d->hand[d->to_play];
    if (!d->trick) {
        uint64_t live = 0;
        for (int s = 0; s < (int)c->players; s++)
            live |= d->hand[s];
        int best = -1, most = -1;
        for (int suit = 0; suit < 4; suit++) {
            uint64_t in_suit = live & (HC_SUIT_MASK << (13 * suit));
            if (!in_suit)
                continue;
            int top = highest(in_suit);
            int held = popcount_sw(mine & (HC_SUIT_MASK << (13 * suit)));
            if ((legal & BIT(top)) && held > most) {
                best = top;
                most = held;
            }
        }
        if (best >= 0)
            return best;
        int pick = -1;
        for (uint64_t x = legal; x; x &= x - 1) {
            int card = lowest(x);
            if (pick < 0 || card % 13 >= pick % 13)
                pick = card;
        }
        return pick;
    }
    uint64_t suit = HC_SUIT_MASK << (13 * (d->best / 13));
    if (legal & suit) {
        uint64_t above = legal & suit & ~((BIT(d->best) << 1) - 1);
        if (above)
            return hc_trick_len(h) == trick_size(h) - 1 ? lowest(above) : highest(above);
        return lowest(legal & suit);
    }
    uint64_t calm = legal & ~c->penalty;
    return lowest_rank(calm ? calm : legal);
}

/* Whether seat `s` still plays the shooter's plan: no other seat has taken a
 * penalty card, and the deck has no jokers (their order is the greedy's). */
static int still_shooting(const hc_hand *h, int s)
{
    if (h->cfg->jokers)
        return 0;
    for (int t = 0; t < (int)h->cfg->players; t++)
        if (t != s && (h->d.taken[t] & h->cfg->penalty))
            return 0;
    return 1;
}

static const int64_t zero_totals[HC_MAX_PLAYERS];

int hc_playout(hc_hand *h, uint64_t seed, int64_t policy, int64_t out[])
{
    int shooter = -1;
    if (policy >= HC_POLICY_SHOOT && policy < HC_POLICY_SHOOT + (int64_t)h->cfg->players) {
        shooter = (int)(policy - HC_POLICY_SHOOT);
        policy = HC_POLICY_MIXED;
    }
    if (policy != HC_POLICY_RANDOM && policy != HC_POLICY_GREEDY && policy != HC_POLICY_MIXED)
        return -2;
    if (h->d.phase == HC_PHASE_PASSING)
        return -1;
    const hc_dyn saved = h->d;
    const int saved_len = h->undo_len;
    uint64_t rng = seed;
    while (h->d.phase == HC_PHASE_PLAYING) {
        int code;
        uint64_t legal = legal_for(h, -1, &code);
        int card;
        if (h->d.to_play == shooter && still_shooting(h, shooter)) {
            card = shoot_card(h, legal);
        } else if (policy == HC_POLICY_RANDOM ||
                   (policy == HC_POLICY_MIXED && bounded(&rng, HC_MIXED_ODDS) == 0)) {
            unsigned k = (unsigned)bounded(&rng, (uint64_t)popcount_sw(legal));
            card = select_sw(legal, k);
        } else {
            card = greedy_card(h, legal);
        }
        do_play(h, card);
    }
    score_hand(h->cfg, h->d.taken, h->d.tricks_won, h->trick_winner[0],
               h->trick_winner[h->cfg->hand_size - 1], zero_totals, 0, HC_MOON_CHOICE_ENGINE,
               out);
    h->d = saved;
    h->undo_len = saved_len;
    return 0;
}

/* The exact endgame (contract "Playouts", solve) ------------------------------ */

/* Whether two cards of one suit with nothing live between them (no card of a hand
 * or of the current trick) win and lose the same tricks and score the same, so
 * that a search may play one for both: never in games where a card's place counts
 * beyond its rank and value (the jokers, Royal Hearts, Booster Nines, the doubler,
 * the QS at the first chance, exposed cards, the trick and reversal scores). */
static int solve_groups(const hc_config *c)
{
    return !(c->joker_kind || c->royal_queens || c->booster_nines || c->doubler >= 0 ||
             c->queen_at_first_chance || c->first_trick_points || c->last_trick_points ||
             c->exposed || c->doubler_exposed || c->all_hearts_reversed ||
             c->every_penalty_extra || c->doubler_alone_points || c->deck >> HC_CARDS);
}

static int solve_node(hc_hand *h, int groups, int64_t *budget, int64_t out[])
{
    const hc_config *c = h->cfg;
    if (h->d.phase != HC_PHASE_PLAYING) {
        score_hand(c, h->d.taken, h->d.tricks_won, h->trick_winner[0],
                   h->trick_winner[c->hand_size - 1], zero_totals, 0, HC_MOON_CHOICE_ENGINE,
                   out);
        return 0;
    }
    if (--*budget < 0)
        return -1;
    int n = (int)c->players, p = h->d.to_play, code, prev = -1;
    uint64_t legal = legal_for(h, -1, &code), live = h->d.trick;
    for (int s = 0; s < n; s++)
        live |= h->d.hand[s];
    int64_t best_key = INT64_MAX;
    while (legal) {
        int card = lowest(legal);
        legal &= legal - 1;
        int same = groups && prev >= 0 && prev / 13 == card / 13 &&
                   c->values[prev] == c->values[card] &&
                   !(((c->moon_extra >> prev) ^ (c->moon_extra >> card)) & 1) &&
                   !(live & (BIT(card) - BIT(prev + 1)));
        prev = card;
        if (same)
            continue; /* the same as the legal card below it, already searched */
        int64_t sc[HC_MAX_PLAYERS], sum = 0;
        do_play(h, card);
        int r = solve_node(h, groups, budget, sc);
        h->d = h->undo[--h->undo_len];
        if (r < 0)
            return r;
        for (int s = 0; s < n; s++)
            sum += sc[s];
        int64_t key = n * sc[p] - sum;
        if (key < best_key) {
            best_key = key;
            for (int s = 0; s < n; s++)
                out[s] = sc[s];
        }
    }
    return 0;
}

int hc_solve(hc_hand *h, int64_t limit, int64_t out[])
{
    if (h->d.phase == HC_PHASE_PASSING)
        return -1;
    const hc_dyn saved = h->d;
    const int saved_len = h->undo_len;
    int64_t budget = limit;
    int r = solve_node(h, solve_groups(h->cfg), &budget, out);
    h->d = saved;
    h->undo_len = saved_len;
    return r < 0 ? -3 : 0;
}

/* Raw scores by table: the sum of the values in each byte of a taken mask,
 * for the bytes that hold point cards (built once per batch call). */
typedef struct {
    int nbytes;
    int shift[8];
    int64_t sum[8][256];
} value_tables;

static void build_value_tables(const hc_config *c, value_tables *vt)
{
    vt->nbytes = 0;
    for (int k = 0; k < 7; k++) {
        unsigned pts = (unsigned)(c->point >> (8 * k)) & 0xFF;
        if (!pts)
            continue;
        int64_t *t = vt->sum[vt->nbytes];
        vt->shift[vt->nbytes++] = 8 * k;
        t[0] = 0;
        for (unsigned v = 1; v < 256; v++) {
            int i = lowest(v);
            t[v] = t[v & (v - 1)] + ((pts >> i) & 1 ? c->values[8 * k + i] : 0);
        }
    }
}

/* The random batch ----------------------------------------------------------
 *
 * One hand per iteration on local masks.  `popc`/`pdep` are compile-time
 * constants in each instantiation below, so the dead variants fold away. */

static HC_ALWAYS_INLINE int bits(uint64_t x, const int popc)
{
#ifdef HC_X86
    if (popc)
        return popcount_hw(x);
#else
    (void)popc;
#endif
    return popcount_sw(x);
}

static HC_ALWAYS_INLINE int select_bit(uint64_t x, unsigned k, const int pdep)
{
#ifdef HC_X86
    if (pdep)
        return select_pdep(x, k);
#else
    (void)pdep;
#endif
    return select_sw(x, k);
}

/* One policy decision: the k-th lowest card of a non-empty set. */
static HC_ALWAYS_INLINE int choose(uint64_t set, uint64_t *policy, uint64_t *digest,
                                   const int popc, const int pdep)
{
    unsigned k = (unsigned)bounded(policy, (uint64_t)bits(set, popc));
    int card = select_bit(set, k, pdep);
    *digest = (*digest ^ (uint64_t)card) * HC_FNV_PRIME;
    return card;
}

/* The suit mask of each card (a load is shorter than divide-and-shift). */
static const uint64_t suit_of[HC_CARDS] = {
#define S4(m) m, m, m, m
#define S13(m) S4(m), S4(m), S4(m), m
    S13(HC_SUIT_MASK), S13(HC_SUIT_MASK << 13), S13(HC_SUIT_MASK << 26), S13(HC_SUIT_MASK << 39),
#undef S13
#undef S4
};

/* Plays one trick whose lead set is `lead`; `order` lists the seats from the
 * leader on; `ban` is the first-trick ban (a constant 0 after trick 0); `queen` is
 * the ♠Q when it must go at the first chance (cfg->queen_at_first_chance), else 0.
 * Returns the winner and stores the trick mask and the led suit's mask.  Branch-free
 * apart from the loop over the followers. */
static HC_ALWAYS_INLINE int batch_trick(uint64_t *hand, uint8_t *seat_of, const uint8_t *order,
                                        int n, uint64_t lead, uint64_t ban, uint64_t queen,
                                        uint64_t *policy, uint64_t *digest, uint64_t *trick,
                                        uint64_t *led, const int popc, const int pdep)
{
    if (ban) {
        uint64_t x = lead & ~ban;
        lead = x ? x : lead;
    }
    const int leader = order[0];
    int card = choose(lead, policy, digest, popc, pdep);
    uint64_t b = BIT(card), tm = b;
    hand[leader] ^= b;
    seat_of[card] = (uint8_t)leader;
    const uint64_t suit = suit_of[card];
    for (int j = 1; j < n; j++) {
        const int p = order[j];
        uint64_t hp = hand[p], f = hp & suit;
        f = f ? f : hp;
        if (ban) {
            uint64_t x = f & ~ban;
            f = x ? x : f;
        }
        /* 001 'BLACK MARIAH' (as legal_for): a legal ♠Q goes on a discard, or on a
         * spade trick holding the ♠K or ♠A */
        if (HC_UNLIKELY(f & queen) && (!(suit & queen) || (tm & (BIT(HC_KS) | BIT(HC_AS)))))
            f = queen;
        card = choose(f, policy, digest, popc, pdep);
        b = BIT(card);
        hand[p] = hp ^ b;
        tm |= b;
        seat_of[card] = (uint8_t)p;
    }
    *trick = tm;
    *led = suit;
    return seat_of[highest(tm & suit)];
}

static HC_ALWAYS_INLINE int batch_core(const hc_config *c, const value_tables *vt,
                                        uint64_t seed, uint64_t start, uint64_t count,
                                        const int64_t *schedule, int nsched, uint64_t *digest_io,
                                        int64_t *sums, const int popc, const int pdep,
                                        const int rare)
{
    const int n = (int)c->players, hs = (int)c->hand_size, ds = c->deck_size;
    const int dealt = n * hs, pass_count = (int)c->pass_count, opening = (int)c->opening;
    const uint64_t ban = c->first_ban, lead_ban = c->lead_ban, breaking = c->breaking;
    const uint64_t queen_ok = c->queen_lead_ok, point = c->point, clubs = c->clubs;
    /* broken_by 3: the ♠Q breaks when the trick's suit is not spades */
    const uint64_t queen_discard = c->queen_discard;
    /* `rare` (a constant in each instantiation): the rules few presets play, whose tests
     * the others' loop is built without */
    const uint64_t queen = rare && c->queen_at_first_chance ? c->deck & BIT(HC_QS) : 0;
    /* the kitty goes whole to the winner of the first trick holding a card of
     * `kitty_trigger` (any card, a point card, a heart; the last trick's winner if
     * none), or a card a trick with kitty_taker 3 (`drip`) */
    const int drip = rare && c->kitty_taker == 3;
    const uint64_t kitty_trigger = c->kitty_taker == 0   ? ~0ULL
                                   : c->kitty_taker == 1 ? point
                                   : c->kitty_taker == 2 ? c->hearts
                                                         : 0;
    const int booster = rare && c->booster_nines;
    const uint64_t doubler = c->doubler >= 0 ? BIT(c->doubler) : 0, moon_req = c->moon_required;
    const uint64_t unpassable = c->pass_forbidden;
    /* Royal Hearts and the trick and reversal options score through score_hand */
    const int full_score = rare && (c->royal_queens || trick_scoring(c) || c->doubler_exposed);
    uint8_t seat_at[HC_CARDS + 2 * HC_MAX_PLAYERS]; /* seat_at[j] = j % n */
    for (int j = 0; j < (int)sizeof seat_at; j++)
        seat_at[j] = (uint8_t)(j % n);

    uint64_t digest = *digest_io;
    uint64_t master = seed + start * GOLDEN; /* SplitMix64 after `start` draws */
    int dealer = (int)(start % (uint64_t)n), si = (int)(start % (uint64_t)nsched);

    for (uint64_t it = 0; it < count; it++) {
        const uint64_t hand_seed = splitmix(&master);
        const int kind = (int)schedule[si];
        uint64_t hand[HC_MAX_PLAYERS] = {0};
        uint64_t kitty = 0;

        /* Deal: Fisher-Yates from the top; position i is final once step i
         * has run, so it is dealt at once (positions >= dealt are the kitty). */
        {
            uint8_t a[HC_CARDS];
            memcpy(a, c->deck_cards, sizeof a);
            uint64_t rng = hand_seed;
            int i = ds - 1;
            for (; i >= dealt && i >= 1; i--) {
                int j = (int)bounded(&rng, (uint64_t)i + 1);
                uint8_t t = a[j];
                a[j] = a[i];
                kitty |= BIT(t);
            }
            for (; i >= 1; i--) {
                int j = (int)bounded(&rng, (uint64_t)i + 1);
                uint8_t t = a[j];
                a[j] = a[i];
                hand[seat_at[dealer + 1 + i]] |= BIT(t);
            }
            if (dealt > 0)
                hand[seat_at[dealer + 1]] |= BIT(a[0]);
            else
                kitty |= BIT(a[0]);
        }

        uint64_t policy = hand_seed ^ POLICY_SALT;
        if (kind != HC_PASS_HOLD) {
            const int len = kind == HC_PASS_SCATTER ? n - 1
                            : kind == HC_PASS_STAR  ? HC_STAR_LEN
                                                    : pass_count;
            uint8_t given[HC_MAX_PLAYERS][HC_MAX_HAND];
            uint64_t rest[HC_MAX_PLAYERS];
            for (int s = 0; s < n; s++) {
                uint64_t r = hand[s];
                for (int i = 0; i < len; i++) {
                    /* the k-th lowest of the cards it may pass; with nothing
                     * forbidden that is r itself, of hs - i cards */
                    const uint64_t allowed = r & ~unpassable;
                    const int m = unpassable ? bits(allowed, popc) : hs - i;
                    unsigned k = (unsigned)bounded(&policy, (uint64_t)m);
                    int card = select_bit(allowed, k, pdep);
                    r ^= BIT(card);
                    given[s][i] = (uint8_t)card;
                    digest = (digest ^ (uint64_t)card) * HC_FNV_PRIME;
                }
                rest[s] = r;
            }
            if (kind == HC_PASS_SCATTER) {
                for (int s = 0; s < n; s++)
                    hand[s] = rest[s];
                for (int g = 0; g < n; g++)
                    for (int i = 0; i < len; i++)
                        hand[seat_at[g + 1 + i]] |= BIT(given[g][i]);
            } else if (kind == HC_PASS_STAR) {
                const int near = n / 2, far = (n + 1) / 2;
                for (int t = 0; t < n; t++)
                    hand[t] = rest[t] | BIT(given[seat_at[t + n - near]][0]) |
                              BIT(given[seat_at[t + n - far]][1]);
            } else if (kind == HC_PASS_CENTER) {
                uint8_t pool[HC_CARDS];
                int m = 0;
                for (int s = 0; s < n; s++) {
                    hand[s] = rest[s];
                    for (int i = 0; i < len; i++)
                        pool[m++] = given[s][i];
                }
                uint64_t rng = hand_seed ^ CENTER_SALT;
                shuffle(pool, m, &rng);
                for (int k = 0; k < m; k++)
                    hand[seat_at[dealer + 1 + k]] |= BIT(pool[k]);
            } else {
                uint64_t out[HC_MAX_PLAYERS];
                for (int s = 0; s < n; s++)
                    out[s] = hand[s] ^ rest[s];
                for (int s = 0; s < n; s++)
                    hand[s] = rest[s] | out[seat_at[s + n - kind]];
            }
        }

        /* Play. */
        int leader = seat_at[dealer + 1];
        uint64_t lead;
        if (opening == 2) {
            lead = lead_filter(c, hand[leader], 0);
        } else {
            /* the lowest club (opening 0/1) or spade (3) in the hands */
            const uint64_t held = c->deck & ~kitty & c->opening_suit;
            if (HC_UNLIKELY(!held)) {
                *digest_io = digest;
                return -3; /* as hc_hand_init: no club (spade) to open with */
            }
            const uint64_t low = held & (0 - held);
            for (int s = 0; s < n; s++)
                if (hand[s] & low)
                    leader = s;
            lead = opening == 1 ? hand[leader] & clubs : low;
        }
        uint64_t taken[HC_MAX_PLAYERS] = {0}, tm, suit, rest = kitty;
        uint8_t won[HC_MAX_PLAYERS] = {0}, seat_of[64];
        int win = batch_trick(hand, seat_of, seat_at + leader, n, lead, ban, queen, &policy,
                              &digest, &tm, &suit, popc, pdep);
        taken[win] |= tm;
        won[win]++;
        const int first = win;
        int broken = (tm & (breaking | (queen_discard & ~suit))) != 0;
        int owner = (tm & kitty_trigger) ? win : -1;
        if (HC_UNLIKELY(drip)) {
            const uint64_t got = hs == 1 ? rest : rest & (0 - rest);
            taken[win] |= got;
            rest ^= got;
        }
        for (int t = 1; t < hs; t++) {
            /* the lead rule, branch-free: R applies until broken, unless the
             * queen-and-hearts exception covers the whole hand */
            const uint64_t hl = hand[win];
            const uint64_t r = broken ? 0 : lead_ban;
            const uint64_t x = hl & ~r;
            const int all_queen_ok = !(hl & ~queen_ok);
            uint64_t l = x && !all_queen_ok ? x : hl;
            /* Booster Nines: the nine of the suit led to the last trick makes its winner
             * lead that suit when he holds it, whatever the lead rule */
            if (HC_UNLIKELY(booster) && (tm & suit & (RANK_MASK << HC_NINE)) && (hl & suit))
                l = hl & suit;
            const int w = batch_trick(hand, seat_of, seat_at + win, n, l, 0, queen, &policy,
                                      &digest, &tm, &suit, popc, pdep);
            taken[w] |= tm;
            won[w]++;
            broken |= (tm & (breaking | (queen_discard & ~suit))) != 0;
            owner = owner < 0 && (tm & kitty_trigger) ? w : owner;
            if (HC_UNLIKELY(drip)) {
                const uint64_t got = t + 1 == hs ? rest : rest & (0 - rest);
                taken[w] |= got;
                rest ^= got;
            }
            win = w;
        }
        if (!drip)
            taken[owner < 0 ? win : owner] |= kitty;

        int64_t out[HC_MAX_PLAYERS];
        if (HC_UNLIKELY(full_score)) {
            score_hand(c, taken, won, first, win, zero_totals, 0, HC_MOON_CHOICE_ENGINE, out);
        } else {
            int shooter = -1;
            for (int s = 0; s < n; s++) {
                const uint64_t tk = taken[s];
                int64_t raw = 0;
                for (int k = 0; k < vt->nbytes; k++)
                    raw += vt->sum[k][(tk >> vt->shift[k]) & 0xFF];
                out[s] = (tk & doubler) ? 2 * raw : raw;
                shooter = moon_req && (tk & moon_req) == moon_req ? s : shooter;
            }
            int64_t m = c->moon_points;
            shooter = sun_shooter(c, won, shooter, &m);
            finish_score(c, won, zero_totals, 0, shooter, m, HC_MOON_CHOICE_ENGINE, out);
        }
        for (int s = 0; s < n; s++)
            sums[s] += out[s];

        if (++dealer == n)
            dealer = 0;
        if (++si == nsched)
            si = 0;
    }
    *digest_io = digest;
    return 0;
}

/* 1 if the straight-line loop above plays `c`'s rules: all but the jokers (a trick's
 * suit and winner no longer follow from its first card), 002's extra cards on the first
 * trick (a trick of more cards than seats, longer hands) and Gong Zhu's exposed cards (a
 * per-card filter that remembers the suits led).  The ♠Q discarded (broken_by 3), the ♠Q
 * at the first chance, Booster Nines, every kitty taker and every scoring option are
 * the loop's own. */
static int fast_batch_plays(const hc_config *c)
{
    return !c->joker_kind && !c->extra && !c->exposed;
}

int hc_batch_path(const hc_config *c)
{
    if (!config_sane(c))
        return -1;
    return fast_batch_plays(c) ? HC_BATCH_PATH_FAST : HC_BATCH_PATH_HAND_STATE;
}

/* The random batch for the rules the straight-line loop above does not play
 * (fast_batch_plays): the same contract, played through the hand state. */
static int batch_hands(const hc_config *c, uint64_t seed, uint64_t start, uint64_t count,
                       const int64_t *schedule, int nsched, uint64_t *digest_io, int64_t *sums)
{
    hc_hand state; /* about 10 KB, mostly the undo stack */
    hc_hand *h = &state;
    const int n = (int)c->players;
    uint64_t digest = *digest_io;
    uint64_t master = seed + start * GOLDEN;
    int dealer = (int)(start % (uint64_t)n), si = (int)(start % (uint64_t)nsched);
    for (uint64_t it = 0; it < count; it++) {
        const uint64_t hand_seed = splitmix(&master);
        const int64_t kind = schedule[si];
        uint64_t hands[HC_MAX_PLAYERS], kitty;
        hc_deal(c, hand_seed, dealer, hands, &kitty);
        if (hc_hand_init(h, c, hands, n, kitty, dealer, kind, hand_seed) != HC_STATE_OK) {
            *digest_io = digest;
            return -3; /* no club (spade) to open with: the only refusal left */
        }
        uint64_t policy = hand_seed ^ POLICY_SALT;
        if (h->d.phase == HC_PHASE_PASSING) {
            for (int s = 0; s < n; s++) {
                int64_t given[HC_MAX_HAND];
                uint64_t rest = hands[s];
                for (int i = 0; i < h->pass_len; i++) {
                    const uint64_t allowed = rest & ~c->pass_forbidden;
                    unsigned k = (unsigned)bounded(&policy, (uint64_t)popcount_sw(allowed));
                    int card = select_sw(allowed, k);
                    rest ^= BIT(card);
                    given[i] = card;
                    digest = (digest ^ (uint64_t)card) * HC_FNV_PRIME;
                }
                hc_apply_pass(h, s, given, h->pass_len);
            }
        }
        while (h->d.phase == HC_PHASE_PLAYING) {
            int code;
            uint64_t legal = legal_for(h, -1, &code);
            unsigned k = (unsigned)bounded(&policy, (uint64_t)popcount_sw(legal));
            int card = select_sw(legal, k);
            digest = (digest ^ (uint64_t)card) * HC_FNV_PRIME;
            do_play(h, card);
        }
        int64_t out[HC_MAX_PLAYERS];
        score_hand(c, h->d.taken, h->d.tricks_won, h->trick_winner[0],
                   h->trick_winner[c->hand_size - 1], zero_totals, 0, HC_MOON_CHOICE_ENGINE, out);
        for (int s = 0; s < n; s++)
            sums[s] += out[s];
        if (++dealer == n)
            dealer = 0;
        if (++si == nsched)
            si = 0;
    }
    *digest_io = digest;
    return 0;
}

#define BATCH_PARAMS                                                                       \
    const hc_config *c, const value_tables *vt, uint64_t seed, uint64_t start, uint64_t count, \
        const int64_t *schedule, int nsched, uint64_t *digest, int64_t *sums
#define BATCH_ARGS c, vt, seed, start, count, schedule, nsched, digest, sums

/* 1 for the rules few presets play, which would cost every other config a test per
 * play or per trick in the loop, or registers around a call it never makes: the ♠Q at
 * the first chance, Booster Nines, the kitty a card a trick, Royal Hearts and the trick
 * and reversal scoring options.  Each CPU level is built twice, with and without them
 * (the loop without them counts the instructions per hand it did before they joined). */
static int batch_rare(const hc_config *c)
{
    return c->queen_at_first_chance || c->booster_nines || c->kitty_taker == 3 ||
           c->royal_queens || trick_scoring(c) || c->doubler_exposed;
}

static int batch_generic(BATCH_PARAMS)
{
    return batch_rare(c) ? batch_core(BATCH_ARGS, 0, 0, 1) : batch_core(BATCH_ARGS, 0, 0, 0);
}

#ifdef HC_X86
__attribute__((target("popcnt"))) static int batch_popcnt(BATCH_PARAMS)
{
    return batch_rare(c) ? batch_core(BATCH_ARGS, 1, 0, 1) : batch_core(BATCH_ARGS, 1, 0, 0);
}

__attribute__((target("popcnt,bmi,bmi2"))) static int batch_bmi2(BATCH_PARAMS)
{
    return batch_rare(c) ? batch_core(BATCH_ARGS, 1, 1, 1) : batch_core(BATCH_ARGS, 1, 1, 0);
}

static int cpu_has(int variant)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt"))
        return 0;
    if (variant == HC_BATCH_POPCNT)
        return 1;
    return __builtin_cpu_supports("bmi2") != 0;
}

/* pdep is microcoded (slow) on AMD Zen 1 and 2; there the popcnt variant with
 * the broadword select is faster. */
static int pdep_is_fast(void)
{
    __builtin_cpu_init();
    return !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}
#endif

int hc_play_random_hands_with(int variant, const hc_config *c, uint64_t seed, uint64_t start,
                              uint64_t count, const int64_t schedule[], int nsched,
                              uint64_t *digest, int64_t sums[])
{
    if (nsched < 1 || !schedule || !config_sane(c))
        return -1;
    for (int i = 0; i < nsched; i++)
        if (!hc_pass_kind_valid(c, schedule[i]))
            return -1;
#ifdef HC_X86
    if (variant == HC_BATCH_AUTO) {
        variant = !cpu_has(HC_BATCH_POPCNT)                    ? HC_BATCH_GENERIC
                  : cpu_has(HC_BATCH_BMI2) && pdep_is_fast() ? HC_BATCH_BMI2
                                                               : HC_BATCH_POPCNT;
    }
    if ((variant == HC_BATCH_BMI2 || variant == HC_BATCH_POPCNT) && !cpu_has(variant))
        return -2;
#else
    if (variant == HC_BATCH_AUTO)
        variant = HC_BATCH_GENERIC;
#endif
    if (variant < HC_BATCH_GENERIC || variant > HC_BATCH_HAND_STATE)
        return -2;
    if (variant == HC_BATCH_HAND_STATE || HC_UNLIKELY(!fast_batch_plays(c)))
        return batch_hands(c, seed, start, count, schedule, nsched, digest, sums);
    value_tables tables, *vt = &tables;
    build_value_tables(c, vt);
#ifdef HC_X86
    if (variant == HC_BATCH_BMI2)
        return batch_bmi2(BATCH_ARGS);
    if (variant == HC_BATCH_POPCNT)
        return batch_popcnt(BATCH_ARGS);
#endif
    if (variant != HC_BATCH_GENERIC)
        return -2;
    return batch_generic(BATCH_ARGS);
}

int hc_play_random_hands(const hc_config *c, uint64_t seed, uint64_t start, uint64_t count,
                         const int64_t schedule[], int nschedule, uint64_t *digest,
                         int64_t sums[])
{
    return hc_play_random_hands_with(HC_BATCH_AUTO, c, seed, start, count, schedule, nschedule,
                                     digest, sums);
}
