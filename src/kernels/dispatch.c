/*
 * Host dispatch: (family, input dtype) -> the instantiation's entry, one
 * case per row of RT__FOR_EACH_KERNEL, the list the .cu files instantiate.
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
