/* wfc.h — Wave Function Collapse over JSON tilesets (seed 001's schema): tileset loading, rotation
 * expansion, and a deterministic 3D solver.
 *
 * Tileset JSON: {"tileset": name, "tileSize": [x, y, z], "tiles": [{"id", "mesh" (a voxel template path,
 * relative to the tileset file), "weight", "sockets": {"+x", "-x", "+y", "-y", "+z", "-z"}, "tags": [...],
 * "rotatable", "rotations": [0, 90, 180, 270]}], "adjacency": {"a": ["a", "b"], ...} | [["a", "b"], ...],
 * "boundarySocket": "wall"}. `mesh` may also name a model (.glb, .gltf, .fbx, .obj: voxel_model.h), voxelized
 * to fit tileSize. Two tiles may be adjacent iff their facing sockets are paired by the adjacency table: the
 * seed's object form (socket -> the sockets it may face; a pair is allowed when either side lists the other)
 * or a list of pairs (either order). A face on the grid's boundary must face `boundarySocket` (optional; an
 * extension of the seed's schema so that no door leads out of a dungeon); a tileset that names none, like
 * the seed's example, leaves the boundary free. Each rotatable tile expands into one variant
 * per listed rotation (default all four), quarter turns about +y, +x towards +z: horizontal sockets rotate,
 * +y/-y stay; a tile's weight is shared equally by its variants.
 *
 * Solver (Gumin's algorithm): observe the undecided cell of least Shannon entropy (weights, plus a tiny
 * seeded noise for ties), collapse it by weight, propagate (AC-3 with a stack), and on a contradiction
 * backtrack through a trail of domain changes (bounded), then restart with a derived seed (bounded); when
 * both bounds run out it fails with ST_ERR_STATE and leaves no grid. The result is a pure function of
 * (tileset, size, seed, constraints).
 * Ownership: the caller destroys tilesets and frees grids. Threads: a loaded tileset is immutable and may
 * be shared; wfc_solve allocates its own scratch. */
#ifndef STRATA_WFC_H
#define STRATA_WFC_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/voxel_template.h"

enum { WFC_PX = 0, WFC_NX, WFC_PY, WFC_NY, WFC_PZ, WFC_NZ, WFC_DIRS };
#define WFC_MAX_VARIANTS 256
#define WFC_MAX_SOCKETS 64
#define WFC_MAX_TAGS 8
#define WFC_MAX_SIDE 64

extern const char *const WFC_DIR_NAMES[WFC_DIRS]; /* "+x", "-x", "+y", "-y", "+z", "-z" */

typedef struct WfcTile {
    char id[64];
    char mesh[256];            /* as written in the tileset */
    float weight;
    int sockets[WFC_DIRS];     /* socket indices */
    char tags[WFC_MAX_TAGS][32];
    int tag_count;
    VoxelTemplate mesh_template; /* cells NULL until wfc_tileset_load_templates */
} WfcTile;

typedef struct WfcVariant {
    int tile;                  /* index into tiles */
    int rotation;              /* quarter turns (0..3); degrees = 90 * rotation */
    float weight;
    int sockets[WFC_DIRS];     /* after rotation */
} WfcVariant;

typedef struct WfcTileset {
    char name[64];
    char path[512];
    int tile_size[3];
    int tile_count;
    WfcTile *tiles;
    int variant_count;
    WfcVariant *variants;
    int socket_count;
    char socket_names[WFC_MAX_SOCKETS][32];
    uint8_t pairs[WFC_MAX_SOCKETS][WFC_MAX_SOCKETS]; /* 1 where the adjacency table pairs two sockets */
    int boundary_socket;       /* -1: none named, the boundary constrains nothing */
    uint64_t *compat;          /* [dir][variant][words]: variants allowed next to a variant in dir */
    int words;
} WfcTileset;

StResult wfc_tileset_parse(const char *path, const char *text, WfcTileset **out);
StResult wfc_tileset_load(const char *path, WfcTileset **out);
/* Loads every tile's mesh template (paths relative to the tileset file); each must be tileSize. */
StResult wfc_tileset_load_templates(WfcTileset *ts, const BlockRegistry *blocks);
/* The same, with meshes that name a model voxelized (fitted to tileSize) through the cache folder `cache_dir`
 * (NULL: none; voxel_model_load_cached). */
StResult wfc_tileset_load_templates_cached(WfcTileset *ts, const BlockRegistry *blocks, const char *cache_dir);
void wfc_tileset_destroy(WfcTileset *ts);
int wfc_tileset_find_socket(const WfcTileset *ts, const char *name);
bool wfc_tile_has_tag(const WfcTile *tile, const char *tag);
/* May variant a have variant b as its neighbour in direction dir? */
bool wfc_variants_compatible(const WfcTileset *ts, int a, int dir, int b);

/* A cell fixed before solving: only variants whose tile carries `tag`. */
typedef struct WfcConstraint {
    int x, y, z;
    const char *tag;
} WfcConstraint;

typedef struct WfcGrid {
    int size[3];
    int16_t *tiles;            /* variant index per cell, index (y * size z + z) * size x + x */
    int restarts, backtracks;  /* statistics */
} WfcGrid;

static inline int wfc_grid_at(const WfcGrid *g, int x, int y, int z)
{
    return g->tiles[(y * g->size[2] + z) * g->size[0] + x];
}

/* Solves a grid of sx x sy x sz tiles (1..WFC_MAX_SIDE each). ST_ERR_STATE when the tileset cannot tile
 * it within the bounds (out untouched, nothing to free), ST_ERR_ARG for a bad size or constraint. */
StResult wfc_solve(const WfcTileset *ts, int sx, int sy, int sz, uint64_t seed, const WfcConstraint *constraints,
                   int constraint_count, WfcGrid *out);
void wfc_grid_free(WfcGrid *g);

#endif
