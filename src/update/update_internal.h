/* update_internal.h — the TerrainUpdater struct shared by the files of src/update (private).
 *
 * Fields are grouped by owner. "main" fields are touched only by the main thread; "shared" fields only
 * with `mutex` held; "worker" fields by whoever runs steps (the worker thread, or the caller of
 * updater_run_steps in non-threaded mode) with `mutex` held. The worker holds the mutex while it runs a
 * step and drops it only to wait, to yield to the main thread, or around storage I/O (io_busy set). */
#ifndef STRATA_UPDATE_INTERNAL_H
#define STRATA_UPDATE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "strata/update.h"
#include "strata/update_step.h"

/* chunk->worker_flags bit, main-thread only (set and cleared by the exchange and updater_save_all with the
 * mutex held; the worker never touches it): the chunk is outside every location's release distance and its
 * last save failed. It stays in the Terrain with its edits; its save is retried at the next autosave or
 * updater_save_all, not at every exchange. Chosen clear of the UPDATE_WORKER_FLAG_* bits of update_step.h
 * and the light steps' bits (0x10000 up). */
#define UPDATE_WORKER_FLAG_SAVE_FAILED 0x1000u
_Static_assert((UPDATE_WORKER_FLAG_SAVE_FAILED &
                (CHUNK_FLAG_LOADED | CHUNK_FLAG_DAMAGED_ON_DISK | UPDATE_WORKER_FLAG_LOAD_RESULT |
                 UPDATE_WORKER_FLAG_EDITED | UPDATE_WORKER_FLAG_BLOCKED | UPDATE_WORKER_FLAG_PRIVATE)) == 0,
               "UPDATE_WORKER_FLAG_SAVE_FAILED overlaps another worker flag");

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
    UpdateArray ready_meshes;      /* ReadyMesh scratch, delivered after the lock is dropped */
    UpdaterStats stats;

    /* shared (mutex) */
    pthread_mutex_t mutex;
    pthread_cond_t work_cond;      /* worker waits here when idle */
    pthread_cond_t main_cond;      /* worker waits here while the main thread wants the lock */
    pthread_cond_t io_cond;        /* main waits here for io_busy to clear (updater_save_all) */
    atomic_int main_waiting;       /* > 0: the main thread is waiting for / holding the lock */
    pthread_t thread;
    bool thread_started;
    bool quit;
    bool work_posted;              /* the exchange changed something: an idle worker rescans */
    bool io_busy;                  /* the worker is inside storage->save without the lock */
    const TerrainChunk *saving;    /* while io_busy: the live chunk whose snapshot is being written */
    char last_save_error[256];     /* the reason of the last failed save ("" if none yet) */
    UpdateArray released;          /* TerrainChunk*: detached by main (nothing left to save), to free */
    UpdateArray returned;          /* TerrainChunk*: done by the worker, for terrain_recycle_chunk */
    UpdateArray autosave;          /* AutosaveEntry: live chunks to save in the background (autosaves and
                                    * saves of chunks being released) */
    UpdateArray failed_saves;      /* AutosaveEntry: autosaves that failed; main restores the counter */
    long steps_done;
    int packed_since_trim;         /* worker: chunks idle packing packed since the last malloc_trim (worker.c) */
    bool idle_pack_pending;        /* worker: hot chunks wait for UPDATE_IDLE_PACK_DELAY exchanges */
    uint32_t exchanges;            /* exchanges so far (written in the exchange, under the mutex) */
    long chunks_saved;

    /* worker */
    UpdateLocation worker_locations[UPDATE_MAX_LOCATIONS];
    StepContext step;
    TerrainChunk *snapshot;        /* autosave copy of a live chunk */
};

/* Makes room for one more element and returns a pointer to it (count incremented), or NULL when memory
 * ran out (the array is unchanged). */
void *update_array_push(UpdateArray *array, size_t element_size);
/* Makes room for `count` elements in all (count unchanged). false when memory ran out. */
bool update_array_reserve(UpdateArray *array, size_t element_size, int count);
void update_array_free(UpdateArray *array);
#define UPDATE_ARRAY_AT(array, type, i) (((type *)(array)->data)[i])

/* Chebyshev distance in chunks from chunk (cx, cz) to the location's chunk. */
int update_location_distance(const UpdateLocation *location, int cx, int cz);

/* worker.c: runs one unit of worker work (a released chunk, an autosave, or a chunk step) with the mutex
 * held. Returns false when there is nothing to do. */
bool update_worker_do_one(TerrainUpdater *updater);
/* worker.c: frees a chunk's worker geometry and any undelivered mesh. */
void update_free_chunk_geometry(TerrainChunk *chunk);

/* updater.c: main-thread lock that the worker yields to between steps. */
void update_main_lock(TerrainUpdater *updater);
void update_main_unlock(TerrainUpdater *updater);

#endif
