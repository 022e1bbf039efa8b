/* mesh_fixture.h — lighting and meshing a hand-built world (world_fixture.h) for the mesher's tests:
 * sunlight in every chunk and light propagation in every chunk that has all its neighbours, a chunk meshed
 * from scratch with a given context, and the world freed with its chunks' slice geometry. Header-only. */
#ifndef STRATA_TEST_MESH_FIXTURE_H
#define STRATA_TEST_MESH_FIXTURE_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"

static inline void mesh_fixture_light(Terrain *t, const BlockRegistry *blocks, LightContext *lctx)
{
    int n = terrain_chunk_count(t);
    for (int i = 0; i < n; i++) light_compute_sunlight(terrain_chunk_at(t, i), blocks, LIGHT_MAX);
    for (int i = 0; i < n; i++) {
        TerrainChunk *c = terrain_chunk_at(t, i);
        bool all = true;
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) all = all && terrain_get_chunk(t, c->coord_x + dx, c->coord_z + dz);
        if (all) light_propagate(t, c, blocks, lctx);
    }
}

/* Chunk (cx, cz) meshed from scratch (its old slice geometry dropped) with `ctx`: both vertex passes. */
static inline ChunkMesh *mesh_fixture_build(Terrain *t, int cx, int cz, const BlockRegistry *blocks,
                                            MesherContext *ctx)
{
    TerrainChunk *c = terrain_get_chunk(t, cx, cz);
    chunk_geometry_destroy(c->worker_geometry);
    c->worker_geometry = NULL;
    mesher_build_pass(t, c, blocks, ctx, 1);
    mesher_build_pass(t, c, blocks, ctx, 2);
    return mesher_pack(c);
}

static inline void mesh_fixture_destroy(Terrain *t)
{
    for (int i = 0; i < terrain_chunk_count(t); i++) {
        TerrainChunk *c = terrain_chunk_at(t, i);
        chunk_geometry_destroy(c->worker_geometry);
        c->worker_geometry = NULL;
    }
    terrain_destroy(t);
}

#endif
