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

/* sky_light: the current sky light level 0..15 (day 15). Also records in the chunk what light_propagate
 * reads of it and of its neighbours (worker_emitter_slices, worker_dark_rows, worker_sky_light). */
void light_compute_sunlight(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light);
/* The same result with plain stores instead of compare-and-swap, several times faster on a freshly
 * generated or loaded chunk (~48k cells to light). Only for a chunk no other thread reads or writes yet,
 * e.g. inside the step that generated or loaded it, before the main thread can see its state reach
 * InvalidLight (the same privacy the generator relies on). */
void light_compute_sunlight_unshared(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light);
/* Needs light_compute_sunlight to have run on `chunk` since its last propagation and on each present
 * neighbour since its last content change (the state machine guarantees both). Reads neighbours' contents,
 * shafts and summary only, never their light, so the order in which chunks propagate changes nothing.
 * A missing neighbour blocks light like rock. Out of scratch memory: logged, some cells stay darker. */
void light_propagate(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks, LightContext *ctx);

#endif
