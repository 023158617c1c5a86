/*
 * rt__iter_to_json: the iteration space as one JSON object, for rt_explain,
 * debugging and the tests that compare iters with PyTorch's.
 */
#include "iter.h"

#include <stdarg.h>
#include <stdio.h>

/* An snprintf that appends: keeps counting the full length once the buffer
   is full, and keeps the buffer NUL-terminated. */
typedef struct text {
    char *buf;
    size_t size;
    size_t len;
} text;

static void put(text *t, const char *fmt, ...) {
    va_list ap;
    bool room = t->buf && t->len < t->size;
    va_start(ap, fmt);
    int n = vsnprintf(room ? t->buf + t->len : NULL, room ? t->size - t->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}

static void put_list(text *t, const int64_t *v, int n) {
    put(t, "[");
    for (int i = 0; i < n; i++)
        put(t, i ? ",%lld" : "%lld", (long long)v[i]);
    put(t, "]");
}

int rt__iter_to_json(const rt__iter *it, char *buf, size_t size) {
    text t = {buf, size, 0};
    bool first = true;
    if (buf && size)
        buf[0] = '\0';
    put(&t, "{\"iter_shape\":");
    put_list(&t, it->shape, it->ndim);
    /* Operands in slot order (out, in, indices, acc), present ones only. */
    put(&t, ",\"iter_strides\":[");
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++) {
        if (it->elem_size[op] == 0)
            continue;
        if (!first)
            put(&t, ",");
        put_list(&t, it->strides[op], it->ndim);
        first = false;
    }
    put(&t, "],\"num_reduce_dims\":%d,\"num_outputs\":%lld,\"inputs_per_output\":%lld",
        it->num_reduce_dims, (long long)it->num_outputs, (long long)it->inputs_per_output);
    /* Index-tracking ops: each dim's weight in the logical index, and
       whether the kernels map keys (rt__iter_index_keyed). */
    if (it->tracks_index) {
        put(&t, ",\"index_strides\":");
        put_list(&t, it->index_strides, it->ndim);
        put(&t, ",\"index_base\":%lld,\"index_keyed\":%s", (long long)it->index_base,
            rt__iter_index_keyed(it) ? "true" : "false");
    }
    put(&t, "}");
    return (int)t.len;
}
