/* chunk.c — TerrainChunk reset. Chunks are pooled by Terrain, so reset must leave a chunk exactly as a
 * fresh one: all cells air, shafts zero, states NotLoaded, no flags. The whole bookkeeping part before
 * the shafts is zeroed at once, so a field another module adds to TerrainChunk is reset too (0 is
 * NotLoaded, no flags, NULL geometry). */
#include "strata/chunk.h"

#include <stddef.h>
#include <string.h>

void chunk_reset(TerrainChunk *chunk, int cx, int cz)
{
    memset(chunk, 0, offsetof(TerrainChunk, shafts));
    chunk->coord_x = cx;
    chunk->coord_z = cz;
    chunk->origin_x = cx * CHUNK_SIZE_X;
    chunk->origin_z = cz * CHUNK_SIZE_Z;
    chunk->state = CHUNK_STATE_NOT_LOADED;
    chunk->thread_state = CHUNK_STATE_NOT_LOADED;
    memset(chunk->shafts, 0, sizeof chunk->shafts);
    chunk_clear_cells(chunk);
}
