/* bench_structures.c — strata-bench's structure figures: flat_zone_lookup_ns (2,000 random zones over
 * 8,192 x 8,192 blocks, 64-block tiles, 4 M lookups half near zones) and wfc_solve_ms (the shipped dungeon
 * tileset on a 12x3x12 grid, mean of 20 seeds). */
#include "bench_structures.h"

#include <stdlib.h>
#include <time.h>

#include "strata/flat_zone.h"
#include "strata/rng.h"
#include "strata/wfc.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

StResult bench_structures_run(BenchStructures *out)
{
    FlatZoneSet *set = flat_zone_set_create(64);
    if (!set)
        return st_fail(ST_ERR_NOMEM, "bench: out of memory");
    Rng rng;
    rng_init(&rng, 42);
    enum { ZONES = 2000, POINTS = 4096, ROUNDS = 1000 };
    float cx[ZONES], cz[ZONES];
    for (int i = 0; i < ZONES; i++) {
        FlatZone z = {.id = (uint32_t)i + 1, .center_x = rng_float_range(&rng, -4096, 4096),
                      .center_z = rng_float_range(&rng, -4096, 4096), .width = rng_float_range(&rng, 8, 40),
                      .depth = rng_float_range(&rng, 8, 40), .height = 70, .blend_radius = 8};
        cx[i] = z.center_x;
        cz[i] = z.center_z;
        StResult rc = flat_zone_set_register(set, &z);
        if (rc != ST_OK) {
            flat_zone_set_destroy(set);
            return rc;
        }
    }
    static float px[POINTS], pz[POINTS];
    for (int i = 0; i < POINTS; i++) {
        int k = rng_int_range(&rng, 0, ZONES - 1);
        px[i] = i & 1 ? cx[k] + rng_float_range(&rng, -30, 30) : rng_float_range(&rng, -4096, 4096);
        pz[i] = i & 1 ? cz[k] + rng_float_range(&rng, -30, 30) : rng_float_range(&rng, -4096, 4096);
    }
    volatile float sink = 0;
    double t0 = now_s();
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < POINTS; i++)
            sink += flat_zone_set_height(set, px[i], pz[i], 64.0f);
    out->flat_zone_lookup_ns = (now_s() - t0) * 1e9 / ((double)ROUNDS * POINTS);
    flat_zone_set_destroy(set);

    WfcTileset *ts;
    StResult rc = wfc_tileset_load(STRATA_ASSET_DIR "/tilesets/dungeon.json", &ts);
    if (rc != ST_OK)
        return rc;
    t0 = now_s();
    for (int seed = 0; seed < 20 && rc == ST_OK; seed++) {
        WfcGrid g = {0};
        rc = wfc_solve(ts, 12, 3, 12, (uint64_t)seed, NULL, 0, &g);
        wfc_grid_free(&g);
    }
    out->wfc_solve_ms = (now_s() - t0) * 1e3 / 20.0;
    wfc_tileset_destroy(ts);
    return rc;
}

void bench_structures_print_json(FILE *f, const BenchStructures *r)
{
    fprintf(f, ", \"flat_zone_lookup_ns\": %.1f, \"wfc_solve_ms\": %.2f", r->flat_zone_lookup_ns, r->wfc_solve_ms);
}

void bench_structures_print_table(FILE *f, const BenchStructures *r)
{
    fprintf(f, "%-34s %12.1f ns\n", "flat zone lookup", r->flat_zone_lookup_ns);
    fprintf(f, "%-34s %12.2f ms\n", "wfc solve 12x3x12 (dungeon)", r->wfc_solve_ms);
}
