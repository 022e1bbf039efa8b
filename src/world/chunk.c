/* chunk.c — TerrainChunk reset. Chunks are pooled by Terrain, so reset must leave a chunk exactly as a
 * fresh one: all cells air, shafts zero, states NotLoaded, no flags. */
#include "strata/chunk.h"

#include <string.h>

void chunk_reset(TerrainChunk *chunk, int cx, int cz)
{
    chunk->coord_x = cx;
    chunk->coord_z = cz;
    chunk->origin_x = cx * CHUNK_SIZE_X;
    chunk->origin_z = cz * CHUNK_SIZE_Z;
    chunk->state = CHUNK_STATE_NOT_LOADED;
    chunk->thread_state = CHUNK_STATE_NOT_LOADED;
    chunk->modification_counter = 0;
    chunk->flags = 0;
    chunk->main_fade_frames = 0;
    chunk->worker_flags = 0;
    chunk->worker_geometry = NULL;
    chunk->worker_finished_mesh = NULL;
    memset(chunk->shafts, 0, sizeof chunk->shafts);
    memset(chunk->cells, 0, sizeof chunk->cells);
}
