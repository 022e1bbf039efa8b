/* mesher.h — vertex generation: cells into 16 slice geometries x 7 subsets of TerrainVertex quads.
 *
 * Subsets: 0..3 opaque faces facing +Z, +X, -Z, -X (drawn only when the camera is on that side);
 * 4 opaque faces facing +Y/-Y and non-cube opaque shapes; 5 alpha-tested; 6 transparent.
 * Geometry is quads: 4 vertices per face, drawn with a shared quad index pattern (0,1,2, 0,2,3).
 * Vertex positions are chunk-local (x, z in 0..16, y in 0..256); the renderer adds the chunk origin.
 * Vertex pass 1 builds odd slices, pass 2 even slices; a slice whose neighbourhood content hash did not
 * change keeps its geometry. mesher_pack then copies all slices into one ChunkMesh for the main thread.
 * Threads: the worker owns ChunkGeometry; a ChunkMesh is handed to the main thread by the state exchange
 * and freed there with chunk_mesh_destroy. Scratch lives in a MesherContext (one per thread). */
#ifndef STRATA_MESHER_H
#define STRATA_MESHER_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/terrain.h"

#define MESH_SUBSET_COUNT 7
#define MESH_SUBSET_OPAQUE_POS_Z 0
#define MESH_SUBSET_OPAQUE_POS_X 1
#define MESH_SUBSET_OPAQUE_NEG_Z 2
#define MESH_SUBSET_OPAQUE_NEG_X 3
#define MESH_SUBSET_OPAQUE_OTHER 4
#define MESH_SUBSET_ALPHA_TESTED 5
#define MESH_SUBSET_TRANSPARENT  6

/* 20 bytes: position, atlas UV as normalized shorts (0..32767 = 0..1), RGBA (light and tint baked). */
typedef struct TerrainVertex {
    float x, y, z;
    int16_t tx, ty;
    uint8_t color[4];
} TerrainVertex;
_Static_assert(sizeof(TerrainVertex) == 20, "TerrainVertex must be 20 bytes");

typedef struct VertexList {
    TerrainVertex *data;
    int count, capacity;
} VertexList;

typedef struct ChunkGeometry {
    VertexList slices[CHUNK_SLICES][MESH_SUBSET_COUNT];
    uint64_t slice_hash[CHUNK_SLICES];   /* hash of the slice's 3x3-chunk neighbourhood cells */
    bool slice_built[CHUNK_SLICES];
    int slices_rebuilt_last_pass;        /* for tests and the benchmark */
} ChunkGeometry;

typedef struct ChunkMesh {
    int coord_x, coord_z;
    VertexList subsets[MESH_SUBSET_COUNT];
    int min_y, max_y;                    /* vertical extent of the geometry, for culling */
} ChunkMesh;

typedef struct MesherContext MesherContext;

MesherContext *mesher_context_create(void);
void mesher_context_destroy(MesherContext *ctx);

/* Builds the slices of one parity (pass 1: odd, pass 2: even) into chunk->worker_geometry (allocated on
 * first use). Reads the 8 neighbour chunks for face culling and light (missing neighbours = air). */
void mesher_build_pass(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks,
                       MesherContext *ctx, int pass);
/* Packs all slices into a new ChunkMesh (caller owns; NULL on allocation failure). */
ChunkMesh *mesher_pack(const TerrainChunk *chunk);
/* Total vertices in a mesh. */
int chunk_mesh_vertex_count(const ChunkMesh *mesh);

void chunk_geometry_destroy(ChunkGeometry *geometry);
void chunk_mesh_destroy(ChunkMesh *mesh);

#endif
