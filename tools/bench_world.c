/* bench_world.c — loading a world around its spawn for the benchmarks (bench_world.h).
 *
 * Design: the same path the game takes (a threaded update worker and one update location), exchanged once a
 * millisecond until ready, so the figures measured on it describe a world as a player gets it. */
#include "bench_world.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/world_settings.h"

static void bench_world_drop_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    (void)user;
    (void)chunk;
    chunk_mesh_destroy(mesh);
}

static void bench_world_no_release(void *user, TerrainChunk *chunk)
{
    (void)user;
    (void)chunk;
}

void bench_world_free(BenchWorld *w)
{
    updater_destroy(w->updater);   /* joins the worker before its chunks go */
    terrain_destroy(w->terrain);
    generator_destroy(w->generator);
    memset(w, 0, sizeof *w);
}

StResult bench_world_load(const char *asset_dir, const BlockRegistry *blocks, uint64_t seed, int view_distance,
                          bool wait_packed, BenchWorld *out)
{
    memset(out, 0, sizeof *out);
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = seed;
    char path[1024];
    snprintf(path, sizeof path, "%s/worldgen.json", asset_dir);
    StResult rc = generator_create(&settings, blocks, path, &out->generator);
    if (rc != ST_OK) return rc;
    out->terrain = terrain_create();
    if (!out->terrain) {
        bench_world_free(out);
        return st_fail(ST_ERR_NOMEM, "out of memory");
    }
    UpdaterConfig cfg = {.terrain = out->terrain, .generator = out->generator, .blocks = blocks,
                         .sky_light = LIGHT_MAX, .threaded = true};
    if ((rc = updater_create(&cfg, &out->updater)) != ST_OK) {
        bench_world_free(out);
        return rc;
    }
    const Generator *gen = out->generator;
    gen->find_coarse_spawn_position(gen, &out->spawn_x, &out->spawn_z);
    UpdateLocation loc = {.active = true, .x = (float)out->spawn_x + 0.5f, .z = (float)out->spawn_z + 0.5f,
                          .visibility_chunks = view_distance, .content_chunks = view_distance + 2};
    UpdaterCallbacks cb = {.user = NULL, .mesh_ready = bench_world_drop_mesh, .chunk_released = bench_world_no_release};
    updater_set_location(out->updater, 0, &loc);
    bool ready = false;
    for (long frames = 0;; frames++) {
        updater_exchange(out->updater, &cb);
        if (!ready) ready = updater_is_ready(out->updater, 0);
        if (ready && (!wait_packed || chunk_scratch_in_use() == 0)) break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
        if (frames > 900000) {
            bench_world_free(out);
            return st_fail(ST_ERR_STATE, "world %llu never became ready%s", (unsigned long long)seed,
                           wait_packed ? " and packed" : "");
        }
    }
    return ST_OK;
}

StResult bench_world_move(BenchWorld *w, double x, double z, int view_distance)
{
    UpdateLocation loc = {.active = true, .x = (float)x, .z = (float)z, .visibility_chunks = view_distance,
                          .content_chunks = view_distance + 2};
    UpdaterCallbacks cb = {.user = NULL, .mesh_ready = bench_world_drop_mesh, .chunk_released = bench_world_no_release};
    updater_set_location(w->updater, 0, &loc);
    updater_exchange(w->updater, &cb);
    for (long frames = 0; !updater_is_ready(w->updater, 0); frames++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
        updater_exchange(w->updater, &cb);
        if (frames > 900000) return st_fail(ST_ERR_STATE, "world never became ready around %.1f, %.1f", x, z);
    }
    return ST_OK;
}
