/* update.c — the TerrainUpdater's life: create/destroy, the worker thread's loop, locations, downgrades,
 * sky light, readiness and stats.
 *
 * Design. One pthread runs update_worker_do_one in a loop while holding the mutex, so every unit of work
 * is atomic with respect to the exchange. Between units it checks `main_waiting` (an atomic counter the
 * main thread raises before it locks) and, if the main thread wants in, waits on main_cond: pthread
 * mutexes are not fair, and without this the worker could re-take the lock before main wakes. With
 * nothing to do now the worker sleeps in update_pool_wait (the lock dropped) until a job finishes or an
 * exchange posts work. Shutdown: set quit, wake, join the worker, stop the pool, then free. In non-threaded
 * mode there is no worker thread and updater_run_steps runs the same units on the caller's thread (the pool
 * threads, if any, run the jobs meanwhile; none is left in flight when it returns), so tests exercise
 * exactly the code the game runs.
 *
 * Downgrades lower the main thread's state at once and are queued for the worker; the exchange applies
 * them to thread_state before it copies thread states back, so a pending downgrade always wins. */
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strata/log.h"
#include "strata/thread_name.h"
#include "strata/thread_priority.h"
#include "update_internal.h"

static void *update_worker_main(void *arg)
{
    TerrainUpdater *u = arg;
    thread_name_self("strata-update", -1);
    thread_make_background();
    pthread_mutex_lock(&u->mutex);
    for (;;) {
        while (atomic_load(&u->main_waiting) > 0 && !u->quit) pthread_cond_wait(&u->main_cond, &u->mutex);
        if (u->quit) break;
        if (update_worker_do_one(u)) continue;
        update_pool_wait(u); /* a job finished, the exchange posted work, or quit */
    }
    pthread_mutex_unlock(&u->mutex);
    return NULL;
}

static int updater_env_threads(void);

StResult updater_create(const UpdaterConfig *config, TerrainUpdater **out)
{
    *out = NULL;
    if (!config || !config->terrain || !config->generator || !config->blocks)
        return st_fail(ST_ERR_ARG, "updater_create: terrain, generator and blocks are required");
#ifdef __GLIBC__
    /* A loading world frees and allocates the same large blocks (meshes, geometry) over and over: glibc
     * would map each block of 128 KiB and more afresh and give the top of the heap back at every free, so
     * every block's pages were faulted in again (perf: ~5% of a loading worker). The worker gives the
     * freed heap back itself once the world is ready (malloc_trim in worker.c). */
    mallopt(M_MMAP_THRESHOLD, 8 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
    TerrainUpdater *u = calloc(1, sizeof *u);
    if (!u) return st_fail(ST_ERR_NOMEM, "updater_create: out of memory");
    u->terrain = config->terrain;
    u->generator = config->generator;
    u->blocks = config->blocks;
    u->storage = config->storage;
    u->threaded = config->threaded;
    /* STRATA_COPIES=both (comparisons): every chunk builds both geometry copies, as before Step 18 */
    const char *copies = getenv("STRATA_COPIES");
    u->viewers = !(copies && strcmp(copies, "both") == 0);
    u->sky_light = config->sky_light < 0 ? 0 : config->sky_light > LIGHT_MAX ? LIGHT_MAX : config->sky_light;
    u->brightness = 0.5f;              /* the mesher's defaults (mesher.h) */
    u->season = MESHER_SEASON_SUMMER;
    u->dispatch_budget = INT_MAX;
    u->worker_brightness = u->brightness;
    u->worker_season = u->season;
    atomic_init(&u->main_waiting, 0);
    pthread_mutex_init(&u->mutex, NULL);
    pthread_cond_init(&u->main_cond, NULL);
    pthread_cond_init(&u->io_cond, NULL);

    StResult rc = step_context_init(&u->step, u->terrain, u->generator, u->blocks, u->storage, u->sky_light);
    if (rc != ST_OK) {
        updater_destroy(u);
        return rc;
    }
    int threads = config->threads > 0 ? config->threads : updater_env_threads();
    if (threads <= 0) threads = config->threaded ? updater_default_threads() : 1;
    if ((rc = update_pool_create(u, threads)) != ST_OK) {
        updater_destroy(u);
        return rc;
    }
    u->snapshot = chunk_create(0, 0);
    if (!u->snapshot) {
        updater_destroy(u);
        return st_fail(ST_ERR_NOMEM, "updater_create: out of memory for the autosave snapshot");
    }
    if (u->threaded) {
        int err = pthread_create(&u->thread, NULL, update_worker_main, u);
        if (err) {
            updater_destroy(u);
            return st_fail(ST_ERR_STATE, "updater_create: cannot start the update worker thread: %s", strerror(err));
        }
        u->thread_started = true;
    }
    *out = u;
    return ST_OK;
}

void updater_destroy(TerrainUpdater *u)
{
    if (!u) return;
    if (u->thread_started) {
        update_main_lock(u); /* the worker yields between units, as for an exchange */
        u->quit = true;
        update_pool_wake(u);
        update_main_unlock(u);
        pthread_join(u->thread, NULL);
        u->thread_started = false;
    }
    /* Jobs still in flight finish on their threads; their results are dropped with the pool. */
    update_pool_destroy(u);
    /* Hand every chunk back in a clean state: released ones to the pool, live ones without geometry
     * (the Terrain cannot free mesher memory). Meshes not yet delivered die here. */
    for (int i = 0; i < u->released.count; i++) {
        TerrainChunk *chunk = UPDATE_ARRAY_AT(&u->released, TerrainChunk *, i);
        if (updater_chunk_needs_save(chunk))
            log_warn("update", "chunk %d,%d released with unsaved edits at shutdown", chunk->coord_x, chunk->coord_z);
        update_free_chunk_geometry(chunk);
        terrain_recycle_chunk(u->terrain, chunk);
    }
    for (int i = 0; i < u->returned.count; i++)
        terrain_recycle_chunk(u->terrain, UPDATE_ARRAY_AT(&u->returned, TerrainChunk *, i));
    /* Saves handed to the worker and not written: their counters go back, so they are counted below. */
    for (int i = 0; i < u->failed_saves.count; i++)
        UPDATE_ARRAY_AT(&u->failed_saves, AutosaveEntry, i).chunk->modification_counter +=
            UPDATE_ARRAY_AT(&u->failed_saves, AutosaveEntry, i).counter;
    for (int i = 0; i < u->autosave.count; i++)
        UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, i).chunk->modification_counter +=
            UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, i).counter;
    int unsaved = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (updater_chunk_needs_save(chunk)) unsaved++;
        update_free_chunk_geometry(chunk);
    }
    if (unsaved && u->storage && u->storage->save)
        log_warn("update", "%d chunks with unsaved edits at shutdown (updater_save_all failed or was not called)",
                 unsaved);

    step_context_free(&u->step);
    chunk_destroy(u->snapshot);
    update_array_free(&u->candidates);
    update_array_free(&u->pack_queue);
    update_array_free(&u->downgrades);
    update_array_free(&u->ready_meshes);
    update_array_free(&u->released);
    update_array_free(&u->returned);
    update_array_free(&u->autosave);
    update_array_free(&u->failed_saves);
    pthread_cond_destroy(&u->io_cond);
    pthread_cond_destroy(&u->main_cond);
    pthread_mutex_destroy(&u->mutex);
    free(u);
}

void updater_set_location(TerrainUpdater *u, int index, const UpdateLocation *location)
{
    if (index < 0 || index >= UPDATE_MAX_LOCATIONS) {
        log_warn("update", "updater_set_location: index %d outside 0..%d ignored", index, UPDATE_MAX_LOCATIONS - 1);
        return;
    }
    UpdateLocation loc = {0};
    if (location && location->active) {
        loc = *location;
        if (loc.visibility_chunks < 0) loc.visibility_chunks = 0;
        /* Edge chunks of the visibility area need neighbours at InvalidVertices1, which need theirs to
         * exist: the content area must reach two chunks further for the visibility area to become Valid. */
        if (loc.content_chunks < loc.visibility_chunks + 2) loc.content_chunks = loc.visibility_chunks + 2;
        if (!u->viewers) loc.viewer = false;
    }
    UpdateLocation *cur = &u->locations[index];
    /* Allocation and release depend only on the location's chunk and radii, not on where inside its
     * chunk it stands: a player walking inside one chunk costs the exchange nothing. */
    if (cur->active != loc.active || cur->visibility_chunks != loc.visibility_chunks ||
        cur->content_chunks != loc.content_chunks ||
        chunk_coord_of((int)floorf(cur->x)) != chunk_coord_of((int)floorf(loc.x)) ||
        chunk_coord_of((int)floorf(cur->z)) != chunk_coord_of((int)floorf(loc.z)))
        u->locations_dirty = true;
    *cur = loc;
}

static void update_queue_downgrade(TerrainUpdater *u, TerrainChunk *chunk, ChunkState state, bool edited)
{
    if (chunk->state > state) chunk->state = state;
    PendingDowngrade *d = update_array_push(&u->downgrades, sizeof *d);
    if (!d) {
        log_error("update", "out of memory queueing a downgrade of chunk %d,%d", chunk->coord_x, chunk->coord_z);
        return;
    }
    d->chunk = chunk;
    d->state = state;
    d->edited = edited;
}

void updater_downgrade_chunk(TerrainUpdater *u, TerrainChunk *chunk, ChunkState state)
{
    update_queue_downgrade(u, chunk, state, false);
}

const BlockRegistry *updater_blocks(const TerrainUpdater *u) { return u->blocks; }

void updater_downgrade_chunk_edited(TerrainUpdater *u, TerrainChunk *chunk, ChunkState state)
{
    update_queue_downgrade(u, chunk, state, true);
}

/* Distance of a chunk to the nearest active main-thread location (INT_MAX with none). */
static int update_main_distance(const TerrainUpdater *u, const TerrainChunk *chunk)
{
    int nearest = INT_MAX;
    for (int i = 0; i < UPDATE_MAX_LOCATIONS; i++) {
        if (!u->locations[i].active) continue;
        int d = update_location_distance(&u->locations[i], chunk->coord_x, chunk->coord_z);
        if (d < nearest) nearest = d;
    }
    return nearest;
}

typedef struct DowngradeOrder {
    TerrainChunk *chunk;
    int distance;
} DowngradeOrder;

static int update_compare_order(const void *pa, const void *pb)
{
    const DowngradeOrder *a = pa, *b = pb;
    return (a->distance > b->distance) - (a->distance < b->distance);
}

void updater_downgrade_all(TerrainUpdater *u, ChunkState state)
{
    int n = terrain_chunk_count(u->terrain);
    DowngradeOrder *order = n ? malloc((size_t)n * sizeof *order) : NULL;
    if (!order) {
        /* Out of memory for the ordering only: downgrade in table order. */
        for (int i = 0; i < n; i++) updater_downgrade_chunk(u, terrain_chunk_at(u->terrain, i), state);
        return;
    }
    for (int i = 0; i < n; i++) {
        order[i].chunk = terrain_chunk_at(u->terrain, i);
        order[i].distance = update_main_distance(u, order[i].chunk);
    }
    qsort(order, (size_t)n, sizeof *order, update_compare_order);
    for (int i = 0; i < n; i++) updater_downgrade_chunk(u, order[i].chunk, state);
    free(order);
}

void updater_set_sky_light(TerrainUpdater *u, int sky_light)
{
    if (sky_light < 0) sky_light = 0;
    if (sky_light > LIGHT_MAX) sky_light = LIGHT_MAX;
    if (sky_light == u->sky_light) return;
    u->sky_light = sky_light;
    updater_downgrade_all(u, CHUNK_STATE_INVALID_LIGHT);
}

void updater_set_brightness(TerrainUpdater *u, float brightness)
{
    if (!(brightness >= 0.0f)) brightness = 0.0f; /* also NaN */
    if (brightness > 1.0f) brightness = 1.0f;
    if (brightness == u->brightness) return;
    u->brightness = brightness;
    u->mesher_settings_dirty = true;
    updater_downgrade_all(u, CHUNK_STATE_INVALID_VERTICES1);
}

void updater_set_season(TerrainUpdater *u, int season)
{
    if (season < MESHER_SEASON_SPRING || season > MESHER_SEASON_WINTER) {
        log_warn("update", "updater_set_season: season %d outside %d..%d ignored", season, MESHER_SEASON_SPRING,
                 MESHER_SEASON_WINTER);
        return;
    }
    if (season == u->season) return;
    u->season = season;
    u->mesher_settings_dirty = true;
    updater_downgrade_all(u, CHUNK_STATE_INVALID_VERTICES1);
}

bool updater_is_ready(const TerrainUpdater *u, int index)
{
    if (index < 0 || index >= UPDATE_MAX_LOCATIONS || !u->locations[index].active) return false;
    const UpdateLocation *loc = &u->locations[index];
    int lx = chunk_coord_of((int)floorf(loc->x)), lz = chunk_coord_of((int)floorf(loc->z));
    int r = loc->visibility_chunks;
    for (int cz = lz - r; cz <= lz + r; cz++) {
        for (int cx = lx - r; cx <= lx + r; cx++) {
            const TerrainChunk *chunk = terrain_get_chunk(u->terrain, cx, cz);
            if (!chunk || chunk->state != CHUNK_STATE_VALID) return false;
        }
    }
    return true;
}

void updater_get_stats(const TerrainUpdater *u, UpdaterStats *stats)
{
    *stats = u->stats;
    stats->allocated = terrain_chunk_count(u->terrain);
}

int updater_run_steps(TerrainUpdater *u, int max_steps)
{
    if (u->threaded) return 0;
    pthread_mutex_lock(&u->mutex);
    /* Units: committed steps, plus releases, saves and packs. Jobs are handed over only while the budget
     * has room, so run_steps(u, 1) steps one chunk whatever the thread count. */
    long steps0 = u->steps_done, other0 = u->other_units;
#define RUN_DONE ((int)(u->steps_done - steps0 + u->other_units - other0))
    while (RUN_DONE < max_steps) {
        u->dispatch_budget = max_steps - RUN_DONE - u->pool.in_flight;
        if (update_worker_do_one(u)) continue;
        if (u->pool.in_flight == 0) break;
        update_pool_wait(u);
    }
    /* The caller may read and edit chunks next: nothing stays in flight. */
    while (u->pool.in_flight > 0) {
        update_pool_wait(u);
        update_schedule_commit(u);
    }
    int done = RUN_DONE;
#undef RUN_DONE
    u->dispatch_budget = INT_MAX;
    pthread_mutex_unlock(&u->mutex);
    return done;
}

/* STRATA_THREADS=N (tests, sanitizer runs): the thread count of every updater whose config says 0. */
static int updater_env_threads(void)
{
    const char *text = getenv("STRATA_THREADS");
    if (!text || !*text) return 0;
    char *end = NULL;
    long n = strtol(text, &end, 10);
    if (*end || n < 1 || n > 64) {
        log_warn("update", "STRATA_THREADS='%s' is not a number 1..64; ignored", text);
        return 0;
    }
    return (int)n;
}

int updater_default_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 1 ? (int)(cores - 1) : 1;
}

int updater_threads(const TerrainUpdater *u)
{
    return u->pool.threads;
}
