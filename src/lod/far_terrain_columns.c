/* far_terrain_columns.c — one far patch's mesh: block columns in the voxel chunks' style.
 *
 * Design. A patch of level L is a grid of 32 x 32 columns (1 block wide at level 0, then 2, 4, 8 and 16: twice
 * as wide each level up, as the distance bands double). The generator is not asked per column: the patch's 9 x 9
 * points of its level's height grid (far_terrain_lattice.c, 4 << L blocks apart, shared with its neighbours and
 * the levels above and below) are, and a column's height is their bilinear mix at its centre, rounded to the
 * top of the ground cell (levels 0 and 1, next to the voxel chunks, as they stand it) or from level 2 on to the
 * nearest multiple of its width (a stack of cubes as wide as the column), the voxel sea's surface (14/16 of
 * a cell over the sea level) where the mix is under the sea, and woodland's canopy FAR_CANOPY_HEIGHT blocks
 * over its ground where the grid's tree cover, mixed likewise, reaches FAR_CANOPY_COVER. Its colours are its
 * nearest grid point's (its surface block, Generator.surface_block with the voxels' snow and sand rules, in the
 * palette under the climate's tint), or the nearest corner's that agrees with it on sea and canopy (a coast, a
 * wood's edge); the sea is shaded by the column's own depth. It is drawn as the voxels draw a block: a flat
 * top, and a vertical side wherever its neighbour is lower, each face one flat colour shaded by its direction
 * as the mesher shades faces (top 1, +-Z 0.9, +-X 0.8); a side takes the block's side tile and, under its first
 * block, the ground's (dirt under grass, stone under snow), mixed by their shares of its height in one quad.
 * Triangles are what far terrain costs a software renderer: tops of equal height and colour are merged into
 * rectangles and neighbouring sides of equal top and colour into strips (down to the lowest of their steps:
 * what lies below a column's own step is inside the lower columns, hidden), both within the squares of
 * FAR_PATCH_BLOCK_QUADS columns that far_patch_runs keeps or leaves out (each square holds its tops, then the
 * sides its columns own in four groups by facing, +X, +Z, -X, -Z, so that far_patch_runs leaves out the groups
 * that face away from the camera, and its box, lowest to highest vertex, for the renderer's per-square view
 * culling; a sea patch is a few quads). After the squares come the patch's tops merged across the squares'
 * borders (FarPatch.tops_first: 20-30% fewer top quads; from level 2 on), which far_patch_runs draws instead of
 * the squares' own when every square is drawn; kept only where they save quads. A border column hangs its side
 * toward the patch beyond down to that neighbour's column where that is lower (a coarser one's own, else the
 * lowest of ours and the finer level's there) and FAR_SKIRT_DEPTH deeper: the skirt that keeps cracks closed.
 * The far surface is not sunk under the voxel chunks: the renderer leaves out every far pixel over a drawn
 * chunk (far.frag's cover map), so where the voxel chunks end the far columns go on at the voxels' height
 * (the game lowers the land by `sink`, 2 blocks, for the half-resolution copies' rounding). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "far_internal.h"

#define FAR_FLOOR_LEVELS 3      /* levels whose sea squares have a floor: those that reach under a chunk table of
                                  * view distance 16 and less (its corners: 407 blocks; level 4 from 640); farther,
                                  * never drawn */
#define FAR_CUBE_LEVEL 2        /* levels from which a column's top is rounded to a cube of its width */
#define FAR_MERGED_LEVEL 2      /* levels from which a patch keeps its tops merged across its squares: level 1's
                                  * would save 8%, and lie next to the voxel chunks, where most of its patches have
                                  * a square left out or drawn in the touched runs (then the squares' own tops) */
#define FAR_SKIRT_DEPTH 0.25f   /* blocks a border's side reaches below the neighbour's column */
#define FAR_MAX_COLUMNS 32                     /* columns a side, the most a level may have */
#define FAR_RING (FAR_MAX_COLUMNS + 2)         /* with the neighbours' ring */

typedef struct FarColumn {
    float top;          /* height of the column's top face */
    float ground;       /* where its side changes to the ground's colour (top - 1 block; canopy: its ground) */
    uint8_t rgb[3];     /* top colour */
    uint8_t side[3];    /* the first block's side colour */
    uint8_t under[3];   /* the ground's colour further down */
    bool water;
} FarColumn;

typedef struct FarMesh {
    FarVertex *v;
    uint16_t *idx;
    int nv, ni, cap_v, cap_i;
    float min_y, max_y;
    bool failed;
} FarMesh;

static void far_mesh_quad(FarMesh *m, const float p[4][3], const uint8_t rgb[3], float shade, uint8_t alpha)
{
    if (m->nv + 4 > m->cap_v || m->ni + 6 > m->cap_i) {
        m->failed = true;
        return;
    }
    uint8_t c[3];
    for (int i = 0; i < 3; i++) c[i] = (uint8_t)lrintf((float)rgb[i] * shade);
    uint16_t base = (uint16_t)m->nv;
    for (int k = 0; k < 4; k++) {
        FarVertex *v = &m->v[m->nv++];
        v->x = p[k][0];
        v->y = p[k][1];
        v->z = p[k][2];
        memcpy(v->color, c, 3);
        v->color[3] = alpha;
        m->min_y = fminf(m->min_y, v->y);
        m->max_y = fmaxf(m->max_y, v->y);
    }
    /* p[0..3] counter-clockwise seen from the side the face looks to */
    uint16_t q[6] = {base, (uint16_t)(base + 1), (uint16_t)(base + 2), base, (uint16_t)(base + 2), (uint16_t)(base + 3)};
    memcpy(&m->idx[m->ni], q, sizeof q);
    m->ni += 6;
}

static bool far_same_rgb(const uint8_t a[3], const uint8_t b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static bool far_same_top(const FarColumn *a, const FarColumn *b)
{
    return a->top == b->top && far_same_rgb(a->rgb, b->rgb);
}

/* Tops of square (x0..x1, z0..z1) (column indices), merged greedily into rectangles. */
static void far_mesh_tops(FarMesh *m, FarColumn (*col)[FAR_RING], int x0, int z0, int x1, int z1, float w)
{
    bool used[FAR_MAX_COLUMNS][FAR_MAX_COLUMNS] = {{false}};
    for (int j = z0; j < z1; j++)
        for (int i = x0; i < x1; i++) {
            if (used[j - z0][i - x0]) continue;
            const FarColumn *c = &col[j + 1][i + 1];
            int i1 = i + 1, j1 = j + 1;
            while (i1 < x1 && !used[j - z0][i1 - x0] && far_same_top(c, &col[j + 1][i1 + 1])) i1++;
            for (; j1 < z1; j1++) {
                bool row = true;
                for (int k = i; k < i1 && row; k++) row = !used[j1 - z0][k - x0] && far_same_top(c, &col[j1 + 1][k + 1]);
                if (!row) break;
            }
            for (int jj = j; jj < j1; jj++)
                for (int k = i; k < i1; k++) used[jj - z0][k - x0] = true;
            float ax = i * w, bx = i1 * w, az = j * w, bz = j1 * w, y = c->top;
            const float p[4][3] = {{ax, y, az}, {ax, y, bz}, {bx, y, bz}, {bx, y, az}};   /* ccw from +Y */
            far_mesh_quad(m, p, c->rgb, 1.0f, c->water ? FAR_WATER_ALPHA : 255);   /* far.frag: the sea's top */
        }
}

/* The colour of column c's side from y0 down to y1 (its visible extent): the block's side colour and the
 * ground's below c->ground, each by its share of the side's height (a cliff of grass reads as dirt, a step of
 * one block as grass). */
static void far_side_rgb(const FarColumn *c, float y0, float y1, uint8_t rgb[3])
{
    float split = c->ground > y1 ? c->ground : y1, upper = y0 - split, height = y0 - y1;
    for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)lrintf((c->side[i] * upper + c->under[i] * (height - upper)) / height);
}

/* A side facing direction d (0 +X, 1 -X, 2 +Z, 3 -Z) from y0 down to y1, spanning along the border from s0 to
 * s1 (blocks, patch-local), at the border coordinate e, in colour rgb. One quad (triangles are what the far
 * terrain costs). */
static void far_mesh_side(FarMesh *m, const uint8_t rgb[3], int d, float e, float s0, float s1, float y0, float y1)
{
    static const float shade[4] = {0.8f, 0.8f, 0.9f, 0.9f};
    if (y0 - y1 <= 1e-4f) return;
    float p[4][3];
    /* counter-clockwise seen from outside, along +s for -X and +Z, along -s for +X and -Z */
    float a = d == 0 || d == 3 ? s1 : s0, b = d == 0 || d == 3 ? s0 : s1;
    float corners[4][2] = {{a, y0}, {a, y1}, {b, y1}, {b, y0}};
    for (int k = 0; k < 4; k++) {
        p[k][0] = d < 2 ? e : corners[k][0];
        p[k][1] = corners[k][1];
        p[k][2] = d < 2 ? corners[k][0] : e;
    }
    far_mesh_quad(m, p, rgb, shade[d], 255);
}

/* A sea square's floor: one quad at FAR_FLOOR_Y in a deep sea floor's shade (far.frag draws it over drawn
 * chunks too, where the rest of the far terrain is left out: the back of the depth range, seen only where a
 * chunk shows its water but no floor, as the outermost ring of the chunk table does). */
static void far_mesh_floor(FarMesh *m, float x0, float z0, float x1, float z1)
{
    static const uint8_t floor_rgb[3] = {6, 14, 30};
    const float p[4][3] = {{x0, FAR_FLOOR_Y, z0}, {x0, FAR_FLOOR_Y, z1}, {x1, FAR_FLOOR_Y, z1}, {x1, FAR_FLOOR_Y, z0}};
    far_mesh_quad(m, p, floor_rgb, 1.0f, FAR_FLOOR_ALPHA);
}

/* The sides the columns of square (x0..x1, z0..z1) own: toward each lower neighbour, and on the patch's
 * border a skirt. Neighbouring columns' sides facing the same way with the same top and the same colour are
 * merged into one strip that reaches down to the lowest of their bottoms: below a column's own bottom a side
 * lies inside the lower neighbour's column (a closed surface of tops and sides, skirts included), so it is
 * hidden wherever it is drawn (the depth test) and the look is the same with fewer quads. The colour is each
 * column's own, mixed by its visible extent (far_side_rgb). n: columns a side. */
static void far_mesh_sides(FarMesh *m, FarColumn (*col)[FAR_RING], int n, int x0, int z0, int x1, int z1, float w,
                           int group_first[4])
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int order[4] = {0, 2, 1, 3};   /* FAR_SIDES_*: +X, +Z, -X, -Z (far_patch_runs' groups) */
    float skirt = FAR_SKIRT_DEPTH;
    for (int g = 0; g < 4; g++) {
        int d = order[g];
        group_first[g] = m->ni;
        bool along_z = d < 2;   /* X faces run along z */
        int lines0 = along_z ? x0 : z0, lines1 = along_z ? x1 : z1, s0 = along_z ? z0 : x0, s1 = along_z ? z1 : x1;
        for (int line = lines0; line < lines1; line++) {
            int run_start = -1;
            float run_top = 0, run_bottom = 0;
            uint8_t run_rgb[3] = {0, 0, 0};
            bool run = false;
            for (int s = s0; s <= s1; s++) {
                const FarColumn *c = NULL;
                float bottom = 0;
                uint8_t rgb[3] = {0, 0, 0};
                if (s < s1) {
                    int i = along_z ? line : s, j = along_z ? s : line;
                    int ni = i + dir[d][0], nj = j + dir[d][1];
                    bool border = ni < 0 || ni >= n || nj < 0 || nj >= n;
                    const FarColumn *here = &col[j + 1][i + 1], *next = &col[nj + 1][ni + 1];
                    bottom = fminf(next->top, here->top) - (border ? skirt : 0.0f);
                    if (next->top < here->top) {
                        c = here;
                        far_side_rgb(c, c->top, bottom, rgb);
                    }
                }
                if (run && (!c || c->top != run_top || !far_same_rgb(rgb, run_rgb))) {
                    int i = along_z ? line : run_start;
                    int j = along_z ? run_start : line;
                    float e = d == 0 ? (i + 1) * w : d == 1 ? i * w : d == 2 ? (j + 1) * w : j * w;
                    far_mesh_side(m, run_rgb, d, e, run_start * w, s * w, run_top, run_bottom);
                    run = false;
                }
                if (c && !run) {
                    run = true;
                    run_start = s;
                    run_top = c->top;
                    run_bottom = bottom;
                    memcpy(run_rgb, rgb, 3);
                } else if (c) {
                    run_bottom = fminf(run_bottom, bottom);
                }
            }
        }
    }
}

/* The top of a land column of `level` over ground of height h. Levels 0 and 1 (the rings next to the voxel
 * chunks): the top of the ground cell, as the voxels stand it, so flat land meets them flat. From level 2 on
 * (160 blocks and farther), the nearest multiple of the column's width: a far column is a stack of cubes as
 * wide as it, whose fewer steps merge into fewer faces (triangles are what far terrain costs). The sea keeps
 * its surface. */
static float far_level_top(int level, float h, float ocean)
{
    if (level < FAR_CUBE_LEVEL || h < ocean + 0.5f) return far_surface_of(h, ocean);
    float cube = (float)(1 << level);
    return floorf((floorf(h) + 1.0f) / cube + 0.5f) * cube;
}

/* Blocks a column of `level` is wide: 1, 2, 4, 8, 16. */
static double far_column_width(int level)
{
    return (double)far_terrain_patch_size(level) / far_terrain_patch_quads(level);
}

/* The ground top of the column of `level` whose centre is world (x, z): the grid's height there rounded as the
 * voxels stand a block (no canopy; a border's neighbour). */
static float far_ring_top(FarLattice *lat, const Generator *gen, int level, double x, double z, float ocean, bool *water)
{
    float h = far_lattice_height(lat, gen, level, x, z);
    *water = h < ocean + 0.5f;
    return far_level_top(level, h, ocean);
}

/* The neighbour beyond border k (+X, -X, +Z, -Z) of patch p, next to its column centred at (x, z): the
 * lowest top it may have there (its ground; a canopy stands higher). A coarser neighbour's column is known
 * (its level is p->coarser[k]): its own, from its own grid; a neighbour of the same level or a finer one may
 * have narrower columns: the lowest of ours and the finer level's along the border. */
static void far_ring_column(FarLattice *lat, const Generator *gen, const FarPatch *p, int k, double x, double z,
                            double w, float ocean, FarColumn *c)
{
    bool water = false;
    if (p->coarser[k] > p->level) {
        double cw = far_column_width(p->coarser[k]);
        c->top = far_ring_top(lat, gen, p->coarser[k], (floor(x / cw) + 0.5) * cw, (floor(z / cw) + 0.5) * cw, ocean,
                              &water);
        c->water = water;
        return;
    }
    c->top = far_ring_top(lat, gen, p->level, x, z, ocean, &water);
    c->water = water;
    if (p->level == 0) return;
    /* the finer level's columns along this one's border, just outside it */
    double fw = far_column_width(p->level - 1);
    int count = (int)lrint(w / fw);
    bool along_z = k < 2;   /* an X border runs along z */
    double out = (k == 0 || k == 2 ? -1.0 : 1.0) * (w - fw) * 0.5;   /* from the ring's centre towards the border */
    for (int f = 0; f < count; f++) {
        double along = (f + 0.5) * fw - w * 0.5;
        double fx = along_z ? x + out : x + along, fz = along_z ? z + along : z + out;
        c->top = fminf(c->top, far_ring_top(lat, gen, p->level - 1, fx, fz, ocean, &water));
        c->water |= water;
    }
}

#define FAR_GRID_CELLS 8                      /* grid cells a side of a patch (its 32 columns: 4 a cell) */
#define FAR_GRID (FAR_GRID_CELLS + 1)         /* grid points a side */

/* Column (i, j) of a patch of `level` at origin (ox, oz), its columns w wide: the grid's height at its centre
 * rounded up to its cube (far_level_top), sea where that height is under the sea level, canopy where the
 * grid's tree cover mixed there reaches FAR_CANOPY_COVER (so woods' edges follow the columns, not the grid),
 * and the colours of the nearest of the cell's corners that agrees on sea and canopy (the sea's shade by the
 * column's own depth); if none does, the generator's own colours at the column's centre. */
static void far_inner_column(const Generator *gen, const FarPalette *palette, const FarSurface (*grid)[FAR_GRID],
                             int level, double ox, double oz, long gx0, long gz0, double w, int i, int j, float ocean,
                             FarColumn *c)
{
    double x = ox + (i + 0.5) * w, z = oz + (j + 0.5) * w;
    float tx, tz;
    long gx = far_lattice_cell(level, x, &tx) - gx0, gz = far_lattice_cell(level, z, &tz) - gz0;
    const FarSurface *s00 = &grid[gz][gx], *s10 = &grid[gz][gx + 1], *s01 = &grid[gz + 1][gx], *s11 = &grid[gz + 1][gx + 1];
    float h = far_lattice_mix(s00->height, s10->height, s01->height, s11->height, tx, tz);
    bool water = h < ocean + 0.5f;
    bool canopy = !water && far_lattice_mix(s00->cover, s10->cover, s01->cover, s11->cover, tx, tz) >= FAR_CANOPY_COVER;
    /* the corners nearest first */
    const FarSurface *order[4];
    bool east = tx >= 0.5f, south = tz >= 0.5f;
    const FarSurface *corner[2][2] = {{s00, s10}, {s01, s11}};
    order[0] = corner[south][east];
    bool x_nearer = fabsf(tx - 0.5f) >= fabsf(tz - 0.5f);   /* the nearer edge: its other corner next */
    order[1] = x_nearer ? corner[!south][east] : corner[south][!east];
    order[2] = x_nearer ? corner[south][!east] : corner[!south][east];
    order[3] = corner[!south][!east];
    const FarSurface *s = NULL;
    for (int k = 0; k < 4 && !s; k++)
        if (order[k]->water == water && order[k]->canopy == canopy) s = order[k];
    FarSurface own;
    if (!s) {
        far_surface_at(gen, palette, x, z, true, &own);
        s = &own;
        canopy = !water && own.canopy;
    }
    c->top = far_level_top(level, h, ocean);
    c->ground = c->top - 1.0f;
    c->water = water;
    memcpy(c->rgb, s->rgb, 3);
    memcpy(c->side, s->side, 3);
    memcpy(c->under, s->under, 3);
    if (water && s->water) {
        float shade = far_water_shade(ocean - h);
        for (int k = 0; k < 3; k++) {
            float v = s->base[k] * shade;
            c->rgb[k] = (uint8_t)(v > 255.0f ? 255.0f : v);
        }
    } else if (canopy) {
        c->ground = c->top;
        c->top += FAR_CANOPY_HEIGHT;
    }
}

StResult far_patch_build_in(FarLattice *lattice, const Generator *gen, const FarPalette *palette, int level, int px,
                            int pz, const uint8_t coarser[4], float sink, FarPatch *out)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    out->px = px;
    out->pz = pz;
    memcpy(out->coarser, coarser, 4);
    int n = far_terrain_patch_quads(level);
    if (n > FAR_MAX_COLUMNS) n = FAR_MAX_COLUMNS;
    double size = far_terrain_patch_size(level);
    double w = size / n;
    out->origin_x = (double)px * size;
    out->origin_z = (double)pz * size;
    out->quads = n;
    float ocean = (float)gen->ocean_level(gen);
    FarLattice *own = NULL;
    if (!lattice && !(lattice = own = far_lattice_create(10))) {
        return st_fail(ST_ERR_NOMEM, "far terrain: out of memory for a patch's samples");
    }
    /* the grid points of the patch (8 x 8 cells of its level's spacing), colours and all */
    static _Thread_local FarSurface grid[FAR_GRID][FAR_GRID];
    long step = 1L << level, gx0 = (long)px * FAR_GRID_CELLS, gz0 = (long)pz * FAR_GRID_CELLS;
    for (int j = 0; j < FAR_GRID; j++)
        for (int i = 0; i < FAR_GRID; i++)
            far_lattice_sample(lattice, gen, palette, (gx0 + i) * step, (gz0 + j) * step, true, &grid[j][i]);
    static _Thread_local FarColumn col[FAR_RING][FAR_RING];   /* [j + 1][i + 1]: z, x; 11 kB: not on the stack */
    for (int j = -1; j <= n; j++)
        for (int i = -1; i <= n; i++) {
            bool inside = i >= 0 && i < n && j >= 0 && j < n;
            if (!inside && (i < 0 || i >= n) && (j < 0 || j >= n)) continue;   /* the ring's corners: unused */
            FarColumn *c = &col[j + 1][i + 1];
            if (inside) {
                far_inner_column(gen, palette, (const FarSurface (*)[FAR_GRID])grid, level, out->origin_x,
                                 out->origin_z, gx0, gz0, w, i, j, ocean, c);
            } else {
                double x = out->origin_x + (i + 0.5) * w, z = out->origin_z + (j + 0.5) * w;
                far_ring_column(lattice, gen, out, i < 0 ? 1 : i >= n ? 0 : j < 0 ? 3 : 2, x, z, w, ocean, c);
            }
            if (!c->water) {   /* land only (the sea keeps the voxel sea's level), and never under the sea */
                float top = fmaxf(c->top - sink, ocean + 1.0f);
                c->ground -= c->top - top;
                c->top = top;
            }
        }
    far_lattice_destroy(own);
    out->tops = malloc((size_t)n * (size_t)n * sizeof *out->tops);
    int bq = n < FAR_PATCH_BLOCK_QUADS ? n : FAR_PATCH_BLOCK_QUADS;
    out->blocks = n / bq;
    /* at most: every top its own quad (twice: the squares' and the patch's), every column four sides */
    FarMesh m = {.cap_v = n * n * 4 * 6 + 64, .cap_i = n * n * 6 * 6 + 96, .min_y = 1e9f, .max_y = -1e9f};
    m.v = malloc((size_t)m.cap_v * sizeof *m.v);
    m.idx = malloc((size_t)m.cap_i * sizeof *m.idx);
    if (!m.v || !m.idx || !out->tops) {
        free(m.v);
        free(m.idx);
        far_patch_free(out);
        return st_fail(ST_ERR_NOMEM, "far terrain: out of memory for a patch mesh");
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) out->tops[j * n + i] = col[j + 1][i + 1].top;
    float fw = (float)w;
    for (int bz = 0; bz < out->blocks; bz++)
        for (int bx = 0; bx < out->blocks; bx++) {
            int b = bz * out->blocks + bx, first_vertex = m.nv;
            out->square_first[b] = m.ni;
            int x0 = bx * bq, z0 = bz * bq;
            for (int j = z0; j < z0 + bq; j++)
                for (int i = x0; i < x0 + bq; i++)
                    if (col[j + 1][i + 1].water) out->square_water |= 1u << (bz * out->blocks + bx);
            far_mesh_tops(&m, col, x0, z0, x0 + bq, z0 + bq, fw);
            if (level <= FAR_FLOOR_LEVELS && (out->square_water >> (bz * out->blocks + bx) & 1u))
                far_mesh_floor(&m, x0 * fw, z0 * fw, (x0 + bq) * fw, (z0 + bq) * fw);
            far_mesh_sides(&m, col, n, x0, z0, x0 + bq, z0 + bq, fw, out->square_sides[b]);
            float lo = 1e9f, hi = -1e9f;   /* the square's box, for far_patch_runs_split's `seen` */
            for (int v = first_vertex; v < m.nv; v++) {
                lo = fminf(lo, m.v[v].y);
                hi = fmaxf(hi, m.v[v].y);
            }
            out->square_min_y[b] = lo;
            out->square_max_y[b] = hi;
        }
    out->square_first[out->blocks * out->blocks] = m.ni;
    /* the patch's tops merged across its squares' borders (and the sea squares' floors as theirs), kept where
     * that saves quads */
    int square_tops = 0, nv = m.nv;
    for (int b = 0; b < out->blocks * out->blocks; b++) square_tops += out->square_sides[b][0] - out->square_first[b];
    out->tops_first = m.ni;
    if (out->blocks > 1 && level >= FAR_MERGED_LEVEL) {
        far_mesh_tops(&m, col, 0, 0, n, n, fw);
        for (int b = 0; b < out->blocks * out->blocks && level <= FAR_FLOOR_LEVELS; b++)
            if (out->square_water >> b & 1u) {
                int x0 = b % out->blocks * bq, z0 = b / out->blocks * bq;
                far_mesh_floor(&m, x0 * fw, z0 * fw, (x0 + bq) * fw, (z0 + bq) * fw);
            }
    }
    out->tops_count = m.ni - out->tops_first;
    if (out->tops_count >= square_tops) {   /* nothing saved */
        m.ni = out->tops_first;
        m.nv = nv;
        out->tops_count = 0;
    }
    if (m.failed) {   /* cannot happen with the capacity above; kept as a guard */
        free(m.v);
        free(m.idx);
        far_patch_free(out);
        return st_fail(ST_ERR_STATE, "far terrain: a patch mesh outgrew its buffers");
    }
    /* The buffers were sized for the worst case (every column its own top and four sides), ~7x what a patch
     * holds on average: the patch keeps only what it uses, for as long as it stays cached. */
    FarVertex *v = realloc(m.v, (size_t)(m.nv > 0 ? m.nv : 1) * sizeof *m.v);
    uint16_t *idx = realloc(m.idx, (size_t)(m.ni > 0 ? m.ni : 1) * sizeof *m.idx);
    out->vertices = v ? v : m.v;
    out->indices = idx ? idx : m.idx;
    out->vertex_count = m.nv;
    out->index_count = m.ni;
    out->min_y = m.min_y;
    out->max_y = m.max_y;
    out->key = far_patch_key(level, px, pz, coarser);
    return ST_OK;
}

StResult far_patch_build(const Generator *gen, const FarPalette *palette, int level, int px, int pz,
                         const uint8_t coarser[4], float sink, FarPatch *out)
{
    return far_patch_build_in(NULL, gen, palette, level, px, pz, coarser, sink, out);
}
