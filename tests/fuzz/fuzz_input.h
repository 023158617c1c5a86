/*
 * The fuzz target's input: bytes decoded into one complete call of
 * reduce_tensor_ex, its tensors placed in one arena of poisoned memory
 * with the input's values written (fuzz_reduce.c says what is checked).
 * Bytes past the end read as 0, so every input, the empty one too,
 * decodes to a call.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reduce_tensor.h"
#include "rt_cases.h"

enum { FZ_IN = 0, FZ_OUT = 1, FZ_IDX = 2 };

typedef struct fz_call {
    rt_reduce_args args; /* points at the tensors and dims below */
    rt_tensor in, out, idx;
    int dims[RT_MAX_DIMS];
    int num_threads;
    unsigned weird; /* which kinds of wrong input the bytes asked for */
    unsigned char *arena;
    size_t arena_bytes;
    /* Each tensor's region of the arena: base, bytes, and where element
       [0, ..., 0] sits in it (as rt_case's blocks). A tensor whose span is
       too large to hold gets a small region its data points into; the
       call must then fail before reading it. */
    rt_case_buf region[3];
} fz_call;

/* Decodes bytes into *c and allocates its arena. Returns false (nothing to
   free) for a call too expensive to run or check on the CPU: a valid call
   over more than 2^20 input elements, or an allocation failure. */
bool fz_decode(const uint8_t *data, size_t size, fz_call *c);

void fz_free(fz_call *c);

/* One line: op and parameters, each tensor's dtype, shape, strides and
   place in the arena, dims, keepdim, policy, threads. snprintf convention. */
int fz_describe(const fz_call *c, char *buf, size_t size);

#endif /* FUZZ_INPUT_H */
