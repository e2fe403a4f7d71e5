/* _cancellation.c -- the CPython binding of cancellation.c:
 * `arena.engine.variants._cancellation`, the same contract as
 * arena/engine/variants/cancellation_reference.py (module function `deal`, type
 * `CancellationState`).  Multi-phase initialisation and a heap type, as
 * _hearts.c.  Multisets cross the boundary as (once, twice) mask pairs; a bad
 * card index is an error code, a bad seat an IndexError, a bad config or deal a
 * ValueError. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cancellation.h"

typedef struct {
    PyTypeObject *state_type;
} module_state;

typedef struct {
    PyObject_HEAD
    cx_config cfg;
    cx_hand hand; /* hand.cfg points at cfg above */
} StateObject;

#define N_FIELDS 13

static int get_ll(PyObject *seq, Py_ssize_t i, long long low, long long high, long long *out)
{
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item)
        return -1;
    long long v = PyLong_AsLongLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "cfg[%zd] = %lld is out of range", i, v);
        return -1;
    }
    *out = v;
    return 0;
}

static int get_mask(PyObject *o, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* Fill and check a config from a CancellationConfig (a sequence of 13 fields). */
static int parse_config(PyObject *obj, cx_config *c)
{
    memset(c, 0, sizeof *c);
    if (!PySequence_Check(obj) || PySequence_Size(obj) != N_FIELDS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "cfg must be a CancellationConfig (13 fields)");
        return -1;
    }
    long long v[N_FIELDS];
    for (Py_ssize_t i = 0; i < N_FIELDS; i++) {
        if (i == 2 || i == 3 || i == 10)
            continue;
        if (get_ll(obj, i, -1000000, 1000000, &v[i]) < 0)
            return -1;
    }
    c->players = (int)v[0];
    c->hand_size = (int)v[1];
    c->widow_size = (int)v[4];
    c->pass_count = (int)v[5];
    c->opening = (int)v[6];
    c->first_trick = (int)v[7];
    c->lead_rule = (int)v[8];
    c->broken_by = (int)v[9];
    c->moon = (int)v[11];
    c->moon_points = v[12];
    for (int i = 2; i <= 3; i++) {
        PyObject *item = PySequence_GetItem(obj, i);
        if (!item)
            return -1;
        int rc = get_mask(item, i == 2 ? &c->deck_once : &c->deck_twice);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    PyObject *values = PySequence_GetItem(obj, 10);
    if (!values)
        return -1;
    if (!PySequence_Check(values) || PySequence_Size(values) != CX_CARDS) {
        Py_DECREF(values);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "cfg.values must hold 52 ints");
        return -1;
    }
    for (Py_ssize_t k = 0; k < CX_CARDS; k++) {
        long long x;
        if (get_ll(values, k, -1000000, 1000000, &x) < 0) {
            Py_DECREF(values);
            return -1;
        }
        c->values[k] = x;
    }
    Py_DECREF(values);
    if (cx_config_init(c) < 0) {
        PyErr_SetString(PyExc_ValueError, "cfg cannot be played (see cancellation.h)");
        return -1;
    }
    return 0;
}

static PyObject *pair(cx_multiset m)
{
    return Py_BuildValue("(KK)", (unsigned long long)m.once, (unsigned long long)m.twice);
}

static int parse_pair(PyObject *o, cx_multiset *m)
{
    if (!PySequence_Check(o) || PySequence_Size(o) != 2) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a multiset is a pair of masks (once, twice)");
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        PyObject *item = PySequence_GetItem(o, i);
        if (!item)
            return -1;
        int rc = get_mask(item, i ? &m->twice : &m->once);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static PyObject *cards_tuple(const uint8_t cards[], int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(cards[i]));
    return t;
}

/* deal(cfg, seed, dealer) -> (hands, widow) */
static PyObject *mod_deal(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *cfg_obj;
    unsigned long long seed;
    int dealer;
    if (!PyArg_ParseTuple(args, "OKi:deal", &cfg_obj, &seed, &dealer))
        return NULL;
    cx_config c;
    if (parse_config(cfg_obj, &c) < 0)
        return NULL;
    cx_multiset hands[CX_MAX_PLAYERS], widow;
    if (cx_deal(&c, seed, dealer, hands, &widow) < 0)
        return PyErr_Format(PyExc_ValueError, "dealer must be a seat 0..%d, got %d",
                            c.players - 1, dealer);
    PyObject *t = PyTuple_New(c.players);
    if (!t)
        return NULL;
    for (int s = 0; s < c.players; s++)
        PyTuple_SET_ITEM(t, s, pair(hands[s]));
    return Py_BuildValue("(NN)", t, pair(widow));
}

static int state_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    StateObject *self = (StateObject *)op;
    static char *names[] = {"cfg", "hands", "widow", "dealer", "pass_offset", NULL};
    PyObject *cfg_obj, *hands_obj, *widow_obj;
    int dealer, offset;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOii", names, &cfg_obj, &hands_obj,
                                     &widow_obj, &dealer, &offset))
        return -1;
    if (parse_config(cfg_obj, &self->cfg) < 0)
        return -1;
    if (!PySequence_Check(hands_obj) || PySequence_Size(hands_obj) != self->cfg.players) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "expected %d hands", self->cfg.players);
        return -1;
    }
    cx_multiset hands[CX_MAX_PLAYERS], widow;
    for (int s = 0; s < self->cfg.players; s++) {
        PyObject *item = PySequence_GetItem(hands_obj, s);
        if (!item)
            return -1;
        int rc = parse_pair(item, &hands[s]);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    if (parse_pair(widow_obj, &widow) < 0)
        return -1;
    if (cx_hand_init(&self->hand, &self->cfg, hands, self->cfg.players, widow, dealer,
                     offset) < 0) {
        PyErr_SetString(PyExc_ValueError, "the cards, dealer or pass do not make a deal");
        return -1;
    }
    return 0;
}

static int seat_arg(StateObject *self, PyObject *arg)
{
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 0 || s >= self->cfg.players) {
        PyErr_Format(PyExc_IndexError, "seat %ld is not 0..%d", s, self->cfg.players - 1);
        return -1;
    }
    return (int)s;
}

static PyObject *st_pass_cards(PyObject *op, PyObject *args)
{
    StateObject *self = (StateObject *)op;
    PyObject *seat_obj, *cards;
    if (!PyArg_ParseTuple(args, "OO:pass_cards", &seat_obj, &cards))
        return NULL;
    int overflow = 0;
    long long seat_ll = PyLong_AsLongLongAndOverflow(seat_obj, &overflow);
    if (seat_ll == -1 && PyErr_Occurred())
        return NULL;
    /* a seat that is no int of ours is a bad seat (code 11), as in the reference */
    const int seat = overflow || seat_ll < -1 || seat_ll > CX_MAX_PLAYERS ? -1 : (int)seat_ll;
    PyObject *t = PySequence_Tuple(cards);
    if (!t)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    int64_t given[CX_MAX_COPIES];
    int code;
    if (n > CX_MAX_COPIES) {
        code = 13; /* ERR_PASS_COUNT */
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(t, i));
            if (v == -1 && PyErr_Occurred()) {
                if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                    Py_DECREF(t);
                    return NULL;
                }
                PyErr_Clear();
                v = -1;
            }
            given[i] = v;
        }
        code = cx_pass(&self->hand, seat, given, (int)n);
    }
    Py_DECREF(t);
    return PyLong_FromLong(code);
}

static PyObject *st_passed(PyObject *op, PyObject *arg)
{
    StateObject *self = (StateObject *)op;
    int s = seat_arg(self, arg);
    if (s < 0)
        return NULL;
    return cards_tuple(self->hand.given[s], self->hand.has_passed[s] ? self->cfg.pass_count : 0);
}

static PyObject *st_received(PyObject *op, PyObject *arg)
{
    StateObject *self = (StateObject *)op;
    int s = seat_arg(self, arg);
    if (s < 0)
        return NULL;
    return cards_tuple(self->hand.got[s], self->hand.got_len[s]);
}

static PyObject *st_legal_mask(PyObject *op, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(cx_legal(&((StateObject *)op)->hand));
}

static int card_arg(PyObject *arg, int64_t *card)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *card = overflow ? -1 : v;
    return 0;
}

static PyObject *st_check_play(PyObject *op, PyObject *arg)
{
    int64_t card;
    if (card_arg(arg, &card) < 0)
        return NULL;
    return PyLong_FromLong(cx_check_play(&((StateObject *)op)->hand, card));
}

static PyObject *st_play(PyObject *op, PyObject *arg)
{
    int64_t card;
    if (card_arg(arg, &card) < 0)
        return NULL;
    return PyLong_FromLong(cx_play(&((StateObject *)op)->hand, card));
}

static PyObject *st_push(PyObject *op, PyObject *arg)
{
    int64_t card;
    if (card_arg(arg, &card) < 0)
        return NULL;
    cx_hand *h = &((StateObject *)op)->hand;
    if (card < 0 || card >= CX_CARDS || cx_push(h, (int)card) < 0)
        return PyErr_Format(PyExc_ValueError, "push(%lld): cannot play that card now",
                            (long long)card);
    Py_RETURN_NONE;
}

static PyObject *st_pop(PyObject *op, PyObject *unused)
{
    (void)unused;
    if (cx_pop(&((StateObject *)op)->hand) < 0) {
        PyErr_SetString(PyExc_IndexError, "pop(): no play to undo");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *st_hand(PyObject *op, PyObject *arg)
{
    StateObject *self = (StateObject *)op;
    int s = seat_arg(self, arg);
    return s < 0 ? NULL : pair(self->hand.hands[s]);
}

static PyObject *st_taken(PyObject *op, PyObject *arg)
{
    StateObject *self = (StateObject *)op;
    int s = seat_arg(self, arg);
    return s < 0 ? NULL : pair(self->hand.taken[s]);
}

static PyObject *st_tricks_won(PyObject *op, PyObject *arg)
{
    StateObject *self = (StateObject *)op;
    int s = seat_arg(self, arg);
    return s < 0 ? NULL : PyLong_FromLong(self->hand.won[s]);
}

static PyObject *st_set_aside(PyObject *op, PyObject *unused)
{
    (void)unused;
    return pair(((StateObject *)op)->hand.pending);
}

static PyObject *st_discarded(PyObject *op, PyObject *unused)
{
    (void)unused;
    return pair(((StateObject *)op)->hand.discarded);
}

static PyObject *st_current_trick(PyObject *op, PyObject *unused)
{
    (void)unused;
    cx_hand *h = &((StateObject *)op)->hand;
    return cards_tuple(h->trick, h->trick_len);
}

static PyObject *st_history(PyObject *op, PyObject *unused)
{
    (void)unused;
    StateObject *self = (StateObject *)op;
    cx_hand *h = &self->hand;
    PyObject *t = PyTuple_New(h->trick_number);
    if (!t)
        return NULL;
    for (int i = 0; i < h->trick_number; i++) {
        const cx_trick *r = &h->history[i];
        PyObject *item = Py_BuildValue("(iNi)", r->leader, cards_tuple(r->cards, self->cfg.players),
                                       r->winner);
        if (!item) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, item);
    }
    return t;
}

static PyObject *st_points(PyObject *op, PyObject *args)
{
    StateObject *self = (StateObject *)op;
    PyObject *totals = NULL;
    long long target = 0;
    if (!PyArg_ParseTuple(args, "|OL:points", &totals, &target))
        return NULL;
    int64_t out[CX_MAX_PLAYERS];
    if (cx_points(&self->hand, out) < 0) {
        PyErr_SetString(PyExc_ValueError, "the hand is not over");
        return NULL;
    }
    PyObject *t = PyTuple_New(self->cfg.players);
    if (!t)
        return NULL;
    for (int s = 0; s < self->cfg.players; s++)
        PyTuple_SET_ITEM(t, s, PyLong_FromLongLong(out[s]));
    return t;
}

#define GETTER(name, expr)                                            \
    static PyObject *get_##name(PyObject *op, void *closure)          \
    {                                                                 \
        (void)closure;                                                \
        cx_hand *h = &((StateObject *)op)->hand;                      \
        return expr;                                                  \
    }
GETTER(phase, PyLong_FromLong(h->phase))
GETTER(to_play, PyLong_FromLong(h->to_play))
GETTER(leader, PyLong_FromLong(h->leader))
GETTER(trick_number, PyLong_FromLong(h->trick_number))
GETTER(broken, PyBool_FromLong(h->broken))
GETTER(widow_owner, PyLong_FromLong(h->widow_owner))
GETTER(widow, pair(h->widow))

static PyGetSetDef state_getset[] = {
    {"phase", get_phase, NULL, "0 passing, 1 playing, 2 over", NULL},
    {"to_play", get_to_play, NULL, "the seat to play, -1 when none", NULL},
    {"leader", get_leader, NULL, "the trick's leader, -1 while passing", NULL},
    {"trick_number", get_trick_number, NULL, "0-based trick in play", NULL},
    {"broken", get_broken, NULL, "whether hearts (points) are broken", NULL},
    {"widow_owner", get_widow_owner, NULL, "who took the widow, -1 when nobody", NULL},
    {"widow", get_widow, NULL, "the widow as (once, twice)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef state_methods[] = {
    {"pass_cards", st_pass_cards, METH_VARARGS, "give a seat's pass: 0 or a code"},
    {"passed", st_passed, METH_O, "the cards a seat gave"},
    {"received", st_received, METH_O, "the cards a seat received"},
    {"legal_mask", st_legal_mask, METH_NOARGS, "the distinct legal cards as a mask"},
    {"check_play", st_check_play, METH_O, "0 or the code forbidding the card"},
    {"play", st_play, METH_O, "play the card if legal: 0 or a code"},
    {"push", st_push, METH_O, "play unchecked (ValueError if not held)"},
    {"pop", st_pop, METH_NOARGS, "undo the last play"},
    {"hand", st_hand, METH_O, "a seat's cards as (once, twice)"},
    {"taken", st_taken, METH_O, "a seat's won copies as (once, twice)"},
    {"tricks_won", st_tricks_won, METH_O, "how many tricks a seat won"},
    {"set_aside", st_set_aside, METH_NOARGS, "copies waiting for the next winner"},
    {"discarded", st_discarded, METH_NOARGS, "copies discarded unscored"},
    {"current_trick", st_current_trick, METH_NOARGS, "the trick in play"},
    {"history", st_history, METH_NOARGS, "(leader, cards, winner or -1) per trick"},
    {"points", st_points, METH_VARARGS, "each seat's score for the deal"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot state_slots[] = {
    {Py_tp_doc, "One Cancellation Hearts deal (see cancellation_reference.py)."},
    {Py_tp_init, state_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, state_methods},
    {Py_tp_getset, state_getset},
    {0, NULL},
};

static PyType_Spec state_spec = {
    .name = "arena.engine.variants._cancellation.CancellationState",
    .basicsize = sizeof(StateObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = state_slots,
};

static int module_exec(PyObject *module)
{
    module_state *st = PyModule_GetState(module);
    st->state_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &state_spec, NULL);
    if (!st->state_type)
        return -1;
    if (PyModule_AddType(module, st->state_type) < 0)
        return -1;
    return PyModule_AddIntConstant(module, "ERR_PASS_COPIES", CX_ERR_PASS_COPIES);
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    Py_VISIT(((module_state *)PyModule_GetState(module))->state_type);
    return 0;
}

static int module_clear(PyObject *module)
{
    Py_CLEAR(((module_state *)PyModule_GetState(module))->state_type);
    return 0;
}

static void module_free(void *module) { module_clear((PyObject *)module); }

static PyMethodDef module_methods[] = {
    {"deal", mod_deal, METH_VARARGS, "deal(cfg, seed, dealer) -> (hands, widow)"},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cancellation",
    .m_doc = "Cancellation Hearts in C (two packs; identical cards cancel).",
    .m_size = sizeof(module_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__cancellation(void) { return PyModuleDef_Init(&module_def); }
