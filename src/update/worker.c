/* worker.c — what the update worker does between exchanges: free released chunks, write chunks to storage
 * in the background (autosaves and the saves of chunks being released), and step the best chunk.
 *
 * Design. Every call of update_worker_do_one is one short unit of work, run with the mutex held, so the
 * main thread waits at most one unit for the lock. Storage writes are the exception: they may take
 * milliseconds (fsync), so the worker drops the lock around storage->save, sets io_busy and names the
 * chunk in `saving` (the exchange never detaches that chunk meanwhile; updater_save_all waits for io_busy
 * to clear). Every write is of a live chunk, still in the Terrain (the main thread may edit it), so the
 * worker saves a snapshot copied with relaxed atomic loads, carrying the counter and flags main handed
 * over with it. A failed write never loses edits: the entry goes back to main (failed_saves), which gives
 * the counter back to the chunk; a chunk nobody wants any more then stays in the Terrain, unreleased, until
 * a later save succeeds. Released chunks never need a write: the exchange detaches only saved chunks.
 *
 * Choosing the chunk: one linear scan over the allocated chunks (a few hundred) finds the best chunk below
 * its target state, ordered by (downgraded by an edit first, nearest to a location, lowest state). A step
 * that needs its neighbours at some state first steps a neighbour that is behind; a chunk with a missing
 * neighbour is marked blocked until the next exchange that changes anything (the outer ring of the
 * content area stays blocked: its outer neighbours are never allocated).
 *
 * Hot and cold chunks (chunk.h): a step makes the chunk it steps hot (its views unpack it), and the
 * neighbours it reads too. After each step the worker stamps the hot chunks of that 3x3 block with the
 * step number. Packing costs the worker's one thread time that a loading world waits for, so it is put
 * off: under UPDATE_HOT_SOFT scratches in use nothing is packed while there are steps to take (a world
 * of view distance 8, ~440 chunks, loads all hot, at the flat layout's speed). Past it, the hot chunks of
 * the stepped block that are settled (they and their neighbours are at the states the locations want, so
 * no step will read them soon) are packed, and past UPDATE_HOT_BUDGET the chunks no step used for
 * UPDATE_HOT_AGE steps too: so a large world's frontier stays hot and what is behind it goes cold, each
 * chunk packed about once. An idle worker packs every hot chunk, one per unit of work, so a ready world
 * is all sections shortly after it is ready. Packing only changes the form, never a cell, and only the
 * worker changes the form of a Terrain chunk. */
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"
#include "update_internal.h"

void update_free_chunk_geometry(TerrainChunk *chunk)
{
    chunk_geometry_destroy(chunk->worker_geometry);
    chunk->worker_geometry = NULL;
    chunk_mesh_destroy(chunk->worker_finished_mesh);
    chunk->worker_finished_mesh = NULL;
}

/* ---- storage I/O, without the lock ---- */

/* Writes `snapshot` (a copy of the live chunk `live`) with the lock dropped. A failure is logged once
 * here, with its reason, and remembered for the exchange's summary. */
static StResult worker_save_unlocked(TerrainUpdater *u, const TerrainChunk *live, const TerrainChunk *snapshot)
{
    u->io_busy = true;
    u->saving = live;
    pthread_mutex_unlock(&u->mutex);
    StResult rc = u->storage->save(u->storage->user, snapshot);
    char reason[sizeof u->last_save_error] = "";
    if (rc != ST_OK) {
        snprintf(reason, sizeof reason, "%s", st_error_message());
        log_error("update", "saving chunk %d,%d failed (%s): %s; its edits stay in memory and the save is "
                  "retried at the next autosave or save", snapshot->coord_x, snapshot->coord_z,
                  st_result_name(rc), reason);
    }
    pthread_mutex_lock(&u->mutex);
    u->io_busy = false;
    u->saving = NULL;
    pthread_cond_broadcast(&u->io_cond);
    if (rc == ST_OK) u->chunks_saved++;
    else memcpy(u->last_save_error, reason, sizeof reason);
    return rc;
}

static bool worker_can_save(const TerrainUpdater *u)
{
    return u->storage && u->storage->save;
}

/* A released chunk (detached, nothing to save): free its geometry, hand it back for recycling. */
static bool worker_finish_released(TerrainUpdater *u)
{
    /* The first one no job in flight reads (a job that started before the release still may). */
    int at = 0;
    while (at < u->released.count && update_chunk_in_footprint(u, UPDATE_ARRAY_AT(&u->released, TerrainChunk *, at)))
        at++;
    if (at == u->released.count) return false;
    TerrainChunk *chunk = UPDATE_ARRAY_AT(&u->released, TerrainChunk *, at);
    /* Keep release order (first released, first done); the list is short. */
    memmove((TerrainChunk **)u->released.data + at, (TerrainChunk **)u->released.data + at + 1,
            (size_t)(u->released.count - at - 1) * sizeof(TerrainChunk *));
    u->released.count--;
    update_free_chunk_geometry(chunk);
    TerrainChunk **slot = update_array_push(&u->returned, sizeof *slot);
    if (slot) {
        *slot = chunk;
    } else {
        /* Cannot hand it back: it stays detached; terrain_destroy still frees it. */
        log_error("update", "out of memory returning chunk %d,%d to the pool", chunk->coord_x, chunk->coord_z);
    }
    return true;
}

/* A background save of a live chunk (an autosave, or the save of a chunk being released), through a
 * snapshot. */
static bool worker_autosave_one(TerrainUpdater *u)
{
    /* The first one whose chunk has no job in flight (a job may be writing its shafts or light). */
    int at = 0;
    while (at < u->autosave.count && update_chunk_in_flight(u, UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, at).chunk))
        at++;
    if (at == u->autosave.count) return false;
    AutosaveEntry entry = UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, at);
    memmove((AutosaveEntry *)u->autosave.data + at, (AutosaveEntry *)u->autosave.data + at + 1,
            (size_t)(u->autosave.count - at - 1) * sizeof(AutosaveEntry));
    u->autosave.count--;

    TerrainChunk *snap = u->snapshot;
    const TerrainChunk *live = entry.chunk;
    snap->coord_x = live->coord_x;
    snap->coord_z = live->coord_z;
    snap->origin_x = live->origin_x;
    snap->origin_z = live->origin_z;
    snap->state = CHUNK_STATE_VALID;
    snap->thread_state = live->thread_state;
    snap->modification_counter = entry.counter;
    snap->flags = entry.flags;
    memcpy(snap->shafts, live->shafts, sizeof snap->shafts); /* shafts are written only by the worker */
    chunk_copy_cells_out(live, chunk_cell_view(snap).cells);   /* relaxed loads: main may be editing live */

    if (worker_save_unlocked(u, live, snap) == ST_OK) return true;
    /* Main gives the counter back at the next exchange. The chunk is still in the Terrain: main never
     * detaches a chunk while `saving` names it. The exchange reserved room for this record when it
     * queued the save, so the push cannot fail. */
    AutosaveEntry *failed = update_array_push(&u->failed_saves, sizeof *failed);
    if (failed) *failed = entry;
    else log_error("update", "out of memory recording the failed save of chunk %d,%d", live->coord_x, live->coord_z);
    return true;
}

/* ---- choosing and stepping a chunk ---- */

/* The active locations in chunk coordinates, computed once per scan. */
int update_worker_areas(const TerrainUpdater *u, WorkerArea areas[UPDATE_MAX_LOCATIONS])
{
    int n = 0;
    for (int i = 0; i < UPDATE_MAX_LOCATIONS; i++) {
        const UpdateLocation *loc = &u->worker_locations[i];
        if (!loc->active) continue;
        areas[n++] = (WorkerArea){ chunk_coord_of((int)floorf(loc->x)), chunk_coord_of((int)floorf(loc->z)),
                                   loc->visibility_chunks, loc->content_chunks };
    }
    return n;
}

/* The state a chunk should reach, or CHUNK_STATE_NOT_LOADED when no location wants it stepped. */
ChunkState update_worker_target(const WorkerArea *areas, int area_count, const TerrainChunk *chunk, int *distance)
{
    ChunkState target = CHUNK_STATE_NOT_LOADED;
    int nearest = INT_MAX;
    for (int i = 0; i < area_count; i++) {
        int dx = abs(chunk->coord_x - areas[i].cx), dz = abs(chunk->coord_z - areas[i].cz);
        int d = dx > dz ? dx : dz;
        if (d < nearest) nearest = d;
        if (d <= areas[i].visibility) target = CHUNK_STATE_VALID;
        else if (d <= areas[i].content && target < CHUNK_STATE_INVALID_VERTICES1)
            target = CHUNK_STATE_INVALID_VERTICES1;
    }
    *distance = nearest;
    return target;
}

/* ---- packing chunks that left the working set ---- */

#define UPDATE_HOT_BUDGET 1024  /* a safety net: past it, chunks unused for UPDATE_HOT_AGE steps are packed */
#define UPDATE_HOT_AGE    64
#define UPDATE_SWEEP_EVERY 32   /* steps between sweeps for settled hot chunks */
#define UPDATE_IDLE_PACK_DELAY 30 /* exchanges (frames) a chunk a step used stays hot when idle */
#define UPDATE_TRIM_AFTER 64      /* chunks packed at idle before the freed heap is trimmed */
#define UPDATE_IDLE_SPARES 9      /* pooled scratches kept then (an edit's 3x3 unpacks without malloc) */

/* Packs a chunk; a Valid one also drops its slice geometry (kept only to remesh a few slices after an
 * edit: it is several times the packed cells, so a cold chunk rebuilds all its slices when next meshed).
 * Between the two vertex passes the geometry is half a mesh and stays. Never a chunk inside a job's
 * footprint (the callers check): packing changes its form. */
static bool worker_pack(TerrainChunk *k)
{
    k->worker_schedule &= ~UPDATE_WORKER_FLAG_NEAR_EDIT;
    if (k->thread_state == CHUNK_STATE_VALID) {
        chunk_geometry_destroy(k->worker_geometry);
        k->worker_geometry = NULL;
    }
    return chunk_pack(k);
}

/* Whether chunk n has no step left that reads its 3x3 block (self: no step left at all): it is at its
 * target, blocked, or one of its neighbours is missing (the content area's outer ring, whose outer
 * neighbours are never allocated, can never propagate or mesh; self: once past sunlight). */
static bool worker_done_reading(const TerrainUpdater *u, const WorkerArea *areas, int area_count,
                                const TerrainChunk *n, bool self)
{
    int distance;
    if (n->thread_state >= update_worker_target(areas, area_count, n, &distance)) return true;
    if (n->worker_schedule & UPDATE_WORKER_FLAG_BLOCKED) return true;
    if (self && n->thread_state < CHUNK_STATE_INVALID_PROPAGATED_LIGHT) return false;
    return updater_neighbours_ready(u->terrain, n, CHUNK_STATE_NOT_LOADED, NULL) == NEIGHBOURS_MISSING;
}

/* Whether nobody needs the chunk's cells soon: neither it nor a neighbour has a step left that reads
 * them (a chunk reads its neighbours' cells only on its way to its target). */
static bool worker_settled(const TerrainUpdater *u, const WorkerArea *areas, int area_count, const TerrainChunk *k)
{
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            const TerrainChunk *n = (dx || dz) ? terrain_get_chunk(u->terrain, k->coord_x + dx, k->coord_z + dz) : k;
            if (n && !worker_done_reading(u, areas, area_count, n, n == k)) return false;
        }
    }
    return true;
}

/* A hot chunk the worker may pack now: no job in flight reads or writes it, and no edit used it in the
 * last UPDATE_IDLE_PACK_DELAY exchanges. */
static bool worker_may_pack(const TerrainUpdater *u, const TerrainChunk *k)
{
    if (update_chunk_in_footprint(u, k) || !chunk_is_hot(k)) return false;
    return !(k->worker_schedule & UPDATE_WORKER_FLAG_NEAR_EDIT) ||
           u->exchanges - k->worker_hot_exchange >= UPDATE_IDLE_PACK_DELAY;
}

/* Packs every settled hot chunk that no job reads and no edit made hot; returns how many. */
static int worker_sweep_settled(TerrainUpdater *u, const WorkerArea *areas, int area_count)
{
    int packed = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (!(k->worker_schedule & UPDATE_WORKER_FLAG_EDITED) && worker_may_pack(u, k) &&
            worker_settled(u, areas, area_count, k))
            packed += worker_pack(k);
    }
    return packed;
}

/* After a committed step of `chunk`: a chunk turns cold as soon as it is settled (it and its neighbours
 * are at their targets: the last neighbour that reads it is done), so a loading world stays mostly packed
 * (chunks_hot_at_ready in strata-bench) and each chunk is packed about once. The hot chunks of the block
 * that are not settled are stamped as used now. A block an edit downgraded stays hot until the idle delay
 * (the next edit is likely nearby). Every UPDATE_SWEEP_EVERY steps every settled hot chunk is packed
 * (those skipped because a job read them then), and past UPDATE_HOT_BUDGET scratches the hot chunks that
 * no step used for a while. */
void update_pack_settled(TerrainUpdater *u, const TerrainChunk *chunk)
{
    WorkerArea areas[UPDATE_MAX_LOCATIONS];
    int area_count = update_worker_areas(u, areas);
    bool stay_hot = chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED; /* an edit's block stays hot a while */
    /* Every chunk of the block has `chunk` among its 3x3: none is settled while `chunk` still has a step
     * that reads its block (most commits), so the settled tests are skipped then. */
    if (!stay_hot && !worker_done_reading(u, areas, area_count, chunk, false)) stay_hot = true;
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            TerrainChunk *k = terrain_get_chunk(u->terrain, chunk->coord_x + dx, chunk->coord_z + dz);
            if (!k || update_chunk_in_footprint(u, k) || !chunk_is_hot(k)) continue;
            if (!stay_hot && worker_may_pack(u, k) && worker_settled(u, areas, area_count, k)) worker_pack(k);
            else {
                k->worker_hot_stamp = (uint32_t)u->steps_done;
                k->worker_hot_exchange = u->exchanges;
                if (chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED) k->worker_schedule |= UPDATE_WORKER_FLAG_NEAR_EDIT;
            }
        }
    }
    u->sweep_pending = true;
    if (u->steps_done % UPDATE_SWEEP_EVERY == 0) worker_sweep_settled(u, areas, area_count);
    if (chunk_scratch_in_use() <= UPDATE_HOT_BUDGET) return;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (worker_may_pack(u, k) && (uint32_t)u->steps_done - k->worker_hot_stamp > UPDATE_HOT_AGE) worker_pack(k);
    }
}

/* Gives the pool's spare scratches past UPDATE_IDLE_SPARES and the freed heap back to the system. */
static void worker_trim(TerrainUpdater *u)
{
    u->packed_since_trim = 0;
    chunk_scratch_trim(UPDATE_IDLE_SPARES);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* Idle: packs one hot chunk that no step used in the last UPDATE_IDLE_PACK_DELAY exchanges (so the
 * chunks around repeated edits stay hot, and an edit does not pay for packing); false when none is left
 * now (idle_pack_pending then asks the exchange to wake the worker again later). After many packs the
 * pool's spare scratches past UPDATE_IDLE_SPARES and the freed geometry are handed back to the system
 * (glibc keeps freed heap otherwise; the spares alone were 16 MiB), at once when the last scratch is
 * packed (a ready world's memory is then its sections) and again when nothing is left to pack. */
static bool worker_pack_one(TerrainUpdater *u)
{
    bool deferred = false;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (update_chunk_in_footprint(u, k)) continue;
        if (!chunk_is_hot(k) && !(k->thread_state == CHUNK_STATE_VALID && k->worker_geometry)) continue;
        if (u->exchanges - k->worker_hot_exchange < UPDATE_IDLE_PACK_DELAY) {
            deferred = true;
            continue;
        }
        u->packed_since_trim++;
        bool ok = worker_pack(k);
        if (chunk_scratch_in_use() == 0 && u->packed_since_trim >= UPDATE_TRIM_AFTER) worker_trim(u);
        return ok;
    }
    u->idle_pack_pending = deferred;
    if (!deferred && u->packed_since_trim >= UPDATE_TRIM_AFTER) worker_trim(u);
    return false;
}

bool update_worker_do_one(TerrainUpdater *u)
{
    if (u->released.count > 0 && worker_finish_released(u)) {
        u->other_units++;
        return true;
    }
    if (u->autosave.count > 0) {
        if (!worker_can_save(u)) {
            u->autosave.count = 0;
        } else if (worker_autosave_one(u)) {
            u->other_units++;
            return true;
        }
    }
    if (update_schedule_run(u)) return true;
    if (u->pool.in_flight > 0) return false; /* wait for a job; pack when nothing runs */
    if (u->sweep_pending) {
        /* nothing to step: the chunks that settled since the last sweep (the content area's outer ring
         * settles when the scheduler finds it blocked, after the last step) turn cold now */
        u->sweep_pending = false;
        WorkerArea areas[UPDATE_MAX_LOCATIONS];
        int area_count = update_worker_areas(u, areas);
        if (worker_sweep_settled(u, areas, area_count) > 0) {
            u->other_units++;
            return true;
        }
    }
    if (!worker_pack_one(u)) return false;
    u->other_units++;
    return true;
}
