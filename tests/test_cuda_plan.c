/*
 * The CUDA backend's planning, whole, on random problems: host code, so it
 * runs in every CUDA build, with or without a GPU. A problem is validated
 * (rt__problem_init), built into its iteration space (src/iter), cut into
 * the pieces that fit 32-bit indexing, with the ACC operand when a reduced
 * dim is cut (as cuda_exec.c's run_split does), and every piece is planned
 * by both policies on several device models (src/config). What must hold
 * for every piece, whatever the shape, strides, dtypes and op:
 *  - the config computes (RT_OK) and records its policy; COMPAT, and
 *    either policy on a keyed piece (rt__iter_index_keyed), picks the
 *    general kernel;
 *  - the launch check (rt__cuda_check_config, cuda_args.c) passes it: a
 *    config the check refuses reaches the user as RT_ERR_INTERNAL;
 *  - its dynamic shared memory fits the device's default limit;
 *  - its staging and semaphores are non-negative and none without a
 *    cross-block combine (an all-zero config then needs no workspace);
 *  - for index-tracking ops, at a dozen of its elements: unkeyed, the
 *    linear index plus index_base is the logical index; keyed, the index
 *    map's keys fit the piece, order as the logical indices do and decode
 *    back to them, computed as KeyedOp does (check_index_map).
 * The kernels' own results for such plans are test_reduce_cuda's; this
 * test reaches the shapes a GPU test cannot afford (up to 2^35 elements,
 * every rule of TUNED) at host speed. test_keyed_lookup: the keyed launch
 * exists for exactly the index-tracking families (dispatch.c).
 *
 * The tensors are descriptors only: their data addresses lie in a
 * reservation of address space that is never touched, slots far apart,
 * aligned as allocations are and then moved by whole elements.
 *
 * RT_TEST_CASES (default 6000) sets the number of problems; RT_TEST_TRACE
 * set prints each before it is planned.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and MAP_NORESERVE */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "config.h"
#include "cuda_args.h"
#include "rt_cases.h"
#include "rt_internal.h"
#include "rt_rng.h"

/* Where the fake tensors live: four slots of SLOT_BYTES in one reservation
   of address space (PROT_NONE: host addresses of this process, never
   touched, which no CUDA allocation can share), input, output, indices and
   ACC; a tensor spans at most MAX_SPAN bytes of its slot. */
#define SLOT_BYTES ((uintptr_t)1 << 41)
#define MAX_SPAN ((int64_t)1 << 40)
static uintptr_t g_slots;
#define BASE_IN (g_slots)
#define BASE_OUT (g_slots + SLOT_BYTES)
#define BASE_IDX (g_slots + 2 * SLOT_BYTES)
#define BASE_ACC (g_slots + 3 * SLOT_BYTES)
/* The most elements an input gets: past 2^31, so that pieces are cut. */
#define MAX_ELEMS ((int64_t)1 << 35)

static int64_t pick_extent(rt_rng *r) {
    const double u = rt_rng_unit(r);
    if (u < 0.15)
        return 1;
    if (u < 0.45)
        return rt_rng_range(r, 2, 8);
    if (u < 0.75)
        return rt_rng_range(r, 9, 300);
    if (u < 0.95)
        return rt_rng_range(r, 301, 20000);
    return rt_rng_range(r, 20001, (int64_t)1 << 22);
}

/* A row length near the kernels' boundaries: short rows, a warp's, whole
   vectors and one more or less, powers of two. */
static int64_t pick_row(rt_rng *r) {
    static const int64_t edges[] = {1,   2,   3,   4,   5,    7,    8,    9,    16,    31,
                                    32,  33,  64,  96,  97,   100,  127,  128,  129,   160,
                                    161, 255, 256, 257, 1000, 1023, 1024, 1025, 2048,  2049,
                                    4095, 4096, 4097, 5000, 8192, 16384, 32768, 65536, 262144};
    if (rt_rng_chance(r, 0.6))
        return edges[rt_rng_range(r, 0, (int64_t)(sizeof edges / sizeof edges[0]) - 1)];
    return pick_extent(r);
}

/* Strides (elements) for extents shape: the dims in a random memory order
   (row-major more often than not), some with gaps (when `gaps`), some
   broadcast (when `broadcast`) or walking backwards (when `negative`).
   Returns the lowest element offset the strides reach (<= 0). */
static int64_t make_strides(rt_rng *r, int ndim, const int64_t *shape, bool broadcast,
                            bool negative, bool gaps, int64_t *strides) {
    int order[RT_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        order[d] = ndim - 1 - d; /* fastest first: row-major */
    if (rt_rng_chance(r, 0.4))
        for (int i = ndim - 1; i > 0; i--) {
            const int j = (int)rt_rng_range(r, 0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    int64_t next = 1, low = 0;
    for (int i = 0; i < ndim; i++) {
        const int d = order[i];
        strides[d] = next;
        const double u = rt_rng_unit(r);
        int64_t span = next * (shape[d] > 0 ? shape[d] : 1);
        if (gaps && u < 0.12)
            span += rt_rng_range(r, 1, 3) * next; /* a sliced dim: a gap after it */
        else if (gaps && u < 0.18)
            span *= 2;
        next = span;
        if (broadcast && shape[d] > 1 && rt_rng_chance(r, 0.08))
            strides[d] = 0;
        if (negative && shape[d] > 1 && rt_rng_chance(r, 0.1)) {
            strides[d] = -strides[d];
            low += (shape[d] - 1) * strides[d];
        }
    }
    return low;
}

/* The bytes t's elements span (its extents and strides; dtype set). */
static int64_t span_bytes(const rt_tensor *t) {
    int64_t elems = 1;
    for (int d = 0; d < t->ndim; d++) {
        const int64_t s = t->strides[d] < 0 ? -t->strides[d] : t->strides[d];
        if (t->shape[d] > 1 && s > (MAX_SPAN - elems) / (t->shape[d] - 1))
            return INT64_MAX;
        elems += (t->shape[d] - 1) * s;
    }
    return elems > MAX_SPAN / 8 ? INT64_MAX : elems * (int64_t)rt_dtype_size(t->dtype);
}

static rt_dtype pick_dtype(rt_rng *r, rt_op op) {
    for (;;) {
        const rt_dtype dt = (rt_dtype)rt_rng_range(r, 0, RT_DTYPE_COUNT - 1);
        if (rt_case_op_allowed(op, dt))
            return dt;
    }
}

static rt_dtype pick_out_dtype(rt_rng *r, rt_op op, rt_dtype in) {
    rt_dtype out;
    assert_int_equal(rt_reduce_default_dtype(op, in, &out), RT_OK);
    if (rt_rng_chance(r, 0.7))
        return out;
    rt_dtype allowed[RT_DTYPE_COUNT];
    int n = 0;
    for (int d = 0; d < RT_DTYPE_COUNT; d++)
        if (rt_reduce_out_dtype_ok(op, in, (rt_dtype)d))
            allowed[n++] = (rt_dtype)d;
    return n > 0 ? allowed[rt_rng_range(r, 0, n - 1)] : out;
}

/* A compact output of shape (ndim, shape), dims in a random order, some
   walking backwards, at base moved by a few elements. */
static void make_output(rt_rng *r, rt_dtype dt, int ndim, const int64_t *shape, uintptr_t base,
                        rt_tensor *t) {
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->ndim = ndim;
    memcpy(t->shape, shape, (size_t)ndim * sizeof shape[0]);
    int64_t low = make_strides(r, ndim, shape, false, true, true, t->strides);
    if (span_bytes(t) > MAX_SPAN)
        low = make_strides(r, ndim, shape, false, true, false, t->strides);
    const int64_t shift = rt_rng_chance(r, 0.8) ? 0 : rt_rng_range(r, 1, 7);
    t->data = (void *)(base + (uintptr_t)((shift - low) * (int64_t)rt_dtype_size(dt)));
}

/* Problem `seed`: an rt_case of descriptors only (no blocks; in_buf.elem0
   is element 0's offset into the input's slot, for the description). */
static void make_problem(rt_rng *r, uint64_t seed, rt_case *pb) {
    memset(pb, 0, sizeof *pb);
    pb->seed = seed;
    pb->correction = 1.0;
    pb->op = (rt_op)rt_rng_range(r, 0, RT_OP_COUNT - 1);
    const rt_dtype dt = pick_dtype(r, pb->op);
    rt_tensor *in = &pb->in;
    in->dtype = dt;

    const double kind = rt_rng_unit(r);
    if (kind < 0.2) { /* rows: [M, L] over dim 1 */
        in->ndim = 2;
        in->shape[1] = pick_row(r);
        in->shape[0] = pick_extent(r) * (rt_rng_chance(r, 0.5) ? 64 : 1);
        pb->dims[pb->ndims++] = 1;
    } else if (kind < 0.35) { /* columns: [L, M] over dim 0 */
        in->ndim = 2;
        in->shape[0] = pick_row(r);
        in->shape[1] = pick_row(r);
        pb->dims[pb->ndims++] = 0;
    } else if (kind < 0.45) { /* a full reduction of one run */
        in->ndim = 1;
        in->shape[0] = rt_rng_chance(r, 0.5) ? pick_row(r) : ((int64_t)1 << rt_rng_range(r, 8, 34));
    } else { /* anything: rank 1-6, random dims */
        in->ndim = (int)rt_rng_range(r, 1, 6);
        for (int d = 0; d < in->ndim; d++)
            in->shape[d] = pick_extent(r);
        for (int d = 0; d < in->ndim; d++)
            if (rt_rng_chance(r, 0.5))
                pb->dims[pb->ndims++] = rt_rng_chance(r, 0.2) ? d - in->ndim : d;
    }
    /* No empty dims: those never reach a kernel (test_reduce_cuda's
       fills cover them). */
    rt_case_cap_elems(in, MAX_ELEMS);
    int64_t low = make_strides(r, in->ndim, in->shape, true, true, true, in->strides);
    if (span_bytes(in) > MAX_SPAN) /* dense: at most 2^38 bytes */
        low = make_strides(r, in->ndim, in->shape, true, true, false, in->strides);
    const int64_t shift = rt_rng_chance(r, 0.7) ? 0 : rt_rng_range(r, 1, 7);
    in->data = (void *)(BASE_IN + (uintptr_t)((shift - low) * (int64_t)rt_dtype_size(dt)));
    pb->in_buf.elem0 = (size_t)((uintptr_t)in->data - BASE_IN);

    pb->keepdim = rt_rng_chance(r, 0.3);
    int out_ndim;
    int64_t out_shape[RT_MAX_DIMS];
    assert_int_equal(rt_reduce_shape(in, pb->dims, pb->ndims, pb->keepdim, &out_ndim, out_shape),
                     RT_OK);
    make_output(r, pick_out_dtype(r, pb->op, dt), out_ndim, out_shape, BASE_OUT, &pb->out);
    pb->has_idx = (pb->op == RT_OP_MIN || pb->op == RT_OP_MAX) && rt_rng_chance(r, 0.3);
    if (pb->has_idx)
        make_output(r, RT_I64, out_ndim, out_shape, BASE_IDX, &pb->idx);
    static const double ps[] = {2.0, 1.0, 0.0, 3.0, 0.5, INFINITY, -INFINITY, -1.5};
    pb->p = ps[rt_rng_range(r, 0, (int64_t)(sizeof ps / sizeof ps[0]) - 1)];
}

/* ---- planning ------------------------------------------------------------ */

typedef struct planner {
    const rt__op_traits *traits;
    const rt__device_props *dev;
    unsigned kinds_off;
    bool partial; /* some piece has first or last false */
    int pieces;
    bool capped; /* stopped at MAX_PIECES */
    char *where; /* the problem, for messages */
    rt_rng *rng; /* picks the elements check_index_map follows */
    int keyed;   /* keyed pieces seen */
    int lean;    /* TUNED plans of the LEAN walk kernel's class seen */
} planner;

/* Pieces planned of one problem at most: a bound on the test's time, not
   a limit of the library. (Until v1.44 an index-tracking reduction could
   halve only its slowest reduced dim, and one whose reach at fault was a
   logically faster reduced dim took as many pieces as the slower reduced
   extents multiply to: argmax over every dim of a bf16 [588, 44, 179, 8,
   535] view with the last dim slowest in memory, some 3.7 x 10^7 x 32.
   Its reduced dims now order by memory and split as a sum's do.) A
   problem past the bound is planned up to it and counted. */
#define MAX_PIECES 20000

/* The logical index of reduced linear index r of an index-tracking piece
   (index_base + digits x index_strides), its digits into digit[]. */
static int64_t logical_index(const rt__iter *piece, int64_t r, int64_t *digit) {
    int64_t index = piece->index_base;
    for (int d = 0; d < piece->num_reduce_dims; d++) {
        digit[d] = r % piece->shape[d];
        r /= piece->shape[d];
        index += digit[d] * piece->index_strides[d];
    }
    return index;
}

/* What an index-tracking piece's kernels rely on, at a few of its reduced
   elements. Unkeyed: index_base + the linear index is the logical index
   (every kernel, the ROWS, TINY and STREAM ones too). Keyed: the map
   rt__cuda_pack_index_map packs gives each element a key, as KeyedOp::key
   computes it, below the piece's element count (32 bits), in the same
   order as the logical indices (ArgOp's tie rule), which KeyedOp::translate
   turns back into the logical index. */
static void check_index_map(planner *pl, const rt__iter *piece) {
    enum { SAMPLES = 12 };
    const int64_t n = piece->inputs_per_output;
    const bool keyed = rt__iter_index_keyed(piece);
    rt__index_map m;
    rt__cuda_pack_index_map(piece, &m);
    int64_t key[SAMPLES], index[SAMPLES], digit[RT_MAX_DIMS];
    for (int k = 0; k < SAMPLES; k++) {
        const int64_t r = k == 0 ? 0 : k == 1 ? n - 1 : rt_rng_range(pl->rng, 0, n - 1);
        index[k] = logical_index(piece, r, digit);
        if (!keyed) {
            if (index[k] != piece->index_base + r)
                fail_msg("unkeyed piece: element %lld has logical index %lld, base %lld, of %s",
                         (long long)r, (long long)index[k], (long long)piece->index_base,
                         pl->where);
            continue;
        }
        uint64_t kv = 0;
        for (int d = 0; d < piece->num_reduce_dims; d++)
            kv += (uint64_t)digit[d] * m.key_weight[d];
        if (kv >= (uint64_t)n)
            fail_msg("keyed piece: key %llu of element %lld past the piece's %lld, of %s",
                     (unsigned long long)kv, (long long)r, (long long)n, pl->where);
        key[k] = (int64_t)kv;
        int64_t back = piece->index_base;
        for (int d = 0; d < piece->num_reduce_dims; d++)
            back += (int64_t)(((uint32_t)kv / m.key_weight[d]) % (uint32_t)piece->shape[d]) *
                    m.weight[d];
        if (back != index[k])
            fail_msg("keyed piece: key %llu decodes to %lld, not %lld, of %s",
                     (unsigned long long)kv, (long long)back, (long long)index[k], pl->where);
    }
    if (keyed) {
        pl->keyed++;
        for (int i = 0; i < SAMPLES; i++)
            for (int j = 0; j < SAMPLES; j++)
                if ((key[i] < key[j]) != (index[i] < index[j]))
                    fail_msg("keyed piece: keys %lld, %lld against indices %lld, %lld, of %s",
                             (long long)key[i], (long long)key[j], (long long)index[i],
                             (long long)index[j], pl->where);
    }
}

/* The byte offset of operand op at reduced linear index r (dims below R)
   and kept linear index o (dims R and up) of piece, digit by digit. */
static int64_t iter_offset(const rt__iter *piece, int op, int64_t r, int64_t o) {
    const int R = piece->num_reduce_dims;
    int64_t off = 0;
    for (int d = 0; d < R; d++) {
        off += r % piece->shape[d] * piece->strides[op][d];
        r /= piece->shape[d];
    }
    for (int d = R; d < piece->ndim; d++) {
        off += o % piece->shape[d] * piece->strides[op][d];
        o /= piece->shape[d];
    }
    return off;
}

/* Whether TUNED's general-kernel config c of piece (the call's only one
   where first and last) is of the LEAN walk kernel's class
   (rt__cuda_lean_walk_fits, as the executor packs it); where it is, the
   block that kernel gets (rt__cuda_pack_lean) must address what the
   general kernel's config means: the walk covers the reduced elements
   once over (count x threads x vector = the piece's inputs a output), and
   at sampled outputs, threads and steps the kernel's slice, first vector
   and step land on the input offset of reduced index (tx input_mult[0] +
   ty input_mult[1] + k step_input) vectors of output o, its output on
   o's, vectors never straddling dim 0. */
static bool check_lean(planner *pl, const rt__iter *piece, const rt__launch_config *c, bool first,
                       bool last) {
    const int vec = c->input_vec_size;
    if (c->kernel != RT__KERNEL_GENERAL || vec < 1)
        return false;
    rt__kernel_args a;
    memset(&a, 0, sizeof a);
    rt__cuda_pack_piece(piece, c, vec, false, first, last, &a);
    if (!rt__cuda_lean_walk_fits(c, &a))
        return false;
    rt__walk_args w;
    rt__cuda_pack_lean(&a, &w);
    if ((int64_t)w.count * c->num_threads * vec != piece->inputs_per_output)
        fail_msg("LEAN walk: %u steps x %d threads x %d a vector, not %lld inputs, of %s", w.count,
                 c->num_threads, vec, (long long)piece->inputs_per_output, pl->where);
    for (int k = 0; k < 64; k++) {
        const int64_t o = rt_rng_range(pl->rng, 0, piece->num_outputs - 1);
        const int64_t tx = rt_rng_range(pl->rng, 0, c->block[0] - 1);
        const int64_t ty = rt_rng_range(pl->rng, 0, c->block[1] - 1);
        const int64_t step = rt_rng_range(pl->rng, 0, (int64_t)w.count - 1);
        const int64_t r =
            (tx * c->input_mult[0] + ty * c->input_mult[1] + step * c->step_input) * vec;
        const int64_t d0 = o % w.div0.divisor, d1 = o / w.div0.divisor;
        const int64_t in = d0 * w.in_strides[0] + d1 * w.in_strides[1] + tx * w.lin[0] +
                           ty * w.lin[1] + step * w.step;
        const int64_t out = d0 * w.out_strides[0] + d1 * w.out_strides[1];
        if (r + vec > piece->inputs_per_output || r % piece->shape[0] + vec > piece->shape[0] ||
            in != iter_offset(piece, RT__ITER_IN, r, o) ||
            out != iter_offset(piece, RT__ITER_OUT, 0, o))
            fail_msg("LEAN walk: output %lld, thread (%lld, %lld), step %lld: input %lld, output "
                     "%lld bytes; the iter says %lld, %lld (reduced index %lld), of %s",
                     (long long)o, (long long)tx, (long long)ty, (long long)step, (long long)in,
                     (long long)out, (long long)iter_offset(piece, RT__ITER_IN, r, o),
                     (long long)iter_offset(piece, RT__ITER_OUT, 0, o), (long long)r, pl->where);
    }
    pl->lean++;
    return true;
}

static rt_status plan_piece(void *user, const rt__iter *piece, bool first, bool last) {
    planner *pl = user;
    pl->partial = pl->partial || !first || !last;
    if (++pl->pieces > MAX_PIECES) {
        pl->capped = true;
        return RT_ERR_INTERNAL; /* stops the walk; plan_problem knows why */
    }
    if (piece->num_outputs == 0 || piece->inputs_per_output == 0)
        return RT_OK;
    if (!rt__iter_fits(piece, 0)) {
        char js[1024];
        rt__iter_to_json(piece, js, sizeof js);
        fail_msg("a piece past 32-bit indexing, %s, of %s", js, pl->where);
    }
    if (piece->tracks_index)
        check_index_map(pl, piece);
    const rt_policy policies[] = {RT_POLICY_COMPAT, RT_POLICY_TUNED};
    for (int k = 0; k < 2; k++) {
        rt__launch_config c;
        const rt_status s = rt__config_compute_without(piece, pl->traits, pl->dev, policies[k],
                                                       pl->kinds_off, &c);
        if (s != RT_OK)
            fail_msg("config %d: %s for %s", (int)policies[k], rt_status_name(s), pl->where);
        assert_int_equal(c.policy, policies[k]);
        /* A keyed piece runs only on the general kernel (cuda_exec.c). */
        if (policies[k] == RT_POLICY_COMPAT || rt__iter_index_keyed(piece))
            assert_int_equal(c.kernel, RT__KERNEL_GENERAL);
        const rt_status chk = rt__cuda_check_config(piece, pl->traits, &c);
        if (chk != RT_OK) {
            char cfg[1024];
            rt__config_to_json(&c, cfg, sizeof cfg);
            fail_msg("launch check refuses policy %d's config {%s} for %s (piece %d%s%s)",
                     (int)policies[k], cfg, pl->where, pl->pieces, first ? "" : ", not first",
                     last ? "" : ", not last");
        }
        const int64_t shared = rt__cuda_shared_bytes(&c, pl->traits->acc_size);
        const int64_t staging = rt__cuda_staging_bytes(&c, pl->traits->acc_size);
        const int64_t sems = rt__cuda_semaphores(&c);
        assert_true(shared >= 0 && shared <= pl->dev->shared_mem_per_block);
        assert_true(staging >= 0 && sems >= 0);
        if (c.kernel == RT__KERNEL_GENERAL && !rt__config_global_reduce(&c))
            assert_true(staging == 0 && sems == 0);
        if (policies[k] == RT_POLICY_TUNED && !rt__iter_index_keyed(piece))
            (void)check_lean(pl, piece, &c, first, last);
    }
    return RT_OK;
}

/* The device models: an H200, an H100 SXM, a smaller GPU of A100's
   shape (108 SMs, 40 MiB L2, 2039 GB/s), and one with nothing known
   beyond its SMs and threads. */
static rt__device_props device_model(int k) {
    rt__device_props d = rt__device_props_h200();
    switch (k) {
    case 1:
        d.l2_bytes = 50 * 1024 * 1024;
        d.mem_gbps = 3352;
        break;
    case 2:
        d.num_sms = 108;
        d.l2_bytes = 40 * 1024 * 1024;
        d.mem_gbps = 2039;
        break;
    case 3:
        d.l2_bytes = 0;
        d.regs_per_sm = 0;
        d.mem_gbps = 0;
        break;
    default:
        break;
    }
    return d;
}

/* Plans every piece of pb; returns true when it had more than MAX_PIECES.
   Adds the keyed pieces it checked to *keyed. */
static bool plan_problem(rt_context *cpu, rt_rng *r, const rt_case *pb, char *where, int *keyed,
                         int *lean) {
    rt_reduce_args a;
    rt_case_args(pb, &a);
    rt__problem prob;
    const rt_status valid = rt__problem_init(cpu, &a, &prob);
    if (valid != RT_OK)
        fail_msg("the generator made an invalid problem (%s): %s", rt_status_name(valid), where);
    rt__iter it;
    rt__iter_build(&prob, true, &it);
    assert_int_equal(it.num_outputs, prob.out_count);

    rt__op_traits traits =
        rt__op_traits_for(prob.op, prob.in.dtype, prob.out.dtype, prob.has_indices, prob.p);
    /* The registers the runtime reports for the general kernels, or none
       (a failed query): TUNED's register-aware grid takes either. */
    static const int regs[] = {0, 32, 40, 56, 64, 72, 96, 128};
    const int nregs = (int)(sizeof regs / sizeof regs[0]);
    for (int k = 0; k < 3; k++)
        traits.kernel_regs[k] = rt_rng_chance(r, 0.3) ? 0 : regs[rt_rng_range(r, 0, nregs - 1)];
    /* The kinds and rules the tests and benchmarks turn off. */
    static const unsigned offs[] = {0,
                                    RT__KIND_BIT(RT__KERNEL_ROWS),
                                    RT__KIND_BIT(RT__KERNEL_TINY) |
                                        RT__KIND_BIT(RT__KERNEL_STREAM),
                                    RT__RULE_OFF_OUTER_TILES | RT__RULE_OFF_OUTER_WAVE,
                                    RT__RULE_OFF_ROW_EXACT | RT__RULE_OFF_ROW_TWO_PASS,
                                    RT__RULE_OFF_CHUNKED | RT__RULE_OFF_UNCAPPED_SPLIT};
    const int noffs = (int)(sizeof offs / sizeof offs[0]);
    const rt__device_props dev = device_model((int)rt_rng_range(r, 0, 3));

    planner pl = {&traits, &dev, 0, false, 0, false, where, r, 0, 0};
    pl.kinds_off = rt_rng_chance(r, 0.6) ? 0 : offs[rt_rng_range(r, 1, noffs - 1)];
    /* The executor's limit, or a small one that cuts small tensors too
       (the GPU split tests' rt__context_set_split_limit). */
    int64_t limit = rt_rng_chance(r, 0.7) ? 0 : rt_rng_range(r, 1 << 10, 1 << 22);
    /* At most ~64 pieces from the small limits: a piece halves the largest
       span, whose bytes are at most 8 a gap-free element times 4. */
    const int64_t reach = it.inputs_per_output * it.num_outputs * 32;
    while (limit > 0 && reach / limit > 64)
        limit *= 2;
    limit = limit < INT32_MAX ? limit : 0; /* 0: INT32_MAX, the executor's */
    rt_status s = rt__iter_for_each_piece(&it, limit, plan_piece, &pl);
    if (s == RT_OK && pl.partial) {
        /* cuda_exec.c run_split: the ACC operand takes part in the split. */
        rt__iter with_acc = it;
        assert_true(rt__iter_add_acc(&with_acc, (char *)BASE_ACC, traits.acc_size) > 0);
        pl.pieces = 0;
        s = rt__iter_for_each_piece(&with_acc, limit, plan_piece, &pl);
    }
    if (s != RT_OK && !pl.capped)
        fail_msg("the split failed (%s): %s", rt_status_name(s), where);
    *keyed += pl.keyed;
    *lean += pl.lean;
    return pl.capped;
}

static int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? atoi(v) : fallback;
}

/* Reserves the fake tensors' slots (g_slots) and makes the CPU context
   that validates the problems; close_slots undoes both. */
static rt_context *open_slots(void) {
    void *slots = mmap(NULL, 4 * SLOT_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (slots == MAP_FAILED)
        fail_msg("no %llu bytes of address space to reserve", (unsigned long long)(4 * SLOT_BYTES));
    g_slots = (uintptr_t)slots;
    rt_context *cpu = NULL;
    assert_int_equal(rt_context_create(&cpu, RT_DEVICE_CPU, 0), RT_OK);
    return cpu;
}

static void close_slots(rt_context *cpu) {
    rt_context_destroy(cpu);
    munmap((void *)g_slots, 4 * SLOT_BYTES);
    g_slots = 0;
}

static void test_random_plans_pass_the_launch_check(void **state) {
    (void)state;
    rt_context *cpu = open_slots();
    const int cases = env_int("RT_TEST_CASES", 6000);
    const bool trace = getenv("RT_TEST_TRACE") != NULL; /* each problem, before it is planned */
    int split = 0, capped = 0, keyed = 0, lean = 0;
    for (int i = 0; i < cases; i++) {
        rt_rng r;
        rt_rng_seed(&r, 0x9a11c0ffeeull + (uint64_t)i);
        rt_case pb;
        make_problem(&r, (uint64_t)i, &pb);
        char where[1024];
        rt_case_describe(&pb, where, sizeof where);
        if (trace)
            fprintf(stderr, "%s\n", where);
        capped += plan_problem(cpu, &r, &pb, where, &keyed, &lean);
        int64_t n = 1;
        for (int d = 0; d < pb.in.ndim; d++)
            n *= pb.in.shape[d];
        split += n > INT32_MAX;
    }
    print_message("[ plans    ] %d random problems, %d of them over 2^31 elements, %d cut "
                  "into more than %d pieces (planned up to there); %d keyed pieces' index "
                  "maps checked; %d plans of the LEAN walk kernel's class\n",
                  cases, split, capped, MAX_PIECES, keyed, lean);
    close_slots(cpu);
}

/* Every index-tracking family has a keyed launch for every dtype, which
   run_reduce (cuda_exec.c) needs for a keyed piece; no other family has
   one, nor does a family or dtype out of range. */
static void test_keyed_lookup(void **state) {
    (void)state;
    for (int f = -1; f <= RT__FAM_COUNT; f++)
        for (int dt = -1; dt <= RT_DTYPE_COUNT; dt++) {
            const bool in_range = f >= 0 && f < RT__FAM_COUNT && dt >= 0 && dt < RT_DTYPE_COUNT;
            const bool want = in_range && (f == RT__FAM_ARGMIN || f == RT__FAM_ARGMAX);
            if ((rt__keyed_lookup((rt__family)f, (rt_dtype)dt) != NULL) != want)
                fail_msg("rt__keyed_lookup(family %d, dtype %d): want %s", f, dt,
                         want ? "a launch" : "NULL");
        }
}

/* d024's family by hand ([S, K1, 16, K3, 128] over (0, 2, 4); the
   suite's is [32,32,16,32,128]), planned by TUNED on the H100 model (and
   the H200's): which are of the LEAN walk kernel's class (check_lean,
   which also checks their addresses).
   The kept dims' order in memory, keepdim and the output's strides move
   only the kept digits' strides; a count that is no whole number of
   windows (24 steps) leaves the class; f64 plans fit it too, but only
   f32 sums and means have the kernel (rt__walk_lookup). */
static void test_lean_plans(void **state) {
    (void)state;
    static const struct {
        const char *name;
        rt_op op;
        rt_dtype dt;
        int64_t steps;   /* extent of dim 0 */
        int64_t kept[2]; /* extents of dims 1 and 3 */
        bool swap;       /* kept dims 1 and 3 swapped in memory */
        bool keepdim;
        int model;       /* device_model */
        int sms;         /* its SMs, 0: the model's */
        bool fits;
    } cases[] = {
        {"d024", RT_OP_SUM, RT_F32, 32, {32, 32}, false, false, 1, 0, true},
        {"d024 on the H200 model", RT_OP_SUM, RT_F32, 32, {32, 32}, false, false, 0, 0, true},
        {"d024 mean, keepdim", RT_OP_MEAN, RT_F32, 32, {32, 32}, false, true, 1, 0, true},
        {"d024, kept dims swapped in memory", RT_OP_SUM, RT_F32, 32, {32, 32}, true, false, 1, 0,
         true},
        {"64 steps", RT_OP_SUM, RT_F32, 64, {32, 32}, false, false, 1, 0, true},
        {"24 steps", RT_OP_SUM, RT_F32, 24, {32, 32}, false, false, 1, 0, false},
        {"f64", RT_OP_SUM, RT_F64, 32, {32, 32}, false, false, 1, 0, true},
        /* test_reduce_cuda's test_lean_walk shapes, planned as there on 16
           SMs, on both models: one block an output, no split. */
        {"[16,8,16,8,128], 16 SMs, H100", RT_OP_SUM, RT_F32, 16, {8, 8}, false, false, 1, 16, true},
        {"[16,8,16,8,128], 16 SMs, H200", RT_OP_SUM, RT_F32, 16, {8, 8}, false, false, 0, 16, true},
        {"[32,16,16,8,128] mean, 16 SMs, H100", RT_OP_MEAN, RT_F32, 32, {16, 8}, false, false, 1,
         16, true},
        {"[32,16,16,8,128] mean, 16 SMs, H200", RT_OP_MEAN, RT_F32, 32, {16, 8}, false, false, 0,
         16, true},
    };
    rt_context *cpu = open_slots();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rt__device_props dev = device_model(cases[i].model);
        if (cases[i].sms > 0)
            dev.num_sms = cases[i].sms;
        rt_rng r;
        rt_rng_seed(&r, 0x1ea11ull + i);
        rt_case pb;
        memset(&pb, 0, sizeof pb);
        pb.op = cases[i].op;
        pb.keepdim = cases[i].keepdim;
        rt_tensor *in = &pb.in;
        in->dtype = cases[i].dt;
        in->ndim = 5;
        const int64_t shape[5] = {cases[i].steps, cases[i].kept[0], 16, cases[i].kept[1], 128};
        memcpy(in->shape, shape, sizeof shape);
        /* Row-major, or with dims 1 and 3 trading places in memory. */
        int order[5] = {0, 1, 2, 3, 4};
        if (cases[i].swap) {
            order[1] = 3;
            order[3] = 1;
        }
        int64_t st = 1;
        for (int k = 4; k >= 0; k--) {
            in->strides[order[k]] = st;
            st *= shape[order[k]];
        }
        in->data = (void *)BASE_IN;
        pb.ndims = 3;
        pb.dims[0] = 0;
        pb.dims[1] = 2;
        pb.dims[2] = 4;
        int out_ndim;
        int64_t out_shape[RT_MAX_DIMS];
        assert_int_equal(rt_reduce_shape(in, pb.dims, pb.ndims, pb.keepdim, &out_ndim, out_shape),
                         RT_OK);
        make_output(&r, cases[i].dt, out_ndim, out_shape, BASE_OUT, &pb.out);
        rt_reduce_args a;
        rt_case_args(&pb, &a);
        rt__problem prob;
        assert_int_equal(rt__problem_init(cpu, &a, &prob), RT_OK);
        rt__iter it;
        rt__iter_build(&prob, true, &it);
        rt__op_traits traits =
            rt__op_traits_for(prob.op, prob.in.dtype, prob.out.dtype, false, prob.p);
        rt__launch_config c;
        assert_int_equal(rt__config_compute(&it, &traits, &dev, RT_POLICY_TUNED, &c), RT_OK);
        planner pl = {&traits, &dev, 0, false, 0, false, (char *)cases[i].name, &r, 0, 0};
        if (check_lean(&pl, &it, &c, true, true) != cases[i].fits)
            fail_msg("%s: %s the LEAN walk kernel's class", cases[i].name,
                     cases[i].fits ? "not of" : "of");
        /* A split piece never is. */
        assert_false(check_lean(&pl, &it, &c, false, true));
    }
    assert_non_null(rt__walk_lookup(RT__FAM_SUM, RT_F32));
    assert_null(rt__walk_lookup(RT__FAM_SUM, RT_F64));
    assert_null(rt__walk_lookup(RT__FAM_SUM, RT_BF16));
    assert_null(rt__walk_lookup(RT__FAM_MAX, RT_F32));
    close_slots(cpu);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_plans_pass_the_launch_check),
        cmocka_unit_test(test_keyed_lookup),
        cmocka_unit_test(test_lean_plans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
