/* update.h — the update worker: the chunk state machine on one pthread, update locations, allocation and
 * release, and the once-a-frame state exchange (Survivalcraft's SendReceiveChunkStates).
 *
 * States: NotLoaded -> (stored) InvalidLight | (not stored) InvalidContents1..4 -> InvalidLight ->
 * InvalidPropagatedLight -> InvalidVertices1 -> InvalidVertices2 -> Valid. A step that reads neighbours
 * (propagated light, vertices) first waits until the 8 neighbours have reached the state it needs.
 * Chunks within a location's visibility distance go to Valid; those only within its content distance
 * stop at InvalidVertices1. The worker picks the best chunk each step: edited chunks first, then nearest.
 *
 * Threads: the main thread owns chunk->state, update locations and the Terrain hash (it allocates and
 * frees chunks inside updater_exchange, while the worker is between steps). The worker owns
 * chunk->thread_state and the geometry it builds. They meet only in updater_exchange, under one mutex.
 * Every function here is main-thread only. */
#ifndef STRATA_UPDATE_H
#define STRATA_UPDATE_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/mesher.h"
#include "strata/terrain.h"

#define UPDATE_MAX_LOCATIONS 4

typedef struct UpdateLocation {
    bool active;
    float x, z;                 /* world position (blocks) */
    int visibility_chunks;      /* chunks within this radius go to Valid */
    int content_chunks;         /* chunks within this radius are kept loaded (>= visibility + 1) */
} UpdateLocation;

/* Where chunks are stored. Both calls run on the worker thread. NULL storage: always generate. */
typedef struct ChunkStorage {
    void *user;
    /* ST_OK: cells and shafts filled from disk. ST_ERR_NOT_FOUND: never stored (generate it).
     * Other errors: the stored copy is damaged; the worker logs it, generates in memory and sets
     * CHUNK_FLAG_DAMAGED_ON_DISK so it is not written back until the player edits it. */
    StResult (*load)(void *user, TerrainChunk *chunk);
    /* Called for a released or autosaved chunk with modification_counter > 0. */
    StResult (*save)(void *user, const TerrainChunk *chunk);
} ChunkStorage;

typedef struct UpdaterConfig {
    Terrain *terrain;
    const Generator *generator;
    const BlockRegistry *blocks;
    const ChunkStorage *storage;  /* may be NULL */
    int sky_light;                /* initial sky light 0..15 */
    bool threaded;                /* false: no thread, steps run in updater_run_steps (tests, bench) */
} UpdaterConfig;

typedef struct TerrainUpdater TerrainUpdater;

/* Called by updater_exchange on the main thread. */
typedef struct UpdaterCallbacks {
    void *user;
    /* A chunk reached Valid with new geometry; the callee takes ownership of `mesh`. */
    void (*mesh_ready)(void *user, TerrainChunk *chunk, ChunkMesh *mesh);
    /* The chunk is about to be released: drop any reference (GPU buffers) to it. */
    void (*chunk_released)(void *user, TerrainChunk *chunk);
} UpdaterCallbacks;

typedef struct UpdaterStats {
    int allocated;                      /* chunks in the Terrain */
    int valid;                          /* chunks whose main-thread state is Valid */
    int by_state[CHUNK_STATE_COUNT];    /* main-thread view, after the last exchange */
    long steps_done;                    /* worker steps since creation */
    long chunks_saved;
} UpdaterStats;

StResult updater_create(const UpdaterConfig *config, TerrainUpdater **out);
/* Signals and joins the worker, then frees its scratch. Chunks stay in the Terrain (not saved: call
 * updater_save_all first). NULL is a no-op. */
void updater_destroy(TerrainUpdater *updater);

void updater_set_location(TerrainUpdater *updater, int index, const UpdateLocation *location);

/* Lowers the chunk's state to at most `state` (main view now, worker at the next exchange). */
void updater_downgrade_chunk(TerrainUpdater *updater, TerrainChunk *chunk, ChunkState state);
/* Lowers every chunk to at most `state`, nearest first (season/brightness change, sky light change). */
void updater_downgrade_all(TerrainUpdater *updater, ChunkState state);
/* Sets the sky light level; a change downgrades all chunks to InvalidLight. */
void updater_set_sky_light(TerrainUpdater *updater, int sky_light);

/* Once a frame: hands over downgrades, locations, allocations and releases; receives thread states and
 * finished meshes. Wakes the worker if there is work. */
void updater_exchange(TerrainUpdater *updater, const UpdaterCallbacks *callbacks);

/* true when every chunk within location `index`'s visibility distance is Valid (main view). */
bool updater_is_ready(const TerrainUpdater *updater, int index);

/* Saves every chunk with modification_counter > 0 through the storage (waits for the worker; main
 * thread). Returns the first error. Used on quit and by the `save` script command. */
StResult updater_save_all(TerrainUpdater *updater);
/* Asks the worker to save modified chunks in the background (autosave; no frame hitch). */
void updater_request_autosave(TerrainUpdater *updater);

void updater_get_stats(const TerrainUpdater *updater, UpdaterStats *stats);

/* Non-threaded mode only: runs up to max_steps worker steps on the calling thread (between exchanges).
 * Returns the number of steps run; 0 means there is nothing left to do. */
int updater_run_steps(TerrainUpdater *updater, int max_steps);

#endif
