/* bench_gen — per-pass generation timings (not a test: timings are never asserted).
 * Generates a square of chunks in row order with one GenContext, timing each pass of each chunk, and
 * prints the median and mean per pass and for all four together.
 * usage: bench_gen [seed] [side in chunks, default 16 (256 chunks)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/block.h"
#include "strata/generator.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    int side = argc > 2 ? atoi(argv[2]) : 16;
    if (side < 1 || side > 256) side = 16;
    BlockRegistry *blocks;
    Generator *g;
    WorldSettings s;
    world_settings_default(&s);
    s.seed = seed;
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK ||
        generator_create(&s, blocks, NULL, &g) != ST_OK) {
        fprintf(stderr, "bench_gen: %s\n", st_error_message());
        return 1;
    }
    GenContext *ctx = gen_context_create();
    TerrainChunk *chunk = calloc(1, sizeof *chunk);
    int n = side * side;
    double *t[5];
    for (int p = 0; p < 5; p++) t[p] = malloc(sizeof(double) * (size_t)n);
    int k = 0;
    for (int cz = 0; cz < side; cz++)
        for (int cx = 0; cx < side; cx++, k++) {
            chunk_reset(chunk, cx + 20, cz + 20);
            double total = 0.0;
            for (int p = 1; p <= 4; p++) {
                double a = now_ms();
                generator_run_pass(g, p, chunk, ctx);
                double d = now_ms() - a;
                t[p - 1][k] = d;
                total += d;
            }
            t[4][k] = total;
        }
    const char *names[5] = {"pass 1 (fields, density fill)", "pass 2 (surface layers)", "pass 3 (caves, pockets, ores)",
                            "pass 4 (plants, trees, snow)", "all four passes"};
    printf("%d chunks, seed %llu\n", n, (unsigned long long)seed);
    for (int p = 0; p < 5; p++) {
        double sum = 0.0;
        for (int i = 0; i < n; i++) sum += t[p][i];
        printf("  %-32s median %.3f ms  mean %.3f ms\n", names[p], median(t[p], n), sum / n);
    }
    for (int p = 0; p < 5; p++) free(t[p]);
    chunk_destroy(chunk);
    gen_context_destroy(ctx);
    generator_destroy(g);
    block_registry_destroy(blocks);
    return 0;
}
