/*
 * rt_explain: prints how reduce_tensor would run a reduction on a GPU, the
 * iteration space and the launch configuration, without a GPU.
 *
 *   rt_explain --shape 16,128,64,128 [--strides 1048576,8192,128,1]
 *              [--dims 1,3] [--keepdim] --dtype f32 --op sum
 *              [--policy compat|tuned] [--sms 132] [--threads-per-sm 2048]
 *              [--kernel-regs 32,46,64] [--kernel-threads 512,512,512]
 *              [--mem-gbps 3352] [--dependent-launch 0|1] [--p 2]
 *
 * Strides are in elements (default: contiguous); no --dims reduces every
 * dim; an empty --shape "" is a 0-d tensor. The device defaults to an H200.
 * --kernel-regs gives the registers per thread of the general kernel for
 * output_vec_size 1, 2, 4 (what the CUDA backend reads from the device;
 * 32,46,64 for f32 sums on sm_90, v1.49): TUNED sizes block splits by them, and
 * without them assumes a full SM of threads, so a split may come out
 * larger than on the GPU. --kernel-threads gives the most threads a block
 * of that kernel takes at output_vec_size 1, 2, 4 (its launch bounds, as
 * the backend reads them: 512,512,512 for f32 sums on sm_90; 512,256,128
 * where not given, PyTorch's), which TUNED's 512-thread outer blocks
 * (rules 10 to 12) need. --mem-gbps is the device's peak DRAM bandwidth
 * (the H200's 4915 by default; an H100 SXM's is 3352; 0: unknown): at 4000 or
 * less (an H100-class GPU) TUNED also takes the wide row blocks of sums, half
 * tiles for rows of 128 bytes and rule 7's chunked block splits; above it the
 * STREAM kernel reads 256 bytes a thread from 64 MiB up. The ROWS warp
 * kernel's warps a block follow the bandwidth; unknown (0), it is not taken.
 * --dependent-launch says whether the device runs programmatic dependent
 * launches (1, the H200's, by default): with it, STREAM grids over a wave
 * fold in a dependent kernel of their own.
 * The output dtype is the op's default (rt_reduce_default_dtype), the output
 * contiguous. Prints one JSON object on stdout: the arguments, the output
 * shape, the iteration space (iter strides in bytes, output operand first, dims
 * fastest first; for argmin/argmax also "index_strides", each dim's weight
 * in the logical index, and "index_keyed", whether the GPU's kernel maps
 * keys to indices: rt__iter_to_json, src/iter/iter.h) and "config" (null when there is
 * nothing to launch). An
 * iteration space too large for 32-bit indexing runs in
 * pieces: "config" is the first piece's and "pieces" lists them all.
 * --p is the norm's p (default 2, PyTorch's; other ops ignore it): the
 * p = 2 norm runs a kernel of its own, planned apart from other p.
 * Bad arguments: one line "rt_explain: <reason>" on stderr, exit code 2,
 * nothing on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

enum { EXIT_USAGE = 2, MAX_PIECES_SHOWN = 4096 };

typedef struct request {
    rt_tensor in;
    bool have_shape, have_strides, have_dims, keepdim;
    int strides_count;
    int dims[RT_MAX_DIMS];
    int ndims;
    const char *dtype_name, *op_name;
    rt_dtype out_dtype;
    rt_op op;
    rt_policy policy;
    rt__device_props dev;
    int kernel_regs[3];    /* 0: unknown */
    int kernel_threads[3]; /* 0: unknown */
    double p;           /* --op norm's p */
} request;

static int fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("rt_explain: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* One decimal integer in [lo, hi], the whole string. */
static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A comma-separated list of integers ("" is the empty list). */
static bool parse_list(const char *s, int64_t *out, int *count) {
    char item[32];
    *count = 0;
    if (*s == '\0')
        return true;
    for (;;) {
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof item || *count == RT_MAX_DIMS)
            return false;
        memcpy(item, s, len);
        item[len] = '\0';
        if (!parse_int(item, INT64_MIN, INT64_MAX, &out[(*count)++]))
            return false;
        if (s[len] == '\0')
            return true;
        s += len + 1;
    }
}

/* Three comma-separated integers in [1, max] (one per output_vec_size 1,
   2, 4) into out; false, and out untouched, otherwise. */
static bool parse_triple(const char *s, int64_t max, int out[3]) {
    int64_t list[RT_MAX_DIMS + 1];
    int n;
    bool ok = parse_list(s, list, &n) && n == 3;
    for (int k = 0; ok && k < 3; k++)
        ok = list[k] >= 1 && list[k] <= max;
    if (ok)
        for (int k = 0; k < 3; k++)
            out[k] = (int)list[k];
    return ok;
}

static int parse_args(int argc, char **argv, request *r) {
    int64_t list[RT_MAX_DIMS], v;
    int n;
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--keepdim") == 0) {
            r->keepdim = true;
            continue;
        }
        if (strncmp(flag, "--", 2) != 0 || i + 1 == argc) {
            bool known = strcmp(flag, "--shape") == 0 || strcmp(flag, "--strides") == 0 ||
                         strcmp(flag, "--dims") == 0 || strcmp(flag, "--dtype") == 0 ||
                         strcmp(flag, "--op") == 0 || strcmp(flag, "--policy") == 0 ||
                         strcmp(flag, "--sms") == 0 || strcmp(flag, "--threads-per-sm") == 0 ||
                         strcmp(flag, "--kernel-regs") == 0 ||
                         strcmp(flag, "--kernel-threads") == 0 || strcmp(flag, "--mem-gbps") == 0 ||
                         strcmp(flag, "--dependent-launch") == 0 || strcmp(flag, "--p") == 0;
            return known ? fail("%s needs a value", flag) : fail("unknown argument '%s'", flag);
        }
        const char *val = argv[++i];
        if (strcmp(flag, "--shape") == 0) {
            if (!parse_list(val, list, &n))
                return fail("bad --shape '%s': want up to %d comma-separated integers", val,
                            RT_MAX_DIMS);
            r->in.ndim = n;
            memcpy(r->in.shape, list, sizeof(int64_t) * (size_t)n);
            r->have_shape = true;
        } else if (strcmp(flag, "--strides") == 0) {
            if (!parse_list(val, list, &n))
                return fail("bad --strides '%s': want comma-separated integers", val);
            r->strides_count = n;
            memcpy(r->in.strides, list, sizeof(int64_t) * (size_t)n);
            r->have_strides = true;
        } else if (strcmp(flag, "--dims") == 0) {
            if (!parse_list(val, list, &n))
                return fail("bad --dims '%s': want comma-separated integers", val);
            for (int k = 0; k < n; k++) {
                if (list[k] < -RT_MAX_DIMS || list[k] > RT_MAX_DIMS)
                    return fail("dim %" PRId64 " is out of range", list[k]);
                r->dims[k] = (int)list[k];
            }
            r->ndims = n;
            r->have_dims = true;
        } else if (strcmp(flag, "--dtype") == 0) {
            r->dtype_name = val;
        } else if (strcmp(flag, "--op") == 0) {
            r->op_name = val;
        } else if (strcmp(flag, "--policy") == 0) {
            if (strcmp(val, "compat") == 0)
                r->policy = RT_POLICY_COMPAT;
            else if (strcmp(val, "tuned") == 0)
                r->policy = RT_POLICY_TUNED;
            else
                return fail("unknown --policy '%s' (compat or tuned)", val);
        } else if (strcmp(flag, "--sms") == 0) {
            if (!parse_int(val, 1, 1 << 16, &v))
                return fail("bad --sms '%s': want an integer in [1, 65536]", val);
            r->dev.num_sms = (int)v;
        } else if (strcmp(flag, "--threads-per-sm") == 0) {
            if (!parse_int(val, 1, 1 << 20, &v))
                return fail("bad --threads-per-sm '%s': want an integer in [1, 1048576]", val);
            r->dev.max_threads_per_sm = (int)v;
        } else if (strcmp(flag, "--mem-gbps") == 0) {
            if (!parse_int(val, 0, 1 << 20, &v))
                return fail("bad --mem-gbps '%s': want an integer in [0, 1048576]", val);
            r->dev.mem_gbps = (int)v;
        } else if (strcmp(flag, "--dependent-launch") == 0) {
            if (!parse_int(val, 0, 1, &v))
                return fail("bad --dependent-launch '%s': want 0 or 1", val);
            r->dev.dependent_launch = (int)v;
        } else if (strcmp(flag, "--kernel-regs") == 0) {
            if (!parse_triple(val, 255, r->kernel_regs))
                return fail("bad --kernel-regs '%s': want 3 integers in [1, 255]", val);
        } else if (strcmp(flag, "--kernel-threads") == 0) {
            if (!parse_triple(val, 1024, r->kernel_threads))
                return fail("bad --kernel-threads '%s': want 3 integers in [1, 1024]", val);
        } else if (strcmp(flag, "--p") == 0) {
            char *end;
            errno = 0;
            r->p = strtod(val, &end);
            if (errno != 0 || end == val || *end != '\0' || isnan(r->p))
                return fail("bad --p '%s': want a number", val);
        } else {
            return fail("unknown argument '%s'", flag);
        }
    }
    return 0;
}

/* Everything the library would reject, with the reason in the user's
   terms. Fills the default strides and the output dtype. */
static int check_request(request *r, int *out_ndim, int64_t *out_shape) {
    if (!r->have_shape)
        return fail("missing --shape");
    if (r->dtype_name == NULL)
        return fail("missing --dtype");
    if (r->op_name == NULL)
        return fail("missing --op");
    if (rt_dtype_from_name(r->dtype_name, &r->in.dtype) != RT_OK)
        return fail("unknown --dtype '%s' (f32 f64 f16 bf16 i8 u8 i16 i32 i64 bool)",
                    r->dtype_name);
    if (rt_op_from_name(r->op_name, &r->op) != RT_OK)
        return fail("unknown --op '%s' (sum prod mean min max argmin argmax var std norm "
                    "any all)", r->op_name);
    if (r->have_strides && r->strides_count != r->in.ndim)
        return fail("--strides has %d entries for a rank-%d --shape", r->strides_count,
                    r->in.ndim);
    for (int d = 0; d < r->in.ndim; d++) {
        if (r->in.shape[d] < 0)
            return fail("negative extent %" PRId64 " in --shape", r->in.shape[d]);
    }
    /* Default strides: contiguous. Extents and their product must fit
       int64 (the byte spans are the iter's to saturate). */
    int64_t numel = 1;
    for (int d = r->in.ndim - 1; d >= 0; d--) {
        if (!r->have_strides)
            r->in.strides[d] = numel;
        if (r->in.shape[d] != 0 && numel > INT64_MAX / r->in.shape[d])
            return fail("--shape has more than 2^63 elements");
        numel *= r->in.shape[d];
    }
    /* Byte strides and the byte span must fit int64, as the library's
       validation demands (RT_ERR_OVERFLOW), before the iter multiplies. */
    int64_t elem = (int64_t)rt_dtype_size(r->in.dtype), span = 0;
    for (int d = 0; d < r->in.ndim; d++) {
        int64_t s = r->in.strides[d];
        int64_t mag = s == INT64_MIN ? INT64_MAX : (s < 0 ? -s : s);
        if (mag > INT64_MAX / elem)
            return fail("stride %" PRId64 " overflows int64 in bytes", s);
        int64_t reach = numel > 0 ? r->in.shape[d] - 1 : 0;
        if (reach > 0 && mag * elem > (INT64_MAX - span) / reach)
            return fail("--strides reach beyond 2^63 bytes");
        span += reach * mag * elem;
    }
    rt_status s = rt_reduce_shape(&r->in, r->dims, r->ndims, r->keepdim, out_ndim, out_shape);
    if (s == RT_ERR_BAD_DIM)
        return fail("a dim in --dims is out of range for a rank-%d input", r->in.ndim);
    if (s == RT_ERR_DUPLICATE_DIM)
        return fail("a dim is repeated in --dims");
    if (s != RT_OK)
        return fail("%s", rt_status_string(s));
    s = rt_reduce_default_dtype(r->op, r->in.dtype, &r->out_dtype);
    if (s == RT_ERR_UNSUPPORTED)
        return fail("op %s is not defined for dtype %s", r->op_name, r->dtype_name);
    if (s != RT_OK)
        return fail("%s", rt_status_string(s));
    return 0;
}

/* The reduced-dim mask (a 0-d input has none) and the full-rank output
   strides: contiguous over the kept dims, 0 on the reduced ones. */
static uint32_t reduce_mask(const request *r, int64_t *out_strides) {
    int n = r->in.ndim;
    uint32_t mask = 0;
    for (int k = 0; k < r->ndims; k++) {
        int d = r->dims[k] < 0 ? r->dims[k] + (n > 0 ? n : 1) : r->dims[k];
        if (d < n)
            mask |= 1u << d;
    }
    if (!r->have_dims || r->ndims == 0)
        mask = n == 0 ? 0 : (uint32_t)((1ull << n) - 1);
    int64_t running = 1;
    for (int d = n - 1; d >= 0; d--) {
        bool reduced = (mask >> d) & 1;
        out_strides[d] = reduced ? 0 : running;
        running *= reduced ? 1 : r->in.shape[d];
    }
    return mask;
}

/* The pieces of an iter too large for 32-bit indexing, with their configs. */
typedef struct piece {
    rt__iter it;
    bool first, last;
    rt__launch_config cfg;
} piece;

typedef struct plan {
    const request *req;
    const rt__op_traits *traits;
    piece *pieces;
    int count;
    rt_status status;
} plan;

static rt_status collect_piece(void *user, const rt__iter *it, bool first, bool last) {
    plan *p = user;
    if (p->count == MAX_PIECES_SHOWN)
        return RT_ERR_OVERFLOW;
    piece *pc = &p->pieces[p->count++];
    pc->it = *it;
    pc->first = first;
    pc->last = last;
    return rt__config_compute(it, p->traits, &p->req->dev, p->req->policy, &pc->cfg);
}

/* ---- Output: a growable text buffer, printed only once complete. */

typedef struct text {
    char *buf;
    size_t len, cap;
    bool oom;
} text;

static void put(text *t, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0 && !t->oom && t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *b = realloc(t->buf, cap);
        if (b == NULL) {
            t->oom = true;
        } else {
            t->buf = b;
            t->cap = cap;
        }
    }
    if (n > 0 && !t->oom) {
        vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap2);
        t->len += (size_t)n;
    }
    va_end(ap2);
}

static void put_array(text *t, const int64_t *v, int n) {
    put(t, "[");
    for (int k = 0; k < n; k++)
        put(t, k ? ",%" PRId64 : "%" PRId64, v[k]);
    put(t, "]");
}

static void put_list(text *t, const char *key, const int64_t *v, int n) {
    put(t, "\"%s\":", key);
    put_array(t, v, n);
}

/* The iteration space's members, rt__iter_to_json's object without its
   braces (the shape, the OUT and IN strides, the counts, and an
   index-tracking op's index_strides, base and keyed flag). */
static void put_iter(text *t, const rt__iter *it) {
    const int n = rt__iter_to_json(it, NULL, 0);
    char *members = malloc((size_t)n + 1);
    if (members == NULL) {
        t->oom = true;
        return;
    }
    rt__iter_to_json(it, members, (size_t)n + 1);
    put(t, "%.*s", n - 2, members + 1);
    free(members);
}

static void put_config(text *t, const rt__launch_config *c) {
    char members[2048];
    int n = rt__config_to_json(c, members, sizeof members);
    put(t, "{%s}", n < (int)sizeof members ? members : "");
}

static const char *policy_name(rt_policy p) {
    return p == RT_POLICY_COMPAT ? "compat" : "tuned";
}

static void put_request(text *t, const request *r, int out_ndim, const int64_t *out_shape) {
    int64_t dims[RT_MAX_DIMS];
    int nd = 0;
    if (r->have_dims && r->ndims > 0) {
        int wrap = r->in.ndim > 0 ? r->in.ndim : 1;
        for (int k = 0; k < r->ndims; k++)
            dims[nd++] = r->dims[k] < 0 ? r->dims[k] + wrap : r->dims[k];
    } else {
        for (int d = 0; d < r->in.ndim; d++)
            dims[nd++] = d;
    }
    put(t, "{");
    put_list(t, "shape", r->in.shape, r->in.ndim);
    put(t, ",");
    put_list(t, "strides", r->in.strides, r->in.ndim);
    put(t, ",");
    put_list(t, "dims", dims, nd);
    put(t, ",\"keepdim\":%s,\"dtype\":\"%s\",\"op\":\"%s\",\"out_dtype\":\"%s\",",
        r->keepdim ? "true" : "false", rt_dtype_name(r->in.dtype), rt_op_name(r->op),
        rt_dtype_name(r->out_dtype));
    put_list(t, "out_shape", out_shape, out_ndim);
    if (r->op == RT_OP_NORM) {
        if (isfinite(r->p))
            put(t, ",\"p\":%.17g", r->p);
        else
            put(t, ",\"p\":\"%s\"", r->p > 0 ? "inf" : "-inf");
    }
    put(t,
        ",\"policy\":\"%s\",\"device\":{\"sms\":%d,\"threads_per_sm\":%d,\"warp_size\":%d,"
        "\"mem_gbps\":%d}",
        policy_name(r->policy), r->dev.num_sms, r->dev.max_threads_per_sm, r->dev.warp_size,
        r->dev.mem_gbps);
}

/* Why an iter with no work launches nothing, in the library's terms. */
static const char *no_launch_reason(const request *r, const rt__iter *it) {
    if (it->num_outputs == 0)
        return "zero-size output: nothing to do";
    bool needs_element = r->op == RT_OP_MIN || r->op == RT_OP_MAX || r->op == RT_OP_ARGMIN ||
                         r->op == RT_OP_ARGMAX;
    return needs_element ? "empty reduction: RT_ERR_EMPTY_REDUCTION"
                         : "empty reduction: the outputs get the op's empty value, no launch";
}

/* A stand-in input address, 256-byte aligned as cudaMalloc's are; the
   config only looks at its alignment. */
#define EXPLAIN_BASE ((uintptr_t)1 << 20)

int main(int argc, char **argv) {
    request r;
    memset(&r, 0, sizeof r);
    r.policy = RT_POLICY_TUNED; /* the library's default */
    r.p = 2.0;                  /* PyTorch's default norm */
    r.dev = rt__device_props_h200();
    int rc = parse_args(argc, argv, &r);
    int out_ndim = 0;
    int64_t out_shape[RT_MAX_DIMS];
    if (rc == 0)
        rc = check_request(&r, &out_ndim, out_shape);
    if (rc != 0)
        return rc;

    r.in.data = (void *)EXPLAIN_BASE;
    int64_t out_strides[RT_MAX_DIMS];
    uint32_t mask = reduce_mask(&r, out_strides);
    rt__iter it;
    rt__iter_build_raw(&r.in, out_strides, (int)rt_dtype_size(r.out_dtype), mask,
                       rt__op_tracks_index(r.op, false) ? RT__INDEX_BY_MEMORY : RT__INDEX_NONE,
                       &it);
    rt__op_traits traits = rt__op_traits_for(r.op, r.in.dtype, r.out_dtype, false, r.p);
    memcpy(traits.kernel_regs, r.kernel_regs, sizeof traits.kernel_regs);
    memcpy(traits.kernel_threads, r.kernel_threads, sizeof traits.kernel_threads);

    plan p = {&r, &traits, NULL, 0, RT_OK};
    bool work = it.num_outputs > 0 && it.inputs_per_output > 0;
    if (work) {
        p.pieces = malloc(sizeof(piece) * MAX_PIECES_SHOWN);
        if (p.pieces == NULL)
            return fail("out of memory");
        rt_status s = rt__iter_for_each_piece(&it, 0, collect_piece, &p);
        if (s != RT_OK) {
            free(p.pieces);
            if (s == RT_ERR_OVERFLOW)
                return fail("more than %d pieces of 32-bit indexing", MAX_PIECES_SHOWN);
            return fail("no launch configuration: %s", rt_status_string(s));
        }
    }

    text t = {0};
    put_request(&t, &r, out_ndim, out_shape);
    put(&t, ",");
    put_iter(&t, &it);
    if (!work) {
        put(&t, ",\"num_pieces\":0,\"config\":null,\"note\":\"%s\"", no_launch_reason(&r, &it));
    } else {
        put(&t, ",\"num_pieces\":%d,\"config\":", p.count);
        put_config(&t, &p.pieces[0].cfg);
        if (p.count > 1) {
            put(&t, ",\"pieces\":[");
            for (int k = 0; k < p.count; k++) {
                put(&t, k ? ",{" : "{");
                put_iter(&t, &p.pieces[k].it);
                put(&t, ",\"first\":%s,\"last\":%s,\"config\":",
                    p.pieces[k].first ? "true" : "false", p.pieces[k].last ? "true" : "false");
                put_config(&t, &p.pieces[k].cfg);
                put(&t, "}");
            }
            put(&t, "]");
        }
    }
    put(&t, "}\n");
    free(p.pieces);
    if (t.oom) {
        free(t.buf);
        return fail("out of memory");
    }
    fputs(t.buf, stdout);
    free(t.buf);
    return 0;
}
