/* bench_heightfield.c — heightfield figures for strata-bench: hydraulic droplets per second and 50
 * thermal passes on a 1025^2 map of the default recipe, and the import of a 4097^2 .r16 file.
 *
 * Design: times are CPU time of the calling thread (all three are single-threaded work: on a shared
 * machine wall time would mostly measure the neighbours). Each figure is the best of a few runs (the machine is shared; the minimum is the least noisy
 * estimate of what the code costs). The r16 file is written to a temp folder first, then imported while
 * timed (read + decode), then removed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_heightfield.h"
#include "strata/erosion.h"
#include "strata/heightfield_io.h"
#include "strata/heightfield_recipe.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

StResult bench_heightfield_run(BenchHeightfield *out)
{
    memset(out, 0, sizeof *out);
    HeightRecipe recipe;
    StResult rc = height_recipe_preset("default", NULL, &recipe);
    Heightfield base, work;
    if (rc != ST_OK || (rc = height_recipe_generate(&recipe, 1, 1025, 1025, &base)) != ST_OK) return rc;

    HydraulicErosionParams hp;
    erosion_hydraulic_defaults(&hp);
    double best = 1e30;
    for (int run = 0; run < 2; run++) {
        if ((rc = heightfield_copy(&base, &work)) != ST_OK) break;
        double t0 = now_s();
        rc = erosion_hydraulic(&work, &hp, NULL);
        double t = now_s() - t0;
        heightfield_free(&work);
        if (rc != ST_OK) break;
        if (t < best) best = t;
    }
    if (rc == ST_OK) out->erosion_hydraulic_droplets_per_s = hp.num_droplets / best;

    ThermalErosionParams tp;
    erosion_thermal_defaults(&tp);
    tp.iterations = 50;
    best = 1e30;
    for (int run = 0; run < 2 && rc == ST_OK; run++) {
        if ((rc = heightfield_copy(&base, &work)) != ST_OK) break;
        double t0 = now_s();
        rc = erosion_thermal(&work, &tp, NULL);
        double t = now_s() - t0;
        heightfield_free(&work);
        if (t < best) best = t;
    }
    if (rc == ST_OK) out->erosion_thermal_ms = best * 1000.0;
    heightfield_free(&base);
    if (rc != ST_OK) return rc;

    Heightfield big;
    if ((rc = heightfield_init(&big, 4097, 4097)) != ST_OK) return rc;
    for (size_t i = 0; i < (size_t)4097 * 4097; i++) big.heights[i] = (float)((i * 2654435761u) & 0xffff);
    char dir[] = "/tmp/strata-bench-hf-XXXXXX";
    if (!mkdtemp(dir)) {
        heightfield_free(&big);
        return st_fail(ST_ERR_IO, "bench: cannot make a temp folder");
    }
    char path[256];
    snprintf(path, sizeof path, "%s/big.r16", dir);
    rc = heightfield_export(path, &big, NULL);
    heightfield_free(&big);
    best = 1e30;
    HeightImportOptions io = {.width = 4097, .height = 4097};
    for (int run = 0; run < 3 && rc == ST_OK; run++) {
        double t0 = now_s();
        rc = heightfield_import(path, &io, &big);
        double t = now_s() - t0;
        heightfield_free(&big);
        if (t < best) best = t;
    }
    unlink(path);
    rmdir(dir);
    if (rc == ST_OK) out->import_r16_4097_ms = best * 1000.0;
    return rc;
}

void bench_heightfield_print_json(FILE *f, const BenchHeightfield *r)
{
    fprintf(f, ", \"erosion_hydraulic_droplets_per_s\": %.0f, \"erosion_thermal_ms\": %.1f, \"import_r16_4097_ms\": %.1f",
            r->erosion_hydraulic_droplets_per_s, r->erosion_thermal_ms, r->import_r16_4097_ms);
}

void bench_heightfield_print_table(FILE *f, const BenchHeightfield *r)
{
    fprintf(f, "  %-28s %10.0f droplets/s (1025^2)\n", "hydraulic erosion", r->erosion_hydraulic_droplets_per_s);
    fprintf(f, "  %-28s %10.1f ms (1025^2, 50 passes)\n", "thermal erosion", r->erosion_thermal_ms);
    fprintf(f, "  %-28s %10.1f ms\n", "import r16 4097^2", r->import_r16_4097_ms);
}
