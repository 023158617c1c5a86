/*
 * Launch configuration: how one reduction piece is spread over a GPU.
 * A pure function of (iter, element sizes, op traits, device properties),
 * no CUDA headers. Two policies: COMPAT reproduces PyTorch 2.11's
 * setReduceConfig (checked against tests/data/torch_reduce_configs.jsonl);
 * TUNED is ours (bench/NOTES.md has the measurements behind it).
 */
#ifndef RT_CONFIG_H
#define RT_CONFIG_H

#include "iter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the config needs of the device; filled from cudaDeviceProp by the
   CUDA backend, or by hand (rt_explain, tests). */
typedef struct rt__device_props {
    int num_sms;               /* multiProcessorCount (H200: 132) */
    int max_threads_per_sm;    /* maxThreadsPerMultiProcessor (2048) */
    int warp_size;             /* 32 */
    int max_threads_per_block; /* 1024 */
    int shared_mem_per_block;  /* bytes, default opt-in-free limit (49152) */
    int l2_bytes;              /* L2 size in bytes (H200: 60 MiB), 0 if unknown */
} rt__device_props;

/* The H200 of the ground-truth file: 132 SMs, 2048 threads/SM. */
rt__device_props rt__device_props_h200(void);

/* What the config needs of the op. */
typedef struct rt__op_traits {
    int input_size;     /* bytes per input element (scalar_t) */
    int output_size;    /* bytes per output element */
    int acc_size;       /* bytes of the accumulator state (arg_t): shared
                           memory and staging are sized by it */
    int vt0;            /* values per thread per unrolled step: 4, 2 for var/std */
    int input_vec_size; /* vector width of the contiguous input path: vt0, 8
                           for 16-bit sum/mean (PyTorch's choice) */
    int noutputs;       /* 1, 2 for min/max with indices */
} rt__op_traits;

/* PyTorch's traits for (op, input dtype, output dtype). */
rt__op_traits rt__op_traits_for(rt_op op, rt_dtype in, rt_dtype out, bool has_indices);

typedef enum rt__kernel_kind {
    RT__KERNEL_GENERAL = 0 /* the staged kernel of DESIGN.md section 6 */
    /* TUNED adds kinds here (e.g. thread-per-row) with their measurements. */
} rt__kernel_kind;

typedef struct rt__launch_config {
    rt_policy policy;     /* COMPAT or TUNED, as chosen */
    rt__kernel_kind kernel;
    int block[3];         /* x, y, 1 */
    int grid[3];          /* x = output tiles, y = ctas_per_output, 1 */
    int num_threads;      /* block[0] * block[1] */
    /* PyTorch's ReduceConfig multipliers: input index = threadIdx.x *
       input_mult[0] + threadIdx.y * input_mult[1] + blockIdx.y * input_mult[2]
       (times step_input strides), output index likewise with output_mult. */
    int input_mult[3];
    int output_mult[2];
    int step_input;
    int step_output;
    int ctas_per_output;   /* > 1: global reduce across grid.y */
    bool vectorize_input;  /* contiguous reduced dim, vector loads */
    int input_vec_size;
    int output_vec_size;   /* 1, 2 or 4 adjacent outputs per thread */
    int vt0;
    int max_threads;       /* 512 / output_vec_size: the kernel's template bound */
    int shared_memory_bytes; /* dynamic shared memory per block */
    int64_t staging_bytes;   /* global reduce partials: acc_size * outputs * ctas */
    int64_t semaphore_count; /* global reduce: one int per grid.x block */
} rt__launch_config;

/* Whether the config reduces across warps in shared memory, across lanes,
   and across blocks (PyTorch's should_block_y_reduce etc.). */
bool rt__config_block_x_reduce(const rt__launch_config *c);
bool rt__config_block_y_reduce(const rt__launch_config *c);
bool rt__config_global_reduce(const rt__launch_config *c);

/*
 * Computes the launch configuration of one piece. policy must be COMPAT or
 * TUNED. The iter must fit 32-bit indexing (one piece). Returns
 * RT_ERR_INTERNAL for an iter with no work (num_outputs or
 * inputs_per_output 0: the executor handles those without a launch) and
 * RT_ERR_BAD_ARGUMENT for an unknown policy or impossible props.
 */
rt_status rt__config_compute(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, rt_policy policy,
                             rt__launch_config *cfg);

/* Appends the config as JSON members ("block":[x,y,z],...) to buf
   (snprintf convention: returns the length the full text needs). */
int rt__config_to_json(const rt__launch_config *c, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RT_CONFIG_H */
