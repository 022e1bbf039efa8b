/* light.h — sunlight per column and light propagation (the InvalidLight and InvalidPropagatedLight steps).
 *
 * light_compute_sunlight: scans each column down from the top (TopHeight = highest non-air cell),
 * up from the bottom (BottomHeight), and lights cells with sky light attenuated downward through
 * transparent blocks (SunlightHeight = where it stops); cells below get light 0, emitters their emission.
 * Then it floods that light inside the chunk: every cell ends with the brightest light that reaches it
 * from the chunk's own sources along paths inside the chunk (its "own light"; needs no neighbour).
 * light_propagate: adds the light that crosses chunk borders: it finds, on the borders between the 3x3
 * chunks around `chunk`, cells their neighbour across the border would make brighter, and floods from
 * them breadth-first in 6 directions (each step costing 1 + the block's attenuation), reading the
 * neighbours' contents and light (which must be at least InvalidPropagatedLight) and writing light only
 * into `chunk`. The result is the exact whole-world light, whatever the order chunks propagate in.
 * Threads: called by the update worker on a live chunk; light is written with cell_store_light so a
 * concurrent main-thread edit is never overwritten. Scratch lives in a LightContext (one per thread). */
#ifndef STRATA_LIGHT_H
#define STRATA_LIGHT_H

#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/terrain.h"

typedef struct LightContext LightContext;

/* A bit of chunk->worker_flags owned by the light steps: set by light_propagate, cleared by the sunlight
 * step. While it is set the chunk holds its final light, so light_propagate of a neighbour need not look
 * for light crossing into it. */
#define LIGHT_WORKER_FLAG_PROPAGATED 0x10000u

LightContext *light_context_create(void);
void light_context_destroy(LightContext *ctx);

/* sky_light: the current sky light level 0..15 (day 15). Also records in the chunk what light_propagate
 * reads of it (worker_dark_rows: the rows where its border ring of columns may hold light other than
 * plain sky; worker_sky_light), and which slice quadrants hold emitters whose light can get out
 * (worker_emitter_slices: bit 4 * slice + quadrant, quadrant = (x >= 8) + 2 * (z >= 8)), and which of
 * those also hold an emitter that is not a fluid (worker_warm_emitter_slices, for the mesher's warm tint).
 * Allocates its scratch per call; the update worker uses light_compute_sunlight_ctx. */
void light_compute_sunlight(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light);
/* The same result with plain stores instead of compare-and-swap, several times faster on a freshly
 * generated or loaded chunk (~48k cells to light). Only for a chunk no other thread reads or writes yet,
 * e.g. inside the step that generated or loaded it, before the main thread can see its state reach
 * InvalidLight (the same privacy the generator relies on). */
void light_compute_sunlight_unshared(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light);
/* Either of the two above (shared: compare-and-swap writes) with the scratch of `ctx`. */
void light_compute_sunlight_ctx(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light, bool shared,
                                LightContext *ctx);
/* Needs light_compute_sunlight to have run on `chunk` and on each present neighbour since their last
 * content change (the state machine guarantees it: a change of contents sends the 3x3 chunks around it
 * back to InvalidLight). A neighbour's light may be its own light or its propagated light: the result is
 * the same. A missing neighbour blocks light like rock. Out of scratch memory: logged, some cells stay
 * darker. */
void light_propagate(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks, LightContext *ctx);

#endif
