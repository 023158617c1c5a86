/*
 * demo: reduce_tensor on a strided view, checked against a naive reference.
 *
 * Builds a random f32 tensor of shape [6,5,8,7], takes the view
 * base.transpose(1, 3)[:, :, 1::2, :] (shape [6,7,4,5], non-contiguous, not
 * starting at the buffer's first element), and reduces it with several ops
 * over several axis sets. Each result is compared with a double-precision
 * loop over the multi-index written here, independently of the library.
 *
 * Runs on the GPU when one is visible (device memory through the CUDA
 * runtime), otherwise on the CPU backend. Exit status: 0 when every result
 * matches, 1 on a mismatch or an error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_tensor.h"

#ifdef RT_HAVE_CUDA
#include <cuda_runtime.h>
#endif

enum { BASE_N = 6 * 5 * 8 * 7 };

/* ---- memory on the chosen device --------------------------------------- */

/* Without CUDA, gpu is always false and these are plain host operations. */
static void *dev_alloc(bool gpu, size_t bytes) {
#ifdef RT_HAVE_CUDA
    if (gpu) {
        void *p = NULL;
        return cudaMalloc(&p, bytes) == cudaSuccess ? p : NULL;
    }
#endif
    (void)gpu;
    return malloc(bytes);
}

static void dev_free(bool gpu, void *p) {
#ifdef RT_HAVE_CUDA
    if (gpu) {
        cudaFree(p);
        return;
    }
#endif
    (void)gpu;
    free(p);
}

/* Copies host -> device (to_device) or device -> host. On the GPU this is a
   cudaMemcpy on the legacy default stream, which the context also uses, so
   it waits for the reduction. */
static bool dev_copy(bool gpu, void *dst, const void *src, size_t bytes, bool to_device) {
#ifdef RT_HAVE_CUDA
    if (gpu)
        return cudaMemcpy(dst, src, bytes,
                          to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) ==
               cudaSuccess;
#endif
    (void)gpu;
    (void)to_device;
    memcpy(dst, src, bytes);
    return true;
}

/* ---- the naive reference ------------------------------------------------ */

/*
 * Reduces the view over `mask` in double precision, one output per kept
 * multi-index in row-major order (the order of a contiguous output, with or
 * without keepdim). Walks every element of the view by its multi-index and
 * computes its address from the strides: no shortcuts shared with the
 * library. argmax gives the row-major index over the reduced dims.
 */
static void reference(const float *data, const rt_tensor *v, uint32_t mask, rt_op op,
                      double correction, double *ref, int64_t nout) {
    double *acc = calloc((size_t)nout, sizeof *acc);
    double *acc2 = calloc((size_t)nout, sizeof *acc2);
    int64_t *cnt = calloc((size_t)nout, sizeof *cnt);
    for (int pass = 0; pass < (op == RT_OP_VAR ? 2 : 1); pass++) {
        int64_t idx[RT_MAX_DIMS] = {0};
        for (;;) {
            int64_t off = 0, o = 0, r = 0;
            for (int d = 0; d < v->ndim; d++) {
                off += idx[d] * v->strides[d];
                if (mask & (1u << d))
                    r = r * v->shape[d] + idx[d];
                else
                    o = o * v->shape[d] + idx[d];
            }
            double x = data[off];
            bool first = cnt[o] == 0;
            switch (op) {
            case RT_OP_MAX:
                acc[o] = first || x > acc[o] ? x : acc[o];
                break;
            case RT_OP_ARGMAX: /* strictly greater: the lowest index wins ties */
                if (first || x > acc2[o]) {
                    acc2[o] = x;
                    acc[o] = (double)r;
                }
                break;
            case RT_OP_NORM:
                acc[o] += x * x;
                break;
            case RT_OP_VAR: /* pass 0: the mean; pass 1: squared deviations */
                if (pass == 0)
                    acc[o] += x;
                else
                    acc2[o] += (x - acc[o]) * (x - acc[o]);
                break;
            default: /* sum, mean */
                acc[o] += x;
                break;
            }
            cnt[o]++;
            int d = v->ndim - 1;
            while (d >= 0 && ++idx[d] == v->shape[d])
                idx[d--] = 0;
            if (d < 0)
                break;
        }
        if (op == RT_OP_VAR && pass == 0) {
            for (int64_t o = 0; o < nout; o++) {
                acc[o] /= (double)cnt[o];
                cnt[o] = 0;
            }
        }
    }
    for (int64_t o = 0; o < nout; o++) {
        switch (op) {
        case RT_OP_MEAN:
            ref[o] = acc[o] / (double)cnt[o];
            break;
        case RT_OP_VAR:
            ref[o] = acc2[o] / ((double)cnt[o] - correction);
            break;
        case RT_OP_NORM:
            ref[o] = sqrt(acc[o]);
            break;
        default:
            ref[o] = acc[o];
            break;
        }
    }
    free(acc);
    free(acc2);
    free(cnt);
}

/* ---- the cases ------------------------------------------------------------ */

typedef struct demo_case {
    const char *label;
    rt_op op;
    int dims[4];
    int ndims;
    bool keepdim;
} demo_case;

static void print_shape(int ndim, const int64_t *shape) {
    printf("[");
    for (int d = 0; d < ndim; d++)
        printf("%s%lld", d ? "," : "", (long long)shape[d]);
    printf("]");
}

/* Runs one case; returns true when the library's result matches. */
static bool run_case(rt_context *ctx, bool gpu, const rt_tensor *view,
                     const float *host_view_data, const demo_case *c) {
    int out_ndim;
    int64_t out_shape[RT_MAX_DIMS];
    rt_status s = rt_reduce_shape(view, c->dims, c->ndims, c->keepdim, &out_ndim, out_shape);
    if (s != RT_OK) {
        printf("%-28s rt_reduce_shape: %s\n", c->label, rt_status_string(s));
        return false;
    }
    rt_tensor out = {.dtype = c->op == RT_OP_ARGMAX ? RT_I64 : RT_F32, .ndim = out_ndim};
    int64_t nout = 1;
    for (int d = out_ndim - 1; d >= 0; d--) {
        out.shape[d] = out_shape[d];
        out.strides[d] = nout;
        nout *= out_shape[d];
    }
    size_t bytes = (size_t)nout * rt_dtype_size(out.dtype);
    out.data = dev_alloc(gpu, bytes);
    void *host_out = malloc(bytes);
    double *ref = malloc((size_t)nout * sizeof *ref);
    bool ok = out.data != NULL && host_out != NULL && ref != NULL;
    if (!ok)
        printf("%-28s allocation failed\n", c->label);

    rt_reduce_args args;
    rt_reduce_args_init(&args);
    args.op = c->op;
    args.in = view;
    args.dims = c->dims;
    args.ndims = c->ndims;
    args.keepdim = c->keepdim;
    args.out = &out;
    args.correction = 1;
    args.p = 2;
    if (ok && (s = reduce_tensor_ex(ctx, &args)) != RT_OK) {
        printf("%-28s reduce_tensor: %s\n", c->label, rt_status_string(s));
        ok = false;
    }
    if (ok && !dev_copy(gpu, host_out, out.data, bytes, false)) {
        printf("%-28s copy back failed\n", c->label);
        ok = false;
    }
    if (ok) {
        uint32_t mask = 0;
        for (int i = 0; i < c->ndims; i++)
            mask |= 1u << (c->dims[i] < 0 ? c->dims[i] + view->ndim : c->dims[i]);
        if (c->ndims == 0)
            mask = (1u << view->ndim) - 1;
        reference(host_view_data, view, mask, c->op, 1.0, ref, nout);
        double max_err = 0;
        bool match = true;
        for (int64_t o = 0; o < nout; o++) {
            double got = c->op == RT_OP_ARGMAX ? (double)((int64_t *)host_out)[o]
                                               : (double)((float *)host_out)[o];
            double err = fabs(got - ref[o]);
            /* f32 results of at most a few hundred terms of magnitude <= 1:
               a relative 1e-5 is ample; indices must be exact. */
            double tol = c->op == RT_OP_ARGMAX ? 0 : 1e-5 * (1 + fabs(ref[o]));
            if (!(err <= tol))
                match = false;
            if (err > max_err || isnan(err))
                max_err = err;
        }
        printf("%-28s -> ", c->label);
        print_shape(out_ndim, out_shape);
        printf("\n    ");
        for (int64_t o = 0; o < nout && o < 3; o++) {
            if (c->op == RT_OP_ARGMAX)
                printf("%lld (ref %.0f)   ", (long long)((int64_t *)host_out)[o], ref[o]);
            else
                printf("% .6f (ref % .6f)   ", ((float *)host_out)[o], ref[o]);
        }
        printf("%s\n    max abs error %.2e over %lld outputs: %s\n", nout > 3 ? "..." : "",
               max_err, (long long)nout, match ? "OK" : "MISMATCH");
        ok = match;
    }
    dev_free(gpu, out.data);
    free(host_out);
    free(ref);
    return ok;
}

int main(void) {
    bool gpu = rt_cuda_device_count() > 0;
    rt_context *ctx = NULL;
    rt_status s = rt_context_create(&ctx, gpu ? RT_DEVICE_CUDA : RT_DEVICE_CPU, 0);
    if (s != RT_OK) {
        fprintf(stderr, "rt_context_create: %s\n", rt_status_string(s));
        return 1;
    }
    printf("reduce_tensor %d.%d.%d demo, running on the %s\n", RT_VERSION_MAJOR,
           RT_VERSION_MINOR, RT_VERSION_PATCH,
           gpu ? "GPU (CUDA device 0)" : "CPU (no CUDA device visible)");

    /* The base tensor: [6,5,8,7] f32, contiguous, values in [-1, 1). */
    static float host_base[BASE_N];
    uint32_t seed = 20240601u;
    for (int i = 0; i < BASE_N; i++) {
        seed = seed * 1664525u + 1013904223u;
        host_base[i] = (float)(seed >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    }
    float *base = dev_alloc(gpu, sizeof host_base);
    if (base == NULL || !dev_copy(gpu, base, host_base, sizeof host_base, true)) {
        fprintf(stderr, "could not place the input on the device\n");
        rt_context_destroy(ctx);
        return 1;
    }

    /* view = base.transpose(1, 3)[:, :, 1::2, :]: base strides (280,56,7,1)
       become (280,1,7,56) after the transpose; the step-2 slice of dim 2
       doubles its stride and starts one row (7 elements) in. */
    const int64_t view_offset = 7;
    rt_tensor view = {.data = base + view_offset,
                      .dtype = RT_F32,
                      .ndim = 4,
                      .shape = {6, 7, 4, 5},
                      .strides = {280, 1, 14, 56}};
    printf("input: base [6,5,8,7] f32, view base.transpose(1,3)[:, :, 1::2, :]\n"
           "       shape [6,7,4,5], strides (280,1,14,56) elements, offset %lld\n\n",
           (long long)view_offset);

    const demo_case cases[] = {
        {"sum over (1,3)", RT_OP_SUM, {1, 3}, 2, false},
        {"mean over all dims", RT_OP_MEAN, {0}, 0, false},
        {"amax over 2, keepdim", RT_OP_MAX, {2}, 1, true},
        {"argmax over 1", RT_OP_ARGMAX, {1}, 1, false},
        {"var over (0,2), corr. 1", RT_OP_VAR, {0, 2}, 2, false},
        {"norm p=2 over -1", RT_OP_NORM, {-1}, 1, false},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!run_case(ctx, gpu, &view, host_base + view_offset, &cases[i]))
            failures++;

    dev_free(gpu, base);
    rt_context_destroy(ctx);
    printf("\n%s: %d of %zu cases matched the reference\n", failures ? "FAILED" : "ALL OK",
           (int)(sizeof cases / sizeof cases[0]) - failures, sizeof cases / sizeof cases[0]);
    return failures ? 1 : 0;
}
