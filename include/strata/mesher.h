/* mesher.h — vertex generation: cells into 16 slice geometries x 7 subsets of TerrainVertex quads.
 *
 * Subsets: 0..3 opaque faces facing +Z, +X, -Z, -X (drawn only when the camera is on that side);
 * 4 opaque faces facing +Y/-Y and non-cube opaque shapes; 5 alpha-tested; 6 transparent.
 * Geometry is quads: 4 vertices per face, drawn with a shared quad index pattern (0,1,2, 0,2,3). The 4
 * vertices are counter-clockwise seen from the side the face shows (outside of a cube), so front faces are
 * CCW. The alpha-tested subset is drawn two-sided: a crossed plant is one quad per diagonal plane (8
 * vertices), and leaves show only their faces against cells that are not leaves ("fast leaves").
 * Vertex positions are chunk-local (x, z in 0..16, y in 0..256); the renderer adds the chunk origin.
 * tx, ty: texture coordinates as integers, tile * MESHER_UV_TILE_STRIDE + local: the atlas is 16 x 16 tiles,
 * tile i at column i % 16, row i / 16 (row 0 at the top of the image, ty growing downwards); local is in
 * sixteenths of a tile (texels of a 16-pixel tile) and may run past 16 on a merged quad, where the tile
 * repeats (the renderer samples a tile array with GL_REPEAT). A quad's 4 vertices name the same tile.
 * color: tint x face shade x light brightness (smooth light and ambient occlusion), alpha 255.
 * Greedy merging (on by default): within a slice and subset (not the alpha-tested one), coplanar full
 * faces with the same tile, texture orientation and facing whose colours are uniform, or constant along
 * one axis, are merged into one larger quad (only along that axis for the latter), so the merged mesh
 * shows exactly the faces, colours and texels of the unmerged one.
 * Occlusion culling: each slice also records which of its 6 faces are joined through cells that are not
 * opaque cubes (visibility.h); the mesh keeps it with per-slice vertex counts so a slice can be skipped.
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
#include "strata/visibility.h"

#define MESH_SUBSET_COUNT 7
#define MESH_SUBSET_OPAQUE_POS_Z 0
#define MESH_SUBSET_OPAQUE_POS_X 1
#define MESH_SUBSET_OPAQUE_NEG_Z 2
#define MESH_SUBSET_OPAQUE_NEG_X 3
#define MESH_SUBSET_OPAQUE_OTHER 4
#define MESH_SUBSET_ALPHA_TESTED 5
#define MESH_SUBSET_TRANSPARENT  6

#define MESHER_UV_TILE_STRIDE 512

/* 20 bytes: position, texture coordinate (tile * MESHER_UV_TILE_STRIDE + sixteenths), RGBA (light, tint). */
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
    float slice_min_y[CHUNK_SLICES];     /* vertical extent of each slice's vertices (min > max: none), */
    float slice_max_y[CHUNK_SLICES];     /* measured when the slice is built, so packing reads no vertex */
    int slice_lod_vertices[CHUNK_SLICES][MESH_SUBSET_COUNT]; /* each list's first part: half resolution */
    int slice_leaf_vertices[CHUNK_SLICES]; /* then, in the alpha-tested list, its leaves' faces (ChunkMesh) */
    int slices_rebuilt_last_pass;        /* for tests and the benchmark */
    unsigned copies;                     /* MESH_COPY_* the slices were built with (mesher_context_set_copies) */
    bool occluders_current;              /* visibility's occluders match the cells (no slice rebuilt since) */
    uint16_t slice_opaque_known;         /* bit s: slice_opaque_rows[s] holds slice s's rows as last built */
    uint16_t slice_opaque_rows[CHUNK_SLICES][CHUNK_SHAFTS]; /* per slice and column (x + 16 z): bit y where the
                                          * slice's row y is an opaque cube (its graph's input), so the
                                          * occluders are found without reading the cells again */
    VisibilityChunk visibility;          /* occlusion culling: slice graphs and occluders (visibility.h) */
} ChunkGeometry;

typedef struct ChunkMesh {
    int coord_x, coord_z;
    VertexList subsets[MESH_SUBSET_COUNT];
    int min_y, max_y;                    /* vertical extent of the geometry, for culling */
    /* Per slice, for occlusion culling: subset k's list holds slice 0's vertices, then slice 1's, ...;
     * slice_vertices[k][s] counts slice s's. visibility: the slices' graphs and the chunk's occluder
     * boxes (visibility.h). */
    int slice_vertices[MESH_SUBSET_COUNT][CHUNK_SLICES];
    /* Each slice's part of each subset starts with lod_vertices[k][s] vertices of the slice at half
     * resolution (2 x 2 x 2 cells a block, mesher_lod.c: opaque cubes in subsets 0..4, leaves in the
     * alpha-tested one; none in the transparent one), drawn instead of the rest by far chunks
     * (chunk_mesh_lod_runs). The alpha-tested part then holds alpha_leaf_vertices[s] of leaves' cube faces,
     * then plants, torches and other cut-outs. Leaves are wound outward like opaque faces: the renderer draws
     * near chunks' leaves and the rest two-sided, and a far chunk's leaves (at full or half resolution, by
     * distance) one-sided (MeshAlphaPart). The transparent subset has no half-resolution faces: its first
     * part is instead the faces far chunks draw too (water, glass), then come those of blocks their copy holds
     * as solid (ice, BlockRegistry.far_opaque), so near chunks draw all of it (chunk_mesh_subset_runs). */
    int lod_vertices[MESH_SUBSET_COUNT][CHUNK_SLICES];
    int alpha_leaf_vertices[CHUNK_SLICES];
    bool lod;                            /* the half-resolution copies are there (a mesh built without them,
                                          * or by hand, is drawn at full resolution at any distance) */
    bool far_only;                       /* built without full resolution (MESH_COPY_FAR alone): only the
                                          * half-resolution copies and what far chunks draw besides are there,
                                          * so it is drawn from them at any distance */
    VisibilityChunk visibility;
} ChunkMesh;

/* The parts of a chunk's alpha-tested subset (ChunkMesh.lod_vertices, alpha_leaf_vertices) one pass draws. */
typedef enum MeshAlphaPart {
    MESH_ALPHA_NEAR,        /* leaves' faces and the rest: a near chunk's, drawn two-sided */
    MESH_ALPHA_LEAVES,      /* leaves' faces alone */
    MESH_ALPHA_LOD_LEAVES,  /* the far leaves (half resolution) */
    MESH_ALPHA_REST         /* plants, torches and other cut-outs */
} MeshAlphaPart;

/* Appends the run (start, length) to runs[0..runs) of (first, count) pairs, joined to the last one when they
 * touch; returns the new number of runs. */
static inline int mesh_runs_append(int *run_first, int *run_count, int runs, int start, int length)
{
    if (runs > 0 && run_first[runs - 1] + run_count[runs - 1] == start) {
        run_count[runs - 1] += length;
        return runs;
    }
    run_first[runs] = start;
    run_count[runs] = length;
    return runs + 1;
}

/* Draw runs of one part of an alpha-tested subset laid out as ChunkMesh's: `first` and `count` its first
 * vertex and vertices, slice_vertices its per-slice counts, lod and leaf the per-slice parts (any may be
 * clamped). Only slices in `slices`; runs that touch are joined; at most 16. A subset whose slice counts
 * do not add up to `count` has no leaves parts: all of it is the rest. Pure. */
int chunk_mesh_alpha_runs(int first, int count, const int slice_vertices[CHUNK_SLICES],
                          const int lod[CHUNK_SLICES], const int leaf[CHUNK_SLICES], MeshAlphaPart part,
                          uint16_t slices, int *run_first, int *run_count);

/* Vertices of one part of a mesh's alpha-tested subset, all slices. Pure. */
int chunk_mesh_alpha_part_vertices(const ChunkMesh *mesh, MeshAlphaPart part);

/* Draw runs of one part of a subset laid out as ChunkMesh's: each slice's first lod[s] vertices (`lod`
 * true) or the rest (false); arguments as chunk_mesh_alpha_runs. A subset whose slice counts do not add up
 * has no half-resolution part. Pure. */
int chunk_mesh_lod_runs(int first, int count, const int slice_vertices[CHUNK_SLICES], const int lod[CHUNK_SLICES],
                        bool lod_part, uint16_t slices, int *run_first, int *run_count);
/* Draw runs of the subsets in `mask` (k < MESH_SUBSET_COUNT) of a mesh laid out as ChunkMesh's, each at full
 * resolution or half (`lod_part`, chunk_mesh_lod_runs; the transparent subset whole, or a far chunk's first
 * part), first[k] and count[k] each subset's first vertex and vertices; runs that touch are joined (across
 * subsets too). At most MESH_SUBSET_COUNT * 16. Pure. */
int chunk_mesh_subset_runs(const int first[MESH_SUBSET_COUNT], const int count[MESH_SUBSET_COUNT],
                           const int (*slice_vertices)[CHUNK_SLICES], const int (*lod)[CHUNK_SLICES], unsigned mask,
                           bool lod_part, uint16_t slices, int *run_first, int *run_count);
/* Vertices of subset k at full resolution (`lod` false) or half (true; the transparent subset as
 * chunk_mesh_subset_runs draws it), all slices. Pure. */
int chunk_mesh_subset_vertices(const ChunkMesh *mesh, int subset, bool lod);

typedef struct MesherContext MesherContext;

/* NULL on allocation failure. Defaults: brightness 0.5, season summer. */
MesherContext *mesher_context_create(void);
void mesher_context_destroy(MesherContext *ctx);

#define MESHER_SEASON_SPRING 0
#define MESHER_SEASON_SUMMER 1
#define MESHER_SEASON_AUTUMN 2
#define MESHER_SEASON_WINTER 3

/* Settings baked into the vertices (take effect for slices built afterwards; slice hashes include them,
 * so after a change downgrade all chunks to InvalidVertices1 and every slice is rebuilt). Thread: the
 * owner of the context, between builds. brightness 0..1 (clamped) lifts the darkest light level. */
void mesher_context_set_brightness(MesherContext *ctx, float brightness);
void mesher_context_set_season(MesherContext *ctx, int season);
/* Greedy merging of coplanar faces on (default) or off (one quad per face, for tests that count faces). */
void mesher_context_set_merge(MesherContext *ctx, bool merge);
/* The half-resolution copy of each slice (ChunkMesh.lod_vertices) on (default) or off (for tests that look
 * at the faces themselves): off, every build is full resolution alone, whatever mesher_context_set_copies says. */
void mesher_context_set_lod(MesherContext *ctx, bool lod);

/* The copies of a chunk a build makes (the update worker chooses them per chunk by its distance to the player,
 * update.h): MESH_COPY_FULL, the cells at full resolution, what the renderer draws nearer than
 * RENDER_LOD_FROM; MESH_COPY_FAR, the half-resolution copy (mesher_lod.c) with the faces far chunks draw cell
 * by cell besides it (water, glass, plants and other shapes: every face of a cell that is not opaque, leaves
 * or ice). A far-only build leaves out the full-resolution faces of opaque blocks (cubes, snow cover, magma),
 * leaves and ice (its mesh is ChunkMesh.far_only); a full-only build the half-resolution copy (ice's faces still come last in
 * the transparent list). Default both. The slice hashes include the copies: a change rebuilds every slice.
 * Thread: the owner of the context, between builds. 0 is taken as both. */
#define MESH_COPY_FULL 1u
#define MESH_COPY_FAR  2u
#define MESH_COPIES_BOTH (MESH_COPY_FULL | MESH_COPY_FAR)
void mesher_context_set_copies(MesherContext *ctx, unsigned copies);

/* The tint colour of grass, foliage or water for a column's temperature and humidity (0..15) in a season;
 * white for BLOCK_TINT_NONE. Pure; any thread. */
void mesher_tint_color(BlockTint tint, int temperature, int humidity, int season, uint8_t rgb[3]);
/* The brightness curve: light level 0..15 (fractional after ambient occlusion) to 0..1,
 * lerp(0.1 * brightness, 1, (light / 15)^1.25). Pure; any thread. */
float mesher_light_brightness(float light, float brightness);

/* Builds the slices of one parity (pass 1: odd, pass 2: even) into chunk->worker_geometry (allocated on
 * first use). Reads the 8 neighbour chunks for face culling and light (a missing neighbour reads as air
 * lit like the nearest cell of `chunk`, so nothing is culled against it; below y 0 is treated as solid,
 * above y 255 as air in full light). Out of memory: logged, the slice is retried on the next pass. */
void mesher_build_pass(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks,
                       MesherContext *ctx, int pass);
/* Packs all slices into a new ChunkMesh (caller owns; NULL on allocation failure). */
ChunkMesh *mesher_pack(const TerrainChunk *chunk);
/* Total vertices in a mesh. */
int chunk_mesh_vertex_count(const ChunkMesh *mesh);

void chunk_geometry_destroy(ChunkGeometry *geometry);
void chunk_mesh_destroy(ChunkMesh *mesh);

#endif
