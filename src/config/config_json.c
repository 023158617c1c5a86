/*
 * rt__config_to_json: the launch configuration as JSON object members, for
 * rt_explain and debugging. Written with snprintf's convention so a caller
 * can size its buffer with a first call.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "config.h"

/* Appends formatted text at buf[len] while it fits; always counts the full
   length, so the result is what an unbounded buffer would have needed. */
typedef struct json_out {
    char *buf;
    size_t size;
    size_t len;
} json_out;

static void emit(json_out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *dst = o->len < o->size ? o->buf + o->len : NULL;
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static const char *policy_name(rt_policy p) {
    switch (p) {
    case RT_POLICY_COMPAT:
        return "compat";
    case RT_POLICY_TUNED:
        return "tuned";
    case RT_POLICY_DEFAULT:
        break;
    }
    return "default";
}

static const char *kernel_name(rt__kernel_kind k) {
    switch (k) {
    case RT__KERNEL_GENERAL:
        return "general";
    case RT__KERNEL_ROWS:
        return "rows";
    case RT__KERNEL_TINY:
        return "tiny";
    case RT__KERNEL_STREAM:
        return "stream";
    }
    return "unknown";
}

static const char *json_bool(bool b) {
    return b ? "true" : "false";
}

int rt__config_to_json(const rt__launch_config *c, char *buf, size_t size) {
    json_out o = {buf, buf == NULL ? 0 : size, 0};
    if (o.size > 0)
        buf[0] = '\0';
    if (c == NULL)
        return 0;
    emit(&o, "\"policy\":\"%s\",\"kernel\":\"%s\"", policy_name(c->policy),
         kernel_name(c->kernel));
    emit(&o, ",\"block\":[%d,%d,%d],\"grid\":[%d,%d,%d],\"num_threads\":%d", c->block[0],
         c->block[1], c->block[2], c->grid[0], c->grid[1], c->grid[2], c->num_threads);
    emit(&o, ",\"input_mult\":[%d,%d,%d],\"output_mult\":[%d,%d]", c->input_mult[0],
         c->input_mult[1], c->input_mult[2], c->output_mult[0], c->output_mult[1]);
    emit(&o, ",\"step_input\":%d,\"step_output\":%d,\"ctas_per_output\":%d", c->step_input,
         c->step_output, c->ctas_per_output);
    emit(&o, ",\"input_chunked\":%s", json_bool(c->input_chunked));
    emit(&o, ",\"vectorize_input\":%s,\"input_vec_size\":%d,\"output_vec_size\":%d,\"vt0\":%d",
         json_bool(c->vectorize_input), c->input_vec_size, c->output_vec_size, c->vt0);
    emit(&o, ",\"pipelined\":%s", json_bool(c->pipelined));
    emit(&o, ",\"max_threads\":%d,\"shared_memory_bytes\":%d", c->max_threads,
         c->shared_memory_bytes);
    emit(&o, ",\"staging_bytes\":%" PRId64 ",\"semaphore_count\":%" PRId64, c->staging_bytes,
         c->semaphore_count);
    emit(&o, ",\"block_x_reduce\":%s,\"block_y_reduce\":%s,\"global_reduce\":%s",
         json_bool(rt__config_block_x_reduce(c)), json_bool(rt__config_block_y_reduce(c)),
         json_bool(rt__config_global_reduce(c)));
    if (c->kernel == RT__KERNEL_STREAM)
        emit(&o,
             ",\"stream_fold_last\":%s,\"stream_dependent\":%s,\"stream_slots\":%s"
             ",\"stream_slot_group\":%" PRId64 ",\"stream_slot_delay\":%" PRId64,
             json_bool(c->stream_fold_last), json_bool(c->stream_dependent),
             json_bool(c->stream_slots), c->stream_slot_group, c->stream_slot_delay);
    if (c->kernel == RT__KERNEL_ROWS)
        emit(&o,
             ",\"rows_tile\":%s,\"rows_short\":%s,\"rows_block\":%s,\"rows_warp\":%s,"
             "\"rows_two_pass\":%s,\"rows_exact\":%s,\"rows_cols\":%s,"
             "\"rows_group\":%d,"
             "\"rows_vec\":%d,\"rows_in_flight\":%d,"
             "\"rows_per_block\":%d,\"rows_rot_shift\":%d,\"rows_rot_mask\":%d",
             json_bool(c->rows_tile), json_bool(c->rows_short), json_bool(c->rows_block),
             json_bool(c->rows_warp), json_bool(c->rows_two_pass), json_bool(c->rows_exact),
             json_bool(c->rows_cols),
             c->rows_group, c->rows_vec,
             c->rows_in_flight, c->rows_per_block, c->rows_rot_shift, c->rows_rot_mask);
    return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}
