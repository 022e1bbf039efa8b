/* schedule.c — which chunk steps run now: the worker's scheduler over the job pool (pool.c).
 *
 * Geometry copies (update.h): a vertex pass builds the copies of its chunk that the locations want drawn
 * (full resolution near a viewer, the far copy far from it, both in the band between, both without a
 * viewer); they are chosen when pass 1 is handed over, recorded in the chunk's scheduler bits, and pass 2
 * builds the same (job.copies, applied to the pool thread's mesher). The exchange sends a Valid chunk whose
 * wanted copies grew back to InvalidVertices1; from there it is an ordinary candidate, nearest first.
 *
 * Design. The scheduler runs with the updater's mutex held (on the worker thread, or on the caller of
 * updater_run_steps). It commits finished jobs, then fills the free job slots with the best runnable steps,
 * ordered as the single-threaded worker ordered them: downgraded by an edit first, then nearest to a
 * location, then lowest state, then chunk coordinates. A candidate whose step needs its neighbours at some
 * state resolves to the neighbour that is behind (the same walk as before); a chunk with a missing
 * neighbour is marked blocked until the next exchange that changes something.
 *
 * The footprint rule (what makes N threads safe). A job of chunk C writes at most C: generation passes,
 * load and sunlight write C's cells, shafts and light flags (and read nothing else: generator.h); light
 * propagation writes C's light and light flags and reads the 3x3 block around C (cells, light, shafts,
 * light flags of the neighbours); both vertex passes read the 3x3 block and write only C's geometry. So a
 * job has a read radius (0 or 1) and writes cells or not. A job may start only if, for every job in flight
 * (queued or running), the two chunks differ, neither writes a chunk the other reads (Chebyshev distance
 * <= the reader's radius), and the scheduler's state checks hold (the neighbour requirement of
 * update_step.h, checked here with the thread states as the worker sees them). Before a job with radius 1
 * starts, the scheduler makes the 9 chunks hot, and no chunk inside a footprint is packed, unpacked, saved,
 * released or has its flags published by the exchange until the job is committed, so a job's inputs are
 * exactly the chunks as they stand at that state: frozen for the job's whole run. Why the inputs cannot
 * change otherwise: a neighbour a step reads has reached a state past the one whose step writes what is
 * read (a vertex pass reads neighbours past light; propagation reads neighbours' own light, which
 * propagation of that neighbour may raise but never past the exact light: light.h, so the result is the
 * same); the main thread's edits use the cell lock and relaxed atomics, as with one worker thread, and
 * come with a downgrade of every chunk whose steps read the changed cell.
 *
 * Downgrades while in flight: the exchange marks a job whose chunk is lowered to its start state or below
 * stale; its result is dropped at commit (the chunk is redone from the lower state). Commit order: the
 * finished jobs of one pass are committed sorted by chunk coordinates. Every step is a function of its
 * frozen inputs, so cells, light and vertices do not depend on N or on the order jobs finish in
 * (test_golden_world runs at 1, 2, 4 and 8 threads with the same pins). 
 * Also here: packing settled chunks after each commit (update_pack_settled) and the worker's sweeps, and
 * the state each chunk should reach (update_worker_target): schedule.c calls nothing in worker.c. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"
#include "update_internal.h"

static int chunk_distance(const TerrainChunk *a, const TerrainChunk *b)
{
    int dx = abs(a->coord_x - b->coord_x), dz = abs(a->coord_z - b->coord_z);
    return dx > dz ? dx : dz;
}

bool update_job_conflicts(const TerrainUpdater *u, const TerrainChunk *c, int read_radius, bool writes)
{
    const UpdatePool *p = &u->pool;
    for (int i = 0; i < p->capacity; i++) {
        const UpdateJob *j = &p->jobs[i];
        if (!j->used) continue;
        int d = chunk_distance(c, j->chunk);
        if (d == 0) return true;
        if (writes && d <= j->read_radius) return true;
        if (j->writes_cells && d <= read_radius) return true;
    }
    return false;
}

bool update_chunk_in_footprint(const TerrainUpdater *u, const TerrainChunk *c)
{
    const UpdatePool *p = &u->pool;
    if (p->in_flight == 0) return false;
    for (int i = 0; i < p->capacity; i++) {
        const UpdateJob *j = &p->jobs[i];
        if (j->used && chunk_distance(c, j->chunk) <= j->read_radius) return true;
    }
    return false;
}

void update_jobs_drop_near(TerrainUpdater *u, const TerrainChunk *c)
{
    UpdatePool *p = &u->pool;
    for (int i = 0; i < p->capacity; i++) {
        UpdateJob *j = &p->jobs[i];
        if (j->used && chunk_distance(c, j->chunk) <= j->read_radius) j->stale = true;
    }
}

bool update_chunk_in_flight(const TerrainUpdater *u, const TerrainChunk *c)
{
    const UpdatePool *p = &u->pool;
    if (p->in_flight == 0) return false;
    for (int i = 0; i < p->capacity; i++)
        if (p->jobs[i].used && p->jobs[i].chunk == c) return true;
    return false;
}

/* The job's footprint for a step from `state` (see the design note). */
static void schedule_footprint(ChunkState state, int *read_radius, bool *writes)
{
    *read_radius = updater_step_neighbour_requirement(state) == CHUNK_STATE_NOT_LOADED ? 0 : 1;
    *writes = state < CHUNK_STATE_INVALID_VERTICES1;
}

/* The chunk to step so that `chunk` progresses (itself or a neighbour that is behind), or NULL when a
 * neighbour is missing. Depth is bounded: vertices wait on propagated light, which waits on sunlight,
 * which reads no neighbours. */
static TerrainChunk *schedule_resolve(const TerrainUpdater *u, TerrainChunk *chunk, int depth)
{
    ChunkState required = updater_step_neighbour_requirement(chunk->thread_state);
    if (required == CHUNK_STATE_NOT_LOADED) return chunk;
    TerrainChunk *behind = NULL;
    switch (updater_neighbours_ready(u->terrain, chunk, required, &behind)) {
    case NEIGHBOURS_READY: return chunk;
    case NEIGHBOURS_MISSING: return NULL;
    case NEIGHBOURS_BEHIND: break;
    }
    return depth < CHUNK_STATE_COUNT ? schedule_resolve(u, behind, depth + 1) : NULL;
}

/* Whether candidate a (edited rank, distance, state) should be stepped before b. */
static bool schedule_better(const StepCandidate *a, const StepCandidate *b)
{
    if (a->edited_rank != b->edited_rank) return a->edited_rank < b->edited_rank;
    if (a->distance != b->distance) return a->distance < b->distance;
    if (a->state != b->state) return a->state < b->state;
    /* Reproducible tie-break: chunk coordinates. */
    if (a->chunk->coord_z != b->chunk->coord_z) return a->chunk->coord_z < b->chunk->coord_z;
    return a->chunk->coord_x < b->chunk->coord_x;
}

/* The best `max` chunks below their target that are not known to be blocked, best first, in
 * u->candidates. Returns how many there are in all (may exceed max). One linear pass: each chunk is
 * inserted into a short sorted list. */
static int schedule_candidates(TerrainUpdater *u, int max)
{
    WorkerArea areas[UPDATE_MAX_LOCATIONS];
    int area_count = update_worker_areas(u, areas);
    if (!update_array_reserve(&u->candidates, sizeof(StepCandidate), max)) return 0;
    StepCandidate *top = u->candidates.data;
    int kept = 0, total = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        int distance;
        ChunkState target = update_worker_target(areas, area_count, chunk, &distance);
        if (chunk->thread_state >= target) {
            chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_EDITED;
            continue;
        }
        if (chunk->worker_schedule & UPDATE_WORKER_FLAG_BLOCKED) continue;
        StepCandidate c = {
            .chunk = chunk,
            .edited_rank = (chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED) ? 0 : 1,
            .distance = distance,
            .state = chunk->thread_state,
        };
        total++;
        if (kept == max && !schedule_better(&c, &top[max - 1])) continue;
        int at = kept < max ? kept++ : max - 1;
        while (at > 0 && schedule_better(&c, &top[at - 1])) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = c;
    }
    u->candidates.count = kept;
    return total;
}

/* Makes the chunks a job reads hot before it starts, so no job changes another chunk's form. */
static void schedule_heat(TerrainUpdater *u, TerrainChunk *chunk, int read_radius)
{
    for (int dz = -read_radius; dz <= read_radius; dz++) {
        for (int dx = -read_radius; dx <= read_radius; dx++) {
            TerrainChunk *k = (dx || dz) ? terrain_get_chunk(u->terrain, chunk->coord_x + dx, chunk->coord_z + dz)
                                         : chunk;
            if (k && !chunk_is_hot(k)) chunk_make_hot(k);
        }
    }
}

static UpdateJob *schedule_free_slot(TerrainUpdater *u)
{
    for (int i = 0; i < u->pool.capacity; i++)
        if (!u->pool.jobs[i].used) return &u->pool.jobs[i];
    return NULL;
}

/* The geometry copies a vertex pass of `chunk` builds (mesher_context_set_copies; update.h's rule): pass 1
 * chooses them for the build from the chunk's distance to the locations, plus those its slice geometry still
 * holds while it is hot (an edit then rebuilds only the slices it changed, not all 16 for a copy it no longer
 * needs), and records them on the chunk; pass 2 builds the same, so every slice of the mesh has them. */
static unsigned schedule_copies(TerrainUpdater *u, TerrainChunk *chunk, ChunkState from)
{
    if (from != CHUNK_STATE_INVALID_VERTICES1) return update_chunk_copies(chunk);
    unsigned copies = updater_copies_wanted(u->worker_locations, UPDATE_MAX_LOCATIONS, chunk->coord_x, chunk->coord_z);
    if (chunk->worker_geometry) copies |= update_chunk_copies(chunk);
    chunk->worker_schedule = (chunk->worker_schedule & ~UPDATE_WORKER_FLAG_COPIES) | copies << UPDATE_WORKER_COPIES_SHIFT;
    return copies;
}

/* Hands `chunk`'s next step over as a job. Loads run on the scheduler's thread: the storage is used by
 * one thread only (the worker also writes its saves). */
static void schedule_hand_over(TerrainUpdater *u, UpdateJob *job, TerrainChunk *chunk)
{
    int radius;
    bool writes;
    schedule_footprint(chunk->thread_state, &radius, &writes);
    if (radius) schedule_heat(u, chunk, radius);
    job->chunk = chunk;
    job->from = chunk->thread_state;
    job->read_radius = radius;
    job->writes_cells = writes;
    job->stale = false;
    job->sky_light = u->step.sky_light;
    job->brightness = u->worker_brightness;
    job->season = u->worker_season;
    job->copies = job->from == CHUNK_STATE_INVALID_VERTICES1 || job->from == CHUNK_STATE_INVALID_VERTICES2
                      ? schedule_copies(u, chunk, job->from) : 0;
    if (job->from == CHUNK_STATE_NOT_LOADED && u->pool.threads > 1) {
        job->used = true;
        u->pool.in_flight++;
        job->result = updater_step_run(chunk, job->from, &u->step);
        pthread_mutex_lock(&u->pool.lock);
        job->status = UPDATE_JOB_DONE;
        u->pool.done++;
        pthread_mutex_unlock(&u->pool.lock);
        return;
    }
    update_pool_submit(u, job);
}

/* Fills free slots with the best runnable steps; at most `budget` jobs. Returns the number handed over. */
static int schedule_dispatch(TerrainUpdater *u, int budget)
{
    int free_slots = u->pool.capacity - u->pool.in_flight;
    if (budget < free_slots) free_slots = budget;
    if (free_slots <= 0) return 0;
    int handed = 0;
    for (int max = 4 * u->pool.capacity + 8;; max = INT_MAX / 2) {
        int total = schedule_candidates(u, max < terrain_chunk_count(u->terrain) ? max : terrain_chunk_count(u->terrain) + 1);
        for (int i = 0; i < u->candidates.count && handed < free_slots; i++) {
            TerrainChunk *candidate = UPDATE_ARRAY_AT(&u->candidates, StepCandidate, i).chunk;
            TerrainChunk *chunk = schedule_resolve(u, candidate, 0);
            /* a missing neighbour, or a chunk behind that could not progress: wait for a change */
            if (!chunk || (chunk->worker_schedule & UPDATE_WORKER_FLAG_BLOCKED)) {
                candidate->worker_schedule |= UPDATE_WORKER_FLAG_BLOCKED;
                continue;
            }
            int radius;
            bool writes;
            schedule_footprint(chunk->thread_state, &radius, &writes);
            if (update_job_conflicts(u, chunk, radius, writes)) continue; /* busy: a later pass takes it */
            schedule_hand_over(u, schedule_free_slot(u), chunk);
            handed++;
        }
        /* Only when the short list was cut and gave nothing: look at every candidate once. */
        if (handed > 0 || total <= u->candidates.count || max == INT_MAX / 2) break;
    }
    return handed;
}

static int schedule_compare_jobs(const void *pa, const void *pb)
{
    const TerrainChunk *a = (*(UpdateJob *const *)pa)->chunk, *b = (*(UpdateJob *const *)pb)->chunk;
    if (a->coord_z != b->coord_z) return a->coord_z < b->coord_z ? -1 : 1;
    return (a->coord_x > b->coord_x) - (a->coord_x < b->coord_x);
}

/* Commits the finished jobs, in chunk order. Returns how many steps advanced a chunk. */
int update_schedule_commit(TerrainUpdater *u)
{
    UpdateJob *done[128];
    int n = update_pool_take_done(u, done, (int)(sizeof done / sizeof done[0]));
    if (n > 1) qsort(done, (size_t)n, sizeof done[0], schedule_compare_jobs);
    int advanced = 0;
    for (int i = 0; i < n; i++) {
        UpdateJob *job = done[i];
        TerrainChunk *chunk = job->chunk;
        bool stale = job->stale;
        ChunkState from = job->from, result = job->result;
        update_pool_release(u, job);
        if (stale) continue;   /* downgraded meanwhile: thread_state already holds the lower state */
        if (result == from) {  /* could not progress (a read failed, memory ran out): retried after a change */
            chunk->worker_schedule |= UPDATE_WORKER_FLAG_BLOCKED;
            continue;
        }
        chunk->thread_state = result;
        u->steps_done++;
        advanced++;
        update_pack_settled(u, chunk);
    }
    return advanced;
}

bool update_schedule_run(TerrainUpdater *u)
{
    bool did = update_schedule_commit(u) > 0;
    if (schedule_dispatch(u, u->dispatch_budget) > 0) {
        did = true;
        if (u->pool.threads == 1) update_schedule_commit(u);
    }
    return did;
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

/* ---- packing settled chunks (after each commit, and the worker's sweeps) ---- */

/* Packs a chunk; a Valid one also drops its slice geometry (kept only to remesh a few slices after an
 * edit: it is several times the packed cells, so a cold chunk rebuilds all its slices when next meshed).
 * Between the two vertex passes the geometry is half a mesh and stays. Never a chunk inside a job's
 * footprint (the callers check): packing changes its form. */
bool update_pack(TerrainChunk *k)
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
int update_sweep_settled(TerrainUpdater *u, const WorkerArea *areas, int area_count)
{
    int packed = 0;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (!(k->worker_schedule & UPDATE_WORKER_FLAG_EDITED) && worker_may_pack(u, k) &&
            worker_settled(u, areas, area_count, k))
            packed += update_pack(k);
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
            if (!stay_hot && worker_may_pack(u, k) && worker_settled(u, areas, area_count, k)) update_pack(k);
            else {
                k->worker_hot_stamp = (uint32_t)u->steps_done;
                k->worker_hot_exchange = u->exchanges;
                if (chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED) k->worker_schedule |= UPDATE_WORKER_FLAG_NEAR_EDIT;
            }
        }
    }
    u->sweep_pending = true;
    if (u->steps_done % UPDATE_SWEEP_EVERY == 0) update_sweep_settled(u, areas, area_count);
    if (chunk_scratch_in_use() <= UPDATE_HOT_BUDGET) return;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *k = terrain_chunk_at(u->terrain, i);
        if (worker_may_pack(u, k) && (uint32_t)u->steps_done - k->worker_hot_stamp > UPDATE_HOT_AGE) update_pack(k);
    }
}
