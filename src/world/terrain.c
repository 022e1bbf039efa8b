/* terrain.c — Terrain: chunk storage keyed by chunk coordinates.
 *
 * Design. The table is open addressing with linear probing over TERRAIN_CAPACITY slots. Each slot keeps
 * the key (cx, cz) next to the chunk pointer so a probe never touches chunk memory. The home slot is a
 * splitmix64-style mix of both coordinates, so chunks far apart or at negative coordinates spread evenly
 * (Survivalcraft's (x + (z << 8)) & 0xFFFF collides as soon as the loaded area is 256 chunks wide).
 * Removal uses backward-shift deletion: the entries after the hole that may move into it are shifted back,
 * so there are no tombstones and probe lengths stay short under endless allocate/free churn.
 * Allocation is refused past 3/4 load, which keeps the expected probe short.
 *
 * Every chunk lives inside a private TerrainNode that also records its index in the dense array of
 * allocated chunks (terrain_chunk_count/at), giving O(1) removal by swapping the last entry into the hole.
 * Freed nodes go to a pool (a free list) and are reused, their cell storage released (a chunk's cells are
 * palette sections or a pooled scratch, chunk.h). Every node ever made is also kept in `nodes`, so destroy
 * frees detached-but-never-recycled chunks too. */
#include "strata/terrain.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "strata/log.h"
#include "strata/rng.h"

#define TERRAIN_MASK (TERRAIN_CAPACITY - 1)
#define TERRAIN_MAX_LOAD (TERRAIN_CAPACITY / 4 * 3)

typedef struct TerrainNode {
    TerrainChunk chunk;          /* first member: a TerrainChunk* is a TerrainNode* */
    int dense_index;             /* index in Terrain.dense, -1 while detached or pooled */
    struct TerrainNode *next_free;
} TerrainNode;

typedef struct TerrainSlot {
    int32_t cx, cz;
    TerrainNode *node;           /* NULL: empty */
} TerrainSlot;

struct Terrain {
    TerrainSlot *slots;          /* TERRAIN_CAPACITY */
    TerrainNode **dense;         /* allocated (in the table) chunks, count of them */
    int count;
    int max_chunks;
    TerrainNode *pool;           /* free list of recycled nodes */
    TerrainNode **nodes;         /* every node ever made, for destroy */
    int node_count, node_capacity;
};

static inline TerrainNode *terrain_node_of(TerrainChunk *chunk)
{
    return (TerrainNode *)((char *)chunk - offsetof(TerrainNode, chunk));
}

/* Home slot: both coordinates packed into 64 bits, then the splitmix64 finalizer (rng_mix64). */
uint32_t terrain_home_slot(int cx, int cz)
{
    uint64_t k = ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz;
    return (uint32_t)rng_mix64(k) & TERRAIN_MASK;
}

Terrain *terrain_create_with_limit(int max_chunks)
{
    Terrain *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (max_chunks <= 0 || max_chunks > TERRAIN_MAX_LOAD) max_chunks = TERRAIN_MAX_LOAD;
    t->max_chunks = max_chunks;
    t->slots = calloc(TERRAIN_CAPACITY, sizeof *t->slots);
    t->dense = malloc((size_t)max_chunks * sizeof *t->dense);
    if (!t->slots || !t->dense) {
        terrain_destroy(t);
        return NULL;
    }
    return t;
}

Terrain *terrain_create(void)
{
    return terrain_create_with_limit(TERRAIN_MAX_LOAD);
}

void terrain_destroy(Terrain *terrain)
{
    if (!terrain) return;
    for (int i = 0; i < terrain->node_count; i++) {
        chunk_release_storage(&terrain->nodes[i]->chunk);
        free(terrain->nodes[i]);
    }
    free(terrain->nodes);
    free(terrain->dense);
    free(terrain->slots);
    free(terrain);
}

/* Slot index holding (cx, cz), or -1. */
static inline int terrain_find_slot(const Terrain *terrain, int cx, int cz)
{
    uint32_t i = terrain_home_slot(cx, cz);
    for (;;) {
        const TerrainSlot *s = &terrain->slots[i];
        if (!s->node) return -1;
        if (s->cx == cx && s->cz == cz) return (int)i;
        i = (i + 1) & TERRAIN_MASK;
    }
}

TerrainChunk *terrain_get_chunk(const Terrain *terrain, int cx, int cz)
{
    int i = terrain_find_slot(terrain, cx, cz);
    return i < 0 ? NULL : &terrain->slots[i].node->chunk;
}

TerrainChunk *terrain_get_chunk_at_cell(const Terrain *terrain, int x, int z)
{
    return terrain_get_chunk(terrain, chunk_coord_of(x), chunk_coord_of(z));
}

/* A node from the pool, or a fresh one (recorded in `nodes`). Not reset. */
static TerrainNode *terrain_take_node(Terrain *terrain)
{
    TerrainNode *node = terrain->pool;
    if (node) {
        terrain->pool = node->next_free;
        return node;
    }
    if (terrain->node_count == terrain->node_capacity) {
        int cap = terrain->node_capacity ? terrain->node_capacity * 2 : 64;
        TerrainNode **grown = realloc(terrain->nodes, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        terrain->nodes = grown;
        terrain->node_capacity = cap;
    }
    node = calloc(1, sizeof *node); /* zeroed: a valid empty chunk for chunk_reset */
    if (!node) return NULL;
    terrain->nodes[terrain->node_count++] = node;
    return node;
}

TerrainChunk *terrain_allocate_chunk(Terrain *terrain, int cx, int cz)
{
    uint32_t i = terrain_home_slot(cx, cz);
    for (;;) {
        TerrainSlot *s = &terrain->slots[i];
        if (!s->node) break;
        if (s->cx == cx && s->cz == cz) return &s->node->chunk;
        i = (i + 1) & TERRAIN_MASK;
    }
    if (terrain->count >= terrain->max_chunks) {
        log_warn("world", "terrain full: refusing chunk %d,%d (%d chunks allocated)", cx, cz, terrain->count);
        return NULL;
    }
    TerrainNode *node = terrain_take_node(terrain);
    if (!node) {
        log_error("world", "out of memory allocating chunk %d,%d", cx, cz);
        return NULL;
    }
    chunk_reset(&node->chunk, cx, cz);
    node->next_free = NULL;
    node->dense_index = terrain->count;
    terrain->dense[terrain->count++] = node;
    terrain->slots[i] = (TerrainSlot){ .cx = cx, .cz = cz, .node = node };
    return &node->chunk;
}

/* Backward-shift deletion of slot `hole`: every later entry of the same probe run whose home slot does
 * not lie cyclically in (hole, j] moves back into the hole, which then moves to where it was. */
static void terrain_remove_slot(Terrain *terrain, uint32_t hole)
{
    uint32_t j = hole;
    for (;;) {
        j = (j + 1) & TERRAIN_MASK;
        TerrainSlot *s = &terrain->slots[j];
        if (!s->node) break;
        uint32_t home = terrain_home_slot(s->cx, s->cz);
        /* distance from home to j versus from hole to j, both cyclic */
        if (((j - home) & TERRAIN_MASK) >= ((j - hole) & TERRAIN_MASK)) {
            terrain->slots[hole] = *s;
            hole = j;
        }
    }
    terrain->slots[hole].node = NULL;
}

void terrain_detach_chunk(Terrain *terrain, TerrainChunk *chunk)
{
    TerrainNode *node = terrain_node_of(chunk);
    int i = terrain_find_slot(terrain, chunk->coord_x, chunk->coord_z);
    if (i < 0 || terrain->slots[i].node != node) {
        log_error("world", "detach of chunk %d,%d that is not in the terrain", chunk->coord_x, chunk->coord_z);
        return;
    }
    terrain_remove_slot(terrain, (uint32_t)i);
    int d = node->dense_index;
    TerrainNode *last = terrain->dense[--terrain->count];
    terrain->dense[d] = last;
    last->dense_index = d;
    node->dense_index = -1;
}

void terrain_recycle_chunk(Terrain *terrain, TerrainChunk *chunk)
{
    TerrainNode *node = terrain_node_of(chunk);
    if (node->dense_index >= 0) {
        log_error("world", "recycle of chunk %d,%d that is still attached", chunk->coord_x, chunk->coord_z);
        return;
    }
    chunk_release_storage(chunk); /* a pooled chunk holds no cells: its scratch goes back to the pool */
    node->next_free = terrain->pool;
    terrain->pool = node;
}

void terrain_free_chunk(Terrain *terrain, TerrainChunk *chunk)
{
    TerrainNode *node = terrain_node_of(chunk);
    if (node->dense_index < 0) {
        log_error("world", "free of chunk %d,%d that is not attached", chunk->coord_x, chunk->coord_z);
        return;
    }
    terrain_detach_chunk(terrain, chunk);
    terrain_recycle_chunk(terrain, chunk);
}

int terrain_chunk_count(const Terrain *terrain)
{
    return terrain->count;
}

TerrainChunk *terrain_chunk_at(const Terrain *terrain, int i)
{
    return &terrain->dense[i]->chunk;
}

int32_t terrain_get_cell_value(const Terrain *terrain, int x, int y, int z)
{
    if ((unsigned)y >= CHUNK_SIZE_Y) return 0;
    const TerrainChunk *c = terrain_get_chunk(terrain, chunk_coord_of(x), chunk_coord_of(z));
    if (!c) return 0;
    return chunk_get_cell_shared(c, chunk_local_of(x), y, chunk_local_of(z));
}

bool terrain_set_cell_value(Terrain *terrain, int x, int y, int z, int32_t value)
{
    if ((unsigned)y >= CHUNK_SIZE_Y) return false;
    TerrainChunk *c = terrain_get_chunk(terrain, chunk_coord_of(x), chunk_coord_of(z));
    if (!c) return false;
    chunk_set_cell_shared(c, chunk_local_of(x), y, chunk_local_of(z), value);
    return true;
}

int32_t terrain_get_cell_value_fast(const Terrain *terrain, int x, int y, int z)
{
    const TerrainChunk *c = terrain_get_chunk(terrain, chunk_coord_of(x), chunk_coord_of(z));
    return chunk_get_cell_shared(c, chunk_local_of(x), y, chunk_local_of(z));
}

void terrain_set_cell_value_fast(Terrain *terrain, int x, int y, int z, int32_t value)
{
    TerrainChunk *c = terrain_get_chunk(terrain, chunk_coord_of(x), chunk_coord_of(z));
    chunk_set_cell_shared(c, chunk_local_of(x), y, chunk_local_of(z), value);
}
