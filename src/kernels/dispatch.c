/*
 * Host dispatch: (family, input dtype) -> what its instantiations export,
 * one case per row of RT__FOR_EACH_KERNEL, the list the .cu files
 * instantiate: the general kernel's entry and the ROWS and TINY launches;
 * the keyed general kernels of RT__FOR_EACH_KEYED_KERNEL; and the LEAN walk
 * kernels of RT__FOR_EACH_WALK_KERNEL.
 */
#include "launch.h"

typedef struct kernel_row {
    const rt__kernel_entry *entry;
    const rt__launch_fn *rows;
    const rt__tiny_launch_fn *tiny;
} kernel_row;

/* The case label of (family, dtype) in the switches below; -1 (no case)
   when either is out of range. */
static int key_of(rt__family family, rt_dtype in_dtype) {
    if ((int)family < 0 || family >= RT__FAM_COUNT || !rt__dtype_valid(in_dtype))
        return -1;
    return (int)family * RT_DTYPE_COUNT + (int)in_dtype;
}

/* The row of (family, dtype), NULL if none. */
static const kernel_row *row_of(rt__family family, rt_dtype in_dtype) {
    switch (key_of(family, in_dtype)) {
#define RT__ROW_CASE(fam, FAM, sfx, DT)                                                            \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT: {                                                    \
        static const kernel_row row = {&rt__kernel_##fam##_##sfx, &rt__rows_##fam##_##sfx,       \
                                       &rt__tiny_##fam##_##sfx};                                   \
        return &row;                                                                               \
    }
        RT__FOR_EACH_KERNEL(RT__ROW_CASE)
#undef RT__ROW_CASE
    default:
        return NULL;
    }
}

const rt__kernel_entry *rt__kernel_lookup(rt__family family, rt_dtype in_dtype) {
    const kernel_row *r = row_of(family, in_dtype);
    return r != NULL ? r->entry : NULL;
}

rt__launch_fn rt__rows_lookup(rt__family family, rt_dtype in_dtype) {
    const kernel_row *r = row_of(family, in_dtype);
    return r != NULL ? *r->rows : NULL;
}

rt__tiny_launch_fn rt__tiny_lookup(rt__family family, rt_dtype in_dtype) {
    const kernel_row *r = row_of(family, in_dtype);
    return r != NULL ? *r->tiny : NULL;
}

rt__keyed_launch_fn rt__keyed_lookup(rt__family family, rt_dtype in_dtype) {
    switch (key_of(family, in_dtype)) {
#define RT__KEYED_CASE(fam, FAM, sfx, DT)                                                          \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT:                                                      \
        return rt__keyed_##fam##_##sfx;
        RT__FOR_EACH_KEYED_KERNEL(RT__KEYED_CASE)
#undef RT__KEYED_CASE
    default:
        return NULL;
    }
}

rt__launch_fn rt__walk_lookup(rt__family family, rt_dtype in_dtype) {
    switch (key_of(family, in_dtype)) {
#define RT__WALK_CASE(fam, FAM, sfx, DT)                                                           \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT:                                                      \
        return rt__walk_##fam##_##sfx;
        RT__FOR_EACH_WALK_KERNEL(RT__WALK_CASE)
#undef RT__WALK_CASE
    default:
        return NULL;
    }
}
