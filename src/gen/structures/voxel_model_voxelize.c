/* voxel_model_voxelize.c — a triangle soup into a voxel template (voxel_model.h; its cache: voxel_model_cache.c).
 *
 * Design: the soup is mapped into grid units (the bounding box's minimum at 0, `scale` cells per unit). Inside
 * cells: rays along x, y and z through each row of cell centres collect their crossings with the triangles
 * (a centre on an edge counted once, by the top-left rule) and the nonzero winding rule marks the centres
 * inside, so overlapping closed parts (a wall box through a floor box) stay solid; a row whose crossings do
 * not balance (an open mesh) has no inside, and a cell is inside only when all three axes say so (an open
 * box's walls close its cross-section along x and z, not along y). Surface cells: each triangle tests the cells of its bounding box with the
 * Akenine-Moller separating-axis test, where merely touching a cell does not count (a model built on the
 * grid's planes, like a unit cube at size 16, keeps its size instead of growing a cell on each side), each
 * triangle moved a hair behind its face so that a face on a grid plane marks the cell it bounds; open
 * meshes and parts thinner than a cell come out through this shell. A surface cell takes the palette block
 * nearest the mean colour of its triangles, an inside cell the colour of the triangle its ray entered by.
 * --fill surface keeps the solid cells with a face to a non-solid cell. Cells outside are "keep" (air for a
 * tile fitted to a tileSize: a tile owns its box). All in a fixed order in floats: the same file and options
 * give the same template, byte for byte. (The flood fill of the outside that the reference sketches needs the
 * touching rule, which closes a door a cell narrower than the grid's step; the winding rule does not.) */
#include "voxel_model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


bool voxel_model_is_model(const char *path)
{
    const char *dot = strrchr(path, '.');
    return !(dot && strcasecmp(dot, ".json") == 0);
}

/* ---- the triangle-box overlap test (Akenine-Moller 2001), box centred at the origin: a triangle that only
 * touches the box does not overlap it ---- */
#define BOX_HALF 0.5f

static void sub3(float *o, const float *a, const float *b) { o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2]; }

static bool axis_separates(const float *v0, const float *v1, const float *v2, const float *axis)
{
    float p0 = v0[0] * axis[0] + v0[1] * axis[1] + v0[2] * axis[2];
    float p1 = v1[0] * axis[0] + v1[1] * axis[1] + v1[2] * axis[2];
    float p2 = v2[0] * axis[0] + v2[1] * axis[1] + v2[2] * axis[2];
    float mn = fminf(p0, fminf(p1, p2)), mx = fmaxf(p0, fmaxf(p1, p2));
    float r = BOX_HALF * (fabsf(axis[0]) + fabsf(axis[1]) + fabsf(axis[2]));
    return mn >= r || mx <= -r;
}

static bool tri_box_overlap(const float centre[3], const float (*tri)[3])
{
    float v[3][3], e[3][3];
    for (int i = 0; i < 3; i++)
        sub3(v[i], tri[i], centre);
    sub3(e[0], v[1], v[0]);
    sub3(e[1], v[2], v[1]);
    sub3(e[2], v[0], v[2]);
    for (int a = 0; a < 3; a++) {   /* the box's face normals */
        float mn = fminf(v[0][a], fminf(v[1][a], v[2][a])), mx = fmaxf(v[0][a], fmaxf(v[1][a], v[2][a]));
        if (mn >= BOX_HALF || mx <= -BOX_HALF)
            return false;
    }
    float n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                  e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    if (axis_separates(v[0], v[1], v[2], n))   /* the triangle's plane */
        return false;
    for (int i = 0; i < 3; i++)                /* edge x box axis */
        for (int a = 0; a < 3; a++) {
            float unit[3] = {0, 0, 0}, axis[3];
            unit[a] = 1.0f;
            axis[0] = e[i][1] * unit[2] - e[i][2] * unit[1];
            axis[1] = e[i][2] * unit[0] - e[i][0] * unit[2];
            axis[2] = e[i][0] * unit[1] - e[i][1] * unit[0];
            if ((axis[0] != 0 || axis[1] != 0 || axis[2] != 0) && axis_separates(v[0], v[1], v[2], axis))
                return false;
        }
    return true;
}

/* ---- the grid ---- */

typedef struct Grid {
    int size[3];          /* template cells */
    float scale;          /* cells per model unit */
    float offset[3];      /* grid units added after scaling (fit mode centres x and z) */
    float (*rgb)[4];      /* per cell: colour sums and the count of triangles; count 0: not surface */
} Grid;

static size_t cell_index(const Grid *g, int x, int y, int z)
{
    return ((size_t)y * (size_t)g->size[2] + (size_t)z) * (size_t)g->size[0] + (size_t)x;
}

static StResult grid_plan(const VoxelSoup *s, const VoxelizeOptions *opt, Grid *g)
{
    float ext[3], longest = 0;
    for (int a = 0; a < 3; a++) {
        ext[a] = s->max[a] - s->min[a];
        longest = ext[a] > longest ? ext[a] : longest;
    }
    if (!(longest > 0) || !isfinite(longest))
        return st_fail(ST_ERR_FORMAT, "the model has no extent (all its vertices at one point)");
    memset(g->offset, 0, sizeof g->offset);
    if (opt->fit[0] > 0) {
        g->scale = 1e30f;
        for (int a = 0; a < 3; a++)
            if (ext[a] > 0 && (float)opt->fit[a] / ext[a] < g->scale)
                g->scale = (float)opt->fit[a] / ext[a];
    } else if (opt->size > 0) {
        if (opt->size > VOXEL_TEMPLATE_MAX_SIDE)
            return st_fail(ST_ERR_ARG, "size %d: at most %d cells", opt->size, VOXEL_TEMPLATE_MAX_SIDE);
        g->scale = (float)opt->size / longest;
    } else {
        if (!(opt->scale > 0) || !isfinite(opt->scale))
            return st_fail(ST_ERR_ARG, "scale %g: must be > 0", (double)opt->scale);
        g->scale = opt->scale;
    }
    for (int a = 0; a < 3; a++) {
        int cells = (int)ceilf(ext[a] * g->scale - 1e-3f);
        cells = cells < 1 ? 1 : cells;
        if (opt->fit[0] > 0) {
            if (cells > opt->fit[a])
                cells = opt->fit[a];
            g->size[a] = opt->fit[a];
            if (a != 1)
                g->offset[a] = (float)((opt->fit[a] - cells) / 2);
        } else {
            g->size[a] = cells;
        }
        if (g->size[a] > VOXEL_TEMPLATE_MAX_SIDE)
            return st_fail(ST_ERR_ARG, "the model is %d cells along %c at this scale: at most %d", g->size[a], "xyz"[a],
                           VOXEL_TEMPLATE_MAX_SIDE);
    }
    g->rgb = calloc((size_t)g->size[0] * (size_t)g->size[1] * (size_t)g->size[2], sizeof *g->rgb);
    return g->rgb ? ST_OK : st_fail(ST_ERR_NOMEM, "out of memory for the voxel grid");
}

/* The soup in grid units. */
static float (*grid_triangles(const VoxelSoup *s, const Grid *g))[3][3]
{
    float (*tris)[3][3] = malloc((size_t)s->count * sizeof *tris);
    for (int i = 0; tris && i < s->count; i++)
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                tris[i][k][a] = (s->tris[i].v[k][a] - s->min[a]) * g->scale + g->offset[a];
    return tris;
}

/* Surface cells: a triangle reaching into the cell adds its colour. A face only touching a cell does not
 * count (models built on the grid's planes would grow by a cell on each side and a door a cell wide would
 * close), but each triangle is moved a hair (NUDGE cells) behind itself, against its normal, so a face lying
 * on a grid plane marks the cell on its inner side: a unit cube's faces mark its outer cells, an open quad
 * on a plane is not lost. */
#define NUDGE 1e-3f
static void grid_raster(const VoxelSoup *s, const float (*tris)[3][3], Grid *g)
{
    for (int i = 0; i < s->count; i++) {
        const VoxelTriangle *t = &s->tris[i];
        float tri[3][3], e1[3], e2[3];
        sub3(e1, tris[i][1], tris[i][0]);
        sub3(e2, tris[i][2], tris[i][0]);
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3; k++)   /* a hair behind its face: a face on a grid plane marks the cell it bounds */
            for (int a = 0; a < 3; a++)
                tri[k][a] = tris[i][k][a] - (len > 0 ? NUDGE * n[a] / len : 0.0f);
        int lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            float mn = fminf(tri[0][a], fminf(tri[1][a], tri[2][a]));
            float mx = fmaxf(tri[0][a], fmaxf(tri[1][a], tri[2][a]));
            lo[a] = (int)floorf(mn);
            hi[a] = (int)floorf(mx);
            lo[a] = lo[a] < 0 ? 0 : lo[a];
            hi[a] = hi[a] >= g->size[a] ? g->size[a] - 1 : hi[a];
        }
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int z = lo[2]; z <= hi[2]; z++)
                for (int x = lo[0]; x <= hi[0]; x++) {
                    float c[3] = {(float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f};
                    if (!tri_box_overlap(c, (const float (*)[3])tri))
                        continue;
                    float *cell = g->rgb[cell_index(g, x, y, z)];
                    cell[0] += t->rgb[0], cell[1] += t->rgb[1], cell[2] += t->rgb[2], cell[3] += 1.0f;
                }
    }
}

/* ---- inside: the nonzero winding rule along x rows through cell centres ---- */

typedef struct Crossing {
    float x;
    int delta;       /* +1 where the ray enters (the triangle faces -x), -1 where it leaves */
    int tri;
} Crossing;

static int crossing_cmp(const void *pa, const void *pb)
{
    const Crossing *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->tri > b->tri) - (a->tri < b->tri);
}

/* Is edge a->b of a counter-clockwise triangle one whose points count (the top-left rule: of an edge's two
 * directions exactly one qualifies, so a centre on an edge shared by two triangles counts once)? */
static bool edge_owns(float au, float av, float bu, float bv)
{
    return bv - av > 0 || (bv == av && bu < au);
}

typedef struct Rows {
    Crossing *list;      /* per row (y, z): up to cap crossings */
    int *count;
    int cap;
} Rows;

static StResult rows_add(Rows *r, size_t row, Crossing c)
{
    if (r->count[row] == r->cap)
        return ST_ERR_STATE;   /* too many crossings in a row: the row is left to the surface test */
    r->list[row * (size_t)r->cap + (size_t)r->count[row]++] = c;
    return ST_OK;
}

/* The crossings of the rays along `axis` through cell centres with one triangle. */
static void rows_cross(const Grid *g, int axis, const float tri[3][3], int index, Rows *rows)
{
    int ab = (axis + 1) % 3, ac = (axis + 2) % 3;   /* the plane the rays cross, in cyclic order */
    float u[3], v[3];
    for (int k = 0; k < 3; k++)
        u[k] = tri[k][ab], v[k] = tri[k][ac];
    float area = (u[1] - u[0]) * (v[2] - v[0]) - (v[1] - v[0]) * (u[2] - u[0]);
    if (area == 0)
        return;             /* parallel to the rays */
    int order[3] = {0, 1, 2};
    if (area < 0)
        order[1] = 2, order[2] = 1;
    int delta = area < 0 ? 1 : -1;   /* area is the normal's component along the rays: entering faces look back */
    float mnu = fminf(u[0], fminf(u[1], u[2])), mxu = fmaxf(u[0], fmaxf(u[1], u[2]));
    float mnv = fminf(v[0], fminf(v[1], v[2])), mxv = fmaxf(v[0], fmaxf(v[1], v[2]));
    int i0 = (int)ceilf(mnu - 0.5f), i1 = (int)floorf(mxu - 0.5f), j0 = (int)ceilf(mnv - 0.5f), j1 = (int)floorf(mxv - 0.5f);
    i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
    i1 = i1 >= g->size[ab] ? g->size[ab] - 1 : i1, j1 = j1 >= g->size[ac] ? g->size[ac] - 1 : j1;
    for (int i = i0; i <= i1; i++)
        for (int j = j0; j <= j1; j++) {
            float pu = (float)i + 0.5f, pv = (float)j + 0.5f, w[3], sum = 0;
            bool in = true;
            for (int e = 0; e < 3 && in; e++) {   /* w[e]: the edge opposite vertex order[e] */
                int p = order[(e + 1) % 3], q = order[(e + 2) % 3];
                w[e] = (u[q] - u[p]) * (pv - v[p]) - (v[q] - v[p]) * (pu - u[p]);
                in = w[e] > 0 || (w[e] == 0 && edge_owns(u[p], v[p], u[q], v[q]));
                sum += w[e];
            }
            if (!in || sum == 0)
                continue;
            float x = (w[0] * tri[order[0]][axis] + w[1] * tri[order[1]][axis] + w[2] * tri[order[2]][axis]) / sum;
            rows_add(rows, (size_t)i * (size_t)g->size[ac] + (size_t)j, (Crossing){x, delta, index});
        }
}

/* One axis's vote: votes[i] += 1 where the rays along `axis` find the cell's centre inside (nonzero winding);
 * along x, span_tri[i] gets the triangle the ray entered by. */
static void rows_vote(const Grid *g, int axis, Rows *rows, uint8_t *votes, int *span_tri)
{
    int ab = (axis + 1) % 3, ac = (axis + 2) % 3;
    size_t nrows = (size_t)g->size[ab] * (size_t)g->size[ac];
    for (size_t row = 0; row < nrows; row++) {
        Crossing *c = rows->list + row * (size_t)rows->cap;
        int n = rows->count[row], wind = 0, entered = -1;
        if (n == rows->cap)
            continue;
        qsort(c, (size_t)n, sizeof *c, crossing_cmp);
        for (int i = 0; i < n; i++)
            wind += c[i].delta;
        if (wind != 0)
            continue;   /* an open mesh: this row has no inside */
        int cell[3], k = 0;
        cell[ab] = (int)(row / (size_t)g->size[ac]);
        cell[ac] = (int)(row % (size_t)g->size[ac]);
        for (cell[axis] = 0; cell[axis] < g->size[axis]; cell[axis]++) {
            float centre = (float)cell[axis] + 0.5f;
            while (k < n && c[k].x <= centre) {
                if (wind == 0)
                    entered = c[k].tri;
                wind += c[k].delta;
                k++;
            }
            if (wind != 0) {
                size_t i = cell_index(g, cell[0], cell[1], cell[2]);
                votes[i]++;
                if (axis == 0)
                    span_tri[i] = entered;
            }
        }
    }
}

/* solid[i] = 1 where the rays along all three axes find the cell's centre inside: one closed cross-section
 * (an open box seen along the walls) is not enough. */
static StResult grid_inside(const VoxelSoup *s, const Grid *g, const float (*tris)[3][3], uint8_t *solid,
                            int *span_tri)
{
    int most = g->size[0] * g->size[1];
    most = g->size[1] * g->size[2] > most ? g->size[1] * g->size[2] : most;
    most = g->size[2] * g->size[0] > most ? g->size[2] * g->size[0] : most;
    Rows rows = {.cap = 64};
    rows.count = malloc((size_t)most * sizeof *rows.count);
    rows.list = malloc((size_t)most * (size_t)rows.cap * sizeof *rows.list);
    if (!rows.count || !rows.list) {
        free(rows.count);
        free(rows.list);
        return st_fail(ST_ERR_NOMEM, "out of memory for the fill");
    }
    for (int axis = 0; axis < 3; axis++) {
        memset(rows.count, 0, (size_t)most * sizeof *rows.count);
        for (int i = 0; i < s->count; i++)
            rows_cross(g, axis, tris[i], i, &rows);
        rows_vote(g, axis, &rows, solid, span_tri);
    }
    size_t n = (size_t)g->size[0] * (size_t)g->size[1] * (size_t)g->size[2];
    for (size_t i = 0; i < n; i++)
        solid[i] = solid[i] == 3;
    free(rows.count);
    free(rows.list);
    return ST_OK;
}

static StResult grid_to_template(const VoxelSoup *s, const Grid *g, const float (*tris)[3][3], const VoxelPalette *pal,
                                 const VoxelizeOptions *opt, VoxelTemplate *out)
{
    size_t n = (size_t)g->size[0] * (size_t)g->size[1] * (size_t)g->size[2];
    uint8_t *solid = calloc(n, 1);
    int *span_tri = malloc(n * sizeof *span_tri);
    out->voxels = malloc(n * sizeof *out->voxels);
    for (size_t i = 0; span_tri && i < n; i++)
        span_tri[i] = -1;
    StResult rc = solid && span_tri && out->voxels ? grid_inside(s, g, tris, solid, span_tri)
                                                   : st_fail(ST_ERR_NOMEM, "out of memory for the template");
    if (rc != ST_OK) {
        free(solid);
        free(span_tri);
        return rc;
    }
    memcpy(out->size, g->size, sizeof out->size);
    for (size_t i = 0; i < n; i++)
        solid[i] |= g->rgb[i][3] > 0;
    int16_t empty = opt->fit[0] > 0 ? BLOCK_AIR : VOXEL_TEMPLATE_KEEP;   /* a tile owns its box */
    for (int y = 0; y < g->size[1]; y++)
        for (int z = 0; z < g->size[2]; z++)
            for (int x = 0; x < g->size[0]; x++) {
                size_t i = cell_index(g, x, y, z);
                out->voxels[i] = empty;
                if (!solid[i])
                    continue;
                if (opt->fill == VOXELIZE_SURFACE) {   /* only cells with a face to the outside */
                    bool shell = x == 0 || y == 0 || z == 0 || x == g->size[0] - 1 || y == g->size[1] - 1 ||
                                 z == g->size[2] - 1;
                    shell = shell || !solid[i - 1] || !solid[i + 1] || !solid[i - (size_t)g->size[0]] ||
                            !solid[i + (size_t)g->size[0]] || !solid[i - (size_t)g->size[0] * g->size[2]] ||
                            !solid[i + (size_t)g->size[0] * g->size[2]];
                    if (!shell)
                        continue;
                }
                const float *c = g->rgb[i];
                float rgb[3] = {1, 1, 1};
                if (c[3] > 0)
                    rgb[0] = c[0] / c[3], rgb[1] = c[1] / c[3], rgb[2] = c[2] / c[3];
                else if (span_tri[i] >= 0)
                    memcpy(rgb, s->tris[span_tri[i]].rgb, sizeof rgb);
                out->voxels[i] = (int16_t)voxel_palette_nearest(pal, rgb);
            }
    free(solid);
    free(span_tri);
    return ST_OK;
}

StResult voxel_model_voxelize(const char *path, const VoxelizeOptions *opt, const BlockRegistry *blocks,
                              VoxelTemplate *out)
{
    memset(out, 0, sizeof *out);
    VoxelPalette pal;
    StResult rc = voxel_palette_build(blocks, opt->palette,
                                      opt->atlas_path ? opt->atlas_path : STRATA_ASSET_DIR "/textures/atlas.png", &pal);
    if (rc != ST_OK)
        return rc;
    if (pal.count == 0)
        return st_fail(ST_ERR_ARG, "the palette has no blocks");
    VoxelSoup soup;
    if ((rc = voxel_soup_import(path, &soup)) != ST_OK)
        return rc;
    Grid g = {0};
    rc = grid_plan(&soup, opt, &g);
    float (*tris)[3][3] = rc == ST_OK ? grid_triangles(&soup, &g) : NULL;
    if (rc == ST_OK && !tris)
        rc = st_fail(ST_ERR_NOMEM, "out of memory for %d triangles", soup.count);
    if (rc == ST_OK) {
        grid_raster(&soup, (const float (*)[3][3])tris, &g);
        rc = grid_to_template(&soup, &g, (const float (*)[3][3])tris, &pal, opt, out);
    }
    free(tris);
    free(g.rgb);
    voxel_soup_free(&soup);
    if (rc != ST_OK)
        return st_fail_context(rc, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    snprintf(out->name, sizeof out->name, "%.*s", dot ? (int)(dot - base) : (int)strlen(base), base);
    return ST_OK;
}
