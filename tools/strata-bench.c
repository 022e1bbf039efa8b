/* strata-bench — the engine's figures, with no window, for a fixed seed.
 *
 * Prints a table, or with --json one JSON object whose keys other checks rely on (never removed):
 * noise_2d_ns, noise_3d_ns, gen_pass_us[4], sunlight_us (fresh chunk, the worker's private path),
 * sunlight_relight_us (a live chunk lit again, compare-and-swap writes), propagate_us, vertex_pass_us[2] (each
 * chunk of the square with the geometry copies the game's worker builds for a player at its centre, update.h;
 * vertex_pass_mean_us the mean, vertex_pass_both_us with both copies, as every chunk built them before Step 18),
 * vertices_per_chunk, world_ready_ms, peak_rss_mb, edit_us, encode_us, decode_us, bytes_per_chunk,
 * seed_format_bytes_per_chunk, the memory keys of tools/bench_memory.c (chunk_resident_bytes_median,
 * chunk_resident_bytes_p95, sections_by_kind, rss_mb_vd16, rss_mb_vd32, rss_mb_game_vd8), game_ready_ms_vd8,
 * game_ready_ms_vd16, game_ready_ms_vd32 (bench_game.c: launch to ready of the
 * real game binary beside this one, offscreen at 1280x720, its default threads; -1 when unavailable),
 * threads (the update worker's pool size world_ready_ms used: --threads N, default cores - 1), world_hash
 * (64-bit FNV-1a of the cells and light of every Valid chunk at world ready, a hex string: the same for
 * every thread count), chunks_hot_at_ready (chunks unpacked then), chunk_resident_bytes_median (bytes
 * per chunk at world ready, also with --skip-memory; chunk_resident_bytes_median_idle: after idle packing), brush_sphere_r16_us,
 * flatten_r16_us, undo_r16_us, edit_visible_frames (the real game run offscreen beside this binary,
 * bench_edit.c), and the game's frame figures of bench_flight.c (frame_ms_p50, frame_ms_p95, frame_ms_p99,
 * frame_ms_max, frames_over_100ms, main_cpu_ms_p50, draw_calls_p50, chunk_draws_p50, triangles_p50,
 * backlog_max, holes_max, fps_spawn_vd8, fps_spawn_vd8_far2k): -1 in a plain run, measured by
 * `strata-bench --flight` (only those, about two minutes: the game flies seed 1 for 30 s and stands at
 * seed 42's spawn). `strata-bench --world-ready` runs only the threaded world load (world_ready_ms, threads,
 * world_hash, chunks_hot_at_ready, chunk_resident_bytes_median: a second or two, for --threads sweeps in
 * one sitting); it runs no game, so no figure of it follows a child process. Per-chunk figures are medians over a square of generated chunks
 * (BENCH_SIDE^2 chunks; the inner ones for steps that need neighbours). world_ready_ms is the wall time
 * from an empty Terrain until the threaded worker has every chunk within the view distance Valid, its location
 * a viewer as the game's player (each chunk builds the copies drawn from there).
 * The machine is shared and noisy: run it several times and compare medians in one sitting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "bench_edit.h"
#include "bench_flight.h"
#include "bench_heightfield.h"
#include "bench_memory.h"
#include "bench_render.h"
#include "bench_structures.h"
#include "strata/block.h"
#include "strata/chunk_codec.h"
#include "strata/edit.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/huge_pages.h"
#include "strata/light.h"
#include "strata/log.h"
#include "strata/mesher.h"
#include "strata/noise.h"
#include "strata/render.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "bench_game.h"

#define BENCH_SIDE 17   /* 289 chunks generated; the inner 15x15 = 225 for neighbour steps */

typedef struct BenchOptions {
    uint64_t seed;
    int view_distance;
    bool json;
    bool skip_memory;
    bool game;                  /* run the game binary for game_ready_ms_* (--no-game: skip) */
    bool flight;                /* --flight: only the game's frame benchmarks (bench_flight.c) */
    bool world_ready_only;      /* --world-ready: only the threaded world load (bench_world_ready) */
    const char *asset_dir;
    int generator_version;      /* --generator-version: 0 = this build's current version */
    int threads;                /* --threads: threads that run the update worker's steps (0: the default) */
} BenchOptions;

typedef struct BenchResults {
    double noise_2d_ns, noise_3d_ns;
    double gen_pass_us[4];
    double sunlight_us, sunlight_relight_us, propagate_us;
    double vertex_pass_us[2];       /* each chunk built with the copies the game's worker builds it with */
    double vertex_pass_mean_us[2];  /* the same, the mean */
    double vertex_pass_both_us[2];  /* each chunk built with both copies (the figure before Step 18) */
    double vertices_per_chunk;
    double world_ready_ms;
    int threads;                    /* the pool size world_ready_ms used */
    uint64_t world_hash;            /* cells and light of every Valid chunk at world ready */
    int chunks_hot_at_ready;        /* chunks unpacked (a 256 KiB scratch) when the world turned ready */
    double resident_median_at_ready;/* chunk_resident_bytes_median then */
    double game_ready_ms_vd8, game_ready_ms_vd16, game_ready_ms_vd32; /* bench_game.c: through the real game,
                                                                      * -1 if unavailable */
    double peak_rss_mb;
    double edit_us;
    BenchEditResults editing;
    double encode_us, decode_us, bytes_per_chunk, seed_format_bytes_per_chunk;
    BenchHeightfield heightfield;   /* tools/bench_heightfield.c */
    BenchMemory memory;             /* tools/bench_memory.c */
    BenchStructures structures;     /* tools/bench_structures.c */
    BenchRender render;             /* tools/bench_render.c */
} BenchResults;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int n)
{
    if (n <= 0) return 0;
    qsort(values, (size_t)n, sizeof *values, compare_double);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* ---- noise ---- */

static void bench_noise(BenchResults *r)
{
    NoiseTable table;
    noise_table_init(&table, 12345);
    const int n = 2000000;
    float sink = 0;
    double samples[5];
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_us();
        for (int i = 0; i < n; i++) sink += noise_simplex2(&table, (float)i * 0.0137f, (float)(i & 1023) * 0.071f);
        samples[rep] = (now_us() - t0) * 1000.0 / n;
    }
    r->noise_2d_ns = median(samples, 5);
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_us();
        for (int i = 0; i < n; i++)
            sink += noise_simplex3(&table, (float)i * 0.0137f, (float)(i & 255) * 0.071f, (float)(i & 4095) * 0.023f);
        samples[rep] = (now_us() - t0) * 1000.0 / n;
    }
    r->noise_3d_ns = median(samples, 5);
    if (sink == 12345.678f) puts("");  /* keep the loops */
}

/* ---- per-chunk stages over a square of chunks ---- */

static StResult bench_chunks(const BenchOptions *o, const BlockRegistry *blocks, const Generator *gen, BenchResults *r)
{
    Terrain *terrain = terrain_create();
    GenContext *gctx = gen_context_create();
    LightContext *lctx = light_context_create();
    MesherContext *mctx = mesher_context_create();
    ChunkCodec *codec = chunk_codec_create();
    int total = BENCH_SIDE * BENCH_SIDE, inner = (BENCH_SIDE - 2) * (BENCH_SIDE - 2);
    double *pass_t[4], *sun_t, *relight_t, *prop_t, *vert_t[2], *vert_both_t[2], *verts, *enc_t, *dec_t, *bytes,
        *seed_bytes;
    for (int p = 0; p < 4; p++) pass_t[p] = calloc((size_t)total, sizeof(double));
    sun_t = calloc((size_t)total, sizeof(double));
    relight_t = calloc((size_t)total, sizeof(double));
    prop_t = calloc((size_t)inner, sizeof(double));
    vert_t[0] = calloc((size_t)inner, sizeof(double));
    vert_t[1] = calloc((size_t)inner, sizeof(double));
    vert_both_t[0] = calloc((size_t)inner, sizeof(double));
    vert_both_t[1] = calloc((size_t)inner, sizeof(double));
    verts = calloc((size_t)inner, sizeof(double));
    enc_t = calloc((size_t)inner, sizeof(double));
    dec_t = calloc((size_t)inner, sizeof(double));
    bytes = calloc((size_t)inner, sizeof(double));
    seed_bytes = calloc((size_t)inner, sizeof(double));
    TerrainChunk *scratch = chunk_create(0, 0);
    if (!terrain || !gctx || !lctx || !mctx || !codec || !scratch)
        return st_fail(ST_ERR_NOMEM, "out of memory setting up the chunk benchmark");
    (void)o;
    int half = BENCH_SIDE / 2, k = 0;
    for (int cz = -half; cz <= half; cz++)
        for (int cx = -half; cx <= half; cx++, k++) {
            TerrainChunk *c = terrain_allocate_chunk(terrain, cx, cz);
            chunk_make_hot(c); /* its flat cells, allocated outside the timing as the flat layout's were */
            for (int p = 0; p < 4; p++) {
                double t0 = now_us();
                generator_run_pass(gen, p + 1, c, gctx);
                pass_t[p][k] = now_us() - t0;
            }
            /* a fresh chunk: the worker's private (plain-store) path, as in the game */
            double t0 = now_us();
            light_compute_sunlight_ctx(c, blocks, LIGHT_MAX, false, lctx);
            sun_t[k] = now_us() - t0;
            /* a live chunk lit again (sky change, edit nearby): the shared path, compare-and-swap writes */
            t0 = now_us();
            light_compute_sunlight_ctx(c, blocks, LIGHT_MAX, true, lctx);
            relight_t[k] = now_us() - t0;
        }
    k = 0;
    for (int cz = -half + 1; cz < half; cz++)
        for (int cx = -half + 1; cx < half; cx++, k++) {
            TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
            double t0 = now_us();
            light_propagate(terrain, c, blocks, lctx);
            prop_t[k] = now_us() - t0;
        }
    /* The vertex passes: each chunk with the geometry copies the game's worker builds it with for a player at
     * the square's centre (update.h: full resolution within 64 blocks, the far copy from 32), then with both
     * (vertex_pass_both_us, and vertices_per_chunk as before). */
    UpdateLocation player = {.active = true, .x = 8.0f, .z = 8.0f, .visibility_chunks = half, .content_chunks = half + 2,
                             .viewer = true, .far_copy_from = RENDER_LOD_FROM};
    for (int copies = 0; copies < 2; copies++) {   /* one sweep each: every chunk's cells as far from the caches */
        k = 0;
        for (int cz = -half + 1; cz < half; cz++)
            for (int cx = -half + 1; cx < half; cx++, k++) {
                TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
                mesher_context_set_copies(mctx, copies ? MESH_COPIES_BOTH : updater_copies_wanted(&player, 1, cx, cz));
                for (int p = 0; p < 2; p++) {
                    double t0 = now_us();
                    mesher_build_pass(terrain, c, blocks, mctx, p + 1);
                    (copies ? vert_both_t : vert_t)[p][k] = now_us() - t0;
                }
                if (copies) {
                    ChunkMesh *mesh = mesher_pack(c);
                    verts[k] = mesh ? chunk_mesh_vertex_count(mesh) : 0;
                    chunk_mesh_destroy(mesh);
                }
                chunk_geometry_destroy(c->worker_geometry);
                c->worker_geometry = NULL;
            }
    }
    /* Codec: generated chunks with some player-like edits (a dug shaft, a few placed blocks). */
    k = 0;
    for (int cz = -half + 1; cz < half; cz++)
        for (int cx = -half + 1; cx < half; cx++, k++) {
            TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
            for (int y = 40; y < 80; y++) chunk_set_cell(c, 7, y, 7, cell_make(BLOCK_AIR, 0));
            for (int i = 0; i < 12; i++) chunk_set_cell(c, i, 90, 3, cell_make(BLOCK_PLANKS, 0));
            chunk_set_cell(c, 3, 91, 3, cell_make(BLOCK_TORCH, 0));
            const uint8_t *data = NULL;
            size_t size = 0, seed_size = 0;
            double t0 = now_us();
            StResult rc = chunk_codec_encode(codec, c, &data, &size);
            enc_t[k] = now_us() - t0;
            if (rc != ST_OK) return rc;
            bytes[k] = (double)size;
            /* decode from a copy: the encoder's buffer is reused by the next call */
            uint8_t *copy = malloc(size);
            if (!copy) return st_fail(ST_ERR_NOMEM, "out of memory");
            memcpy(copy, data, size);
            rc = chunk_codec_seed_format_size(codec, c, &seed_size);
            if (rc != ST_OK) { free(copy); return rc; }
            seed_bytes[k] = (double)seed_size;
            chunk_reset(scratch, cx, cz);
            t0 = now_us();
            rc = chunk_codec_decode(codec, blocks, copy, size, scratch);
            dec_t[k] = now_us() - t0;
            free(copy);
            if (rc != ST_OK) return rc;
        }
    for (int p = 0; p < 4; p++) r->gen_pass_us[p] = median(pass_t[p], total);
    r->sunlight_us = median(sun_t, total);
    r->sunlight_relight_us = median(relight_t, total);
    r->propagate_us = median(prop_t, inner);
    r->vertex_pass_us[0] = median(vert_t[0], inner);
    r->vertex_pass_us[1] = median(vert_t[1], inner);
    for (int p = 0; p < 2; p++) {
        double sum = 0;
        for (int i = 0; i < inner; i++) sum += vert_t[p][i];
        r->vertex_pass_mean_us[p] = sum / inner;
        r->vertex_pass_both_us[p] = median(vert_both_t[p], inner);
    }
    r->vertices_per_chunk = median(verts, inner);
    r->encode_us = median(enc_t, inner);
    r->decode_us = median(dec_t, inner);
    r->bytes_per_chunk = median(bytes, inner);
    r->seed_format_bytes_per_chunk = median(seed_bytes, inner);
    for (int p = 0; p < 4; p++) free(pass_t[p]);
    free(sun_t); free(relight_t); free(prop_t); free(vert_t[0]); free(vert_t[1]);
    free(vert_both_t[0]); free(vert_both_t[1]); free(verts);
    free(enc_t); free(dec_t); free(bytes); free(seed_bytes); chunk_destroy(scratch);
    chunk_codec_destroy(codec);
    mesher_context_destroy(mctx);
    light_context_destroy(lctx);
    gen_context_destroy(gctx);
    terrain_destroy(terrain);
    return ST_OK;
}

/* ---- world ready and edits, through the real update worker ---- */

static void drop_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    (void)user; (void)chunk;
    chunk_mesh_destroy(mesh);
}

static void no_release(void *user, TerrainChunk *chunk) { (void)user; (void)chunk; }

/* At world ready, with the worker still running (chunk_resident_bytes takes each chunk's cell lock): the
 * median bytes per chunk and the hot chunks (a scratch of CHUNK_CELLS cells). */
static void bench_ready_memory(const Terrain *terrain, BenchResults *r)
{
    int n = terrain_chunk_count(terrain), hot = 0;
    double *bytes = malloc(sizeof *bytes * (size_t)(n ? n : 1));
    if (!bytes) return;
    for (int i = 0; i < n; i++) {
        size_t b = chunk_resident_bytes(terrain_chunk_at(terrain, i), NULL);
        bytes[i] = (double)b;
        if (b >= (size_t)CHUNK_CELLS * sizeof(int32_t)) hot++;
    }
    r->chunks_hot_at_ready = hot;
    r->resident_median_at_ready = median(bytes, n);
    free(bytes);
}

static int compare_chunk_coords(const void *pa, const void *pb)
{
    const TerrainChunk *a = *(TerrainChunk *const *)pa, *b = *(TerrainChunk *const *)pb;
    if (a->coord_z != b->coord_z) return a->coord_z < b->coord_z ? -1 : 1;
    return (a->coord_x > b->coord_x) - (a->coord_x < b->coord_x);
}

/* world_hash: FNV-1a over the 32-bit words (contents, light, data) of every Valid chunk, in chunk order,
 * each led by its coordinates. Run once the updater is gone (no thread touches the chunks). */
static uint64_t bench_world_hash(const Terrain *terrain)
{
    int n = terrain_chunk_count(terrain), valid = 0;
    TerrainChunk **order = malloc(sizeof *order * (size_t)(n ? n : 1));
    int32_t *cells = malloc(sizeof *cells * CHUNK_CELLS);
    uint64_t h = 0xcbf29ce484222325ull;
    if (order && cells) {
        for (int i = 0; i < n; i++) {
            TerrainChunk *c = terrain_chunk_at(terrain, i);
            if (c->state == CHUNK_STATE_VALID) order[valid++] = c;
        }
        qsort(order, (size_t)valid, sizeof *order, compare_chunk_coords);
        for (int i = 0; i < valid; i++) {
            uint32_t key[2] = {(uint32_t)order[i]->coord_x, (uint32_t)order[i]->coord_z};
            for (int k = 0; k < 2; k++) h = (h ^ key[k]) * 0x100000001b3ull;
            chunk_copy_cells_out(order[i], cells);
            for (int k = 0; k < CHUNK_CELLS; k++) h = (h ^ (uint32_t)cells[k]) * 0x100000001b3ull;
        }
    }
    free(cells);
    free(order);
    return h;
}

static StResult bench_world_ready(const BenchOptions *o, const BlockRegistry *blocks, const Generator *gen, BenchResults *r)
{
    Terrain *terrain = terrain_create();
    if (!terrain) return st_fail(ST_ERR_NOMEM, "out of memory");
    UpdaterConfig cfg = {.terrain = terrain, .generator = gen, .blocks = blocks, .sky_light = LIGHT_MAX, .threaded = true,
                         .threads = o->threads};
    TerrainUpdater *up = NULL;
    StResult rc = updater_create(&cfg, &up);
    if (rc != ST_OK) { terrain_destroy(terrain); return rc; }
    int sx = 0, sz = 0;
    gen->find_coarse_spawn_position(gen, &sx, &sz);
    UpdateLocation loc = {.active = true, .x = (float)sx + 0.5f, .z = (float)sz + 0.5f,
                          .visibility_chunks = o->view_distance, .content_chunks = o->view_distance + 2,
                          .viewer = true, .far_copy_from = RENDER_LOD_FROM};   /* as the game's player */
    UpdaterCallbacks cb = {.user = NULL, .mesh_ready = drop_mesh, .chunk_released = no_release};
    double t0 = now_us();
    updater_set_location(up, 0, &loc);
    long frames = 0;
    for (;;) {
        updater_exchange(up, &cb);
        if (updater_is_ready(up, 0)) break;
        struct timespec ts = {0, 1000000};  /* a 1 ms "frame" */
        nanosleep(&ts, NULL);
        if (++frames > 600000) { rc = st_fail(ST_ERR_STATE, "the world never became ready"); break; }
    }
    r->world_ready_ms = (now_us() - t0) / 1000.0;
    r->threads = updater_threads(up);
    bench_ready_memory(terrain, r);
    updater_destroy(up);
    r->world_hash = bench_world_hash(terrain);
    terrain_destroy(terrain);
    return rc;
}

static StResult bench_edits(const Generator *gen, const BlockRegistry *blocks, BenchResults *r)
{
    Terrain *terrain = terrain_create();
    UpdaterConfig cfg = {.terrain = terrain, .generator = gen, .blocks = blocks, .sky_light = LIGHT_MAX, .threaded = false};
    TerrainUpdater *up = NULL;
    StResult rc = updater_create(&cfg, &up);
    if (rc != ST_OK) { terrain_destroy(terrain); return rc; }
    UpdateLocation loc = {.active = true, .x = 8, .z = 8, .visibility_chunks = 3, .content_chunks = 5};
    UpdaterCallbacks cb = {.user = NULL, .mesh_ready = drop_mesh, .chunk_released = no_release};
    updater_set_location(up, 0, &loc);
    for (int guard = 0; guard < 100000 && !updater_is_ready(up, 0); guard++) {
        updater_exchange(up, &cb);
        updater_run_steps(up, 64);
    }
    enum { EDITS = 40 };
    double t[EDITS];
    int n = 0;
    for (int i = 0; i < EDITS; i++) {
        int x = (i * 7) % 32 - 8, z = (i * 13) % 32 - 8;
        int y = 255;
        while (y > 1 && cell_contents(terrain_get_cell_value(terrain, x, y, z)) == BLOCK_AIR) y--;
        if (!edit_change_cell(terrain, up, x, y, z, cell_make(BLOCK_AIR, 0))) continue;
        updater_exchange(up, &cb);
        double t0 = now_us();
        while (updater_run_steps(up, 1000) > 0) {}
        t[n++] = now_us() - t0;
        updater_exchange(up, &cb);
    }
    r->edit_us = median(t, n);
    updater_destroy(up);
    terrain_destroy(terrain);
    return ST_OK;
}

/* ---- output ---- */

static void print_json(const BenchResults *r)
{
    printf("{\"noise_2d_ns\": %.2f, \"noise_3d_ns\": %.2f, "
           "\"gen_pass_us\": [%.1f, %.1f, %.1f, %.1f], \"sunlight_us\": %.1f, \"sunlight_relight_us\": %.1f, \"propagate_us\": %.1f, "
           "\"vertex_pass_us\": [%.1f, %.1f], \"vertices_per_chunk\": %.0f, \"world_ready_ms\": %.1f, "
           "\"peak_rss_mb\": %.1f, \"edit_us\": %.1f, \"encode_us\": %.1f, \"decode_us\": %.1f, "
           "\"bytes_per_chunk\": %.0f, \"seed_format_bytes_per_chunk\": %.0f",
           r->noise_2d_ns, r->noise_3d_ns, r->gen_pass_us[0], r->gen_pass_us[1], r->gen_pass_us[2],
           r->gen_pass_us[3], r->sunlight_us, r->sunlight_relight_us, r->propagate_us, r->vertex_pass_us[0], r->vertex_pass_us[1],
           r->vertices_per_chunk, r->world_ready_ms, r->peak_rss_mb, r->edit_us, r->encode_us, r->decode_us,
           r->bytes_per_chunk, r->seed_format_bytes_per_chunk);
    bench_heightfield_print_json(stdout, &r->heightfield);
    bench_memory_print_json(stdout, &r->memory);
    printf(", \"brush_sphere_r16_us\": %.1f, \"flatten_r16_us\": %.1f, \"undo_r16_us\": %.1f, "
           "\"edit_visible_frames\": %.0f",
           r->editing.brush_sphere_r16_us, r->editing.flatten_r16_us, r->editing.undo_r16_us,
           r->editing.edit_visible_frames);
    bench_structures_print_json(stdout, &r->structures);
    bench_render_print_json(stdout, &r->render);
    printf(", \"game_ready_ms_vd8\": %.1f, \"game_ready_ms_vd16\": %.1f, \"game_ready_ms_vd32\": %.1f", r->game_ready_ms_vd8,
           r->game_ready_ms_vd16, r->game_ready_ms_vd32);
    printf(", \"vertex_pass_mean_us\": [%.1f, %.1f], \"vertex_pass_both_us\": [%.1f, %.1f]", r->vertex_pass_mean_us[0],
           r->vertex_pass_mean_us[1], r->vertex_pass_both_us[0], r->vertex_pass_both_us[1]);
    printf(", \"threads\": %d, \"world_hash\": \"%016llx\", \"chunks_hot_at_ready\": %d", r->threads,
           (unsigned long long)r->world_hash, r->chunks_hot_at_ready);
    BenchFlightResults flight;
    bench_flight_unmeasured(&flight); /* strata-bench --flight measures them */
    bench_flight_print_json(stdout, &flight);
    printf("}\n");
}

static void print_table(const BenchOptions *o, const BenchResults *r)
{
    double gen_total = r->gen_pass_us[0] + r->gen_pass_us[1] + r->gen_pass_us[2] + r->gen_pass_us[3];
    printf("strata-bench  seed %llu  view distance %d  (medians; per chunk unless noted)\n",
           (unsigned long long)o->seed, o->view_distance);
    printf("  %-28s %10.2f ns/sample\n", "noise 2D (simplex)", r->noise_2d_ns);
    printf("  %-28s %10.2f ns/sample\n", "noise 3D (simplex)", r->noise_3d_ns);
    for (int p = 0; p < 4; p++) printf("  generation pass %d %20.1f us\n", p + 1, r->gen_pass_us[p]);
    printf("  %-28s %10.1f us\n", "generation, 4 passes", gen_total);
    printf("  %-28s %10.1f us\n", "sunlight (fresh chunk)", r->sunlight_us);
    printf("  %-28s %10.1f us\n", "sunlight (relight, shared)", r->sunlight_relight_us);
    printf("  %-28s %10.1f us\n", "light propagation", r->propagate_us);
    printf("  %-28s %10.1f us\n", "vertex pass 1", r->vertex_pass_us[0]);
    printf("  %-28s %10.1f us\n", "vertex pass 2", r->vertex_pass_us[1]);
    printf("  %-28s %10.1f / %.1f us (mean)\n", "vertex passes 1 / 2", r->vertex_pass_mean_us[0], r->vertex_pass_mean_us[1]);
    printf("  %-28s %10.1f / %.1f us\n", "vertex passes, both copies", r->vertex_pass_both_us[0], r->vertex_pass_both_us[1]);
    printf("  %-28s %10.0f\n", "vertices per chunk", r->vertices_per_chunk);
    printf("  %-28s %10.1f us (worker time)\n", "single-block edit", r->edit_us);
    printf("  %-28s %10.1f us (main thread)\n", "brush sphere r16", r->editing.brush_sphere_r16_us);
    printf("  %-28s %10.1f us (main thread)\n", "flatten r16", r->editing.flatten_r16_us);
    printf("  %-28s %10.1f us (main thread)\n", "undo r16 sphere", r->editing.undo_r16_us);
    printf("  %-28s %10.0f frames (game, offscreen; -1: could not run)\n", "sphere r8 stroke on screen",
           r->editing.edit_visible_frames);
    printf("  %-28s %10.1f us\n", "encode", r->encode_us);
    printf("  %-28s %10.1f us\n", "decode", r->decode_us);
    printf("  %-28s %10.0f (seed format %.0f)\n", "bytes per stored chunk", r->bytes_per_chunk,
           r->seed_format_bytes_per_chunk);
    printf("  %-28s %10.1f ms (%d threads; world hash %016llx)\n", "world ready (threaded)", r->world_ready_ms,
           r->threads, (unsigned long long)r->world_hash);
    printf("  %-28s %10d (resident median %.0f B)\n", "hot chunks at world ready", r->chunks_hot_at_ready,
           r->resident_median_at_ready);
    printf("  %-28s %10.1f MB\n", "peak RSS", r->peak_rss_mb);
    bench_heightfield_print_table(stdout, &r->heightfield);
    bench_memory_print_table(stdout, &r->memory);
    bench_structures_print_table(stdout, &r->structures);
    bench_render_print_table(stdout, &r->render);
    printf("  %-28s %10.1f ms\n", "game launch to ready, vd 8", r->game_ready_ms_vd8);
    printf("  %-28s %10.1f ms\n", "game launch to ready, vd 16", r->game_ready_ms_vd16);
    printf("  %-28s %10.1f ms\n", "game launch to ready, vd 32", r->game_ready_ms_vd32);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: strata-bench [--json] [--no-game] [--threads N] [--seed S] [--view-distance N] [--assets DIR]\n"
               "       strata-bench --flight [--json]\n"
               "       strata-bench --world-ready [--json] [--threads N] [--seed S] [--view-distance N]\n"
               "  --json              print one JSON object instead of a table\n"
               "  --flight            only the game's frame benchmarks: the 30 s flight over seed 1 and the frame\n"
               "                      rate at seed 42's spawn (the game binary beside this one, offscreen)\n"
               "  --world-ready       only the threaded world load: world_ready_ms, threads, world_hash,\n"
               "                      chunks_hot_at_ready, chunk_resident_bytes_median (for --threads sweeps)\n"
               "  --no-game           skip game_ready_ms_vd8/vd16/vd32 (the game binary beside this one; -1)\n"
               "  --threads N         threads that run the update worker's steps for world_ready_ms (1..64;\n"
               "                      default: cores - 1, at least 1); the game runs keep their default\n"
               "  --seed S            world seed (integer or text; default 1)\n"
               "  --view-distance N   view distance in chunks for world_ready_ms (2..32; default 8)\n"
               "  --assets DIR        folder with blocks.json and worldgen.json (default: the source tree's)\n"
               "  --skip-memory       leave out the memory figures (they load worlds at view distance 16 and 32)\n"
               "  --generator-version N  an older version of the world's generator (e.g. 3 to compare with a build\n"
               "                      that had no newer one; default: this build's current version)\n"
               "  world settings as strata-map takes them, e.g. --heightmap FILE --height-range MIN,MAX\n"
               "  --map-scale N (the generator and world figures are then a heightmap world's)\n");
}

int main(int argc, char **argv)
{
    process_prefer_huge_pages(argv); /* as the game runs: malloc on huge pages (may start this binary again) */
    if (argc >= 4 && !strcmp(argv[1], "--memory-probe")) return bench_memory_probe_main(argc, argv);
    BenchOptions o = {.seed = 1, .view_distance = 8, .json = false, .game = true, .asset_dir = STRATA_ASSET_DIR};
    WorldSettings settings;   /* --heightmap and the other world settings' flags (world_settings.h) */
    world_settings_default(&settings);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const WorldSettingSpec *ws = world_setting_find_flag(a);
        if (ws && ws->type != WORLD_SETTING_SEED && i + 1 < argc) {
            if (world_settings_apply_flag(ws, argv[++i], &settings) != ST_OK) {
                fprintf(stderr, "strata-bench: %s\n", st_error_message());
                return 2;
            }
        } else if (!strcmp(a, "--json")) o.json = true;
        else if (!strcmp(a, "--no-game")) o.game = false;
        else if (!strcmp(a, "--flight")) o.flight = true;
        else if (!strcmp(a, "--world-ready")) o.world_ready_only = true;
        else if (!strcmp(a, "--skip-memory")) o.skip_memory = true;
        else if (!strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--generator-version") && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 1000) {
                fprintf(stderr, "strata-bench: --generator-version expects an integer >= 1, got '%s'\n", argv[i]);
                return 2;
            }
            o.generator_version = (int)n;
        } else if (!strcmp(a, "--threads") && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 64) {
                fprintf(stderr, "strata-bench: --threads expects an integer 1..64, got '%s'\n", argv[i]);
                return 2;
            }
            o.threads = (int)n;
        } else if ((!strcmp(a, "--seed") || !strcmp(a, "--view-distance") || !strcmp(a, "--assets")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(a, "--seed")) {
                if (world_seed_parse(v, &o.seed) != ST_OK) {
                    fprintf(stderr, "strata-bench: --seed: %s\n", st_error_message());
                    return 2;
                }
            } else if (!strcmp(a, "--view-distance")) {
                char *end;
                long n = strtol(v, &end, 10);
                if (*end || n < 2 || n > 32) {
                    fprintf(stderr, "strata-bench: --view-distance expects an integer 2..32, got '%s'\n", v);
                    return 2;
                }
                o.view_distance = (int)n;
            } else {
                o.asset_dir = v;
            }
        } else {
            fprintf(stderr, "strata-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    log_set_level(LOG_WARN);
    if (o.flight) {
        BenchFlightResults flight;
        bool flown = bench_flight_run(&flight);
        if (o.json) {
            printf("{\"flight\": %s", flown ? "true" : "false");
            bench_flight_print_json(stdout, &flight);
            printf("}\n");
        } else {
            printf("strata-bench --flight  (the game offscreen at 1280x720, view distance 8)\n");
            bench_flight_print_table(stdout, &flight);
        }
        return flown ? 0 : 1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/blocks.json", o.asset_dir);
    BlockRegistry *blocks = NULL;
    if (block_registry_load(path, &blocks) != ST_OK) {
        fprintf(stderr, "strata-bench: %s\n", st_error_message());
        return 1;
    }
    snprintf(path, sizeof path, "%s/textures/atlas.png", o.asset_dir);
    if (block_registry_fit_tiles(blocks, path) != ST_OK)  /* mesh plants and ice as the game does */
        fprintf(stderr, "strata-bench: %s; plants keep whole quads, ice has no far copy\n", st_error_message());
    settings.seed = o.seed;
    snprintf(path, sizeof path, "%s/worldgen.json", o.asset_dir);
    Generator *gen = NULL;
    if (generator_create_version(&settings, blocks, path, o.generator_version, &gen) != ST_OK) {
        fprintf(stderr, "strata-bench: %s\n", st_error_message());
        block_registry_destroy(blocks);
        return 1;
    }
    BenchResults r = {0};
    if (o.world_ready_only) {
        StResult wr = bench_world_ready(&o, blocks, gen, &r);
        if (wr == ST_OK && o.json)
            printf("{\"threads\": %d, \"world_ready_ms\": %.1f, \"world_hash\": \"%016llx\", \"chunks_hot_at_ready\": %d, "
                   "\"chunk_resident_bytes_median\": %.0f}\n",
                   r.threads, r.world_ready_ms, (unsigned long long)r.world_hash, r.chunks_hot_at_ready,
                   r.resident_median_at_ready);
        else if (wr == ST_OK)
            printf("world ready (threaded)  %.1f ms (%d threads; world hash %016llx; %d hot; resident median %.0f B)\n",
                   r.world_ready_ms, r.threads, (unsigned long long)r.world_hash, r.chunks_hot_at_ready,
                   r.resident_median_at_ready);
        else
            fprintf(stderr, "strata-bench: %s\n", st_error_message());
        generator_destroy(gen);
        block_registry_destroy(blocks);
        return wr == ST_OK ? 0 : 1;
    }
    bench_noise(&r);
    StResult rc = bench_chunks(&o, blocks, gen, &r);
    if (rc == ST_OK) rc = bench_edits(gen, blocks, &r);
    if (rc == ST_OK) rc = bench_edit_run(gen, blocks, &r.editing);
    if (rc == ST_OK) bench_edit_visible_frames(o.seed, o.view_distance, &r.editing);
    if (rc == ST_OK) rc = bench_world_ready(&o, blocks, gen, &r);
    if (rc == ST_OK) rc = bench_heightfield_run(&r.heightfield);
    if (rc == ST_OK && !o.skip_memory) rc = bench_memory_run(o.asset_dir, blocks, &r.memory);
    if (rc == ST_OK) rc = bench_structures_run(&r.structures);
    if (rc == ST_OK) rc = bench_render_run(blocks, o.asset_dir, &r.render);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-bench: %s\n", st_error_message());
        generator_destroy(gen);
        block_registry_destroy(blocks);
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.peak_rss_mb = (double)ru.ru_maxrss / 1024.0; /* before the game runs: children are not counted anyway */
    if (o.game) {
        r.game_ready_ms_vd8 = bench_game_ready_ms((unsigned long long)o.seed, 8);
        r.game_ready_ms_vd16 = bench_game_ready_ms((unsigned long long)o.seed, 16);
        r.game_ready_ms_vd32 = bench_game_ready_ms((unsigned long long)o.seed, 32);
    } else {
        r.game_ready_ms_vd8 = r.game_ready_ms_vd16 = r.game_ready_ms_vd32 = -1.0;
    }
    /* chunk_resident_bytes_median is the figure at world ready (with --skip-memory too); the memory bench's
     * median after the idle worker packed seeds 1 and 2 stays as chunk_resident_bytes_median_idle. */
    r.memory.chunk_resident_bytes_median_idle = o.skip_memory ? -1 : r.memory.chunk_resident_bytes_median;
    r.memory.chunk_resident_bytes_median = r.resident_median_at_ready;
    if (o.json) print_json(&r);
    else print_table(&o, &r);
    generator_destroy(gen);
    block_registry_destroy(blocks);
    return 0;
}
