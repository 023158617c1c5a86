#include "rt_test_config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static _Alignas(256) char g_base[256];

char *rt_test_iter_base(void) {
    return g_base;
}

rt__iter rt_test_make_iter(int ndim, int nred, const int64_t *shape, const int64_t *in_strides,
                           int elem, size_t base_offset) {
    rt__iter it;
    memset(&it, 0, sizeof it);
    it.ndim = ndim;
    it.num_reduce_dims = nred;
    it.num_outputs = 1;
    it.inputs_per_output = 1;
    int64_t out_stride = 4;
    for (int d = 0; d < ndim; d++) {
        it.shape[d] = shape[d];
        it.strides[RT__ITER_IN][d] = in_strides[d] * elem;
        if (d < nred) {
            it.inputs_per_output *= shape[d];
        } else {
            it.num_outputs *= shape[d];
            it.strides[RT__ITER_OUT][d] = out_stride;
            out_stride *= shape[d];
        }
    }
    it.data[RT__ITER_OUT] = g_base;
    it.data[RT__ITER_IN] = g_base + base_offset;
    it.elem_size[RT__ITER_OUT] = 4;
    it.elem_size[RT__ITER_IN] = elem;
    return it;
}

rt__launch_config rt_test_config_for(const rt__iter *it, rt_op op, rt_dtype dtype,
                                     rt_policy policy) {
    return rt_test_config_without(it, op, dtype, policy, 0);
}

rt__launch_config rt_test_config_without(const rt__iter *it, rt_op op, rt_dtype dtype,
                                         rt_policy policy, unsigned kinds_off) {
    const rt__device_props dev = rt__device_props_h200();
    return rt_test_config_on(&dev, it, op, dtype, policy, kinds_off);
}

rt__launch_config rt_test_config_on(const rt__device_props *dev, const rt__iter *it, rt_op op,
                                    rt_dtype dtype, rt_policy policy, unsigned kinds_off) {
    rt_dtype out = dtype;
    assert_int_equal(rt_reduce_default_dtype(op, dtype, &out), RT_OK);
    /* Norms are planned as a norm of run-time p (p = 3). */
    rt__op_traits t = rt__op_traits_for(op, dtype, out, false, 3.0);
    rt__launch_config c;
    assert_int_equal(rt__config_compute_without(it, &t, dev, policy, kinds_off, &c), RT_OK);
    assert_int_equal(c.policy, policy);
    return c;
}

rt__device_props rt_test_props_h100(void) {
    rt__device_props p = rt__device_props_h200();
    p.l2_bytes = 50 * 1024 * 1024;
    p.mem_gbps = 3352; /* 2.619 GHz x 5120 bits x 2 */
    return p;
}
