/*
 * Cases as JSON: the description compare_torch.py rebuilds each input from
 * (shape, strides and offset in elements over a storage of `storage`
 * elements), shared by `rt_bench --list-json` and the results file.
 */
#include "suite.h"

static void write_i64_array(FILE *f, const int64_t *v, int n) {
    fputc('[', f);
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
    fputc(']', f);
}

void rt__bench_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; s != NULL && *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static const char *cub_name(int cub) {
    return cub == 1 ? "sum" : cub == 2 ? "rows" : "none";
}

void rt__bench_case_json(FILE *f, const rt__bench_case *c, const rt__bench_layout *l,
                         const char *indent) {
    fprintf(f, "%s\"name\": ", indent);
    rt__bench_json_string(f, c->name);
    fprintf(f, ",\n%s\"group\": ", indent);
    rt__bench_json_string(f, c->group);
    fprintf(f, ",\n%s\"view\": ", indent);
    rt__bench_json_string(f, c->view);
    fprintf(f, ",\n%s\"kind\": \"%s\",\n", indent,
            c->kind == RT__BENCH_HOST_OVERHEAD ? "host_overhead" : "reduce");
    fprintf(f, "%s\"op\": \"%s\", \"dtype\": \"%s\", \"out_dtype\": \"%s\",\n", indent,
            rt_op_name(c->op), rt_dtype_name(c->dtype), rt_dtype_name(l->out.dtype));
    fprintf(f, "%s\"shape\": ", indent);
    write_i64_array(f, l->in.shape, l->in.ndim);
    fprintf(f, ", \"strides\": ");
    write_i64_array(f, l->in.strides, l->in.ndim);
    fprintf(f, ", \"offset\": %lld, \"storage\": %lld,\n", (long long)c->offset,
            (long long)l->storage);
    fprintf(f, "%s\"dims\": [", indent);
    for (int i = 0; i < c->ndims; ++i)
        fprintf(f, "%s%d", i ? ", " : "", c->dims[i]);
    fprintf(f, "], \"keepdim\": %s, \"p\": %.17g, \"correction\": 1, \"fill\": \"%s\",\n",
            c->keepdim ? "true" : "false", l->p, c->sparse ? "sparse" : "dense");
    fprintf(f, "%s\"out_shape\": ", indent);
    write_i64_array(f, l->out.shape, l->out.ndim);
    fprintf(f, ", \"in_numel\": %lld, \"out_numel\": %lld,\n", (long long)l->in_numel,
            (long long)l->out_numel);
    fprintf(f, "%s\"read_bytes\": %zu, \"write_bytes\": %zu, \"cub\": \"%s\"", indent,
            l->read_bytes, l->write_bytes, cub_name(l->cub));
}

rt_status rt__bench_list_json(FILE *f, const char *filter) {
    /* Validate the whole table before printing anything, so a broken row
       never yields half a file. */
    for (int i = 0; i < rt__bench_suite_len; ++i) {
        rt__bench_layout l;
        rt_status s = rt__bench_case_layout(&rt__bench_suite[i], &l);
        if (s != RT_OK) {
            fprintf(stderr, "rt_bench: case %s: %s\n", rt__bench_suite[i].name,
                    rt_status_string(s));
            return s;
        }
    }
    fprintf(f, "{\"cases\": [");
    int n = 0;
    for (int i = 0; i < rt__bench_suite_len; ++i) {
        const rt__bench_case *c = &rt__bench_suite[i];
        if (!rt__bench_case_matches(c, filter))
            continue;
        rt__bench_layout l;
        rt__bench_case_layout(c, &l);
        fprintf(f, "%s\n  {\n", n++ ? "," : "");
        rt__bench_case_json(f, c, &l, "    ");
        fprintf(f, "\n  }");
    }
    fprintf(f, "\n]}\n");
    return RT_OK;
}
