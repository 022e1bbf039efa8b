/* shapes.c — procedural shape brushes compiled to voxel volumes, and painted through the Editor.
 *
 * Design. Every shape but the tree is an inside test on the cell's offset from the origin, turned into the
 * shape's own frame (inverse yaw about +Y, then the axis swapped onto local +Y for cylinder, cone and
 * torus). Compiling scans the cube of the shape's bounding radius and keeps the inside cells (with
 * `hollow`, only those with one of their 6 neighbours outside), so the reference test and the volume can
 * never disagree about a cell. The rock is a sphere whose radius is scaled per direction by 3-octave
 * simplex FBM seeded by spec->seed. The tree is the L-system F -> F[+F][-F][&F][^F]F run to `iterations`
 * with a turtle: each rewrite scales the segment by 0.6, the four bracketed branches turn by `angle` about
 * two axes with a seeded jitter, and every branch tip gets a ball of leaves (trunk wins over leaves: trunk
 * cells are added first, leaves only where the brush is still empty). The cells go into a TerrainBrush (the
 * shape is a brush), compiled once; a stroke is brush Paint through the Editor's BrushWorld with the mode as
 * the selective predicate (replace, only into air, only into solid), one history entry. */
#include "strata/shapes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/noise.h"
#include "strata/rng.h"

static const char *const KIND_NAMES[SHAPE_KIND_COUNT] = {"sphere", "box", "cylinder", "cone", "torus", "plane", "rock", "tree"};
static const int KIND_SIZES[SHAPE_KIND_COUNT] = {1, 3, 2, 2, 2, 2, 1, 2};
static const char *const MODE_NAMES[SHAPE_PAINT_MODE_COUNT] = {"replace", "air", "solid"};

int shape_size_count(ShapeKind k) { return k >= 0 && k < SHAPE_KIND_COUNT ? KIND_SIZES[k] : 0; }
const char *shape_kind_name(ShapeKind k) { return k >= 0 && k < SHAPE_KIND_COUNT ? KIND_NAMES[k] : "?"; }

int shape_kind_parse(const char *name)
{
    for (int i = 0; i < SHAPE_KIND_COUNT; i++)
        if (!strcmp(name, KIND_NAMES[i])) return i;
    return -1;
}

int shape_mode_parse(const char *name)
{
    for (int i = 0; i < SHAPE_PAINT_MODE_COUNT; i++)
        if (!strcmp(name, MODE_NAMES[i])) return i;
    return -1;
}

/* The rock's noise table, built per compile (shape_inside builds its own when called alone). */
typedef struct ShapeCtx {
    const ShapeSpec *spec;
    float c, s;               /* cos, sin of yaw */
    NoiseTable noise;
    bool has_noise;
} ShapeCtx;

static void ctx_init(ShapeCtx *x, const ShapeSpec *spec)
{
    x->spec = spec;
    float yaw = spec->yaw_deg * 3.14159265f / 180.0f;
    x->c = cosf(yaw);
    x->s = sinf(yaw);
    x->has_noise = spec->kind == SHAPE_ROCK;
    if (x->has_noise) noise_table_init(&x->noise, spec->seed ^ 0x5eed0c4ull);
}

static bool ctx_inside(const ShapeCtx *x, int dx, int dy, int dz)
{
    const ShapeSpec *sp = x->spec;
    /* Inverse yaw about +Y. */
    float px = x->c * (float)dx + x->s * (float)dz;
    float pz = -x->s * (float)dx + x->c * (float)dz;
    float py = (float)dy;
    /* Axis onto local y (h); (u, v) across it. */
    float u = px, h = py, v = pz;
    if (sp->kind == SHAPE_CYLINDER || sp->kind == SHAPE_CONE || sp->kind == SHAPE_TORUS) {
        if (sp->axis == 0) { h = px; u = py; v = pz; }
        else if (sp->axis == 2) { h = pz; u = px; v = py; }
    }
    const float *S = sp->sizes;
    switch (sp->kind) {
    case SHAPE_SPHERE: return px * px + py * py + pz * pz <= S[0] * S[0];
    case SHAPE_BOX:
        return px >= -S[0] * 0.5f && px < S[0] * 0.5f && py >= -S[1] * 0.5f && py < S[1] * 0.5f &&
               pz >= -S[2] * 0.5f && pz < S[2] * 0.5f;
    case SHAPE_CYLINDER: return h >= 0.0f && h < S[1] && u * u + v * v <= S[0] * S[0];
    case SHAPE_CONE: {
        if (h < 0.0f || h >= S[1]) return false;
        float r = S[0] * (1.0f - h / S[1]);
        return u * u + v * v <= r * r;
    }
    case SHAPE_TORUS: {
        float ring = sqrtf(u * u + v * v) - S[0];
        return ring * ring + h * h <= S[1] * S[1];
    }
    case SHAPE_PLANE:
        return py >= 0.0f && py < S[0] && px >= -S[1] * 0.5f && px < S[1] * 0.5f && pz >= -S[1] * 0.5f &&
               pz < S[1] * 0.5f;
    case SHAPE_ROCK: {
        float d2 = px * px + py * py + pz * pz;
        if (d2 == 0.0f) return true;
        float inv = 1.5f / sqrtf(d2);
        float n = noise_fbm3(&x->noise, px * inv, py * inv, pz * inv, 3, 2.0f, 0.5f);
        float r = S[0] * (1.0f + 0.35f * n);
        return d2 <= r * r;
    }
    default: return false;
    }
}

bool shape_inside(const ShapeSpec *spec, int dx, int dy, int dz)
{
    ShapeCtx x;
    ctx_init(&x, spec);
    return ctx_inside(&x, dx, dy, dz);
}

static int bound_radius(const ShapeSpec *sp)
{
    const float *S = sp->sizes;
    float b = 1;
    switch (sp->kind) {
    case SHAPE_SPHERE: b = S[0]; break;
    case SHAPE_BOX: b = 0.5f * sqrtf(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]); break;
    case SHAPE_CYLINDER: case SHAPE_CONE: b = sqrtf(S[0] * S[0] + S[1] * S[1]); break;
    case SHAPE_TORUS: b = S[0] + S[1]; break;
    case SHAPE_PLANE: b = sqrtf(S[1] * S[1] * 0.5f + S[0] * S[0]); break;
    case SHAPE_ROCK: b = S[0] * 1.4f; break;
    default: break;
    }
    return (int)ceilf(b) + 1;
}

/* ---- the tree ------------------------------------------------------------------------------------------ */

typedef struct TreeCell { int32_t x, y, z, value, rank; } TreeCell;
typedef struct TreeBuild {
    TreeCell *items;
    int count, cap;
    int32_t trunk, leaves;
    float angle;
    Rng rng;
    bool failed;
} TreeBuild;

static void tree_put(TreeBuild *t, int x, int y, int z, int32_t value, int rank)
{
    if (t->failed) return;
    if (t->count == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        TreeCell *n = realloc(t->items, (size_t)cap * sizeof *n);
        if (!n) { t->failed = true; return; }
        t->items = n;
        t->cap = cap;
    }
    t->items[t->count++] = (TreeCell){x, y, z, value, rank};
}

static void rotate(float d[3], const float axis[3], float a)
{
    /* Rodrigues. */
    float c = cosf(a), s = sinf(a), k = axis[0] * d[0] + axis[1] * d[1] + axis[2] * d[2];
    float cx = axis[1] * d[2] - axis[2] * d[1], cy = axis[2] * d[0] - axis[0] * d[2], cz = axis[0] * d[1] - axis[1] * d[0];
    for (int i = 0; i < 3; i++) d[i] = d[i] * c + (i == 0 ? cx : i == 1 ? cy : cz) * s + axis[i] * k * (1.0f - c);
}

/* F -> F[+F][-F][&F][^F]F: draws F, then recurses. */
static void tree_grow(TreeBuild *t, float p[3], const float dir[3], float len, int depth)
{
    int steps = (int)ceilf(len * 2.0f);
    float q[3] = {p[0], p[1], p[2]};
    for (int i = 0; i <= steps; i++) {
        float f = len * (float)i / (float)(steps ? steps : 1);
        tree_put(t, (int)floorf(p[0] + dir[0] * f), (int)floorf(p[1] + dir[1] * f), (int)floorf(p[2] + dir[2] * f),
                 t->trunk, 1);
    }
    for (int a = 0; a < 3; a++) q[a] = p[a] + dir[a] * len;
    if (depth == 0) {
        int r = len >= 3.0f ? 2 : 1;
        for (int z = -r; z <= r; z++)
            for (int y = -r; y <= r; y++)
                for (int x = -r; x <= r; x++)
                    if (x * x + y * y + z * z <= r * r + 1)
                        tree_put(t, (int)floorf(q[0]) + x, (int)floorf(q[1]) + y, (int)floorf(q[2]) + z, t->leaves, 0);
        return;
    }
    /* Two axes across the direction. */
    float side[3] = {dir[2], 0.0f, -dir[0]};
    float sl = sqrtf(side[0] * side[0] + side[2] * side[2]);
    if (sl < 1e-3f) { side[0] = 1.0f; side[2] = 0.0f; sl = 1.0f; }
    for (int i = 0; i < 3; i++) side[i] /= sl;
    float other[3] = {dir[1] * side[2] - dir[2] * side[1], dir[2] * side[0] - dir[0] * side[2], dir[0] * side[1] - dir[1] * side[0]};
    for (int b = 0; b < 4; b++) {
        float d[3] = {dir[0], dir[1], dir[2]};
        float jitter = rng_float_range(&t->rng, -0.25f, 0.25f);
        float ang = t->angle * (1.0f + jitter) * (b & 1 ? -1.0f : 1.0f);
        rotate(d, b < 2 ? side : other, ang);
        float start[3] = {q[0], q[1], q[2]};
        tree_grow(t, start, d, len * 0.6f, depth - 1);
    }
    tree_grow(t, q, dir, len * 0.6f, depth - 1);
}

static StResult build_tree(const ShapeSpec *sp, TerrainBrush *out)
{
    TreeBuild t;
    memset(&t, 0, sizeof t);
    t.trunk = cell_make(sp->block, 0);
    t.leaves = cell_make(sp->leaves, 0);
    t.angle = (sp->angle_deg > 0.0f ? sp->angle_deg : 30.0f) * 3.14159265f / 180.0f;
    rng_init(&t.rng, sp->seed);
    float p[3] = {0.5f, 0.0f, 0.5f}, dir[3] = {0.0f, 1.0f, 0.0f};
    tree_grow(&t, p, dir, sp->sizes[1], (int)sp->sizes[0] - 1);
    if (t.failed) {
        free(t.items);
        return st_fail(ST_ERR_NOMEM, "brush tree: out of memory");
    }
    for (int rank = 1; rank >= 0; rank--)
        for (int i = 0; i < t.count; i++)
            if (t.items[i].rank == rank)
                brush_add_cell_if_empty(out, t.items[i].x, t.items[i].y, t.items[i].z, t.items[i].value, 0);
    free(t.items);
    return out->out_of_memory ? st_fail(ST_ERR_NOMEM, "brush tree: out of memory") : ST_OK;
}

/* ---- compile and paint ------------------------------------------------------------------------------------ */

StResult shape_build(const ShapeSpec *sp, TerrainBrush *out)
{
    if (sp->kind < 0 || sp->kind >= SHAPE_KIND_COUNT) return st_fail(ST_ERR_ARG, "brush: unknown shape %d", sp->kind);
    for (int i = 0; i < KIND_SIZES[sp->kind]; i++) {
        float hi = sp->kind == SHAPE_TREE && i == 0 ? 6.0f : (float)SHAPE_MAX_SIZE;
        if (!(sp->sizes[i] >= 1.0f && sp->sizes[i] <= hi))
            return st_fail(ST_ERR_ARG, "brush %s: size %d is %g, expected 1..%g (sizes stop at %d so one stroke stays "
                           "under a million cells)", KIND_NAMES[sp->kind], i + 1, (double)sp->sizes[i], (double)hi,
                           SHAPE_MAX_SIZE);
    }
    if (sp->axis < 0 || sp->axis > 2) return st_fail(ST_ERR_ARG, "brush: axis %d is not 0 (x), 1 (y) or 2 (z)", sp->axis);
    if (sp->kind == SHAPE_TREE) return build_tree(sp, out);
    ShapeCtx x;
    ctx_init(&x, sp);
    int b = bound_radius(sp);
    int32_t value = cell_make(sp->block, 0);
    /* z, x, y order: the order brush_compile keeps, so a shape's brush needs no sort */
    for (int dz = -b; dz <= b; dz++)
        for (int dx = -b; dx <= b; dx++)
            for (int dy = -b; dy <= b; dy++) {
                if (!ctx_inside(&x, dx, dy, dz)) continue;
                if (sp->hollow && ctx_inside(&x, dx + 1, dy, dz) && ctx_inside(&x, dx - 1, dy, dz) &&
                    ctx_inside(&x, dx, dy + 1, dz) && ctx_inside(&x, dx, dy - 1, dz) && ctx_inside(&x, dx, dy, dz + 1) &&
                    ctx_inside(&x, dx, dy, dz - 1))
                    continue;
                brush_add_cell(out, dx, dy, dz, value, 0);
            }
    return out->out_of_memory ? st_fail(ST_ERR_NOMEM, "brush: out of memory") : ST_OK;
}

StResult shape_compile(const ShapeSpec *sp, ShapeVolume *out)
{
    memset(out, 0, sizeof *out);
    TerrainBrush b;
    brush_init(&b);
    StResult rc = shape_build(sp, &b);
    if (rc == ST_OK) rc = brush_compile(&b, &out->brush);
    brush_free(&b);
    if (rc != ST_OK) return rc;
    const CompiledBrush *c = &out->brush;
    out->count = c->count;
    out->min[0] = c->min_x; out->min[1] = c->min_y; out->min[2] = c->min_z;
    out->max[0] = c->max_x; out->max[1] = c->max_y; out->max[2] = c->max_z;
    return ST_OK;
}

void shape_volume_free(ShapeVolume *v)
{
    if (!v) return;
    brush_compiled_free(&v->brush);
    memset(v, 0, sizeof *v);
}

static bool match_air(void *user, int32_t current)
{
    (void)user;
    return cell_contents(current) == BLOCK_AIR;
}

static bool match_solid(void *user, int32_t current)
{
    const BlockRegistry *b = user;
    return b->solid[cell_contents(current)];
}

void shape_mode_match(ShapePaintMode mode, const BlockRegistry *blocks, BrushMatch *match, void **user)
{
    *match = mode == SHAPE_PAINT_AIR ? match_air : mode == SHAPE_PAINT_SOLID ? match_solid : NULL;
    *user = mode == SHAPE_PAINT_SOLID ? (void *)blocks : NULL;
}

int shape_paint(Editor *e, const ShapeVolume *v, ShapePaintMode mode, int x, int y, int z)
{
    BrushMatch match;
    void *user;
    shape_mode_match(mode, editor_blocks(e), &match, &user);
    return editor_paint_brush(e, &v->brush, x, y, z, match, user);
}
