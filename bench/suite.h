/*
 * The benchmark suite: one table of cases (suite.c) and what can be derived
 * from a case without a GPU (element counts, storage span, output shape,
 * whether CUB applies, its JSON description). rt_bench runs the table;
 * compare_torch.py reads the same table from `rt_bench --list-json`.
 */
#ifndef RT_BENCH_SUITE_H
#define RT_BENCH_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "reduce_tensor.h"

typedef enum rt__bench_kind {
    RT__BENCH_REDUCE = 0,       /* time one reduction, median over reps */
    RT__BENCH_HOST_OVERHEAD = 1 /* back-to-back calls then one sync: calls per second */
} rt__bench_kind;

/*
 * One case. The input is a view of a storage buffer: element [0,..,0] is
 * at `offset` elements from the buffer's start, and it has `shape` and
 * `strides` (elements, all >= 0). With `strided` false the strides are
 * the contiguous row-major ones and are filled in by rt__bench_case_layout.
 */
typedef struct rt__bench_case {
    const char *name;  /* unique, [a-z0-9_.x] only: used by --filter and in JSON */
    const char *group; /* what it stresses: "design", "rows", "outer", "ndim", ... */
    const char *view;  /* how a PyTorch user makes this input, for humans */
    rt__bench_kind kind;
    rt_op op;
    rt_dtype dtype;
    int ndim;
    int64_t shape[RT_MAX_DIMS];
    bool strided;
    int64_t strides[RT_MAX_DIMS];
    int64_t offset;
    int ndims; /* 0 reduces every dim */
    int dims[RT_MAX_DIMS];
    bool keepdim;
    double p;       /* norm order; 0 in the table means the default, 2 */
    bool sparse;    /* fill mostly zeros (any/all) instead of never-zero values */
} rt__bench_case;

/* The table and its length. */
extern const rt__bench_case rt__bench_suite[];
extern const int rt__bench_suite_len;

/*
 * A case with everything derived: its input and output descriptors (data
 * NULL), element counts and byte counts. Built by rt__bench_case_layout.
 */
typedef struct rt__bench_layout {
    rt_tensor in;        /* data NULL; strides filled in */
    rt_tensor out;       /* contiguous output of rt_reduce_shape's shape, data NULL */
    int64_t in_numel;    /* elements the reduction reads */
    int64_t out_numel;   /* elements it writes */
    int64_t storage;     /* elements of the buffer the view lives in (offset + span) */
    size_t read_bytes;   /* in_numel * element size */
    size_t write_bytes;  /* out_numel * output element size */
    size_t storage_bytes;
    double p;            /* the norm order actually used */
    /* CUB peer: 0 none, 1 DeviceReduce::Sum (one output), 2 segmented row
       sums; cub_rows x cub_row_len is the contiguous matrix it sees. */
    int cub;
    int64_t cub_rows;
    int64_t cub_row_len;
} rt__bench_layout;

/*
 * Derives the layout of case c. Errors: whatever rt_reduce_shape or
 * rt_reduce_default_dtype report for a malformed case, RT_ERR_BAD_ARGUMENT
 * for a negative stride or offset, RT_ERR_OVERFLOW for a span over int64.
 */
rt_status rt__bench_case_layout(const rt__bench_case *c, rt__bench_layout *l);

/* True when name contains filter, or any entry of a comma-separated filter
   (NULL or "" matches everything). */
bool rt__bench_case_matches(const rt__bench_case *c, const char *filter);

/*
 * Writes case c's description as a JSON object's members (no braces), e.g.
 * `"name": "...", "op": "sum", ..., "storage": 123`, so that callers can
 * append result members. `indent` is written before each member.
 */
void rt__bench_case_json(FILE *f, const rt__bench_case *c, const rt__bench_layout *l,
                         const char *indent);

/* Writes s (NULL: "") as a JSON string literal, escaping quotes,
   backslashes and control characters. */
void rt__bench_json_string(FILE *f, const char *s);

/* Prints `{"cases": [...]}` with every case matching filter, to f. Returns
   RT_OK, or the first case's layout error (a broken table; the case is
   named on stderr and nothing is printed to f). */
rt_status rt__bench_list_json(FILE *f, const char *filter);

#endif /* RT_BENCH_SUITE_H */
