/*
 * Structural checks of tensor descriptors and dims lists, and the output
 * shape of a reduction (rt_reduce_shape).
 */
#include "rt_core.h"

rt_status rt__tensor_check_ndim(const rt_tensor *t) {
    RT_RETURN_IF(t->ndim < 0 || t->ndim > RT_MAX_DIMS, RT_ERR_BAD_NDIM);
    return RT_OK;
}

rt_status rt__tensor_check_shape(const rt_tensor *t) {
    for (int d = 0; d < t->ndim; d++)
        RT_RETURN_IF(t->shape[d] < 0, RT_ERR_BAD_SHAPE);
    return RT_OK;
}

rt_status rt__dims_to_mask(int ndim, const int *dims, int ndims, uint32_t *mask) {
    uint32_t all = ndim == 0 ? 0u : (uint32_t)((1ull << ndim) - 1);
    if (ndims == 0) {
        *mask = all;
        return RT_OK;
    }
    /* A scalar behaves as a rank-1 tensor for dim wrapping (PyTorch's
       maybe_wrap_dim), so 0 and -1 name its one virtual dim. */
    int wrap = ndim > 0 ? ndim : 1;
    for (int i = 0; i < ndims; i++)
        RT_RETURN_IF(dims[i] < -wrap || dims[i] >= wrap, RT_ERR_BAD_DIM);
    uint32_t seen = 0;
    for (int i = 0; i < ndims; i++) {
        int d = dims[i] < 0 ? dims[i] + wrap : dims[i];
        uint32_t bit = 1u << d;
        RT_RETURN_IF(seen & bit, RT_ERR_DUPLICATE_DIM);
        seen |= bit;
    }
    *mask = seen & all;
    return RT_OK;
}

void rt__reduced_shape(const rt_tensor *in, uint32_t mask, bool keepdim, int *out_ndim,
                       int64_t *out_shape) {
    int n = 0;
    for (int d = 0; d < in->ndim; d++) {
        if (!(mask & (1u << d)))
            out_shape[n++] = in->shape[d];
        else if (keepdim)
            out_shape[n++] = 1;
    }
    *out_ndim = n;
}

rt_status rt_reduce_shape(const rt_tensor *in, const int *dims, int ndims, bool keepdim,
                          int *out_ndim, int64_t *out_shape) {
    RT_RETURN_IF(in == NULL || out_ndim == NULL || out_shape == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(dims == NULL && ndims > 0, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(ndims < 0, RT_ERR_BAD_ARGUMENT);
    RT_FORWARD_IF_ERROR(rt__tensor_check_ndim(in));
    RT_FORWARD_IF_ERROR(rt__tensor_check_shape(in));
    RT_RETURN_IF(!rt__dtype_valid(in->dtype), RT_ERR_BAD_DTYPE);
    uint32_t mask;
    RT_FORWARD_IF_ERROR(rt__dims_to_mask(in->ndim, dims, ndims, &mask));
    rt__reduced_shape(in, mask, keepdim, out_ndim, out_shape);
    return RT_OK;
}
