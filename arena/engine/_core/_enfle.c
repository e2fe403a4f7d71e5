/* _enfle.c -- the CPython binding of enfle.c: `arena.engine.variants._enfle`.
 *
 * A thin shell as _domino.c is: an EnfleState owns one en_hand; ints in, ints
 * and tuples of ints out; the pure-Python twin is
 * arena/engine/variants/enfle_reference.py and both implement the same methods
 * (tests/engine/test_enfle_differential.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "enfle.h"

typedef struct {
    PyTypeObject *state_type;
} enfle_module_state;

typedef struct {
    PyObject_HEAD
    en_hand hand;
} EnfleStateObject;

#define HAND(self) (&((EnfleStateObject *)(self))->hand)

static PyObject *EnfleState_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"players", "dealer", "hands", NULL};
    int players, dealer;
    PyObject *hands_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiO", kwlist, &players, &dealer, &hands_o))
        return NULL;
    PyObject *seq = PySequence_Fast(hands_o, "hands");
    if (!seq)
        return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(seq);
    uint64_t hands[EN_MAX_PLAYERS];
    int bad = nh != players || nh > EN_MAX_PLAYERS;
    for (Py_ssize_t i = 0; !bad && i < nh; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "hands[%zd] must be an int", i);
            return NULL;
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        bad = overflow || v < 0;
        hands[i] = (uint64_t)v;
    }
    Py_DECREF(seq);
    EnfleStateObject *self = NULL;
    if (!bad) {
        self = (EnfleStateObject *)type->tp_alloc(type, 0);
        if (!self)
            return NULL;
        bad = en_init(&self->hand, players, dealer, hands) != 0;
    }
    if (bad) {
        Py_XDECREF(self);
        PyErr_SetString(PyExc_ValueError,
                        "not an Enfle deal: 2..4 players and a dealer in range, one non-empty "
                        "hand per player, no card dealt twice");
        return NULL;
    }
    return (PyObject *)self;
}

static void EnfleState_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int seat_arg(PyObject *self, PyObject *arg, int *seat)
{
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 0 || s >= HAND(self)->players) {
        PyErr_Format(PyExc_IndexError, "seat %ld out of range", s);
        return -1;
    }
    *seat = (int)s;
    return 0;
}

static int card_arg(PyObject *arg, int *card)
{
    int overflow = 0;
    long long c = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (c == -1 && PyErr_Occurred())
        return -1;
    *card = (overflow || c < 0 || c >= EN_CARDS) ? -1 : (int)c;
    return 0;
}

static PyObject *ES_hand(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromUnsignedLongLong(HAND(self)->pos.hand[s]);
}

static PyObject *ES_taken(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromUnsignedLongLong(HAND(self)->pos.won[s]);
}

static PyObject *ES_tricks_won(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromLong(HAND(self)->pos.tricks_won[s]);
}

static PyObject *ES_legal_mask(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(en_legal(HAND(self)));
}

static PyObject *ES_check_play(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    return PyLong_FromLong(en_check(HAND(self), c));
}

static PyObject *ES_play(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    return PyLong_FromLong(en_play(HAND(self), c));
}

static PyObject *ES_push(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    en_hand *h = HAND(self);
    if (h->pos.over || c < 0 || !(h->pos.hand[en_to_play(h)] & (1ULL << c))) {
        PyErr_Format(PyExc_ValueError, "push(%d): not a card the seat to play holds", c);
        return NULL;
    }
    en_push(h, c);
    Py_RETURN_NONE;
}

static PyObject *ES_pop(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (en_pop(HAND(self))) {
        PyErr_SetString(PyExc_IndexError, "pop(): nothing to undo");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ((seat, card), ...) for `len` cards led by `leader`. */
static PyObject *plays_tuple(int leader, int n, const uint8_t cards[], int len)
{
    PyObject *out = PyTuple_New(len);
    if (!out)
        return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *item = Py_BuildValue("(ii)", (leader + i) % n, cards[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *ES_current_trick(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const en_hand *h = HAND(self);
    return plays_tuple(h->pos.leader, h->players, h->pos.trick_cards, h->pos.trick_len);
}

static PyObject *ES_history(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const en_hand *h = HAND(self);
    int count = h->pos.trick_number;
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (int t = 0; t < count; t++) {
        const en_trick *tr = &h->tricks[t];
        PyObject *plays = plays_tuple(tr->leader, h->players, tr->cards, tr->size);
        PyObject *entry = plays ? Py_BuildValue("(iNi)", tr->leader, plays, tr->winner) : NULL;
        if (!entry) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, t, entry);
    }
    return out;
}

static PyObject *ES_pickups(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const en_hand *h = HAND(self);
    int count = h->pos.trick_number, k = 0;
    for (int t = 0; t < count; t++)
        k += h->tricks[t].picker >= 0;
    PyObject *out = PyTuple_New(k);
    if (!out)
        return NULL;
    k = 0;
    for (int t = 0; t < count; t++) {
        const en_trick *tr = &h->tricks[t];
        if (tr->picker < 0)
            continue;
        PyObject *item = Py_BuildValue("(iiK)", t, tr->picker, (unsigned long long)tr->picked);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k++, item);
    }
    return out;
}

static PyObject *ES_points(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const en_hand *h = HAND(self);
    int64_t out[EN_MAX_PLAYERS];
    en_points(h, out);
    PyObject *t = PyTuple_New(h->players);
    if (!t)
        return NULL;
    for (int s = 0; s < h->players; s++)
        PyTuple_SET_ITEM(t, s, PyLong_FromLongLong(out[s]));
    return t;
}

static PyObject *ES_get_phase(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.over ? EN_PHASE_OVER : EN_PHASE_PLAYING);
}

static PyObject *ES_get_to_play(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(en_to_play(HAND(self)));
}

static PyObject *ES_get_leader(PyObject *self, void *Py_UNUSED(c))
{
    const en_pos *p = &HAND(self)->pos;
    return PyLong_FromLong(p->over ? -1 : p->leader);
}

static PyObject *ES_get_trick_number(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.trick_number);
}

static PyObject *ES_get_broken(PyObject *Py_UNUSED(self), void *Py_UNUSED(c))
{
    Py_RETURN_FALSE;
}

static PyObject *ES_get_winner(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.winner);
}

static PyObject *ES_get_players(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->players);
}

static PyMethodDef EnfleState_methods[] = {
    {"hand", ES_hand, METH_O, "hand(seat): the cards the seat holds, as a mask."},
    {"taken", ES_taken, METH_O, "taken(seat): its won pile (cards not taken up since)."},
    {"tricks_won", ES_tricks_won, METH_O, "tricks_won(seat): how many tricks it won."},
    {"legal_mask", ES_legal_mask, METH_NOARGS, "The legal cards of the seat to play."},
    {"check_play", ES_check_play, METH_O, "0, or the error code playing the card would give."},
    {"play", ES_play, METH_O, "Play a card if legal: 0, or an error code (nothing changes)."},
    {"push", ES_push, METH_O, "Play a held card without the rules' checks."},
    {"pop", ES_pop, METH_NOARGS, "Undo the last play (and the pickup it caused)."},
    {"current_trick", ES_current_trick, METH_NOARGS, "((seat, card), ...) of the trick in play."},
    {"history", ES_history, METH_NOARGS, "((leader, ((seat, card), ...), winner), ...)."},
    {"pickups", ES_pickups, METH_NOARGS, "((trick, seat, picked mask), ...): every pickup."},
    {"points", ES_points, METH_NOARGS, "Each seat's points: the cards left in its hand."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef EnfleState_getset[] = {
    {"phase", ES_get_phase, NULL, "1 playing, 2 over.", NULL},
    {"to_play", ES_get_to_play, NULL, "The seat to play, -1 when over.", NULL},
    {"leader", ES_get_leader, NULL, "The current trick's leader, -1 when over.", NULL},
    {"trick_number", ES_get_trick_number, NULL, "Tricks won or broken off.", NULL},
    {"broken", ES_get_broken, NULL, "Always False: any card may be led.", NULL},
    {"winner", ES_get_winner, NULL, "The seat that went out, -1 if none.", NULL},
    {"players", ES_get_players, NULL, "The number of players.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot EnfleState_slots[] = {
    {Py_tp_new, EnfleState_new},
    {Py_tp_dealloc, EnfleState_dealloc},
    {Py_tp_methods, EnfleState_methods},
    {Py_tp_getset, EnfleState_getset},
    {Py_tp_doc, "EnfleState(players, dealer, hands)"},
    {0, NULL},
};

static PyType_Spec EnfleState_spec = {
    .name = "arena.engine.variants._enfle.EnfleState",
    .basicsize = sizeof(EnfleStateObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = EnfleState_slots,
};

static PyObject *enfle_deal(PyObject *Py_UNUSED(module), PyObject *args)
{
    int players, dealer;
    unsigned long long seed, pack;
    if (!PyArg_ParseTuple(args, "iKiK", &players, &seed, &dealer, &pack))
        return NULL;
    uint64_t hands[EN_MAX_PLAYERS];
    if (en_deal(players, (uint64_t)seed, dealer, (uint64_t)pack, hands) < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "deal: 2..4 players, a dealer in range and a pack that deals evenly");
        return NULL;
    }
    PyObject *h = PyTuple_New(players);
    if (!h)
        return NULL;
    for (int i = 0; i < players; i++)
        PyTuple_SET_ITEM(h, i, PyLong_FromUnsignedLongLong(hands[i]));
    return h;
}

/* A sequence of at most EN_MAX_PLAYERS non-negative ints (masks or cards) into out[]:
 * its length, or -1 with an exception. */
static Py_ssize_t u64_sequence(PyObject *o, const char *what, uint64_t out[])
{
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        int overflow = 0;
        long long v = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
        if ((v == -1 && PyErr_Occurred()) || overflow || v < 0 || i >= EN_MAX_PLAYERS) {
            PyErr_Clear();
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "not an Enfle position: bad %s", what);
            return -1;
        }
        out[i] = (uint64_t)v;
    }
    Py_DECREF(seq);
    return len;
}

/* position(players, hands, won, leader, trick): an EnfleState from a position mid-hand
 * (en_init_position); `trick` is the cards of the trick in progress from its leader. */
static PyObject *enfle_position(PyObject *module, PyObject *args)
{
    int players, leader;
    PyObject *hands_o, *won_o, *trick_o;
    if (!PyArg_ParseTuple(args, "iOOiO", &players, &hands_o, &won_o, &leader, &trick_o))
        return NULL;
    uint64_t hands[EN_MAX_PLAYERS], won[EN_MAX_PLAYERS], trick_u[EN_MAX_PLAYERS];
    Py_ssize_t nh, nw, nt;
    if ((nh = u64_sequence(hands_o, "hands", hands)) < 0 ||
        (nw = u64_sequence(won_o, "won", won)) < 0 || (nt = u64_sequence(trick_o, "trick", trick_u)) < 0)
        return NULL;
    uint8_t trick[EN_MAX_PLAYERS];
    int bad = nh != players || nw != players;
    for (Py_ssize_t i = 0; !bad && i < nt; i++) {
        bad = trick_u[i] >= EN_CARDS;
        trick[i] = (uint8_t)trick_u[i];
    }
    enfle_module_state *st = PyModule_GetState(module);
    EnfleStateObject *self = NULL;
    if (!bad) {
        self = (EnfleStateObject *)st->state_type->tp_alloc(st->state_type, 0);
        if (!self)
            return NULL;
        bad = en_init_position(&self->hand, players, hands, won, leader, trick, (int)nt) != 0;
    }
    if (bad) {
        Py_XDECREF(self);
        PyErr_SetString(PyExc_ValueError,
                        "not an Enfle position: 2..4 seats holding cards, every card once, a "
                        "trick shorter than the table whose next seat holds the suit led");
        return NULL;
    }
    return (PyObject *)self;
}

static PyMethodDef enfle_methods[] = {
    {"position", enfle_position, METH_VARARGS,
     "position(players, hands, won, leader, trick) -> EnfleState: play on from mid-hand."},
    {"deal", enfle_deal, METH_VARARGS,
     "deal(players, seed, dealer, pack) -> hands: the pack's cards one at a time."},
    {NULL, NULL, 0, NULL},
};

static int enfle_exec(PyObject *module)
{
    enfle_module_state *st = PyModule_GetState(module);
    st->state_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &EnfleState_spec, NULL);
    if (!st->state_type)
        return -1;
    if (PyModule_AddIntConstant(module, "MAX_TRICKS", EN_MAX_TRICKS))
        return -1;
    return PyModule_AddType(module, st->state_type);
}

static int enfle_traverse(PyObject *module, visitproc visit, void *arg)
{
    enfle_module_state *st = PyModule_GetState(module);
    Py_VISIT(st->state_type);
    return 0;
}

static int enfle_clear(PyObject *module)
{
    enfle_module_state *st = PyModule_GetState(module);
    Py_CLEAR(st->state_type);
    return 0;
}

static PyModuleDef_Slot enfle_slots[] = {
    {Py_mod_exec, enfle_exec},
    {0, NULL},
};

static struct PyModuleDef enfle_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "arena.engine.variants._enfle",
    .m_doc = "Enfle / Schwellen (004 'Enfle'): the C core's binding.",
    .m_size = sizeof(enfle_module_state),
    .m_methods = enfle_methods,
    .m_slots = enfle_slots,
    .m_traverse = enfle_traverse,
    .m_clear = enfle_clear,
};

PyMODINIT_FUNC PyInit__enfle(void) { return PyModuleDef_Init(&enfle_module); }
