/*
 * The benchmark's correctness gate: a number for a wrong kernel is
 * worthless, so each case's first GPU result is compared with the CPU
 * backend's on the same bytes (the CPU executor is the project's oracle;
 * tests/ holds the naive reference that checks the CPU one).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* binary16 -> double, exactly (subnormals, inf and NaN included). */
static double half_to_double(uint16_t h) {
    int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp((double)man, -24);
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexp((double)(man | 0x400), exp - 25);
    return sign ? -v : v;
}

/* bfloat16 is the top half of a binary32. */
static double bf16_to_double(uint16_t b) {
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static bool is_integer(rt_dtype d) {
    return d != RT_F32 && d != RT_F64 && d != RT_F16 && d != RT_BF16;
}

static double load_float(const void *base, rt_dtype d, int64_t i) {
    switch (d) {
    case RT_F32: return ((const float *)base)[i];
    case RT_F64: return ((const double *)base)[i];
    case RT_F16: return half_to_double(((const uint16_t *)base)[i]);
    default: return bf16_to_double(((const uint16_t *)base)[i]);
    }
}

static int64_t load_int(const void *base, rt_dtype d, int64_t i) {
    switch (d) {
    case RT_I8: return ((const int8_t *)base)[i];
    case RT_U8:
    case RT_BOOL: return ((const uint8_t *)base)[i];
    case RT_I16: return ((const int16_t *)base)[i];
    case RT_I32: return ((const int32_t *)base)[i];
    default: return ((const int64_t *)base)[i];
    }
}

/* Relative tolerance per output dtype: a few output ulps for 16-bit
   results (GPU f32 and CPU f64 accumulators may round to different
   neighbours), and tight enough for f32 that a dropped element of a
   4096-long row (2.4e-4 relative) fails. */
static double rtol_for(rt_dtype d) {
    switch (d) {
    case RT_F64: return 1e-9;
    case RT_F32: return 1e-4;
    case RT_F16: return 2e-3;
    case RT_BF16: return 8e-3;
    default: return 0.0;
    }
}

/* Fills r from comparing n outputs; integers must match exactly. */
static void compare(const void *gpu, const void *cpu, rt_dtype d, int64_t n, rt__bench_result *r) {
    double rtol = rtol_for(d), worst = 0.0;
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
        double err;
        if (is_integer(d)) {
            err = load_int(gpu, d, i) == load_int(cpu, d, i) ? 0.0 : INFINITY;
        } else {
            double g = load_float(gpu, d, i), c = load_float(cpu, d, i);
            if (isnan(g) || isnan(c))
                err = isnan(g) && isnan(c) ? 0.0 : INFINITY;
            else if (g == c)
                err = 0.0;
            else
                err = fabs(g - c) / (rtol * fabs(c) + 1e-30);
        }
        if (err > 1.0)
            ++bad;
        if (err > worst)
            worst = err;
    }
    r->max_err = worst;
    r->mismatches = bad;
    r->check = bad ? "MISMATCH" : "ok";
}

cudaError_t rt__bench_check(rt__bench_env *env, const void *d_storage, const void *d_out,
                            rt__bench_result *r) {
    const rt__bench_layout *l = &r->l;
    size_t out_bytes = l->write_bytes;
    void *h_in = malloc(l->storage_bytes > 0 ? l->storage_bytes : 1);
    void *h_gpu = malloc(out_bytes > 0 ? out_bytes : 1);
    void *h_cpu = malloc(out_bytes > 0 ? out_bytes : 1);
    cudaError_t e = cudaSuccess;
    r->check = "cpu-failed";
    if (h_in == NULL || h_gpu == NULL || h_cpu == NULL || env->cpu_ctx == NULL) {
        snprintf(r->note, sizeof r->note, "CPU oracle: out of host memory");
        goto done;
    }
    e = cudaMemcpyAsync(h_in, d_storage, l->storage_bytes, cudaMemcpyDeviceToHost, env->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h_gpu, d_out, out_bytes, cudaMemcpyDeviceToHost, env->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(env->stream); /* also where a faulting kernel shows up */
    if (e != cudaSuccess) {
        r->check = "off";
        goto done;
    }

    rt_tensor in = l->in, out = l->out;
    in.data = (char *)h_in + (size_t)r->c->offset * rt_dtype_size(in.dtype);
    out.data = h_cpu;
    rt_reduce_args a;
    rt_reduce_args_init(&a);
    a.op = r->c->op;
    a.in = &in;
    a.dims = r->c->dims;
    a.ndims = r->c->ndims;
    a.keepdim = r->c->keepdim;
    a.out = &out;
    a.p = l->p;
    rt_status s = reduce_tensor_ex(env->cpu_ctx, &a);
    if (s != RT_OK)
        snprintf(r->note, sizeof r->note, "CPU oracle: %s", rt_status_string(s));
    else
        compare(h_gpu, h_cpu, out.dtype, l->out_numel, r);
done:
    free(h_in);
    free(h_gpu);
    free(h_cpu);
    return e;
}
