/*
 * Element access by dtype for the test support code (see rt_elem.h).
 */
#include "rt_elem.h"

#include <string.h>

#include "rt_half.h"

size_t rt_elem_size(rt_dtype d)
{
    switch (d) {
    case RT_F64:
    case RT_I64:
        return 8;
    case RT_F32:
    case RT_I32:
        return 4;
    case RT_F16:
    case RT_BF16:
    case RT_I16:
        return 2;
    case RT_I8:
    case RT_U8:
    case RT_BOOL:
        return 1;
    default:
        return 0;
    }
}

bool rt_elem_is_float(rt_dtype d)
{
    return d == RT_F32 || d == RT_F64 || d == RT_F16 || d == RT_BF16;
}

uint64_t rt_elem_bits(const void *p, rt_dtype d)
{
    uint64_t v = 0;
    switch (rt_elem_size(d)) {
    case 8:
        memcpy(&v, p, 8);
        break;
    case 4: {
        uint32_t u;
        memcpy(&u, p, 4);
        v = u;
        break;
    }
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        v = u;
        break;
    }
    case 1:
        v = *(const unsigned char *)p;
        break;
    default:
        break;
    }
    return v;
}

int64_t rt_elem_get_i(const void *p, rt_dtype d)
{
    uint64_t b = rt_elem_bits(p, d);
    switch (d) {
    case RT_I8:
        return (int8_t)(uint8_t)b;
    case RT_U8:
        return (int64_t)b;
    case RT_I16:
        return (int16_t)(uint16_t)b;
    case RT_I32:
        return (int32_t)(uint32_t)b;
    case RT_I64: {
        int64_t v;
        memcpy(&v, &b, 8);
        return v;
    }
    case RT_BOOL:
        return b != 0;
    default: {
        long double f = rt_elem_get_f(p, d);
        return (f > -0x1p63L && f < 0x1p63L) ? (int64_t)f : 0;
    }
    }
}

long double rt_elem_get_f(const void *p, rt_dtype d)
{
    switch (d) {
    case RT_F32: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    case RT_F64: {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    case RT_F16:
        return rt__f16_to_f32((uint16_t)rt_elem_bits(p, d));
    case RT_BF16:
        return rt__bf16_to_f32((uint16_t)rt_elem_bits(p, d));
    default:
        return (long double)rt_elem_get_i(p, d);
    }
}

static void put_bits(void *p, size_t n, uint64_t v)
{
    if (n == 8) {
        memcpy(p, &v, 8);
    } else if (n == 4) {
        uint32_t u = (uint32_t)v;
        memcpy(p, &u, 4);
    } else if (n == 2) {
        uint16_t u = (uint16_t)v;
        memcpy(p, &u, 2);
    } else if (n == 1) {
        *(unsigned char *)p = (unsigned char)v;
    }
}

void rt_elem_put_i(void *p, rt_dtype d, int64_t v)
{
    if (rt_elem_is_float(d)) {
        rt_elem_put_f(p, d, (double)v);
        return;
    }
    uint64_t u;
    memcpy(&u, &v, 8);
    put_bits(p, rt_elem_size(d), d == RT_BOOL ? (uint64_t)(v != 0) : u);
}

void rt_elem_put_f(void *p, rt_dtype d, double v)
{
    switch (d) {
    case RT_F32: {
        float f = (float)v;
        memcpy(p, &f, 4);
        break;
    }
    case RT_F64:
        memcpy(p, &v, 8);
        break;
    case RT_F16:
        put_bits(p, 2, rt__f64_to_f16(v));
        break;
    case RT_BF16:
        put_bits(p, 2, rt__f64_to_bf16(v));
        break;
    case RT_BOOL:
        put_bits(p, 1, v != 0.0);
        break;
    default:
        rt_elem_put_i(p, d, (v > -0x1p63 && v < 0x1p63) ? (int64_t)v : 0);
        break;
    }
}
