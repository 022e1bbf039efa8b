/* update_step.h — the chunk state machine's steps, one function per state, callable without threads.
 *
 * Each step takes a chunk whose worker state (chunk->thread_state) is the step's state and returns the
 * next state; updater_step_chunk dispatches on thread_state and stores the result. The update worker
 * (update.h) calls them on its thread; tests and tools may call them directly on a single chunk.
 *   NotLoaded               storage->load: ST_OK -> InvalidLight (LOADED); NOT_FOUND or no storage ->
 *                           InvalidContents1; any other error is logged, the chunk is generated in memory
 *                           and marked DAMAGED_ON_DISK (-> InvalidContents1).
 *   InvalidContents1..4     generator pass 1..4 (-> the next state; pass 4 -> InvalidLight).
 *   InvalidLight            light_compute_sunlight_ctx with the context's sky light (plain stores while
 *                           UPDATE_WORKER_FLAG_PRIVATE is set, compare-and-swap otherwise).
 *   InvalidPropagatedLight  light_propagate; needs all 8 neighbours >= InvalidPropagatedLight.
 *   InvalidVertices1 / 2    mesher_build_pass 1 / 2; need all 8 neighbours >= InvalidVertices1. After pass 2
 *                           the slices are packed into chunk->worker_finished_mesh (a mesh not yet handed
 *                           to the main thread is replaced) -> Valid.
 * A step whose neighbours are not ready returns the chunk's current state and does nothing.
 *
 * Load results go to chunk->worker_flags (the state exchange moves them into chunk->flags, which the main
 * thread owns). Ownership: a StepContext owns its scratch contexts; one per thread. */
#ifndef STRATA_UPDATE_STEP_H
#define STRATA_UPDATE_STEP_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/update.h"

/* chunk->worker_flags bits. CHUNK_FLAG_LOADED / CHUNK_FLAG_DAMAGED_ON_DISK keep their chunk.h values there. */
#define UPDATE_WORKER_FLAG_LOAD_RESULT 0x100u /* a load result (the two bits above) awaits the exchange */
/* chunk->worker_schedule bits (the worker's scheduler; no step reads or writes them). */
#define UPDATE_WORKER_FLAG_EDITED      0x200u /* downgraded by an edit: the worker redoes it first */
#define UPDATE_WORKER_FLAG_BLOCKED     0x400u /* cannot progress (a neighbour is missing) until the next change */
/* Its contents were just generated or loaded and the main thread has not yet seen it at InvalidLight or
 * above (set by the NotLoaded and InvalidContents4 steps, cleared by the exchange that publishes such a
 * state): nobody else can edit it, so the InvalidLight step writes its light with plain stores. */
#define UPDATE_WORKER_FLAG_PRIVATE     0x800u
/* Bits from 0x10000 up belong to the light steps (light.h: LIGHT_WORKER_FLAG_PROPAGATED). */

typedef struct StepContext {
    const Terrain *terrain;
    const Generator *generator;
    const BlockRegistry *blocks;
    const ChunkStorage *storage;   /* may be NULL: always generate */
    int sky_light;                 /* 0..15, used by the InvalidLight step */
    GenContext *gen;
    LightContext *light;
    MesherContext *mesher;
    /* Set by the update worker's job pool (update.h): its scheduler checked the neighbour requirement before
     * it handed the step over, and neighbours' thread states may change meanwhile, so the step must not read
     * them. false (the default): a step checks its neighbours itself. */
    bool neighbours_checked;
} StepContext;

/* Creates the scratch contexts. ST_ERR_NOMEM on failure (nothing left allocated). */
StResult step_context_init(StepContext *ctx, const Terrain *terrain, const Generator *generator,
                           const BlockRegistry *blocks, const ChunkStorage *storage, int sky_light);
/* Frees the scratch contexts; safe on a zeroed or already freed context. */
void step_context_free(StepContext *ctx);

ChunkState updater_step_not_loaded(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_contents1(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_contents2(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_contents3(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_contents4(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_light(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_propagated_light(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_vertices1(TerrainChunk *chunk, StepContext *ctx);
ChunkState updater_step_vertices2(TerrainChunk *chunk, StepContext *ctx);

/* Runs the step for `state` (the chunk's worker state) and returns the next state, without reading or
 * writing chunk->thread_state: what a job of the update worker's pool runs. */
ChunkState updater_step_run(TerrainChunk *chunk, ChunkState state, StepContext *ctx);

/* Runs the step for chunk->thread_state and stores the next state there. Returns true if the state
 * advanced (false for Valid or when neighbours are not ready). */
bool updater_step_chunk(TerrainChunk *chunk, StepContext *ctx);

/* The worker state every neighbour must have reached before the step for `state` may run
 * (CHUNK_STATE_NOT_LOADED when the step reads no neighbours). */
ChunkState updater_step_neighbour_requirement(ChunkState state);

typedef enum NeighbourReadiness {
    NEIGHBOURS_READY = 0,   /* all 8 exist and have reached the required state */
    NEIGHBOURS_BEHIND,      /* all 8 exist; *behind is one that has not reached it yet */
    NEIGHBOURS_MISSING      /* at least one of the 8 is not allocated */
} NeighbourReadiness;

/* Checks the 8 neighbours of `chunk` against `required` (worker states). *behind may be NULL. */
NeighbourReadiness updater_neighbours_ready(const Terrain *terrain, const TerrainChunk *chunk,
                                            ChunkState required, TerrainChunk **behind);

/* Whether a chunk being released or autosaved must be written: it was edited since it was loaded or
 * generated (modification_counter > 0). A chunk whose stored copy is damaged and that was never edited
 * has counter 0, so it is never written back over the damaged copy. */
static inline bool updater_chunk_needs_save(const TerrainChunk *chunk)
{
    return chunk->modification_counter > 0;
}

#endif
