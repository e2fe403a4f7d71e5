/* _domino.c -- the CPython binding of domino.c: `arena.engine.variants._domino`.
 *
 * A thin shell as _hearts.c is: a DominoState owns one dh_hand; ints in, ints
 * and tuples of ints out; the pure-Python twin is arena/engine/variants/domino_reference.py
 * and both implement the same methods (tests/engine/test_domino_differential.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "domino.h"

typedef struct {
    PyTypeObject *state_type;
} domino_module_state;

typedef struct {
    PyObject_HEAD
    dh_hand hand;
} DominoStateObject;

/* A sequence of ints into out[0..len), at most `cap`; -1 with an exception. */
static Py_ssize_t int_sequence(PyObject *o, const char *what, long long out[], Py_ssize_t cap)
{
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd values, got %zd", what, cap, len);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be an int", what, i);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = PyLong_AsLongLong(item);
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return len;
}

static PyObject *DominoState_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"players", "dealer", "hands", "stock", "values", "moon",
                             "moon_points", NULL};
    int players, dealer, moon;
    long long moon_points;
    PyObject *hands_o, *stock_o, *values_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOiL", kwlist, &players, &dealer, &hands_o,
                                     &stock_o, &values_o, &moon, &moon_points))
        return NULL;
    long long hands_ll[DH_MAX_PLAYERS], stock_ll[DH_CARDS], values_ll[DH_CARDS];
    Py_ssize_t nh, ns, nv;
    if ((nh = int_sequence(hands_o, "hands", hands_ll, DH_MAX_PLAYERS)) < 0 ||
        (ns = int_sequence(stock_o, "stock", stock_ll, DH_CARDS)) < 0 ||
        (nv = int_sequence(values_o, "values", values_ll, DH_CARDS)) < 0)
        return NULL;
    if (nh != players || nv != DH_CARDS) {
        PyErr_SetString(PyExc_ValueError, "need one hand per player and 52 values");
        return NULL;
    }
    dh_config cfg;
    cfg.players = players;
    cfg.dealer = dealer;
    cfg.moon = moon;
    cfg.moon_points = moon_points;
    uint64_t hands[DH_MAX_PLAYERS];
    uint8_t stock[DH_CARDS];
    for (int i = 0; i < DH_CARDS; i++)
        cfg.values[i] = values_ll[i];
    for (Py_ssize_t i = 0; i < nh; i++)
        hands[i] = (uint64_t)hands_ll[i];
    for (Py_ssize_t i = 0; i < ns; i++) {
        if (stock_ll[i] < 0 || stock_ll[i] >= DH_CARDS) {
            PyErr_SetString(PyExc_ValueError, "not a Domino deal: a stock card outside the pack");
            return NULL;
        }
        stock[i] = (uint8_t)stock_ll[i];
    }
    DominoStateObject *self = (DominoStateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (dh_init(&self->hand, &cfg, hands, stock, (int)ns) != 0) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError,
                        "not a Domino deal: 2..7 non-empty hands and a stock that partition "
                        "the pack, a dealer in range, moon 0 or 1");
        return NULL;
    }
    return (PyObject *)self;
}

static void DominoState_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

#define HAND(self) (&((DominoStateObject *)(self))->hand)

static int seat_arg(PyObject *self, PyObject *arg, int *seat)
{
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 0 || s >= HAND(self)->cfg.players) {
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
    *card = (overflow || c < 0 || c >= DH_CARDS) ? -1 : (int)c;
    return 0;
}

static PyObject *DS_hand(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromUnsignedLongLong(HAND(self)->pos.hand[s]);
}

static PyObject *DS_taken(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromUnsignedLongLong(HAND(self)->pos.taken[s]);
}

static PyObject *DS_tricks_won(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromLong(HAND(self)->pos.tricks_won[s]);
}

static PyObject *DS_drawn(PyObject *self, PyObject *arg)
{
    int s;
    if (seat_arg(self, arg, &s))
        return NULL;
    return PyLong_FromLong(HAND(self)->pos.drawn[s]);
}

static PyObject *DS_legal_mask(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(dh_legal(HAND(self)));
}

static PyObject *DS_check_play(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    return PyLong_FromLong(dh_check(HAND(self), c));
}

static PyObject *DS_play(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    return PyLong_FromLong(dh_play(HAND(self), c));
}

static PyObject *DS_push(PyObject *self, PyObject *arg)
{
    int c;
    if (card_arg(arg, &c))
        return NULL;
    dh_hand *h = HAND(self);
    if (h->pos.over || c < 0 || !(h->pos.hand[h->pos.to_play] & (1ULL << c))) {
        PyErr_Format(PyExc_ValueError, "push(%d): not a card the seat to play holds", c);
        return NULL;
    }
    dh_push(h, c);
    Py_RETURN_NONE;
}

static PyObject *DS_pop(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (dh_pop(HAND(self))) {
        PyErr_SetString(PyExc_IndexError, "pop(): nothing to undo");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *pair(int a, int b) { return Py_BuildValue("(ii)", a, b); }

static PyObject *DS_current_trick(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const dh_hand *h = HAND(self);
    const dh_pos *p = &h->pos;
    PyObject *out = PyTuple_New(p->trick_len);
    if (!out)
        return NULL;
    int seat = p->leader, n = h->cfg.players;
    for (int i = 0; i < p->trick_len; i++) {
        PyObject *item = pair(seat, p->trick_cards[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
        for (int k = 1; k <= n; k++) /* the next seat in the trick */
            if (p->active & (1u << ((seat + k) % n))) {
                seat = (seat + k) % n;
                break;
            }
    }
    return out;
}

static PyObject *DS_history(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const dh_hand *h = HAND(self);
    int count = h->pos.trick_number;
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (int t = 0; t < count; t++) {
        const dh_trick *tr = &h->tricks[t];
        PyObject *plays = PyTuple_New(tr->size);
        if (!plays) {
            Py_DECREF(out);
            return NULL;
        }
        for (int i = 0; i < tr->size; i++) {
            PyObject *item = pair(tr->seats[i], tr->cards[i]);
            if (!item) {
                Py_DECREF(plays);
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(plays, i, item);
        }
        PyObject *entry = Py_BuildValue("(iNi)", tr->leader, plays, tr->winner);
        if (!entry) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, t, entry);
    }
    return out;
}

static PyObject *DS_draws(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const dh_hand *h = HAND(self);
    int count = h->pos.draw_count;
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *item = Py_BuildValue("(iii)", h->draw_trick[i], h->draw_seat[i], h->draw_card[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *DS_stock(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const dh_hand *h = HAND(self);
    int first = h->pos.stock_pos;
    PyObject *out = PyTuple_New(h->stock_size - first);
    if (!out)
        return NULL;
    for (int k = first; k < h->stock_size; k++)
        PyTuple_SET_ITEM(out, k - first, PyLong_FromLong(h->stock[k]));
    return out;
}

static PyObject *DS_points(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const dh_hand *h = HAND(self);
    int64_t out[DH_MAX_PLAYERS];
    dh_points(h, out);
    PyObject *t = PyTuple_New(h->cfg.players);
    if (!t)
        return NULL;
    for (int s = 0; s < h->cfg.players; s++)
        PyTuple_SET_ITEM(t, s, PyLong_FromLongLong(out[s]));
    return t;
}

static PyObject *DS_get_phase(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.over ? DH_PHASE_OVER : DH_PHASE_PLAYING);
}

static PyObject *DS_get_to_play(PyObject *self, void *Py_UNUSED(c))
{
    const dh_pos *p = &HAND(self)->pos;
    return PyLong_FromLong(p->over ? -1 : p->to_play);
}

static PyObject *DS_get_leader(PyObject *self, void *Py_UNUSED(c))
{
    const dh_pos *p = &HAND(self)->pos;
    return PyLong_FromLong(p->over ? -1 : p->leader);
}

static PyObject *DS_get_trick_number(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.trick_number);
}

static PyObject *DS_get_broken(PyObject *self, void *Py_UNUSED(c))
{
    return PyBool_FromLong(HAND(self)->pos.broken);
}

static PyObject *DS_get_stock_size(PyObject *self, void *Py_UNUSED(c))
{
    const dh_hand *h = HAND(self);
    return PyLong_FromLong(h->stock_size - h->pos.stock_pos);
}

static PyObject *DS_get_active(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.active);
}

static PyObject *DS_get_kept(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromUnsignedLongLong(HAND(self)->pos.kept);
}

static PyObject *DS_get_kept_by(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->pos.kept_by);
}

static PyObject *DS_get_players(PyObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLong(HAND(self)->cfg.players);
}

static PyMethodDef DominoState_methods[] = {
    {"hand", DS_hand, METH_O, "hand(seat): the cards the seat holds, as a mask."},
    {"taken", DS_taken, METH_O, "taken(seat): the cards the seat has won in tricks."},
    {"tricks_won", DS_tricks_won, METH_O, "tricks_won(seat): how many tricks it won."},
    {"drawn", DS_drawn, METH_O, "drawn(seat): how many cards it has drawn from the stock."},
    {"legal_mask", DS_legal_mask, METH_NOARGS, "The legal cards of the seat to play."},
    {"check_play", DS_check_play, METH_O, "0, or the error code playing the card would give."},
    {"play", DS_play, METH_O, "Play a card if legal: 0, or an error code (nothing changes)."},
    {"push", DS_push, METH_O, "Play a held card without the rules' checks."},
    {"pop", DS_pop, METH_NOARGS, "Undo the last play (and the draws it caused)."},
    {"current_trick", DS_current_trick, METH_NOARGS, "((seat, card), ...) of the trick in play."},
    {"history", DS_history, METH_NOARGS, "((leader, ((seat, card), ...), winner), ...)."},
    {"draws", DS_draws, METH_NOARGS, "((trick, seat, card), ...): every draw in order."},
    {"stock", DS_stock, METH_NOARGS, "The stock's cards left, top first."},
    {"points", DS_points, METH_NOARGS, "Each seat's points (the moon applied once over)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef DominoState_getset[] = {
    {"phase", DS_get_phase, NULL, "1 playing, 2 over.", NULL},
    {"to_play", DS_get_to_play, NULL, "The seat to play, -1 when over.", NULL},
    {"leader", DS_get_leader, NULL, "The current trick's leader, -1 when over.", NULL},
    {"trick_number", DS_get_trick_number, NULL, "Finished tricks.", NULL},
    {"broken", DS_get_broken, NULL, "Whether a heart has been played.", NULL},
    {"stock_size", DS_get_stock_size, NULL, "Cards left in the stock.", NULL},
    {"active", DS_get_active, NULL, "Bit s: seat s takes part in the current trick.", NULL},
    {"kept", DS_get_kept, NULL, "Cards charged outside tricks at the end (a mask).", NULL},
    {"kept_by", DS_get_kept_by, NULL, "Who is charged with them, -1 for nobody.", NULL},
    {"players", DS_get_players, NULL, "The number of players.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot DominoState_slots[] = {
    {Py_tp_new, DominoState_new},
    {Py_tp_dealloc, DominoState_dealloc},
    {Py_tp_methods, DominoState_methods},
    {Py_tp_getset, DominoState_getset},
    {Py_tp_doc, "DominoState(players, dealer, hands, stock, values, moon, moon_points)"},
    {0, NULL},
};

static PyType_Spec DominoState_spec = {
    .name = "arena.engine.variants._domino.DominoState",
    .basicsize = sizeof(DominoStateObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = DominoState_slots,
};

static PyObject *domino_deal(PyObject *Py_UNUSED(module), PyObject *args)
{
    int players, dealer;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iKi", &players, &seed, &dealer))
        return NULL;
    uint64_t hands[DH_MAX_PLAYERS];
    uint8_t stock[DH_CARDS];
    int size = dh_deal(players, (uint64_t)seed, dealer, hands, stock);
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "deal: 2..7 players and a dealer in range");
        return NULL;
    }
    PyObject *h = PyTuple_New(players), *s = PyTuple_New(size);
    if (!h || !s) {
        Py_XDECREF(h);
        Py_XDECREF(s);
        return NULL;
    }
    for (int i = 0; i < players; i++)
        PyTuple_SET_ITEM(h, i, PyLong_FromUnsignedLongLong(hands[i]));
    for (int i = 0; i < size; i++)
        PyTuple_SET_ITEM(s, i, PyLong_FromLong(stock[i]));
    return Py_BuildValue("(NN)", h, s);
}

/* position(players, dealer, hands, stock, values, moon, moon_points, leader, broken,
 * trick): a DominoState from a position mid-hand (dh_init_position); `trick` is
 * ((seat, card), ...) of the trick in progress. */
static PyObject *domino_position(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"players", "dealer",  "hands",  "stock", "values", "moon",
                             "moon_points", "leader", "broken", "trick", NULL};
    int players, dealer, moon, leader, broken;
    long long moon_points;
    PyObject *hands_o, *stock_o, *values_o, *trick_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOiLipO", kwlist, &players, &dealer,
                                     &hands_o, &stock_o, &values_o, &moon, &moon_points,
                                     &leader, &broken, &trick_o))
        return NULL;
    long long hands_ll[DH_MAX_PLAYERS], stock_ll[DH_CARDS], values_ll[DH_CARDS];
    Py_ssize_t nh, ns, nv;
    if ((nh = int_sequence(hands_o, "hands", hands_ll, DH_MAX_PLAYERS)) < 0 ||
        (ns = int_sequence(stock_o, "stock", stock_ll, DH_CARDS)) < 0 ||
        (nv = int_sequence(values_o, "values", values_ll, DH_CARDS)) < 0)
        return NULL;
    PyObject *trick = PySequence_Fast(trick_o, "trick");
    if (!trick)
        return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    uint8_t seats[DH_MAX_PLAYERS], cards[DH_MAX_PLAYERS];
    int bad = nh != players || nv != DH_CARDS || nt >= DH_MAX_PLAYERS;
    for (Py_ssize_t i = 0; !bad && i < nt; i++) {
        int seat, card;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(trick, i), "ii", &seat, &card)) {
            Py_DECREF(trick);
            return NULL;
        }
        bad = seat < 0 || seat >= DH_MAX_PLAYERS || card < 0 || card >= DH_CARDS;
        seats[i] = (uint8_t)seat;
        cards[i] = (uint8_t)card;
    }
    Py_DECREF(trick);
    dh_config cfg;
    cfg.players = players;
    cfg.dealer = dealer;
    cfg.moon = moon;
    cfg.moon_points = moon_points;
    uint64_t hands[DH_MAX_PLAYERS];
    uint8_t stock[DH_CARDS];
    for (int i = 0; !bad && i < DH_CARDS; i++)
        cfg.values[i] = values_ll[i];
    for (Py_ssize_t i = 0; !bad && i < nh; i++)
        hands[i] = (uint64_t)hands_ll[i];
    for (Py_ssize_t i = 0; !bad && i < ns; i++) {
        bad = stock_ll[i] < 0 || stock_ll[i] >= DH_CARDS;
        stock[i] = (uint8_t)stock_ll[i];
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "not a Domino position: bad sizes, seats or cards");
        return NULL;
    }
    domino_module_state *st = PyModule_GetState(module);
    PyTypeObject *type = st->state_type;
    DominoStateObject *self = (DominoStateObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (dh_init_position(&self->hand, &cfg, hands, stock, (int)ns, leader, broken, seats, cards,
                         (int)nt) != 0) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError,
                        "not a Domino position: cards twice, a trick not played in turn, or "
                        "fewer than two seats in it");
        return NULL;
    }
    return (PyObject *)self;
}

static PyMethodDef domino_methods[] = {
    {"position", (PyCFunction)(void (*)(void))domino_position, METH_VARARGS | METH_KEYWORDS,
     "position(players, dealer, hands, stock, values, moon, moon_points, leader, broken, "
     "trick) -> DominoState: play on from a position mid-hand (for search)."},
    {"deal", domino_deal, METH_VARARGS,
     "deal(players, seed, dealer) -> (hands, stock): six cards a seat, the stock top first."},
    {NULL, NULL, 0, NULL},
};

static int domino_exec(PyObject *module)
{
    domino_module_state *st = PyModule_GetState(module);
    st->state_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &DominoState_spec, NULL);
    if (!st->state_type)
        return -1;
    return PyModule_AddType(module, st->state_type);
}

static int domino_traverse(PyObject *module, visitproc visit, void *arg)
{
    domino_module_state *st = PyModule_GetState(module);
    Py_VISIT(st->state_type);
    return 0;
}

static int domino_clear(PyObject *module)
{
    domino_module_state *st = PyModule_GetState(module);
    Py_CLEAR(st->state_type);
    return 0;
}

static PyModuleDef_Slot domino_slots[] = {
    {Py_mod_exec, domino_exec},
    {0, NULL},
};

static struct PyModuleDef domino_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "arena.engine.variants._domino",
    .m_doc = "Domino Hearts (000 'Domino Hearts'): the C core's binding.",
    .m_size = sizeof(domino_module_state),
    .m_methods = domino_methods,
    .m_slots = domino_slots,
    .m_traverse = domino_traverse,
    .m_clear = domino_clear,
};

PyMODINIT_FUNC PyInit__domino(void) { return PyModuleDef_Init(&domino_module); }
