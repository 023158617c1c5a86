/*
 * The benchmark suite, in one table, and what follows from a case without
 * a GPU. Sizes: most cases read 2^26..2^27 f32-sized elements (256-512 MB),
 * far above any L2 (50 MB on H100, 60 MB on H200), so DRAM bandwidth is what
 * they measure; the "size" group walks a full sum from 4 KB to 1 GB.
 */
#include "suite.h"

#include <string.h>

/* Shorthands that keep each row on one or two lines. */
#define SHAPE(...) .ndim = (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), \
                   .shape = {__VA_ARGS__}
#define DIMS(...) .ndims = (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)), .dims = {__VA_ARGS__}
#define STRIDES(...) .strided = true, .strides = {__VA_ARGS__}

/* Full f32 sum of n elements: the "size" sweep. */
#define FULL_SUM(label, n)                                                                         \
    {.name = "sum_full_" label, .group = "size", .view = "x[" #n "].sum()", .op = RT_OP_SUM,      \
     .dtype = RT_F32, SHAPE(n)}

const rt__bench_case rt__bench_suite[] = {
    /* DESIGN.md section 7: the cases with PyTorch 2.11 reference numbers. */
    {.name = "sum_full_2e27", .group = "design", .view = "x[2^27].sum()", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(134217728)},
    {.name = "sum_32768x4096_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "sum_4096x32768_d0", .group = "design", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(4096, 32768), DIMS(0)},
    {.name = "sum_64x128x64x128_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(64, 128, 64, 128), DIMS(1)},
    {.name = "sum_4194304x32_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(4194304, 32), DIMS(1)},
    {.name = "sum_33554432x4_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(33554432, 4), DIMS(1)},
    {.name = "sum_16777216x8_d0", .group = "design", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(16777216, 8), DIMS(0)},
    {.name = "sum_32x256x64x256_d02", .group = "design", .view = "x.sum((0, 2))",
     .op = RT_OP_SUM, .dtype = RT_F32, SHAPE(32, 256, 64, 256), DIMS(0, 2)},
    {.name = "sum_16384x8192t_d1", .group = "design", .view = "x[16384,8192].t().sum(1)",
     .op = RT_OP_SUM, .dtype = RT_F32, SHAPE(8192, 16384), STRIDES(1, 8192), DIMS(1)},
    {.name = "bf16_sum_32768x4096_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_BF16, SHAPE(32768, 4096), DIMS(1)},
    {.name = "f16_sum_4096x32768_d0", .group = "design", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_F16, SHAPE(4096, 32768), DIMS(0)},
    {.name = "var_32768x4096_d1", .group = "design", .view = "x.var(1)", .op = RT_OP_VAR,
     .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "argmax_32768x4096_d1", .group = "design", .view = "x.argmax(1)",
     .op = RT_OP_ARGMAX, .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "sum_1024x1024_d1", .group = "design", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(1024, 1024), DIMS(1)},
    {.name = "sum_full_256", .group = "design", .view = "x[256].sum()", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(256)},

    /* Inner (contiguous) reductions of short and odd row lengths, 2^26
       elements each: the shapes where one warp per row wastes lanes. */
    {.name = "sum_22369621x3_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(22369621, 3), DIMS(1)},
    {.name = "sum_9586980x7_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(9586980, 7), DIMS(1)},
    {.name = "sum_2033601x33_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(2033601, 33), DIMS(1)},
    /* Rows of 100: the warp kernel at two warps a block (v1.20). */
    {.name = "sum_671088x100_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(671088, 100), DIMS(1)},
    {.name = "sum_528416x127_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(528416, 127), DIMS(1)},
    {.name = "sum_520222x129_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(520222, 129), DIMS(1)},
    {.name = "sum_67108x1000_d1", .group = "rows", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(67108, 1000), DIMS(1)},

    /* Outer reductions with 1 and 100 outputs (8: sum_16777216x8_d0). */
    {.name = "sum_67108864x1_d0", .group = "outer", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(67108864, 1), DIMS(0)},
    {.name = "sum_671088x100_d0", .group = "outer", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_F32, SHAPE(671088, 100), DIMS(0)},

    /* Three non-adjacent reduced dims (two: sum_32x256x64x256_d02). */
    {.name = "sum_32x32x16x32x128_d024", .group = "ndim", .view = "x.sum((0, 2, 4))",
     .op = RT_OP_SUM, .dtype = RT_F32, SHAPE(32, 32, 16, 32, 128), DIMS(0, 2, 4)},

    /* Views: a channels-last tensor seen as NCHW (per-channel batch-norm
       statistics), an aligned column slice and a slice that starts one
       element in, so no row is 16-byte aligned. */
    {.name = "mean_nhwc_32x256x64x64_d023", .group = "view",
     .view = "x[32,64,64,256].permute(0,3,1,2).mean((0,2,3))", .op = RT_OP_MEAN,
     .dtype = RT_F32, SHAPE(32, 256, 64, 64), STRIDES(1048576, 1, 16384, 256), DIMS(0, 2, 3)},
    {.name = "sum_slice_16384x8192_c4096_d1", .group = "view", .view = "x[16384,8192][:, :4096].sum(1)",
     .op = RT_OP_SUM, .dtype = RT_F32, SHAPE(16384, 4096), STRIDES(8192, 1), DIMS(1)},
    {.name = "sum_slice_16384x4097_c1_d1", .group = "view", .view = "x[16384,4097][:, 1:].sum(1)",
     .op = RT_OP_SUM, .dtype = RT_F32, SHAPE(16384, 4096), STRIDES(4097, 1), .offset = 1,
     DIMS(1)},

    /* Element types. */
    {.name = "f16_sum_32768x4096_d1", .group = "dtype", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F16, SHAPE(32768, 4096), DIMS(1)},
    {.name = "bf16_sum_4096x32768_d0", .group = "dtype", .view = "x.sum(0)", .op = RT_OP_SUM,
     .dtype = RT_BF16, SHAPE(4096, 32768), DIMS(0)},
    {.name = "f64_sum_16384x4096_d1", .group = "dtype", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_F64, SHAPE(16384, 4096), DIMS(1)},
    {.name = "i32_sum_32768x4096_d1", .group = "dtype", .view = "x.sum(1) (int64 out)",
     .op = RT_OP_SUM, .dtype = RT_I32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "i64_sum_16384x4096_d1", .group = "dtype", .view = "x.sum(1)", .op = RT_OP_SUM,
     .dtype = RT_I64, SHAPE(16384, 4096), DIMS(1)},
    /* Full sums of 512 MiB in other element types (the STREAM kernel's
       16- and 32-byte vectors, 8-byte states). */
    {.name = "bf16_sum_full_2e28", .group = "dtype", .view = "x[2^28].sum()", .op = RT_OP_SUM,
     .dtype = RT_BF16, SHAPE(268435456)},
    {.name = "f64_sum_full_2e26", .group = "dtype", .view = "x[2^26].sum()", .op = RT_OP_SUM,
     .dtype = RT_F64, SHAPE(67108864)},
    {.name = "i32_sum_full_2e27", .group = "dtype", .view = "x[2^27].sum() (int64 out)",
     .op = RT_OP_SUM, .dtype = RT_I32, SHAPE(134217728)},

    /* Other ops, inner, outer and full. */
    {.name = "mean_32768x4096_d1", .group = "ops", .view = "x.mean(1)", .op = RT_OP_MEAN,
     .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "amax_32768x4096_d1", .group = "ops", .view = "x.amax(1)", .op = RT_OP_MAX,
     .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "std_32768x4096_d1", .group = "ops", .view = "x.std(1)", .op = RT_OP_STD,
     .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1)},
    {.name = "var_4096x32768_d0", .group = "ops", .view = "x.var(0)", .op = RT_OP_VAR,
     .dtype = RT_F32, SHAPE(4096, 32768), DIMS(0)},
    {.name = "norm2_32768x4096_d1", .group = "ops", .view = "torch.linalg.vector_norm(x, 2, 1)",
     .op = RT_OP_NORM, .dtype = RT_F32, SHAPE(32768, 4096), DIMS(1), .p = 2.0},
    {.name = "any_bool_32768x4096_d1", .group = "ops", .view = "x.any(1)", .op = RT_OP_ANY,
     .dtype = RT_BOOL, SHAPE(32768, 4096), DIMS(1), .sparse = true},
    {.name = "argmax_4096x32768_d0", .group = "ops", .view = "x.argmax(0)", .op = RT_OP_ARGMAX,
     .dtype = RT_F32, SHAPE(4096, 32768), DIMS(0)},
    {.name = "amax_full_2e27", .group = "ops", .view = "x[2^27].amax()", .op = RT_OP_MAX,
     .dtype = RT_F32, SHAPE(134217728)},
    {.name = "argmax_full_2e27", .group = "ops", .view = "x[2^27].argmax()", .op = RT_OP_ARGMAX,
     .dtype = RT_F32, SHAPE(134217728)},
    /* Index tracking over a permuted input: the reduced dims run in
       memory order, the kernel's states carry rt__index_map keys (v1.44);
       PyTorch's flat argmax copies the view first. */
    {.name = "argmax_full_16384x8192t", .group = "ops", .view = "x[16384,8192].t().argmax()",
     .op = RT_OP_ARGMAX, .dtype = RT_F32, SHAPE(8192, 16384), STRIDES(1, 8192)},

    /* A full f32 sum from 4 KB to 1 GB: the latency end to the DRAM end. */
    FULL_SUM("4KB", 1024),
    FULL_SUM("16KB", 4096),
    FULL_SUM("64KB", 16384),
    FULL_SUM("256KB", 65536),
    FULL_SUM("1MB", 262144),
    FULL_SUM("4MB", 1048576),
    FULL_SUM("16MB", 4194304),
    FULL_SUM("64MB", 16777216),
    FULL_SUM("256MB", 67108864),
    FULL_SUM("1GB", 268435456),

    /* Host overhead: back-to-back calls on a tiny tensor, one sync. */
    {.name = "host_sum_256", .group = "host", .view = "x[256].sum() x N", .op = RT_OP_SUM,
     .kind = RT__BENCH_HOST_OVERHEAD, .dtype = RT_F32, SHAPE(256)},
};

const int rt__bench_suite_len = (int)(sizeof(rt__bench_suite) / sizeof(rt__bench_suite[0]));

bool rt__bench_case_matches(const rt__bench_case *c, const char *filter) {
    if (filter == NULL || filter[0] == '\0')
        return true;
    /* A comma-separated list: any of its substrings. */
    for (const char *p = filter; *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        for (const char *n = c->name; len > 0 && strlen(n) >= len; n++)
            if (strncmp(n, p, len) == 0)
                return true;
        p += len + (comma ? 1 : 0);
    }
    return false;
}

/* Whether the reduction is "rows of a contiguous matrix": a contiguous
   input whose reduced dims (ignoring extent-1 dims) all come after its
   kept dims. That is the layout CUB's reductions take. */
static bool is_contiguous_rows(const rt__bench_case *c, uint32_t mask) {
    if (c->strided || c->offset != 0)
        return false;
    bool seen_reduced = false;
    for (int d = 0; d < c->ndim; ++d) {
        if (c->shape[d] == 1)
            continue;
        bool reduced = (mask >> d) & 1u;
        if (!reduced && seen_reduced)
            return false;
        seen_reduced = seen_reduced || reduced;
    }
    return true;
}

rt_status rt__bench_case_layout(const rt__bench_case *c, rt__bench_layout *l) {
    memset(l, 0, sizeof(*l));
    rt_tensor *in = &l->in;
    in->dtype = c->dtype;
    in->ndim = c->ndim;
    if (c->offset < 0)
        return RT_ERR_BAD_ARGUMENT;
    int64_t numel = 1, span = 0, stride = 1;
    for (int d = c->ndim - 1; d >= 0; --d) {
        in->shape[d] = c->shape[d];
        in->strides[d] = c->strided ? c->strides[d] : stride;
        if (in->strides[d] < 0)
            return RT_ERR_BAD_ARGUMENT;
        if (c->shape[d] > 0 && in->strides[d] > (INT64_MAX - span) / c->shape[d])
            return RT_ERR_OVERFLOW;
        span += (c->shape[d] > 0 ? c->shape[d] - 1 : 0) * in->strides[d];
        stride *= c->shape[d];
        numel *= c->shape[d];
    }
    l->in_numel = numel;
    l->storage = numel > 0 ? c->offset + span + 1 : c->offset;

    rt_dtype out_dtype;
    rt_status s = rt_reduce_default_dtype(c->op, c->dtype, &out_dtype);
    if (s != RT_OK)
        return s;
    l->out.dtype = out_dtype;
    s = rt_reduce_shape(in, c->dims, c->ndims, c->keepdim, &l->out.ndim, l->out.shape);
    if (s != RT_OK)
        return s;
    l->out_numel = 1;
    for (int d = l->out.ndim - 1; d >= 0; --d) {
        l->out.strides[d] = l->out_numel;
        l->out_numel *= l->out.shape[d];
    }
    l->read_bytes = (size_t)numel * rt_dtype_size(c->dtype);
    l->write_bytes = (size_t)l->out_numel * rt_dtype_size(out_dtype);
    l->storage_bytes = (size_t)l->storage * rt_dtype_size(c->dtype);
    l->p = c->p != 0.0 ? c->p : 2.0;

    uint32_t mask = 0;
    for (int i = 0; i < c->ndims; ++i)
        mask |= 1u << (c->dims[i] < 0 ? c->dims[i] + c->ndim : c->dims[i]);
    if (c->ndims == 0)
        mask = c->ndim >= 32 ? UINT32_MAX : (1u << c->ndim) - 1u;
    if (c->kind == RT__BENCH_REDUCE && c->op == RT_OP_SUM && c->dtype == RT_F32 &&
        out_dtype == RT_F32 && numel > 0 && is_contiguous_rows(c, mask)) {
        l->cub_rows = l->out_numel;
        l->cub_row_len = numel / l->out_numel;
        l->cub = l->cub_rows == 1 ? 1 : 2;
    }
    return RT_OK;
}
