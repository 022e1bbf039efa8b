/* bench_render.c — strata-bench's rendering figures: triangles at view distance 8 (seed 42's spawn) with
 * and without greedy merging, and far-terrain patch build time.
 *
 * Design. The threaded update worker brings seed 42's world around the spawn to Valid at view distance 8
 * (as the game does); then every Valid chunk whose centre lies within the view distance is meshed again
 * here with merging on and off, and the triangles summed (2 per quad, before any culling), so both
 * figures come from the same cells. Figures, not tests: no thresholds here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_render.h"
#include "bench_world.h"
#include "strata/far_terrain.h"
#include "strata/generator.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

#define BENCH_RENDER_SEED 42
#define BENCH_RENDER_VD 8

static long bench_render_mesh_triangles(const Terrain *t, TerrainChunk *c, const BlockRegistry *blocks,
                                        MesherContext *ctx)
{
    ChunkGeometry *saved = c->worker_geometry;
    c->worker_geometry = NULL;
    mesher_build_pass(t, c, blocks, ctx, 1);
    mesher_build_pass(t, c, blocks, ctx, 2);
    ChunkMesh *m = mesher_pack(c);
    long tri = m ? chunk_mesh_vertex_count(m) / 2 : 0;
    chunk_mesh_destroy(m);
    chunk_geometry_destroy(c->worker_geometry);
    c->worker_geometry = saved;
    return tri;
}

static StResult bench_render_triangles(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    BenchWorld world;
    StResult rc = bench_world_load(asset_dir, blocks, BENCH_RENDER_SEED, BENCH_RENDER_VD, false, &world);
    if (rc != ST_OK) return rc;
    Terrain *terrain = world.terrain;
    int sx = world.spawn_x, sz = world.spawn_z;
    updater_destroy(world.updater);   /* joins the worker: the chunks are ours now */
    world.updater = NULL;
    MesherContext *merged = mesher_context_create(), *plain = mesher_context_create();
    if (rc == ST_OK && (!merged || !plain)) rc = st_fail(ST_ERR_NOMEM, "out of memory");
    if (rc == ST_OK) {
        mesher_context_set_merge(plain, false);
        long tri_merged = 0, tri_plain = 0;
        double r = BENCH_RENDER_VD * CHUNK_SIZE_X;
        for (int i = 0; i < terrain_chunk_count(terrain); i++) {
            TerrainChunk *c = terrain_chunk_at(terrain, i);
            double dx = c->origin_x + 8.0 - sx, dz = c->origin_z + 8.0 - sz;
            if (c->state != CHUNK_STATE_VALID || dx * dx + dz * dz > r * r) continue;
            tri_merged += bench_render_mesh_triangles(terrain, c, blocks, merged);
            tri_plain += bench_render_mesh_triangles(terrain, c, blocks, plain);
        }
        out->triangles_vd8 = (double)tri_merged;
        out->triangles_vd8_unmerged = (double)tri_plain;
    }
    mesher_context_destroy(merged);
    mesher_context_destroy(plain);
    for (int i = 0; i < terrain_chunk_count(terrain); i++) {
        TerrainChunk *c = terrain_chunk_at(terrain, i);
        chunk_geometry_destroy(c->worker_geometry);
        c->worker_geometry = NULL;
    }
    bench_world_free(&world);
    return rc;
}

static double bench_render_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench_render_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median time of one far patch (seed 1), over 48 patches of every level around the origin. */
static StResult bench_render_far(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 1;
    char path[1024];
    snprintf(path, sizeof path, "%s/worldgen.json", asset_dir);
    Generator *gen = NULL;
    StResult rc = generator_create(&s, blocks, path, &gen);
    if (rc != ST_OK) return rc;
    double times[48];
    int n = 0;
    for (int i = 0; i < 48 && rc == ST_OK; i++) {
        int level = i % FAR_LEVELS;
        uint8_t coarser[4] = {(uint8_t)level, (uint8_t)level, (uint8_t)level, (uint8_t)level};
        FarPatch p;
        double t0 = bench_render_now_us();
        rc = far_patch_build(gen, blocks, level, i % 7 - 3, i / 7 - 3, coarser, 6.0f, &p);
        if (rc != ST_OK) break;
        times[n++] = bench_render_now_us() - t0;
        far_patch_free(&p);
    }
    qsort(times, (size_t)n, sizeof *times, bench_render_compare);
    out->far_patch_build_us = n ? times[n / 2] : 0;
    generator_destroy(gen);
    return rc;
}

StResult bench_render_run(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    memset(out, 0, sizeof *out);
    StResult rc = bench_render_triangles(blocks, asset_dir, out);
    if (rc == ST_OK) rc = bench_render_far(blocks, asset_dir, out);
    return rc;
}

void bench_render_print_json(FILE *f, const BenchRender *r)
{
    fprintf(f, ", \"triangles_vd8\": %.0f, \"triangles_vd8_unmerged\": %.0f, \"far_patch_build_us\": %.1f",
            r->triangles_vd8, r->triangles_vd8_unmerged, r->far_patch_build_us);
}

void bench_render_print_table(FILE *f, const BenchRender *r)
{
    fprintf(f, "  %-28s %10.0f (unmerged %.0f)\n", "triangles, vd 8, seed 42", r->triangles_vd8,
            r->triangles_vd8_unmerged);
    fprintf(f, "  %-28s %10.1f us\n", "far patch build", r->far_patch_build_us);
}
