/* update_exchange.c — the once-a-frame state exchange (Survivalcraft's SendReceiveChunkStates); the saves it
 * hands over, queues and gives back are update_save.c's (this file calls down into it).
 *
 * Design. Everything the two threads share crosses here, under the one mutex, while the worker is between
 * units of work: main hands over downgrades, locations, sky light, allocations, releases and saves; it
 * receives thread states, load results and finished meshes (pointers swapped, nothing copied). The order
 * matters: chunks handed back by the worker are recycled first; failed saves give their counters back
 * before anything can be released; downgrades are applied to thread_state before the states are copied
 * back (a pending downgrade wins); releases happen before the state copy so a released chunk never
 * delivers a mesh. Mesh callbacks run after the lock is dropped, so a slow GPU upload never holds up the
 * worker. A Valid chunk that lacks a geometry copy the locations now want (update.h: the player came near
 * or went away) is sent back to InvalidVertices1 here, in the same exchange that takes the new location, so
 * the main thread never sees it ready without them (exchange_grow_copies).
 *
 * Allocation: every chunk within a location's content distance (Chebyshev, in chunks) is allocated;
 * a chunk is released once it is more than content + 1 from every location (one ring of hysteresis, so
 * walking back and forth over a chunk border does not churn). A released chunk that needs no write is
 * detached from the Terrain at once (lookups stop finding them) and goes to the worker, which frees its
 * geometry and hands it back for recycling at a later exchange.
 *
 * Never losing edits: with storage, a chunk with unsaved edits, or with a save in flight, is never
 * detached. Its edits are handed to the worker as a save (the autosave path, through a snapshot) and it
 * stays in the Terrain; the rescan at every exchange while such chunks exist (release_pending) detaches it
 * once it is saved. If the save fails, the counter comes back, the chunk is marked SAVE_FAILED and stays
 * (a location that comes back finds the same chunk, edits included); its save is retried at the next
 * autosave and by updater_save_all, not at every frame. Each failed write is logged once by the worker;
 * each autosave logs how many chunks are stuck, as an error past UPDATE_UNSAVED_ALARM_CHUNKS. Nothing is
 * dropped however many there are: memory is the price of a world that cannot be written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"
#include "update_internal.h"

/* Jobs look neighbours up in the Terrain's table: none runs while the exchange changes it. */
static void exchange_pause_pool(TerrainUpdater *u)
{
    if (u->pool_paused || u->pool.threads == 1) return;
    update_pool_pause(u);
    u->pool_paused = true;
}

/* Releases the chunks more than content + 1 from every location. With storage, one with unsaved edits or a
 * save in flight is kept in the Terrain instead: its edits are handed to the worker (unless its last save
 * failed: that waits for the next autosave), and a later scan detaches it once it is saved. Returns true
 * if it detached a chunk or queued a save. */
static bool exchange_release(TerrainUpdater *u, const UpdaterCallbacks *cb)
{
    bool changed = false, can_save = u->storage && u->storage->save;
    int kept = 0, unsaved = 0;
    /* Backwards: detaching swaps the last chunk into the hole, which has then already been visited. */
    for (int i = terrain_chunk_count(u->terrain) - 1; i >= 0; i--) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (update_chunk_wanted(u, chunk, 1)) {
            chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_SAVE_FAILED; /* a live chunk: autosave handles it */
            continue;
        }
        if (can_save && (updater_chunk_needs_save(chunk) || update_save_in_flight(u, chunk))) {
            kept++;
            if (chunk->worker_schedule & UPDATE_WORKER_FLAG_SAVE_FAILED) {
                if (!unsaved++) {
                    u->unsaved_example_x = chunk->coord_x;
                    u->unsaved_example_z = chunk->coord_z;
                }
            } else if (updater_chunk_needs_save(chunk)) {
                if (update_save_hand_over(u, chunk)) changed = true;
                else log_error("update", "out of memory queueing the save of chunk %d,%d; kept, retried later",
                               chunk->coord_x, chunk->coord_z);
            }
            continue;
        }
        TerrainChunk **slot = update_array_push(&u->released, sizeof *slot);
        if (!slot) {
            log_error("update", "out of memory releasing chunk %d,%d; kept for now", chunk->coord_x, chunk->coord_z);
            kept++;
            continue;
        }
        *slot = chunk;
        if (cb && cb->chunk_released) cb->chunk_released(cb->user, chunk);
        exchange_pause_pool(u);
        update_jobs_drop_near(u, chunk); /* a job that would look it up and miss it computes nothing valid */
        update_pack_forget(u, chunk);
        terrain_detach_chunk(u->terrain, chunk);
        changed = true;
    }
    u->release_pending = kept > 0;
    u->unsaved_kept = unsaved;
    return changed;
}

/* Allocates missing chunks, nearest rings first, keeping at most UPDATE_ALLOCATION_AHEAD chunks that the
 * worker has not started (thread state NotLoaded, within a content area). A fresh chunk costs the main thread a 264 KB clear (page
 * faults the first time), so a new world or a teleport spreads that over frames, at the pace the worker
 * consumes chunks whatever the frame rate (a fixed per-frame count would starve the worker at 10 FPS and
 * hitch at 60). Returns true if it allocated any; leaves allocation_incomplete set while some are missing. */
static bool exchange_allocate(TerrainUpdater *u)
{
    bool changed = false, refused = false, budget_left = true;
    int waiting = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        /* Only chunks the worker will step count: one left in the hysteresis ring never starts. */
        const TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (chunk->thread_state == CHUNK_STATE_NOT_LOADED && update_chunk_wanted(u, chunk, 0)) waiting++;
    }
    /* With a job pool, allocating pauses it (jobs look neighbours up in the table): allocate in batches,
     * once half the chunks handed ahead are taken, not a few at every exchange. */
    if (u->pool.threads > 1 && waiting > UPDATE_ALLOCATION_AHEAD / 2) {
        u->allocation_incomplete = true;
        return false;
    }
    for (int i = 0; i < UPDATE_MAX_LOCATIONS; i++) {
        const UpdateLocation *loc = &u->locations[i];
        if (!loc->active) continue;
        int lx = chunk_coord_of((int)floorf(loc->x)), lz = chunk_coord_of((int)floorf(loc->z));
        int r = loc->content_chunks;
        /* Nearest rings first, so when the Terrain runs out of room the chunks near the player exist. */
        for (int ring = 0; ring <= r; ring++) {
            for (int cz = lz - ring; cz <= lz + ring; cz++) {
                int step = (cz == lz - ring || cz == lz + ring) ? 1 : 2 * ring;
                for (int cx = lx - ring; cx <= lx + ring; cx += step ? step : 1) {
                    if (terrain_get_chunk(u->terrain, cx, cz)) continue;
                    if (waiting >= UPDATE_ALLOCATION_AHEAD) {
                        budget_left = false;
                        continue;
                    }
                    exchange_pause_pool(u);
                    if (terrain_allocate_chunk(u->terrain, cx, cz)) {
                        changed = true;
                        waiting++;
                    } else {
                        refused = true;
                    }
                }
            }
        }
    }
    if (refused && !u->terrain_refused)
        log_warn("update", "the Terrain refused chunks (memory budget or table full); view reduced");
    u->terrain_refused = refused;
    u->allocation_incomplete = refused || !budget_left;
    return changed;
}

/* A job of `chunk` in flight that started at `state` or above computes what the downgrade undoes. */
static void exchange_mark_stale(TerrainUpdater *u, const TerrainChunk *chunk, ChunkState state)
{
    for (int i = 0; i < u->pool.capacity; i++) {
        UpdateJob *j = &u->pool.jobs[i];
        if (j->used && j->chunk == chunk && j->from >= state) j->stale = true;
    }
}

/* Sends back to InvalidVertices1 every Valid chunk that a location wants Valid and whose wanted geometry copies
 * (update.h) its build lacks: the player came within reach of its full resolution, or went far enough for
 * its far copy. It is not ready until they are built; the worker remeshes it nearest first (schedule.c
 * chooses the copies), and the renderer keeps drawing the mesh it has meanwhile. A chunk a job in flight
 * reads keeps its state until a later exchange. Returns true if it sent any back. */
static bool exchange_grow_copies(TerrainUpdater *u)
{
    bool viewer = false;
    for (int i = 0; i < UPDATE_MAX_LOCATIONS; i++) viewer |= u->locations[i].active && u->locations[i].viewer;
    if (!viewer) return false;   /* no viewer: every build makes both */
    bool changed = false;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (chunk->thread_state != CHUNK_STATE_VALID) continue;
        unsigned wanted = updater_copies_wanted(u->locations, UPDATE_MAX_LOCATIONS, chunk->coord_x, chunk->coord_z);
        if (!(wanted & ~update_chunk_copies(chunk))) continue;
        bool visible = false;
        for (int k = 0; k < UPDATE_MAX_LOCATIONS && !visible; k++) {
            const UpdateLocation *loc = &u->locations[k];
            visible = loc->active && update_location_distance(loc, chunk->coord_x, chunk->coord_z) <= loc->visibility_chunks;
        }
        if (!visible || update_chunk_in_footprint(u, chunk)) continue;
        chunk->thread_state = CHUNK_STATE_INVALID_VERTICES1;
        changed = true;
    }
    return changed;
}

/* Moves load results (worker_flags) into the main thread's flags. */
static void exchange_take_load_result(TerrainChunk *chunk)
{
    const uint32_t load_bits = CHUNK_FLAG_LOADED | CHUNK_FLAG_DAMAGED_ON_DISK;
    if (!(chunk->worker_flags & UPDATE_WORKER_FLAG_LOAD_RESULT)) return;
    chunk->flags = (chunk->flags & ~load_bits) | (chunk->worker_flags & load_bits);
    chunk->worker_flags &= ~(load_bits | UPDATE_WORKER_FLAG_LOAD_RESULT);
}

void updater_exchange(TerrainUpdater *u, const UpdaterCallbacks *cb)
{
    update_main_lock(u);
    bool changed = false;

    for (int i = 0; i < u->returned.count; i++)
        terrain_recycle_chunk(u->terrain, UPDATE_ARRAY_AT(&u->returned, TerrainChunk *, i));
    u->returned.count = 0;

    update_save_restore_failed(u);

    for (int i = 0; i < u->downgrades.count; i++) {
        const PendingDowngrade *d = &UPDATE_ARRAY_AT(&u->downgrades, PendingDowngrade, i);
        exchange_mark_stale(u, d->chunk, d->state);
        if (d->chunk->thread_state > d->state) d->chunk->thread_state = d->state;
        if (d->edited) {
            d->chunk->worker_schedule |= UPDATE_WORKER_FLAG_EDITED;
            u->edits_waiting = true;
        }
        /* Sent back to propagate: its light may rise again (an edit next door that only brightens). A job
         * in flight may read or write this flag word (its own or a neighbour's propagation): running jobs
         * end first (a queued one reads the cleared flag, as with one worker thread). */
        if (d->state <= CHUNK_STATE_INVALID_PROPAGATED_LIGHT) {
            if (update_job_conflicts(u, d->chunk, 1, true)) exchange_pause_pool(u);
            d->chunk->worker_flags &= ~LIGHT_WORKER_FLAG_PROPAGATED;
        }
        changed = true;
    }
    u->downgrades.count = 0;

    if (memcmp(u->worker_locations, u->locations, sizeof u->locations) != 0) {
        memcpy(u->worker_locations, u->locations, sizeof u->locations);
        changed = true;
    }
    if (u->step.sky_light != u->sky_light) {
        u->step.sky_light = u->sky_light;
        changed = true;
    }
    if (u->mesher_settings_dirty) {
        u->mesher_settings_dirty = false;
        mesher_context_set_brightness(u->step.mesher, u->brightness);
        mesher_context_set_season(u->step.mesher, u->season);
        u->worker_brightness = u->brightness;
        u->worker_season = u->season;
        changed = true;
    }
    if (u->locations_dirty || u->allocation_incomplete || u->release_pending) {
        if (exchange_release(u, cb)) changed = true;
    }
    if (u->locations_dirty || u->allocation_incomplete) {
        u->locations_dirty = false;
        if (exchange_allocate(u)) changed = true;
    }
    if (exchange_grow_copies(u)) changed = true;
    if (u->autosave_requested) {
        u->autosave_requested = false;
        changed = true;   /* also retries chunks left NotLoaded by a load that could not read (update_step.c) */
        if (u->storage && u->storage->save) {
            update_save_report_unsaved(u);
            update_save_queue_all(u);
            if (u->autosave.count) changed = true;
        }
    }

    memset(u->stats.by_state, 0, sizeof u->stats.by_state);
    u->ready_meshes.count = 0;
    if (u->pool_paused) {
        u->pool_paused = false;
        update_pool_resume(u);
    }
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (changed) chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_BLOCKED;
        /* A chunk a job in flight reads or writes keeps its published state and flags until a later
         * exchange: a job may be lighting it with plain stores (PRIVATE), or reading its light flags (a
         * pack job's chunk too). A chunk whose pack is only queued is published: the world is shown
         * without waiting for the packs (update_pack.c). */
        if (update_chunk_in_footprint(u, chunk)) {
            u->stats.by_state[chunk->state]++;
            continue;
        }
        exchange_take_load_result(chunk);
        chunk->state = chunk->thread_state;
        /* from now on the main thread may edit it: light is written with compare-and-swap */
        if (chunk->state >= CHUNK_STATE_INVALID_LIGHT && (chunk->worker_flags & UPDATE_WORKER_FLAG_PRIVATE))
            chunk->worker_flags &= ~UPDATE_WORKER_FLAG_PRIVATE;
        u->stats.by_state[chunk->state]++;
        if (chunk->worker_finished_mesh) {
            ReadyMesh *r = update_array_push(&u->ready_meshes, sizeof *r);
            if (!r) continue; /* out of memory: delivered at a later exchange */
            r->chunk = chunk;
            r->mesh = chunk->worker_finished_mesh;
            chunk->worker_finished_mesh = NULL;
        }
    }
    u->stats.allocated = terrain_chunk_count(u->terrain);
    u->stats.valid = u->stats.by_state[CHUNK_STATE_VALID];
    u->stats.steps_done = u->steps_done;
    u->stats.chunks_saved = u->chunks_saved;
    u->stats.unsaved_kept = u->unsaved_kept;
    u->stats.threads = u->pool.threads;
    update_pool_counts(u, &u->stats.jobs_queued, &u->stats.jobs_busy);
    u->stats.chunks_hot = chunk_scratch_in_use();
    u->stats.pack_jobs = u->packs_done;

    u->exchanges++;
    if (changed || u->released.count || (u->idle_pack_pending && (u->exchanges & 15u) == 0)) {
        update_pool_wake(u);
    }
    update_main_unlock(u);

    for (int i = 0; i < u->ready_meshes.count; i++) {
        ReadyMesh *r = &UPDATE_ARRAY_AT(&u->ready_meshes, ReadyMesh, i);
        if (cb && cb->mesh_ready) cb->mesh_ready(cb->user, r->chunk, r->mesh);
        else chunk_mesh_destroy(r->mesh);
    }
    u->ready_meshes.count = 0;
}

