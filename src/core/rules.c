/*
 * Which (op, input dtype, output dtype) triples a reduction accepts, and the
 * output dtype PyTorch picks by default. The one table behind both
 * rt_reduce_default_dtype and the validator's RT_ERR_UNSUPPORTED /
 * RT_ERR_OUT_DTYPE checks.
 */
#include "rt_internal.h"

bool rt__op_tracks_index(rt_op op, bool has_indices) {
    switch (op) {
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return true;
    case RT_OP_MIN:
    case RT_OP_MAX:
        return has_indices;
    default:
        return false;
    }
}

/* Ops that only make sense on real numbers: PyTorch rejects mean, var, std
   and norm of integer and bool tensors rather than picking a float type. */
static bool op_needs_float_input(rt_op op) {
    return op == RT_OP_MEAN || op == RT_OP_VAR || op == RT_OP_STD || op == RT_OP_NORM;
}

/* Rank of a float dtype by precision, for "same or wider" rules. f16 and
   bf16 share a rank but neither holds the other, so they never convert to
   each other. */
static int float_rank(rt_dtype d) {
    switch (d) {
    case RT_F16:
    case RT_BF16:
        return 1;
    case RT_F32:
        return 2;
    case RT_F64:
        return 3;
    default:
        return 0;
    }
}

/* out is in itself, or a strictly more precise float type. */
static bool same_or_wider_float(rt_dtype in, rt_dtype out) {
    if (out == in)
        return true;
    return float_rank(in) > 0 && float_rank(out) > float_rank(in);
}

rt_status rt_reduce_default_dtype(rt_op op, rt_dtype in, rt_dtype *out) {
    RT_RETURN_IF(out == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(!rt__op_valid(op), RT_ERR_BAD_OP);
    RT_RETURN_IF(!rt__dtype_valid(in), RT_ERR_BAD_DTYPE);
    RT_RETURN_IF(op_needs_float_input(op) && !rt__dtype_is_float(in), RT_ERR_UNSUPPORTED);
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
        /* Integer sums widen to int64 so they rarely wrap (torch.sum). */
        *out = rt__dtype_is_float(in) ? in : RT_I64;
        break;
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        *out = RT_I64;
        break;
    case RT_OP_ANY:
    case RT_OP_ALL:
        *out = RT_BOOL;
        break;
    default:
        *out = in;
        break;
    }
    return RT_OK;
}

bool rt_reduce_out_dtype_ok(rt_op op, rt_dtype in, rt_dtype out) {
    if (!rt__op_valid(op) || !rt__dtype_valid(in) || !rt__dtype_valid(out))
        return false;
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
        if (rt__dtype_is_float(in))
            return same_or_wider_float(in, out);
        return out == in || out == RT_I64;
    case RT_OP_MEAN:
    case RT_OP_VAR:
    case RT_OP_STD:
    case RT_OP_NORM:
        return rt__dtype_is_float(in) && same_or_wider_float(in, out);
    case RT_OP_MIN:
    case RT_OP_MAX:
        return out == in;
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return out == RT_I64;
    case RT_OP_ANY:
    case RT_OP_ALL:
        return out == RT_BOOL;
    case RT_OP_COUNT:
        break;
    }
    return false;
}
