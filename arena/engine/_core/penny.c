/* penny.c -- the multi-rounds of 003 'FOUR-PENNY HEARTS' (see penny.h). */
#include "penny.h"

#include <string.h>

#define SUIT_BITS 0x1FFFULL

static uint64_t suit_of(int card) { return SUIT_BITS << (card / 13 * 13); }

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

int pc_init(pc_state *s, int64_t players, int64_t advanced, int64_t rounds,
            const uint64_t hands[], const uint64_t taken[], const int64_t tricks_won[],
            int64_t leader, int64_t broken, uint64_t lead_ban, uint64_t breaking)
{
    memset(s, 0, sizeof *s);
    if (players < PC_MIN_PLAYERS || players > PC_MAX_PLAYERS)
        return PC_STATE_PLAYERS;
    int n = (int)players;
    if (rounds < 0 || rounds > HC_CARDS / (n * n))
        return PC_STATE_ROUNDS;
    uint64_t seen = 0;
    for (int i = 0; i < n; i++) {
        if ((hands[i] & ~HC_FULL_DECK) || popcount64(hands[i]) != rounds * n)
            return PC_STATE_HAND;
        if (seen & hands[i])
            return PC_STATE_OVERLAP;
        seen |= hands[i];
    }
    for (int i = 0; i < n; i++)
        if ((taken[i] & ~HC_FULL_DECK) || (taken[i] & seen))
            return PC_STATE_TAKEN;
    for (int i = 0; i < n; i++)
        if (tricks_won[i] < 0 || tricks_won[i] > HC_CARDS)
            return PC_STATE_TRICKS_WON;
    if (leader < 0 || leader >= n)
        return PC_STATE_LEADER;
    if ((lead_ban & ~HC_FULL_DECK) || (breaking & ~HC_FULL_DECK))
        return PC_STATE_MASK;
    s->players = n;
    s->advanced = advanced != 0;
    s->rounds = (int)rounds;
    s->leader = (int)leader;
    s->to_play = rounds ? (int)leader : -1;
    s->broken = broken != 0;
    s->lead_ban = lead_ban;
    s->breaking = breaking;
    for (int i = 0; i < n; i++) {
        s->hand[i] = hands[i];
        s->taken[i] = taken[i];
        s->tricks_won[i] = (int)tricks_won[i];
    }
    return PC_STATE_OK;
}

const char *pc_state_strerror(int code)
{
    switch (code) {
    case PC_STATE_OK: return "ok";
    case PC_STATE_PLAYERS: return "players must be 3..7";
    case PC_STATE_ROUNDS: return "rounds is out of range";
    case PC_STATE_HAND: return "each hand must hold rounds * players cards of the pack";
    case PC_STATE_OVERLAP: return "two hands share a card";
    case PC_STATE_TAKEN: return "taken must be sets of cards outside the hands";
    case PC_STATE_TRICKS_WON: return "tricks_won is out of range";
    case PC_STATE_LEADER: return "leader is not a seat";
    case PC_STATE_MASK: return "lead_ban and breaking must be sets of cards of the pack";
    default: return "unknown error";
    }
}

/* The legal cards of `seat` (holding `hand`) for a penny that is in range. */
static uint64_t legal_for(const pc_state *s, int penny, int seat, uint64_t hand)
{
    int count = s->count[penny];
    if (count >= s->players)
        return 0;
    if (!s->advanced && (s->seats_on[penny] >> seat & 1))
        return 0;
    if (count == 0) {
        /* 003: "a scoring card cannot be led until a scoring card has been played on a
         * penny-round", unless the hand holds nothing else (003 'PLAY'). */
        if (s->broken)
            return hand;
        uint64_t allowed = hand & ~s->lead_ban;
        return allowed ? allowed : hand;
    }
    /* "A player must play a card of the suit that was led to a penny-round, if possible." */
    uint64_t follow = hand & suit_of(s->penny_card[penny][0]);
    return follow ? follow : hand;
}

uint64_t pc_legal(const pc_state *s, int64_t penny)
{
    if (s->to_play < 0 || penny < 0 || penny >= s->players)
        return 0;
    return legal_for(s, (int)penny, s->to_play, s->hand[s->to_play]);
}

int pc_check(const pc_state *s, int64_t penny, int64_t card)
{
    int seat = s->to_play;
    if (seat < 0)
        return HC_ERR_HAND_OVER;
    if (card < 0 || card >= HC_CARDS)
        return HC_ERR_BAD_CARD;
    uint64_t hand = s->hand[seat];
    if (!(hand >> card & 1))
        return HC_ERR_NOT_IN_HAND;
    if (penny < 0 || penny >= s->players)
        return PC_ERR_BAD_PENNY;
    int p = (int)penny;
    if (s->count[p] >= s->players)
        return PC_ERR_PENNY_FULL;
    if (!s->advanced && (s->seats_on[p] >> seat & 1))
        return PC_ERR_PENNY_PLAYED;
    if (legal_for(s, p, seat, hand) >> card & 1)
        return HC_OK;
    return s->count[p] ? HC_ERR_MUST_FOLLOW_SUIT : HC_ERR_NOT_BROKEN;
}

/* Every penny to the seat of its highest card of the suit led; the next lead. */
static void finish_multi_round(pc_state *s)
{
    int n = s->players, counts[PC_MAX_PLAYERS] = {0};
    for (int p = 0; p < n; p++) {
        int led = s->penny_card[p][0] / 13;
        int winner = s->penny_seat[p][0], best = s->penny_card[p][0];
        uint64_t cards = 0;
        int h = s->finished++;
        s->hist_penny[h] = (uint8_t)p;
        for (int i = 0; i < n; i++) {
            int card = s->penny_card[p][i];
            cards |= 1ULL << card;
            if (card / 13 == led && card > best) {
                best = card;
                winner = s->penny_seat[p][i];
            }
            s->hist_seat[h][i] = s->penny_seat[p][i];
            s->hist_card[h][i] = (uint8_t)card;
        }
        s->hist_winner[h] = (int8_t)winner;
        s->taken[winner] |= cards;
        s->tricks_won[winner]++;
        counts[winner]++;
        s->count[p] = 0;
        s->seats_on[p] = 0;
    }
    int most = 0;
    for (int i = 0; i < n; i++)
        if (counts[i] > most)
            most = counts[i];
    /* "the first player to the left of the lead player who is tied for most tricks":
     * the seats after the leader in turn, the leader himself last. */
    for (int k = 1; k <= n; k++) {
        int seat = (s->leader + k) % n;
        if (counts[seat] == most) {
            s->leader = seat;
            break;
        }
    }
    s->played = 0;
    s->round++;
    s->to_play = s->round < s->rounds ? s->leader : -1;
}

int pc_play(pc_state *s, int64_t penny, int64_t card)
{
    int code = pc_check(s, penny, card);
    if (code)
        return code;
    int seat = s->to_play, p = (int)penny, n = s->players;
    s->hand[seat] &= ~(1ULL << card);
    s->penny_seat[p][s->count[p]] = (uint8_t)seat;
    s->penny_card[p][s->count[p]] = (uint8_t)card;
    s->count[p]++;
    s->seats_on[p] |= (uint8_t)(1u << seat);
    if (s->breaking >> card & 1)
        s->broken = 1;
    if (++s->played == n * n)
        finish_multi_round(s);
    else
        s->to_play = (seat + 1) % n;
    return HC_OK;
}
