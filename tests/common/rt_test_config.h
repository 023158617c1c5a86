/*
 * Hand-built iteration spaces and configs for the config tests
 * (test_config.c, test_config_branches.c).
 */
#ifndef RT_TEST_CONFIG_H
#define RT_TEST_CONFIG_H

#include <stddef.h>

#include "config.h"

/* A 256-byte aligned object the hand-built iters point into, as PyTorch's
   allocations are aligned; the config only reads the addresses. */
char *rt_test_iter_base(void);

/* A hand-built iter: ndim dims fastest first, the first nred reduced; input
   strides in elements of `elem` bytes; the output compact f32 over the kept
   dims; the input based base_offset bytes into rt_test_iter_base(). */
rt__iter rt_test_make_iter(int ndim, int nred, const int64_t *shape, const int64_t *in_strides,
                           int elem, size_t base_offset);

/* The config of `policy` for (op, dtype -> its default output dtype) on an
   H200, asserting (cmocka) that it computes and records its policy. */
rt__launch_config rt_test_config_for(const rt__iter *it, rt_op op, rt_dtype dtype,
                                     rt_policy policy);

/* The same with the kernel kinds in kinds_off (RT__KIND_BIT mask) turned
   off (rt__config_compute_without). */
rt__launch_config rt_test_config_without(const rt__iter *it, rt_op op, rt_dtype dtype,
                                         rt_policy policy, unsigned kinds_off);

/* The same on the device dev. */
rt__launch_config rt_test_config_on(const rt__device_props *dev, const rt__iter *it, rt_op op,
                                    rt_dtype dtype, rt_policy policy, unsigned kinds_off);

/* The model H200 with an H100 SXM's L2 (50 MiB) and DRAM bandwidth (3352
   GB/s): the same SMs, threads and registers. */
rt__device_props rt_test_props_h100(void);

#endif /* RT_TEST_CONFIG_H */
