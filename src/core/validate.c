/*
 * rt__problem_init: every check a reduction call needs before a backend may
 * touch memory, in a fixed order (the first problem found is the one
 * reported), then the derived views the backends execute.
 *
 * Order: NULL arguments; ndims; rank, extents and dtype of every tensor;
 * op; dims; int64 overflow; op vs input dtype; output dtype; output shape;
 * indices; op parameters and policy; self-overlap; address ranges that
 * wrap, then overlap between tensors; NULL data; empty min/max; where the
 * memory lives.
 */
#include <math.h>

#include "rt_core.h"

/* The tensors of a call: in, out and the optional indices. */
typedef struct operands {
    const rt_tensor *t[3];
    int count;
} operands;

/* Rank, then extents, then dtype, each over all tensors before the next, so
   a bad rank anywhere is reported before a bad extent anywhere. */
static rt_status check_structure(const operands *ops) {
    for (int i = 0; i < ops->count; i++)
        RT_FORWARD_IF_ERROR(rt__tensor_check_ndim(ops->t[i]));
    for (int i = 0; i < ops->count; i++)
        RT_FORWARD_IF_ERROR(rt__tensor_check_shape(ops->t[i]));
    for (int i = 0; i < ops->count; i++)
        RT_RETURN_IF(!rt__dtype_valid(ops->t[i]->dtype), RT_ERR_BAD_DTYPE);
    return RT_OK;
}

/* Every tensor's element count and byte span, and the input's reduced and
   kept element counts, must fit int64. */
static rt_status check_overflow(const operands *ops, uint32_t mask, int64_t *reduce_count,
                                int64_t *out_count) {
    for (int i = 0; i < ops->count; i++) {
        int64_t n, lo, hi;
        RT_FORWARD_IF_ERROR(rt__extent_product(ops->t[i], UINT32_MAX, &n));
        RT_FORWARD_IF_ERROR(rt__tensor_offsets(ops->t[i], &lo, &hi));
    }
    /* An empty input can still have reduced or kept extents whose product
       alone overflows; those counts drive the backends' loops. */
    RT_FORWARD_IF_ERROR(rt__extent_product(ops->t[0], mask, reduce_count));
    RT_FORWARD_IF_ERROR(rt__extent_product(ops->t[0], ~mask, out_count));
    return RT_OK;
}

static bool same_shape(const rt_tensor *t, int ndim, const int64_t *shape) {
    if (t->ndim != ndim)
        return false;
    for (int d = 0; d < ndim; d++)
        if (t->shape[d] != shape[d])
            return false;
    return true;
}

static rt_status check_params(const rt_reduce_args *args) {
    /* Parameters are checked only for the ops that read them, as PyTorch's
       sum has no correction to get wrong. */
    if (args->op == RT_OP_VAR || args->op == RT_OP_STD)
        RT_RETURN_IF(isnan(args->correction) || args->correction < 0, RT_ERR_BAD_ARGUMENT);
    if (args->op == RT_OP_NORM)
        RT_RETURN_IF(isnan(args->p), RT_ERR_BAD_ARGUMENT);
    switch (args->policy) {
    case RT_POLICY_DEFAULT:
    case RT_POLICY_COMPAT:
    case RT_POLICY_TUNED:
        return RT_OK;
    }
    return RT_ERR_BAD_ARGUMENT;
}

/*
 * Outputs must not overlap the input or each other. The test is on byte
 * ranges [first, last], not on elements: conservative, so an output
 * interleaved with the input without sharing an element (e.g. the even and
 * odd elements of one buffer) is rejected too. Tensors with NULL data are
 * skipped here; the NULL-data check right after reports them. A tensor
 * whose range wraps around the address space is RT_ERR_OVERFLOW, first.
 */
static rt_status check_overlap(const operands *ops) {
    uintptr_t first[3], last[3];
    bool present[3];
    for (int i = 0; i < ops->count; i++)
        RT_FORWARD_IF_ERROR(rt__tensor_byte_range(ops->t[i], &present[i], &first[i], &last[i]));
    /* t[0] is the input; every pair that includes an output is checked. */
    for (int i = 1; i < ops->count; i++)
        for (int j = 0; j < i; j++)
            if (present[i] && present[j] && first[i] <= last[j] && first[j] <= last[i])
                return RT_ERR_OVERLAP;
    return RT_OK;
}

static bool tensor_nonempty(const rt_tensor *t) {
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] == 0)
            return false;
    return true;
}

static rt_status check_memory(const rt_context *ctx, const operands *ops) {
    for (int i = 0; i < ops->count; i++) {
        const rt_tensor *t = ops->t[i];
        if (!tensor_nonempty(t))
            continue;
        if (ctx->kind == RT_DEVICE_CUDA)
            RT_FORWARD_IF_ERROR(rt__cuda_check_pointer(ctx, t->data));
        else
            RT_RETURN_IF(rt__cuda_pointer_is_device_only(t->data), RT_ERR_WRONG_MEMORY);
    }
    return RT_OK;
}

/* Where the tensors' data may not be: overlapping each other, or NULL. */
static rt_status check_placement(const operands *ops) {
    RT_FORWARD_IF_ERROR(check_overlap(ops));
    for (int i = 0; i < ops->count; i++)
        RT_RETURN_IF(ops->t[i]->data == NULL && tensor_nonempty(ops->t[i]), RT_ERR_NULL_POINTER);
    return RT_OK;
}

/* rt__problem_init's checks of the data pointers, in its order; the one
   it makes between them (an empty min/max reduction) reads shapes only,
   which a layout the plan memo holds has passed already. */
rt_status rt__problem_check_data(const rt_context *ctx, const rt_reduce_args *args) {
    operands ops = {{args->in, args->out, args->indices}, args->indices != NULL ? 3 : 2};
    RT_FORWARD_IF_ERROR(check_placement(&ops));
    return check_memory(ctx, &ops);
}

/* The header and the first ndim extents and strides of src. Nothing reads
   a tensor's arrays past its ndim, and whole-struct copies (272 bytes each,
   four a call with the memsets) were half of validation's time on the
   tiny-call path (perf on the dev CPU; bench/NOTES.md v1.12). */
static void copy_used(rt_tensor *dst, const rt_tensor *src) {
    dst->data = src->data;
    dst->dtype = src->dtype;
    dst->ndim = src->ndim;
    for (int d = 0; d < src->ndim; d++) {
        dst->shape[d] = src->shape[d];
        dst->strides[d] = src->strides[d];
    }
}

/* t (an output of the input's reduction) viewed at the input's rank:
   reduced dims extent 1, stride 0. */
static void view_at_input_rank(const rt_tensor *in, const rt_tensor *t, uint32_t mask,
                               bool keepdim, rt_tensor *full) {
    full->data = t->data;
    full->dtype = t->dtype;
    full->ndim = in->ndim;
    int j = 0;
    for (int d = 0; d < in->ndim; d++) {
        bool reduced = (mask & (1u << d)) != 0;
        if (reduced) {
            full->shape[d] = 1;
            full->strides[d] = 0;
        } else {
            full->shape[d] = t->shape[j];
            full->strides[d] = t->strides[j];
        }
        if (!reduced || keepdim)
            j++;
    }
}

rt_status rt__problem_init(const rt_context *ctx, const rt_reduce_args *args, rt__problem *pb) {
    RT_RETURN_IF(ctx == NULL || args == NULL || pb == NULL, RT_ERR_NULL_POINTER);
    const rt_tensor *in = args->in, *out = args->out, *idx = args->indices;
    RT_RETURN_IF(in == NULL || out == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(args->dims == NULL && args->ndims > 0, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(args->ndims < 0, RT_ERR_BAD_ARGUMENT);

    operands ops = {{in, out, idx}, idx != NULL ? 3 : 2};
    RT_FORWARD_IF_ERROR(check_structure(&ops));
    RT_RETURN_IF(!rt__op_valid(args->op), RT_ERR_BAD_OP);
    uint32_t mask;
    RT_FORWARD_IF_ERROR(rt__dims_to_mask(in->ndim, args->dims, args->ndims, &mask));
    int64_t reduce_count, out_count;
    RT_FORWARD_IF_ERROR(check_overflow(&ops, mask, &reduce_count, &out_count));

    rt_dtype default_dtype;
    RT_FORWARD_IF_ERROR(rt_reduce_default_dtype(args->op, in->dtype, &default_dtype));
    RT_RETURN_IF(!rt_reduce_out_dtype_ok(args->op, in->dtype, out->dtype), RT_ERR_OUT_DTYPE);
    int want_ndim;
    int64_t want_shape[RT_MAX_DIMS];
    rt__reduced_shape(in, mask, args->keepdim, &want_ndim, want_shape);
    RT_RETURN_IF(!same_shape(out, want_ndim, want_shape), RT_ERR_OUT_SHAPE);
    if (idx != NULL) {
        RT_RETURN_IF(args->op != RT_OP_MIN && args->op != RT_OP_MAX, RT_ERR_INDICES);
        RT_RETURN_IF(idx->dtype != RT_I64, RT_ERR_INDICES);
        RT_RETURN_IF(!same_shape(idx, want_ndim, want_shape), RT_ERR_INDICES);
    }
    RT_FORWARD_IF_ERROR(check_params(args));

    for (int i = 1; i < ops.count; i++)
        RT_RETURN_IF(rt__tensor_self_overlaps(ops.t[i]), RT_ERR_SELF_OVERLAP);
    RT_FORWARD_IF_ERROR(check_placement(&ops));
    RT_RETURN_IF(reduce_count == 0 && (args->op == RT_OP_MIN || args->op == RT_OP_MAX ||
                                       args->op == RT_OP_ARGMIN || args->op == RT_OP_ARGMAX),
                 RT_ERR_EMPTY_REDUCTION);
    RT_FORWARD_IF_ERROR(check_memory(ctx, &ops));

    /* Everything holds, nothing below can fail: build the problem in
       place (a local copy of this 1.2 KB struct, published whole, cost
       ~1 KB of copies a call on the tiny-call path, bench/NOTES.md v1.11),
       only the dims the tensors have. */
    pb->op = args->op;
    copy_used(&pb->in, in);
    copy_used(&pb->out, out);
    view_at_input_rank(in, out, mask, args->keepdim, &pb->out_full);
    if (idx != NULL) {
        view_at_input_rank(in, idx, mask, args->keepdim, &pb->idx_full);
    } else {
        pb->idx_full.data = NULL;
        pb->idx_full.dtype = RT_I64;
        pb->idx_full.ndim = 0;
    }
    pb->has_indices = idx != NULL;
    pb->reduce_mask = mask;
    pb->reduce_count = reduce_count;
    pb->out_count = out_count;
    pb->correction = args->correction;
    pb->p = args->p;
    pb->policy = args->policy != RT_POLICY_DEFAULT ? args->policy
                 : ctx->policy != RT_POLICY_DEFAULT ? ctx->policy
                                                    : RT_POLICY_TUNED;
    return RT_OK;
}
