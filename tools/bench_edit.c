/* bench_edit.c — the editing benchmark: loads a 9x9-chunk area (non-threaded worker), then times on the main
 * thread only (no worker steps inside the timing) compile + paint of a radius-16 sphere, the undo of that
 * stroke, and a radius-16 flatten to 4 blocks below the surface, each 9 times (undone between runs). */
#include "bench_edit.h"

#include <stdlib.h>
#include <time.h>

#include "strata/edit.h"
#include "strata/shapes.h"
#include "strata/terrain_tools.h"
#include "strata/update.h"

static double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void drop(void *user, TerrainChunk *c, ChunkMesh *m) { (void)user; (void)c; chunk_mesh_destroy(m); }
static void keep(void *user, TerrainChunk *c) { (void)user; (void)c; }

StResult bench_edit_run(const Generator *gen, const BlockRegistry *blocks, BenchEditResults *out)
{
    Terrain *terrain = terrain_create();
    UpdaterConfig cfg = {.terrain = terrain, .generator = gen, .blocks = blocks, .sky_light = LIGHT_MAX, .threaded = false};
    TerrainUpdater *up = NULL;
    StResult rc = updater_create(&cfg, &up);
    if (rc != ST_OK) { terrain_destroy(terrain); return rc; }
    UpdateLocation loc = {.active = true, .x = 8, .z = 8, .visibility_chunks = 2, .content_chunks = 4};
    UpdaterCallbacks cb = {.mesh_ready = drop, .chunk_released = keep};
    updater_set_location(up, 0, &loc);
    for (int guard = 0; guard < 100000 && !updater_is_ready(up, 0); guard++) {
        updater_exchange(up, &cb);
        updater_run_steps(up, 64);
    }
    Editor *ed = NULL;
    EditorConfig ec = {.terrain = terrain, .updater = up, .blocks = blocks};
    if ((rc = editor_create(&ec, &ed)) != ST_OK) goto done;
    int surface = terrain_tool_surface_height(ed, 8, 8);
    enum { RUNS = 9 };
    double brush[RUNS], undo[RUNS], flat[RUNS];
    for (int i = 0; i < RUNS; i++) {
        double t0 = bench_now_us();
        ShapeSpec sp = {.kind = SHAPE_SPHERE, .sizes = {16}, .block = BLOCK_STONE};
        ShapeVolume v;
        if ((rc = shape_compile(&sp, &v)) != ST_OK) goto done;
        shape_paint(ed, &v, SHAPE_PAINT_REPLACE, 8, surface, 8);
        shape_volume_free(&v);
        brush[i] = bench_now_us() - t0;
        t0 = bench_now_us();
        editor_undo(ed);
        undo[i] = bench_now_us() - t0;
        updater_exchange(up, &cb);
        t0 = bench_now_us();
        terrain_tool_flatten(ed, 8, 8, 16, surface - 4, 1.0f, NULL);
        flat[i] = bench_now_us() - t0;
        editor_undo(ed);
        updater_exchange(up, &cb);
    }
    qsort(brush, RUNS, sizeof(double), cmp);
    qsort(undo, RUNS, sizeof(double), cmp);
    qsort(flat, RUNS, sizeof(double), cmp);
    out->brush_sphere_r16_us = brush[RUNS / 2];
    out->undo_r16_us = undo[RUNS / 2];
    out->flatten_r16_us = flat[RUNS / 2];
done:
    editor_destroy(ed);
    updater_destroy(up);
    terrain_destroy(terrain);
    return rc;
}
