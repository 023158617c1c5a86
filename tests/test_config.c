/*
 * src/config against PyTorch 2.11's own launches on an H200
 * (tests/data/torch_reduce_configs.jsonl): every case whose last launch is
 * the reduce kernel must get PyTorch's block, grid, output_vec_size,
 * thread bound and dynamic shared memory from the COMPAT policy. Also
 * rt__config_to_json, read back field by field. The policy's branches one
 * by one are in tests/test_config_branches.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "rt_test_config.h"

/* ---- A minimal JSON reader: a DOM in a fixed pool, enough for the data
   file and for reading back rt__config_to_json. Strings keep their raw
   text (the files need no escapes beyond skipping them). */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
enum { J_MAX_NODES = 1024 };

typedef struct jnode {
    int type;
    double num;      /* J_NUM, J_BOOL (0/1) */
    const char *str; /* J_STR: raw text between the quotes */
    int len;
    const char *key; /* member name when inside an object */
    int key_len;
    int child; /* first element/member, -1 if none */
    int next;  /* next sibling, -1 if none */
} jnode;

typedef struct jdoc {
    jnode n[J_MAX_NODES];
    int count;
    const char *p;
    bool bad;
} jdoc;

static void skip_ws(jdoc *d) {
    while (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r')
        d->p++;
}

static bool read_string(jdoc *d, const char **s, int *len) {
    if (*d->p != '"')
        return false;
    const char *start = ++d->p;
    while (*d->p != '"') {
        if (*d->p == '\0')
            return false;
        d->p += (*d->p == '\\' && d->p[1] != '\0') ? 2 : 1;
    }
    *s = start;
    *len = (int)(d->p++ - start);
    return true;
}

static int parse_value(jdoc *d);

/* Parses the elements or members up to `close`, linking them as children. */
static bool parse_items(jdoc *d, int parent, char close, bool members) {
    int prev = -1;
    skip_ws(d);
    if (*d->p == close) {
        d->p++;
        return true;
    }
    for (;;) {
        const char *key = NULL;
        int key_len = 0;
        skip_ws(d);
        if (members) {
            if (!read_string(d, &key, &key_len))
                return false;
            skip_ws(d);
            if (*d->p++ != ':')
                return false;
        }
        int v = parse_value(d);
        if (v < 0)
            return false;
        d->n[v].key = key;
        d->n[v].key_len = key_len;
        if (prev < 0)
            d->n[parent].child = v;
        else
            d->n[prev].next = v;
        prev = v;
        skip_ws(d);
        if (*d->p == ',') {
            d->p++;
        } else if (*d->p == close) {
            d->p++;
            return true;
        } else {
            return false;
        }
    }
}

static int parse_value(jdoc *d) {
    skip_ws(d);
    if (d->count == J_MAX_NODES)
        return -1;
    int i = d->count++;
    jnode *n = &d->n[i];
    *n = (jnode){.child = -1, .next = -1};
    char c = *d->p;
    if (c == '{' || c == '[') {
        d->p++;
        n->type = c == '{' ? J_OBJ : J_ARR;
        return parse_items(d, i, c == '{' ? '}' : ']', c == '{') ? i : -1;
    }
    if (c == '"') {
        n->type = J_STR;
        return read_string(d, &n->str, &n->len) ? i : -1;
    }
    static const struct { const char *word; int type; double num; } words[] = {
        {"null", J_NULL, 0}, {"true", J_BOOL, 1}, {"false", J_BOOL, 0}};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t len = strlen(words[w].word);
        if (strncmp(d->p, words[w].word, len) == 0) {
            d->p += len;
            n->type = words[w].type;
            n->num = words[w].num;
            return i;
        }
    }
    char *end;
    n->num = strtod(d->p, &end);
    if (end == d->p)
        return -1;
    d->p = end;
    n->type = J_NUM;
    return i;
}

/* Parses one JSON text; returns false on a syntax error or trailing junk. */
static bool json_parse(jdoc *d, const char *text) {
    d->count = 0;
    d->p = text;
    if (parse_value(d) != 0)
        return false;
    skip_ws(d);
    return *d->p == '\0';
}

static int jget(const jdoc *d, int obj, const char *key) {
    if (obj < 0 || d->n[obj].type != J_OBJ)
        return -1;
    for (int c = d->n[obj].child; c >= 0; c = d->n[c].next) {
        if ((size_t)d->n[c].key_len == strlen(key) && strncmp(d->n[c].key, key, strlen(key)) == 0)
            return c;
    }
    return -1;
}

static int jlen(const jdoc *d, int arr) {
    int k = 0;
    for (int c = arr >= 0 ? d->n[arr].child : -1; c >= 0; c = d->n[c].next)
        k++;
    return k;
}

static int jat(const jdoc *d, int arr, int index) {
    int c = arr >= 0 ? d->n[arr].child : -1;
    while (c >= 0 && index-- > 0)
        c = d->n[c].next;
    return c;
}

static int64_t jint(const jdoc *d, int node) {
    assert_true(node >= 0 && d->n[node].type == J_NUM);
    return (int64_t)d->n[node].num;
}

static bool jstr_is(const jdoc *d, int node, const char *s) {
    return node >= 0 && d->n[node].type == J_STR && (size_t)d->n[node].len == strlen(s) &&
           strncmp(d->n[node].str, s, strlen(s)) == 0;
}

static bool jstr_has(const jdoc *d, int node, const char *needle) {
    size_t n = strlen(needle);
    if (node < 0 || d->n[node].type != J_STR)
        return false;
    for (int k = 0; k + (int)n <= d->n[node].len; k++) {
        if (strncmp(d->n[node].str + k, needle, n) == 0)
            return true;
    }
    return false;
}


/* ---- Ground truth: every launch of PyTorch 2.11 on an H200 whose last
   launch is the reduce kernel. */

static bool dtype_from_torch(const jdoc *d, int node, rt_dtype *out) {
    static const struct { const char *torch; rt_dtype dtype; } names[] = {
        {"float32", RT_F32}, {"float64", RT_F64}, {"float16", RT_F16}, {"bfloat16", RT_BF16},
        {"int8", RT_I8},     {"uint8", RT_U8},    {"int16", RT_I16},   {"int32", RT_I32},
        {"int64", RT_I64},   {"bool", RT_BOOL}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (jstr_is(d, node, names[k].torch)) {
            *out = names[k].dtype;
            return true;
        }
    }
    return false;
}

static bool op_from_torch(const jdoc *d, int node, rt_op *out) {
    char name[16];
    if (node < 0 || d->n[node].type != J_STR || d->n[node].len >= (int)sizeof name)
        return false;
    memcpy(name, d->n[node].str, (size_t)d->n[node].len);
    name[d->n[node].len] = '\0';
    if (strcmp(name, "amax") == 0)
        strcpy(name, "max");
    if (strcmp(name, "amin") == 0)
        strcpy(name, "min");
    return rt_op_from_name(name, out) == RT_OK; /* norm: p = 2, irrelevant here */
}

static bool is_reduce_kernel(const jdoc *d, int node) {
    return node >= 0 && d->n[node].type == J_STR &&
           (strncmp(d->n[node].str, "at::native::reduce_kernel<", 26) == 0 ||
            jstr_is(d, node, "reduction_prod_kernel"));
}

/* Checks one case; returns the number of mismatching fields (printed). */
static int check_torch_case(const jdoc *d, int line_no) {
    int root = 0, shape = jget(d, root, "shape"), strides = jget(d, root, "strides");
    int dims = jget(d, root, "dims"), launches = jget(d, root, "launches");
    int nl = jlen(d, launches);
    int last = jat(d, launches, nl - 1);
    rt_tensor in;
    memset(&in, 0, sizeof in);
    rt_op op;
    assert_true(op_from_torch(d, jget(d, root, "op"), &op));
    assert_true(dtype_from_torch(d, jget(d, root, "dtype"), &in.dtype));
    /* Earlier launches are PyTorch's casts (int32 -> int64 for sum, float
       -> bool for any): its reduce then reads the op's output dtype. */
    for (int k = 0; k < nl - 1; k++) {
        int kn = jget(d, jat(d, launches, k), "kernel");
        assert_true(jstr_has(d, kn, "elementwise_kernel"));
        assert_int_equal(rt_reduce_default_dtype(op, in.dtype, &in.dtype), RT_OK);
    }
    rt_dtype out_dtype;
    assert_int_equal(rt_reduce_default_dtype(op, in.dtype, &out_dtype), RT_OK);

    in.data = rt_test_iter_base();
    in.ndim = jlen(d, shape);
    uint32_t mask = 0;
    if (d->n[dims].type == J_NULL) {
        mask = (1u << in.ndim) - 1;
    } else {
        for (int k = 0; k < jlen(d, dims); k++) {
            int64_t dim = jint(d, jat(d, dims, k));
            mask |= 1u << (dim < 0 ? dim + in.ndim : dim);
        }
    }
    int64_t out_strides[RT_MAX_DIMS], running = 1;
    for (int k = in.ndim - 1; k >= 0; k--) {
        in.shape[k] = jint(d, jat(d, shape, k));
        in.strides[k] = jint(d, jat(d, strides, k));
        out_strides[k] = (mask >> k) & 1 ? 0 : running;
        running *= (mask >> k) & 1 ? 1 : in.shape[k];
    }
    rt__iter it;
    rt__iter_build_raw(&in, out_strides, (int)rt_dtype_size(out_dtype), mask,
                       rt__op_tracks_index(op, false) ? RT__INDEX_BY_MEMORY : RT__INDEX_NONE, &it);
    rt__launch_config c = rt_test_config_for(&it, op, in.dtype, RT_POLICY_COMPAT);

    int bad = 0;
    int block = jget(d, last, "block"), grid = jget(d, last, "grid");
    for (int k = 0; k < 3; k++) {
        bad += c.block[k] != jint(d, jat(d, block, k));
        bad += c.grid[k] != jint(d, jat(d, grid, k));
    }
    /* PyTorch's reported shared memory is the dynamic part plus 16 bytes
       of the kernel's static shared memory, in every case. */
    bad += c.shared_memory_bytes != jint(d, jget(d, last, "smem")) - 16;
    int kernel = jget(d, last, "kernel");
    int nt = 0, vec = 0;
    if (sscanf(d->n[kernel].str, "at::native::reduce_kernel<%d, %d>", &nt, &vec) == 2) {
        bad += c.max_threads != nt;
        bad += c.output_vec_size != vec;
    }
    if (bad) {
        char json[1024];
        rt__config_to_json(&c, json, sizeof json);
        print_error("line %d: %d mismatches; ours: %s\n", line_no, bad, json);
    }
    return bad;
}

static void test_compat_matches_pytorch_h200(void **state) {
    (void)state;
    FILE *f = fopen(RT_TEST_DATA_DIR "/torch_reduce_configs.jsonl", "r");
    assert_non_null(f);
    static char line[16384];
    static jdoc doc;
    int line_no = 0, cases = 0, checked = 0, mismatches = 0;
    rt__device_props h200 = rt__device_props_h200();
    while (fgets(line, sizeof line, f) != NULL) {
        line_no++;
        line[strcspn(line, "\n")] = '\0';
        assert_true(json_parse(&doc, line));
        if (jget(&doc, 0, "device") >= 0) {
            /* The header: the device our H200 props must describe. */
            assert_int_equal(jint(&doc, jget(&doc, 0, "sms")), h200.num_sms);
            assert_int_equal(jint(&doc, jget(&doc, 0, "max_threads_per_sm")),
                             h200.max_threads_per_sm);
            continue;
        }
        cases++;
        int launches = jget(&doc, 0, "launches");
        int last = jat(&doc, launches, jlen(&doc, launches) - 1);
        if (!is_reduce_kernel(&doc, jget(&doc, last, "kernel")))
            continue;
        checked++;
        mismatches += check_torch_case(&doc, line_no);
    }
    fclose(f);
    print_message("compat vs PyTorch 2.11 on H200: %d of %d cases checked, %d mismatching fields\n",
                  checked, cases, mismatches);
    assert_true(checked > 0);
    assert_int_equal(mismatches, 0);
}


/* ---- rt__config_to_json: every field, read back with the JSON reader. */

static int64_t member(const jdoc *d, const char *key) {
    int n = jget(d, 0, key);
    assert_true(n >= 0);
    return jint(d, n);
}

static int64_t member_at(const jdoc *d, const char *key, int index) {
    int arr = jget(d, 0, key);
    assert_true(arr >= 0 && d->n[arr].type == J_ARR);
    return jint(d, jat(d, arr, index));
}

static bool member_bool(const jdoc *d, const char *key) {
    int n = jget(d, 0, key);
    assert_true(n >= 0 && d->n[n].type == J_BOOL);
    return d->n[n].num != 0;
}

static void assert_json_is_config(const char *members, const rt__launch_config *c) {
    static char text[2048];
    static jdoc doc;
    snprintf(text, sizeof text, "{%s}", members);
    assert_true(json_parse(&doc, text));
    assert_true(jstr_is(&doc, jget(&doc, 0, "policy"),
                        c->policy == RT_POLICY_TUNED ? "tuned" : "compat"));
    static const char *const kinds[] = {"general", "rows", "tiny", "stream"};
    assert_true(c->kernel >= 0 && c->kernel < (int)(sizeof kinds / sizeof kinds[0]));
    assert_true(jstr_is(&doc, jget(&doc, 0, "kernel"), kinds[c->kernel]));
    for (int k = 0; k < 3; k++) {
        assert_int_equal(member_at(&doc, "block", k), c->block[k]);
        assert_int_equal(member_at(&doc, "grid", k), c->grid[k]);
        assert_int_equal(member_at(&doc, "input_mult", k), c->input_mult[k]);
    }
    for (int k = 0; k < 2; k++)
        assert_int_equal(member_at(&doc, "output_mult", k), c->output_mult[k]);
    assert_int_equal(member(&doc, "num_threads"), c->num_threads);
    assert_int_equal(member(&doc, "step_input"), c->step_input);
    assert_int_equal(member(&doc, "step_output"), c->step_output);
    assert_int_equal(member(&doc, "ctas_per_output"), c->ctas_per_output);
    assert_int_equal(member_bool(&doc, "input_chunked"), c->input_chunked);
    assert_int_equal(member_bool(&doc, "vectorize_input"), c->vectorize_input);
    assert_int_equal(member(&doc, "input_vec_size"), c->input_vec_size);
    assert_int_equal(member(&doc, "output_vec_size"), c->output_vec_size);
    assert_int_equal(member(&doc, "vt0"), c->vt0);
    assert_int_equal(member_bool(&doc, "pipelined"), c->pipelined);
    assert_int_equal(member(&doc, "max_threads"), c->max_threads);
    assert_int_equal(member(&doc, "shared_memory_bytes"), c->shared_memory_bytes);
    assert_int_equal(member(&doc, "staging_bytes"), c->staging_bytes);
    assert_int_equal(member(&doc, "semaphore_count"), c->semaphore_count);
    assert_int_equal(member_bool(&doc, "block_x_reduce"), rt__config_block_x_reduce(c));
    assert_int_equal(member_bool(&doc, "block_y_reduce"), rt__config_block_y_reduce(c));
    assert_int_equal(member_bool(&doc, "global_reduce"), rt__config_global_reduce(c));
}

static void test_config_to_json(void **state) {
    (void)state;
    /* Column sums of 4096 x 4096 (global reduce, vectorized outputs), a
       contiguous row sum (vectorized input) and a longer one (a chunked
       split; TUNED runs both full sums on the STREAM kernel): between
       them every field is non-zero somewhere. */
    int64_t s_col[] = {4096, 4096}, st_col[] = {4096, 1};
    int64_t s_row[] = {1 << 20}, st_row[] = {1}, s_long[] = {1 << 24};
    rt__iter its[] = {rt_test_make_iter(2, 1, s_col, st_col, 4, 0),
                      rt_test_make_iter(1, 1, s_row, st_row, 4, 0),
                      rt_test_make_iter(1, 1, s_long, st_row, 4, 0)};
    for (size_t k = 0; k < sizeof its / sizeof its[0]; k++) {
        for (int tuned = 0; tuned < 2; tuned++) {
            rt_policy policy = tuned ? RT_POLICY_TUNED : RT_POLICY_COMPAT;
            rt__launch_config c = rt_test_config_for(&its[k], RT_OP_SUM, RT_F32, policy);
            char buf[1024];
            int n = rt__config_to_json(&c, buf, sizeof buf);
            assert_int_equal(n, (int)strlen(buf));
            assert_json_is_config(buf, &c);

            /* snprintf convention: the full length whatever the room, the
               text cut short but terminated. */
            assert_int_equal(rt__config_to_json(&c, NULL, 0), n);
            char small[24];
            memset(small, 'x', sizeof small);
            assert_int_equal(rt__config_to_json(&c, small, sizeof small), n);
            assert_int_equal(strlen(small), sizeof small - 1);
            assert_memory_equal(small, buf, sizeof small - 1);
        }
    }
    char buf[8] = "junk";
    assert_int_equal(rt__config_to_json(NULL, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compat_matches_pytorch_h200),
        cmocka_unit_test(test_config_to_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
