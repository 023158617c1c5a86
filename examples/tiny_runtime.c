/*
 * tiny_runtime: how a tensor runtime embeds reduce_tensor.
 *
 * The runtime owns everything the library does not: reference-counted
 * storage, tensors as (storage, offset, shape, strides), and views
 * (transpose, slice) that share storage. A reduction is three steps:
 * describe the input as an rt_tensor, allocate the output from
 * rt_reduce_shape and rt_reduce_default_dtype, call reduce_tensor.
 *
 * Runs on the CPU backend, prints a few results and checks each against a
 * loop over the logical indices. Exit status 0 when all match.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_tensor.h"

/* ---- the runtime ---------------------------------------------------------- */

typedef struct storage {
    int refs;
    unsigned char *bytes;
} storage;

typedef struct tensor {
    storage *st;
    rt_dtype dtype;
    int64_t offset; /* elements from the storage's start to element [0,..,0] */
    int ndim;
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT_MAX_DIMS]; /* elements */
} tensor;

/* A new contiguous tensor with its own zeroed storage; NULL on failure. */
static tensor *tensor_empty(rt_dtype dtype, int ndim, const int64_t *shape) {
    tensor *t = calloc(1, sizeof *t);
    storage *st = calloc(1, sizeof *st);
    int64_t n = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        if (t != NULL) {
            t->shape[d] = shape[d];
            t->strides[d] = n;
        }
        n *= shape[d];
    }
    unsigned char *bytes = calloc((size_t)(n > 0 ? n : 1), rt_dtype_size(dtype));
    if (t == NULL || st == NULL || bytes == NULL) {
        free(t);
        free(st);
        free(bytes);
        return NULL;
    }
    st->refs = 1;
    st->bytes = bytes;
    t->st = st;
    t->dtype = dtype;
    t->ndim = ndim;
    return t;
}

static void tensor_free(tensor *t) {
    if (t == NULL)
        return;
    if (--t->st->refs == 0) {
        free(t->st->bytes);
        free(t->st);
    }
    free(t);
}

/* A view sharing t's storage: same description, one more reference. */
static tensor *tensor_view(const tensor *t) {
    tensor *v = malloc(sizeof *v);
    if (v == NULL)
        return NULL;
    *v = *t;
    v->st->refs++;
    return v;
}

static tensor *tensor_transpose(const tensor *t, int a, int b) {
    tensor *v = tensor_view(t);
    if (v == NULL)
        return NULL;
    v->shape[a] = t->shape[b];
    v->shape[b] = t->shape[a];
    v->strides[a] = t->strides[b];
    v->strides[b] = t->strides[a];
    return v;
}

/* t[..., start:stop:step, ...] along dim (step > 0, 0 <= start <= stop). */
static tensor *tensor_slice(const tensor *t, int dim, int64_t start, int64_t stop, int64_t step) {
    tensor *v = tensor_view(t);
    if (v == NULL)
        return NULL;
    if (stop > t->shape[dim])
        stop = t->shape[dim];
    v->offset += start * t->strides[dim];
    v->shape[dim] = stop > start ? (stop - start + step - 1) / step : 0;
    v->strides[dim] *= step;
    return v;
}

/* The library's view of a runtime tensor: a borrowed descriptor. */
static rt_tensor as_rt(const tensor *t) {
    rt_tensor r = {.data = t->st->bytes + t->offset * (int64_t)rt_dtype_size(t->dtype),
                   .dtype = t->dtype,
                   .ndim = t->ndim};
    memcpy(r.shape, t->shape, sizeof r.shape);
    memcpy(r.strides, t->strides, sizeof r.strides);
    return r;
}

/* Reduces t into a new tensor of PyTorch's default dtype. On failure
   returns NULL and, when the library refused the call, its status. */
static tensor *tensor_reduce(rt_context *ctx, rt_op op, const tensor *t, const int *dims,
                             int ndims, bool keepdim, rt_status *status) {
    rt_tensor in = as_rt(t);
    int out_ndim;
    int64_t out_shape[RT_MAX_DIMS];
    rt_dtype out_dtype;
    *status = rt_reduce_shape(&in, dims, ndims, keepdim, &out_ndim, out_shape);
    if (*status == RT_OK)
        *status = rt_reduce_default_dtype(op, t->dtype, &out_dtype);
    if (*status != RT_OK)
        return NULL;
    tensor *out = tensor_empty(out_dtype, out_ndim, out_shape);
    if (out == NULL) {
        *status = RT_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    rt_tensor o = as_rt(out);
    *status = reduce_tensor(ctx, op, &in, dims, ndims, keepdim, &o);
    if (*status != RT_OK) {
        tensor_free(out);
        return NULL;
    }
    return out;
}

/* tensor_sum(ctx, t, &status, dim, ...) and tensor_argmax(ctx, t, &status,
   dim): the dims list becomes an array literal. */
#define DIMS(...) (int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int))
#define tensor_sum(ctx, t, status, ...)                                                            \
    tensor_reduce(ctx, RT_OP_SUM, t, DIMS(__VA_ARGS__), false, status)
#define tensor_argmax(ctx, t, status, dim)                                                         \
    tensor_reduce(ctx, RT_OP_ARGMAX, t, DIMS(dim), false, status)

/* Element of t at a multi-index, as a double (f32 / i32 / i64 only). */
static double tensor_get(const tensor *t, const int64_t *idx) {
    int64_t off = t->offset;
    for (int d = 0; d < t->ndim; d++)
        off += idx[d] * t->strides[d];
    const void *p = t->st->bytes + off * (int64_t)rt_dtype_size(t->dtype);
    switch (t->dtype) {
    case RT_F32:
        return *(const float *)p;
    case RT_I32:
        return *(const int32_t *)p;
    case RT_I64:
        return (double)*(const int64_t *)p;
    default:
        return 0;
    }
}

/* ---- the program -------------------------------------------------------- */

/* The base tensor's values, a function of the logical index, so the checks
   below do not depend on how the runtime laid anything out. */
static float base_value(int64_t i, int64_t j, int64_t k) {
    return (float)((7 * i + 3 * j + 5 * k) % 11) - 5.0f;
}

static int failures;

static void check(const char *what, double got, double want) {
    if (got != want) {
        printf("  MISMATCH %s: got %g, want %g\n", what, got, want);
        failures++;
    }
}

int main(void) {
    rt_context *ctx = NULL;
    rt_status s = rt_context_create(&ctx, RT_DEVICE_CPU, 0);
    if (s != RT_OK) {
        fprintf(stderr, "rt_context_create: %s\n", rt_status_string(s));
        return 1;
    }
    tensor *x = tensor_empty(RT_F32, 3, (int64_t[]){3, 4, 5});
    if (x == NULL)
        return 1;
    float *xd = (float *)x->st->bytes;
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++)
            for (int64_t k = 0; k < 5; k++)
                xd[(i * 4 + j) * 5 + k] = base_value(i, j, k);

    /* v = x.transpose(0, 2)[:, 0:4:2, :]  -> shape [5, 2, 3]; v[k, jj, i] =
       x[i, 2*jj, k]. Shares x's storage; nothing is copied. */
    tensor *xt = tensor_transpose(x, 0, 2);
    tensor *v = xt ? tensor_slice(xt, 1, 0, 4, 2) : NULL;
    if (v == NULL)
        return 1;
    printf("x: [3,4,5] f32; v = x.transpose(0,2)[:, 0:4:2, :] -> [%lld,%lld,%lld], "
           "strides (%lld,%lld,%lld)\n",
           (long long)v->shape[0], (long long)v->shape[1], (long long)v->shape[2],
           (long long)v->strides[0], (long long)v->strides[1], (long long)v->strides[2]);

    /* sum over dims (0, 2) of v: one value per jj. */
    tensor *sums = tensor_sum(ctx, v, &s, 0, 2);
    if (sums == NULL) {
        printf("tensor_sum: %s\n", rt_status_string(s));
        failures++;
    } else {
        printf("tensor_sum(v, 0, 2)   = [");
        for (int64_t jj = 0; jj < 2; jj++) {
            double want = 0;
            for (int64_t i = 0; i < 3; i++)
                for (int64_t k = 0; k < 5; k++)
                    want += base_value(i, 2 * jj, k);
            double got = tensor_get(sums, (int64_t[]){jj});
            printf("%s%g", jj ? ", " : "", got);
            check("sum", got, want);
        }
        printf("]\n");
    }

    /* argmax over dim 2 of v (that is, over x's dim 0): an int64 [5, 2]. */
    tensor *am = tensor_argmax(ctx, v, &s, 2);
    if (am == NULL) {
        printf("tensor_argmax: %s\n", rt_status_string(s));
        failures++;
    } else {
        printf("tensor_argmax(v, 2)   = [");
        for (int64_t k = 0; k < 5; k++) {
            printf("%s[", k ? ", " : "");
            for (int64_t jj = 0; jj < 2; jj++) {
                int64_t best = 0;
                for (int64_t i = 1; i < 3; i++)
                    if (base_value(i, 2 * jj, k) > base_value(best, 2 * jj, k))
                        best = i;
                double got = tensor_get(am, (int64_t[]){k, jj});
                printf("%s%g", jj ? ", " : "", got);
                check("argmax", got, (double)best);
            }
            printf("]");
        }
        printf("]\n");
    }

    /* Errors come back as values the runtime can report. */
    tensor *bad = tensor_sum(ctx, v, &s, 0, 3);
    printf("tensor_sum(v, 0, 3)   -> %s (%s)\n", rt_status_name(s), rt_status_string(s));
    check("status of a bad dim", s, RT_ERR_BAD_DIM);
    tensor_free(bad);

    tensor_free(sums);
    tensor_free(am);
    tensor_free(v);
    tensor_free(xt);
    tensor_free(x);
    rt_context_destroy(ctx);
    printf("%s\n", failures ? "FAILED" : "ALL OK");
    return failures ? 1 : 0;
}
