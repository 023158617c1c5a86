#include "rt_test_ctx.h"

#include "reduce_tensor.h"

int rt_test_cpu_ctx_setup(void **state) {
    rt_context *ctx = NULL;
    if (rt_context_create(&ctx, RT_DEVICE_CPU, 0) != RT_OK)
        return -1;
    *state = ctx;
    return 0;
}

int rt_test_cpu_ctx_teardown(void **state) {
    rt_context_destroy(*state);
    return 0;
}
