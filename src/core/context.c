/*
 * Contexts: the device a call runs on and its settings. CPU contexts are a
 * plain struct; CUDA contexts hand their device state to the CUDA backend
 * (rt__cuda_context_init / _release, src/kernels or cuda_absent.c).
 */
#include <stdlib.h>

#include "rt_internal.h"

int rt_cuda_device_count(void) {
    return rt__cuda_device_count();
}

rt_status rt_context_create(rt_context **ctx, rt_device_kind kind, int device_index) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    *ctx = NULL;
    RT_RETURN_IF(kind != RT_DEVICE_CPU && kind != RT_DEVICE_CUDA, RT_ERR_BAD_DEVICE);
    if (kind == RT_DEVICE_CUDA) {
        int count = rt__cuda_device_count();
        RT_RETURN_IF(count <= 0, RT_ERR_NO_CUDA);
        RT_RETURN_IF(device_index < 0 || device_index >= count, RT_ERR_BAD_DEVICE);
    }
    rt_context *c = calloc(1, sizeof *c);
    RT_RETURN_IF(c == NULL, RT_ERR_OUT_OF_MEMORY);
    c->kind = kind;
    c->device_index = kind == RT_DEVICE_CUDA ? device_index : 0;
    c->num_threads = 0;
    c->policy = RT_POLICY_TUNED;
    c->stream = NULL;
    c->split_limit = 0;
    c->kinds_off = 0;
    c->cuda = NULL;
    if (kind == RT_DEVICE_CUDA) {
        rt_status s = rt__cuda_context_init(c);
        if (s != RT_OK) {
            /* init may have acquired part of its state before failing. */
            rt__cuda_context_release(c);
            free(c);
            return s;
        }
    }
    *ctx = c;
    return RT_OK;
}

void rt_context_destroy(rt_context *ctx) {
    if (ctx == NULL)
        return;
    if (ctx->kind == RT_DEVICE_CUDA)
        rt__cuda_context_release(ctx);
    free(ctx);
}

rt_status rt_context_set_stream(rt_context *ctx, void *cuda_stream) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(ctx->kind != RT_DEVICE_CUDA, RT_ERR_BAD_DEVICE);
    return rt__cuda_context_set_stream(ctx, cuda_stream);
}

rt_status rt_context_set_num_threads(rt_context *ctx, int num_threads) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(ctx->kind != RT_DEVICE_CPU, RT_ERR_BAD_DEVICE);
    RT_RETURN_IF(num_threads < 0, RT_ERR_BAD_ARGUMENT);
    ctx->num_threads = num_threads;
    return RT_OK;
}

rt_status rt_context_set_policy(rt_context *ctx, rt_policy policy) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    switch (policy) {
    case RT_POLICY_DEFAULT:
        ctx->policy = RT_POLICY_TUNED;
        return RT_OK;
    case RT_POLICY_COMPAT:
    case RT_POLICY_TUNED:
        ctx->policy = policy;
        return RT_OK;
    }
    return RT_ERR_BAD_ARGUMENT;
}

rt_device_kind rt_context_device_kind(const rt_context *ctx) {
    return ctx == NULL ? RT_DEVICE_CPU : ctx->kind;
}

rt_status rt__context_set_split_limit(rt_context *ctx, int64_t limit) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(limit < 0, RT_ERR_BAD_ARGUMENT);
    ctx->split_limit = limit;
    return RT_OK;
}

rt_status rt__context_set_kinds_off(rt_context *ctx, unsigned kinds_off) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    ctx->kinds_off = kinds_off;
    return RT_OK;
}
