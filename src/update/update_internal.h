/* update_internal.h — the TerrainUpdater struct shared by the files of src/update (private).
 *
 * Fields are grouped by owner. "main" fields are touched only by the main thread; "shared" fields only
 * with `mutex` held; "worker" fields by whoever runs steps (the worker thread, or the caller of
 * updater_run_steps in non-threaded mode) with `mutex` held. The worker holds the mutex while it schedules
 * (and, with one thread, while it runs a step) and drops it only to wait, to yield to the main thread, or
 * around storage I/O (io_busy set). Pool threads never take it: what they share with the worker is in the
 * job slots, under the pool's own lock (pool.c). */
#ifndef STRATA_UPDATE_INTERNAL_H
#define STRATA_UPDATE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <math.h>
#include <stdlib.h>
#include "strata/update.h"
#include "strata/update_step.h"

/* chunk->worker_schedule bit, main-thread only (set and cleared by the exchange and updater_save_all with the
 * mutex held; the worker never touches it): the chunk is outside every location's release distance and its
 * last save failed. It stays in the Terrain with its edits; its save is retried at the next autosave or
 * updater_save_all, not at every exchange. Chosen clear of the UPDATE_WORKER_FLAG_* bits of update_step.h
 * and the light steps' bits (0x10000 up). */
#define UPDATE_WORKER_FLAG_SAVE_FAILED 0x1000u
/* chunk->worker_schedule bit, worker only: a step of an edited chunk used this chunk hot. It stays hot (with
 * its slice geometry) until the idle delay, not packed as soon as it settles: the next edit is likely
 * nearby, and unpacking and remeshing every slice would cost it several times the edit. */
#define UPDATE_WORKER_FLAG_NEAR_EDIT 0x2000u
/* chunk->worker_schedule bits, worker (and the exchange, mutex held): the geometry copies (MESH_COPY_* shifted
 * by UPDATE_WORKER_COPIES_SHIFT) of the chunk's build, chosen when its vertex pass 1 is handed over
 * (schedule.c) and built by both passes; none set: not known, taken as both. */
#define UPDATE_WORKER_COPIES_SHIFT 14
#define UPDATE_WORKER_FLAG_COPIES (MESH_COPIES_BOTH << UPDATE_WORKER_COPIES_SHIFT)
/* chunk->worker_schedule bit, worker (read by the exchange, mutex held): the chunk waits in the pack queue or a
 * pack job has it (update_pack.c). The exchange keeps its published state until the worker has taken it back,
 * so a chunk is never seen Valid before it is packed, nor the world ready with packs still out. */
#define UPDATE_WORKER_FLAG_PACK_PENDING 0x100u
_Static_assert((UPDATE_WORKER_FLAG_PACK_PENDING & (UPDATE_WORKER_FLAG_SAVE_FAILED | UPDATE_WORKER_FLAG_NEAR_EDIT |
                                                   UPDATE_WORKER_FLAG_EDITED | UPDATE_WORKER_FLAG_BLOCKED |
                                                   UPDATE_WORKER_FLAG_COPIES)) == 0,
               "the pack queue's flag overlaps the scheduler's");
_Static_assert(((UPDATE_WORKER_FLAG_SAVE_FAILED | UPDATE_WORKER_FLAG_NEAR_EDIT) &
                (UPDATE_WORKER_FLAG_EDITED | UPDATE_WORKER_FLAG_BLOCKED)) == 0 &&
               (UPDATE_WORKER_FLAG_SAVE_FAILED & UPDATE_WORKER_FLAG_NEAR_EDIT) == 0 &&
               (UPDATE_WORKER_FLAG_COPIES & (UPDATE_WORKER_FLAG_SAVE_FAILED | UPDATE_WORKER_FLAG_NEAR_EDIT |
                                             UPDATE_WORKER_FLAG_EDITED | UPDATE_WORKER_FLAG_BLOCKED)) == 0 &&
               UPDATE_WORKER_FLAG_COPIES < 0x10000u,
               "the scheduler's flags overlap");

/* The copies of the chunk's build (UPDATE_WORKER_FLAG_COPIES), both when not known. */
static inline unsigned update_chunk_copies(const TerrainChunk *chunk)
{
    unsigned copies = (chunk->worker_schedule & UPDATE_WORKER_FLAG_COPIES) >> UPDATE_WORKER_COPIES_SHIFT;
    return copies ? copies : MESH_COPIES_BOTH;
}

typedef struct PendingDowngrade {
    TerrainChunk *chunk;
    ChunkState state;
    bool edited;
} PendingDowngrade;

/* A chunk handed to the worker for an autosave, with the counter and flags main had when it handed it. */
typedef struct AutosaveEntry {
    TerrainChunk *chunk;
    int counter;
    uint32_t flags;
} AutosaveEntry;

typedef struct ReadyMesh {
    TerrainChunk *chunk;
    ChunkMesh *mesh;
} ReadyMesh;

/* The ordering key of a chunk the worker might step. */
typedef struct StepCandidate {
    TerrainChunk *chunk;
    int edited_rank;   /* 0: downgraded by an edit, 1: otherwise */
    int distance;      /* Chebyshev distance in chunks to the nearest active location */
    int state;
} StepCandidate;

/* ---- the job pool (pool.c, schedule.c, update_pack.c) ----
 * A job is one step of one chunk, or the packing of one settled chunk, run on a pool thread with that
 * thread's StepContext. Fields above the line belong to the worker (the mutex), the rest to the pool's lock. */
typedef enum UpdateJobStatus {
    UPDATE_JOB_QUEUED = 1,   /* waiting for a pool thread */
    UPDATE_JOB_RUNNING,      /* a pool thread runs it */
    UPDATE_JOB_DONE          /* `result` is set; the worker commits it */
} UpdateJobStatus;

typedef enum UpdateJobKind {
    UPDATE_JOB_STEP = 0,       /* the chunk's next step (updater_step_run) */
    UPDATE_JOB_PACK            /* the chunk is settled: pack its cells (update_pack_cells) */
} UpdateJobKind;

typedef struct UpdateJob {
    bool used;                 /* worker: the slot holds a job not yet committed */
    UpdateJobKind kind;
    bool edited;               /* a step of a chunk an edit downgraded: pool threads take it before the rest */
    TerrainChunk *chunk;
    ChunkState from;           /* the chunk's thread_state when handed over (the step run) */
    int read_radius;           /* 0: the job reads only its chunk; 1: its 3x3 block (cells, light, shafts) */
    bool writes_cells;         /* it writes its chunk's cells, light, shafts or light flags */
    bool stale;                /* a downgrade to `from` or below came meanwhile: the result is dropped */
    int sky_light;             /* the worker's settings when handed over */
    float brightness;
    int season;
    unsigned copies;           /* a vertex pass's geometry copies (MESH_COPY_*; schedule.c) */
    /* pool lock */
    UpdateJobStatus status;
    unsigned long seq;         /* hand-over order: pool threads take the oldest queued job */
    ChunkState result;
} UpdateJob;

/* A pool thread's own scratch and the mesher settings last applied to it. */
typedef struct UpdatePoolThread {
    struct TerrainUpdater *updater;
    StepContext step;
    float brightness;
    int season;
} UpdatePoolThread;

typedef struct UpdatePool {
    int threads;               /* threads that run steps; 1: the worker runs them itself (no pool thread) */
    int capacity;              /* job slots: 5 per pool thread (1 inline): see UPDATE_POOL_*_SLOTS */
    UpdateJob *jobs;
    GenSharedCache *gen_shared; /* the pool threads' shared feature derivations (threads > 1), or NULL */
    bool eager;                /* pool lock: an edited chunk waits for a step: every finished job wakes the scheduler */
    int in_flight;             /* worker: slots used */
    int steps_in_flight;       /* worker: of them, steps */
    int packs_in_flight;       /* worker: of them, packs (running, or done and waiting to be taken back) */
    pthread_t *handles;
    UpdatePoolThread *workers;
    int started;               /* pool threads started */
    pthread_mutex_t lock;
    pthread_cond_t job_cond;   /* pool threads wait for a queued job (or for the pause to end) */
    pthread_cond_t done_cond;  /* the scheduler waits for a finished job or a wake */
    pthread_cond_t idle_cond;  /* a pause waits for the running jobs to end */
    unsigned long next_seq;
    int queued, running, done; /* jobs in each status */
    bool paused;               /* no job starts (the Terrain's table changes, or a save on the main thread) */
    bool wake;                 /* the exchange posted work, or quit */
    bool quit;
} UpdatePool;

/* A growable array of elements of one type; see update_array_push. */
typedef struct UpdateArray {
    void *data;
    int count, capacity;
} UpdateArray;

struct TerrainUpdater {
    /* configuration (immutable after create) */
    Terrain *terrain;
    const Generator *generator;
    const BlockRegistry *blocks;
    const ChunkStorage *storage;
    bool threaded;
    bool viewers;                  /* a viewer location builds only the copies it draws (STRATA_COPIES=both: no) */

    /* main */
    UpdateLocation locations[UPDATE_MAX_LOCATIONS];
    bool locations_dirty;          /* allocation/release must be recomputed at the next exchange */
    bool allocation_incomplete;    /* chunks still missing (budget or refusal): retry at the next exchange */
    bool terrain_refused;          /* the Terrain refused a chunk at the last try (logged once) */
    int sky_light;
    float brightness;              /* mesher settings; handed to the worker's MesherContext */
    int season;
    bool mesher_settings_dirty;
    bool autosave_requested;
    bool release_pending;          /* chunks outside every release distance are kept for a save: rescan */
    int unsaved_kept;              /* kept chunks whose save failed (last release scan) */
    int unsaved_example_x, unsaved_example_z; /* one of them, for the log */
    UpdateArray downgrades;        /* PendingDowngrade, consumed by the exchange */
    bool pool_paused;              /* this exchange paused the job pool to change the Terrain's table */
    UpdateArray ready_meshes;      /* ReadyMesh scratch, delivered after the lock is dropped */
    UpdaterStats stats;

    /* shared (mutex) */
    pthread_mutex_t mutex;
    pthread_cond_t main_cond;      /* worker waits here while the main thread wants the lock */
    pthread_cond_t io_cond;        /* main waits here for io_busy to clear (updater_save_all) */
    atomic_int main_waiting;       /* > 0: the main thread is waiting for / holding the lock */
    pthread_t thread;
    bool thread_started;
    bool quit;
    bool io_busy;                  /* the worker is inside storage->save without the lock */
    const TerrainChunk *saving;    /* while io_busy: the live chunk whose snapshot is being written */
    char last_save_error[256];     /* the reason of the last failed save ("" if none yet) */
    UpdateArray released;          /* TerrainChunk*: detached by main (nothing left to save), to free */
    UpdateArray returned;          /* TerrainChunk*: done by the worker, for terrain_recycle_chunk */
    UpdateArray autosave;          /* AutosaveEntry: live chunks to save in the background (autosaves and
                                    * saves of chunks being released) */
    UpdateArray failed_saves;      /* AutosaveEntry: autosaves that failed; main restores the counter */
    long steps_done;
    int packed_since_trim;         /* worker: chunks packed (on the worker or by pack jobs) since the last trim
                                    * (worker.c) */
    bool sweep_pending;            /* worker: steps were committed since the last sweep for settled chunks */
    bool idle_pack_pending;        /* worker: hot chunks wait for UPDATE_IDLE_PACK_DELAY exchanges */
    uint32_t exchanges;            /* exchanges so far (written in the exchange, under the mutex) */
    long chunks_saved;

    /* worker */
    UpdateLocation worker_locations[UPDATE_MAX_LOCATIONS];
    StepContext step;              /* the worker's own scratch: loads, and every step when threads == 1 */
    float worker_brightness;       /* the mesher settings jobs take (copied in the exchange) */
    int worker_season;
    UpdateArray candidates;        /* StepCandidate scratch of the scheduler (schedule.c) */
    UpdateArray pack_queue;        /* TerrainChunk*: settled chunks waiting for a pack job, oldest first */
    long packs_done;               /* pack jobs taken back so far (UpdaterStats.pack_jobs) */
    UpdatePool pool;
    int dispatch_budget;           /* most jobs the scheduler may still hand over (updater_run_steps) */
    bool edits_waiting;            /* a chunk an edit sent back may be below its target (set by the exchange,
                                    * cleared by a scan of the candidates that found none) */
    long other_units;              /* units of work that were not steps: releases, saves, idle packs */
    TerrainChunk *snapshot;        /* autosave copy of a live chunk */
};

/* Makes room for one more element and returns a pointer to it (count incremented), or NULL when memory
 * ran out (the array is unchanged). */
static inline void *update_array_push(UpdateArray *array, size_t element_size)
{
    if (array->count == array->capacity) {
        int capacity = array->capacity ? array->capacity * 2 : 64;
        void *data = realloc(array->data, (size_t)capacity * element_size);
        if (!data) return NULL;
        array->data = data;
        array->capacity = capacity;
    }
    return (char *)array->data + (size_t)array->count++ * element_size;
}
/* Makes room for `count` elements in all (count unchanged). false when memory ran out. */
static inline bool update_array_reserve(UpdateArray *array, size_t element_size, int count)
{
    if (count <= array->capacity) return true;
    int capacity = array->capacity ? array->capacity : 64;
    while (capacity < count) capacity *= 2;
    void *data = realloc(array->data, (size_t)capacity * element_size);
    if (!data) return false;
    array->data = data;
    array->capacity = capacity;
    return true;
}
static inline void update_array_free(UpdateArray *array)
{
    free(array->data);
    array->data = NULL;
    array->count = array->capacity = 0;
}
#define UPDATE_ARRAY_AT(array, type, i) (((type *)(array)->data)[i])

/* Chebyshev distance in chunks from chunk (cx, cz) to the location's chunk. */
static inline int update_location_distance(const UpdateLocation *location, int cx, int cz)
{
    int lx = chunk_coord_of((int)floorf(location->x));
    int lz = chunk_coord_of((int)floorf(location->z));
    int dx = abs(cx - lx), dz = abs(cz - lz);
    return dx > dz ? dx : dz;
}

/* pool.c: the pool threads. create/destroy run before the worker starts and after it stopped. */
StResult update_pool_create(TerrainUpdater *updater, int threads);
void update_pool_destroy(TerrainUpdater *updater);
/* Hands a filled slot over (mutex held). With threads == 1 the job runs at once on the caller's thread. */
void update_pool_submit(TerrainUpdater *updater, UpdateJob *job);
/* Runs a filled slot at once on the caller's thread with the worker's context, and marks it done (mutex held). */
void update_pool_run_here(TerrainUpdater *updater, UpdateJob *job);
/* Moves up to `max` finished jobs into `out` (mutex held); their slots stay used until committed. */
int update_pool_take_done(TerrainUpdater *updater, UpdateJob **out, int max);
/* Frees a committed slot (mutex held); counts the slots in flight of each kind. */
void update_pool_release(TerrainUpdater *updater, UpdateJob *job);
/* Mutex held on entry and on return; dropped while waiting for a finished job, a wake or quit. */
void update_pool_wait(TerrainUpdater *updater);
/* Wakes the scheduler waiting in update_pool_wait (any thread; the exchange holds the mutex). */
void update_pool_wake(TerrainUpdater *updater);
/* No job starts after this returns, and none is running (mutex held: the main thread changes the
 * Terrain's table or saves). update_pool_resume lets them run again. Not nested. */
void update_pool_pause(TerrainUpdater *updater);
void update_pool_resume(TerrainUpdater *updater);
/* Jobs waiting for a thread and jobs running (any thread; for the F3 overlay). */
void update_pool_counts(TerrainUpdater *updater, int *queued, int *running);

/* schedule.c: the footprint rule (see its design note). Mutex held. */
/* Whether a job of chunk `c` with this footprint may start now beside the jobs in flight. */
bool update_job_conflicts(const TerrainUpdater *updater, const TerrainChunk *c, int read_radius, bool writes);
/* Whether a job in flight reads or writes chunk `c` (its cells, light, flags, form or geometry). */
bool update_chunk_in_footprint(const TerrainUpdater *updater, const TerrainChunk *c);
/* Marks stale every job in flight whose footprint holds `c` (the exchange detaches it). */
void update_jobs_drop_near(TerrainUpdater *updater, const TerrainChunk *c);
/* Whether `c` itself has a job in flight. */
bool update_chunk_in_flight(const TerrainUpdater *updater, const TerrainChunk *c);
/* Commits finished jobs (in chunk order) and hands new ones over; false when it did neither. With one
 * thread the job handed over has run already and is committed too (one call, one step). */
bool update_schedule_run(TerrainUpdater *updater);
/* Commits the finished jobs; returns how many advanced a chunk. */
int update_schedule_commit(TerrainUpdater *updater);
/* update_pack.c: after a committed step of `chunk`: stamps, or packs (queues for packing), the hot chunks of
 * its 3x3 block. */
void update_pack_settled(TerrainUpdater *updater, const TerrainChunk *chunk);
/* worker.c: the active locations in chunk coordinates and a chunk's target state. */
typedef struct WorkerArea {
    int cx, cz, visibility, content;
} WorkerArea;
static inline int update_worker_areas(const TerrainUpdater *u, WorkerArea areas[UPDATE_MAX_LOCATIONS])
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
ChunkState update_worker_target(const WorkerArea *areas, int area_count, const TerrainChunk *chunk, int *distance);

/* worker.c: runs one unit of worker work (a released chunk, an autosave, or a chunk step) with the mutex
 * held. Returns false when there is nothing to do. */
bool update_worker_do_one(TerrainUpdater *updater);
/* worker.c: frees a chunk's worker geometry and any undelivered mesh. */
void update_free_chunk_geometry(TerrainChunk *chunk);

/* update.c: main-thread lock that the worker yields to between steps. */
static inline void update_main_lock(TerrainUpdater *u)
{
    atomic_fetch_add(&u->main_waiting, 1);
    pthread_mutex_lock(&u->mutex);
}
static inline void update_main_unlock(TerrainUpdater *u)
{
    atomic_fetch_sub(&u->main_waiting, 1);
    pthread_cond_broadcast(&u->main_cond);
    pthread_mutex_unlock(&u->mutex);
}

/* Whether an active location wants the chunk within its content distance + margin. */
static inline bool update_chunk_wanted(const TerrainUpdater *u, const TerrainChunk *chunk, int margin)
{
    for (int i = 0; i < UPDATE_MAX_LOCATIONS; i++) {
        const UpdateLocation *loc = &u->locations[i];
        if (loc->active && update_location_distance(loc, chunk->coord_x, chunk->coord_z) <= loc->content_chunks + margin)
            return true;
    }
    return false;
}

/* update_save.c: the save path (the exchange queues saves and gives failed ones back, the worker writes
 * them through a snapshot, updater_save_all writes everything on the main thread). */
bool update_save_hand_over(TerrainUpdater *u, TerrainChunk *chunk);
bool update_save_in_flight(TerrainUpdater *u, const TerrainChunk *chunk);
void update_save_restore_failed(TerrainUpdater *u);
void update_save_queue_all(TerrainUpdater *u);
void update_save_report_unsaved(const TerrainUpdater *u);
bool update_save_possible(const TerrainUpdater *u);
bool update_save_autosave_one(TerrainUpdater *u);

/* update_pack.c: packing settled chunks (its design note). Mutex held, on the scheduler's thread, except
 * update_pack_cells, which a pack job runs on a pool thread. */
/* Packs `k` (state: its thread state when handed over) and drops a Valid chunk's slice geometry. */
bool update_pack_cells(TerrainChunk *k, ChunkState state);
/* Packs `k` at once on the worker. */
bool update_pack(TerrainUpdater *u, TerrainChunk *k);
/* Packs (one thread) or queues for a pack job every settled hot chunk; returns how many. */
int update_sweep_settled(TerrainUpdater *u, const WorkerArea *areas, int area_count);
/* Hands the queued packs over while pack slots are free; returns how many. */
int update_pack_dispatch(TerrainUpdater *u);
/* A pack job finished (update_schedule_commit): clears its chunk's PACK_PENDING and frees the slot. */
void update_pack_finished(TerrainUpdater *u, UpdateJob *job);
/* The exchange detaches `k`: it leaves the pack queue (a pack job that has it ends first: the footprint). */
void update_pack_forget(TerrainUpdater *u, TerrainChunk *k);

#define UPDATE_HOT_BUDGET 1024  /* a safety net: past it, chunks unused for UPDATE_HOT_AGE steps are packed */

#define UPDATE_HOT_AGE    64

#define UPDATE_SWEEP_EVERY 32   /* steps between sweeps for settled hot chunks */

#define UPDATE_IDLE_PACK_DELAY 30 /* exchanges (frames) a chunk a step used stays hot when idle */

/* Job slots per pool thread (threads > 1): steps of loading chunks use UPDATE_POOL_STEP_SLOTS, a step of an
 * edited chunk may also take the UPDATE_POOL_EDIT_SLOTS kept for edits (so a dig never waits for a slot behind
 * a loading world), and packs have their own UPDATE_POOL_PACK_SLOTS (a pack never holds up a step). Three step
 * slots a thread keep a queue the threads take from without the scheduler, which is woken only when the queue
 * runs low (pool.c): with two, about one context switch a job (perf, 2 threads: 12k switches a load of view
 * distance 8; three: ~5k). */
#define UPDATE_POOL_STEP_SLOTS 3
#define UPDATE_POOL_EDIT_SLOTS 1
#define UPDATE_POOL_PACK_SLOTS 1

#endif
