/* edit.c — ChangeCell / DestroyCell: the one way the player's hand changes a cell.
 *
 * Design. The cell is written with a relaxed atomic store (the worker may be lighting or meshing this
 * chunk or a neighbour right now), with its light bits cleared: light is recomputed because the 3x3 chunk
 * neighbourhood is downgraded to InvalidLight and marked as edited, so the worker redoes those chunks
 * before anything else. Only chunks whose contents exist (main state >= InvalidLight) are edited; below
 * that the worker is still loading or generating them. An edit bumps the modification counter (the chunk
 * is saved when released, on quit or by autosave) and clears CHUNK_FLAG_DAMAGED_ON_DISK: once the player
 * changes a chunk whose stored copy was unreadable, the player's version wins and may replace it. */
#include "strata/edit.h"

bool edit_change_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t value)
{
    if (y < 0 || y >= CHUNK_SIZE_Y) return false;
    TerrainChunk *chunk = terrain_get_chunk_at_cell(terrain, x, z);
    if (!chunk || chunk->state < CHUNK_STATE_INVALID_LIGHT) return false;

    int lx = chunk_local_of(x), lz = chunk_local_of(z);
    int32_t block = cell_replace_light(value, 0);
    if (cell_replace_light(chunk_get_cell_shared(chunk, lx, y, lz), 0) == block) return false;
    chunk_set_cell_shared(chunk, lx, y, lz, block);
    chunk->modification_counter++;
    chunk->flags &= ~CHUNK_FLAG_DAMAGED_ON_DISK;

    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            TerrainChunk *n = terrain_get_chunk(terrain, chunk->coord_x + dx, chunk->coord_z + dz);
            if (!n) continue;
            if (updater) updater_downgrade_chunk_edited(updater, n, CHUNK_STATE_INVALID_LIGHT);
            else if (n->state > CHUNK_STATE_INVALID_LIGHT) n->state = CHUNK_STATE_INVALID_LIGHT;
        }
    }
    return true;
}

bool edit_destroy_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t *previous)
{
    if (previous) *previous = 0;
    if (y < 0 || y >= CHUNK_SIZE_Y) return false;
    const TerrainChunk *chunk = terrain_get_chunk_at_cell(terrain, x, z);
    if (!chunk || chunk->state < CHUNK_STATE_INVALID_LIGHT) return false;
    int32_t old = cell_replace_light(chunk_get_cell_shared(chunk, chunk_local_of(x), y, chunk_local_of(z)), 0);
    if (!edit_change_cell(terrain, updater, x, y, z, cell_make(BLOCK_AIR, 0))) return false;
    if (previous) *previous = old;
    return true;
}
