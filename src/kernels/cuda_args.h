/*
 * Host helpers of the CUDA executor (cuda_args.c): configuration checks,
 * workspace needs, and packing an iter piece into rt__kernel_args (or the
 * TINY kernel's rt__tiny_args).
 */
#ifndef RT_KERNELS_CUDA_ARGS_H
#define RT_KERNELS_CUDA_ARGS_H

#include "launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RT_OK when the kernel body can run config c on piece it: output vector
   width 1/2/4 within op's kernel's thread bound (rt__config_kernel_threads:
   its launch bounds), block.x a power of two up
   to 32 or a multiple of 32, grid covering the outputs, global reduce only
   with a block_y split, and the layout conditions of vectorized input and
   vectorized output. RT_ERR_INTERNAL otherwise (a config bug). */
rt_status rt__cuda_check_config(const rt__iter *it, const rt__op_traits *op,
                                const rt__launch_config *c);

/* Dynamic shared memory the body needs for c with acc_size-byte states:
   the larger of the config's figure and the body's own use. */
int64_t rt__cuda_shared_bytes(const rt__launch_config *c, int acc_size);
/* Bytes of staging the body indexes for a global reduce (0 without). */
int64_t rt__cuda_staging_bytes(const rt__launch_config *c, int acc_size);
/* Semaphores a global reduce uses: one per grid.x block (0 without). */
int64_t rt__cuda_semaphores(const rt__launch_config *c);

/* Fills the iteration fields of *a (offset calculators, operand bases,
   counts, index_base) from a piece that fits 32-bit indexing. */
void rt__cuda_pack_iter(const rt__iter *it, rt__kernel_args *a);
/* Fills every field of the TINY kernel's *a from a piece of one output
   (the run at its input base), the op fields of op (out_dtype, op_mode,
   param0, param1) and the piece's place among the pieces. */
void rt__cuda_pack_tiny(const rt__iter *it, const rt__kernel_args *op, bool first, bool last,
                        rt__tiny_args *a);
/* Fills the configuration fields of *a (mults, steps, vectorize_input). */
void rt__cuda_pack_config(const rt__launch_config *c, rt__kernel_args *a);
/* Fills the index map of a keyed piece (rt__iter_index_keyed; launch.h
   says what the fields mean). */
void rt__cuda_pack_index_map(const rt__iter *it, rt__index_map *m);
/* Fills the walk fields of *a (walk, walk_step, walk_digit, walk_carry,
   walk_dim, walk_extent, and step_div where a walk runs: launch.h) for
   general-kernel config c over piece it, whose kernel reads vectors of
   input_vec elements on the vector path. */
void rt__cuda_pack_walk(const rt__iter *it, const rt__launch_config *c, int input_vec,
                        rt__kernel_args *a);
/* Fills what the general kernel's *a takes from piece it and config c:
   rt__cuda_pack_iter, rt__cuda_pack_config and rt__cuda_pack_walk (input_vec
   as there; no walk where walk_off), and the piece's place among the
   pieces (first, last). The op's fields and the workspace's are the
   caller's. */
void rt__cuda_pack_piece(const rt__iter *it, const rt__launch_config *c, int input_vec,
                         bool walk_off, bool first, bool last, rt__kernel_args *a);

#ifdef __cplusplus
}
#endif

#endif /* RT_KERNELS_CUDA_ARGS_H */
