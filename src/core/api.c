/*
 * The entry points: validate, skip empty outputs, hand the problem to the
 * context's backend. No reduction logic lives here.
 */
#include <string.h>

#include "rt_internal.h"

void rt_reduce_args_init(rt_reduce_args *args) {
    if (args == NULL)
        return;
    memset(args, 0, sizeof *args);
    args->op = RT_OP_SUM;
    args->in = NULL;
    args->dims = NULL;
    args->ndims = 0;
    args->keepdim = false;
    args->out = NULL;
    args->indices = NULL;
    args->correction = 1.0;
    args->p = 2.0;
    args->policy = RT_POLICY_DEFAULT;
}

rt_status reduce_tensor_ex(rt_context *ctx, const rt_reduce_args *args) {
    rt_status s;
    /* A CUDA call whose layout the context planned before launches that
       plan after the checks of its data pointers (src/kernels/cuda_memo.c). */
    if (ctx != NULL && ctx->kind == RT_DEVICE_CUDA && rt__cuda_memo_replay(ctx, args, &s))
        return s;
    rt__problem pb;
    RT_FORWARD_IF_ERROR(rt__problem_init(ctx, args, &pb));
    /* Nothing to write: succeed without waking a backend (no launch, no
       thread start). */
    if (pb.out_count == 0)
        return RT_OK;
    if (ctx->kind == RT_DEVICE_CUDA) {
        s = rt__cuda_execute(ctx, &pb);
        if (s == RT_OK)
            rt__cuda_memo_keep(ctx, args);
        return s;
    }
    return rt__cpu_execute(ctx, &pb);
}

rt_status reduce_tensor(rt_context *ctx, rt_op op, const rt_tensor *in, const int *dims,
                        int ndims, bool keepdim, const rt_tensor *out) {
    rt_reduce_args args;
    rt_reduce_args_init(&args);
    args.op = op;
    args.in = in;
    args.dims = dims;
    args.ndims = ndims;
    args.keepdim = keepdim;
    args.out = out;
    return reduce_tensor_ex(ctx, &args);
}
