/*
 * Random reduction cases for the differential tests (CPU and CUDA).
 *
 * A case is a complete, valid call of reduce_tensor_ex: an op with its
 * parameters, an input tensor with fresh random data, dims, keepdim, an
 * output (and for min/max sometimes an int64 indices output), each tensor
 * living in its own host storage block that the case owns. Layouts cover
 * contiguous, permuted, sliced (gaps), broadcast (stride 0) and negative
 * strides, storage offsets that misalign the first element (never below
 * the element size), empty and size-1 dims, ranks 0..8.
 *
 * Device tests copy each block whole (rt_case_buf: base, bytes, and where
 * element [0..0] sits) and describe the device tensors with rt_case_rebase:
 * poison the host blocks (rt_case_poison), copy in_buf, out_buf and idx_buf
 * to device blocks of the same sizes, call with the rebased tensors, copy
 * out_buf and idx_buf back over the host blocks, then rt_ref_check (with
 * RT_ACC_GPU) reads the results, and the untouched gaps, from the host.
 *
 *     rt_case c;
 *     rt_case_opts o;
 *     rt_case_opts_init(&o);
 *     if (rt_case_make(&c, seed, &o) == 0) {
 *         rt_reduce_args a;
 *         rt_case_args(&c, &a);
 *         rt_case_poison(&c);
 *         rt_status s = reduce_tensor_ex(ctx, &a);
 *         ... rt_ref_check(&c, &ref, s, RT_ACC_CPU, msg, sizeof msg) ...
 *         rt_case_free(&c);
 *     }
 */
#ifndef RT_CASES_H
#define RT_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reduce_tensor.h"
#include "rt_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The byte every output storage block holds before a call. */
#define RT_CASE_POISON 0xA5

/* A host storage block that one tensor lives in. */
typedef struct rt_case_buf {
    unsigned char *base; /* malloc'ed block, owned by the case */
    size_t bytes;        /* size of the block */
    size_t elem0;        /* byte offset of element [0, ..., 0] from base */
} rt_case_buf;

/* What the generator may produce. Fill with rt_case_opts_init. */
typedef struct rt_case_opts {
    int op;            /* an rt_op, or -1 for random (default) */
    int dtype;         /* an input rt_dtype, or -1 for random (default); must
                          suit op (mean/var/std/norm need a float dtype) */
    int out_dtype;     /* an output rt_dtype, or -1 for random (default); must
                          be allowed for (op, dtype) */
    int max_rank;      /* 0 .. 8 (default 8) */
    int64_t max_elems; /* cap on the input's element count (default 6000) */
    int64_t big_lo;    /* range of the occasional large extent */
    int64_t big_hi;    /* (defaults 40 .. 3000) */
    double p_big;      /* chance a case gets a large extent (default 0.35) */
    double p_empty;    /* chance a case gets an extent 0 (default 0.06) */
    double p_special;  /* chance a float case gets NaN / inf (default 0.25) */
} rt_case_opts;

typedef struct rt_case {
    uint64_t seed;
    rt_op op;
    rt_tensor in;  /* data points into in_buf */
    rt_tensor out; /* data points into out_buf */
    rt_tensor idx; /* data points into idx_buf; only when has_idx */
    bool has_idx;  /* min/max with an indices output */
    int dims[RT_MAX_DIMS];
    int ndims; /* 0: every dim */
    bool keepdim;
    double correction;                    /* var/std (1 otherwise) */
    double p;                             /* norm (2 otherwise) */
    rt_case_buf in_buf, out_buf, idx_buf; /* idx_buf empty without has_idx */
} rt_case;

/* Sets the defaults listed in rt_case_opts. */
void rt_case_opts_init(rt_case_opts *o);

/*
 * Builds the case of `seed` (the same seed and opts give the same case,
 * data included). Returns 0, or -1 when an allocation fails or opts are
 * contradictory (then nothing needs freeing).
 */
int rt_case_make(rt_case *c, uint64_t seed, const rt_case_opts *o);

/* Frees the case's storage. Accepts a zeroed case. */
void rt_case_free(rt_case *c);

/* Fills *a for reduce_tensor_ex; pointers refer to c (keep c alive). */
void rt_case_args(const rt_case *c, rt_reduce_args *a);

/* Fills every output block (values and indices) with RT_CASE_POISON. */
void rt_case_poison(rt_case *c);

/* The tensor t (living in host block b) as it would be at a copy of b
   based at new_base, e.g. a device buffer of b->bytes bytes. */
rt_tensor rt_case_rebase(const rt_tensor *t, const rt_case_buf *b, void *new_base);

/* One-line description: seed, op and parameters, each tensor's dtype,
   shape, strides and storage offset, dims, keepdim. snprintf convention. */
int rt_case_describe(const rt_case *c, char *buf, size_t size);

/* What a test run covered, for its log. */
typedef struct rt_case_tally {
    int cases;
    int per_op[RT_OP_COUNT];
    int per_dtype[RT_DTYPE_COUNT]; /* input dtypes */
    int rank0, empty, keepdim, indices;
    int negative, broadcast; /* inputs with such a stride on a dim of extent > 1 */
} rt_case_tally;

/* Counts c into t (zero t first). */
void rt_case_tally_add(rt_case_tally *t, const rt_case *c);
/* Prints t on two lines, each starting with "[ name ]". */
void rt_case_tally_print(const rt_case_tally *t, const char *name, FILE *f);

/* Shape helpers shared with the oracle. */

/* The reduced-dim mask of the case (bit d: input dim d reduced). */
uint32_t rt_case_mask(const rt_case *c);
/* Halves t's largest extent (the first of equals) until its element count
   is at most max; an empty t is left as it is. Safe for any extents. */
void rt_case_cap_elems(rt_tensor *t, int64_t max);
/* Number of elements of t (product of extents; 1 for 0-d). */
int64_t rt_case_numel(const rt_tensor *t);
/* Byte offset from t->data of the element with row-major linear index lin. */
int64_t rt_case_offset(const rt_tensor *t, int64_t lin);
/* Whether output dtype `out` is allowed for (op, in), from the documented
   rules (written independently of the library's rt_reduce_out_dtype_ok). */
bool rt_case_out_dtype_allowed(rt_op op, rt_dtype in, rt_dtype out);
/* Whether op is defined for input dtype in. */
bool rt_case_op_allowed(rt_op op, rt_dtype in);

#ifdef __cplusplus
}
#endif

#endif /* RT_CASES_H */
