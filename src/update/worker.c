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
 * neighbours it reads too. A chunk turns cold as soon as it is settled (update_pack.c: packed at once with
 * one thread, by a pack job of the pool with more), and an idle worker packs every hot chunk left (those an
 * edit used, after UPDATE_IDLE_PACK_DELAY exchanges), one per unit of work, so a ready world is all sections
 * shortly after it is ready. Packing only changes the form, never a cell; the worker decides every change of
 * a Terrain chunk's form (a job changes only the form of the chunk it was handed).
 * The save path itself (the snapshot write with the lock dropped) is update_save.c's, packing settled
 * chunks update_pack.c's, and the state a chunk should reach schedule.c's: this file calls down into them. */
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

/* ---- choosing and stepping a chunk ---- */

/* The active locations in chunk coordinates, computed once per scan. */
/* ---- packing chunks that left the working set ---- */

#define UPDATE_TRIM_AFTER 64      /* chunks packed at idle before the freed heap is trimmed */
#define UPDATE_IDLE_SPARES 9      /* pooled scratches kept then (an edit's 3x3 unpacks without a new mapping): two
                                   * slabs of chunk_scratch.c, 4 MiB */

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
        if ((k->worker_schedule & UPDATE_WORKER_FLAG_PACK_PENDING) || update_chunk_in_footprint(u, k)) continue;
        if (!chunk_is_hot(k) && !(k->thread_state == CHUNK_STATE_VALID && k->worker_geometry)) continue;
        if (u->exchanges - k->worker_hot_exchange < UPDATE_IDLE_PACK_DELAY) {
            deferred = true;
            continue;
        }
        bool ok = update_pack(u, k);
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
        if (!update_save_possible(u)) {
            u->autosave.count = 0;
        } else if (update_save_autosave_one(u)) {
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
        if (update_sweep_settled(u, areas, area_count) > 0) {
            u->other_units++;
            return true;
        }
    }
    if (!worker_pack_one(u)) return false;
    u->other_units++;
    return true;
}
