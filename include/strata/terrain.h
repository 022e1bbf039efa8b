/* terrain.h — Terrain: chunk storage, an open-addressing hash of chunks keyed by chunk coordinates.
 *
 * Capacity TERRAIN_CAPACITY slots; linear probing with a strong hash of (x, z) and backward-shift
 * deletion (no tombstones), so lookups stay correct for any coordinates and under constant
 * allocate/free churn. Freed chunks go to a pool and are reused (no page faults per chunk).
 *
 * Threads: the hash is mutated (allocate/free) only by the main thread inside the update module's state
 * exchange, while the worker is not running a step; lookups may then be made by either thread.
 * terrain_get_cell_value/terrain_set_cell_value use relaxed atomics on cells. */
#ifndef STRATA_TERRAIN_H
#define STRATA_TERRAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/chunk.h"
#include "strata/error.h"

#define TERRAIN_CAPACITY 65536

typedef struct Terrain Terrain;

/* NULL on allocation failure. terrain_destroy(NULL) is a no-op; it frees every chunk and the pool. */
Terrain *terrain_create(void);
void terrain_destroy(Terrain *terrain);
/* As terrain_create, but allocation is refused past `max_chunks` chunks (a memory budget; values <= 0 or
 * above TERRAIN_CAPACITY*3/4 mean TERRAIN_CAPACITY*3/4). */
Terrain *terrain_create_with_limit(int max_chunks);

/* The slot where the hash starts probing for chunk (cx, cz), 0..TERRAIN_CAPACITY-1 (for tests and
 * diagnostics: chunks with equal or neighbouring home slots share a probe run). Pure; any thread. */
uint32_t terrain_home_slot(int cx, int cz);

/* The chunk at chunk coordinates, or NULL. */
TerrainChunk *terrain_get_chunk(const Terrain *terrain, int cx, int cz);
/* The chunk holding world cell (x, z), or NULL. */
TerrainChunk *terrain_get_chunk_at_cell(const Terrain *terrain, int x, int z);

/* Allocates (from the pool) and inserts a reset chunk at (cx, cz). Returns the existing chunk if there is
 * one. NULL if the table is full (more than TERRAIN_CAPACITY*3/4 chunks) or memory ran out. */
TerrainChunk *terrain_allocate_chunk(Terrain *terrain, int cx, int cz);
/* Removes the chunk from the table and returns it to the pool. Its geometry pointers must be NULL. */
void terrain_free_chunk(Terrain *terrain, TerrainChunk *chunk);
/* The two halves of terrain_free_chunk, for a release that saves in between: detach removes the chunk
 * from the table (lookups no longer find it; the memory stays valid), recycle returns a detached chunk to
 * the pool. Both are main-thread calls made while the worker is between steps. */
void terrain_detach_chunk(Terrain *terrain, TerrainChunk *chunk);
void terrain_recycle_chunk(Terrain *terrain, TerrainChunk *chunk);

/* Number of allocated chunks; and the i-th one (0 <= i < count), order unspecified and changed by
 * allocate/free. */
int terrain_chunk_count(const Terrain *terrain);
TerrainChunk *terrain_chunk_at(const Terrain *terrain, int i);

/* Cell value at world coordinates: 0 (air) outside y 0..255 or where no chunk is allocated. */
int32_t terrain_get_cell_value(const Terrain *terrain, int x, int y, int z);
/* Sets the cell if its chunk exists and y is in range; returns false otherwise. Does not downgrade
 * (see edit.h for ChangeCell). */
bool terrain_set_cell_value(Terrain *terrain, int x, int y, int z, int32_t value);

/* Unchecked fast versions: the chunk must exist and 0 <= y < 256. */
int32_t terrain_get_cell_value_fast(const Terrain *terrain, int x, int y, int z);
void terrain_set_cell_value_fast(Terrain *terrain, int x, int y, int z, int32_t value);

#endif
