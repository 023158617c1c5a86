/*
 * The CPU executor: walks the iteration space of src/iter with the op
 * kernels of cpu_kernel.h, on ctx->num_threads pthreads.
 *
 * Two ways through the outputs:
 *  - inner: each output's reduced elements are strided runs along iter
 *    dim 0 (the iter's fastest reduced dim), folded one run at a time:
 *    contiguous row sums stream through the kernels' lanes;
 *  - vertical: up to RT__CPU_TILE adjacent outputs along the fastest kept
 *    dim are reduced together, row by row: column sums of a row-major
 *    matrix read whole cache lines instead of one element per line.
 * Two ways to share the work, fixed before any thread starts, so a result
 * depends only on the shapes and the thread count, never on timing:
 *  - split outputs (enough of them): each thread owns a contiguous range
 *    and writes its outputs directly; every output is reduced exactly as a
 *    single thread would, so the result does not even depend on the count;
 *  - split the reduced range (few outputs): thread t reduces its slice of
 *    every output into a partial state, and the caller merges the partials
 *    in thread order 0, 1, ... before writing.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_kernel.h"
#include "iter.h"

/* Below this many input elements one thread does everything: starting and
   joining a thread costs tens of microseconds, the time to sum ~2^15
   floats on one core. */
#define MIN_PARALLEL_ELEMS (1 << 15)
/* Each extra thread must get at least this many elements. */
#define MIN_ELEMS_PER_THREAD (1 << 14)
/* Split outputs when every thread gets at least this many. */
#define MIN_OUTPUTS_PER_THREAD 8
/* More threads than this are never useful and keep allocations bounded. */
#define MAX_THREADS 512

typedef struct plan {
    int nd, R; /* iter dims (a dummy reduced dim added when the iter had none) */
    int64_t shape[RT__CPU_MAX_DIMS];
    int64_t s_in[RT__CPU_MAX_DIMS], s_out[RT__CPU_MAX_DIMS], s_idx[RT__CPU_MAX_DIMS];
    const char *in;
    char *out, *idx; /* idx NULL without an indices output */
    rt_dtype od;
    int64_t no, N;      /* outputs, elements per output */
    rt__cpu_rows rows;  /* reduced dims [0, R): the vertical path's rows */
    rt__cpu_rows outer; /* reduced dims [1, R): the inner path's runs */
    bool vertical;
    const rt__cpu_kernel *k;
    rt__cpu_params prm;
    int nwork; /* work items, one per thread */
    bool split_reduce;
    rt__cpu_acc *partial;   /* split_reduce: nwork * no states, item-major */
    unsigned char *scratch; /* vertical: SCRATCH_BYTES per work item */
} plan;

/* Per work item of a vertical plan: a tile of states, then the tile
   function's work area. */
#define SCRATCH_BYTES (sizeof(rt__cpu_acc) * RT__CPU_TILE + RT__CPU_TILE_WORK_BYTES)

/* A position among the outputs: counters of kept dims and byte offsets. */
typedef struct kpos {
    int64_t ctr[RT__CPU_MAX_DIMS];
    int64_t in, out, idx;
} kpos;

int rt__cpu_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Start of part t when `total` is cut into n nearly equal parts. */
static int64_t part(int64_t total, int t, int n)
{
    return total / n * t + (t < total % n ? t : total % n);
}

static void kept_seek(const plan *pl, int64_t o, kpos *p)
{
    p->in = p->out = p->idx = 0;
    for (int d = pl->R; d < pl->nd; d++) {
        int64_t q = o / pl->shape[d];
        p->ctr[d] = o - q * pl->shape[d];
        p->in += p->ctr[d] * pl->s_in[d];
        p->out += p->ctr[d] * pl->s_out[d];
        p->idx += p->ctr[d] * pl->s_idx[d];
        o = q;
    }
}

/* Advances p by m outputs; m must not cross the end of kept dim R. */
static void kept_next(const plan *pl, kpos *p, int64_t m)
{
    for (int d = pl->R; d < pl->nd; d++) {
        p->ctr[d] += m;
        p->in += m * pl->s_in[d];
        p->out += m * pl->s_out[d];
        p->idx += m * pl->s_idx[d];
        if (p->ctr[d] < pl->shape[d])
            return;
        p->in -= pl->shape[d] * pl->s_in[d];
        p->out -= pl->shape[d] * pl->s_out[d];
        p->idx -= pl->shape[d] * pl->s_idx[d];
        p->ctr[d] = 0;
        m = 1;
    }
}

/* Finishes *a and writes it to the output (and index) at byte offsets
   out_off (idx_off) from the operands' bases. */
static void finish_store(const plan *pl, const rt__cpu_acc *a, int64_t out_off, int64_t idx_off)
{
    rt__cpu_result r;
    pl->k->finish(a, &pl->prm, &r);
    rt__cpu_store(&r, pl->out + out_off, pl->od, pl->idx ? pl->idx + idx_off : NULL);
}

/* Folds reduced elements [r0, r1) of the output whose input part starts at
   base into *a, as runs along dim 0. */
static void reduce_runs(const plan *pl, rt__cpu_acc *a, const char *base, int64_t r0, int64_t r1)
{
    int64_t n0 = pl->shape[0];
    int64_t c0 = r0 % n0;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(&pl->outer, r0 / n0, &cur);
    for (int64_t r = r0; r < r1;) {
        int64_t len = n0 - c0 < r1 - r ? n0 - c0 : r1 - r;
        pl->k->run(a, base + cur.off + c0 * pl->s_in[0], len, pl->s_in[0], r, &pl->prm);
        r += len;
        c0 = 0;
        rt__cpu_cursor_next(&pl->outer, &cur);
    }
}

/*
 * Reduces outputs [o0, o1) over reduced elements [r0, r1). With dst NULL
 * the results are finished and stored; otherwise the states go to
 * dst[o - o0].
 */
static void reduce_block(const plan *pl, int64_t o0, int64_t o1, int64_t r0, int64_t r1,
                         rt__cpu_acc *dst, unsigned char *scratch)
{
    kpos p;
    kept_seek(pl, o0, &p);
    if (pl->vertical) {
        rt__cpu_acc *tile = (rt__cpu_acc *)scratch;
        void *work = scratch + sizeof(rt__cpu_acc) * RT__CPU_TILE;
        rt__cpu_rows rows = pl->rows;
        rows.begin = r0;
        rows.end = r1;
        for (int64_t o = o0; o < o1;) {
            int64_t m = pl->shape[pl->R] - p.ctr[pl->R];
            m = m < o1 - o ? m : o1 - o;
            m = m < RT__CPU_TILE ? m : RT__CPU_TILE;
            pl->k->tile(dst ? dst + (o - o0) : tile, m, pl->in + p.in, pl->s_in[pl->R], &rows,
                        &pl->prm, work);
            for (int64_t j = 0; !dst && j < m; j++)
                finish_store(pl, &tile[j], p.out + j * pl->s_out[pl->R],
                             p.idx + j * pl->s_idx[pl->R]);
            o += m;
            kept_next(pl, &p, m);
        }
        return;
    }
    for (int64_t o = o0; o < o1; o++) {
        rt__cpu_acc a;
        pl->k->init(&a);
        reduce_runs(pl, &a, pl->in + p.in, r0, r1);
        if (dst)
            dst[o - o0] = a;
        else
            finish_store(pl, &a, p.out, p.idx);
        kept_next(pl, &p, 1);
    }
}

/* Work item t of the plan. */
static void run_item(const plan *pl, int t)
{
    unsigned char *scratch = pl->scratch ? pl->scratch + SCRATCH_BYTES * (size_t)t : NULL;
    if (pl->split_reduce)
        reduce_block(pl, 0, pl->no, part(pl->N, t, pl->nwork), part(pl->N, t + 1, pl->nwork),
                     pl->partial + (int64_t)t * pl->no, scratch);
    else
        reduce_block(pl, part(pl->no, t, pl->nwork), part(pl->no, t + 1, pl->nwork), 0, pl->N, NULL,
                     scratch);
}

typedef struct item {
    const plan *pl;
    int t;
} item;

static void *worker(void *arg)
{
    const item *w = arg;
    run_item(w->pl, w->t);
    return NULL;
}

/* Runs every item. A thread that fails to start is not an error: the
   caller runs its item itself, so the result is the same, only later. */
static rt_status run_items(const plan *pl)
{
    int n = pl->nwork;
    if (n == 1) {
        run_item(pl, 0);
        return RT_OK;
    }
    pthread_t *th = malloc(sizeof *th * (size_t)n);
    item *w = malloc(sizeof *w * (size_t)n);
    bool *started = calloc((size_t)n, sizeof *started);
    if (!th || !w || !started) {
        free(th);
        free(w);
        free(started);
        return RT_ERR_OUT_OF_MEMORY;
    }
    for (int t = 1; t < n; t++) {
        w[t].pl = pl;
        w[t].t = t;
        started[t] = pthread_create(&th[t], NULL, worker, &w[t]) == 0;
    }
    run_item(pl, 0);
    for (int t = 1; t < n; t++)
        if (!started[t])
            run_item(pl, t);
    for (int t = 1; t < n; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    free(th);
    free(w);
    free(started);
    return RT_OK;
}

/* Merges the partial states in item order and writes the outputs. */
static void combine_partials(const plan *pl)
{
    kpos p;
    kept_seek(pl, 0, &p);
    for (int64_t o = 0; o < pl->no; o++) {
        rt__cpu_acc a = pl->partial[o];
        for (int t = 1; t < pl->nwork; t++)
            pl->k->merge(&a, &pl->partial[(int64_t)t * pl->no + o]);
        finish_store(pl, &a, p.out, p.idx);
        kept_next(pl, &p, 1);
    }
}

/* Copies the iter into the plan, adding a dummy reduced dim of extent 1 when
   there is none, so that dim 0 is always reduced. */
static void plan_dims(plan *pl, const rt__iter *it, bool has_idx)
{
    int off = it->num_reduce_dims == 0;
    pl->nd = it->ndim + off;
    pl->R = it->num_reduce_dims + off;
    pl->shape[0] = 1;
    pl->s_in[0] = pl->s_out[0] = pl->s_idx[0] = 0;
    for (int d = 0; d < it->ndim; d++) {
        pl->shape[d + off] = it->shape[d];
        pl->s_in[d + off] = it->strides[RT__ITER_IN][d];
        pl->s_out[d + off] = it->strides[RT__ITER_OUT][d];
        pl->s_idx[d + off] = has_idx ? it->strides[RT__ITER_IDX][d] : 0;
    }
    pl->in = it->data[RT__ITER_IN];
    pl->out = it->data[RT__ITER_OUT];
    pl->idx = has_idx ? it->data[RT__ITER_IDX] : NULL;
    pl->no = pl->N = 1;
    for (int d = 0; d < pl->nd; d++)
        *(d < pl->R ? &pl->N : &pl->no) *= pl->shape[d];
    pl->rows.nd = pl->R;
    pl->outer.nd = pl->R - 1;
    for (int d = 0; d < pl->R; d++) {
        pl->rows.shape[d] = pl->shape[d];
        pl->rows.stride[d] = pl->s_in[d];
        if (d > 0) {
            pl->outer.shape[d - 1] = pl->shape[d];
            pl->outer.stride[d - 1] = pl->s_in[d];
        }
    }
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Picks the path and the work split; see the file comment. */
static void plan_schedule(plan *pl, int threads)
{
    /* Vertical when the fastest kept dim is wide and either faster in
       memory than the reduced dim 0, or dim 0 is too short to make runs
       worth a call each. */
    pl->vertical = pl->R < pl->nd && pl->shape[pl->R] >= 4 &&
                   (abs64(pl->s_in[pl->R]) < abs64(pl->s_in[0]) || pl->shape[0] < 16);
    int64_t total = pl->no * pl->N;
    int64_t n = total < MIN_PARALLEL_ELEMS ? 1 : total / MIN_ELEMS_PER_THREAD;
    if (n > threads)
        n = threads;
    pl->split_reduce = n > 1 && pl->no < MIN_OUTPUTS_PER_THREAD * n;
    if (pl->split_reduce && n > pl->N)
        n = pl->N;
    pl->nwork = (int)n;
}

rt_status rt__cpu_execute(const rt_context *ctx, const rt__problem *pb)
{
    RT_RETURN_IF(!ctx || !pb, RT_ERR_NULL_POINTER);
    bool arg_like = pb->op == RT_OP_MIN || pb->op == RT_OP_MAX || pb->op == RT_OP_ARGMIN ||
                    pb->op == RT_OP_ARGMAX;
    RT_RETURN_IF(arg_like && pb->reduce_count == 0, RT_ERR_EMPTY_REDUCTION);
    if (pb->out_count == 0)
        return RT_OK;

    plan pl;
    memset(&pl, 0, sizeof pl);
    pl.k = rt__cpu_kernel_for(pb->op, pb->in.dtype, pb->p);
    RT_RETURN_IF(!pl.k, RT_ERR_UNSUPPORTED);
    pl.od = pb->out.dtype;
    pl.prm.p = pb->p;
    pl.prm.correction = pb->correction;
    pl.prm.count = pb->reduce_count;

    rt__iter it;
    rt__iter_build(pb, false, &it);
    plan_dims(&pl, &it, pb->has_indices);
    /* The whole iter is one piece here (64-bit offsets need no split), so
       its index base must be 0 and its counts those of the problem. */
    RT_RETURN_IF(pl.no != pb->out_count || pl.N != pb->reduce_count || it.index_base != 0,
                 RT_ERR_INTERNAL);

    if (pl.N == 0) { /* identities (min/max were refused above) */
        rt__cpu_acc a;
        pl.k->init(&a);
        kpos p;
        kept_seek(&pl, 0, &p);
        for (int64_t o = 0; o < pl.no; o++, kept_next(&pl, &p, 1))
            finish_store(&pl, &a, p.out, p.idx);
        return RT_OK;
    }

    int threads = ctx->num_threads > 0 ? ctx->num_threads : rt__cpu_default_threads();
    plan_schedule(&pl, threads < MAX_THREADS ? threads : MAX_THREADS);
    /* Every allocation happens before any output is written, so a failure
       leaves the outputs untouched. */
    if (pl.split_reduce)
        pl.partial = malloc(sizeof *pl.partial * (size_t)pl.nwork * (size_t)pl.no);
    if (pl.vertical)
        pl.scratch = malloc(SCRATCH_BYTES * (size_t)pl.nwork);
    rt_status s = (pl.split_reduce && !pl.partial) || (pl.vertical && !pl.scratch)
                      ? RT_ERR_OUT_OF_MEMORY
                      : run_items(&pl);
    if (s == RT_OK && pl.split_reduce)
        combine_partials(&pl);
    free(pl.partial);
    free(pl.scratch);
    return s;
}
