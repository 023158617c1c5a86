/*
 * The iteration space of a reduction (DESIGN.md section 4), as PyTorch's
 * TensorIterator builds it: reduced mask -> reorder -> coalesce, plus the
 * 32-bit check and split. Pure C, no CUDA.
 *
 * Dims are listed fastest first. Reduced dims come first:
 * [0, num_reduce_dims) are reduced (output stride 0), the rest are kept.
 * Strides are in BYTES, per operand.
 */
#ifndef RT_ITER_H
#define RT_ITER_H

#include "rt_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RT__ITER_OUT = 0, /* the output (values) */
    RT__ITER_IN = 1,  /* the input */
    RT__ITER_IDX = 2, /* the int64 indices output of min/max, when present */
    RT__ITER_ACC = 3, /* accumulator scratch for split reductions, added by the executor */
    RT__ITER_MAX_OPERANDS = 4
};

typedef struct rt__iter {
    int ndim;            /* 0 for a single element */
    int num_reduce_dims; /* dims [0, num_reduce_dims) are reduced */
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT__ITER_MAX_OPERANDS][RT_MAX_DIMS]; /* bytes */
    char *data[RT__ITER_MAX_OPERANDS]; /* address of element [0,..,0]; NULL if absent */
    int elem_size[RT__ITER_MAX_OPERANDS]; /* bytes; 0 if absent */
    int64_t num_outputs;       /* product of kept extents */
    int64_t inputs_per_output; /* product of reduced extents */
    /* Index-tracking ops (argmin/argmax, min/max with indices): the
       logical index of a reduced element, the row-major flattened index
       over the reduced dims in the input's dim order, is index_base +
       sum over reduced dims d of (its digit along d) x index_strides[d].
       Reduced dims of these ops are never flipped. Built for the CPU
       (index_by_memory false) they keep their logical order (last
       logical reduced dim fastest), so index_strides are the row-major
       weights of the iter's own reduced extents and the linear index over
       [0, num_reduce_dims) plus index_base is the logical index; built
       for the GPU they order by memory like any other op's, and where
       that order is not the logical one the iter is "keyed"
       (rt__iter_index_keyed). index_strides are 0 on kept dims and for
       every other op; index_base is non-zero only in split pieces. */
    bool tracks_index;
    int64_t index_base;
    int64_t index_strides[RT_MAX_DIMS];
} rt__iter;

/*
 * Builds the iteration space of a validated problem:
 *  1. one dim per input dim; operand strides in bytes (OUT from
 *     pb->out_full, IN from pb->in, IDX from pb->idx_full when present);
 *  2. a kept dim whose input stride is negative is flipped for every operand
 *     (base moved to the other end, strides negated); a reduced dim likewise
 *     unless tracks_index;
 *  3. reorder: reduced dims first, ordered by |input stride|, smallest
 *     first (by logical position, last dim first, when tracks_index and
 *     not index_by_memory; by logical position where strides tie, when
 *     tracks_index and index_by_memory); then kept dims by output stride,
 *     smallest first; ties broken by the next operand, then the smaller
 *     extent first, then the original order;
 *  4. coalesce neighbours a, b (a faster) of the same kind (both reduced or
 *     both kept) when either has extent 1, or when
 *     shape[a] * stride[a] == stride[b] for every operand and for the
 *     logical index (index_strides);
 *  5. drop extent-1 dims (an all-ones input gives ndim 0).
 * index_by_memory: whether an index-tracking op's reduced dims order by
 * memory (the CUDA backend, whose kernels take a keyed iter) or keep their
 * logical order (the CPU backend, whose extremes rely on elements arriving
 * in increasing index order). See rt__iter.tracks_index.
 * Never fails on a validated problem; zero-size tensors give a valid iter
 * with num_outputs or inputs_per_output 0.
 */
void rt__iter_build(const rt__problem *pb, bool index_by_memory, rt__iter *it);

/* The same without a problem, for tests and tools: the output strides
   (elements) are given at the input's rank with 0 on reduced dims, and
   index_mode says whether the op tracks an index and how its reduced dims
   order (RT__INDEX_*). */
enum {
    RT__INDEX_NONE = 0,     /* the op tracks no index */
    RT__INDEX_LOGICAL = 1,  /* tracks one; index_by_memory false (CPU) */
    RT__INDEX_BY_MEMORY = 2 /* tracks one; index_by_memory true (CUDA) */
};
void rt__iter_build_raw(const rt_tensor *in, const int64_t *out_strides_full, int out_elem_size,
                        uint32_t reduce_mask, int index_mode, rt__iter *it);

/* True when the iter tracks an index and its linear reduced index plus
   index_base is not the logical index: some reduced dim of extent > 1 has
   an index stride other than the product of the faster reduced extents.
   A keyed iter's index-tracking kernels map each element to its logical
   index (the CUDA backend's rt__index_map); only the general kernel does,
   and such an iter has at least two reduced dims. */
bool rt__iter_index_keyed(const rt__iter *it);

/* Number of operands present (2, 3 or 4). */
int rt__iter_noperands(const rt__iter *it);

/*
 * Adds the RT__ITER_ACC operand: acc_size bytes per output, laid out
 * compactly over the kept dims in iter order (stride 0 on reduced dims),
 * based at `base`. Needed before splitting a reduced dim; returns the bytes
 * the buffer must have (num_outputs * acc_size).
 */
int64_t rt__iter_add_acc(rt__iter *it, char *base, int acc_size);

/* True when the input base and the input stride of every dim other than
   skip_dim (-1: none) whose extent exceeds 1 are multiples of `bytes`: the
   alignment test of the vector paths (outputs: skip the fastest kept dim;
   rows: skip the reduced dim). */
bool rt__iter_input_aligned(const rt__iter *it, int64_t bytes, int skip_dim);

/* True when the iter is one output reduced over one contiguous run: a
   single dim, reduced, whose input stride is the element size (the
   iteration space of a full reduction whose dims all coalesced). The
   TINY and STREAM kernels take exactly these. */
bool rt__iter_is_one_run(const rt__iter *it);

/* True when the element count and, for every operand, the largest byte
   offset reachable in either direction from its base are <= limit
   (INT32_MAX when limit <= 0). */
bool rt__iter_fits(const rt__iter *it, int64_t limit);

/*
 * Visits pieces that fit `limit`, depth first, lower halves first, so that
 * each output sees its contributing pieces in one fixed order. The split
 * halves the dim with the largest (extent-1)*|stride| over operands,
 * moving each operand's base, and index_base (by index_strides) for
 * reduced dims; a piece whose split cut a reduced dim faster than another
 * of extent > 1 is keyed (rt__iter_index_keyed). For each piece:
 *   first: no earlier piece contributed to this piece's outputs
 *          (start from the identity, not from the ACC operand);
 *   last:  no later piece will (write the output, not the ACC operand).
 * A piece that splits no reduced dim has first = last = true. Stops at and
 * returns the first status fn returns that is not RT_OK.
 */
typedef rt_status (*rt__iter_piece_fn)(void *user, const rt__iter *piece, bool first, bool last);
rt_status rt__iter_for_each_piece(const rt__iter *it, int64_t limit, rt__iter_piece_fn fn,
                                  void *user);

/* Writes a one-line JSON-ish description for debugging and rt_explain:
   {"iter_shape":[...],"iter_strides":[[out...],[in...]],...}. Returns the
   number of characters that the full text needs (snprintf convention). */
int rt__iter_to_json(const rt__iter *it, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RT_ITER_H */
