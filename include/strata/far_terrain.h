/* far_terrain.h — far terrain: a quadtree of patches of block columns beyond the voxel view distance (no GL).
 *
 * Purpose. Shows kilometres of terrain cheaply, in the voxel chunks' style (after Distant Horizons): square
 * patches of FAR_PATCH_QUADS x FAR_PATCH_QUADS columns at every level, so that a column is 1, 2, 4, 8 and 16
 * blocks wide at levels 0..4 (about 6 to 12 pixels at 720p, fov 75, in its level's distance band: distant mountains
 * stand as stepped slopes, not towers), level 0 the finest (FAR_LEVEL0_SIZE blocks a side) and each level
 * twice the size of the one below, up to FAR_LEVELS - 1. A leaf at distance d (camera to its nearest point) has
 * the smallest level L with d < distance[L] * bias (defaults 80, 160, 320, 640 blocks; beyond: the coarsest
 * level). The generator is sampled only on a grid, 8 x 8 cells a patch (4 << level blocks apart), shared by
 * neighbouring patches and levels (the far worker's cache, far_terrain_lattice.c); a column is drawn as the
 * voxels draw a block (far_terrain_columns.c): a flat top at the grid's height mixed at its centre, rounded to
 * the top of its ground cell at levels 0 and 1 (next to the voxel chunks, as they stand it) and from level 2 on
 * to the nearest multiple of its width (cubes as wide as the column), a vertical side toward each
 * lower neighbour, one colour a face (its nearest grid point's surface block, top or side, under the climate's
 * tint: FarPalette) shaded by the face's direction as the mesher shades; woodland's canopy (Generator.tree_cover,
 * mixed between the grid's points) a volume of leaves over its ground; water flat at the voxel sea's level,
 * darker as it deepens. Triangles are what far terrain costs a software renderer: equal tops are merged, and
 * the sides facing away from the camera are not drawn (far_patch_runs). Seams: a border column hangs its side (a
 * skirt) down to the neighbour patch's column there, whatever its level, and deeper. The renderer leaves out
 * far pixels over drawn voxel chunks, so the far surface is not sunk under them but for the land's `sink` (2
 * blocks in the game: the chunks' half-resolution copies round their ground by a block); leaves wholly inside
 * the voxel view distance are not made.
 *
 * Ownership and threads. far_terrain_create starts one worker thread (own mutex and condition variable,
 * independent of the voxel update worker, so it never delays voxel chunks) that builds patches; the main
 * thread calls far_terrain_update once a frame, which chooses the leaves, queues missing ones (distance or
 * direction priority) and adopts at most StreamingBudgetPerFrame finished patches. The patches returned by
 * far_terrain_patches belong to the FarTerrain and stay valid until the next far_terrain_update; the set
 * only switches to a new cut once every patch of it is built, so there is never a hole nor an overlap.
 * The pure functions (level choice, patch building) may be called from any thread. */
#ifndef STRATA_FAR_TERRAIN_H
#define STRATA_FAR_TERRAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"

#define FAR_LEVELS 5
#define FAR_PATCH_QUADS 32          /* columns a side of a patch (far_terrain_patch_quads): level L's 1 << L blocks wide */
#define FAR_LEVEL0_SIZE 32           /* blocks a side of a level-0 patch (1 block a column) */
#define FAR_DEFAULT_DISTANCE 2048    /* blocks: a player sees about 2 km */

typedef enum FarPriorityMode { FAR_PRIORITY_DISTANCE_BASED = 0, FAR_PRIORITY_DIRECTION_BASED } FarPriorityMode;

typedef struct FarTerrainSettings {
    float lod_distance[FAR_LEVELS - 1]; /* switching distances of levels 0..3 (blocks) */
    float lod_bias;                     /* > 1: finer farther; 1 by default */
    float far_distance;                 /* blocks; patches beyond are not made (0: off) */
    float voxel_distance;               /* blocks covered by voxel chunks (the view distance * 16) */
    float load_radius;                  /* LoadRadius: leaves nearer than this are built (= far_distance) */
    float unload_radius;                /* UnloadRadius: cached patches farther than this are freed */
    int streaming_budget_per_frame;     /* StreamingBudgetPerFrame: finished patches adopted per frame */
    FarPriorityMode priority_mode;      /* PriorityMode: DistanceBased or DirectionBased */
} FarTerrainSettings;

/* The colours far terrain gives the blocks it shows from above (Generator.surface_block): `top[id]` is block
 * id's top face without its tint (a grass, foliage or water block takes its climate's tint times it, as the
 * mesher does). far_palette_init takes blocks.json's map colours, white for tinted blocks; the game puts in
 * the atlas tiles' mean colours (renderer_far_palette), so that the far surface goes on in the colours
 * of the voxel chunks where the two meet. */
typedef struct FarPalette {
    const BlockRegistry *blocks;   /* which blocks are tinted, and how */
    uint8_t top[BLOCK_MAX][3];
    uint8_t side[BLOCK_MAX][3];    /* the side face's (+X) colour likewise: a far column's sides */
} FarPalette;
void far_palette_init(FarPalette *palette, const BlockRegistry *blocks);

/* 16 bytes: patch-local x, z (blocks from the patch origin), world y, RGBA (alpha FAR_WATER_ALPHA: the sea's
 * top; FAR_FLOOR_ALPHA: a sea square's floor; else 255). */
#define FAR_WATER_ALPHA 254
#define FAR_FLOOR_ALPHA 253   /* a sea square's floor (far.frag draws it over drawn chunks too) */
#define FAR_FLOOR_Y 2.0f
typedef struct FarVertex {
    float x, y, z;
    uint8_t color[4];
} FarVertex;

#define FAR_PATCH_BLOCK_QUADS 8   /* columns a side of the squares far_patch_runs keeps or leaves out */
#define FAR_PATCH_MAX_SQUARES ((FAR_PATCH_QUADS / FAR_PATCH_BLOCK_QUADS) * (FAR_PATCH_QUADS / FAR_PATCH_BLOCK_QUADS))
/* A square's indices: its tops (and a sea square's floor), then its sides in four groups by the way they face:
 * FAR_SIDES_POS_X, _POS_Z, _NEG_X, _NEG_Z (FarPatch.square_sides). */
enum { FAR_SIDES_POS_X = 0, FAR_SIDES_POS_Z, FAR_SIDES_NEG_X, FAR_SIDES_NEG_Z };

typedef struct FarPatch {
    int level, px, pz;                  /* patch (px, pz) of its level: origin (px, pz) * size */
    uint8_t coarser[4];                 /* level of the neighbour across +X, -X, +Z, -Z when coarser, else own */
    double origin_x, origin_z;          /* world blocks */
    FarVertex *vertices;
    uint16_t *indices;
    int vertex_count, index_count;
    int quads;                          /* columns a side: far_terrain_patch_quads */
    int blocks;                         /* the indices come in blocks x blocks squares of (at most
                                         * FAR_PATCH_BLOCK_QUADS) columns a side, row by row (z, then x): the
                                         * square's tops and the sides its columns own (skirts on the border) */
    int square_first[FAR_PATCH_MAX_SQUARES + 1]; /* first index of each square; [blocks^2]: their end */
    int square_sides[FAR_PATCH_MAX_SQUARES][4];  /* first index of each of its side groups (FAR_SIDES_*); a
                                                  * group ends where the next begins (the last: the square's end) */
    int tops_first, tops_count;         /* after the squares: the patch's tops merged across its squares (none
                                         * where that saves no quad), drawn instead of the squares' own tops when
                                         * every square is drawn in the plain runs (far_patch_runs_split) */
    uint32_t square_water;              /* bit b: square b has a top of the sea (far_patch_runs keeps it) */
    float square_min_y[FAR_PATCH_MAX_SQUARES], square_max_y[FAR_PATCH_MAX_SQUARES]; /* each square's lowest and
                                                  * highest vertex (skirts and a sea floor included): its box */
    float *tops;                        /* quads x quads: each column's top (z, then x) */
    uint64_t key;                       /* level, px, pz and the stitching: same key, same mesh */
    float min_y, max_y;
} FarPatch;

typedef struct FarTerrain FarTerrain;

void far_terrain_settings_default(FarTerrainSettings *s);
/* SetLODDistance(level, d) for level 0..3 and SetLODBias(b) (b > 0). */
void far_terrain_set_lod_distance(FarTerrainSettings *s, int level, float distance);
void far_terrain_set_lod_bias(FarTerrainSettings *s, float bias);
/* The level of a leaf whose nearest point is `distance` blocks away. Pure. */
int far_terrain_level_for_distance(const FarTerrainSettings *s, float distance);
/* Edge length of a patch of `level` in blocks. */
int far_terrain_patch_size(int level);
/* Columns a side of a patch of `level`: FAR_PATCH_QUADS at every level (columns 1 << level blocks wide). */
int far_terrain_patch_quads(int level);

/* Surface sample at world (x, z): the top of a far column centred there before sinking (the ground cell's
 * top; water: the voxel sea's surface; woodland: its canopy's) and its top colour: the palette's colour of the
 * generator's surface block there, tinted by the climate (a generator without surface_block: water or
 * grass). Pure (the generator is immutable); any thread. */
float far_terrain_sample(const Generator *gen, const FarPalette *palette, double x, double z, uint8_t rgb[3],
                         bool *water);
/* Builds the mesh of one patch into `out` (which owns it afterwards: far_patch_free). `coarser` as in
 * FarPatch; `sink` lowers the land by that many blocks (never under the sea's surface; the sea stays).
 * ST_ERR_NOMEM. */
StResult far_patch_build(const Generator *gen, const FarPalette *palette, int level, int px, int pz,
                         const uint8_t coarser[4], float sink, FarPatch *out);
void far_patch_free(FarPatch *patch);
/* Whether voxel chunks are drawn over all of the square x0..x1 by z0..z1 (world blocks) now. */
typedef bool (*FarCoveredFn)(void *user, double x0, double z0, double x1, double z1);
#define FAR_PATCH_MAX_RUNS (3 * FAR_PATCH_MAX_SQUARES)
/* Index runs of a built patch to draw for a camera at (cam_x, cam_z) whose voxel chunks reach `voxel_cover`
 * blocks: its squares (FarPatch.blocks, each with its tops and those of its side groups, skirts included, that
 * may face the camera: a group facing away is all back faces, and is left out), but those wholly inside that disc
 * that `covered` (NULL: all) says are under drawn chunks (chunks still loading leave no hole) and that have
 * no top of the sea (far.frag shades the sea under drawn chunks' water where their floor is missing); runs that
 * touch are joined. Writes at most FAR_PATCH_MAX_RUNS (first index, index count) pairs; returns their count. */
int far_patch_runs(const FarPatch *patch, double cam_x, double cam_z, double voxel_cover, FarCoveredFn covered,
                   void *user, int *first, int *count);
/* Whether the box lo..hi (world blocks) may be seen now: in the view and not behind the horizon's occluders. */
typedef bool (*FarSeenFn)(void *user, const double lo[3], const double hi[3]);
/* far_patch_runs, but the squares that `touches` (NULL: none) says reach a drawn chunk go to the touched runs
 * (*touched_runs of them; the renderer draws those with the build that leaves out pixels over drawn chunks), and
 * the squares whose box (FarPatch.square_min_y / square_max_y) `seen` (NULL: all seen) says cannot be seen,
 * off-screen or behind a hill, are left out. When every square goes to the plain runs, the patch's merged tops
 * (FarPatch.tops_first) stand in for the squares' own (far_patch_runs likewise). */
int far_patch_runs_split(const FarPatch *patch, double cam_x, double cam_z, double voxel_cover, FarCoveredFn covered,
                         void *user, FarCoveredFn touches, void *touches_user, FarSeenFn seen, void *seen_user,
                         int *first, int *count, int *touched_first, int *touched_count, int *touched_runs);
/* Height of a built patch's surface at world (x, z) inside it, as drawn: the top of the column there. */
float far_patch_height_at(const FarPatch *patch, double x, double z);

/* The leaves for a camera at (x, z): fills out[] (at most max) with (level, px, pz, coarser[4]) and returns
 * their count. Leaves wholly inside voxel_distance or beyond far_distance are left out. Pure. */
int far_terrain_select(const FarTerrainSettings *s, double cam_x, double cam_z, FarPatch *out, int max);

typedef struct FarTerrainStats {
    int patches_drawn, patches_cached, jobs_pending;
    long triangles;
} FarTerrainStats;

/* Starts the worker. `gen` and the palette's blocks must outlive the FarTerrain (the palette is copied).
 * ST_ERR_NOMEM, ST_ERR_STATE. */
StResult far_terrain_create(const Generator *gen, const FarPalette *palette, const FarTerrainSettings *s,
                            FarTerrain **out);
void far_terrain_destroy(FarTerrain *ft);
/* Main thread, once a frame: camera position and horizontal view direction (for DirectionBased). */
void far_terrain_update(FarTerrain *ft, double cam_x, double cam_z, float dir_x, float dir_z);
/* The patches to draw now (complete cut); valid until the next far_terrain_update. */
int far_terrain_patches(const FarTerrain *ft, const FarPatch *const **out);
/* Blocks until every patch of the wanted cut is built and adopted (screenshots, tests). */
void far_terrain_flush(FarTerrain *ft, double cam_x, double cam_z);
/* Main thread: frees the vertices and indices (FarPatch.vertices/indices become NULL; the counts, squares and
 * tops stay) of every cached patch for which keep(user, key) says a copy lives elsewhere (the renderer's GPU
 * buffers) and stays there until far_terrain_take_forgotten reports the key: the far terrain's meshes are then
 * kept once, not twice. A patch wanted again after the cache dropped it is rebuilt. */
typedef bool (*FarKeepFn)(void *user, uint64_t key);
void far_terrain_release_meshes(FarTerrain *ft, FarKeepFn keep, void *user);
/* Main thread: the keys of released patches the cache has dropped since the last call (*keys valid until the
 * next far_terrain_update, flush or take). */
int far_terrain_take_forgotten(FarTerrain *ft, const uint64_t **keys);
void far_terrain_get_stats(const FarTerrain *ft, FarTerrainStats *stats);
const FarTerrainSettings *far_terrain_settings(const FarTerrain *ft);
/* The voxel view distance changed (blocks, the view distance * 16): from the next update the cut leaves out
 * leaves wholly inside the new distance and fills the ring the voxel chunks gave up; the old cut stays
 * drawn until the new one is complete. Main thread. */
void far_terrain_set_voxel_distance(FarTerrain *ft, float voxel_distance);

#endif
