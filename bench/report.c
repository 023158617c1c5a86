/*
 * rt_bench's output: a table on stdout, and the same data as JSON for
 * compare_torch.py and plot.py (schema: bench/NOTES.md, "Output").
 */
#include <math.h>

#include "bench.h"

static const char *policy_name(rt_policy p) {
    return p == RT_POLICY_COMPAT ? "compat" : "tuned";
}

void rt__bench_print_header(FILE *f, const rt__bench_env *env) {
    fprintf(f, "device: %s (sm_%d%d, %d SMs, L2 %.1f MiB, %.1f GiB)\n", env->device_name,
            env->cc_major, env->cc_minor, env->sm_count, (double)env->l2_bytes / 1048576.0,
            (double)env->mem_bytes / 1073741824.0);
    fprintf(f, "policy %s%s, median of %d after %d warm-up calls, rotation over >= 4x L2\n",
            policy_name(env->policy), env->kinds_off != 0 ? " (some kernel kinds or rules off)" : "",
            env->reps, env->warmup);
    if (env->spin_us > 0.0)
        fprintf(f, "every timed call queued behind a %.0f us spin (%lld cycles)\n", env->spin_us,
                env->spin_cycles);
    fprintf(f, "ceilings: read %.0f GB/s (%zu MiB, float4), copy %.0f GB/s (%zu MiB, read+write), "
               "CUB sum %.0f GB/s (2^27 f32)\n",
            env->read_large_gbps, env->read_large_bytes >> 20, env->copy_gbps,
            env->copy_bytes >> 20, env->cub_large_gbps);
    fprintf(f, "%-32s %10s %9s %9s %6s %9s %7s  %s\n", "case", "time_us", "GB/s", "ceil_GB/s",
            "%ceil", "cub_us", "rt/cub", "check");
}

void rt__bench_print_row(FILE *f, const rt__bench_result *r) {
    const char *name = r->c->name;
    if (r->status != RT_OK) {
        fprintf(f, "%-32s %s: %s\n", name, rt_status_name(r->status), rt_status_string(r->status));
        return;
    }
    if (r->error[0] != '\0') {
        fprintf(f, "%-32s error: %s\n", name, r->error);
        return;
    }
    if (r->c->kind == RT__BENCH_HOST_OVERHEAD) {
        fprintf(f, "%-32s %10.2f us per call, %.0f calls/s (back-to-back, one sync)\n", name,
                r->time_us, r->calls_per_s);
        return;
    }
    fprintf(f, "%-32s %10.2f %9.1f %9.1f %6.1f ", name, r->time_us, r->gbps, r->ceiling_gbps,
            r->pct_ceiling);
    if (r->cub_us > 0.0)
        fprintf(f, "%9.2f %7.2f", r->cub_us, r->time_us / r->cub_us);
    else
        fprintf(f, "%9s %7s", "-", "-");
    fprintf(f, "  %s", r->check);
    if (r->mismatches > 0)
        fprintf(f, " (%lld wrong, worst %.3g x tol)", (long long)r->mismatches, r->max_err);
    if (r->note[0] != '\0')
        fprintf(f, "; %s", r->note);
    fputc('\n', f);
}

/* JSON has no NaN or infinity: those become null. */
static void num(FILE *f, const char *key, double x) {
    if (isfinite(x))
        fprintf(f, ",\n      \"%s\": %.6g", key, x);
    else
        fprintf(f, ",\n      \"%s\": null", key);
}

static void write_result(FILE *f, const rt__bench_result *r) {
    fprintf(f, "    {\n");
    rt__bench_case_json(f, r->c, &r->l, "      ");
    const char *state = r->status != RT_OK ? "failed" : r->error[0] ? "error" : "ok";
    fprintf(f, ",\n      \"state\": \"%s\", \"status\": \"%s\"", state, rt_status_name(r->status));
    const char *msg = r->status != RT_OK ? rt_status_string(r->status) : r->error;
    fprintf(f, ",\n      \"message\": ");
    rt__bench_json_string(f, msg);
    fprintf(f, ", \"note\": ");
    rt__bench_json_string(f, r->note);
    if (r->status == RT_OK && r->error[0] == '\0') {
        fprintf(f, ",\n      \"bytes\": %zu, \"slots\": %d", r->l.read_bytes + r->l.write_bytes,
                r->nslots);
        num(f, "time_us", r->time_us);
        num(f, "min_us", r->min_us);
        num(f, "gbps", r->gbps);
        num(f, "ceiling_gbps", r->ceiling_gbps);
        num(f, "pct_ceiling", r->pct_ceiling);
        num(f, "pct_copy", r->pct_copy);
        if (r->cub_us > 0.0) {
            num(f, "cub_us", r->cub_us);
            num(f, "ratio_to_best_peer", r->time_us / r->cub_us);
            fprintf(f, ",\n      \"best_peer\": \"cub\"");
        } else {
            fprintf(f, ",\n      \"cub_us\": null, \"ratio_to_best_peer\": null, "
                       "\"best_peer\": null");
        }
        if (r->c->kind == RT__BENCH_HOST_OVERHEAD)
            num(f, "calls_per_s", r->calls_per_s);
        fprintf(f, ",\n      \"check\": \"%s\", \"mismatches\": %lld", r->check,
                (long long)r->mismatches);
        num(f, "max_err", r->max_err);
    }
    fprintf(f, "\n    }");
}

bool rt__bench_write_json(const char *path, const rt__bench_env *env,
                          const rt__bench_result *results, int n) {
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    fprintf(f, "{\n  \"tool\": \"rt_bench\", \"version\": \"%d.%d.%d\",\n", RT_VERSION_MAJOR,
            RT_VERSION_MINOR, RT_VERSION_PATCH);
    fprintf(f, "  \"device\": {\"name\": ");
    rt__bench_json_string(f, env->device_name);
    fprintf(f, ", \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %zu, \"mem_bytes\": %zu},\n",
            env->cc_major, env->cc_minor, env->sm_count, env->l2_bytes, env->mem_bytes);
    fprintf(f, "  \"policy\": \"%s\", \"kinds_off\": %u, \"reps\": %d, \"warmup\": %d, "
               "\"host_calls\": %d, \"spin_us\": %.6g, \"spin_cycles\": %lld,\n",
            policy_name(env->policy), env->kinds_off, env->reps, env->warmup, env->host_calls,
            env->spin_us, env->spin_cycles);
    fprintf(f, "  \"ceilings\": {\"read_gbps\": %.6g, \"read_bytes\": %zu, \"copy_gbps\": %.6g, "
               "\"copy_bytes\": %zu, \"cub_sum_gbps\": %.6g, \"cub_sum_bytes\": %zu},\n",
            env->read_large_gbps, env->read_large_bytes, env->copy_gbps, env->copy_bytes,
            env->cub_large_gbps, env->cub_large_bytes);
    fprintf(f, "  \"cases\": [\n");
    for (int i = 0; i < n; ++i) {
        write_result(f, &results[i]);
        fprintf(f, i + 1 < n ? ",\n" : "\n");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) == 0;
}
