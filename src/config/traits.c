/*
 * What the launch configuration needs to know about an op and a device.
 *
 * The op traits are PyTorch 2.11's template arguments of gpu_reduce_kernel
 * (vt0, input_vec_size) and the size of its accumulator type arg_t, per op
 * and dtype, read from ReduceSumProdKernel.cu, ReduceMomentKernel.cu,
 * ReduceNormKernel.cu, ReduceArgMaxKernel.cu, ReduceMinMaxKernel.cu and
 * ReduceLogicKernel.cu. The sizes are checked against the dynamic shared
 * memory of the ground-truth launches (tests/data/torch_reduce_configs.jsonl):
 * shared memory is acc_size * threads * output_vec_size, so a wrong acc_size
 * shows up there.
 */
#include <math.h>

#include "config.h"

/* The float accumulator: PyTorch's acc_type is float for f16/bf16/f32 and
   double for f64. When the caller asks for an f64 output of a narrower float
   input, PyTorch casts the input to f64 first (make_reduction_from_out_ty),
   so arg_t is double; sizing by the wider of the two is also the safe choice
   for shared memory whichever the kernel uses. */
static int float_acc_size(rt_dtype in, rt_dtype out) {
    return (in == RT_F64 || out == RT_F64) ? 8 : 4;
}

/* min/max keep the input type, except 16-bit floats, which PyTorch compares
   in float (max_values_kernel_cuda_impl<at::Half, float>). */
static int minmax_acc_size(rt_dtype in) {
    if (in == RT_F16 || in == RT_BF16)
        return 4;
    return (int)rt_dtype_size(in);
}

static int acc_size_for(rt_op op, rt_dtype in, rt_dtype out, bool has_indices) {
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
    case RT_OP_MEAN:
        /* Integer and bool sums and products accumulate in int64
           (PyTorch casts them to int64 before its reduce launch). */
        return rt__dtype_is_float(in) ? float_acc_size(in, out) : 8;
    case RT_OP_MIN:
    case RT_OP_MAX:
        /* With indices: thrust::pair<acc_t, int64_t>, padded to 16 bytes
           for every acc_t of at most 8 bytes. */
        return has_indices ? 16 : minmax_acc_size(in);
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return 16; /* thrust::pair<acc_t, int64_t> */
    case RT_OP_VAR:
    case RT_OP_STD:
        /* WelfordData<acc, int32_t> {mean, m2, n, nf}: 4 * 4 bytes for a
           float acc; for double 8 + 8 + (4 + 4 padding) + 8. The ground
           truth's var launch has 8208 = 16 + 512 * 16 bytes of shared
           memory. */
        return float_acc_size(in, out) == 8 ? 32 : 16;
    case RT_OP_NORM:
        return float_acc_size(in, out);
    case RT_OP_ANY:
    case RT_OP_ALL:
        return 1; /* bool; ground truth: 528 = 16 + 512 * 1 */
    case RT_OP_COUNT:
        break;
    }
    return 0;
}

rt__op_traits rt__op_traits_for(rt_op op, rt_dtype in, rt_dtype out, bool has_indices, double p) {
    rt__op_traits t;
    bool sixteen_bit = rt_dtype_size(in) == 2;
    t.input_size = (int)rt_dtype_size(in);
    t.output_size = (int)rt_dtype_size(out);
    t.acc_size = acc_size_for(op, in, out, has_indices);
    /* std_var_kernel_impl passes vt0 = 2 "to lower register usage that
       leads to register spills"; every other reduction keeps the default 4. */
    t.vt0 = (op == RT_OP_VAR || op == RT_OP_STD) ? 2 : 4;
    /* sum_functor and mean_kernel_impl pass input_vec_size = 8 when
       sizeof(scalar_t) == 2; elsewhere it defaults to vt0. With vt0 = 4 this
       turns the input-vectorized path off on CUDA (it needs
       vt0 >= input_vec_size), which the COMPAT policy reproduces. */
    t.input_vec_size = ((op == RT_OP_SUM || op == RT_OP_MEAN) && sixteen_bit) ? 8 : t.vt0;
    t.noutputs = ((op == RT_OP_MIN || op == RT_OP_MAX) && has_indices) ? 2 : 1;
    t.indexed = t.noutputs == 2 || op == RT_OP_ARGMIN || op == RT_OP_ARGMAX;
    /* H200, [32768,4096] rows over dim 1 (bench/NOTES.md v1.5): a row on
       128 lanes ran sum 125.7 -> 123.5 us, f16 67.2 -> 65.5, i32 130.1 ->
       124.9, f64 ([16384,4096]) 125.5 -> 122.6, amax 127.5 -> 125.0; the
       ops with wider states or costlier folds ran slower on 128 lanes
       than on 32 (var 136.0 -> 153.1, argmax 133.7 -> 147.5, norm-2
       through the kernel of run-time p 129.2 -> 133.4). The p = 2 norm's
       own kernel folds like a sum and gains like one: 122.6 -> 121.4 us
       (sum 121.5, same run). */
    const bool one_number = op == RT_OP_SUM || op == RT_OP_PROD || op == RT_OP_MEAN ||
                            ((op == RT_OP_MIN || op == RT_OP_MAX) && !has_indices) ||
                            (op == RT_OP_NORM && p == 2.0);
    t.row_lanes = one_number ? 128 : 32;
    t.row_block_loads = t.indexed && sixteen_bit                   ? 0
                        : op == RT_OP_NORM && p != 2.0 && isfinite(p) ? 2
                                                                       : 4;
    t.row_block_wide = op == RT_OP_SUM || op == RT_OP_MEAN || op == RT_OP_VAR || op == RT_OP_STD;
    t.row_two_pass = op == RT_OP_VAR || op == RT_OP_STD;
    t.col_thread = (op == RT_OP_VAR || op == RT_OP_STD) && in == RT_F32;
    t.row_pair_loads = t.acc_size > 16                             ? 0
                       : t.row_block_loads > 2 && t.input_size <= 2 ? 2
                                                                     : t.row_block_loads;
    /* The STREAM kernel's state type is the input's accumulator
       (reduce_ops.cuh): double for f64 inputs. */
    t.slot_state = one_number && in == RT_F64;
    t.pipelined = (op == RT_OP_SUM || op == RT_OP_PROD || op == RT_OP_MEAN) && t.acc_size == 4;
    t.kernel_regs[0] = t.kernel_regs[1] = t.kernel_regs[2] = 0;
    t.kernel_threads[0] = t.kernel_threads[1] = t.kernel_threads[2] = 0;
    return t;
}

rt__device_props rt__device_props_h200(void) {
    rt__device_props p;
    p.num_sms = 132;
    p.max_threads_per_sm = 2048;
    p.warp_size = 32;
    p.max_threads_per_block = 1024;
    p.shared_mem_per_block = 48 * 1024;
    p.l2_bytes = 60 * 1024 * 1024;
    p.regs_per_sm = 64 * 1024;
    p.mem_gbps = 4915; /* 3.2 GHz x 6144 bits x 2, its spec (4.8 TB/s nominal) */
    p.dependent_launch = 1; /* compute capability 9.0 */
    return p;
}
