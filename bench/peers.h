/*
 * The benchmark's CUDA side (bench/peers.cu), callable from C: the random
 * fill, the streaming-read ceiling kernel and the CUB peers. Everything is
 * enqueued on the given stream and never synchronises; errors come back as
 * the cudaError_t of the failing runtime call (cudaSuccess otherwise).
 */
#ifndef RT_BENCH_PEERS_H
#define RT_BENCH_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the fill writes. */
typedef enum rt__bench_fill {
    RT__BENCH_FILL_DENSE = 0, /* never zero: floats in [0.5, 1.5), integers 1..100, bool 1 */
    RT__BENCH_FILL_SPARSE = 1 /* zero except about one element in 2^14 (for any/all) */
} rt__bench_fill;

/*
 * Fills count elements of dtype `dtype` (an rt_dtype value) at dst with
 * values derived from a hash of (seed, element index), so the same seed
 * gives the same data on any GPU and in any launch shape. Float values are
 * distinct enough that argmin/argmax rarely tie. Returns
 * cudaErrorInvalidValue for an unknown dtype or fill.
 */
cudaError_t rt__bench_fill_launch(void *dst, int64_t count, int dtype, int fill, uint64_t seed,
                                  cudaStream_t stream);

/*
 * The streaming-read ceiling: reads the first (nbytes / 16) * 16 bytes at
 * src (16-byte aligned) with float4 loads, grid-stride, four independent
 * loads in flight per thread, and writes one float per block to
 * block_sums so the loads cannot be optimised away. block_sums must hold
 * rt__bench_read_blocks() floats. Returns the bytes it reads.
 */
size_t rt__bench_read_launch(const void *src, size_t nbytes, float *block_sums,
                             cudaStream_t stream);

/* The grid size rt__bench_read_launch uses at most on the current device
   (one full wave); 0 if the device cannot be queried. */
int rt__bench_read_blocks(void);

/*
 * CUB's DeviceReduce::Sum over n floats at in into *out. With temp NULL,
 * writes the temporary storage size it needs to *temp_bytes and does no
 * work (CUB's convention); then call again with that much device memory.
 */
cudaError_t rt__bench_cub_sum(void *temp, size_t *temp_bytes, const float *in, float *out,
                              int64_t n, cudaStream_t stream);

/*
 * CUB's DeviceSegmentedReduce::Sum over `rows` contiguous rows of row_len
 * floats each (row r is in[r * row_len .. (r + 1) * row_len)) into
 * out[0 .. rows). The segment offsets are computed by an iterator, so
 * nothing but the data is read. Same temporary-storage convention as
 * rt__bench_cub_sum.
 */
cudaError_t rt__bench_cub_row_sum(void *temp, size_t *temp_bytes, const float *in, float *out,
                                  int64_t rows, int64_t row_len, cudaStream_t stream);

/*
 * A one-thread kernel that spins for `cycles` of its SM's clock (clock64)
 * and touches no memory. Queued ahead of a timed call's start event
 * (rt_bench --spin-us), it keeps the GPU busy while the host queues the
 * call, so the events bracket the GPU's work alone.
 */
cudaError_t rt__bench_spin_launch(long long cycles, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* RT_BENCH_PEERS_H */
