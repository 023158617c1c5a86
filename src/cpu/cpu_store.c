/*
 * The CPU backend's last step: a finished result converted to the output's
 * dtype and written, plus the kernel lookup that ties the family files
 * together.
 */
#include "cpu_kernel.h"

static void put(char *out, const void *v, size_t n)
{
    memcpy(out, v, n);
}

/* A two's-complement int64 (carried as uint64) to any dtype: narrower
   integers keep the low bits, bool is (value != 0), floats round. */
static void store_int(uint64_t u, char *out, rt_dtype od)
{
    int64_t s;
    memcpy(&s, &u, sizeof s); /* reinterpret: no implementation-defined conversion */
    switch (od) {
    case RT_I8:
    case RT_U8: {
        uint8_t v = (uint8_t)u;
        put(out, &v, 1);
        break;
    }
    case RT_I16: {
        uint16_t v = (uint16_t)u;
        put(out, &v, 2);
        break;
    }
    case RT_I32: {
        uint32_t v = (uint32_t)u;
        put(out, &v, 4);
        break;
    }
    case RT_I64:
        put(out, &u, 8);
        break;
    case RT_BOOL:
        *out = (char)(u != 0);
        break;
    case RT_F32: {
        float v = (float)s;
        put(out, &v, 4);
        break;
    }
    case RT_F64: {
        double v = (double)s;
        put(out, &v, 8);
        break;
    }
    case RT_F16: {
        uint16_t v = rt__f64_to_f16((double)s);
        put(out, &v, 2);
        break;
    }
    case RT_BF16: {
        uint16_t v = rt__f64_to_bf16((double)s);
        put(out, &v, 2);
        break;
    }
    default:
        break;
    }
}

static void store_float(double f, char *out, rt_dtype od)
{
    switch (od) {
    case RT_F32: {
        float v = (float)f;
        put(out, &v, 4);
        break;
    }
    case RT_F64:
        put(out, &f, 8);
        break;
    case RT_F16: {
        uint16_t v = rt__f64_to_f16(f);
        put(out, &v, 2);
        break;
    }
    case RT_BF16: {
        uint16_t v = rt__f64_to_bf16(f);
        put(out, &v, 2);
        break;
    }
    case RT_BOOL:
        *out = (char)(f != 0.0);
        break;
    default: {
        /* Float to integer outputs are not allowed by rt_reduce_out_dtype_ok;
           this stays defined anyway: truncate toward zero, 0 when out of
           range or NaN. */
        int64_t s = (f > -0x1p63 && f < 0x1p63) ? (int64_t)f : 0;
        uint64_t u;
        memcpy(&u, &s, sizeof u);
        store_int(u, out, od);
        break;
    }
    }
}

void rt__cpu_store(const rt__cpu_result *r, char *out, rt_dtype od, char *idx)
{
    if (r->kind == RT__CPU_RES_FLOAT)
        store_float(r->f, out, od);
    else
        store_int(r->u, out, od);
    if (idx) {
        int64_t v = r->index;
        memcpy(idx, &v, sizeof v);
    }
}

static bool is_float(rt_dtype d)
{
    return d == RT_F32 || d == RT_F64 || d == RT_F16 || d == RT_BF16;
}

const rt__cpu_kernel *rt__cpu_kernel_for(rt_op op, rt_dtype in, double p)
{
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
        return is_float(in) ? rt__cpu_sum_kernel(op, in, p) : rt__cpu_int_kernel(op, in);
    case RT_OP_MEAN:
        return rt__cpu_sum_kernel(op, in, p);
    case RT_OP_NORM:
        return isinf(p) ? rt__cpu_extreme_kernel(op, in, p) : rt__cpu_sum_kernel(op, in, p);
    case RT_OP_MIN:
    case RT_OP_MAX:
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return rt__cpu_extreme_kernel(op, in, p);
    case RT_OP_VAR:
    case RT_OP_STD:
        return rt__cpu_var_kernel(op, in);
    case RT_OP_ANY:
    case RT_OP_ALL:
        return rt__cpu_int_kernel(op, in);
    default:
        return NULL;
    }
}
