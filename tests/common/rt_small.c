/*
 * Hand-written small reductions for targeted tests (rt_small.h).
 */
#include "rt_small.h"

#include <stdlib.h>
#include <string.h>

#include "rt_elem.h"

rt_small_result rt_small_reduce(rt_context *ctx, rt_op op, rt_dtype in, rt_dtype out,
                                const double *x, int64_t n, int64_t stride, double param)
{
    rt_small_result r;
    memset(&r, 0, sizeof r);
    size_t es = rt_elem_size(in);
    int64_t a = stride < 0 ? -stride : stride;
    int64_t span = n > 0 ? (n - 1) * a + 1 : 1;
    unsigned char *buf = malloc((size_t)span * es);
    if (!buf) {
        r.status = RT_ERR_OUT_OF_MEMORY;
        return r;
    }
    memset(buf, 0, (size_t)span * es);
    unsigned char *data = stride < 0 ? buf + (span - 1) * (int64_t)es : buf;
    for (int64_t i = 0; i < n; i++) {
        unsigned char *p = data + i * stride * (int64_t)es;
        if (rt_elem_is_float(in))
            rt_elem_put_f(p, in, x[i]);
        else
            rt_elem_put_i(p, in, (int64_t)x[i]);
    }
    rt_tensor tin = {data, in, 1, {n}, {stride}};
    unsigned char o[8] = {0};
    int64_t idx = -1;
    rt_tensor tout = {o, out, 0, {0}, {0}};
    rt_tensor tidx = {&idx, RT_I64, 0, {0}, {0}};
    rt_reduce_args args;
    rt_reduce_args_init(&args);
    args.op = op;
    args.in = &tin;
    args.out = &tout;
    if (op == RT_OP_MIN || op == RT_OP_MAX)
        args.indices = &tidx;
    if (op == RT_OP_VAR || op == RT_OP_STD)
        args.correction = param;
    if (op == RT_OP_NORM)
        args.p = param;
    r.status = reduce_tensor_ex(ctx, &args);
    r.value = rt_elem_get_f(o, out);
    r.bits = rt_elem_bits(o, out);
    r.index = (op == RT_OP_ARGMIN || op == RT_OP_ARGMAX) ? rt_elem_get_i(o, RT_I64) : idx;
    free(buf);
    return r;
}
