/* Timeline driver: tl N DTYPE(f32|f64) OUTFILE [samples]
   Back-to-back event medians, then samples of the per-block timeline of the
   4th of 4 back-to-back calls (rt_x_timeline_read). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include "reduce_tensor.h"
static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
    long long n = atoll(argv[1]);
    int f64 = strcmp(argv[2], "f64") == 0;
    const char *outp = argv[3];
    int samples = argc > 4 ? atoi(argv[4]) : 20;
    size_t elem = f64 ? 8 : 4, bytes = (size_t)n * elem;
    enum { NS = 4 };
    void *buf[NS], *out;
    for (int i = 0; i < NS; i++) {
        if (cudaMalloc(&buf[i], bytes) != cudaSuccess) { fprintf(stderr, "malloc\n"); return 1; }
        cudaMemset(buf[i], 0x3f, bytes);
    }
    cudaMalloc(&out, 64);
    rt_context *ctx;
    if (rt_context_create(&ctx, RT_DEVICE_CUDA, 0) != RT_OK) { fprintf(stderr, "ctx\n"); return 1; }
    rt_tensor in = {0}, o = {0};
    in.dtype = f64 ? RT_F64 : RT_F32; in.ndim = 1; in.shape[0] = n; in.strides[0] = 1;
    o.dtype = in.dtype; o.ndim = 0; o.data = out;
    int dim = 0;
    int slot = 0;
#define CALL() do { in.data = buf[slot]; slot = (slot + 1) % NS; rt_status s_ = reduce_tensor(ctx, RT_OP_SUM, &in, &dim, 1, false, &o); if (s_ != RT_OK) { fprintf(stderr, "%s\n", rt_status_string(s_)); return 1; } } while (0)
    for (int i = 0; i < 30; i++) CALL();
    cudaDeviceSynchronize();
    enum { R = 200 };
    cudaEvent_t ev[2 * R];
    for (int i = 0; i < 2 * R; i++) cudaEventCreate(&ev[i]);
    for (int r = 0; r < R; r++) { cudaEventRecord(ev[2 * r], 0); CALL(); cudaEventRecord(ev[2 * r + 1], 0); }
    cudaDeviceSynchronize();
    float t[R];
    for (int r = 0; r < R; r++) { cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]); t[r] *= 1000.f; }
    qsort(t, R, sizeof t[0], cmpf);
    printf("n %lld %s: median %.2f us (min %.2f)\n", n, argv[2], t[R / 2], t[0]);
    /* Back to back with no events between calls: one pair around 100. */
    float loops[5];
    for (int k = 0; k < 5; k++) {
        cudaEventRecord(ev[0], 0);
        for (int i = 0; i < 100; i++) CALL();
        cudaEventRecord(ev[1], 0);
        cudaDeviceSynchronize();
        cudaEventElapsedTime(&loops[k], ev[0], ev[1]);
        loops[k] *= 10.f; /* ms per 100 -> us per call */
    }
    qsort(loops, 5, sizeof loops[0], cmpf);
    printf("n %lld %s: loop %.2f us a call (min %.2f)\n", n, argv[2], loops[2], loops[0]);
    size_t tlb = 32768 * 10 * 8;
    unsigned long long *tl = malloc(tlb);
    int (*rd)(void *, size_t) = (int (*)(void *, size_t))dlsym(RTLD_DEFAULT, "rt_x_timeline_read");
    if (rd == NULL) samples = 0;
    FILE *f = fopen(outp, "wb");
    for (int k = 0; k < samples; k++) {
        memset(tl, 0, tlb);
        for (int i = 0; i < 3; i++) CALL();
        cudaEventRecord(ev[0], 0); CALL(); cudaEventRecord(ev[1], 0);
        cudaDeviceSynchronize();
        float ms; cudaEventElapsedTime(&ms, ev[0], ev[1]);
        if (rd(tl, tlb) != 0) { fprintf(stderr, "read\n"); return 1; }
        double us = ms * 1000.0;
        fwrite(&us, 8, 1, f);
        fwrite(tl, 1, tlb, f);
    }
    fclose(f);
    { double r = 0; float rf = 0; cudaDeviceSynchronize();
      if (f64) { cudaMemcpy(&r, out, 8, cudaMemcpyDeviceToHost); } else { cudaMemcpy(&rf, out, 4, cudaMemcpyDeviceToHost); r = rf; }
      printf("n %lld %s: result %.17g\n", n, argv[2], r); }
    printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
    rt_context_destroy(ctx);
    return 0;
}
