/* update_pack.c — packing settled chunks: which hot chunks turn cold while a world loads, and the pack jobs
 * that make them cold on the job pool.
 *
 * Design. A chunk turns cold (palette sections, chunk.h) as soon as it is settled: it and its neighbours have
 * no step left that reads it (the last neighbour that reads it is done), so a loading world stays mostly
 * packed (chunks_hot_at_ready in strata-bench) and each chunk is packed about once. The worker decides, after
 * each committed step and in its sweeps; it stays the only owner of chunk states and of the scheduler bits.
 *
 * Who packs. With one thread the worker packs at once, as it always did. With a pool (threads > 1) packing
 * was serial work on the worker while the pool waited for new steps (perf: ~0.4 CPU-s of a world of view
 * distance 8), so a settled chunk goes to the pack queue instead (UPDATE_WORKER_FLAG_PACK_PENDING) and the
 * scheduler hands it to a pack job before it hands over steps, in queue order, in the pack slots of the pool
 * (UPDATE_POOL_PACK_SLOTS: a pack never takes a step's slot). A pack job is a job like a step under the
 * footprint rule (schedule.c): it changes the form of its own chunk only (read radius 0, it writes), so no
 * job reads the chunk meanwhile and the exchange neither saves, releases nor publishes it; the pool thread
 * runs update_pack_cells (chunk_pack under the cell lock, and a Valid chunk's slice geometry freed), and
 * touches no scheduler bit: the worker clears them when it hands the job over and when it takes it back.
 * Before a queued chunk is handed over it is checked again (still hot, still settled, no edit since): one
 * that no longer is leaves the queue unpacked.
 *
 * Publishing. The worker takes each pack job back as it finishes. The exchange publishes a chunk whose pack is
 * only queued (not one a pack job holds): the last chunks of a loading world settle with its last step, and
 * holding them back until their ~100 packs were done kept the world from being shown for ~20 ms of a 0.35 s load
 * at view distance 8 (2 threads; the pool packs them in the next ~20 ms, while the first frames are drawn). So
 * chunks_hot_at_ready counts the packs still queued then (0 with one thread, which packs at once), and a ready
 * world is all sections shortly after. Packing never changes a cell, so cells, light and vertices do not depend
 * on who packs or when (test_update_pack: the same sections and hash at 1, 2 and 4 threads).
 *
 * A block an edit downgraded stays hot until the idle delay (the next edit is likely nearby). Every
 * UPDATE_SWEEP_EVERY steps every settled hot chunk is packed (those skipped because a job read them then),
 * and past UPDATE_HOT_BUDGET the hot chunks no step used for a while are packed at once on the worker (a
 * safety net that a world of view distance 8 never reaches). Packing idle chunks once the world is ready is
 * worker.c's (one a unit, on the worker: nothing waits for it then). */
#include <limits.h>
#include <stdlib.h>

#include "strata/log.h"
#include "update_internal.h"

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

/* Never a chunk inside a job's footprint (the callers check): packing changes its form. */
bool update_pack(TerrainUpdater *u, TerrainChunk *k)
{
    u->packed_since_trim++;
    k->worker_schedule &= ~UPDATE_WORKER_FLAG_NEAR_EDIT;
    return update_pack_cells(k, k->thread_state);
}

/* Whether a neighbour of n is missing for good: outside every location's content area, so never allocated
 * (or the Terrain refused chunks: it may never have room). */
static bool pack_neighbour_never_comes(const TerrainUpdater *u, const WorkerArea *areas, int area_count,
                                       const TerrainChunk *n)
{
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            if ((!dx && !dz) || terrain_get_chunk(u->terrain, n->coord_x + dx, n->coord_z + dz)) continue;
            bool wanted = false;
            for (int i = 0; i < area_count && !wanted; i++) {
                int ax = abs(n->coord_x + dx - areas[i].cx), az = abs(n->coord_z + dz - areas[i].cz);
                wanted = (ax > az ? ax : az) <= areas[i].content;
            }
            if (!wanted || u->terrain_refused) return true;
        }
    }
    return false;
}

/* Whether chunk n has no step left that reads its 3x3 block (self: no step left at all): it is at its
 * target, or one of its neighbours is missing for good (the content area's outer ring, whose outer
 * neighbours are never allocated, can never propagate or mesh; self: once past sunlight). Neither a
 * neighbour not allocated yet (the exchange allocates a loading world in batches) nor the scheduler's
 * blocked bit (set as well when a chunk waits behind one such neighbour, and cleared at the next change)
 * counts: a chunk packed for them was unpacked again a few steps later (each chunk of a loading world was
 * packed about twice). A chunk behind a read that failed stays hot until idle packing (worker.c). */
static bool pack_done_reading(const TerrainUpdater *u, const WorkerArea *areas, int area_count,
                              const TerrainChunk *n, bool self)
{
    int distance;
    if (n->thread_state >= update_worker_target(areas, area_count, n, &distance)) return true;
    if (self && n->thread_state < CHUNK_STATE_INVALID_PROPAGATED_LIGHT) return false;
    return pack_neighbour_never_comes(u, areas, area_count, n);
}

/* Whether nobody needs the chunk's cells soon: neither it nor a neighbour has a step left that reads
 * them (a chunk reads its neighbours' cells only on its way to its target). */
static bool pack_settled(const TerrainUpdater *u, const WorkerArea *areas, int area_count, const TerrainChunk *k)
{
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            const TerrainChunk *n = (dx || dz) ? terrain_get_chunk(u->terrain, k->coord_x + dx, k->coord_z + dz) : k;
            if (n && !pack_done_reading(u, areas, area_count, n, n == k)) return false;
        }
    }
    return true;
}

/* A hot chunk that may be packed now: no job in flight reads or writes it, its pack is not pending already,
 * and no edit used it in the last UPDATE_IDLE_PACK_DELAY exchanges. */
static bool pack_allowed(const TerrainUpdater *u, const TerrainChunk *k)
{
    if ((k->worker_schedule & UPDATE_WORKER_FLAG_PACK_PENDING) || update_chunk_in_footprint(u, k) || !chunk_is_hot(k))
        return false;
    return !(k->worker_schedule & UPDATE_WORKER_FLAG_NEAR_EDIT) ||
           u->exchanges - k->worker_hot_exchange >= UPDATE_IDLE_PACK_DELAY;
}

/* Packs `k` now (one thread) or queues it for a pack job. Returns 1 when it did either. */
static int pack_request(TerrainUpdater *u, TerrainChunk *k)
{
    if (u->pool.threads == 1) return update_pack(u, k);
    TerrainChunk **slot = update_array_push(&u->pack_queue, sizeof *slot);
    if (!slot) return update_pack(u, k); /* out of memory for the queue: pack it here */
    *slot = k;
    k->worker_schedule |= UPDATE_WORKER_FLAG_PACK_PENDING;
    return 1;
}

int update_sweep_settled(TerrainUpdater *u, const WorkerArea *areas, int area_count)
{
    int packed = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (!(k->worker_schedule & UPDATE_WORKER_FLAG_EDITED) && pack_allowed(u, k) &&
            pack_settled(u, areas, area_count, k))
            packed += pack_request(u, k);
    }
    return packed;
}

void update_pack_settled(TerrainUpdater *u, const TerrainChunk *chunk)
{
    WorkerArea areas[UPDATE_MAX_LOCATIONS];
    int area_count = update_worker_areas(u, areas);
    u->sweep_pending = true;
    /* The sweep first, then the block's own packs. */
    if (u->steps_done % UPDATE_SWEEP_EVERY == 0) update_sweep_settled(u, areas, area_count);
    bool stay_hot = chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED; /* an edit's block stays hot a while */
    /* Every chunk of the block has `chunk` among its 3x3: none is settled while `chunk` still has a step
     * that reads its block (most commits), so the settled tests are skipped then. */
    if (!stay_hot && !pack_done_reading(u, areas, area_count, chunk, false)) stay_hot = true;
    /* the 8 neighbours in chunk order, then the chunk itself */
    static const int block[9][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}, {0, 0}};
    for (int i = 0; i < 9; i++) {
        TerrainChunk *k = terrain_get_chunk(u->terrain, chunk->coord_x + block[i][0], chunk->coord_z + block[i][1]);
        if (!k || update_chunk_in_footprint(u, k) || !chunk_is_hot(k)) continue;
        if (!stay_hot && pack_allowed(u, k) && pack_settled(u, areas, area_count, k)) {
            pack_request(u, k);
        } else {
            k->worker_hot_stamp = (uint32_t)u->steps_done;
            k->worker_hot_exchange = u->exchanges;
            if (chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED) k->worker_schedule |= UPDATE_WORKER_FLAG_NEAR_EDIT;
        }
    }
    if (chunk_scratch_in_use() <= UPDATE_HOT_BUDGET) return;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (pack_allowed(u, k) && (uint32_t)u->steps_done - k->worker_hot_stamp > UPDATE_HOT_AGE) update_pack(u, k);
    }
}

/* ---- pack jobs (threads > 1) ---- */

static UpdateJob *pack_free_slot(TerrainUpdater *u)
{
    for (int i = 0; i < u->pool.capacity; i++)
        if (!u->pool.jobs[i].used) return &u->pool.jobs[i];
    return NULL;
}

/* Whether a queued chunk is still to be packed now: hot, no edit since, settled. */
static bool pack_still_wanted(const TerrainUpdater *u, const WorkerArea *areas, int area_count, const TerrainChunk *k)
{
    if (!chunk_is_hot(k) || (k->worker_schedule & UPDATE_WORKER_FLAG_EDITED)) return false;
    if ((k->worker_schedule & UPDATE_WORKER_FLAG_NEAR_EDIT) &&
        u->exchanges - k->worker_hot_exchange < UPDATE_IDLE_PACK_DELAY)
        return false;
    return pack_settled(u, areas, area_count, k);
}

int update_pack_dispatch(TerrainUpdater *u)
{
    if (u->pack_queue.count == 0) return 0;
    WorkerArea areas[UPDATE_MAX_LOCATIONS];
    int area_count = update_worker_areas(u, areas);
    int slots = UPDATE_POOL_PACK_SLOTS * u->pool.threads;
    TerrainChunk **queue = u->pack_queue.data;
    int kept = 0, handed = 0;
    for (int i = 0; i < u->pack_queue.count; i++) {
        TerrainChunk *k = queue[i];
        if (u->pool.packs_in_flight >= slots) {
            queue[kept++] = k;
            continue;
        }
        if (update_chunk_in_footprint(u, k)) { /* a job reads it (an edit sent a neighbour back): later */
            queue[kept++] = k;
            continue;
        }
        if (!pack_still_wanted(u, areas, area_count, k)) {
            k->worker_schedule &= ~UPDATE_WORKER_FLAG_PACK_PENDING;
            continue;
        }
        UpdateJob *job = pack_free_slot(u);
        if (!job) { /* cannot happen: the pack slots are counted apart from the steps' */
            queue[kept++] = k;
            continue;
        }
        k->worker_schedule &= ~UPDATE_WORKER_FLAG_NEAR_EDIT;
        /* the worker's fields only: status and seq are the pool lock's (pool threads scan every slot) */
        job->kind = UPDATE_JOB_PACK;
        job->edited = false;
        job->chunk = k;
        job->from = k->thread_state;   /* the pool thread never reads the state the exchange may lower */
        job->read_radius = 0;
        job->writes_cells = true;      /* it changes the chunk's form: no job reads it meanwhile */
        job->stale = false;
        job->sky_light = u->step.sky_light;
        job->brightness = u->worker_brightness;
        job->season = u->worker_season;
        job->copies = 0;
        update_pool_submit(u, job);
        handed++;
    }
    u->pack_queue.count = kept;
    return handed;
}

void update_pack_finished(TerrainUpdater *u, UpdateJob *job)
{
    job->chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_PACK_PENDING;
    update_pool_release(u, job);
    u->packs_done++;
    u->packed_since_trim++;   /* the worker's idle trim counts the pool's packs too (worker.c) */
}

void update_pack_forget(TerrainUpdater *u, TerrainChunk *k)
{
    if (!(k->worker_schedule & UPDATE_WORKER_FLAG_PACK_PENDING)) return;
    TerrainChunk **queue = u->pack_queue.data;
    int kept = 0;
    bool queued = false;
    for (int i = 0; i < u->pack_queue.count; i++) {
        if (queue[i] == k) queued = true;
        else queue[kept++] = queue[i];
    }
    u->pack_queue.count = kept;
    if (queued) k->worker_schedule &= ~UPDATE_WORKER_FLAG_PACK_PENDING; /* else its job clears it when taken back */
}
