/*
 * Host dispatch: (family, input dtype) -> the instantiation's entry, one
 * case per row of RT__FOR_EACH_KERNEL, the list the .cu files instantiate;
 * the same for the ROWS and TINY kernels' launches.
 */
#include "launch.h"

const rt__kernel_entry *rt__kernel_lookup(rt__family family, rt_dtype in_dtype) {
    if ((int)family < 0 || family >= RT__FAM_COUNT || !rt__dtype_valid(in_dtype))
        return NULL;
    switch ((int)family * RT_DTYPE_COUNT + (int)in_dtype) {
#define RT__KERNEL_CASE(fam, FAM, sfx, DT)                                                         \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT:                                                      \
        return &rt__kernel_##fam##_##sfx;
        RT__FOR_EACH_KERNEL(RT__KERNEL_CASE)
#undef RT__KERNEL_CASE
    default:
        return NULL;
    }
}

rt__launch_fn rt__rows_lookup(rt__family family, rt_dtype in_dtype) {
    if ((int)family < 0 || family >= RT__FAM_COUNT || !rt__dtype_valid(in_dtype))
        return NULL;
    switch ((int)family * RT_DTYPE_COUNT + (int)in_dtype) {
#define RT__ROWS_CASE(fam, FAM, sfx, DT)                                                           \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT:                                                      \
        return rt__rows_##fam##_##sfx;
        RT__FOR_EACH_KERNEL(RT__ROWS_CASE)
#undef RT__ROWS_CASE
    default:
        return NULL;
    }
}

rt__tiny_launch_fn rt__tiny_lookup(rt__family family, rt_dtype in_dtype) {
    if ((int)family < 0 || family >= RT__FAM_COUNT || !rt__dtype_valid(in_dtype))
        return NULL;
    switch ((int)family * RT_DTYPE_COUNT + (int)in_dtype) {
#define RT__TINY_CASE(fam, FAM, sfx, DT)                                                           \
    case RT__FAM_##FAM * RT_DTYPE_COUNT + DT:                                                      \
        return rt__tiny_##fam##_##sfx;
        RT__FOR_EACH_KERNEL(RT__TINY_CASE)
#undef RT__TINY_CASE
    default:
        return NULL;
    }
}
