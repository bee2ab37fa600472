/* The view of the seat to move, made in C: what spite.malice.view.SeatView.of_mover does in Python.
 *
 * A tournament makes one such view at every move, and in Python making it costs a sixth of what the
 * engine spends on the move itself. This builds the very same immutable tuple (the Python version in
 * view.py is the reference, and a test compares the two on random games of every preset), reading the
 * state's public attributes only: nothing of the state is kept, so the view holds nothing the seat may
 * not see, exactly as the Python one. Optional: without a C compiler the package uses the Python one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define VIEW_FIELDS 17

/* the state's attributes a view is made from, by index */
enum { A_TO_MOVE, A_RESULT, A_PUBLIC_TOPS, A_HANDS, A_BUILDS, A_DISCARDS, A_TABLES, A_OPTS, A_TURN, A_DRAW,
       A_SET_ASIDE, A_PLAYED, A_IDLE, N_ATTRS };
static const char *attr_text[N_ATTRS] = {"to_move", "result", "_public_tops", "hands", "builds", "discards",
                                         "_tables", "opts", "turn", "draw", "set_aside", "played_this_turn",
                                         "idle_turns"};
static PyObject *attr_name[N_ATTRS];
static PyObject *s_public_stocks;

/* State keeps these in __slots__: for that one type, where each sits in the object (read from its
 * member descriptors once), so that a field is read without an attribute lookup; any other type
 * (a subclass, a stand-in) is read with getattr */
static PyTypeObject *slots_type;
static Py_ssize_t slot_offset[N_ATTRS];

static void
learn_slots(PyTypeObject *type)
{
    Py_ssize_t offsets[N_ATTRS];
    for (int i = 0; i < N_ATTRS; i++) {
        PyObject *descr = PyObject_GetAttr((PyObject *)type, attr_name[i]);
        if (descr == NULL) {
            PyErr_Clear();
            return;
        }
        int is_slot = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                      ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        offsets[i] = is_slot ? ((PyMemberDescrObject *)descr)->d_member->offset : -1;
        Py_DECREF(descr);
        if (!is_slot) {
            return;
        }
    }
    Py_XSETREF(slots_type, (PyTypeObject *)Py_NewRef(type));
    memcpy(slot_offset, offsets, sizeof(offsets));
}

/* state.<attribute i>, a new reference (NULL with an exception set) */
static PyObject *
get(PyObject *state, int i)
{
    if (Py_TYPE(state) == slots_type) {
        PyObject *value = *(PyObject **)((char *)state + slot_offset[i]);
        if (value != NULL) {
            return Py_NewRef(value);
        }
    }
    return PyObject_GetAttr(state, attr_name[i]);
}

/* len() of a list (the state's piles) or of any sized object; -1 with an exception set */
static Py_ssize_t
size_of(PyObject *value)
{
    return PyList_CheckExact(value) ? PyList_GET_SIZE(value) : PyObject_Size(value);
}

/* len(state.<attribute i>) as an int object, or NULL with an exception set */
static PyObject *
attr_len(PyObject *state, int i)
{
    PyObject *value = get(state, i);
    if (value == NULL) {
        return NULL;
    }
    Py_ssize_t n = size_of(value);
    Py_DECREF(value);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *
of_mover(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "of_mover(cls, state) takes exactly two arguments");
        return NULL;
    }
    PyObject *cls = args[0], *state = args[1];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "of_mover: cls must be a tuple type");
        return NULL;
    }
    if (Py_TYPE(state) != slots_type) {
        learn_slots(Py_TYPE(state)); /* a type without those slots is read with getattr */
    }
    PyObject *items[VIEW_FIELDS] = {NULL};
    PyObject *seat_obj = NULL, *result = NULL, *pub = NULL, *hands = NULL, *hand = NULL, *builds = NULL,
             *builds_list = NULL, *discards = NULL, *discards_list = NULL, *to_play = Py_None, *view = NULL;
    Py_INCREF(Py_None);

    seat_obj = get(state, A_TO_MOVE);
    if (seat_obj == NULL) {
        goto fail;
    }
    Py_ssize_t seat = PyLong_AsSsize_t(seat_obj);
    if (seat == -1 && PyErr_Occurred()) {
        goto fail;
    }
    result = get(state, A_RESULT);
    if (result == NULL) {
        goto fail;
    }
    /* the face-up stock cards and stock sizes, as tuples: kept by the state until a stock changes */
    pub = get(state, A_PUBLIC_TOPS);
    if (pub == NULL) {
        goto fail;
    }
    if (pub == Py_None) {
        Py_DECREF(pub);
        pub = PyObject_CallMethodNoArgs(state, s_public_stocks);
        if (pub == NULL) {
            goto fail;
        }
    }
    if (!PyTuple_Check(pub) || PyTuple_GET_SIZE(pub) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(pub, 0))) {
        PyErr_SetString(PyExc_TypeError, "of_mover: the state's public stocks are not (tops, sizes)");
        goto fail;
    }
    PyObject *tops = PyTuple_GET_ITEM(pub, 0), *stock_sizes = PyTuple_GET_ITEM(pub, 1);

    hands = get(state, A_HANDS);
    if (hands == NULL) {
        goto fail;
    }
    PyObject *own_hand = PySequence_GetItem(hands, seat);
    if (own_hand == NULL) {
        goto fail;
    }
    hand = PySequence_Tuple(own_hand);
    Py_DECREF(own_hand);
    if (hand == NULL) {
        goto fail;
    }
    builds_list = get(state, A_BUILDS);
    if (builds_list == NULL || (builds = PySequence_Tuple(builds_list)) == NULL) {
        goto fail;
    }
    discards_list = get(state, A_DISCARDS);
    if (discards_list == NULL || (discards = PySequence_Tuple(discards_list)) == NULL) {
        goto fail;
    }
    if (result == Py_None) {
        /* one stock per seat, or per team (two stocks): seat % stocks is the seat's own */
        Py_ssize_t n_stocks = PyTuple_GET_SIZE(tops);
        if (n_stocks == 0 || seat < 0 || seat >= PyTuple_GET_SIZE(discards)) {
            PyErr_SetString(PyExc_ValueError, "of_mover: the seat to move has no stock or no discard piles");
            goto fail;
        }
        PyObject *own = PyTuple_GET_ITEM(tops, seat % n_stocks);
        Py_ssize_t k = PyObject_Size(own);
        if (k < 0) {
            goto fail;
        }
        PyObject *top = k ? PySequence_GetItem(own, k - 1) : Py_NewRef(Py_None);
        if (top == NULL) {
            goto fail;
        }
        PyObject *tables = get(state, A_TABLES);
        if (tables == NULL) {
            Py_DECREF(top);
            goto fail;
        }
        Py_DECREF(to_play);
        to_play = PyTuple_Pack(5, tables, hand, top, PyTuple_GET_ITEM(discards, seat), builds);
        Py_DECREF(tables);
        Py_DECREF(top);
        if (to_play == NULL) {
            goto fail;
        }
    }
    Py_ssize_t n_hands = size_of(hands);
    if (n_hands < 0) {
        goto fail;
    }
    PyObject *hand_sizes = PyTuple_New(n_hands);
    items[6] = hand_sizes;
    if (hand_sizes == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n_hands; i++) {
        PyObject *h = PyList_CheckExact(hands) ? Py_NewRef(PyList_GET_ITEM(hands, i)) : PySequence_GetItem(hands, i);
        if (h == NULL) {
            goto fail;
        }
        Py_ssize_t size = size_of(h);
        Py_DECREF(h);
        PyObject *size_obj = size < 0 ? NULL : PyLong_FromSsize_t(size);
        if (size_obj == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(hand_sizes, i, size_obj);
    }
    /* the fields of SeatView, in its order (view.py, _ViewFields) */
    if ((items[0] = get(state, A_OPTS)) == NULL) {
        goto fail;
    }
    items[1] = Py_NewRef(seat_obj);
    items[2] = Py_NewRef(seat_obj);
    if ((items[3] = get(state, A_TURN)) == NULL) {
        goto fail;
    }
    items[4] = Py_NewRef(result);
    items[5] = Py_NewRef(hand);
    items[7] = Py_NewRef(stock_sizes);
    items[8] = Py_NewRef(tops);
    items[9] = Py_NewRef(builds);
    items[10] = Py_NewRef(discards);
    if ((items[11] = attr_len(state, A_DRAW)) == NULL || (items[12] = attr_len(state, A_SET_ASIDE)) == NULL) {
        goto fail;
    }
    if ((items[13] = get(state, A_PLAYED)) == NULL || (items[14] = get(state, A_IDLE)) == NULL) {
        goto fail;
    }
    items[15] = Py_NewRef(Py_None);
    items[16] = to_play;
    to_play = NULL;

    view = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, VIEW_FIELDS);
    if (view == NULL) {
        goto fail;
    }
    for (int i = 0; i < VIEW_FIELDS; i++) {
        PyTuple_SET_ITEM(view, i, items[i]); /* the view takes each reference */
        items[i] = NULL;
    }

fail:
    for (int i = 0; i < VIEW_FIELDS; i++) {
        Py_XDECREF(items[i]);
    }
    Py_XDECREF(to_play);
    Py_XDECREF(seat_obj);
    Py_XDECREF(result);
    Py_XDECREF(pub);
    Py_XDECREF(hands);
    Py_XDECREF(hand);
    Py_XDECREF(builds_list);
    Py_XDECREF(builds);
    Py_XDECREF(discards_list);
    Py_XDECREF(discards);
    return view;
}

static PyMethodDef methods[] = {
    {"of_mover", (PyCFunction)(void (*)(void))of_mover, METH_FASTCALL,
     "of_mover(cls, state): the view of the seat to move (SeatView.of_mover, made in C)."},
    {NULL, NULL, 0, NULL},
};

static int
intern_names(void)
{
    for (int i = 0; i < N_ATTRS; i++) {
        if ((attr_name[i] = PyUnicode_InternFromString(attr_text[i])) == NULL) {
            return -1;
        }
    }
    s_public_stocks = PyUnicode_InternFromString("public_stocks");
    return s_public_stocks == NULL ? -1 : 0;
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "spite.malice._viewc",
    "The view of the seat to move, made in C (see spite.malice.view).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__viewc(void)
{
    if (intern_names() < 0) {
        return NULL;
    }
    return PyModule_Create(&module_def);
}
