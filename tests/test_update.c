/* test_update.c — the update worker: step functions on single chunks, the chunk state machine driven by
 * update locations (non-threaded and threaded), allocation and release, walking while loading, downgrades
 * and their priority, sky light, brightness and season, a main-thread edit and raycast loop against the
 * running worker (run under TSan), and the real generator giving the same cells as generating alone.
 * Persistence is in test_update_storage.c. Uses the real Terrain, block registry, light and mesher. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "update_fixture.h"

/* ---- step functions on single chunks ---- */

static void test_steps_single_chunk(void)
{
    fixture_init(false, true);
    StepContext ctx;
    CHECK_EQ_INT(step_context_init(&ctx, fx.terrain, &fx.gen, fx.blocks, NULL, 15), ST_OK);
    TerrainChunk *c = terrain_allocate_chunk(fx.terrain, 0, 0);

    CHECK_EQ_INT(updater_step_not_loaded(c, &ctx), CHUNK_STATE_INVALID_CONTENTS1);
    CHECK(c->worker_flags & UPDATE_WORKER_FLAG_LOAD_RESULT);
    CHECK(!(c->worker_flags & (CHUNK_FLAG_LOADED | CHUNK_FLAG_DAMAGED_ON_DISK)));
    c->thread_state = CHUNK_STATE_INVALID_CONTENTS1;
    for (int s = CHUNK_STATE_INVALID_CONTENTS1; s <= CHUNK_STATE_INVALID_CONTENTS4; s++) {
        CHECK(updater_step_chunk(c, &ctx));
        CHECK_EQ_INT(c->thread_state, s == CHUNK_STATE_INVALID_CONTENTS4 ? CHUNK_STATE_INVALID_LIGHT : s + 1);
    }
    int mismatches = 0;
    for (int y = 0; y < 256; y++)
        for (int x = 0; x < 16; x++)
            if (cell_contents(chunk_get_cell(c, x, y, 7)) != cell_contents(fake_cell_at(x, y, 7))) mismatches++;
    CHECK_EQ_INT(mismatches, 0);
    /* freshly generated: nobody else can see it yet, so its sunlight is written with plain stores */
    CHECK(c->worker_flags & UPDATE_WORKER_FLAG_PRIVATE);

    CHECK(updater_step_chunk(c, &ctx)); /* sunlight */
    CHECK_EQ_INT(c->thread_state, CHUNK_STATE_INVALID_PROPAGATED_LIGHT);
    CHECK_EQ_INT(cell_light(chunk_get_cell(c, 8, 100, 8)), 15);
    /* the shared (compare-and-swap) path gives the same cells, from dark or from already lit */
    int32_t *private_cells = malloc(CHUNK_CELLS * sizeof *private_cells);
    chunk_copy_cells_out(c, private_cells);
    c->worker_flags &= ~UPDATE_WORKER_FLAG_PRIVATE;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            for (int i = 0; i < CHUNK_CELLS; i++) {
                int32_t *cell = cell_view_at(chunk_cell_view(c), i);
                *cell = cell_replace_light(*cell, 0);
            }
        c->thread_state = CHUNK_STATE_INVALID_LIGHT;
        CHECK(updater_step_chunk(c, &ctx));
        const int32_t *cells = chunk_cell_view_const(c).cells;
        CHECK(memcmp(private_cells, cells, CHUNK_CELLS * sizeof *private_cells) == 0);
    }
    free(private_cells);

    /* Propagation needs all 8 neighbours: missing ones block it, lagging ones are named. */
    TerrainChunk *behind = NULL;
    CHECK_EQ_INT(updater_neighbours_ready(fx.terrain, c, CHUNK_STATE_INVALID_PROPAGATED_LIGHT, &behind), NEIGHBOURS_MISSING);
    CHECK(!updater_step_chunk(c, &ctx));
    CHECK_EQ_INT(c->thread_state, CHUNK_STATE_INVALID_PROPAGATED_LIGHT);
    for (int dz = -2; dz <= 2; dz++)
        for (int dx = -2; dx <= 2; dx++)
            if (dx || dz) terrain_allocate_chunk(fx.terrain, dx, dz);
    CHECK_EQ_INT(updater_neighbours_ready(fx.terrain, c, CHUNK_STATE_INVALID_PROPAGATED_LIGHT, &behind), NEIGHBOURS_BEHIND);
    CHECK(behind != NULL && behind != c && behind->thread_state == CHUNK_STATE_NOT_LOADED);
    CHECK_EQ_INT(updater_step_neighbour_requirement(CHUNK_STATE_INVALID_LIGHT), CHUNK_STATE_NOT_LOADED);
    CHECK_EQ_INT(updater_step_neighbour_requirement(CHUNK_STATE_INVALID_VERTICES2), CHUNK_STATE_INVALID_VERTICES1);

    /* Bring the ring of 8 to InvalidPropagatedLight and the outer ring too, then step the centre. */
    for (int i = 0; i < terrain_chunk_count(fx.terrain); i++) {
        TerrainChunk *n = terrain_chunk_at(fx.terrain, i);
        while (n->thread_state < CHUNK_STATE_INVALID_PROPAGATED_LIGHT) updater_step_chunk(n, &ctx);
    }
    CHECK_EQ_INT(updater_neighbours_ready(fx.terrain, c, CHUNK_STATE_INVALID_PROPAGATED_LIGHT, NULL), NEIGHBOURS_READY);
    CHECK_EQ_INT(updater_step_propagated_light(c, &ctx), CHUNK_STATE_INVALID_VERTICES1);
    c->thread_state = CHUNK_STATE_INVALID_VERTICES1;
    /* Vertices wait until the neighbours have propagated light. */
    CHECK_EQ_INT(updater_step_vertices1(c, &ctx), CHUNK_STATE_INVALID_VERTICES1);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) {
            TerrainChunk *n = terrain_get_chunk(fx.terrain, dx, dz);
            if (n != c) CHECK(updater_step_chunk(n, &ctx));
            CHECK(n->thread_state >= CHUNK_STATE_INVALID_VERTICES1);
        }
    CHECK_EQ_INT(updater_step_vertices1(c, &ctx), CHUNK_STATE_INVALID_VERTICES2);
    CHECK(c->worker_geometry != NULL);
    CHECK(c->worker_finished_mesh == NULL);
    CHECK_EQ_INT(updater_step_vertices2(c, &ctx), CHUNK_STATE_VALID);
    CHECK(c->worker_finished_mesh != NULL);
    CHECK(chunk_mesh_vertex_count(c->worker_finished_mesh) > 0);
    c->thread_state = CHUNK_STATE_VALID;
    CHECK(!updater_step_chunk(c, &ctx));

    /* Load results: found, not found, damaged (logged, generated, cells from the bad load cleared). */
    TerrainChunk *far = terrain_allocate_chunk(fx.terrain, 40, 40);
    ctx.storage = &fx.chunk_storage;
    CHECK_EQ_INT(updater_step_not_loaded(far, &ctx), CHUNK_STATE_INVALID_CONTENTS1);
    CHECK_EQ_INT(fx.storage.loads, 1);
    fx.storage.has_damaged = true;
    fx.storage.damaged_cx = 40;
    fx.storage.damaged_cz = 40;
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(updater_step_not_loaded(far, &ctx), CHUNK_STATE_INVALID_CONTENTS1);
    log_set_level(LOG_INFO);
    CHECK(far->worker_flags & CHUNK_FLAG_DAMAGED_ON_DISK);
    CHECK_EQ_INT(chunk_get_cell(far, 1, 200, 1), 0);
    fx.storage.has_damaged = false;
    far->modification_counter = 1;
    CHECK_EQ_INT(fake_save(&fx.storage, far), ST_OK);
    far->modification_counter = 0;
    CHECK_EQ_INT(updater_step_not_loaded(far, &ctx), CHUNK_STATE_INVALID_LIGHT);
    CHECK(far->worker_flags & CHUNK_FLAG_LOADED);
    CHECK(!(far->worker_flags & CHUNK_FLAG_DAMAGED_ON_DISK));

    chunk_mesh_destroy(c->worker_finished_mesh);
    c->worker_finished_mesh = NULL;
    step_context_free(&ctx);
    step_context_free(&ctx); /* twice is safe */
    fixture_free();
}

/* ---- non-threaded state machine ---- */

static void test_single_location(void)
{
    fixture_init(false, false);
    set_loc(0, 0, 0, 3, 5);
    CHECK(!updater_is_ready(fx.u, 0));
    run_until_idle();
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(st.allocated, 121);
    CHECK_EQ_INT(st.by_state[CHUNK_STATE_VALID], 49);
    CHECK_EQ_INT(st.by_state[CHUNK_STATE_INVALID_VERTICES1], 32);
    CHECK_EQ_INT(st.by_state[CHUNK_STATE_INVALID_PROPAGATED_LIGHT], 40);
    CHECK_EQ_INT(st.valid, 49);
    CHECK(st.steps_done > 0);
    CHECK(updater_is_ready(fx.u, 0));
    CHECK(!updater_is_ready(fx.u, 1));
    CHECK_EQ_INT(fx.total_meshes, 49);
    check_single_location(0, 0, 3, 5, true);
    /* once the main thread has seen a chunk at InvalidLight or above, its light is written shared */
    int still_private = 0;
    for (int i = 0; i < terrain_chunk_count(fx.terrain); i++) {
        const TerrainChunk *c = terrain_chunk_at(fx.terrain, i);
        still_private += c->state >= CHUNK_STATE_INVALID_LIGHT && (c->worker_flags & UPDATE_WORKER_FLAG_PRIVATE);
    }
    CHECK_EQ_INT(still_private, 0);

    /* Contents are the generator's, light was computed. */
    unsigned seed = 12345;
    int wrong = 0;
    for (int i = 0; i < 2000; i++) {
        seed = seed * 1103515245u + 12345u;
        int x = (int)(seed >> 8) % 160 - 80, y = (int)(seed >> 3) % 256, z = (int)(seed >> 16) % 160 - 80;
        if (cell_contents(terrain_get_cell_value(fx.terrain, x, y, z)) != cell_contents(fake_cell_at(x, y, z))) wrong++;
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, -20, 120, 33)), 15);

    /* Move 10 chunks: the old area goes, the new one becomes Valid. */
    set_loc(0, 10, 0, 3, 5);
    run_until_idle();
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(fx.released, 99);      /* columns -5..3 are more than 6 chunks from x = 10 */
    CHECK_EQ_INT(st.allocated, 132);    /* the new 11 x 11 plus the hysteresis column x = 4 */
    CHECK_EQ_INT(st.valid, 49);
    CHECK_EQ_INT(fx.total_meshes, 98);
    CHECK(updater_is_ready(fx.u, 0));
    check_single_location(10, 0, 3, 5, true);

    /* Walking: the chunk count stays bounded, and the area is always complete when idle. */
    int max_allocated = 0;
    for (int step = 1; step <= 12; step++) {
        set_loc(0, 10 + step, -step / 2, 3, 5);
        run_until_idle();
        updater_get_stats(fx.u, &st);
        if (st.allocated > max_allocated) max_allocated = st.allocated;
        CHECK(updater_is_ready(fx.u, 0));
    }
    CHECK(max_allocated <= 13 * 13);
    check_single_location(22, -6, 3, 5, true);
    fixture_free();
}

/* The player runs back and forth faster than the worker keeps up: allocation is paced, chunks are left
 * half-done in the hysteresis ring or released before they started, and the end state is still right. */
static void test_moving_while_loading(void)
{
    fixture_init(false, false);
    static const int path[][2] = { {0, 0}, {1, 0}, {2, 1}, {3, 1}, {2, 2}, {1, 2}, {0, 1}, {-1, 0}, {-2, -1},
                                   {-1, -1}, {0, -2}, {7, 7}, {6, 7}, {0, 0}, {1, 1} };
    int n = (int)(sizeof path / sizeof path[0]);
    UpdaterStats st;
    for (int i = 0; i < n; i++) {
        set_loc(0, path[i][0], path[i][1], 2, 4);
        updater_exchange(fx.u, &fx.cb);
        int waiting = 0; /* not started and wanted (the hysteresis ring is not) */
        for (int k = 0; k < terrain_chunk_count(fx.terrain); k++) {
            const TerrainChunk *c = terrain_chunk_at(fx.terrain, k);
            if (c->state == CHUNK_STATE_NOT_LOADED && chebyshev(c->coord_x, c->coord_z, path[i][0], path[i][1]) <= 4)
                waiting++;
        }
        CHECK(waiting <= UPDATE_ALLOCATION_AHEAD);
        updater_run_steps(fx.u, 40 + 25 * (i % 3));
    }
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    check_single_location(1, 1, 2, 4, true);
    updater_get_stats(fx.u, &st);
    CHECK(st.allocated <= 11 * 11);
    fixture_free();
}

static void test_two_locations(void)
{
    fixture_init(false, false);
    set_loc(0, 0, 0, 2, 4);
    set_loc(1, 20, 0, 2, 4);
    run_until_idle();
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    CHECK(updater_is_ready(fx.u, 0));
    CHECK(updater_is_ready(fx.u, 1));
    CHECK_EQ_INT(st.allocated, 162);
    CHECK_EQ_INT(st.valid, 50);
    CHECK_EQ_INT(fx.total_meshes, 50);

    updater_set_location(fx.u, 1, NULL);
    run_until_idle();
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(fx.released, 81);
    CHECK_EQ_INT(st.allocated, 81);
    CHECK(!updater_is_ready(fx.u, 1));
    check_single_location(0, 0, 2, 4, true);

    /* Overlapping areas: the union is allocated, the union of the visibility squares is Valid. */
    set_loc(1, 3, 0, 2, 4);
    run_until_idle();
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(st.allocated, 12 * 9);
    CHECK_EQ_INT(st.valid, 8 * 5);
    CHECK(updater_is_ready(fx.u, 0) && updater_is_ready(fx.u, 1));

    /* No active location: everything is released, nothing leaks (ASan checks the rest). */
    updater_set_location(fx.u, 0, NULL);
    updater_set_location(fx.u, 1, NULL);
    run_until_idle();
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(st.allocated, 0);
    CHECK_EQ_INT(fx.released, 81 + 12 * 9);
    fixture_free();
}

static void test_downgrades(void)
{
    fixture_init(false, false);
    set_loc(0, 0, 0, 3, 5);
    run_until_idle();
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 1, 1);
    updater_downgrade_chunk(fx.u, c, CHUNK_STATE_INVALID_LIGHT);
    CHECK_EQ_INT(c->state, CHUNK_STATE_INVALID_LIGHT); /* main view at once */
    CHECK(!updater_is_ready(fx.u, 0));
    run_until_idle();
    CHECK_EQ_INT(c->state, CHUNK_STATE_VALID);
    CHECK_EQ_INT(*mesh_count(1, 1), 2);
    CHECK_EQ_INT(fx.total_meshes, 50);

    /* A downgrade never raises a state. */
    TerrainChunk *edge = terrain_get_chunk(fx.terrain, 5, 0);
    CHECK_EQ_INT(edge->state, CHUNK_STATE_INVALID_PROPAGATED_LIGHT);
    updater_downgrade_chunk(fx.u, edge, CHUNK_STATE_INVALID_VERTICES2);
    CHECK_EQ_INT(edge->state, CHUNK_STATE_INVALID_PROPAGATED_LIGHT);

    updater_downgrade_all(fx.u, CHUNK_STATE_INVALID_VERTICES1);
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    int above = 0;
    for (int i = 0; i < terrain_chunk_count(fx.terrain); i++)
        if (terrain_chunk_at(fx.terrain, i)->state > CHUNK_STATE_INVALID_VERTICES1) above++;
    CHECK_EQ_INT(above, 0);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    CHECK_EQ_INT(*mesh_count(1, 1), 3);
    CHECK_EQ_INT(*mesh_count(0, 0), 2);
    CHECK_EQ_INT(fx.total_meshes, 99);
    CHECK_EQ_INT(edge->state, CHUNK_STATE_INVALID_PROPAGATED_LIGHT);

    /* Sky light: every chunk relights with the new level. */
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 8, 150, 8)), 15);
    updater_set_sky_light(fx.u, 10);
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 0, 0)->state, CHUNK_STATE_INVALID_LIGHT);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 8, 150, 8)), 10);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, -40, 90, 17)), 10);
    updater_set_sky_light(fx.u, 10); /* unchanged: no downgrade */
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 0, 0)->state, CHUNK_STATE_VALID);

    /* Brightness and season: vertices are rebuilt everywhere, light is kept. */
    int meshes_before = fx.total_meshes;
    updater_set_brightness(fx.u, 0.9f);
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 0, 0)->state, CHUNK_STATE_INVALID_VERTICES1);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    CHECK_EQ_INT(fx.total_meshes, meshes_before + 49);
    updater_set_brightness(fx.u, 0.9f);
    updater_set_season(fx.u, MESHER_SEASON_SUMMER); /* the default: unchanged */
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 0, 0)->state, CHUNK_STATE_VALID);
    updater_set_season(fx.u, MESHER_SEASON_WINTER);
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 2, -3)->state, CHUNK_STATE_INVALID_VERTICES1);
    log_set_level(LOG_SILENT);
    updater_set_season(fx.u, 7); /* ignored */
    log_set_level(LOG_INFO);
    run_until_idle();
    CHECK_EQ_INT(fx.total_meshes, meshes_before + 98);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 8, 150, 8)), 10);
    fixture_free();
}

/* Chunks downgraded by an edit are redone before nearer chunks that were not edited. */
static void test_edit_priority(void)
{
    fixture_init(false, false);
    set_loc(0, 0, 0, 3, 5);
    run_until_idle();
    /* An edit in chunk (3, 0) downgrades chunks x 2..4, z -1..1. */
    CHECK(edit_change_cell(fx.terrain, fx.u, 3 * 16 + 8, 70, 8, cell_make(BLOCK_STONE, 0)));
    TerrainChunk *centre = terrain_get_chunk(fx.terrain, 0, 0);
    updater_downgrade_chunk(fx.u, centre, CHUNK_STATE_INVALID_LIGHT);
    updater_exchange(fx.u, &fx.cb);
    CHECK_EQ_INT(updater_run_steps(fx.u, 1), 1);
    CHECK_EQ_INT(centre->thread_state, CHUNK_STATE_INVALID_LIGHT);
    int advanced = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = 2; dx <= 4; dx++)
            if (terrain_get_chunk(fx.terrain, dx, dz)->thread_state > CHUNK_STATE_INVALID_LIGHT) advanced++;
    CHECK_EQ_INT(advanced, 1);
    /* The nearest edited chunk goes first. */
    CHECK(terrain_get_chunk(fx.terrain, 2, -1)->thread_state > CHUNK_STATE_INVALID_LIGHT);
    /* All 9 edited chunks reach their targets before the centre is touched. */
    int done = 0, centre_touched = 0;
    for (int step = 0; step < 200 && done < 9; step++) {
        CHECK_EQ_INT(updater_run_steps(fx.u, 1), 1);
        if (centre->thread_state != CHUNK_STATE_INVALID_LIGHT) centre_touched++;
        done = 0;
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = 2; dx <= 4; dx++) {
                TerrainChunk *n = terrain_get_chunk(fx.terrain, dx, dz);
                if (n->thread_state >= (dx == 4 ? CHUNK_STATE_INVALID_VERTICES1 : CHUNK_STATE_VALID)) done++;
            }
    }
    CHECK_EQ_INT(done, 9);
    CHECK_EQ_INT(centre_touched, 0);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 56, 70, 8)), BLOCK_STONE);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 56, 69, 8)), 14); /* shadowed by the new block */
    fixture_free();
}

/* ---- threaded ---- */

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* What the game does every frame while the worker runs: look at a block (reads cells of chunks in every
 * state; those still being generated must read as air without touching their cells). */
static int look_around(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    float dir[3] = { (float)((*seed >> 8) % 200) - 100.0f, -40.0f, (float)((*seed >> 16) % 200) - 100.0f };
    float eye[3] = { 8.5f, 62.5f, 8.5f };
    RaycastHit hit;
    return edit_raycast(fx.terrain, fx.blocks, eye, dir, 200.0f, &hit) ? 1 : 0;
}

static bool wait_ready(int index)
{
    unsigned seed = 99;
    for (int i = 0; i < 60000; i++) {
        updater_exchange(fx.u, &fx.cb);
        if (updater_is_ready(fx.u, index)) return true;
        look_around(&seed);
        sleep_ms(1);
    }
    return false;
}

/* The cells (contents and light) of the 7 x 7 chunks around the origin, read as the main thread may. */
static uint64_t area_hash(void)
{
    static int32_t cells[CHUNK_CELLS];
    uint64_t h = 0xcbf29ce484222325ull;
    for (int cz = -3; cz <= 3; cz++) {
        for (int cx = -3; cx <= 3; cx++) {
            const TerrainChunk *c = terrain_get_chunk(fx.terrain, cx, cz);
            CHECK(c != NULL);
            if (!c) continue;
            chunk_copy_cells_out(c, cells);
            for (int i = 0; i < CHUNK_CELLS; i++) h = (h ^ (uint32_t)cells[i]) * 0x100000001b3ull;
        }
    }
    return h;
}

/* The game's loop against the running worker with `threads` threads; the area's hash after the edits. */
static uint64_t threaded_flow(int threads)
{
    fx_threads = threads;
    fixture_init(true, true);
    fx_threads = 0;
    set_loc(0, 0, 0, 3, 5);
    CHECK(wait_ready(0));

    /* The player digs and builds near itself while the worker relights and remeshes. */
    unsigned seed = 777;
    int edits = 0, hits = 0;
    for (int i = 0; i < 400; i++) {
        seed = seed * 1103515245u + 12345u;
        int x = (int)(seed >> 8) % 48 - 24, z = (int)(seed >> 18) % 48 - 24, y = 56 + (int)(seed >> 4) % 8;
        int32_t v = (seed >> 28) & 1 ? cell_make(BLOCK_AIR, 0) : cell_make(BLOCK_DIRT, 0);
        if (edit_change_cell(fx.terrain, fx.u, x, y, z, v)) edits++;
        hits += look_around(&seed);
        if (i % 4 == 0) {
            updater_exchange(fx.u, &fx.cb);
            sleep_ms(1);
        }
        if (i == 200) updater_request_autosave(fx.u);
    }
    CHECK(edits > 100);
    CHECK(hits > 100);
    CHECK(edit_change_cell(fx.terrain, fx.u, 5, 70, 5, stone()));
    CHECK(wait_ready(0));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 5, 70, 5)), BLOCK_STONE);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 5, 69, 5)), 14);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(fx.terrain, 5, 71, 5)), 15);
    check_single_location(0, 0, 3, 5, false);
    uint64_t hash = area_hash();

    /* Move: release (with saves of the edited chunks) while the worker runs. */
    set_loc(0, 10, 0, 3, 5);
    CHECK(wait_ready(0));
    CHECK(fx.released >= 99);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    CHECK(st.allocated <= 13 * 13);
    updater_destroy(fx.u); /* joins: the storage counters below are now ours */
    fx.u = NULL;
    CHECK(fx.storage.total_saves >= 9);
    CHECK_EQ_INT(fx.storage.failed_saves, 0);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    /* Every edited chunk was saved: the stored copy of the chunk holding the last edit has it. */
    FakeEntry *e = fake_find(&fx.storage, 0, 0);
    CHECK(e && cell_contents(fake_saved_cell(e, 5, 70, 5)) == BLOCK_STONE);
    fixture_free();
    return hash;
}

static uint64_t g_threaded_hash;

static void test_threaded(void)
{
    g_threaded_hash = threaded_flow(0);
}

/* The same with the job pool at 4 threads (while the main thread edits, exchanges, autosaves and moves):
 * run under TSan. The edits land in Valid chunks only (the area is ready first), so the world is the same
 * as the default run's, cell for cell and light for light. */
static void test_threaded_pool(void)
{
    uint64_t h = threaded_flow(4);
    CHECK(h == g_threaded_hash);
}

/* With the real generator: the worker's step-by-step generation (any order, neighbours or not) gives
 * exactly the cells of generating each chunk alone, and the whole visible area becomes Valid. */
static void test_real_generator(void)
{
    fixture_init(false, false);
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 4242;
    Generator *gen = NULL;
    StResult rc = generator_create(&settings, fx.blocks, STRATA_ASSET_DIR "/worldgen.json", &gen);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        fixture_free();
        return;
    }
    updater_destroy(fx.u);
    UpdaterConfig config = { .terrain = fx.terrain, .generator = gen, .blocks = fx.blocks, .sky_light = 15 };
    CHECK_EQ_INT(updater_create(&config, &fx.u), ST_OK);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    check_single_location(0, 0, 2, 4, true);

    TerrainChunk *alone = chunk_create(0, 0);
    GenContext *ctx = gen_context_create();
    int differing_chunks = 0;
    for (int cz = -3; cz <= 3; cz += 3)
        for (int cx = -3; cx <= 3; cx += 3) {
            chunk_reset(alone, cx, cz);
            generator_generate_chunk(gen, alone, ctx);
            const TerrainChunk *c = terrain_get_chunk(fx.terrain, cx, cz);
            int diff = 0;
            const int32_t *live = chunk_cell_view_const(c).cells, *fresh = chunk_cell_view_const(alone).cells;
            for (int i = 0; i < CHUNK_CELLS; i++)
                if (cell_replace_light(live[i], 0) != cell_replace_light(fresh[i], 0)) diff++;
            if (diff) differing_chunks++;
        }
    CHECK_EQ_INT(differing_chunks, 0);
    gen_context_destroy(ctx);
    chunk_destroy(alone);
    updater_destroy(fx.u);
    fx.u = NULL;
    generator_destroy(gen);
    fixture_free();
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--threaded-only")) { /* the sanitizer loop: the threaded tests alone */
        RUN(test_threaded);
        RUN(test_threaded_pool);
        return check_report();
    }
    if (argc > 1) {
        fprintf(stderr, "test_update: unknown argument '%s' (expected --threaded-only)\n", argv[1]);
        return 2;
    }
    RUN(test_steps_single_chunk);
    RUN(test_single_location);
    RUN(test_moving_while_loading);
    RUN(test_two_locations);
    RUN(test_downgrades);
    RUN(test_edit_priority);
    RUN(test_threaded);
    RUN(test_threaded_pool);
    RUN(test_real_generator);
    return check_report();
}
