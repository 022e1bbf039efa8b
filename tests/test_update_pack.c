/* test_update_pack.c — packing settled chunks on the job pool (src/update/update_pack.c), and edits first.
 *
 * A world loaded with pack jobs (2 and 4 threads) has the same chunks cold, the same sections (kind and heap
 * bytes of each) and the same cells, light and shafts as one whose chunks the worker packed itself (1 thread),
 * and the pool packed them (UpdaterStats.pack_jobs). A threaded world is all cold the moment it turns ready
 * at 1, 2 and 4 threads, with the same hash (pack jobs are taken back in a fixed order, and a chunk is not
 * seen at its new state before its pack is back). With a pool and a far location still loading, the steps
 * of a block an edit sent back all come before any loading chunk's. The worker and the pool's threads go by
 * their own names (top -H, perf, gdb), not by the name of the thread that made them. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "strata/block.h"
#include "strata/chunk_sections.h"
#include "strata/edit.h"
#include "strata/generator.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

static BlockRegistry *g_blocks;
static Generator *g_gen;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static int compare_chunks(const void *pa, const void *pb)
{
    const TerrainChunk *a = *(TerrainChunk *const *)pa, *b = *(TerrainChunk *const *)pb;
    if (a->coord_z != b->coord_z) return a->coord_z < b->coord_z ? -1 : 1;
    return (a->coord_x > b->coord_x) - (a->coord_x < b->coord_x);
}

/* What a world holds, chunk by chunk in coordinate order: cells, light and shafts (world_hash; only of Valid
 * chunks with valid_only, as strata-bench's: the outer rings of a threaded world still move at ready), and the
 * form (hot or the kind and heap bytes of every section: form_hash). */
typedef struct WorldPrint {
    uint64_t world_hash, form_hash;
    int chunks, hot;
} WorldPrint;

static WorldPrint world_print(const Terrain *terrain, bool valid_only)
{
    WorldPrint w = {0xcbf29ce484222325ull, 0xcbf29ce484222325ull, 0, 0};
    int n = terrain_chunk_count(terrain);
    TerrainChunk **order = malloc(sizeof *order * (size_t)(n ? n : 1));
    int32_t *cells = malloc(sizeof *cells * CHUNK_CELLS);
    if (!order || !cells) {
        CHECK(order && cells);
        free(order);
        free(cells);
        return w;
    }
    for (int i = 0; i < n; i++) order[i] = terrain_chunk_at(terrain, i);
    qsort(order, (size_t)n, sizeof *order, compare_chunks);
    for (int i = 0; i < n; i++) {
        const TerrainChunk *c = order[i];
        int key[3] = {c->coord_x, c->coord_z, (int)c->state};
        if (!valid_only || c->state == CHUNK_STATE_VALID) {
            w.world_hash = fnv(w.world_hash, key, sizeof key);
            chunk_copy_cells_out(c, cells);
            w.world_hash = fnv(w.world_hash, cells, sizeof *cells * CHUNK_CELLS);
            w.world_hash = fnv(w.world_hash, c->shafts, sizeof c->shafts);
        }
        int hot = chunk_is_hot(c);
        w.hot += hot;
        w.form_hash = fnv(w.form_hash, key, sizeof key[0] * 2);
        w.form_hash = fnv(w.form_hash, &hot, sizeof hot);
        for (int s = 0; s < CHUNK_SECTIONS && !hot; s++) {
            uint64_t form[2] = {(uint64_t)section_kind(&c->sections[s]), (uint64_t)section_heap_bytes(&c->sections[s])};
            w.form_hash = fnv(w.form_hash, form, sizeof form);
        }
    }
    w.chunks = n;
    free(order);
    free(cells);
    return w;
}

static void drop_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    (void)user;
    (void)chunk;
    chunk_mesh_destroy(mesh);
}

static const UpdaterCallbacks callbacks = {.user = NULL, .mesh_ready = drop_mesh, .chunk_released = NULL};

static TerrainUpdater *make_updater(Terrain *terrain, bool threaded, int threads)
{
    UpdaterConfig config = {.terrain = terrain, .generator = g_gen, .blocks = g_blocks, .sky_light = 15,
                            .threaded = threaded, .threads = threads};
    TerrainUpdater *u = NULL;
    CHECK_EQ_INT(updater_create(&config, &u), ST_OK);
    if (u) CHECK_EQ_INT(updater_threads(u), threads);
    return u;
}

static void set_location(TerrainUpdater *u, int index, float x, float z, int visibility)
{
    UpdateLocation loc = {.active = true, .x = x, .z = z, .visibility_chunks = visibility,
                          .content_chunks = visibility + 2};
    updater_set_location(u, index, &loc);
}

/* Non-threaded: exchanges and runs every step until the world is ready and nothing is left to step. */
static void run_to_ready(TerrainUpdater *u)
{
    for (int i = 0; i < 1000; i++) {
        updater_exchange(u, &callbacks);
        if (updater_run_steps(u, 1000000) == 0 && updater_is_ready(u, 0)) break;
    }
    updater_exchange(u, &callbacks);
    CHECK(updater_is_ready(u, 0));
}

/* The world around the origin at view distance 4, the worker's steps run by `threads` threads. */
static WorldPrint loaded_world(int threads, long *pack_jobs)
{
    Terrain *terrain = terrain_create();
    TerrainUpdater *u = make_updater(terrain, false, threads);
    WorldPrint w = {0};
    if (u) {
        set_location(u, 0, 8.5f, 8.5f, 4);
        run_to_ready(u);
        w = world_print(terrain, false);
        UpdaterStats st;
        updater_get_stats(u, &st);
        *pack_jobs = st.pack_jobs;
    }
    updater_destroy(u);
    terrain_destroy(terrain);
    return w;
}

static void test_pack_jobs_same_world(void)
{
    long jobs1 = -1;
    WorldPrint serial = loaded_world(1, &jobs1);
    CHECK_EQ_INT(jobs1, 0);
    CHECK_EQ_INT(serial.chunks, 13 * 13);
    CHECK_EQ_INT(serial.hot, 0);
    for (int threads = 2; threads <= 4; threads += 2) {
        long jobs = -1;
        WorldPrint pooled = loaded_world(threads, &jobs);
        fprintf(stderr, "threads %d: %d chunks, %d hot, %ld pack jobs\n", threads, pooled.chunks, pooled.hot, jobs);
        CHECK(jobs >= serial.chunks / 2);   /* the pool packed them, not the worker */
        CHECK_EQ_INT(pooled.chunks, serial.chunks);
        CHECK_EQ_INT(pooled.hot, 0);
        CHECK(pooled.world_hash == serial.world_hash);
        CHECK(pooled.form_hash == serial.form_hash);
    }
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Chunks unpacked now, counted under the cell lock (chunk_resident_bytes), as strata-bench: the worker runs on. */
static int count_hot(const Terrain *terrain)
{
    int hot = 0;
    for (int i = 0, n = terrain_chunk_count(terrain); i < n; i++)
        if (chunk_resident_bytes(terrain_chunk_at(terrain, i), NULL) >= (size_t)CHUNK_CELLS * sizeof(int32_t)) hot++;
    return hot;
}

/* Threaded, as the game: the world's print the moment it turns ready (hot: the chunks unpacked then), and
 * *hot_later, the chunks still unpacked once the worker has had up to 30 s more (exchanges go on meanwhile). */
static WorldPrint threaded_world_at_ready(int threads, int *hot_later)
{
    Terrain *terrain = terrain_create();
    TerrainUpdater *u = make_updater(terrain, true, threads);
    WorldPrint w = {0};
    *hot_later = -1;
    if (u) {
        set_location(u, 0, 8.5f, 8.5f, 5);
        bool ready = false;
        for (int i = 0; i < 600000 && !ready; i++) {
            updater_exchange(u, &callbacks);
            ready = updater_is_ready(u, 0);
            if (!ready) sleep_ms(1);
        }
        CHECK(ready);
        int hot = count_hot(terrain);
        int later = hot;
        for (int i = 0; i < 3000 && later > 0; i++) {
            sleep_ms(10);
            updater_exchange(u, &callbacks);
            later = count_hot(terrain);
        }
        *hot_later = later;
        updater_destroy(u);
        w = world_print(terrain, true);
        w.hot = hot;
    }
    terrain_destroy(terrain);
    return w;
}

/* One thread packs each settled chunk at once, so nothing is hot at ready. A pool publishes the last chunks
 * while their packs are still queued (update_pack.c): fewer than half are hot then (the median chunk is
 * packed, as strata-bench's chunk_resident_bytes_median), and all are packed soon after, with no step. */
static void test_packed_at_ready(void)
{
    int later = -1;
    WorldPrint one = threaded_world_at_ready(1, &later);
    CHECK_EQ_INT(one.hot, 0);
    CHECK_EQ_INT(later, 0);
    for (int threads = 2; threads <= 4; threads += 2) {
        WorldPrint w = threaded_world_at_ready(threads, &later);
        fprintf(stderr, "threads %d: %d of %d chunks hot at ready, %d later\n", threads, w.hot, w.chunks, later);
        CHECK(w.hot * 2 < w.chunks);
        CHECK_EQ_INT(later, 0);
        CHECK(w.world_hash == one.world_hash);
    }
}

/* How many of this process's threads are named `name` (Linux: /proc/self/task/TID/comm). */
static int threads_named(const char *name)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[300], comm[64] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(comm, sizeof comm, f)) {
            comm[strcspn(comm, "\n")] = 0;
            n += !strcmp(comm, name);
        }
        fclose(f);
    }
    closedir(d);
    return n;
}

static void test_threads_named(void)
{
    if (threads_named("no-such-thread") < 0) return;   /* no /proc: nothing to see */
    Terrain *terrain = terrain_create();
    TerrainUpdater *u = make_updater(terrain, true, 3);
    bool named = false;
    for (int i = 0; i < 2000 && !named; i++) {   /* each thread names itself as it starts */
        named = threads_named("strata-update") == 1 && threads_named("strata-pool-0") == 1 &&
                threads_named("strata-pool-1") == 1 && threads_named("strata-pool-2") == 1;
        if (!named) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    CHECK(named);
    updater_destroy(u);
    CHECK_EQ_INT(threads_named("strata-update"), 0);   /* and they are gone with the updater */
    CHECK_EQ_INT(threads_named("strata-pool-0"), 0);
    terrain_destroy(terrain);
}

/* With a pool of 2 and a far location still loading, an edit's block is stepped back to its targets before
 * any loading chunk moves. */
static void test_edit_first_with_pool(void)
{
    Terrain *terrain = terrain_create();
    TerrainUpdater *u = make_updater(terrain, false, 2);
    if (!u) {
        terrain_destroy(terrain);
        return;
    }
    set_location(u, 0, 8.5f, 8.5f, 3);
    run_to_ready(u);
    /* the far location's chunks are allocated and wait for their loading steps */
    set_location(u, 1, 40 * 16 + 8.5f, 8.5f, 3);
    updater_exchange(u, &callbacks);
    int far_loading = 0;
    for (int cz = -5; cz <= 5; cz++)
        for (int cx = 35; cx <= 45; cx++) {
            const TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
            if (c && c->thread_state == CHUNK_STATE_NOT_LOADED) far_loading++;
        }
    CHECK(far_loading > 0);
    int y = 0;
    for (y = CHUNK_SIZE_Y - 2; y > 0 && cell_contents(terrain_get_cell_value(terrain, 8, y, 8)) == BLOCK_AIR; y--) {}
    CHECK(edit_change_cell(terrain, u, 8, y, 8, cell_make(BLOCK_AIR, 0)));   /* dig the top block */
    updater_exchange(u, &callbacks);
    int edited_done = 0, far_moved = 0;
    for (int step = 0; step < 200 && edited_done < 9; step++) {
        CHECK_EQ_INT(updater_run_steps(u, 1), 1);
        edited_done = 0;
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++)
                edited_done += terrain_get_chunk(terrain, dx, dz)->thread_state == CHUNK_STATE_VALID;
        far_moved = 0;
        for (int cz = -5; cz <= 5; cz++)
            for (int cx = 35; cx <= 45; cx++) {
                const TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
                if (c && c->thread_state != CHUNK_STATE_NOT_LOADED) far_moved++;
            }
    }
    CHECK_EQ_INT(edited_done, 9);
    CHECK_EQ_INT(far_moved, 0);
    run_to_ready(u);
    CHECK(updater_is_ready(u, 1));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(terrain, 8, y, 8)), BLOCK_AIR);
    updater_destroy(u);
    terrain_destroy(terrain);
}

int main(void)
{
    CHECK_EQ_INT(block_registry_load(STRATA_ASSET_DIR "/blocks.json", &g_blocks), ST_OK);
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 1;
    CHECK_EQ_INT(generator_create(&settings, g_blocks, STRATA_ASSET_DIR "/worldgen.json", &g_gen), ST_OK);
    if (!g_blocks || !g_gen) return check_report();
    RUN(test_pack_jobs_same_world);
    RUN(test_packed_at_ready);
    RUN(test_edit_first_with_pool);
    RUN(test_threads_named);
    generator_destroy(g_gen);
    block_registry_destroy(g_blocks);
    return check_report();
}
