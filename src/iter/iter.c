/*
 * Building the iteration space: flip negative strides, reorder the dims as
 * PyTorch's TensorIterator does (reorder_dimensions), coalesce neighbours
 * (coalesce_dimensions), drop extent-1 dims. DESIGN.md section 4.
 *
 * The launch configuration reads the iter's shape and strides, and COMPAT
 * must reproduce PyTorch's grids bit for bit, so the reorder copies
 * TensorIterator's insertion sort, quirks included, rather than using a
 * textbook stable sort: on an ambiguous comparison it keeps walking back
 * and may then swap two non-adjacent entries.
 */
#include "iter_build.h"

#include <string.h>

/* The logical dims being ordered (input rank, before coalescing). */
typedef struct dims {
    int n;
    int64_t shape[RT_MAX_DIMS];
    int64_t stride[RT__ITER_MAX_OPERANDS][RT_MAX_DIMS]; /* bytes */
    bool reduced[RT_MAX_DIMS];
    /* Index-tracking ops: the logical weight of a step along each dim,
       row-major over the reduced dims in the input's order (the last
       fastest); 0 on kept dims and for every other op. Coalescing keeps
       it (continues()), so each iter dim has one. */
    int64_t index_stride[RT_MAX_DIMS];
    bool tracks_index;
    bool index_by_memory; /* rt__iter_source's: reduced dims of an
                             index-tracking op order by memory too */
    /* Present operands in TensorIterator's order, outputs before the
       input (values, indices, input): the comparison asks them in turn. */
    int order[RT__ITER_MAX_OPERANDS];
    int norder;
} dims;

char *rt__iter_shift(char *p, int64_t count, int64_t stride) {
    return (char *)(uintptr_t)((uintptr_t)p + (uintptr_t)((uint64_t)count * (uint64_t)stride));
}

int64_t rt__iter_mul_sat(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* |v| as unsigned, defined even for INT64_MIN. */
static uint64_t magnitude(int64_t v) {
    return v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
}

/*
 * PyTorch's should_swap: > 0 when d0 must come after (be slower than) d1,
 * < 0 when before, 0 when the strides do not decide and d0 is not larger.
 * Reduced dims go first. Index-tracking reduced dims keep their logical
 * order, last dim fastest, so the linear index over them is the row-major
 * index the semantics ask for. Strides compare by magnitude: after the flip
 * only outputs can still be negative, and locality is what we sort for.
 */
static int compare_dims(const dims *w, int d0, int d1) {
    if (w->reduced[d0] != w->reduced[d1])
        return w->reduced[d0] ? -1 : 1;
    const bool logical = w->reduced[d0] && w->tracks_index;
    if (logical && !w->index_by_memory)
        return d0 > d1 ? -1 : 1;
    for (int k = 0; k < w->norder; k++) {
        int op = w->order[k];
        uint64_t s0 = magnitude(w->stride[op][d0]), s1 = magnitude(w->stride[op][d1]);
        if (s0 == 0 || s1 == 0)
            continue; /* broadcast: let the next operand decide */
        if (s0 != s1)
            return s0 < s1 ? -1 : 1;
    }
    /* Where memory does not decide, an index-tracking op's reduced dims
       keep their logical order, so the iter needs no index map. */
    if (logical)
        return d0 > d1 ? -1 : 1;
    return w->shape[d0] > w->shape[d1] ? 1 : 0;
}

/* TensorIterator's insertion sort, starting from the reversed logical order
   (last dim fastest). perm[k] is the logical dim at iter position k. */
static void reorder(const dims *w, int *perm) {
    for (int k = 0; k < w->n; k++)
        perm[k] = w->n - 1 - k;
    for (int i = 1; i < w->n; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = compare_dims(w, perm[d0], perm[d1]);
            if (c > 0) {
                int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
}

/* Negative input strides walk memory backwards; flipping the dim (base at
   the other end, every operand's stride negated) lets the kernels read
   forwards and coalesce. Index-tracking reduced dims stay as they are: the
   index must count in the input's own order. */
static void flip_negative(dims *w, char **data) {
    for (int d = 0; d < w->n; d++) {
        if (w->stride[RT__ITER_IN][d] >= 0 || w->shape[d] < 2)
            continue;
        if (w->reduced[d] && w->tracks_index)
            continue;
        for (int k = 0; k < w->norder; k++) {
            int op = w->order[k];
            data[op] = rt__iter_shift(data[op], w->shape[d] - 1, w->stride[op][d]);
            w->stride[op][d] = -w->stride[op][d];
        }
    }
}

/* shape * stride[a] == stride[b] for every operand, and for the logical
   index: b continues a. */
static bool continues(const dims *w, int64_t shape_a, int a, int b) {
    int64_t index_next;
    if (__builtin_mul_overflow(shape_a, w->index_stride[a], &index_next) ||
        index_next != w->index_stride[b])
        return false;
    for (int k = 0; k < w->norder; k++) {
        int op = w->order[k];
        int64_t next;
        if (__builtin_mul_overflow(shape_a, w->stride[op][a], &next) || next != w->stride[op][b])
            return false;
    }
    return true;
}

void rt__iter_recount(rt__iter *it) {
    int64_t outputs = 1, inputs = 1;
    bool outputs_empty = false, inputs_empty = false;
    for (int d = 0; d < it->ndim; d++) {
        bool reduced = d < it->num_reduce_dims;
        /* A zero extent empties the product even where the others overflow
           (validation does not bound the extents of empty tensors). */
        if (reduced) {
            inputs_empty |= it->shape[d] == 0;
            inputs = rt__iter_mul_sat(inputs, it->shape[d]);
        } else {
            outputs_empty |= it->shape[d] == 0;
            outputs = rt__iter_mul_sat(outputs, it->shape[d]);
        }
    }
    it->num_outputs = outputs_empty ? 0 : outputs;
    it->inputs_per_output = inputs_empty ? 0 : inputs;
}

void rt__iter_build_from(const rt__iter_source *src, rt__iter *it) {
    static const int torch_order[] = {RT__ITER_OUT, RT__ITER_IDX, RT__ITER_IN};
    dims w;
    char *data[RT__ITER_MAX_OPERANDS] = {NULL};
    bool empty = false;
    int perm[RT_MAX_DIMS];

    memset(it, 0, sizeof *it);
    w.n = src->ndim;
    w.tracks_index = src->tracks_index;
    w.index_by_memory = src->index_by_memory;
    w.norder = 0;
    for (int k = 0; k < 3; k++) {
        int op = torch_order[k];
        if (src->elem_size[op] == 0)
            continue;
        w.order[w.norder++] = op;
        data[op] = src->data[op];
        it->elem_size[op] = src->elem_size[op];
    }
    for (int d = 0; d < w.n; d++) {
        w.shape[d] = src->shape[d];
        w.reduced[d] = (src->reduce_mask >> d) & 1u;
        empty |= w.shape[d] == 0;
        for (int k = 0; k < w.norder; k++) {
            int op = w.order[k];
            bool zero = w.reduced[d] && op != RT__ITER_IN; /* outputs do not move */
            /* Wrapping multiply: an empty tensor's strides are not
               validated, and must not make this UB. */
            uint64_t bytes = (uint64_t)src->strides[op][d] * (uint64_t)src->elem_size[op];
            w.stride[op][d] = zero ? 0 : (int64_t)bytes;
        }
    }
    int64_t weight = 1;
    for (int d = w.n - 1; d >= 0; d--) {
        w.index_stride[d] = w.reduced[d] && w.tracks_index ? weight : 0;
        if (w.reduced[d])
            weight = rt__iter_mul_sat(weight, w.shape[d]);
    }
    /* An empty input reads nothing, and its strides need not describe
       addressable memory (validation bounds no span of an empty tensor),
       so its bases are left alone and its strides dropped: the executors
       still walk the outputs of an empty reduction, and an input stride
       of INT64_MIN on a kept dim overflowed the CPU's running offsets
       (UBSan, tests/fuzz); the 32-bit split no longer cuts a fill for them
       either. */
    if (empty)
        for (int d = 0; d < w.n; d++)
            w.stride[RT__ITER_IN][d] = 0;
    else
        flip_negative(&w, data);
    reorder(&w, perm);

    for (int k = 0; k < w.n; k++) {
        int d = perm[k], last = it->ndim - 1;
        if (w.shape[d] == 1)
            continue;
        if (last >= 0 && w.reduced[perm[last]] == w.reduced[d] &&
            continues(&w, it->shape[last], perm[last], d)) {
            it->shape[last] = rt__iter_mul_sat(it->shape[last], w.shape[d]);
            continue;
        }
        /* perm[] doubles as the record of which logical dim each iter dim
           started from, for continues() above. */
        perm[it->ndim] = d;
        it->shape[it->ndim] = w.shape[d];
        it->index_strides[it->ndim] = w.index_stride[d];
        for (int j = 0; j < w.norder; j++)
            it->strides[w.order[j]][it->ndim] = w.stride[w.order[j]][d];
        it->num_reduce_dims += w.reduced[d];
        it->ndim++;
    }
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
        it->data[op] = data[op];
    it->tracks_index = src->tracks_index;
    it->index_base = 0;
    rt__iter_recount(it);
}

/* Element size without calling into src/core, so that the raw builder links
   on its own. */
static int dtype_bytes(rt_dtype dtype) {
    switch (dtype) {
#define RT__ITER_DTYPE_SIZE(e, suffix, size, is_float, is_signed)                                  \
    case e:                                                                                        \
        return size;
        RT_FOR_EACH_DTYPE(RT__ITER_DTYPE_SIZE)
#undef RT__ITER_DTYPE_SIZE
    default:
        return 0;
    }
}

void rt__iter_build_raw(const rt_tensor *in, const int64_t *out_strides_full, int out_elem_size,
                        uint32_t reduce_mask, int index_mode, rt__iter *it) {
    rt__iter_source src;
    memset(&src, 0, sizeof src);
    src.ndim = in->ndim;
    src.shape = in->shape;
    src.strides[RT__ITER_OUT] = out_strides_full;
    src.elem_size[RT__ITER_OUT] = out_elem_size;
    src.strides[RT__ITER_IN] = in->strides;
    src.data[RT__ITER_IN] = (char *)in->data;
    src.elem_size[RT__ITER_IN] = dtype_bytes(in->dtype);
    src.reduce_mask = reduce_mask;
    src.tracks_index = index_mode != RT__INDEX_NONE;
    src.index_by_memory = index_mode == RT__INDEX_BY_MEMORY;
    rt__iter_build_from(&src, it);
}

bool rt__iter_index_keyed(const rt__iter *it) {
    if (!it->tracks_index)
        return false;
    int64_t weight = 1;
    for (int d = 0; d < it->num_reduce_dims; d++) {
        if (it->shape[d] > 1 && it->index_strides[d] != weight)
            return true;
        weight = rt__iter_mul_sat(weight, it->shape[d]);
    }
    return false;
}

int rt__iter_noperands(const rt__iter *it) {
    int n = 0;
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
        n += it->elem_size[op] != 0;
    return n;
}

bool rt__iter_input_aligned(const rt__iter *it, int64_t bytes, int skip_dim) {
    if ((uintptr_t)it->data[RT__ITER_IN] % (uintptr_t)bytes != 0)
        return false;
    for (int d = 0; d < it->ndim; d++)
        if (d != skip_dim && it->shape[d] > 1 && it->strides[RT__ITER_IN][d] % bytes != 0)
            return false;
    return true;
}

bool rt__iter_is_one_run(const rt__iter *it) {
    const int64_t elem = it->elem_size[RT__ITER_IN];
    return it->num_outputs == 1 && it->ndim == 1 && it->num_reduce_dims == 1 && elem > 0 &&
           it->strides[RT__ITER_IN][0] == elem;
}

int64_t rt__iter_add_acc(rt__iter *it, char *base, int acc_size) {
    int64_t stride = acc_size;
    for (int d = 0; d < it->ndim; d++) {
        if (d < it->num_reduce_dims) {
            it->strides[RT__ITER_ACC][d] = 0;
        } else {
            it->strides[RT__ITER_ACC][d] = stride;
            stride *= it->shape[d];
        }
    }
    it->data[RT__ITER_ACC] = base;
    it->elem_size[RT__ITER_ACC] = acc_size;
    return it->num_outputs * acc_size;
}
