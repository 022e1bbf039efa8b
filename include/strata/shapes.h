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
 * Each shape is a TerrainBrush (brush.h): shape_build adds its cells (fixed values: the fill block, or a
 * tree's trunk and leaves) to a brush, so counters, handlers and selective paint apply to it like to any
 * brush. shape_compile builds and compiles it into a ShapeVolume: the CompiledBrush plus its cell count and
 * bounds. shape_inside is the per-cell reference test the build uses (exported for the brute-force tests).
 * shape_paint is the stroke: the volume's brush painted on the world with editor_paint_brush (the Editor's
 * BrushWorld, so ChangeCell, notifications, and one history entry), selective by `mode`;
 * shape_mode_match gives the predicate of a mode for brush_count_match / brush_paint_where.
 * Threads: any for build and compile (pure), main for paint. Ownership: shape_volume_free. */
#ifndef STRATA_SHAPES_H
#define STRATA_SHAPES_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/brush.h"
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
    CompiledBrush brush;      /* the shape's cells, relative to the origin, paint-ready */
    int count;                /* brush.count */
    int min[3], max[3];       /* bounds of the cells (relative, inclusive) */
} ShapeVolume;

/* Number of sizes each kind takes, and its name ("sphere"). */
int shape_size_count(ShapeKind kind);
const char *shape_kind_name(ShapeKind kind);
int shape_kind_parse(const char *name);      /* -1 if unknown */
int shape_mode_parse(const char *name);      /* "replace" | "air" | "solid", or -1 */

/* Whether the relative cell (dx, dy, dz) is inside the filled shape (not for trees). Pure. */
bool shape_inside(const ShapeSpec *spec, int dx, int dy, int dz);
/* Adds the shape's cells to `brush` (which the caller may have cleared; cells already there at the same
 * positions are replaced). ST_ERR_ARG on sizes out of range (the message says why), ST_ERR_NOMEM. */
StResult shape_build(const ShapeSpec *spec, TerrainBrush *brush);
/* shape_build into a fresh brush, compiled. Errors as shape_build; *out is then empty. */
StResult shape_compile(const ShapeSpec *spec, ShapeVolume *out);
void shape_volume_free(ShapeVolume *volume);
/* The predicate of a paint mode over a target's current value, with its user pointer (the registry for
 * "solid"); *match is NULL for SHAPE_PAINT_REPLACE (paint everywhere). */
void shape_mode_match(ShapePaintMode mode, const BlockRegistry *blocks, BrushMatch *match, void **user);
/* The stroke: paints the volume at (x, y, z) honouring `mode`, through the Editor; one history entry.
 * Returns the cells changed. */
int shape_paint(Editor *editor, const ShapeVolume *volume, ShapePaintMode mode, int x, int y, int z);

#endif
