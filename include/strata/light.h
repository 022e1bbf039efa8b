/* light.h — sunlight per column and light propagation (the InvalidLight and InvalidPropagatedLight steps).
 *
 * light_compute_sunlight: scans each column down from the top (TopHeight = highest non-air cell),
 * up from the bottom (BottomHeight), and lights cells with sky light attenuated downward through
 * transparent blocks (SunlightHeight = where it stops); all other cells get light 0 (except emitters).
 * light_propagate: collects emitters and the light entering from the 8 neighbour chunks, then floods
 * breadth-first in 6 directions, each step costing 1 + the block's attenuation. It reads neighbours
 * (which must be at least InvalidPropagatedLight) and writes light only into `chunk`.
 * Threads: called by the update worker on a live chunk; light is written with cell_store_light so a
 * concurrent main-thread edit is never overwritten. Scratch lives in a LightContext (one per thread). */
#ifndef STRATA_LIGHT_H
#define STRATA_LIGHT_H

#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/terrain.h"

typedef struct LightContext LightContext;

LightContext *light_context_create(void);
void light_context_destroy(LightContext *ctx);

/* sky_light: the current sky light level 0..15 (day 15). */
void light_compute_sunlight(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light);
void light_propagate(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks, LightContext *ctx);

#endif
