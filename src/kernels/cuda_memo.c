/*
 * The plan memo. A CUDA context remembers the launches of its last
 * RT__MEMO_ENTRIES calls that ran as exactly one kernel (one piece; not a
 * fill, not a split), keyed by everything their plans depend on but the
 * data pointers: the op, dims, keepdim, correction, p and policy, every
 * tensor's dtype, shape and strides and its data address modulo
 * RT__MEMO_ALIGN, and the context's policy and test hooks. A call that
 * matches an entry skips rt__problem_init's checks of its layout, the
 * iteration space, the launch configuration and the packing of the
 * kernel's arguments. Its data pointers still get every check that looks
 * at them (rt__problem_check_data: overlap, NULL, where the memory lives),
 * as on the whole path, and the entry's launch runs on them. A check that
 * fails sends the call down the whole path, which reports the same error
 * with the outputs untouched; so does an entry whose workspace has been
 * reallocated since.
 *
 * Why: a tiny call is bound by the host (bench/NOTES.md v1.35). On an H100
 * host, host_bench's stages between launches: validation 250-260 ns (two
 * pointer checks ~100 of it), the iteration space ~50, the configuration
 * ~55, and the executor's packing around its launch; CUB's DeviceReduce
 * call does none of that.
 */
#include <string.h>

#include "cuda_backend.h"

static bool memo_off(const rt_context *ctx) {
    return (ctx->kinds_off & RT__RULE_OFF_MEMO) != 0;
}

static unsigned align_of(const void *p) {
    return (unsigned)((uintptr_t)p % RT__MEMO_ALIGN);
}

static const char *moved(const void *p, ptrdiff_t off) {
    return (const char *)(uintptr_t)((uintptr_t)p + (uintptr_t)off);
}

static ptrdiff_t offset(const void *p, const void *base) {
    return (ptrdiff_t)((uintptr_t)p - (uintptr_t)base);
}

static void tensor_key(rt__memo_tensor *m, const rt_tensor *t) {
    m->dtype = t->dtype;
    m->ndim = t->ndim;
    m->align = align_of(t->data);
    memcpy(m->shape, t->shape, (size_t)t->ndim * sizeof t->shape[0]);
    memcpy(m->strides, t->strides, (size_t)t->ndim * sizeof t->strides[0]);
}

/* m holds a validated tensor (ndim within RT_MAX_DIMS): t's arrays are
   read no further than that. */
static bool tensor_matches(const rt__memo_tensor *m, const rt_tensor *t) {
    if (t->dtype != m->dtype || t->ndim != m->ndim || align_of(t->data) != m->align)
        return false;
    const size_t n = (size_t)m->ndim * sizeof(int64_t);
    return memcmp(t->shape, m->shape, n) == 0 && memcmp(t->strides, m->strides, n) == 0;
}

static bool matches(const rt__cuda_memo *e, const rt_context *ctx, const rt_reduce_args *a) {
    /* (ctx->cuda->props is copied whole, padding too, so bytes compare.) */
    if (!e->valid || a->op != e->op || a->ndims != e->ndims || a->keepdim != e->keepdim ||
        a->policy != e->policy || ctx->policy != e->ctx_policy ||
        ctx->kinds_off != e->kinds_off || ctx->split_limit != e->split_limit ||
        (a->indices != NULL ? 3 : 2) != e->ntensors)
        return false;
    if (e->ndims > 0 &&
        (a->dims == NULL || memcmp(a->dims, e->dims, (size_t)e->ndims * sizeof(int)) != 0))
        return false;
    if (memcmp(&a->correction, &e->correction, sizeof(double)) != 0 ||
        memcmp(&a->p, &e->p, sizeof(double)) != 0)
        return false;
    return tensor_matches(&e->t[0], a->in) && tensor_matches(&e->t[1], a->out) &&
           (e->ntensors < 3 || tensor_matches(&e->t[2], a->indices)) &&
           memcmp(&e->props, &ctx->cuda->props, sizeof e->props) == 0;
}

/* The entry args matches, the last one used looked at first; NULL if none. */
static rt__cuda_memo *find(struct rt__cuda_state *st, const rt_context *ctx,
                           const rt_reduce_args *args) {
    for (int k = 0; k < RT__MEMO_ENTRIES; k++) {
        const int i = (st->memo_last + k) % RT__MEMO_ENTRIES;
        if (matches(&st->memo[i], ctx, args)) {
            st->memo_last = i;
            return &st->memo[i];
        }
    }
    return NULL;
}

bool rt__cuda_memo_replay(rt_context *ctx, const rt_reduce_args *args, rt_status *status) {
    if (ctx == NULL || ctx->cuda == NULL || args == NULL || args->in == NULL ||
        args->out == NULL || memo_off(ctx))
        return false;
    struct rt__cuda_state *st = ctx->cuda;
    rt__cuda_memo *e = find(st, ctx, args);
    if (e == NULL)
        return false;
    rt__cuda_launch *l = &e->launch;
    if (l->workspace != st->workspace || l->alloc_count != st->alloc_count ||
        rt__problem_check_data(ctx, args) != RT_OK)
        return false;
    int prev = 0;
    if (rt__cuda_device_enter(ctx, &prev) != RT_OK)
        return false;
    const char *in = moved(args->in->data, l->in_off);
    char *out = (char *)moved(args->out->data, l->out_off);
    char *idx = args->indices != NULL ? (char *)moved(args->indices->data, l->idx_off) : NULL;
    const cudaStream_t stream = (cudaStream_t)ctx->stream;
    cudaError_t err;
    if (rt__config_tiny_args(&l->cfg)) {
        l->targs.in = in;
        l->targs.out = out;
        l->targs.idx = idx;
        err = l->tiny_launch(&l->targs, &l->cfg, stream, ctx->device_index);
    } else {
        l->kargs.in = in;
        l->kargs.out = out;
        l->kargs.idx = idx;
        err = l->launch(&l->kargs, &l->cfg, l->shared_bytes, stream, ctx->device_index);
    }
    rt__cuda_device_restore(ctx, prev);
    *status = rt__cuda_status(err);
    if (*status == RT_OK)
        st->memo_hits++;
    else
        e->valid = false;
    return true;
}

void rt__cuda_memo_record(rt_context *ctx, const rt__problem *pb, const rt__launch_config *cfg,
                          const rt__tiny_args *targs, rt__tiny_launch_fn tiny_launch,
                          const rt__kernel_args *kargs, rt__launch_fn launch,
                          size_t shared_bytes) {
    struct rt__cuda_state *st = ctx->cuda;
    if (memo_off(ctx))
        return;
    rt__cuda_launch *l = &st->pending;
    const char *in, *out, *idx;
    if (targs != NULL) {
        l->targs = *targs;
        l->tiny_launch = tiny_launch;
        in = targs->in;
        out = targs->out;
        idx = targs->idx;
    } else {
        l->kargs = *kargs;
        l->launch = launch;
        in = kargs->in;
        out = kargs->out;
        idx = kargs->idx;
    }
    l->cfg = *cfg;
    l->shared_bytes = shared_bytes;
    l->in_off = offset(in, pb->in.data);
    l->out_off = offset(out, pb->out.data);
    l->idx_off = pb->has_indices ? offset(idx, pb->idx_full.data) : 0;
    l->workspace = st->workspace;
    l->alloc_count = st->alloc_count;
    st->pending_ok = true;
}

void rt__cuda_memo_keep(rt_context *ctx, const rt_reduce_args *args) {
    struct rt__cuda_state *st = ctx->cuda;
    if (st == NULL || !st->pending_ok || memo_off(ctx) || args->ndims > RT_MAX_DIMS)
        return;
    st->pending_ok = false;
    /* The entry of this key whose workspace moved, else the oldest. */
    rt__cuda_memo *e = find(st, ctx, args);
    if (e == NULL) {
        st->memo_last = st->memo_next;
        e = &st->memo[st->memo_next];
        st->memo_next = (st->memo_next + 1) % RT__MEMO_ENTRIES;
    }
    e->op = args->op;
    e->keepdim = args->keepdim;
    e->ndims = args->ndims;
    if (args->ndims > 0)
        memcpy(e->dims, args->dims, (size_t)args->ndims * sizeof(int));
    memcpy(&e->correction, &args->correction, sizeof(double));
    memcpy(&e->p, &args->p, sizeof(double));
    e->policy = args->policy;
    e->ctx_policy = ctx->policy;
    e->kinds_off = ctx->kinds_off;
    e->split_limit = ctx->split_limit;
    memcpy(&e->props, &st->props, sizeof e->props);
    e->ntensors = args->indices != NULL ? 3 : 2;
    tensor_key(&e->t[0], args->in);
    tensor_key(&e->t[1], args->out);
    if (args->indices != NULL)
        tensor_key(&e->t[2], args->indices);
    e->launch = st->pending;
    e->valid = true;
}

uint64_t rt__cuda_memo_hits(const rt_context *ctx) {
    return ctx != NULL && ctx->cuda != NULL ? ctx->cuda->memo_hits : 0;
}
