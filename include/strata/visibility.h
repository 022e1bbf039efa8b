/* visibility.h — occlusion culling of chunk slices ("advanced cave culling", Tommaso Checchi's scheme).
 *
 * Purpose. Per slice (16 x 16 x 16 cells) the mesher records which pairs of the slice's 6 faces are joined
 * by a path through cells that are not opaque cubes: a 15-bit set, the slice's graph. At draw time a
 * breadth-first walk starts in the camera's slice and steps to a neighbour slice through face F only when
 * the slice it stands in joins the face it was entered by to F, F never points back towards the camera
 * (never opposite to a step already taken on the way) and the neighbour's box meets the view frustum. The
 * slices it reaches are the ones that can show anything; the rest are hidden behind opaque cubes. Then
 * the chunks' occluder columns (the highest opaque run of each column) make a horizon around the camera,
 * and a reached slice wholly below it, behind nearer columns, is dropped too (a hill hides the forest
 * behind it, which the walk cannot see: air above the hill joins every face of its slices).
 * A slice whose graph is unknown (no geometry yet, no chunk) counts as fully open, so culling never hides
 * what it cannot prove hidden.
 * Ownership. VisibilityWalk is opaque: visibility_walk_create / visibility_walk_destroy; the graphs stay
 * with their callers (ChunkGeometry, ChunkMesh, the renderer's chunk table) and are read through a callback.
 * Threads. visibility_graph_from_opaque is pure (any thread); a VisibilityWalk is used by one thread at a
 * time (the renderer's, or a benchmark's). No GL: tests and strata-bench run the same walk. */
#ifndef STRATA_VISIBILITY_H
#define STRATA_VISIBILITY_H

#include <stdbool.h>
#include <stdint.h>

/* Faces of a slice, in this order; the opposite of face f is f ^ 1. */
#define VISIBILITY_FACE_NEG_X 0
#define VISIBILITY_FACE_POS_X 1
#define VISIBILITY_FACE_NEG_Y 2
#define VISIBILITY_FACE_POS_Y 3
#define VISIBILITY_FACE_NEG_Z 4
#define VISIBILITY_FACE_POS_Z 5
#define VISIBILITY_FACES 6

#define VISIBILITY_ALL_OPEN 0x7FFFu   /* every pair of faces joined (an empty slice, or unknown) */
#define VISIBILITY_SLICE 16           /* a slice is 16 cells on each side */

/* The bit of the pair (a, b), a != b, in a 15-bit graph. Pure. */
int visibility_pair_bit(int a, int b);
/* Whether a graph joins faces a and b (a != b). Pure. */
bool visibility_connects(uint16_t graph, int a, int b);

/* The graph of one slice. opaque[x + 16 * z] holds bit y set where slice-local cell (x, y, z) is an opaque
 * cube (one that hides what is behind it). Pure; any thread. */
uint16_t visibility_graph_from_opaque(const uint16_t opaque[VISIBILITY_SLICE * VISIBILITY_SLICE]);

#define VISIBILITY_OCCLUDER_SPAN 1      /* occluders: per group of SPAN x SPAN columns (1 or 2) */
#define VISIBILITY_OCCLUDER_GROUPS (16 / VISIBILITY_OCCLUDER_SPAN) /* per chunk side */

/* What the walk knows of one chunk: its slices' graphs, and its occluders: per group of columns (index
 * gx + GROUPS gz; with SPAN 1 one column each) the highest run of rows in which all its columns are opaque
 * cubes (at most 32 rows of it), rows occluder_bottom .. occluder_top inclusive (none where top < bottom).
 * Everything behind such a box, seen from anywhere, is hidden by it. */
typedef struct VisibilityChunk {
    bool known;                /* filled by the mesher; false (e.g. zeroed): the walk treats it as unknown */
    uint16_t slice_graph[16];
    /* per slice, the rows its geometry spans, relative to the slice's lowest (0..16; low > high: none):
     * the occlusion test's box (unknown: 0..16) */
    uint8_t slice_low[16], slice_high[16];
    uint8_t occluder_bottom[VISIBILITY_OCCLUDER_GROUPS * VISIBILITY_OCCLUDER_GROUPS];
    uint8_t occluder_top[VISIBILITY_OCCLUDER_GROUPS * VISIBILITY_OCCLUDER_GROUPS];
} VisibilityChunk;

/* Sets a VisibilityChunk to "unknown" (known false): every slice open, no occluders. Pure. */
void visibility_chunk_init(VisibilityChunk *chunk);

/* What the walk knows of chunk (coord_x, coord_z), or NULL when unknown (then every slice is open and it
 * hides nothing). */
typedef const VisibilityChunk *(*VisibilityGraphFn)(void *user, int coord_x, int coord_z);

typedef struct VisibilityView {
    double camera[3];          /* eye position, world blocks */
    float planes[6][4];        /* frustum planes (a, b, c, d: inside where a x + b y + c z + d >= 0), in
                                * coordinates relative to the camera (x - camera[0], ...); all zero = none */
    int radius_chunks;         /* chunks farther than this (horizontally, in chunks from the camera's) are
                                * neither walked nor drawn */
    bool occlusion;            /* also drop reached slices wholly hidden behind the chunks' occluder columns */
    uint64_t occluders_epoch;  /* 0: build the horizon every run. Otherwise the caller's count of changes to
                                * any chunk's VisibilityChunk (an upload, a release): while it, the camera
                                * position and the square stay the same the last horizon is reused (it does
                                * not depend on where the camera looks, only on where it is). */
    int horizon_rest;          /* 0: a moving camera gets a new horizon every run. Otherwise, when a new
                                * horizon dropped under 1/16 of the reached slices, the next horizon_rest
                                * runs with a moved camera build none and drop nothing (visibility_walk.c) */
} VisibilityView;

typedef struct VisibilityWalk VisibilityWalk;

/* NULL on allocation failure. */
VisibilityWalk *visibility_walk_create(void);
void visibility_walk_destroy(VisibilityWalk *walk);

/* Walks from the camera's slice; with view->occlusion, then builds the horizon of the occluder columns of
 * the chunks in the square (per azimuth and distance band, the ray slopes that surely end on a column)
 * and drops each reached slice whose geometry's box lies wholly within it, behind nearer columns. Both
 * steps only ever err towards drawing. A camera above or below the world, one not finite or farther than 1e9
 * blocks from the origin, or a walk that cannot allocate its grid, marks every slice visible
 * (visibility_walk_slices then answers 0xFFFF). Returns ST_OK-like 0, or -1
 * on allocation failure (still usable: everything visible). */
int visibility_walk_run(VisibilityWalk *walk, const VisibilityView *view, VisibilityGraphFn graph, void *user);
/* The slices of chunk (coord_x, coord_z) the last walk reached: bit s = slice s (y 16 s .. 16 s + 15). */
uint16_t visibility_walk_slices(const VisibilityWalk *walk, int coord_x, int coord_z);
/* Whether a box (world blocks) lies wholly behind the occluders of the last run's horizon, seen from the
 * camera of `view` (the last run's: false for any other, and when that run built or used none: occlusion
 * off, a skipped horizon, a camera not judged). Any distance: beyond the walked square everything the
 * horizon holds is nearer (the far terrain's patches). */
bool visibility_walk_hides(const VisibilityWalk *walk, const VisibilityView *view, const double lo[3],
                           const double hi[3]);
/* Slices the last walk reached, in all, and of those the ones occlusion dropped (tests, the benchmark). */
int visibility_walk_reached(const VisibilityWalk *walk);
int visibility_walk_occluded(const VisibilityWalk *walk);

/* Frustum planes from a column-major 4x4 view-projection matrix (camera-relative, as the renderer builds
 * it; the same extraction as cglm's glm_frustum_planes: normalised, inside >= 0). Pure. */
void visibility_planes_from_matrix(const float m[16], float planes[6][4]);

/* Draw runs of a chunk mesh laid out subset-major, slice-minor (ChunkMesh): for each subset k in
 * subset_mask (k < subsets) and each slice in `slices`, its vertices, joined into contiguous runs (an empty
 * slice or subset joins any run). first[k], count[k]: subset k's first vertex and vertices in the buffer;
 * slice_vertices[k][s]: slice s's share; where they do not add up to count[k] (a mesh made without slices)
 * the whole subset counts as one slice, drawn when any slice is. Writes at most subsets * 16 runs (start
 * vertex, vertices); returns how many. Pure: the renderer draws these, tests and strata-bench count them. */
int visibility_draw_runs(int subsets, const int *first, const int *count, const int (*slice_vertices)[16],
                         unsigned subset_mask, uint16_t slices, int *run_first, int *run_count);

#endif
