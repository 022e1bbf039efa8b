/* update_step.c — the chunk state machine's steps: one function per state, each (chunk, context) -> next state.
 *
 * Design. Steps know nothing about threads, locations or scheduling: the worker (worker.c) decides which
 * chunk to step, these functions only do the work of one state. A step that reads neighbours checks them
 * itself and returns the current state when they are not ready, so a wrong schedule can never make a
 * chunk skip work. Load results are written to worker_flags (worker-owned); the exchange moves them into
 * the main thread's flags. A damaged stored copy never stops the game: it is logged with its reason and
 * the chunk is generated in memory, flagged so that it is not written back until the player edits it. A
 * read that failed (ST_ERR_IO, ST_ERR_NOMEM) is not damage: the chunk stays NotLoaded and is retried.
 * A chunk whose contents were just generated or loaded, and whose state the main thread has not yet seen
 * reach InvalidLight, cannot be edited by anyone (UPDATE_WORKER_FLAG_PRIVATE): its sunlight is written
 * with plain stores, several times cheaper than the compare-and-swaps a live chunk needs. */
#include "strata/update_step.h"

#include <string.h>

#include "strata/log.h"

StResult step_context_init(StepContext *ctx, const Terrain *terrain, const Generator *generator,
                           const BlockRegistry *blocks, const ChunkStorage *storage, int sky_light)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->terrain = terrain;
    ctx->generator = generator;
    ctx->blocks = blocks;
    ctx->storage = storage;
    ctx->sky_light = sky_light;
    ctx->gen = gen_context_create();
    ctx->light = light_context_create();
    ctx->mesher = mesher_context_create();
    if (!ctx->gen || !ctx->light || !ctx->mesher) {
        step_context_free(ctx);
        return st_fail(ST_ERR_NOMEM, "update: out of memory creating the worker's scratch contexts");
    }
    return ST_OK;
}

void step_context_free(StepContext *ctx)
{
    gen_context_destroy(ctx->gen);
    light_context_destroy(ctx->light);
    mesher_context_destroy(ctx->mesher);
    ctx->gen = NULL;
    ctx->light = NULL;
    ctx->mesher = NULL;
}

/* Records a load result for the exchange; a fresh result replaces an older one. */
static void step_set_load_result(TerrainChunk *chunk, uint32_t bits)
{
    chunk->worker_flags &= ~(CHUNK_FLAG_LOADED | CHUNK_FLAG_DAMAGED_ON_DISK);
    chunk->worker_flags |= UPDATE_WORKER_FLAG_LOAD_RESULT | bits;
}

ChunkState updater_step_not_loaded(TerrainChunk *chunk, StepContext *ctx)
{
    const ChunkStorage *storage = ctx->storage;
    if (!storage || !storage->load) {
        step_set_load_result(chunk, 0);
        return CHUNK_STATE_INVALID_CONTENTS1;
    }
    StResult rc = storage->load(storage->user, chunk);
    if (rc == ST_ERR_IO || rc == ST_ERR_NOMEM) {
        /* Could not read: not damage. Generating it would let an edit be saved over an intact record, so the
         * chunk stays NotLoaded (its neighbours wait) and is retried at the next exchange that changes
         * something (an autosave request at the latest). */
        log_warn("update", "chunk %d,%d: stored copy could not be read (%s: %s); not loaded, retrying later",
                 chunk->coord_x, chunk->coord_z, st_result_name(rc), st_error_message());
        return CHUNK_STATE_NOT_LOADED;
    }
    if (rc == ST_OK) {
        step_set_load_result(chunk, CHUNK_FLAG_LOADED);
        chunk->worker_flags |= UPDATE_WORKER_FLAG_PRIVATE;
        return CHUNK_STATE_INVALID_LIGHT;
    }
    /* A failed or absent load may have written part of the chunk: start the generator from a clean one. */
    chunk_clear_cells(chunk);
    memset(chunk->shafts, 0, sizeof chunk->shafts);
    if (rc == ST_ERR_NOT_FOUND) {
        step_set_load_result(chunk, 0);
    } else {
        log_error("update", "chunk %d,%d: stored copy unreadable (%s: %s); generating it in memory, "
                  "the stored copy is kept until the chunk is edited",
                  chunk->coord_x, chunk->coord_z, st_result_name(rc), st_error_message());
        step_set_load_result(chunk, CHUNK_FLAG_DAMAGED_ON_DISK);
    }
    return CHUNK_STATE_INVALID_CONTENTS1;
}

static ChunkState step_contents(TerrainChunk *chunk, StepContext *ctx, int pass)
{
    generator_run_pass(ctx->generator, pass, chunk, ctx->gen);
    if (pass < 4) return (ChunkState)(CHUNK_STATE_INVALID_CONTENTS1 + pass);
    /* The main thread has seen this chunk below InvalidLight at most, so it does not edit it yet. */
    chunk->worker_flags |= UPDATE_WORKER_FLAG_PRIVATE;
    return CHUNK_STATE_INVALID_LIGHT;
}

ChunkState updater_step_contents1(TerrainChunk *chunk, StepContext *ctx) { return step_contents(chunk, ctx, 1); }
ChunkState updater_step_contents2(TerrainChunk *chunk, StepContext *ctx) { return step_contents(chunk, ctx, 2); }
ChunkState updater_step_contents3(TerrainChunk *chunk, StepContext *ctx) { return step_contents(chunk, ctx, 3); }
ChunkState updater_step_contents4(TerrainChunk *chunk, StepContext *ctx) { return step_contents(chunk, ctx, 4); }

ChunkState updater_step_light(TerrainChunk *chunk, StepContext *ctx)
{
    bool shared = !(chunk->worker_flags & UPDATE_WORKER_FLAG_PRIVATE);
    light_compute_sunlight_ctx(chunk, ctx->blocks, ctx->sky_light, shared, ctx->light);
    return CHUNK_STATE_INVALID_PROPAGATED_LIGHT;
}

ChunkState updater_step_neighbour_requirement(ChunkState state)
{
    switch (state) {
    case CHUNK_STATE_INVALID_PROPAGATED_LIGHT: return CHUNK_STATE_INVALID_PROPAGATED_LIGHT;
    case CHUNK_STATE_INVALID_VERTICES1:
    case CHUNK_STATE_INVALID_VERTICES2: return CHUNK_STATE_INVALID_VERTICES1;
    default: return CHUNK_STATE_NOT_LOADED;
    }
}

NeighbourReadiness updater_neighbours_ready(const Terrain *terrain, const TerrainChunk *chunk,
                                            ChunkState required, TerrainChunk **behind)
{
    TerrainChunk *first_behind = NULL;
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dz) continue;
            TerrainChunk *n = terrain_get_chunk(terrain, chunk->coord_x + dx, chunk->coord_z + dz);
            if (!n) return NEIGHBOURS_MISSING;
            if (n->thread_state < required && !first_behind) first_behind = n;
        }
    }
    if (behind) *behind = first_behind;
    return first_behind ? NEIGHBOURS_BEHIND : NEIGHBOURS_READY;
}

static bool step_neighbours_ok(TerrainChunk *chunk, StepContext *ctx, ChunkState state)
{
    if (ctx->neighbours_checked) return true; /* the pool's scheduler checked them (update.h) */
    return updater_neighbours_ready(ctx->terrain, chunk, updater_step_neighbour_requirement(state), NULL) ==
           NEIGHBOURS_READY;
}

ChunkState updater_step_propagated_light(TerrainChunk *chunk, StepContext *ctx)
{
    if (!step_neighbours_ok(chunk, ctx, CHUNK_STATE_INVALID_PROPAGATED_LIGHT))
        return CHUNK_STATE_INVALID_PROPAGATED_LIGHT;
    light_propagate(ctx->terrain, chunk, ctx->blocks, ctx->light);
    return CHUNK_STATE_INVALID_VERTICES1;
}

ChunkState updater_step_vertices1(TerrainChunk *chunk, StepContext *ctx)
{
    if (!step_neighbours_ok(chunk, ctx, CHUNK_STATE_INVALID_VERTICES1)) return CHUNK_STATE_INVALID_VERTICES1;
    mesher_build_pass(ctx->terrain, chunk, ctx->blocks, ctx->mesher, 1);
    return CHUNK_STATE_INVALID_VERTICES2;
}

ChunkState updater_step_vertices2(TerrainChunk *chunk, StepContext *ctx)
{
    if (!step_neighbours_ok(chunk, ctx, CHUNK_STATE_INVALID_VERTICES2)) return CHUNK_STATE_INVALID_VERTICES2;
    mesher_build_pass(ctx->terrain, chunk, ctx->blocks, ctx->mesher, 2);
    ChunkMesh *mesh = mesher_pack(chunk);
    if (!mesh) {
        /* Out of memory: stay here and retry on a later step rather than publish a chunk without geometry. */
        log_error("update", "chunk %d,%d: out of memory packing its mesh", chunk->coord_x, chunk->coord_z);
        return CHUNK_STATE_INVALID_VERTICES2;
    }
    chunk_mesh_destroy(chunk->worker_finished_mesh);
    chunk->worker_finished_mesh = mesh;
    return CHUNK_STATE_VALID;
}

ChunkState updater_step_run(TerrainChunk *chunk, ChunkState state, StepContext *ctx)
{
    static ChunkState (*const steps[CHUNK_STATE_VALID])(TerrainChunk *, StepContext *) = {
        [CHUNK_STATE_NOT_LOADED] = updater_step_not_loaded,
        [CHUNK_STATE_INVALID_CONTENTS1] = updater_step_contents1,
        [CHUNK_STATE_INVALID_CONTENTS2] = updater_step_contents2,
        [CHUNK_STATE_INVALID_CONTENTS3] = updater_step_contents3,
        [CHUNK_STATE_INVALID_CONTENTS4] = updater_step_contents4,
        [CHUNK_STATE_INVALID_LIGHT] = updater_step_light,
        [CHUNK_STATE_INVALID_PROPAGATED_LIGHT] = updater_step_propagated_light,
        [CHUNK_STATE_INVALID_VERTICES1] = updater_step_vertices1,
        [CHUNK_STATE_INVALID_VERTICES2] = updater_step_vertices2,
    };
    if (state < CHUNK_STATE_NOT_LOADED || state >= CHUNK_STATE_VALID) return state;
    return steps[state](chunk, ctx);
}

bool updater_step_chunk(TerrainChunk *chunk, StepContext *ctx)
{
    ChunkState state = chunk->thread_state;
    ChunkState next = updater_step_run(chunk, state, ctx);
    chunk->thread_state = next;
    return next != state;
}
