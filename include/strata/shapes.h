/* shapes.h — procedural shape brushes as voxel volumes: plane, box, sphere, cylinder, cone, torus, rock,
 * tree; and painting them into the world through the Editor.
 *
 * A ShapeSpec names the shape, its sizes, orientation, fill block, hollow option and paint mode. Sizes
 * (blocks; all 1..SHAPE_MAX_SIZE, the limit that keeps a stroke under ~1M cells and one undo entry):
 *   sphere R | box SX SY SZ | cylinder R H | cone R H (base cap at the bottom) | torus R r (ring radius,
 *   tube radius) | plane THICKNESS EXTENT (a square slab) | rock R (a sphere displaced by seeded noise) |
 *   tree ITERATIONS LENGTH (an L-system: F -> FF-[-F+F+F]+[+F-F-F] style rules, `angle`, trunk `block`,
 *   leaves `leaves` at the branch tips).
 * The volume is centred on the origin cell (the base of cylinder, cone and tree sits at the origin), turned
 * by yaw (degrees about +Y) and, for cylinder, cone and torus, laid along `axis` (0 x, 1 y, 2 z). Hollow
 * keeps only cells with a neighbour outside the volume (a one-cell shell). Paint modes: replace every cell,
 * only air (build around what is there), only solid (re-skin terrain).
 * shape_compile turns a spec into a ShapeVolume: the relative cells and their values (a tree's are trunk
 * and leaves), with bounds. shape_inside is the per-cell reference test the compile uses (exported for the
 * brute-force tests). shape_paint writes a volume at (x, y, z) as one history entry through
 * editor_change_cell. Threads: any for compile (pure), main for paint. Ownership: shape_volume_free. */
#ifndef STRATA_SHAPES_H
#define STRATA_SHAPES_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/edit.h"
#include "strata/error.h"

#define SHAPE_MAX_SIZE 64

typedef enum ShapeKind {
    SHAPE_SPHERE = 0, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_CONE, SHAPE_TORUS, SHAPE_PLANE, SHAPE_ROCK, SHAPE_TREE,
    SHAPE_KIND_COUNT
} ShapeKind;

typedef enum ShapePaintMode { SHAPE_PAINT_REPLACE = 0, SHAPE_PAINT_AIR, SHAPE_PAINT_SOLID, SHAPE_PAINT_MODE_COUNT } ShapePaintMode;

typedef struct ShapeSpec {
    ShapeKind kind;
    float sizes[3];
    float yaw_deg;
    int axis;                 /* 0 x, 1 y, 2 z */
    int block;                /* fill (tree: trunk) */
    int leaves;               /* tree only */
    bool hollow;
    ShapePaintMode mode;
    uint64_t seed;            /* rock, tree */
    float angle_deg;          /* tree: branch angle (0: 25) */
} ShapeSpec;

typedef struct ShapeVolume {
    int count, capacity;
    int32_t *items;           /* count * 4: dx, dy, dz, value */
    int min[3], max[3];       /* bounds of the cells (relative, inclusive) */
} ShapeVolume;

/* Number of sizes each kind takes, and its name ("sphere"). */
int shape_size_count(ShapeKind kind);
const char *shape_kind_name(ShapeKind kind);
int shape_kind_parse(const char *name);      /* -1 if unknown */
int shape_mode_parse(const char *name);      /* "replace" | "air" | "solid", or -1 */

/* Whether the relative cell (dx, dy, dz) is inside the filled shape (not for trees). Pure. */
bool shape_inside(const ShapeSpec *spec, int dx, int dy, int dz);
/* ST_ERR_ARG on sizes out of range (the message says why), ST_ERR_NOMEM. */
StResult shape_compile(const ShapeSpec *spec, ShapeVolume *out);
void shape_volume_free(ShapeVolume *volume);
/* Writes the volume at (x, y, z) honouring `mode`; one history entry. Returns the cells changed. */
int shape_paint(Editor *editor, const ShapeVolume *volume, ShapePaintMode mode, int x, int y, int z);

#endif
