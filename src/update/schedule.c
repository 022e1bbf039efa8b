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
 *
 * Slots and edits. Each pool thread has UPDATE_POOL_STEP_SLOTS slots for steps, UPDATE_POOL_EDIT_SLOTS more that
 * only steps of edited chunks may take, and UPDATE_POOL_PACK_SLOTS for pack jobs (update_pack.c, handed over
 * first at each dispatch). A step of an edited chunk is handed over as soon as the exchange posts it, even
 * with every loading slot full, and pool threads take it before the queued loading steps (pool.c): a dig
 * waits at most for the steps running when it came.
 * Packing settled chunks after each commit and the state each chunk should reach (update_worker_target)
 * are update_pack.c's; schedule.c calls nothing in worker.c. */
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
    bool edits_waiting = false;
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        int distance;
        ChunkState target = update_worker_target(areas, area_count, chunk, &distance);
        if (chunk->thread_state >= target) {
            chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_EDITED;
            continue;
        }
        if (chunk->worker_schedule & UPDATE_WORKER_FLAG_EDITED) edits_waiting = true;
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
    u->edits_waiting = edits_waiting;
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
static void schedule_hand_over(TerrainUpdater *u, UpdateJob *job, TerrainChunk *chunk, bool edited)
{
    int radius;
    bool writes;
    schedule_footprint(chunk->thread_state, &radius, &writes);
    if (radius) schedule_heat(u, chunk, radius);
    job->kind = UPDATE_JOB_STEP;
    job->edited = edited; /* the edited candidate's, or a neighbour it waits for */
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
    if (job->from == CHUNK_STATE_NOT_LOADED) update_pool_run_here(u, job);
    else update_pool_submit(u, job);
}

/* The slots steps may use now: with a pool, UPDATE_POOL_STEP_SLOTS a thread, and UPDATE_POOL_EDIT_SLOTS more for
 * the steps of edited chunks (the pack slots are update_pack.c's). */
static int schedule_step_slots(const TerrainUpdater *u, bool edited)
{
    if (u->pool.threads == 1) return u->pool.capacity;
    return (UPDATE_POOL_STEP_SLOTS + (edited ? UPDATE_POOL_EDIT_SLOTS : 0)) * u->pool.threads;
}

/* Fills free slots with the best runnable steps; at most `budget` jobs. Returns the number handed over. */
static int schedule_dispatch(TerrainUpdater *u, int budget)
{
    /* the loading slots full and no edited chunk below its target: nothing can be handed over (no scan) */
    if (u->pool.steps_in_flight >= schedule_step_slots(u, false) && !u->edits_waiting) return 0;
    int free_slots = schedule_step_slots(u, true) - u->pool.steps_in_flight;
    if (budget < free_slots) free_slots = budget;
    if (free_slots <= 0) return 0;
    int handed = 0;
    for (int max = 4 * u->pool.capacity + 8;; max = INT_MAX / 2) {
        int total = schedule_candidates(u, max < terrain_chunk_count(u->terrain) ? max : terrain_chunk_count(u->terrain) + 1);
        for (int i = 0; i < u->candidates.count && handed < free_slots; i++) {
            const StepCandidate *c = &UPDATE_ARRAY_AT(&u->candidates, StepCandidate, i);
            /* candidates come edited first: once a loading chunk's turn comes, only its slots are left */
            if (u->pool.steps_in_flight >= schedule_step_slots(u, c->edited_rank == 0)) break;
            TerrainChunk *candidate = c->chunk;
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
            schedule_hand_over(u, schedule_free_slot(u), chunk, c->edited_rank == 0);
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
        if (job->kind == UPDATE_JOB_PACK) {
            update_pack_finished(u, job);
            continue;
        }
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
    if (update_pack_dispatch(u) > 0) did = true;
    if (schedule_dispatch(u, u->dispatch_budget) > 0) {
        did = true;
        if (u->pool.threads == 1) update_schedule_commit(u);
    }
    return did;
}

