/* _hearts.c -- the CPython binding of the C rules core: `arena.engine._hearts`.
 *
 * A thin shell over hearts.c (docs/decisions/0001-engine-backend-contract.md,
 * "The state object"): it converts Python ints to the library's integers,
 * turns the library's codes into return values or exceptions, and owns
 * nothing but a HandState's fixed-size state.  Structure as in CPython's
 * Modules/xxlimited.c: multi-phase initialisation (PEP 489), module state
 * holding the heap type, the type created with PyType_FromModuleAndSpec.
 *
 * Conversions: ints are anything with __index__; a non-int raises TypeError
 * naming the argument.  A malformed cfg raises ValueError/TypeError naming the
 * field.  Cards given to check_play/play never raise for ints (any int outside
 * 0..51 is error code 3); seats given to the accessors raise IndexError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>

#include "hearts.h"

typedef struct {
    PyTypeObject *hand_state_type;
} hearts_state;

typedef struct {
    PyObject_HEAD
    hc_config cfg;
    hc_hand hand; /* hand.cfg points at cfg above */
} HandStateObject;

/* Int conversion ---------------------------------------------------------- */

/* New reference to `o` as an exact int, or NULL with TypeError naming `what`. */
static PyObject *as_int(PyObject *o, const char *what, Py_ssize_t index)
{
    if (PyLong_Check(o))
        return Py_NewRef(o);
    if (PyIndex_Check(o))
        return PyNumber_Index(o);
    if (index >= 0)
        PyErr_Format(PyExc_TypeError, "%s[%zd] must be an int, not %.100s", what, index,
                     Py_TYPE(o)->tp_name);
    else
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
    return NULL;
}

/* An int into int64_t; *overflow is set (and *out saturated) when it does
 * not fit.  Returns -1 with TypeError for a non-int. */
static int to_i64(PyObject *o, const char *what, Py_ssize_t index, int64_t *out, int *overflow)
{
    PyObject *v = as_int(o, what, index);
    if (!v)
        return -1;
    int of = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &of);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *overflow = of;
    *out = of > 0 ? INT64_MAX : of < 0 ? INT64_MIN : (int64_t)x;
    return 0;
}

/* An int that must fit int64_t (ValueError naming `what` otherwise). */
static int get_i64(PyObject *o, const char *what, Py_ssize_t index, int64_t *out)
{
    int of;
    if (to_i64(o, what, index, out, &of) < 0)
        return -1;
    if (of) {
        if (index >= 0)
            PyErr_Format(PyExc_ValueError, "%s[%zd] is out of range", what, index);
        else
            PyErr_Format(PyExc_ValueError, "%s is out of range", what);
        return -1;
    }
    return 0;
}

/* A non-negative int below 2**bits (bits <= 64). */
static int get_unsigned(PyObject *o, const char *what, Py_ssize_t index, int bits, uint64_t *out)
{
    PyObject *v = as_int(o, what, index);
    if (!v)
        return -1;
    int of = 0;
    long long sx = PyLong_AsLongLongAndOverflow(v, &of);
    if (sx == -1 && PyErr_Occurred()) {
        Py_DECREF(v);
        return -1;
    }
    int bad = of < 0 || (of == 0 && sx < 0);
    unsigned long long x = (unsigned long long)sx;
    if (of > 0) {
        x = PyLong_AsUnsignedLongLong(v);
        if (x == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                Py_DECREF(v);
                return -1;
            }
            PyErr_Clear();
            bad = 1;
        }
    }
    Py_DECREF(v);
    if (!bad && bits < 64 && (x >> bits))
        bad = 1;
    if (bad) {
        if (index >= 0)
            PyErr_Format(PyExc_ValueError, "%s[%zd] must be an int in 0..2**%d-1", what, index,
                         bits);
        else
            PyErr_Format(PyExc_ValueError, "%s must be an int in 0..2**%d-1", what, bits);
        return -1;
    }
    *out = x;
    return 0;
}

/* A tuple copy of a sequence argument (TypeError for str/bytes/non-sequences). */
static PyObject *as_tuple(PyObject *o, const char *what)
{
    if (PyTuple_Check(o))
        return Py_NewRef(o);
    if (PyUnicode_Check(o) || PyBytes_Check(o) || PyByteArray_Check(o) || !PySequence_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of ints, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return PySequence_Tuple(o);
}

/* The configuration ------------------------------------------------------- */

enum { F_INT, F_MASK, F_FLAG, F_VALUES };

/* One row per CoreConfig field, from the generated hc_config_fields.h. */
#define ROW_INT(n) {"cfg." #n, F_INT, offsetof(hc_config, n)},
#define ROW_MASK(n) {"cfg." #n, F_MASK, offsetof(hc_config, n)},
#define ROW_FLAG(n) {"cfg." #n, F_FLAG, offsetof(hc_config, n)},
#define ROW_VALUES(n) {"cfg." #n, F_VALUES, offsetof(hc_config, n)},
static const struct {
    const char *name;
    int kind;
    size_t offset;
} config_fields[] = {HC_CONFIG_FIELDS(ROW_INT, ROW_MASK, ROW_FLAG, ROW_VALUES)};
#define N_FIELDS ((Py_ssize_t)(sizeof config_fields / sizeof config_fields[0]))

/* Fill and validate `c` from a CoreConfig (or any sequence of its fields). */
static int parse_config(PyObject *obj, hc_config *c)
{
    memset(c, 0, sizeof *c);
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || !PySequence_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "cfg must be a CoreConfig (a sequence of %zd ints), not %.100s", N_FIELDS,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *t = as_tuple(obj, "cfg");
    if (!t)
        return -1;
    int rc = -1;
    if (PyTuple_GET_SIZE(t) != N_FIELDS) {
        PyErr_Format(PyExc_ValueError, "cfg must have %zd fields (CoreConfig order), got %zd",
                     N_FIELDS, PyTuple_GET_SIZE(t));
        goto done;
    }
    for (Py_ssize_t i = 0; i < N_FIELDS; i++) {
        PyObject *item = PyTuple_GET_ITEM(t, i);
        const char *name = config_fields[i].name;
        char *field = (char *)c + config_fields[i].offset;
        if (config_fields[i].kind == F_INT || config_fields[i].kind == F_FLAG) {
            if (get_i64(item, name, -1, (int64_t *)field) < 0)
                goto done;
            /* a 0/1 switch is judged here, so that the error names it */
            if (config_fields[i].kind == F_FLAG && *(int64_t *)field != 0 &&
                *(int64_t *)field != 1) {
                PyErr_Format(PyExc_ValueError, "invalid cfg: %s must be 0 or 1", name);
                goto done;
            }
        } else if (config_fields[i].kind == F_MASK) {
            if (get_unsigned(item, name, -1, HC_ALL_CARDS, (uint64_t *)field) < 0)
                goto done;
        } else {
            PyObject *v = as_tuple(item, name);
            if (!v)
                goto done;
            if (PyTuple_GET_SIZE(v) != HC_CARDS) {
                PyErr_Format(PyExc_ValueError, "%s must have %d entries, got %zd", name,
                             HC_CARDS, PyTuple_GET_SIZE(v));
                Py_DECREF(v);
                goto done;
            }
            for (Py_ssize_t k = 0; k < HC_CARDS; k++) {
                if (get_i64(PyTuple_GET_ITEM(v, k), name, k, &c->values[k]) < 0) {
                    Py_DECREF(v);
                    goto done;
                }
            }
            Py_DECREF(v);
        }
    }
    int code = hc_config_init(c);
    if (code != HC_CFG_OK) {
        PyErr_Format(PyExc_ValueError, "invalid cfg: %s", hc_config_strerror(code));
        goto done;
    }
    rc = 0;
done:
    Py_DECREF(t);
    return rc;
}

/* Small helpers ----------------------------------------------------------- */

static PyObject *cards_tuple(const uint8_t *cards, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(cards[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *i64_tuple(const int64_t *v, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* A card argument: any int (those outside int64 become -1, i.e. code 3). */
static int get_card(PyObject *o, int64_t *card)
{
    if (PyLong_CheckExact(o)) {
        int of;
        long long x = PyLong_AsLongLongAndOverflow(o, &of);
        if (x == -1 && PyErr_Occurred())
            return -1;
        *card = of ? -1 : (int64_t)x;
        return 0;
    }
    int of;
    if (to_i64(o, "card", -1, card, &of) < 0)
        return -1;
    if (of)
        *card = -1;
    return 0;
}

/* A seat argument for the accessors: IndexError outside 0..n-1. */
static int get_seat(HandStateObject *self, PyObject *o, int *seat)
{
    int64_t s;
    int of;
    if (to_i64(o, "seat", -1, &s, &of) < 0)
        return -1;
    if (of || s < 0 || s >= self->cfg.players) {
        PyObject *r = PyObject_Repr(o);
        PyErr_Format(PyExc_IndexError, "seat %U out of range 0..%d", r ? r : Py_None,
                     (int)self->cfg.players - 1);
        Py_XDECREF(r);
        return -1;
    }
    *seat = (int)s;
    return 0;
}

/* HandState ---------------------------------------------------------------- */

static PyObject *HandState_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"cfg", "hands", "kitty", "dealer", "pass_kind", "seed", NULL};
    PyObject *cfg, *hands_obj, *kitty_obj, *dealer_obj, *kind_obj, *seed_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOO:HandState", kwlist, &cfg, &hands_obj,
                                     &kitty_obj, &dealer_obj, &kind_obj, &seed_obj))
        return NULL;
    HandStateObject *self = (HandStateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    PyObject *hands = NULL;
    uint64_t masks[HC_MAX_PLAYERS], kitty, seed;
    int64_t dealer, kind;
    if (parse_config(cfg, &self->cfg) < 0)
        goto fail;
    if (!(hands = as_tuple(hands_obj, "hands")))
        goto fail;
    Py_ssize_t n = PyTuple_GET_SIZE(hands);
    if (n != self->cfg.players) {
        PyErr_Format(PyExc_ValueError, "hands must hold %d masks (one per player), got %zd",
                     (int)self->cfg.players, n);
        goto fail;
    }
    for (Py_ssize_t s = 0; s < n; s++)
        if (get_unsigned(PyTuple_GET_ITEM(hands, s), "hands", s, HC_ALL_CARDS, &masks[s]) < 0)
            goto fail;
    /* a tuple of offsets is a split pass (003 'Simple variations') */
    int split = PyTuple_Check(kind_obj);
    int64_t offsets[HC_MAX_HAND];
    Py_ssize_t noffsets = split ? PyTuple_GET_SIZE(kind_obj) : 0;
    if (split && noffsets > HC_MAX_HAND) {
        PyErr_Format(PyExc_ValueError, "a split pass_kind holds at most %d offsets, got %zd",
                     HC_MAX_HAND, noffsets);
        goto fail;
    }
    for (Py_ssize_t i = 0; i < noffsets; i++)
        if (get_i64(PyTuple_GET_ITEM(kind_obj, i), "pass_kind", i, &offsets[i]) < 0)
            goto fail;
    if (get_unsigned(kitty_obj, "kitty", -1, HC_ALL_CARDS, &kitty) < 0 ||
        get_i64(dealer_obj, "dealer", -1, &dealer) < 0 ||
        (!split && get_i64(kind_obj, "pass_kind", -1, &kind) < 0) ||
        get_unsigned(seed_obj, "seed", -1, 64, &seed) < 0)
        goto fail;
    int code = split ? hc_hand_init_split(&self->hand, &self->cfg, masks, (int)n, kitty, dealer,
                                          offsets, noffsets, seed)
                     : hc_hand_init(&self->hand, &self->cfg, masks, (int)n, kitty, dealer, kind,
                                    seed);
    if (code != HC_STATE_OK) {
        PyErr_Format(PyExc_ValueError, "invalid hand: %s", hc_state_strerror(code));
        goto fail;
    }
    Py_DECREF(hands);
    return (PyObject *)self;
fail:
    Py_XDECREF(hands);
    Py_DECREF(self);
    return NULL;
}

static void HandState_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

#define HS(o) ((HandStateObject *)(o))

static PyObject *HandState_get_phase(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.phase);
}

static PyObject *HandState_get_to_play(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.to_play);
}

static PyObject *HandState_get_trick_number(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.trick_number);
}

static PyObject *HandState_get_booster(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.phase == HC_PHASE_PLAYING ? HS(self)->hand.d.booster
                                                                      : -1);
}

static PyObject *HandState_get_broken(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(HS(self)->hand.d.broken);
}

static PyObject *HandState_get_leader(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.leader);
}

static PyObject *HandState_get_kitty(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(HS(self)->hand.kitty);
}

static PyObject *HandState_get_kitty_owner(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(HS(self)->hand.d.kitty_owner);
}

static PyObject *HandState_current_trick(PyObject *self, PyObject *unused)
{
    (void)unused;
    const hc_hand *h = &HS(self)->hand;
    int len = hc_trick_len(h);
    return cards_tuple(h->plays + h->d.played - len, len);
}

static PyObject *HandState_history(PyObject *self, PyObject *unused)
{
    (void)unused;
    const hc_hand *h = &HS(self)->hand;
    int n = (int)h->cfg->players, tricks = h->d.phase == HC_PHASE_PASSING ? 0 : h->d.trick_number;
    PyObject *t = PyTuple_New(tricks);
    if (!t)
        return NULL;
    for (int i = 0; i < tricks; i++) {
        /* 002's extra cards: the first trick holds n + extra cards, trick i > 0 starts at
         * play i * n + extra */
        int first = i ? i * n + h->cfg->extra : 0, len = i ? n : n + h->cfg->extra;
        PyObject *cards = cards_tuple(h->plays + first, len);
        PyObject *entry = cards ? Py_BuildValue("(iNi)", h->trick_leader[i], cards,
                                                h->trick_winner[i])
                                : NULL;
        if (!entry) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, entry);
    }
    return t;
}

static PyObject *HandState_hand(PyObject *self, PyObject *arg)
{
    int s;
    if (get_seat(HS(self), arg, &s) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(HS(self)->hand.d.hand[s]);
}

static PyObject *HandState_taken(PyObject *self, PyObject *arg)
{
    int s;
    if (get_seat(HS(self), arg, &s) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(HS(self)->hand.d.taken[s]);
}

static PyObject *HandState_tricks_won(PyObject *self, PyObject *arg)
{
    int s;
    if (get_seat(HS(self), arg, &s) < 0)
        return NULL;
    return PyLong_FromLong(HS(self)->hand.d.tricks_won[s]);
}

static PyObject *HandState_passed(PyObject *self, PyObject *arg)
{
    int s;
    if (get_seat(HS(self), arg, &s) < 0)
        return NULL;
    const hc_hand *h = &HS(self)->hand;
    return cards_tuple(h->passed[s], h->passed_n[s]);
}

static PyObject *HandState_received(PyObject *self, PyObject *arg)
{
    int s;
    if (get_seat(HS(self), arg, &s) < 0)
        return NULL;
    const hc_hand *h = &HS(self)->hand;
    return cards_tuple(h->received[s], h->received_n[s]);
}

static PyObject *HandState_legal_mask(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(hc_legal_mask(&HS(self)->hand));
}

static PyObject *HandState_check_play(PyObject *self, PyObject *arg)
{
    int64_t card;
    if (get_card(arg, &card) < 0)
        return NULL;
    return PyLong_FromLong(hc_check_play(&HS(self)->hand, card));
}

static PyObject *HandState_play(PyObject *self, PyObject *arg)
{
    int64_t card;
    if (get_card(arg, &card) < 0)
        return NULL;
    return PyLong_FromLong(hc_play(&HS(self)->hand, card));
}

static PyObject *HandState_push(PyObject *self, PyObject *arg)
{
    int64_t card;
    if (get_card(arg, &card) < 0)
        return NULL;
    int code = hc_push(&HS(self)->hand, card);
    if (code == HC_OK)
        Py_RETURN_NONE;
    static const char *const why[] = {
        "",
        "the hand is over",
        "the hand is still in the passing phase",
        "the card index is not a card of the deck",
        "the card is not in the hand of the seat to play",
    };
    PyErr_Format(PyExc_ValueError, "push(%R): %s (error %d)", arg,
                 code >= 1 && code <= 4 ? why[code] : "rejected", code);
    return NULL;
}

static PyObject *HandState_pop(PyObject *self, PyObject *unused)
{
    (void)unused;
    if (hc_pop(&HS(self)->hand) < 0) {
        PyErr_SetString(PyExc_IndexError, "pop from an empty undo stack (no play to undo)");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* apply_pass(seat, cards) -> int */
static PyObject *HandState_apply_pass(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "apply_pass() takes 2 arguments (seat, cards), got %zd",
                     nargs);
        return NULL;
    }
    int64_t seat;
    int of;
    if (to_i64(args[0], "seat", -1, &seat, &of) < 0)
        return NULL;
    if (of)
        seat = -1;
    PyObject *t = as_tuple(args[1], "cards");
    if (!t)
        return NULL;
    Py_ssize_t len = PyTuple_GET_SIZE(t);
    int64_t cards[64];
    int big[64];
    PyObject *result = NULL;
    /* Type-check every item; store the first 64 (the library reads the cards
     * only when their number equals the pass length, which is at most 17). */
    for (Py_ssize_t i = 0; i < len; i++) {
        int64_t v;
        int o;
        if (to_i64(PyTuple_GET_ITEM(t, i), "cards", i, &v, &o) < 0)
            goto done;
        if (i < 64) {
            cards[i] = v;
            big[i] = o;
        }
    }
    /* Ints beyond int64 get stand-ins that are out of range, equal exactly
     * when the ints are equal, and distinct from every other item. */
    for (Py_ssize_t i = 0; i < len && i < 64; i++) {
        if (!big[i])
            continue;
        int found = 0;
        for (Py_ssize_t j = 0; j < i && !found; j++) {
            if (!big[j])
                continue;
            int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(t, i), PyTuple_GET_ITEM(t, j),
                                              Py_EQ);
            if (eq < 0)
                goto done;
            if (eq) {
                cards[i] = cards[j];
                found = 1;
            }
        }
        for (int64_t cand = INT64_MIN; !found; cand++) {
            int used = 0;
            for (Py_ssize_t j = 0; j < len && j < 64 && !used; j++)
                used = j != i && (!big[j] || j < i) && cards[j] == cand;
            if (!used) {
                cards[i] = cand;
                found = 1;
            }
        }
    }
    result = PyLong_FromLong(hc_apply_pass(&HS(self)->hand, seat, cards, (int64_t)len));
done:
    Py_DECREF(t);
    return result;
}

/* points(totals, target, choice=-1) -> tuple[int, ...] */
static PyObject *HandState_points(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const hc_hand *h = &HS(self)->hand;
    int n = (int)h->cfg->players;
    if (nargs != 2 && nargs != 3) {
        PyErr_Format(PyExc_TypeError,
                     "points() takes 2 or 3 arguments (totals, target, choice), got %zd", nargs);
        return NULL;
    }
    long choice = HC_MOON_CHOICE_ENGINE;
    if (nargs == 3) {
        choice = PyLong_AsLong(args[2]);
        if (choice == -1 && PyErr_Occurred())
            return NULL;
        if (choice < HC_MOON_CHOICE_ENGINE || choice > HC_MOON_CHOICE_SUBTRACT) {
            PyErr_Format(PyExc_ValueError, "points: choice must be -1, 0 or 1, got %ld", choice);
            return NULL;
        }
    }
    if (h->d.phase != HC_PHASE_OVER) {
        PyErr_SetString(PyExc_ValueError, "points: the hand is not over");
        return NULL;
    }
    PyObject *t = as_tuple(args[0], "totals");
    if (!t)
        return NULL;
    int64_t totals[HC_MAX_PLAYERS], target, out[HC_MAX_PLAYERS];
    if (PyTuple_GET_SIZE(t) != n) {
        PyErr_Format(PyExc_ValueError, "totals must hold %d ints (one per player), got %zd", n,
                     PyTuple_GET_SIZE(t));
        Py_DECREF(t);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        if (get_i64(PyTuple_GET_ITEM(t, s), "totals", s, &totals[s]) < 0) {
            Py_DECREF(t);
            return NULL;
        }
    }
    Py_DECREF(t);
    if (get_i64(args[1], "target", -1, &target) < 0)
        return NULL;
    if (hc_points_choice(h, totals, target, (int)choice, out) != 0) {
        PyErr_Format(PyExc_ValueError, "points: totals and target must be within +-2**60");
        return NULL;
    }
    return i64_tuple(out, n);
}

/* shooter() -> (seat, worth): who shot the moon or the sun, (-1, 0) if nobody */
static PyObject *HandState_shooter(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    int64_t worth = 0;
    int seat = hc_shooter(&HS(self)->hand, &worth);
    if (seat == -2) {
        PyErr_SetString(PyExc_ValueError, "shooter: the hand is not over");
        return NULL;
    }
    return Py_BuildValue("(iL)", seat, (long long)worth);
}

/* playout(seed, policy) -> tuple[int, ...] */
static PyObject *HandState_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    hc_hand *h = &HS(self)->hand;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "playout() takes 2 arguments (seed, policy), got %zd",
                     nargs);
        return NULL;
    }
    uint64_t seed;
    int64_t policy, out[HC_MAX_PLAYERS];
    if (get_unsigned(args[0], "seed", -1, 64, &seed) < 0 ||
        get_i64(args[1], "policy", -1, &policy) < 0)
        return NULL;
    int code = hc_playout(h, seed, policy, out);
    if (code == -2) {
        PyErr_Format(PyExc_ValueError,
                     "playout: unknown policy %lld (0 random, 1 greedy, 2 mixed, "
                     "16 + seat: that seat shoots)",
                     (long long)policy);
        return NULL;
    }
    if (code == -1) {
        PyErr_SetString(PyExc_ValueError, "playout: the hand is still in the passing phase");
        return NULL;
    }
    return i64_tuple(out, (int)h->cfg->players);
}

static PyObject *HandState_solve(PyObject *self, PyObject *arg)
{
    hc_hand *h = &HS(self)->hand;
    int64_t limit, out[HC_MAX_PLAYERS];
    if (get_i64(arg, "limit", -1, &limit) < 0)
        return NULL;
    int code = hc_solve(h, limit, out);
    if (code == -1) {
        PyErr_SetString(PyExc_ValueError, "solve: the hand is still in the passing phase");
        return NULL;
    }
    if (code == -3)
        Py_RETURN_NONE;
    return i64_tuple(out, (int)h->cfg->players);
}

static PyMethodDef HandState_methods[] = {
    {"current_trick", HandState_current_trick, METH_NOARGS,
     PyDoc_STR("current_trick() -> tuple of the cards played to the current trick")},
    {"history", HandState_history, METH_NOARGS,
     PyDoc_STR("history() -> ((leader, cards, winner), ...) per finished trick")},
    {"hand", HandState_hand, METH_O, PyDoc_STR("hand(seat) -> mask of the seat's hand")},
    {"taken", HandState_taken, METH_O, PyDoc_STR("taken(seat) -> mask of the cards taken")},
    {"tricks_won", HandState_tricks_won, METH_O, PyDoc_STR("tricks_won(seat) -> int")},
    {"passed", HandState_passed, METH_O, PyDoc_STR("passed(seat) -> cards the seat gave")},
    {"received", HandState_received, METH_O,
     PyDoc_STR("received(seat) -> cards received, in giver-seat order")},
    {"legal_mask", HandState_legal_mask, METH_NOARGS,
     PyDoc_STR("legal_mask() -> mask of legal plays (0 when passing or over)")},
    {"check_play", HandState_check_play, METH_O,
     PyDoc_STR("check_play(card) -> 0 if legal, else the error code")},
    {"play", HandState_play, METH_O,
     PyDoc_STR("play(card) -> 0 and played, or an error code and nothing changes")},
    {"push", HandState_push, METH_O,
     PyDoc_STR("push(card): unchecked play for search; ValueError if the card is not in "
               "the hand of the seat to play")},
    {"pop", HandState_pop, METH_NOARGS,
     PyDoc_STR("pop(): undo the last push or play; IndexError when there is none")},
    {"apply_pass", (PyCFunction)(void (*)(void))HandState_apply_pass, METH_FASTCALL,
     PyDoc_STR("apply_pass(seat, cards) -> 0 or an error code")},
    {"points", (PyCFunction)(void (*)(void))HandState_points, METH_FASTCALL,
     PyDoc_STR("points(totals, target, choice=-1) -> hand scores; ValueError unless the hand "
               "is over")},
    {"shooter", HandState_shooter, METH_NOARGS,
     PyDoc_STR("shooter() -> (seat, worth) of the moon or sun shot, (-1, 0) if none")},
    {"playout", (PyCFunction)(void (*)(void))HandState_playout, METH_FASTCALL,
     PyDoc_STR("playout(seed, policy) -> the scores after playing the hand out with a policy "
               "(0 random, 1 greedy, 2 mixed); the state is left unchanged")},
    {"solve", HandState_solve, METH_O,
     PyDoc_STR("solve(limit) -> the scores of the exact endgame (every hand known, each seat "
               "minimising its margin), or None past `limit` decisions searched; the state "
               "is left unchanged")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef HandState_getset[] = {
    {"phase", HandState_get_phase, NULL, PyDoc_STR("0 passing, 1 playing, 2 over"), NULL},
    {"to_play", HandState_get_to_play, NULL,
     PyDoc_STR("seat to play, or -1 while passing and when over"), NULL},
    {"trick_number", HandState_get_trick_number, NULL,
     PyDoc_STR("0-based index of the trick being played (hand_size when over)"), NULL},
    {"broken", HandState_get_broken, NULL, PyDoc_STR("hearts/points broken"), NULL},
    {"booster", HandState_get_booster, NULL,
     PyDoc_STR("Booster Nines: the suit the next lead must be in (if held), or -1"), NULL},
    {"leader", HandState_get_leader, NULL,
     PyDoc_STR("leader of the current trick (-1 while passing; the last winner when over)"),
     NULL},
    {"kitty", HandState_get_kitty, NULL, PyDoc_STR("the kitty mask"), NULL},
    {"kitty_owner", HandState_get_kitty_owner, NULL,
     PyDoc_STR("the seat that took the kitty, or -1"), NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(HandState_doc,
             "HandState(cfg, hands, kitty, dealer, pass_kind, seed)\n\n"
             "One hand of Hearts from the deal to the score (C core). pass_kind is an\n"
             "int, or a tuple of per-card offsets for a split pass.");

static PyType_Slot HandState_slots[] = {
    {Py_tp_new, HandState_new},
    {Py_tp_dealloc, HandState_dealloc},
    {Py_tp_methods, HandState_methods},
    {Py_tp_getset, HandState_getset},
    {Py_tp_doc, (void *)HandState_doc},
    {0, NULL},
};

#ifndef Py_TPFLAGS_IMMUTABLETYPE
#define Py_TPFLAGS_IMMUTABLETYPE 0
#endif

static PyType_Spec HandState_spec = {
    .name = "arena.engine._hearts.HandState",
    .basicsize = sizeof(HandStateObject),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = HandState_slots,
};

/* Module functions ------------------------------------------------------- */

PyDoc_STRVAR(deal_doc, "deal(cfg, seed, dealer) -> (hand masks, kitty mask)");

static PyObject *hearts_deal(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"cfg", "seed", "dealer", NULL};
    PyObject *cfg_obj, *seed_obj, *dealer_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:deal", kwlist, &cfg_obj, &seed_obj,
                                     &dealer_obj))
        return NULL;
    hc_config cfg;
    uint64_t seed, hands[HC_MAX_PLAYERS], kitty;
    int64_t dealer;
    if (parse_config(cfg_obj, &cfg) < 0 || get_unsigned(seed_obj, "seed", -1, 64, &seed) < 0 ||
        get_i64(dealer_obj, "dealer", -1, &dealer) < 0)
        return NULL;
    if (dealer < 0 || dealer >= cfg.players) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat 0..%d, got %lld",
                     (int)cfg.players - 1, (long long)dealer);
        return NULL;
    }
    if (hc_deal(&cfg, seed, (int)dealer, hands, &kitty) < 0) {
        PyErr_SetString(PyExc_ValueError, "deal rejected its arguments");
        return NULL;
    }
    PyObject *t = PyTuple_New(cfg.players);
    if (!t)
        return NULL;
    for (int s = 0; s < cfg.players; s++) {
        PyObject *v = PyLong_FromUnsignedLongLong(hands[s]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, s, v);
    }
    return Py_BuildValue("(NK)", t, (unsigned long long)kitty);
}

/* A signed 128-bit sum kept as (hi, lo) words. */
typedef struct {
    int64_t hi;
    uint64_t lo;
} wide_sum;

static void wide_add(wide_sum *w, int64_t x)
{
    uint64_t lo = w->lo + (uint64_t)x;
    w->hi += (lo < w->lo) - (x < 0);
    w->lo = lo;
}

static PyObject *wide_to_long(const wide_sum *w)
{
    if (w->hi == 0)
        return PyLong_FromUnsignedLongLong(w->lo);
    if (w->hi == -1 && (w->lo >> 63))
        return PyLong_FromLongLong((long long)w->lo);
    PyObject *hi = PyLong_FromLongLong(w->hi), *lo = PyLong_FromUnsignedLongLong(w->lo);
    PyObject *shift = PyLong_FromLong(64), *r = NULL;
    if (hi && lo && shift) {
        PyObject *h = PyNumber_Lshift(hi, shift);
        if (h) {
            r = PyNumber_Add(h, lo);
            Py_DECREF(h);
        }
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    return r;
}

PyDoc_STRVAR(play_random_hands_doc,
             "play_random_hands(cfg, seed, count, schedule) -> (digest, per-seat score sums)");

#define BATCH_CHUNK (1u << 20) /* hands per int64 partial sum */
#define BATCH_NOGIL 64         /* release the GIL from this many hands on */

static PyObject *hearts_play_random_hands(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"cfg", "seed", "count", "schedule", NULL};
    PyObject *cfg_obj, *seed_obj, *count_obj, *sched_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:play_random_hands", kwlist, &cfg_obj,
                                     &seed_obj, &count_obj, &sched_obj))
        return NULL;
    hc_config cfg;
    uint64_t seed, count;
    if (parse_config(cfg_obj, &cfg) < 0 || get_unsigned(seed_obj, "seed", -1, 64, &seed) < 0 ||
        get_unsigned(count_obj, "count", -1, 64, &count) < 0)
        return NULL;
    PyObject *t = as_tuple(sched_obj, "schedule");
    if (!t)
        return NULL;
    Py_ssize_t ns = PyTuple_GET_SIZE(t);
    if (ns < 1 || ns > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "schedule must hold at least one pass kind");
        Py_DECREF(t);
        return NULL;
    }
    int64_t *sched = PyMem_New(int64_t, (size_t)ns);
    if (!sched) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < ns; i++) {
        if (get_i64(PyTuple_GET_ITEM(t, i), "schedule", i, &sched[i]) < 0)
            goto fail;
        if (!hc_pass_kind_valid(&cfg, sched[i])) {
            PyErr_Format(PyExc_ValueError,
                         "schedule[%zd] = %lld is not a pass kind for %d players (0 hold, "
                         "1..%d, 100 scatter if hand_size >= players-1, 101 center, 102 star "
                         "for an odd number of players; every hand must keep enough cards "
                         "outside pass_forbidden to pass)",
                         i, (long long)sched[i], (int)cfg.players, (int)cfg.players - 1);
            goto fail;
        }
    }
    Py_DECREF(t);
    t = NULL;

    int n = (int)cfg.players, rc = 0;
    uint64_t digest = HC_FNV_OFFSET;
    wide_sum acc[HC_MAX_PLAYERS] = {{0, 0}};
    PyThreadState *ts = count >= BATCH_NOGIL ? PyEval_SaveThread() : NULL;
    for (uint64_t start = 0; start < count && rc == 0;) {
        uint64_t chunk = count - start < BATCH_CHUNK ? count - start : BATCH_CHUNK;
        int64_t sums[HC_MAX_PLAYERS] = {0};
        rc = hc_play_random_hands(&cfg, seed, start, chunk, sched, (int)ns, &digest, sums);
        for (int s = 0; s < n; s++)
            wide_add(&acc[s], sums[s]);
        start += chunk;
    }
    if (ts)
        PyEval_RestoreThread(ts);
    PyMem_Free(sched);
    if (rc == -3) {
        PyErr_SetString(PyExc_ValueError,
                        "play_random_hands: a deal left no club (opening 0 or 1) or no "
                        "spade (opening 3) in any hand, and the opening rule needs one");
        return NULL;
    }
    if (rc != 0) {
        PyErr_SetString(PyExc_ValueError, "play_random_hands rejected its arguments");
        return NULL;
    }
    PyObject *sums = PyTuple_New(n);
    if (!sums)
        return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *v = wide_to_long(&acc[s]);
        if (!v) {
            Py_DECREF(sums);
            return NULL;
        }
        PyTuple_SET_ITEM(sums, s, v);
    }
    return Py_BuildValue("(KN)", (unsigned long long)digest, sums);
fail:
    Py_XDECREF(t);
    PyMem_Free(sched);
    return NULL;
}

PyDoc_STRVAR(batch_path_doc,
             "batch_path(cfg) -> 'fast' or 'hand_state': the path play_random_hands takes for "
             "cfg (the straight-line loop, or the hand state for the jokers, the extra cards "
             "on the first trick and exposed cards)");

static PyObject *hearts_batch_path(PyObject *module, PyObject *cfg_obj)
{
    (void)module;
    hc_config cfg;
    if (parse_config(cfg_obj, &cfg) < 0)
        return NULL;
    switch (hc_batch_path(&cfg)) {
    case HC_BATCH_PATH_FAST:
        return PyUnicode_FromString("fast");
    case HC_BATCH_PATH_HAND_STATE:
        return PyUnicode_FromString("hand_state");
    default: /* unreachable: parse_config initialised it */
        PyErr_SetString(PyExc_ValueError, "batch_path rejected its configuration");
        return NULL;
    }
}

static PyMethodDef hearts_methods[] = {
    {"deal", (PyCFunction)(void (*)(void))hearts_deal, METH_VARARGS | METH_KEYWORDS, deal_doc},
    {"play_random_hands", (PyCFunction)(void (*)(void))hearts_play_random_hands,
     METH_VARARGS | METH_KEYWORDS, play_random_hands_doc},
    {"batch_path", hearts_batch_path, METH_O, batch_path_doc},
    {NULL, NULL, 0, NULL},
};

/* Module ------------------------------------------------------------------ */

static int hearts_exec(PyObject *module)
{
    hearts_state *st = PyModule_GetState(module);
    st->hand_state_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &HandState_spec, NULL);
    if (!st->hand_state_type)
        return -1;
    return PyModule_AddType(module, st->hand_state_type);
}

static int hearts_traverse(PyObject *module, visitproc visit, void *arg)
{
    hearts_state *st = PyModule_GetState(module);
    if (st)
        Py_VISIT(st->hand_state_type);
    return 0;
}

static int hearts_clear(PyObject *module)
{
    hearts_state *st = PyModule_GetState(module);
    if (st)
        Py_CLEAR(st->hand_state_type);
    return 0;
}

static void hearts_free(void *module) { (void)hearts_clear((PyObject *)module); }

static PyModuleDef_Slot hearts_slots[] = {
    {Py_mod_exec, hearts_exec},
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(hearts_doc,
             "The C core of the Hearts rules engine (docs/decisions/"
             "0001-engine-backend-contract.md).");

static struct PyModuleDef hearts_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "arena.engine._hearts",
    .m_doc = hearts_doc,
    .m_size = sizeof(hearts_state),
    .m_methods = hearts_methods,
    .m_slots = hearts_slots,
    .m_traverse = hearts_traverse,
    .m_clear = hearts_clear,
    .m_free = hearts_free,
};

PyMODINIT_FUNC PyInit__hearts(void) { return PyModuleDef_Init(&hearts_module); }
