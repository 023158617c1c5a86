/*
 * rt__cuda_execute: a validated problem -> its iteration space (src/iter)
 * -> pieces that fit 32-bit indexing -> per piece a launch configuration
 * (src/config) and exactly one kernel launch on the context's stream.
 *
 * Pieces of a split reduced dim carry their accumulator state through the
 * RT__ITER_ACC operand (a region of the workspace): a piece with
 * first == false merges the state left by the pieces before it, a piece
 * with last == false leaves its state there instead of writing the output.
 *
 * Steady state: the workspace already fits, so a call only computes
 * configurations and launches; no allocation, memset or host wait.
 */
#include <math.h>
#include <string.h>

#include "cuda_args.h"
#include "cuda_backend.h"

typedef struct plan {
    rt_context *ctx;
    const rt__problem *pb;
    const rt__kernel_entry *entry;
    rt__launch_fn rows; /* the entry's RT__KERNEL_ROWS launch */
    rt__tiny_launch_fn tiny; /* and its RT__KERNEL_TINY one */
    rt__keyed_launch_fn keyed; /* its general kernel over keyed pieces, or NULL */
    rt__launch_fn walk;  /* its LEAN walk kernel (reduce_walk.cu), or NULL */
    rt__op_traits traits;
    rt_policy policy;
    rt__kernel_args proto; /* the op's fields; the rest is per piece */
    cudaStream_t stream;
    bool launch;           /* false: only measure the pieces' needs */
    bool record;           /* the call's one piece: the plan memo records its launch */
    bool partial;          /* some piece has first or last false */
    int64_t sems, staging; /* the largest need over the pieces seen */
} plan;

static rt__family family_of(const rt__problem *pb) {
    switch (pb->op) {
    case RT_OP_SUM:
    case RT_OP_MEAN:
        return RT__FAM_SUM;
    case RT_OP_PROD:
        return RT__FAM_PROD;
    case RT_OP_MIN:
        return pb->has_indices ? RT__FAM_ARGMIN : RT__FAM_MIN;
    case RT_OP_MAX:
        return pb->has_indices ? RT__FAM_ARGMAX : RT__FAM_MAX;
    case RT_OP_ARGMIN:
        return RT__FAM_ARGMIN;
    case RT_OP_ARGMAX:
        return RT__FAM_ARGMAX;
    case RT_OP_VAR:
    case RT_OP_STD:
        return RT__FAM_WELFORD;
    case RT_OP_NORM:
        if (isinf(pb->p))
            return RT__FAM_NORMEXT;
        return pb->p == 2.0 ? RT__FAM_NORM2 : RT__FAM_NORM;
    case RT_OP_ANY:
    case RT_OP_ALL:
        return RT__FAM_ANY;
    default:
        return RT__FAM_COUNT;
    }
}

/* The run-time op parameters: which op of the family, and its numbers. */
static void op_fields(const rt__problem *pb, rt__kernel_args *a) {
    a->out_dtype = (int)pb->out.dtype;
    a->op_mode = RT__MODE_PLAIN;
    a->param0 = 0.0;
    a->param1 = 0.0;
    switch (pb->op) {
    case RT_OP_MEAN:
        /* N of the whole reduction, not of one piece. */
        a->op_mode = RT__MODE_MEAN;
        a->param0 = 1.0 / (double)pb->reduce_count;
        break;
    case RT_OP_MIN:
    case RT_OP_MAX:
        if (pb->has_indices)
            a->op_mode = RT__MODE_VALUES;
        break;
    case RT_OP_VAR:
        a->param0 = pb->correction;
        break;
    case RT_OP_STD:
        a->op_mode = RT__MODE_STD;
        a->param0 = pb->correction;
        break;
    case RT_OP_NORM:
        if (isinf(pb->p))
            a->op_mode = pb->p < 0 ? RT__MODE_NEG : RT__MODE_PLAIN;
        else if (pb->p == 0.0)
            a->op_mode = RT__NORM_P0;
        else if (pb->p == 1.0)
            a->op_mode = RT__NORM_P1;
        else if (pb->p == 2.0)
            a->op_mode = RT__NORM_P2;
        else
            a->op_mode = RT__NORM_PGEN;
        a->param0 = pb->p;
        a->param1 = 1.0 / pb->p;
        break;
    case RT_OP_ALL:
        a->op_mode = RT__MODE_ALL;
        break;
    default:
        break;
    }
}

/* The result of reducing no elements (DESIGN.md section 3). */
static double empty_value(const rt__problem *pb) {
    switch (pb->op) {
    case RT_OP_PROD:
    case RT_OP_ALL:
        return 1.0;
    case RT_OP_MEAN:
    case RT_OP_VAR:
    case RT_OP_STD:
        return NAN;
    case RT_OP_NORM:
        return pb->p < 0 ? INFINITY : 0.0;
    default:
        return 0.0; /* sum, any */
    }
}

/* ---- one piece ------------------------------------------------------------ */

typedef struct piece_needs {
    rt__launch_config cfg;
    int64_t shared, staging, sems;
} piece_needs;

static rt_status piece_config(const plan *p, const rt__iter *piece, piece_needs *n) {
    const rt__device_props *props = &p->ctx->cuda->props;
    RT_FORWARD_IF_ERROR(rt__config_compute_without(piece, &p->traits, props, p->policy,
                                                   p->ctx->kinds_off, &n->cfg));
    RT_FORWARD_IF_ERROR(rt__cuda_check_config(piece, &p->traits, &n->cfg));
    n->shared = rt__cuda_shared_bytes(&n->cfg, p->entry->acc_size);
    n->staging = rt__cuda_staging_bytes(&n->cfg, p->entry->acc_size);
    n->sems = rt__cuda_semaphores(&n->cfg);
    /* The body never needs more than 512 states (16 KiB for the largest):
       far below the 48 KiB every device allows without opt-in. */
    RT_RETURN_IF(n->shared > props->shared_mem_per_block, RT_ERR_INTERNAL);
    return RT_OK;
}

/* The TINY and STREAM kernels' launch: a small argument block, no offset
   calculators to pack; STREAM's blocks also take their staging states and
   a counter from the workspace. */
static rt_status tiny_launch(const plan *p, const rt__iter *piece, bool first, bool last,
                             const piece_needs *n) {
    rt__tiny_args a;
    rt__cuda_pack_tiny(piece, &p->proto, first, last, &a);
    RT_RETURN_IF((!first || !last) && a.acc == NULL, RT_ERR_INTERNAL);
    RT_RETURN_IF(p->tiny == NULL, RT_ERR_INTERNAL);
    if (n->cfg.kernel == RT__KERNEL_STREAM) {
        a.chunk = n->cfg.input_mult[2] > 0 ? (uint32_t)n->cfg.input_mult[2] : a.num_inputs;
        a.fold_last = n->cfg.stream_fold_last ? 1 : 0;
        a.fold_grid = n->cfg.stream_dependent ? (uint32_t)n->cfg.grid[0] : 0;
        a.slot_group = (uint32_t)n->cfg.stream_slot_group;
        a.slot_delay = (uint32_t)n->cfg.stream_slot_delay;
        a.staging = n->staging > 0 ? rt__cuda_workspace_staging(p->ctx) : NULL;
        a.semaphores = n->sems > 0 ? rt__cuda_workspace_semaphores(p->ctx) : NULL;
    }
    const rt_status s = rt__cuda_status(p->tiny(&a, &n->cfg, p->stream, p->ctx->device_index));
    if (s == RT_OK && p->record)
        rt__cuda_memo_record(p->ctx, p->pb, &n->cfg, &a, p->tiny, NULL, NULL, 0);
    return s;
}

/* The general kernel's arguments for a piece under config c: the op's
   fields, the piece's offsets, the config, the walk (none with
   RT__RULE_OFF_WALK) and the piece's place among the pieces; the
   workspace's pointers are the launch's to add. */
static void pack_general(const plan *p, const rt__iter *piece, const rt__launch_config *c,
                         bool first, bool last, rt__kernel_args *a) {
    *a = p->proto;
    rt__cuda_pack_piece(piece, c, p->entry->input_vec, (p->ctx->kinds_off & RT__RULE_OFF_WALK) != 0,
                        first, last, a);
}

/* Whether the general kernel's plan (config c, packed arguments a) goes
   to the LEAN walk kernel instead (reduce_walk.cu, launch.h says why):
   the op has one, the plan is of its class, the rule is on, and the grid
   is at least 4 waves of its one block a SM. d024 ([32,32,16,32,128] over
   (0, 2, 4), 1024 blocks) is the suite's one case of the class: 1.3-1.45%
   faster than the general kernel on H100s (bench/NOTES.md v1.54), 1.7% on
   an H200 (v1.55), so no H100-class gate. Fewer blocks are unmeasured: a
   wave of one block a SM leaves more of a tail idle than the general
   kernel's four. */
static bool lean_walk(const plan *p, const rt__launch_config *c, const rt__kernel_args *a) {
    return p->walk != NULL && !(p->ctx->kinds_off & RT__RULE_OFF_LEAN_WALK) &&
           c->grid[0] >= 4 * (int64_t)p->ctx->cuda->props.num_sms &&
           rt__cuda_lean_walk_fits(c, a);
}

static rt_status piece_launch(const plan *p, const rt__iter *piece, bool first, bool last,
                              const piece_needs *n) {
    const struct rt__cuda_state *st = p->ctx->cuda;
    RT_RETURN_IF(n->sems > st->sem_capacity || n->staging > st->staging_capacity,
                 RT_ERR_INTERNAL);
    if (rt__config_tiny_args(&n->cfg))
        return tiny_launch(p, piece, first, last, n);
    rt__kernel_args a;
    pack_general(p, piece, &n->cfg, first, last, &a);
    RT_RETURN_IF((!first || !last) && a.acc == NULL, RT_ERR_INTERNAL);
    a.staging = rt__cuda_workspace_staging(p->ctx);
    a.semaphores = rt__cuda_workspace_semaphores(p->ctx);
    /* Exact rows store straight to OUT (reduce_rows.cuh row_store, exact_row). */
    a.rows_exact = a.rows_exact && first && last;
    if (rt__iter_index_keyed(piece)) {
        /* Reduced dims in memory order, not logical order: the general
           kernel with the index map (no other kernel takes two reduced
           dims, which a keyed piece has). Not memoized: the memo replays
           one argument block. */
        RT_RETURN_IF(n->cfg.kernel != RT__KERNEL_GENERAL || p->keyed == NULL, RT_ERR_INTERNAL);
        rt__index_map m;
        rt__cuda_pack_index_map(piece, &m);
        return rt__cuda_status(p->keyed(&a, &m, &n->cfg, (size_t)n->shared, p->stream,
                                        p->ctx->device_index));
    }
    rt__launch_fn launch = n->cfg.kernel == RT__KERNEL_ROWS ? p->rows : p->entry->launch;
    if (lean_walk(p, &n->cfg, &a))
        launch = p->walk;
    RT_RETURN_IF(launch == NULL, RT_ERR_INTERNAL);
    const rt_status s = rt__cuda_status(launch(&a, &n->cfg, (size_t)n->shared, p->stream,
                                               p->ctx->device_index));
    if (s == RT_OK && p->record)
        rt__cuda_memo_record(p->ctx, p->pb, &n->cfg, NULL, NULL, &a, launch, (size_t)n->shared);
    return s;
}

static rt_status visit_piece(void *user, const rt__iter *piece, bool first, bool last) {
    plan *p = user;
    if (piece->num_outputs == 0 || piece->inputs_per_output == 0)
        return RT_OK;
    piece_needs n;
    RT_FORWARD_IF_ERROR(piece_config(p, piece, &n));
    if (p->launch)
        return piece_launch(p, piece, first, last, &n);
    p->partial = p->partial || !first || !last;
    p->sems = n.sems > p->sems ? n.sems : p->sems;
    p->staging = n.staging > p->staging ? n.staging : p->staging;
    return RT_OK;
}

/* ---- whole problems ----------------------------------------------------------- */

static rt_status run_split(plan *p, rt__iter *it) {
    const int64_t limit = p->ctx->split_limit;
    /* Measure first: the workspace must not move between pieces, since the
       ACC states of one piece are read by the next. */
    RT_FORWARD_IF_ERROR(rt__iter_for_each_piece(it, limit, visit_piece, p));
    int64_t acc_bytes = 0;
    if (p->partial) {
        /* ACC takes part in the split (its strides count), so measure again
           with it; its base does not change how pieces are cut. */
        rt__iter with_acc = *it;
        acc_bytes = rt__iter_add_acc(&with_acc, NULL, p->entry->out_size);
        p->sems = p->staging = 0;
        RT_FORWARD_IF_ERROR(rt__iter_for_each_piece(&with_acc, limit, visit_piece, p));
    }
    RT_FORWARD_IF_ERROR(rt__cuda_workspace_reserve(p->ctx, p->sems, p->staging, acc_bytes));
    if (acc_bytes > 0)
        (void)rt__iter_add_acc(it, rt__cuda_workspace_acc(p->ctx), p->entry->out_size);
    p->launch = true;
    return rt__iter_for_each_piece(it, limit, visit_piece, p);
}

/* pb's (family, dtype) kernels and the traits they are planned with. The
   general kernels' registers are asked of the runtime once per context and
   (family, dtype), then cached; a failed query leaves them unknown (0),
   which only costs TUNED its register-aware grid. */
static rt_status op_kernels(rt_context *ctx, const rt__problem *pb,
                            const rt__kernel_entry **entry_out, rt__launch_fn *rows,
                            rt__tiny_launch_fn *tiny, rt__op_traits *traits) {
    const rt__family fam = family_of(pb);
    const rt__kernel_entry *entry = rt__kernel_lookup(fam, pb->in.dtype);
    RT_RETURN_IF(entry == NULL, RT_ERR_UNSUPPORTED);
    *entry_out = entry;
    *rows = rt__rows_lookup(fam, pb->in.dtype);
    *tiny = rt__tiny_lookup(fam, pb->in.dtype);
    *traits = rt__op_traits_for(pb->op, pb->in.dtype, pb->out.dtype, pb->has_indices, pb->p);
    int16_t *regs = ctx->cuda->kernel_regs[fam][pb->in.dtype];
    int16_t *threads = ctx->cuda->kernel_threads[fam][pb->in.dtype];
    if (regs[0] == 0) {
        int r[3] = {0, 0, 0}, t[3] = {0, 0, 0};
        const bool ok = rt__cuda_status(entry->limits(r, t)) == RT_OK;
        for (int k = 0; k < 3; k++) {
            regs[k] = ok && r[k] > 0 && r[k] < INT16_MAX ? (int16_t)r[k] : -1;
            threads[k] = ok && t[k] > 0 && t[k] < INT16_MAX ? (int16_t)t[k] : -1;
        }
    }
    for (int k = 0; k < 3; k++) {
        traits->kernel_regs[k] = regs[k] > 0 ? regs[k] : 0;
        traits->kernel_threads[k] = threads[k] > 0 ? threads[k] : 0;
    }
    return RT_OK;
}

rt_status rt__cuda_walk(const rt__problem *pb, const rt__iter *it, const rt__launch_config *c,
                        int32_t walk[5]) {
    const rt__kernel_entry *entry = rt__kernel_lookup(family_of(pb), pb->in.dtype);
    RT_RETURN_IF(entry == NULL, RT_ERR_UNSUPPORTED);
    rt__kernel_args a;
    rt__cuda_pack_walk(it, c, entry->input_vec, &a);
    walk[0] = a.walk;
    walk[1] = a.walk_step;
    walk[2] = (int32_t)a.walk_digit;
    walk[3] = a.walk_carry;
    walk[4] = (int32_t)a.walk_count;
    return RT_OK;
}

bool rt__cuda_lean_walk(rt_context *ctx, const rt__problem *pb, const rt__iter *it,
                        const rt__launch_config *c) {
    const rt__kernel_entry *entry = rt__kernel_lookup(family_of(pb), pb->in.dtype);
    if (entry == NULL || ctx == NULL || ctx->cuda == NULL)
        return false;
    plan p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.entry = entry;
    p.walk = rt__walk_lookup(family_of(pb), pb->in.dtype);
    /* As piece_launch packs a piece that is the call's only one. */
    rt__kernel_args a;
    pack_general(&p, it, c, true, true, &a);
    return lean_walk(&p, c, &a);
}

rt_status rt__cuda_op_traits(rt_context *ctx, const rt__problem *pb, rt__op_traits *traits) {
    const rt__kernel_entry *entry;
    rt__launch_fn rows;
    rt__tiny_launch_fn tiny;
    return op_kernels(ctx, pb, &entry, &rows, &tiny, traits);
}

static rt_status run_reduce(rt_context *ctx, const rt__problem *pb, rt__iter *it) {
    plan p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.pb = pb;
    RT_FORWARD_IF_ERROR(op_kernels(ctx, pb, &p.entry, &p.rows, &p.tiny, &p.traits));
    p.keyed = rt__keyed_lookup(family_of(pb), pb->in.dtype);
    p.walk = rt__walk_lookup(family_of(pb), pb->in.dtype);
    p.policy = pb->policy;
    p.stream = (cudaStream_t)ctx->stream;
    op_fields(pb, &p.proto);

    if (!rt__iter_fits(it, ctx->split_limit))
        return run_split(&p, it);
    /* One piece, the common case: one configuration, one launch. */
    piece_needs n;
    RT_FORWARD_IF_ERROR(piece_config(&p, it, &n));
    RT_FORWARD_IF_ERROR(rt__cuda_workspace_reserve(ctx, n.sems, n.staging, 0));
    p.record = true;
    return piece_launch(&p, it, true, true, &n);
}

typedef struct fill_job {
    cudaStream_t stream;
    rt__kernel_args proto;
    double value;
} fill_job;

static rt_status visit_fill(void *user, const rt__iter *piece, bool first, bool last) {
    (void)first;
    (void)last;
    const fill_job *f = user;
    if (piece->num_outputs == 0)
        return RT_OK;
    rt__kernel_args a = f->proto;
    rt__cuda_pack_iter(piece, &a);
    return rt__cuda_status(rt__launch_fill(&a, f->value, f->stream));
}

static rt_status run_fill(rt_context *ctx, const rt__problem *pb, const rt__iter *it) {
    fill_job f;
    memset(&f, 0, sizeof f);
    f.stream = (cudaStream_t)ctx->stream;
    f.proto.out_dtype = (int)pb->out.dtype;
    f.value = empty_value(pb);
    return rt__iter_for_each_piece(it, ctx->split_limit, visit_fill, &f);
}

rt_status rt__cuda_execute(rt_context *ctx, const rt__problem *pb) {
    RT_RETURN_IF(ctx == NULL || pb == NULL || ctx->cuda == NULL, RT_ERR_NULL_POINTER);
    ctx->cuda->pending_ok = false; /* until this call's one launch is made */
    const bool extremum = pb->op == RT_OP_MIN || pb->op == RT_OP_MAX ||
                          pb->op == RT_OP_ARGMIN || pb->op == RT_OP_ARGMAX;
    RT_RETURN_IF(pb->reduce_count == 0 && extremum, RT_ERR_EMPTY_REDUCTION);
    if (pb->out_count == 0)
        return RT_OK;

    rt__iter it;
    rt__iter_build(pb, true, &it);
    RT_RETURN_IF(it.num_outputs != pb->out_count, RT_ERR_INTERNAL);

    int prev = 0;
    RT_FORWARD_IF_ERROR(rt__cuda_device_enter(ctx, &prev));
    rt_status s = pb->reduce_count == 0 ? run_fill(ctx, pb, &it) : run_reduce(ctx, pb, &it);
    rt__cuda_device_restore(ctx, prev);
    return s;
}
