/* edit.h — changing the world: ChangeCell / DestroyCell and the block raycast.
 *
 * edit_change_cell sets a cell (relaxed atomic store), bumps its chunk's modification counter and
 * downgrades the 3x3 chunk neighbourhood to InvalidLight, so light and geometry are redone; it refuses
 * cells whose chunk has no contents yet (state < InvalidLight) or lies outside y 0..255.
 * edit_raycast walks the voxel grid (Amanatides-Woo DDA) to the first cell whose block is not air and
 * not a fluid. Threads: main thread only. */
#ifndef STRATA_EDIT_H
#define STRATA_EDIT_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/terrain.h"
#include "strata/update.h"

/* Returns true if the cell was changed. */
bool edit_change_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t value);
/* Sets the cell to air; returns the previous value (0 if nothing changed) in *previous if non-NULL.
 * The previous value has its light bits cleared (a block value, ready to place back for undo). */
bool edit_destroy_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t *previous);

typedef struct RaycastHit {
    int x, y, z;            /* the hit cell */
    int face;               /* BlockFace of the hit cell that the ray entered through */
    int place_x, place_y, place_z; /* the empty cell in front of that face (where placing puts a block) */
    float distance;
    int32_t value;
} RaycastHit;

/* Casts from `origin` along `direction` (need not be normalised) up to max_distance blocks. Returns
 * true and fills *hit on a hit. */
bool edit_raycast(const Terrain *terrain, const BlockRegistry *blocks, const float origin[3],
                  const float direction[3], float max_distance, RaycastHit *hit);

#endif
