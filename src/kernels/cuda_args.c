/*
 * From (piece of an iter, launch configuration) to the kernel's argument
 * block, and the checks that the configuration is one the kernel body can
 * run correctly (the body trusts them; a failure here is a config bug).
 */
#include <stddef.h>
#include <string.h>

#include "cuda_args.h"

/* The head of the argument block (launch.h): the exact rows' fields in
   its first 48 bytes, one constant line on sm_90. */
_Static_assert(offsetof(rt__kernel_args, op_mode) + sizeof(int) == 48,
               "rt__kernel_args' head must be its first 48 bytes");

static bool is_pow2(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

/* An extent-1 dim never moves, whatever its stride: store 0 so a huge
   stride cannot overflow the 32-bit field. */
static int32_t stride32(const rt__iter *it, int op, int d) {
    return it->shape[d] == 1 ? 0 : (int32_t)it->strides[op][d];
}

/* The ROWS kernels' conditions (reduce_rows.cuh): one contiguous reduced
   dim, blocks of whole warps (direct, short, warp) or one row per thread (tile), a grid
   covering the rows, 16-byte loads only on aligned rows, a tile only of
   packed rows whose elements fit its shared memory. The column kernel:
   one reduced dim over contiguous columns, exactly its block of
   RT__ROWS_COLS_WIDTH x RT__ROWS_COLS_LANES threads and its loads in
   flight, a grid covering the columns, shared memory for the lanes'
   states. */
static rt_status check_rows(const rt__iter *it, const rt__op_traits *op,
                            const rt__launch_config *c) {
    const int acc_size = op->acc_size;
    const int64_t elem = it->elem_size[RT__ITER_IN];
    const int64_t L = it->inputs_per_output;
    RT_RETURN_IF(c->block[1] != 1 || c->block[2] != 1, RT_ERR_INTERNAL);
    /* Exact rows (the kernels' row_starts, row_store, exact_row): one kept
       dim, whose stride starts each row; never the tile (it stages packed
       rows) nor the column kernel. The block kernel's own conditions
       below. */
    RT_RETURN_IF(c->rows_exact && (it->ndim != 2 || c->rows_tile || c->rows_cols),
                 RT_ERR_INTERNAL);
    if (c->rows_cols) {
        RT_RETURN_IF(c->rows_tile || c->rows_short || c->rows_block || c->rows_warp ||
                         c->rows_two_pass,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(it->ndim != 2 || it->num_reduce_dims != 1 ||
                         it->strides[RT__ITER_IN][1] != elem,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->block[0] != RT__ROWS_COLS_WIDTH * RT__ROWS_COLS_LANES ||
                         c->rows_per_block != RT__ROWS_COLS_WIDTH ||
                         c->rows_in_flight != RT__ROWS_COLS_LOADS || c->rows_vec != 1,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->grid[1] != 1 || c->grid[2] != 1 ||
                         (int64_t)c->grid[0] * RT__ROWS_COLS_WIDTH < it->num_outputs,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->shared_memory_bytes <
                         (int64_t)(RT__ROWS_COLS_LANES - 1) * RT__ROWS_COLS_WIDTH * acc_size,
                     RT_ERR_INTERNAL);
        return RT_OK;
    }
    RT_RETURN_IF(it->num_reduce_dims != 1 || it->strides[RT__ITER_IN][0] != elem,
                 RT_ERR_INTERNAL);
    if (c->rows_block) {
        /* Whole warps up to the kernel's bound (512 threads for a row a
           block, 256 for two); a block for each row or pair of rows and no
           more (the kernel takes blockIdx.x as its row, unguarded);
           16-byte vectors (one row a block: any row start, the kernel
           reads a scalar head up to the first aligned one; two: aligned
           rows of whole vectors, one batch of them). rt__cuda_shared_bytes
           gives warps_reduce its states per warp and row. */
        const int rows = c->rows_per_block;
        /* One kind. */
        RT_RETURN_IF(c->rows_tile || c->rows_short || c->rows_warp, RT_ERR_INTERNAL);
        RT_RETURN_IF(rows != 1 && rows != 2, RT_ERR_INTERNAL);
        RT_RETURN_IF(c->block[0] < 32 || c->block[0] > 512 / rows || c->block[0] % 32 != 0 ||
                         c->rows_group != c->block[0],
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->grid[1] != 1 || c->grid[2] != 1 ||
                         c->grid[0] != (it->num_outputs + rows - 1) / rows,
                     RT_ERR_INTERNAL);
        /* 1, 2 or 4 vectors a thread; 3 in two passes of 16-bit values, a
           row a block (the kernel's instantiations). */
        const bool three = c->rows_in_flight == 3 && c->rows_two_pass && elem == 2 && rows == 1;
        RT_RETURN_IF(c->rows_vec * elem != 16 ||
                         (c->rows_in_flight != 1 && c->rows_in_flight != 2 &&
                          c->rows_in_flight != 4 && !three),
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(rows == 2 && (L % c->rows_vec != 0 || !rt__iter_input_aligned(it, 16, 0) ||
                                   L / c->rows_vec > (int64_t)c->rows_in_flight * c->block[0]),
                     RT_ERR_INTERNAL);
        /* Two passes over registers: var/std (the only ops with the
           two-pass kernel), aligned rows of whole vectors that one batch
           covers, exactly or in part (the kernel reads no head, no tail
           and no second batch), a power-of-two count of warps (its
           butterfly over them). */
        RT_RETURN_IF(c->rows_two_pass &&
                         (!op->row_two_pass || !is_pow2(c->block[0]) ||
                          L % c->rows_vec != 0 || !rt__iter_input_aligned(it, 16, 0) ||
                          L / c->rows_vec > (int64_t)c->rows_in_flight * c->block[0]),
                     RT_ERR_INTERNAL);
        /* Exact rows here also read one unguarded batch, no head and no
           tail: a row a block, aligned rows of exactly rows_in_flight x
           block[0] vectors, in two passes not at 3 vectors a thread (the
           two-pass kernel's exact path has no C = 3). */
        RT_RETURN_IF(c->rows_exact &&
                         (rows != 1 || (c->rows_two_pass && c->rows_in_flight == 3) ||
                          L % c->rows_vec != 0 || !rt__iter_input_aligned(it, 16, 0) ||
                          L / c->rows_vec != (int64_t)c->rows_in_flight * c->block[0]),
                     RT_ERR_INTERNAL);
        return RT_OK;
    }
    RT_RETURN_IF(c->rows_two_pass, RT_ERR_INTERNAL);
    RT_RETURN_IF(c->block[0] < 1 || c->block[0] > 256, RT_ERR_INTERNAL);
    RT_RETURN_IF(c->grid[1] != 1 || c->grid[2] != 1 || c->rows_per_block < 1, RT_ERR_INTERNAL);
    RT_RETURN_IF((int64_t)c->grid[0] * c->rows_per_block < it->num_outputs, RT_ERR_INTERNAL);
    if (c->rows_warp) {
        /* 1 to RT__ROWS_WARP_MAX_WARPS warps a block, each on
           RT__ROWS_WARP_ROWS adjacent rows of its own, scalar
           loads of 4-byte elements, RT__ROWS_WARP_MAX_LOADS or one fewer
           a lane a row (the kernel's two instantiations). */
        RT_RETURN_IF(c->rows_tile || c->rows_short, RT_ERR_INTERNAL); /* one kind */
        RT_RETURN_IF(c->block[0] < 32 || c->block[0] % 32 != 0 ||
                         c->block[0] > 32 * RT__ROWS_WARP_MAX_WARPS || c->rows_group != 32 ||
                         c->rows_in_flight != RT__ROWS_WARP_ROWS ||
                         c->rows_per_block != RT__ROWS_WARP_ROWS * (c->block[0] / 32),
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(elem != 4 || L <= 32 * (RT__ROWS_WARP_MAX_LOADS - 2) ||
                         L > 32 * RT__ROWS_WARP_MAX_LOADS,
                     RT_ERR_INTERNAL);
        /* Or a 16-byte vector a lane: aligned rows of at most 32 of them. */
        RT_RETURN_IF(c->rows_vec != 1 &&
                         (c->rows_vec * elem != 16 || L % c->rows_vec != 0 ||
                          L > 32 * (int64_t)c->rows_vec || !rt__iter_input_aligned(it, 16, 0)),
                     RT_ERR_INTERNAL);
        return RT_OK;
    }
    if (c->rows_tile) {
        /* Whole warps; lane groups of a power of two up to 32 lanes. */
        RT_RETURN_IF(c->block[0] % 32 != 0 || !is_pow2(c->rows_group) || c->rows_group > 32,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(it->ndim != 2 || it->strides[RT__ITER_IN][1] != L * elem, RT_ERR_INTERNAL);
        RT_RETURN_IF(((int64_t)c->rows_per_block * L + 16 / elem) * elem > c->shared_memory_bytes,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->rows_rot_shift < 0 || c->rows_rot_shift > 31 || c->rows_rot_mask < 0,
                     RT_ERR_INTERNAL);
        return RT_OK;
    }
    const int g = c->rows_group, v = c->rows_vec;
    RT_RETURN_IF(!is_pow2(g) || g > 32 || c->block[0] % 32 != 0, RT_ERR_INTERNAL);
    RT_RETURN_IF(c->rows_in_flight < 1 ||
                     c->rows_per_block != c->block[0] / 32 * c->rows_in_flight * (32 / g),
                 RT_ERR_INTERNAL);
    if (v != 1) {
        RT_RETURN_IF(v * elem != 16 || L % v != 0, RT_ERR_INTERNAL);
        RT_RETURN_IF(!rt__iter_input_aligned(it, 16, 0), RT_ERR_INTERNAL);
    }
    /* The short kernel: a thread per row of at most 8 scalars or one
       vector (reduce_rows.cuh ShortRows). */
    RT_RETURN_IF(c->rows_short && (g != 1 || (v == 1 ? L > RT__ROWS_SHORT_MAX : L != v)), RT_ERR_INTERNAL);
    return RT_OK;
}

/* The TINY kernel's conditions (reduce_tiny.cuh): one output, one
   contiguous run of at most RT__TINY_MAX_BYTES, one block of whole warps
   within its launch bound (it reads the head and the tail, each shorter
   than one vector of at most 16 elements, a scalar per thread). */
static rt_status check_tiny(const rt__iter *it, const rt__launch_config *c) {
    RT_RETURN_IF(!rt__iter_is_one_run(it) ||
                     it->inputs_per_output * it->elem_size[RT__ITER_IN] > RT__TINY_MAX_BYTES,
                 RT_ERR_INTERNAL);
    RT_RETURN_IF(c->block[0] < 32 || c->block[0] > RT__TINY_MAX_THREADS || c->block[0] % 32 != 0 ||
                     c->block[1] != 1 || c->block[2] != 1,
                 RT_ERR_INTERNAL);
    RT_RETURN_IF(c->grid[0] != 1 || c->grid[1] != 1 || c->grid[2] != 1, RT_ERR_INTERNAL);
    return RT_OK;
}

/* The STREAM kernel's conditions (reduce_tiny.cuh): one output, one
   contiguous run, blocks of exactly its launch bound, and chunks of whole
   block steps that cover the run's vectors (input_mult[2], with several
   blocks; one block reads the whole run). */
static rt_status check_stream(const rt__iter *it, const rt__op_traits *op,
                              const rt__launch_config *c) {
    RT_RETURN_IF(!rt__iter_is_one_run(it), RT_ERR_INTERNAL);
    RT_RETURN_IF(c->block[0] != RT__STREAM_THREADS || c->block[1] != 1 || c->block[2] != 1 ||
                     c->grid[0] < 1 || c->grid[1] != 1 || c->grid[2] != 1 ||
                     !c->vectorize_input || c->input_vec_size < 1,
                 RT_ERR_INTERNAL);
    const int64_t chunk = c->input_mult[2];
    /* Slots: a double state each, in groups of whole packs of two a
       thread, and two ints a block and a group (tuned_stream.c). */
    if (c->stream_slots) {
        RT_RETURN_IF(!c->stream_fold_last || !op->slot_state, RT_ERR_INTERNAL);
        const int64_t group = c->stream_slot_group, delay = c->stream_slot_delay;
        RT_RETURN_IF(group < 2 * c->block[0] || group % (2 * c->block[0]) != 0 ||
                         group > UINT32_MAX || delay < 1 || delay > UINT32_MAX,
                     RT_ERR_INTERNAL);
        RT_RETURN_IF(c->semaphore_count != 2 * (c->grid[0] + (c->grid[0] + group - 1) / group),
                     RT_ERR_INTERNAL);
    } else {
        RT_RETURN_IF(c->stream_slot_group != 0 || c->stream_slot_delay != 0, RT_ERR_INTERNAL);
    }
    /* The dependent fold: a partial a block in staging, no count. */
    RT_RETURN_IF(c->stream_dependent && (c->stream_fold_last || c->stream_slots ||
                                         c->semaphore_count != 0 || c->grid[0] < 2),
                 RT_ERR_INTERNAL);
    if (c->grid[0] == 1)
        return chunk == 0 && !c->stream_fold_last ? RT_OK : RT_ERR_INTERNAL;
    RT_RETURN_IF(chunk < c->block[0] || chunk % c->block[0] != 0, RT_ERR_INTERNAL);
    RT_RETURN_IF((int64_t)c->grid[0] * chunk < rt__config_input_units(it, c), RT_ERR_INTERNAL);
    return RT_OK;
}

rt_status rt__cuda_check_config(const rt__iter *it, const rt__op_traits *op,
                                const rt__launch_config *c) {
    if (c->kernel == RT__KERNEL_ROWS)
        return check_rows(it, op, c);
    if (c->kernel == RT__KERNEL_TINY)
        return check_tiny(it, c);
    if (c->kernel == RT__KERNEL_STREAM)
        return check_stream(it, op, c);
    const int R = it->num_reduce_dims;
    const int64_t elem = it->elem_size[RT__ITER_IN];
    const int bx = c->block[0], by = c->block[1], ovs = c->output_vec_size;
    RT_RETURN_IF(ovs != 1 && ovs != 2 && ovs != 4, RT_ERR_INTERNAL);
    RT_RETURN_IF(bx < 1 || by < 1 || c->block[2] != 1, RT_ERR_INTERNAL);
    /* The kernel's launch bounds (512 / ovs threads where unknown). */
    RT_RETURN_IF((int64_t)bx * by > rt__config_kernel_threads(op, ovs), RT_ERR_INTERNAL);
    RT_RETURN_IF(c->grid[0] < 1 || c->grid[1] < 1 || c->grid[1] > 65535 || c->grid[2] != 1,
                 RT_ERR_INTERNAL);
    /* block_x_reduce shuffles a row's first 32 lanes within one warp. Lanes
       that own outputs (TUNED rule 14's tiles of exactly the outputs'
       lanes) may be any count up to a warp. */
    if (rt__config_block_x_reduce(c))
        RT_RETURN_IF(!(bx <= 32 ? is_pow2(bx) : bx % 32 == 0), RT_ERR_INTERNAL);
    else
        RT_RETURN_IF(bx > 32 && bx % 32 != 0, RT_ERR_INTERNAL);
    RT_RETURN_IF(c->step_input < 1 || c->step_output < 1, RT_ERR_INTERNAL);
    /* Every thread index must map into the iteration (the kernel guards
       the ends, not the coverage): the output tiles must cover all outputs. */
    RT_RETURN_IF((int64_t)c->grid[0] * c->step_output * ovs < it->num_outputs, RT_ERR_INTERNAL);
    /* global_reduce finds the block's partial in threadIdx.y == 0. */
    RT_RETURN_IF(rt__config_global_reduce(c) && !rt__config_block_y_reduce(c), RT_ERR_INTERNAL);
    if (rt__config_global_reduce(c))
        RT_RETURN_IF(c->ctas_per_output < 2 || c->grid[1] != c->ctas_per_output, RT_ERR_INTERNAL);
    else
        RT_RETURN_IF(c->grid[1] != 1 || c->input_chunked, RT_ERR_INTERNAL);
    if (c->input_chunked) {
        /* Block y reads [y * chunk, (y + 1) * chunk) of the reduced index
           (vectors on the vector path), its threads at offsets below
           step_input: the chunks must cover it, and a chunk must be a
           whole number of block steps so that no offset is skipped. */
        const int64_t chunk = c->input_mult[2];
        RT_RETURN_IF(chunk < c->step_input || chunk % c->step_input != 0, RT_ERR_INTERNAL);
        RT_RETURN_IF((int64_t)c->ctas_per_output * chunk < rt__config_input_units(it, c),
                     RT_ERR_INTERNAL);
    }
    if (c->vectorize_input) {
        /* A contiguous fastest reduced dim, split over the lanes of a row.
           With several reduced dims no vector may straddle a row of it:
           its extent in bytes, the base and every other stride are
           multiples of the widest vector (vectorized_reduce has no head
           or tail). */
        RT_RETURN_IF(ovs != 1 || R < 1 || it->strides[RT__ITER_IN][0] != elem, RT_ERR_INTERNAL);
        RT_RETURN_IF(!rt__config_block_x_reduce(c) || c->output_mult[0] != 0, RT_ERR_INTERNAL);
        if (R > 1)
            RT_RETURN_IF((it->shape[0] * elem) % RT__ND_VEC_BYTES != 0 ||
                             !rt__iter_input_aligned(it, RT__ND_VEC_BYTES, 0),
                         RT_ERR_INTERNAL);
    }
    if (ovs > 1) {
        /* OVS adjacent outputs are OVS adjacent, aligned input elements
           (PyTorch's get_output_vec_size conditions). */
        const int64_t vb = elem * ovs;
        RT_RETURN_IF(R >= it->ndim || it->strides[RT__ITER_IN][R] != elem, RT_ERR_INTERNAL);
        RT_RETURN_IF(it->shape[R] % ovs != 0, RT_ERR_INTERNAL);
        RT_RETURN_IF(!rt__iter_input_aligned(it, vb, R), RT_ERR_INTERNAL);
    }
    return RT_OK;
}

int64_t rt__cuda_shared_bytes(const rt__launch_config *c, int acc_size) {
    const int64_t slots = (int64_t)c->block[0] * c->block[1] * c->output_vec_size;
    const bool lanes = rt__config_block_x_reduce(c) && c->block[0] > 32;
    int64_t need = 0;
    if (c->kernel == RT__KERNEL_TINY || c->kernel == RT__KERNEL_STREAM)
        return 0; /* static shared memory */
    if (c->kernel == RT__KERNEL_ROWS)
        need = c->rows_block ? (int64_t)(c->block[0] / 32) * c->rows_per_block * acc_size : 0;
    else if (rt__config_block_y_reduce(c) || rt__config_global_reduce(c) || lanes)
        need = slots * acc_size;
    return need > c->shared_memory_bytes ? need : c->shared_memory_bytes;
}

int64_t rt__cuda_staging_bytes(const rt__launch_config *c, int acc_size) {
    if (!rt__config_global_reduce(c))
        return 0;
    if (c->kernel == RT__KERNEL_STREAM) /* a state per block, unless in slots */
        return c->stream_slots ? 0 : (int64_t)c->grid[0] * acc_size;
    int64_t slots = (int64_t)c->grid[0] * c->grid[1];
    if (!rt__config_block_x_reduce(c))
        slots *= c->block[0];
    return slots * c->output_vec_size * acc_size;
}

int64_t rt__cuda_semaphores(const rt__launch_config *c) {
    if (!rt__config_global_reduce(c))
        return 0;
    /* STREAM: its config's count (one, or two a block and a group for
       stream_slots, tuned_stream.c). */
    return c->kernel == RT__KERNEL_STREAM ? c->semaphore_count : c->grid[0];
}

void rt__cuda_pack_iter(const rt__iter *it, rt__kernel_args *a) {
    const int R = it->num_reduce_dims;
    a->in_ndim = R;
    for (int d = 0; d < R; d++) {
        rt__divmod_init(&a->in_sizes[d], (uint32_t)it->shape[d]);
        a->in_strides[d] = stride32(it, RT__ITER_IN, d);
    }
    a->out_ndim = it->ndim - R;
    static const int slot_operand[4] = {RT__ITER_OUT, RT__ITER_IN, RT__ITER_IDX, RT__ITER_ACC};
    for (int d = R; d < it->ndim; d++) {
        rt__divmod_init(&a->out_sizes[d - R], (uint32_t)it->shape[d]);
        for (int s = 0; s < 4; s++) {
            int op = slot_operand[s];
            a->out_strides[d - R][s] = it->elem_size[op] != 0 ? stride32(it, op, d) : 0;
        }
    }
    for (int s = 0; s < 3; s++)
        a->exact_strides[s] = a->out_ndim > 0 ? a->out_strides[0][s] : 0;
    a->in = it->data[RT__ITER_IN];
    a->out = it->data[RT__ITER_OUT];
    a->idx = it->elem_size[RT__ITER_IDX] != 0 ? it->data[RT__ITER_IDX] : NULL;
    a->acc = it->elem_size[RT__ITER_ACC] != 0 ? it->data[RT__ITER_ACC] : NULL;
    a->num_inputs = (uint32_t)it->inputs_per_output;
    a->num_outputs = (uint32_t)it->num_outputs;
    a->index_base = it->index_base;
}

void rt__cuda_pack_index_map(const rt__iter *it, rt__index_map *m) {
    memset(m, 0, sizeof *m);
    const int R = it->num_reduce_dims;
    for (int d = 0; d < R; d++) {
        /* A digit's key weight: the extents of the logically faster dims
           (smaller index strides), whose digits the key holds below it. */
        uint32_t w = 1;
        if (it->shape[d] > 1)
            for (int k = 0; k < R; k++)
                if (k != d && it->shape[k] > 1 && it->index_strides[k] < it->index_strides[d])
                    w *= (uint32_t)it->shape[k];
        m->key_weight[d] = w;
        m->weight[d] = it->index_strides[d];
    }
}

void rt__cuda_pack_tiny(const rt__iter *it, const rt__kernel_args *op, bool first, bool last,
                        rt__tiny_args *a) {
    a->in = it->data[RT__ITER_IN];
    a->out = it->data[RT__ITER_OUT];
    a->idx = it->elem_size[RT__ITER_IDX] != 0 ? it->data[RT__ITER_IDX] : NULL;
    a->acc = it->elem_size[RT__ITER_ACC] != 0 ? it->data[RT__ITER_ACC] : NULL;
    a->staging = NULL;
    a->semaphores = NULL;
    a->num_inputs = (uint32_t)it->inputs_per_output;
    a->chunk = 0;
    a->fold_last = 0;
    a->fold_grid = 0;
    a->slot_group = 0;
    a->slot_delay = 0;
    a->out_dtype = op->out_dtype;
    a->first = first;
    a->last = last;
    a->index_base = it->index_base;
    a->op_mode = op->op_mode;
    a->param0 = op->param0;
    a->param1 = op->param1;
}

void rt__cuda_pack_config(const rt__launch_config *c, rt__kernel_args *a) {
    memcpy(a->input_mult, c->input_mult, sizeof a->input_mult);
    memcpy(a->output_mult, c->output_mult, sizeof a->output_mult);
    a->step_input = c->step_input;
    a->step_output = c->step_output;
    a->ctas_per_output = c->ctas_per_output;
    a->input_chunked = c->input_chunked ? 1 : 0;
    a->vectorize_input = c->vectorize_input ? 1 : 0;
    a->pipelined = c->pipelined ? 1 : 0;
    a->rows_group = c->rows_group;
    a->rows_per_block = c->rows_per_block;
    a->rows_exact = c->rows_exact ? 1 : 0;
    a->rows_rot_shift = c->rows_rot_shift;
    a->rows_rot_mask = c->rows_rot_mask;
}

/* Makes a walk uniform where it can (a->walk_count, walk_period,
   walk_lin): every thread's walk the same length, its first index linear
   in tx, ty and by, and, where digit 0 of the walk moves (dim k by r a
   step, of extent sk), its wraps on the same steps for every thread. A
   thread's index (in units of u elements) is idx = tx m0 + ty m1 + by m2
   (input_mult), below step_input for every thread (not chunked), so with
   end = the piece's units a multiple of the step each takes end / step
   steps. The term of multiplier m over n threads lands in the digit of
   dim d, the slowest whose faster extents' product P divides m u (q = m
   u / P units of dim d a thread); where q (n - 1), added to what the
   other terms put in that digit, stays below d's extent, no term
   carries, and the offset is the terms' sum, q x stride d bytes a thread
   each. Digit k starts below r in every thread and r divides sk: digit k
   wraps after steps sk / r - 1, 2 sk / r - 1, ... whatever the start. r 0:
   whole units, no digit 0. */
static void pack_uniform(const rt__iter *it, const rt__launch_config *c, int64_t u, int k,
                         int64_t r, rt__kernel_args *a) {
    const int R = it->num_reduce_dims;
    const int64_t step = c->step_input, total = it->inputs_per_output;
    const int64_t n[3] = {c->block[0], c->block[1], c->grid[1]};
    if (c->input_chunked || step < 1 || total % u != 0 || (total / u) % step != 0 || n[0] < 1 ||
        n[1] < 1 || n[2] < 1)
        return;
    int64_t idx_max = 0;
    for (int t = 0; t < 3; t++)
        idx_max += (n[t] - 1) * c->input_mult[t];
    if (idx_max >= step)
        return;
    int64_t digit_max[RT_MAX_DIMS] = {0};
    int32_t lin[3] = {0, 0, 0};
    for (int t = 0; t < 3; t++) {
        if (c->input_mult[t] <= 0 || n[t] <= 1)
            continue;
        const int64_t e = c->input_mult[t] * u;
        int64_t unit = 1;
        int d = 0;
        while (d + 1 < R && e % (unit * it->shape[d]) == 0)
            unit *= it->shape[d++];
        digit_max[d] += e / unit * (n[t] - 1);
        const int64_t bytes = e / unit * stride32(it, RT__ITER_IN, d);
        if (digit_max[d] >= it->shape[d] || bytes < INT32_MIN || bytes > INT32_MAX)
            return;
        lin[t] = (int32_t)bytes;
    }
    if (r > 0 && (digit_max[k] >= r || it->shape[k] % r != 0))
        return;
    a->walk_count = (uint32_t)(total / u / step);
    a->walk_period = r > 0 ? (uint32_t)(it->shape[k] / r) : 0;
    memcpy(a->walk_lin, lin, sizeof lin);
}

void rt__cuda_pack_walk(const rt__iter *it, const rt__launch_config *c, int input_vec,
                        rt__kernel_args *a) {
    /* A block step moves a thread's reduced index by E = step_input
       vectors (of input_vec elements) or elements. Where E is a whole
       number k of units of the slowest reduced dim (the product P of the
       faster reduced extents), only that dim's digit moves, by k, and it
       never carries: the offset moves by k times its stride. Where E is a
       whole number E' of units of the second slowest dim, dim k = R - 2
       (of R reduced dims; of one element for two), E' is q units of the
       slowest and r < s_k of dim k: digit k moves by r and wraps at most
       once into the slowest, which never carries, and the faster digits
       never move (walk_dim k, walk_extent s_k). One reduced dim needs no
       walk (the kernel multiplies). k or q at or above the slowest
       extent: no thread takes a second step. Every byte count here is a
       sum of digit times stride below the extents, which a 32-bit piece
       holds. */
    const int R = it->num_reduce_dims;
    a->walk = 0;
    a->walk_step = 0;
    a->walk_digit = 0;
    a->walk_carry = 0;
    a->walk_dim = 0;
    a->walk_extent = 0;
    a->walk_count = 0;
    a->walk_period = 0;
    memset(a->walk_lin, 0, sizeof a->walk_lin);
    /* Set below where a walk runs, and here for the pipelined strided
       path's count of batches. */
    rt__divmod_init(&a->step_div, c->pipelined ? (uint32_t)c->step_input : 0);
    if (c->kernel != RT__KERNEL_GENERAL || R < 2 || input_vec < 1)
        return;
    /* A unit of dim k = R - 2 (inner elements) and of the slowest dim
       (units = inner x s_k); a launched piece has no empty extent. */
    const int k = R - 2;
    int64_t inner = 1;
    for (int d = 0; d < k; d++)
        inner *= it->shape[d];
    const int64_t sk = it->shape[k], units = inner * sk;
    if (units < 1)
        return;
    const int64_t u = c->vectorize_input ? input_vec : 1, e = (int64_t)c->step_input * u;
    const int64_t slowest = it->shape[R - 1], t_slowest = stride32(it, RT__ITER_IN, R - 1);
    if (e % units == 0) {
        if (e / units >= slowest)
            return;
        a->walk_step = (int32_t)(e / units * t_slowest);
        pack_uniform(it, c, u, 0, 0, a);
    } else if (e % inner == 0) {
        const int64_t tk = stride32(it, RT__ITER_IN, k), ek = e / inner;
        const int64_t q = ek / sk, r = ek % sk, carry = t_slowest - sk * tk;
        if (q >= slowest || carry < INT32_MIN || carry > INT32_MAX)
            return;
        a->walk_step = (int32_t)(r * tk + q * t_slowest);
        a->walk_digit = (uint32_t)r;
        a->walk_carry = (int32_t)carry;
        a->walk_dim = k;
        a->walk_extent = (uint32_t)sk;
        pack_uniform(it, c, u, k, r, a);
    } else {
        return;
    }
    a->walk = 1;
    rt__divmod_init(&a->step_div, (uint32_t)c->step_input);
}

void rt__divmod_init(rt__divmod *dm, uint32_t d) {
    /* shift = ceil(log2(d)); magic = floor(2^32 * (2^shift - d) / d) + 1,
       which fits 32 bits because 2^(shift-1) < d (PyTorch's IntDivider). */
    if (d == 0) {
        /* Extent-0 dims appear only in iters with no work, whose offsets
           are never computed. */
        dm->divisor = 0;
        dm->magic = 0;
        dm->shift = 0;
        return;
    }
    uint32_t shift = 0;
    while (shift < 32 && ((uint64_t)1 << shift) < d)
        shift++;
    uint64_t magic = (((uint64_t)1 << 32) * (((uint64_t)1 << shift) - d)) / d + 1;
    dm->divisor = d;
    dm->magic = (uint32_t)magic;
    dm->shift = shift;
}

bool rt__cuda_lean_walk_fits(const rt__launch_config *c, const rt__kernel_args *a) {
    /* One output a block (output_mult 0, a step of one), its reduced
       index split over lanes and rows (input_mult[0], [1]) and not over
       blocks; whole warps; the vector path over several reduced dims
       with a uniform walk of whole units of the slowest (no digit 0,
       period 0), every thread the same count of whole windows. */
    return c->kernel == RT__KERNEL_GENERAL && c->output_vec_size == 1 && c->vectorize_input &&
           c->input_mult[0] != 0 && c->input_mult[1] != 0 && c->input_mult[2] == 0 &&
           c->ctas_per_output == 1 && c->grid[1] == 1 && !c->input_chunked &&
           c->output_mult[0] == 0 && c->output_mult[1] == 0 && c->step_output == 1 &&
           c->num_threads == c->block[0] * c->block[1] && c->num_threads % 32 == 0 &&
           c->num_threads <= 512 && (int64_t)c->grid[0] == (int64_t)a->num_outputs &&
           a->in_ndim >= 2 && a->out_ndim <= 2 && a->walk && a->walk_digit == 0 &&
           a->walk_period == 0 && a->walk_count > 0 && a->walk_count % RT__LEAN_WALK_LOADS == 0 &&
           a->first && a->last && a->acc == NULL && a->idx == NULL;
}

void rt__cuda_pack_lean(const rt__kernel_args *a, rt__walk_args *w) {
    memset(w, 0, sizeof *w);
    w->in = a->in;
    w->out = a->out;
    w->lin[0] = a->walk_lin[0];
    w->lin[1] = a->walk_lin[1];
    w->step = a->walk_step;
    w->count = a->walk_count;
    /* Output o: digit 0 o % size 0, digit 1 o / size 0 (none kept: 0, 0). */
    if (a->out_ndim > 0)
        w->div0 = a->out_sizes[0];
    else
        rt__divmod_init(&w->div0, 1);
    for (int d = 0; d < a->out_ndim && d < 2; d++) {
        w->in_strides[d] = a->out_strides[d][RT__OUT_SLOT_IN];
        w->out_strides[d] = a->out_strides[d][RT__OUT_SLOT_OUT];
    }
    w->out_dtype = a->out_dtype;
    w->op_mode = a->op_mode;
    w->param0 = a->param0;
    w->param1 = a->param1;
}

void rt__cuda_pack_piece(const rt__iter *it, const rt__launch_config *c, int input_vec,
                         bool walk_off, bool first, bool last, rt__kernel_args *a) {
    rt__cuda_pack_iter(it, a);
    rt__cuda_pack_config(c, a);
    rt__cuda_pack_walk(it, c, input_vec, a);
    if (walk_off)
        a->walk = 0;
    a->first = first;
    a->last = last;
}
