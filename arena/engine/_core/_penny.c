/* _penny.c -- the CPython binding of the penny core: `arena.engine.variants._penny`.
 *
 * A thin shell over penny.c with the contract of arena/engine/variants/penny_reference.py
 * (its module docstring): ints in, ints and tuples out, error codes as return
 * values, ValueError for a bad starting position.  Structure as _hearts.c:
 * multi-phase initialisation, module state holding the heap type.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "penny.h"

typedef struct {
    PyTypeObject *state_type;
} penny_module_state;

typedef struct {
    PyObject_HEAD
    pc_state s;
} PennyStateObject;

/* An int saturated into int64_t (TypeError naming `what` for a non-int). */
static int arg_i64(PyObject *o, const char *what, int64_t *out)
{
    if (!PyLong_Check(o) && !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *v = PyNumber_Index(o);
    if (!v)
        return -1;
    int of = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &of);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = of > 0 ? INT64_MAX : of < 0 ? INT64_MIN : (int64_t)x;
    return 0;
}

/* A set of cards: an int in 0..2**52-1 (ValueError otherwise). */
static int arg_mask(PyObject *o, const char *what, uint64_t *out)
{
    if (!PyLong_Check(o) && !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *v = PyNumber_Index(o);
    if (!v)
        return -1;
    int of = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &of);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (of || x < 0 || ((uint64_t)x & ~HC_FULL_DECK)) {
        PyErr_Format(PyExc_ValueError, "%s is not a set of cards", what);
        return -1;
    }
    *out = (uint64_t)x;
    return 0;
}

/* `n` entries of a sequence as int64 (wide) values. */
static int arg_seq(PyObject *o, const char *what, int n, int64_t out[], int masks)
{
    PyObject *t = PySequence_Check(o) && !PyUnicode_Check(o) ? PySequence_Tuple(o) : NULL;
    if (!t) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s must be a sequence of ints", what);
        return -1;
    }
    if (PyTuple_GET_SIZE(t) != n) {
        PyErr_Format(PyExc_ValueError, "%s must have %d entries, not %zd", what, n,
                     PyTuple_GET_SIZE(t));
        Py_DECREF(t);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int rc;
        if (masks) {
            uint64_t m;
            rc = arg_mask(PyTuple_GET_ITEM(t, i), what, &m);
            out[i] = (int64_t)m;
        } else {
            rc = arg_i64(PyTuple_GET_ITEM(t, i), what, &out[i]);
        }
        if (rc < 0) {
            Py_DECREF(t);
            return -1;
        }
    }
    Py_DECREF(t);
    return 0;
}

static PyObject *PennyState_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"players", "advanced", "rounds", "hands", "taken", "tricks_won",
                             "leader", "broken", "lead_ban", "breaking", NULL};
    PyObject *o[10];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOO:PennyState", kwlist, &o[0], &o[1],
                                     &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &o[8], &o[9]))
        return NULL;
    int64_t players, advanced, rounds, leader, broken;
    uint64_t lead_ban, breaking;
    if (arg_i64(o[0], "players", &players) < 0 || arg_i64(o[1], "advanced", &advanced) < 0 ||
        arg_i64(o[2], "rounds", &rounds) < 0 || arg_i64(o[6], "leader", &leader) < 0 ||
        arg_i64(o[7], "broken", &broken) < 0 || arg_mask(o[8], "lead_ban", &lead_ban) < 0 ||
        arg_mask(o[9], "breaking", &breaking) < 0)
        return NULL;
    if (players < PC_MIN_PLAYERS || players > PC_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players must be 3..7, not %lld", (long long)players);
        return NULL;
    }
    int n = (int)players;
    int64_t hands[PC_MAX_PLAYERS], taken[PC_MAX_PLAYERS], won[PC_MAX_PLAYERS];
    if (arg_seq(o[3], "hands", n, hands, 1) < 0 || arg_seq(o[4], "taken", n, taken, 1) < 0 ||
        arg_seq(o[5], "tricks_won", n, won, 0) < 0)
        return NULL;
    uint64_t uh[PC_MAX_PLAYERS], ut[PC_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        uh[i] = (uint64_t)hands[i];
        ut[i] = (uint64_t)taken[i];
    }
    PennyStateObject *self = (PennyStateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    int code = pc_init(&self->s, players, advanced, rounds, uh, ut, won, leader, broken,
                       lead_ban, breaking);
    if (code != PC_STATE_OK) {
        Py_DECREF(self);
        PyErr_Format(PyExc_ValueError, "%s", pc_state_strerror(code));
        return NULL;
    }
    return (PyObject *)self;
}

static void PennyState_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

#define STATE(o) (&((PennyStateObject *)(o))->s)

static int seat_arg(PyObject *self, PyObject *arg, int *seat)
{
    int64_t v;
    if (arg_i64(arg, "seat", &v) < 0)
        return -1;
    if (v < 0 || v >= STATE(self)->players) {
        PyErr_Format(PyExc_IndexError, "seat %lld out of range", (long long)v);
        return -1;
    }
    *seat = (int)v;
    return 0;
}

static PyObject *PennyState_hand(PyObject *self, PyObject *arg)
{
    int seat;
    if (seat_arg(self, arg, &seat) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(STATE(self)->hand[seat]);
}

static PyObject *PennyState_taken(PyObject *self, PyObject *arg)
{
    int seat;
    if (seat_arg(self, arg, &seat) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(STATE(self)->taken[seat]);
}

static PyObject *PennyState_tricks_won(PyObject *self, PyObject *arg)
{
    int seat;
    if (seat_arg(self, arg, &seat) < 0)
        return NULL;
    return PyLong_FromLong(STATE(self)->tricks_won[seat]);
}

/* ((seat, card), ...) from parallel arrays. */
static PyObject *plays_tuple(const uint8_t *seats, const uint8_t *cards, int len)
{
    PyObject *t = PyTuple_New(len);
    if (!t)
        return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *pair = Py_BuildValue("(ii)", seats[i], cards[i]);
        if (!pair) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, pair);
    }
    return t;
}

static PyObject *PennyState_pennies(PyObject *self, PyObject *unused)
{
    (void)unused;
    const pc_state *s = STATE(self);
    PyObject *t = PyTuple_New(s->players);
    if (!t)
        return NULL;
    for (int p = 0; p < s->players; p++) {
        PyObject *plays = plays_tuple(s->penny_seat[p], s->penny_card[p], s->count[p]);
        if (!plays) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, p, plays);
    }
    return t;
}

static PyObject *PennyState_history(PyObject *self, PyObject *unused)
{
    (void)unused;
    const pc_state *s = STATE(self);
    PyObject *t = PyTuple_New(s->finished);
    if (!t)
        return NULL;
    for (int h = 0; h < s->finished; h++) {
        PyObject *plays = plays_tuple(s->hist_seat[h], s->hist_card[h], s->players);
        PyObject *item = plays ? Py_BuildValue("(iNi)", s->hist_penny[h], plays,
                                               s->hist_winner[h])
                               : NULL;
        if (!item) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, h, item);
    }
    return t;
}

static PyObject *PennyState_legal_masks(PyObject *self, PyObject *unused)
{
    (void)unused;
    const pc_state *s = STATE(self);
    PyObject *t = PyTuple_New(s->players);
    if (!t)
        return NULL;
    for (int p = 0; p < s->players; p++) {
        PyObject *m = PyLong_FromUnsignedLongLong(pc_legal(s, p));
        if (!m) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, p, m);
    }
    return t;
}

static int penny_card_args(PyObject *const *args, Py_ssize_t nargs, const char *name,
                           int64_t *penny, int64_t *card)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (penny, card), got %zd", name,
                     nargs);
        return -1;
    }
    if (arg_i64(args[0], "penny", penny) < 0 || arg_i64(args[1], "card", card) < 0)
        return -1;
    return 0;
}

static PyObject *PennyState_check(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t penny, card;
    if (penny_card_args(args, nargs, "check", &penny, &card) < 0)
        return NULL;
    return PyLong_FromLong(pc_check(STATE(self), penny, card));
}

static PyObject *PennyState_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t penny, card;
    if (penny_card_args(args, nargs, "play", &penny, &card) < 0)
        return NULL;
    return PyLong_FromLong(pc_play(STATE(self), penny, card));
}

static PyObject *PennyState_copy(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyTypeObject *tp = Py_TYPE(self);
    PennyStateObject *other = (PennyStateObject *)tp->tp_alloc(tp, 0);
    if (!other)
        return NULL;
    other->s = *STATE(self);
    return (PyObject *)other;
}

static PyMethodDef PennyState_methods[] = {
    {"hand", PennyState_hand, METH_O, PyDoc_STR("hand(seat) -> mask of the seat's hand")},
    {"taken", PennyState_taken, METH_O, PyDoc_STR("taken(seat) -> mask of the cards taken")},
    {"tricks_won", PennyState_tricks_won, METH_O, PyDoc_STR("tricks_won(seat) -> int")},
    {"pennies", PennyState_pennies, METH_NOARGS,
     PyDoc_STR("pennies() -> per penny, the (seat, card) plays of this multi-round")},
    {"history", PennyState_history, METH_NOARGS,
     PyDoc_STR("history() -> ((penny, plays, winner), ...) per finished penny-round")},
    {"legal_masks", PennyState_legal_masks, METH_NOARGS,
     PyDoc_STR("legal_masks() -> per penny, the cards the seat to play may play to it")},
    {"check", (PyCFunction)(void (*)(void))PennyState_check, METH_FASTCALL,
     PyDoc_STR("check(penny, card) -> 0 if legal, else the error code")},
    {"play", (PyCFunction)(void (*)(void))PennyState_play, METH_FASTCALL,
     PyDoc_STR("play(penny, card) -> 0 and played, or an error code and nothing changes")},
    {"copy", PennyState_copy, METH_NOARGS, PyDoc_STR("copy() -> an independent copy")},
    {NULL, NULL, 0, NULL},
};

#define INT_GETTER(field)                                                       \
    static PyObject *PennyState_get_##field(PyObject *self, void *closure)      \
    {                                                                           \
        (void)closure;                                                          \
        return PyLong_FromLong(STATE(self)->field);                             \
    }
INT_GETTER(to_play)
INT_GETTER(leader)
INT_GETTER(rounds)
INT_GETTER(played)

static PyObject *PennyState_get_multi_round(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(STATE(self)->round);
}

static PyObject *PennyState_get_over(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(STATE(self)->to_play < 0);
}

static PyObject *PennyState_get_broken(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(STATE(self)->broken);
}

static PyGetSetDef PennyState_getset[] = {
    {"to_play", PennyState_get_to_play, NULL, PyDoc_STR("seat to play, -1 once over"), NULL},
    {"leader", PennyState_get_leader, NULL, PyDoc_STR("the multi-round's lead player"), NULL},
    {"multi_round", PennyState_get_multi_round, NULL,
     PyDoc_STR("0-based multi-round in play (rounds once over)"), NULL},
    {"rounds", PennyState_get_rounds, NULL, PyDoc_STR("multi-rounds in all"), NULL},
    {"played", PennyState_get_played, NULL,
     PyDoc_STR("cards played in the current multi-round"), NULL},
    {"over", PennyState_get_over, NULL, PyDoc_STR("every multi-round complete"), NULL},
    {"broken", PennyState_get_broken, NULL, PyDoc_STR("a breaking card has been played"),
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(PennyState_doc,
             "PennyState(players, advanced, rounds, hands, taken, tricks_won, leader, broken, "
             "lead_ban, breaking)\n\nThe multi-rounds of 003 'FOUR-PENNY HEARTS' (C core).");

static PyType_Slot PennyState_slots[] = {
    {Py_tp_new, PennyState_new},
    {Py_tp_dealloc, PennyState_dealloc},
    {Py_tp_methods, PennyState_methods},
    {Py_tp_getset, PennyState_getset},
    {Py_tp_doc, (void *)PennyState_doc},
    {0, NULL},
};

#ifndef Py_TPFLAGS_IMMUTABLETYPE
#define Py_TPFLAGS_IMMUTABLETYPE 0
#endif

static PyType_Spec PennyState_spec = {
    .name = "arena.engine.variants._penny.PennyState",
    .basicsize = sizeof(PennyStateObject),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = PennyState_slots,
};

static int penny_exec(PyObject *module)
{
    penny_module_state *st = PyModule_GetState(module);
    st->state_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &PennyState_spec, NULL);
    if (!st->state_type)
        return -1;
    return PyModule_AddType(module, st->state_type);
}

static int penny_traverse(PyObject *module, visitproc visit, void *arg)
{
    penny_module_state *st = PyModule_GetState(module);
    if (st)
        Py_VISIT(st->state_type);
    return 0;
}

static int penny_clear(PyObject *module)
{
    penny_module_state *st = PyModule_GetState(module);
    if (st)
        Py_CLEAR(st->state_type);
    return 0;
}

static void penny_free(void *module) { (void)penny_clear((PyObject *)module); }

static PyModuleDef_Slot penny_slots[] = {
    {Py_mod_exec, penny_exec},
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(penny_doc, "The penny core: the multi-rounds of 003 'FOUR-PENNY HEARTS'.");

static struct PyModuleDef penny_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "arena.engine.variants._penny",
    .m_doc = penny_doc,
    .m_size = sizeof(penny_module_state),
    .m_slots = penny_slots,
    .m_traverse = penny_traverse,
    .m_clear = penny_clear,
    .m_free = penny_free,
};

PyMODINIT_FUNC PyInit__penny(void) { return PyModuleDef_Init(&penny_module); }
