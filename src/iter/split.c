/*
 * 32-bit indexing (DESIGN.md section 4): whether an iter fits, and the
 * split into pieces that do. The fast kernels index with int32, so an iter
 * whose element count or byte reach passes INT32_MAX is cut in halves, as
 * PyTorch's with_32bit_indexing does: halve the dim with the largest byte
 * extent, depth first, the lower half before the upper one. Depth first
 * visits every output's pieces in one fixed order, the one holding the
 * lower corner of its reduced box first and the upper corner last, which
 * the first/last flags rely on (and sums' run-to-run identical results).
 * The arg-reductions' index_base moves by index_strides, so it needs no
 * order: a split of a faster reduced dim interleaves the pieces' indices.
 */
#include "iter_build.h"

/* |s|, saturated so INT64_MIN (a stride no non-empty tensor has) is no UB. */
static int64_t magnitude(int64_t s) {
    return s == INT64_MIN ? INT64_MAX : s < 0 ? -s : s;
}

/* limit <= 0 means the 32-bit bound of the kernels. */
static int64_t effective_limit(int64_t limit) {
    return limit > 0 ? limit : INT32_MAX;
}

bool rt__iter_fits(const rt__iter *it, int64_t limit) {
    limit = effective_limit(limit);
    int64_t numel = 1;
    for (int d = 0; d < it->ndim; d++)
        if (it->shape[d] == 0)
            numel = 0;
    /* Each extent is >= 1 here, so the running product only grows: compare
       by division before multiplying and nothing overflows. */
    for (int d = 0; d < it->ndim && numel != 0; d++) {
        if (numel > limit / it->shape[d])
            return false;
        numel *= it->shape[d];
    }
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++) {
        if (it->elem_size[op] == 0)
            continue;
        int64_t forward = 0, backward = 0; /* farthest byte offsets reached */
        for (int d = 0; d < it->ndim; d++) {
            int64_t steps = it->shape[d] - 1, s = it->strides[op][d];
            int64_t mag = magnitude(s);
            int64_t *reach = s < 0 ? &backward : &forward;
            if (steps <= 0 || mag == 0)
                continue;
            if (mag > limit / steps)
                return false;
            if (steps * mag > limit - *reach)
                return false;
            *reach += steps * mag;
        }
    }
    return true;
}

/* The dim to halve: the largest (extent-1)*|stride| over operands, ties to
   the slower dim (PyTorch's get_dim_to_split), for every op: an
   index-tracking piece carries its logical index in index_base and
   index_strides, so any reduced dim may be halved. (Until v1.44 such an
   iter halved only its slowest reduced dim, so that a piece's linear
   index plus a constant stayed the logical one; when the reach at fault
   was a faster reduced dim, that took the product of the slower extents
   in pieces, 262144 launches for an argmax over a transposed [65536,
   65536] bf16 matrix.) Returns -1 when no dim has extent >= 2. */
static int dim_to_split(const rt__iter *it) {
    int best = -1;
    int64_t best_reach = -1;
    for (int d = it->ndim - 1; d >= 0; d--) {
        if (it->shape[d] < 2)
            continue;
        for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++) {
            if (it->elem_size[op] == 0)
                continue;
            int64_t s = it->strides[op][d];
            int64_t reach = rt__iter_mul_sat(it->shape[d] - 1, magnitude(s));
            if (reach > best_reach) {
                best_reach = reach;
                best = d;
            }
        }
    }
    return best;
}

typedef struct splitter {
    int64_t limit;
    rt__iter_piece_fn fn;
    void *user;
} splitter;

/* first/last: the piece's reduced box starts at the lower corner of the
   whole iter's / ends at its upper corner. The first piece of an output is
   the one that took the lower half at every reduced split on its path, and
   depth-first order visits it before its siblings. */
static rt_status visit(const splitter *sp, const rt__iter *piece, bool first, bool last) {
    if (rt__iter_fits(piece, sp->limit))
        return sp->fn(sp->user, piece, first, last);
    int d = dim_to_split(piece);
    /* An iter of extents <= 1 has one element at offset 0: it fits. */
    RT_RETURN_IF(d < 0, RT_ERR_INTERNAL);

    bool reduced = d < piece->num_reduce_dims;
    int64_t extent = piece->shape[d], lower = extent / 2;
    rt__iter part = *piece;
    part.shape[d] = lower;
    rt__iter_recount(&part);
    RT_FORWARD_IF_ERROR(visit(sp, &part, first, last && !reduced));

    part = *piece;
    part.shape[d] = extent - lower;
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
        if (part.elem_size[op] != 0)
            part.data[op] = rt__iter_shift(part.data[op], lower, part.strides[op][d]);
    if (reduced && part.tracks_index)
        part.index_base += lower * part.index_strides[d];
    rt__iter_recount(&part);
    return visit(sp, &part, first && !reduced, last);
}

rt_status rt__iter_for_each_piece(const rt__iter *it, int64_t limit, rt__iter_piece_fn fn,
                                  void *user) {
    splitter sp = {effective_limit(limit), fn, user};
    return visit(&sp, it, true, true);
}
