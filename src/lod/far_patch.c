/* far_patch.c — the pure half of far terrain: settings, level choice, the quadtree cut, surface samples
 * and patch meshes.
 *
 * Design. Patches are aligned squares: patch (px, pz) of level L covers [px, px + 1) x [pz, pz + 1) times
 * FAR_LEVEL0_SIZE << L blocks, so a coarse patch's grid points are a subset of its finer neighbours' and the
 * same world point is always sampled with the same arithmetic (integers in double): shared vertices agree
 * bit for bit. The cut descends from the coarsest level, splitting a node while its nearest point is
 * nearer than its level's switching distance (times the bias). An edge that borders a coarser leaf is
 * stitched: its vertices between the coarse grid points are put on the straight line between them (height
 * and colour), which is exactly the coarse patch's edge, so no T-junction crack opens; a skirt hangs under
 * every border as a second guard against sub-pixel gaps. The whole surface is sunk by `sink` blocks so the
 * far mesh stays below the voxel surface where the two meet (the voxel chunks hide what is under them).
 * Triangles are what the far terrain costs a software renderer (llvmpipe keeps ~0.5-1 KB of bin data per
 * drawn triangle): the surface and the skirts face outwards so back faces can be culled, levels from
 * FAR_COARSE_LEVEL on have half the quads a side (far_terrain_patch_quads: a quad of 8 to 64 blocks is
 * still 10 to 30 pixels wide there), and a patch of open water, flat by construction, a quarter. Such quads
 * stay under the voxel surface where the two meet because every vertex takes the lowest surface within
 * FAR_MIN_RADIUS (8 blocks): with 4, quads of 8 blocks and more rose over coasts at the voxel boundary.
 * Colours: the generator names each sample's surface block (Generator.surface_block: snow cover, grass, sand,
 * rock, ice, water, woodland's canopy) and the palette gives its colour under the climate's tint; with the
 * game's palette (the atlas tiles' mean colours) the far surface meets the voxel chunks without a step in
 * colour. Guessing the block from height and climate instead drew green land around seed 1's snowy spawn,
 * and a flat world's far grass a shade off its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/far_terrain.h"
#include "strata/mesher.h"

#define FAR_GRID (FAR_PATCH_QUADS + 1)
#define FAR_SKIRT_DEPTH 24.0f
#define FAR_MIN_RADIUS 8.0
#define FAR_WATER_STRIDE 4   /* open water: every 4th sample (4 x 4 or 2 x 2 quads a patch) */

void far_terrain_settings_default(FarTerrainSettings *s)
{
    memset(s, 0, sizeof *s);
    static const float d[FAR_LEVELS - 1] = {100, 250, 600, 1500};
    memcpy(s->lod_distance, d, sizeof d);
    s->lod_bias = 1.0f;
    s->far_distance = FAR_DEFAULT_DISTANCE;
    s->voxel_distance = 128;
    s->load_radius = FAR_DEFAULT_DISTANCE;
    s->unload_radius = FAR_DEFAULT_DISTANCE * 1.25f;
    s->streaming_budget_per_frame = 8;
    s->priority_mode = FAR_PRIORITY_DISTANCE_BASED;
}

void far_terrain_set_lod_distance(FarTerrainSettings *s, int level, float distance)
{
    if (level >= 0 && level < FAR_LEVELS - 1 && distance >= 0) s->lod_distance[level] = distance;
}

void far_terrain_set_lod_bias(FarTerrainSettings *s, float bias)
{
    if (bias > 0) s->lod_bias = bias;
}

int far_terrain_level_for_distance(const FarTerrainSettings *s, float distance)
{
    for (int l = 0; l < FAR_LEVELS - 1; l++)
        if (distance < s->lod_distance[l] * s->lod_bias) return l;
    return FAR_LEVELS - 1;
}

int far_terrain_patch_size(int level)
{
    return FAR_LEVEL0_SIZE << level;
}

int far_terrain_patch_quads(int level)
{
    return level >= FAR_COARSE_LEVEL ? FAR_PATCH_QUADS_COARSE : FAR_PATCH_QUADS;
}

/* ---- samples ---- */

static void far_mul(uint8_t rgb[3], const uint8_t a[3], const uint8_t b[3])
{
    for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)((a[i] * (b[i] + 1)) >> 8);
}

/* The far mesh's height over ground of height h: the voxel water surface (14/16 of the cell at the sea
 * level) where h is under the sea, else the top of the surface cell. */
static inline float far_surface_of(float h, float ocean)
{
    return h < ocean + 0.5f ? ocean + 0.875f : floorf(h) + 1.0f;
}

/* The surface height alone (what far_terrain_sample returns), for the min ring. */
static float far_surface_height(const Generator *gen, double x, double z)
{
    return far_surface_of(gen->calculate_height(gen, (float)x, (float)z), (float)gen->ocean_level(gen));
}

void far_palette_init(FarPalette *palette, const BlockRegistry *blocks)
{
    palette->blocks = blocks;
    for (int id = 0; id < BLOCK_MAX; id++) {
        const BlockDef *def = &blocks->defs[id];
        if (block_face_tinted(def, BLOCK_FACE_POS_Y)) memset(palette->top[id], 255, 3);
        else memcpy(palette->top[id], def->map_color, 3);
    }
}

/* Block `id`'s top colour at temperature t and humidity hu: the palette's, times the climate's tint. */
static void far_block_color(const FarPalette *palette, int id, int t, int hu, uint8_t rgb[3])
{
    const BlockDef *def = &palette->blocks->defs[id];
    if (!block_face_tinted(def, BLOCK_FACE_POS_Y)) {
        memcpy(rgb, palette->top[id], 3);
        return;
    }
    uint8_t tint[3];
    mesher_tint_color(def->tint, t, hu, MESHER_SEASON_SUMMER, tint);
    far_mul(rgb, tint, palette->top[id]);
}

float far_terrain_sample(const Generator *gen, const FarPalette *palette, double x, double z, uint8_t rgb[3],
                         bool *water)
{
    float fx = (float)x, fz = (float)z;
    float h = gen->calculate_height(gen, fx, fz);
    float ocean = (float)gen->ocean_level(gen);
    int t = gen->calculate_temperature(gen, fx, fz), hu = gen->calculate_humidity(gen, fx, fz);
    *water = h < ocean + 0.5f;
    int block = gen->surface_block ? gen->surface_block(gen, fx, fz, h, t, hu) : *water ? BLOCK_WATER : BLOCK_GRASS;
    const BlockRegistry *blocks = palette->blocks;
    far_block_color(palette, block, t, hu, rgb);
    if (blocks->layer[block] == BLOCK_LAYER_ALPHA_TESTED && blocks->shape[block] == BLOCK_SHAPE_CUBE) {
        /* woodland: the canopy seen from afar, half over the grass, its leaves' gaps in shade */
        uint8_t grass[3];
        far_block_color(palette, BLOCK_GRASS, t, hu, grass);
        for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)((grass[i] + rgb[i] * 3 / 4) / 2);
    }
    return far_surface_of(h, ocean);
}

/* ---- the cut ---- */

static double far_nearest(double cx, double cz, double x0, double z0, double size)
{
    double dx = cx < x0 ? x0 - cx : cx > x0 + size ? cx - (x0 + size) : 0.0;
    double dz = cz < z0 ? z0 - cz : cz > z0 + size ? cz - (z0 + size) : 0.0;
    return sqrt(dx * dx + dz * dz);
}

static double far_farthest(double cx, double cz, double x0, double z0, double size)
{
    double dx = fmax(fabs(cx - x0), fabs(cx - (x0 + size))), dz = fmax(fabs(cz - z0), fabs(cz - (z0 + size)));
    return sqrt(dx * dx + dz * dz);
}

/* Whether node (level, px, pz) is split for this camera. */
static bool far_split(const FarTerrainSettings *s, double cx, double cz, int level, long px, long pz)
{
    if (level == 0) return false;
    double size = far_terrain_patch_size(level);
    double d = far_nearest(cx, cz, (double)px * size, (double)pz * size, size);
    return far_terrain_level_for_distance(s, (float)d) < level;
}

/* Level of the leaf holding world point (x, z) (the same descent as the cut). */
static int far_leaf_level_at(const FarTerrainSettings *s, double cx, double cz, double x, double z)
{
    int level = FAR_LEVELS - 1;
    for (;;) {
        double size = far_terrain_patch_size(level);
        long px = (long)floor(x / size), pz = (long)floor(z / size);
        if (!far_split(s, cx, cz, level, px, pz)) return level;
        level--;
    }
}

static void far_leaf(const FarTerrainSettings *s, double cx, double cz, int level, long px, long pz, FarPatch *out,
                     int *n, int max)
{
    double size = far_terrain_patch_size(level);
    double x0 = (double)px * size, z0 = (double)pz * size;
    if (far_nearest(cx, cz, x0, z0, size) >= s->far_distance) return;
    if (far_farthest(cx, cz, x0, z0, size) < s->voxel_distance) return;   /* wholly under voxel chunks */
    if (far_split(s, cx, cz, level, px, pz)) {
        for (int k = 0; k < 4; k++) far_leaf(s, cx, cz, level - 1, px * 2 + (k & 1), pz * 2 + (k >> 1), out, n, max);
        return;
    }
    if (*n >= max) return;
    FarPatch *p = &out[(*n)++];
    memset(p, 0, sizeof *p);
    p->level = level;
    p->px = (int)px;
    p->pz = (int)pz;
    p->origin_x = x0;
    p->origin_z = z0;
    /* the leaf across each edge's midpoint: +X, -X, +Z, -Z */
    const double e = 0.25;
    double mx[4] = {x0 + size + e, x0 - e, x0 + size / 2, x0 + size / 2};
    double mz[4] = {z0 + size / 2, z0 + size / 2, z0 + size + e, z0 - e};
    uint64_t key = (uint64_t)level | ((uint64_t)(uint32_t)px & 0xFFFFFu) << 4 | ((uint64_t)(uint32_t)pz & 0xFFFFFu) << 24;
    for (int k = 0; k < 4; k++) {
        int l = far_leaf_level_at(s, cx, cz, mx[k], mz[k]);
        p->coarser[k] = (uint8_t)(l > level ? l : level);
        key |= (uint64_t)p->coarser[k] << (44 + 4 * k);
    }
    p->key = key;
}

int far_terrain_select(const FarTerrainSettings *s, double cam_x, double cam_z, FarPatch *out, int max)
{
    if (s->far_distance <= 0) return 0;
    int top = FAR_LEVELS - 1;
    double size = far_terrain_patch_size(top);
    double reach = fmin(s->far_distance, s->load_radius > 0 ? s->load_radius : s->far_distance);
    long x0 = (long)floor((cam_x - reach) / size), x1 = (long)floor((cam_x + reach) / size);
    long z0 = (long)floor((cam_z - reach) / size), z1 = (long)floor((cam_z + reach) / size);
    int n = 0;
    for (long pz = z0; pz <= z1; pz++)
        for (long px = x0; px <= x1; px++) far_leaf(s, cam_x, cam_z, top, px, pz, out, &n, max);
    return n;
}

/* ---- meshes ---- */

typedef struct FarSample {
    float y;
    uint8_t rgb[3];
} FarSample;

static void far_lerp_sample(const FarSample *a, const FarSample *b, float t, FarSample *out)
{
    out->y = a->y + (b->y - a->y) * t;
    for (int i = 0; i < 3; i++) out->rgb[i] = (uint8_t)lrintf(a->rgb[i] + (b->rgb[i] - a->rgb[i]) * t);
}

StResult far_patch_build(const Generator *gen, const FarPalette *palette, int level, int px, int pz,
                         const uint8_t coarser[4], float sink, FarPatch *out)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    out->px = px;
    out->pz = pz;
    memcpy(out->coarser, coarser, 4);
    int n = far_terrain_patch_quads(level), samples = n + 1;   /* a side */
    double size = far_terrain_patch_size(level), step = size / n;
    out->origin_x = (double)px * size;
    out->origin_z = (double)pz * size;
    FarSample grid[FAR_GRID][FAR_GRID];   /* [j][i]: z, x; the first samples x samples used */
    bool all_water = true;
    for (int j = 0; j < samples; j++)
        for (int i = 0; i < samples; i++) {
            bool water;
            FarSample *g = &grid[j][i];
            double x = out->origin_x + i * step, z = out->origin_z + j * step;
            float y = far_terrain_sample(gen, palette, x, z, g->rgb, &water);
            all_water &= water;
            /* the lowest surface within FAR_MIN_RADIUS (fixed in world units, so neighbours of any level
             * agree): a quad between samples then stays under cliffs and coasts */
            static const int ring[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int k = 0; k < 4; k++) {
                float yk = far_surface_height(gen, x + ring[k][0] * FAR_MIN_RADIUS, z + ring[k][1] * FAR_MIN_RADIUS);
                y = yk < y ? yk : y;
            }
            g->y = y - sink;
        }
    /* relief: light the land by its slope (a fixed sun from the north-west), water stays flat */
    uint8_t shade[FAR_GRID][FAR_GRID];
    for (int j = 0; j < samples; j++)
        for (int i = 0; i < samples; i++) {
            int i0 = i > 0 ? i - 1 : i, i1 = i < samples - 1 ? i + 1 : i;
            int j0 = j > 0 ? j - 1 : j, j1 = j < samples - 1 ? j + 1 : j;
            float gx = (grid[j][i1].y - grid[j][i0].y) / (float)((i1 - i0) * step);
            float gz = (grid[j1][i].y - grid[j0][i].y) / (float)((j1 - j0) * step);
            float lit = (1.0f - 0.35f * gx - 0.25f * gz) / sqrtf(1.0f + gx * gx + gz * gz);
            lit = lit < 0.55f ? 0.55f : lit > 1.0f ? 1.0f : lit;
            shade[j][i] = (uint8_t)lrintf(lit * 255.0f);
        }
    for (int j = 0; j < samples; j++)
        for (int i = 0; i < samples; i++)
            for (int c = 0; c < 3; c++) grid[j][i].rgb[c] = (uint8_t)((grid[j][i].rgb[c] * (shade[j][i] + 1)) >> 8);
    /* stitching: edges against a coarser leaf follow the coarse edge (+X: i = n, -X: i = 0, +Z: j = n, -Z: j = 0);
     * r of our quads make one of the coarse leaf's (its step over ours: its size over ours times n over its quads) */
    for (int k = 0; k < 4; k++) {
        if (coarser[k] <= level) continue;
        int r = (n << (coarser[k] - level)) / far_terrain_patch_quads(coarser[k]);
        if (r > n) r = n;
        for (int m = 0; m < samples; m++) {
            int m0 = m / r * r, m1 = m0 + r;
            if (m == m0 || m1 >= samples) continue;
            float t = (float)(m - m0) / (float)r;
            FarSample *a, *b, *dst;
            if (k < 2) {
                int i = k == 0 ? n : 0;
                a = &grid[m0][i]; b = &grid[m1][i]; dst = &grid[m][i];
            } else {
                int j = k == 2 ? n : 0;
                a = &grid[j][m0]; b = &grid[j][m1]; dst = &grid[j][m];
            }
            FarSample v;
            far_lerp_sample(a, b, t, &v);
            *dst = v;
        }
    }
    /* Open water (every sample water: all at one height, so flat whatever its neighbours' edges do) takes
     * every FAR_WATER_STRIDE-th sample: a coarser grid of the same plane, its colours still following the
     * climate. A quarter of a typical 2 km cut is sea, and every triangle drawn costs llvmpipe memory. */
    int stride = all_water ? FAR_WATER_STRIDE : 1, quads = n / stride, side = quads + 1;
    out->quads = quads;
    int grid_vertices = side * side, skirt_vertices = 4 * side;
    out->vertex_count = grid_vertices + skirt_vertices;
    out->index_count = quads * quads * 6 + 4 * quads * 6;
    out->vertices = malloc((size_t)out->vertex_count * sizeof *out->vertices);
    out->indices = malloc((size_t)out->index_count * sizeof *out->indices);
    if (!out->vertices || !out->indices) {
        far_patch_free(out);
        return st_fail(ST_ERR_NOMEM, "far terrain: out of memory for a patch mesh");
    }
    float min_y = 1e9f, max_y = -1e9f;
    for (int j = 0; j < side; j++)
        for (int i = 0; i < side; i++) {
            FarVertex *v = &out->vertices[j * side + i];
            const FarSample *g = &grid[j * stride][i * stride];
            v->x = (float)(i * stride * step);
            v->z = (float)(j * stride * step);
            v->y = g->y;
            memcpy(v->color, g->rgb, 3);
            v->color[3] = 255;
            min_y = fminf(min_y, v->y);
            max_y = fmaxf(max_y, v->y);
        }
    /* the surface in squares of FAR_PATCH_BLOCK_QUADS quads a side (far_patch_runs leaves out those wholly
     * under the voxel chunks) */
    int bq = quads < FAR_PATCH_BLOCK_QUADS ? quads : FAR_PATCH_BLOCK_QUADS;
    out->blocks = quads / bq;
    int ni = 0;
    for (int bz = 0; bz < out->blocks; bz++)
        for (int bx = 0; bx < out->blocks; bx++)
            for (int j = bz * bq; j < (bz + 1) * bq; j++)
                for (int i = bx * bq; i < (bx + 1) * bq; i++) {
                    uint16_t a = (uint16_t)(j * side + i), b = (uint16_t)(a + 1), c = (uint16_t)(a + side + 1),
                             d = (uint16_t)(a + side);
                    /* counter-clockwise seen from above (+Y): a (x, z), d (x, z + 1), c, b */
                    uint16_t q[6] = {a, d, c, a, c, b};
                    memcpy(&out->indices[ni], q, sizeof q);
                    ni += 6;
                }
    /* skirts: each border's vertices again, FAR_SKIRT_DEPTH lower, darker; wound counter-clockwise seen
     * from outside the patch, so with back faces culled a skirt is drawn only from the side a crack at
     * that border is seen from (its neighbour's side) */
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < side; m++) {
            int i = k == 0 ? quads : k == 1 ? 0 : m, j = k < 2 ? m : k == 2 ? quads : 0;
            FarVertex *v = &out->vertices[grid_vertices + k * side + m];
            *v = out->vertices[j * side + i];
            v->y -= FAR_SKIRT_DEPTH + (float)step;
            for (int c = 0; c < 3; c++) v->color[c] = (uint8_t)(v->color[c] * 3 / 4);
            min_y = fminf(min_y, v->y);
            if (m == quads) continue;
            int top0 = k < 2 ? m * side + i : j * side + m;
            int top1 = k < 2 ? (m + 1) * side + i : j * side + m + 1;
            uint16_t s0 = (uint16_t)(grid_vertices + k * side + m), s1 = (uint16_t)(s0 + 1);
            uint16_t t0 = (uint16_t)top0, t1 = (uint16_t)top1;
            bool flip = k == 0 || k == 3;   /* +X and -Z: m runs clockwise seen from outside */
            uint16_t q[6] = {t0, flip ? s1 : s0, flip ? s0 : s1, t0, flip ? t1 : s1, flip ? s1 : t1};
            memcpy(&out->indices[ni], q, sizeof q);
            ni += 6;
        }
    out->min_y = min_y;
    out->max_y = max_y;
    uint64_t key = (uint64_t)level | ((uint64_t)(uint32_t)px & 0xFFFFFu) << 4 | ((uint64_t)(uint32_t)pz & 0xFFFFFu) << 24;
    for (int k = 0; k < 4; k++) key |= (uint64_t)coarser[k] << (44 + 4 * k);
    out->key = key;
    return ST_OK;
}

void far_patch_free(FarPatch *patch)
{
    free(patch->vertices);
    free(patch->indices);
    patch->vertices = NULL;
    patch->indices = NULL;
    patch->vertex_count = patch->index_count = 0;
}

int far_patch_runs(const FarPatch *p, double cam_x, double cam_z, double voxel_cover, FarCoveredFn covered,
                   void *user, int *first, int *count)
{
    int blocks = p->blocks > 0 ? p->blocks : 1, per = p->quads / blocks * (p->quads / blocks) * 6;
    double size = far_terrain_patch_size(p->level), bsize = size / blocks;
    int n = 0, squares = blocks * blocks, skirt = p->quads * 6;
    for (int b = 0; b < squares + 4; b++) {
        int start, length;
        double x0, z0, x1, z1;   /* the ground the run stands for */
        if (b < squares) {
            start = b * per;
            length = per;
            x0 = p->origin_x + (b % blocks) * bsize;
            z0 = p->origin_z + (b / blocks) * bsize;
            x1 = x0 + bsize;
            z1 = z0 + bsize;
        } else {   /* border k's skirt: a block to each side of the border */
            int k = b - squares;
            start = squares * per + k * skirt;
            length = start + skirt <= p->index_count ? skirt : 0;
            double edge = k == 0 ? p->origin_x + size : k == 1 ? p->origin_x : k == 2 ? p->origin_z + size : p->origin_z;
            x0 = k < 2 ? edge - 1.0 : p->origin_x;
            x1 = k < 2 ? edge + 1.0 : p->origin_x + size;
            z0 = k < 2 ? p->origin_z : edge - 1.0;
            z1 = k < 2 ? p->origin_z + size : edge + 1.0;
        }
        if (length <= 0) continue;
        double far_x = fmax(fabs(cam_x - x0), fabs(cam_x - x1)), far_z = fmax(fabs(cam_z - z0), fabs(cam_z - z1));
        if (far_x * far_x + far_z * far_z < voxel_cover * voxel_cover && (!covered || covered(user, x0, z0, x1, z1)))
            continue;   /* wholly under drawn voxel chunks */
        n = mesh_runs_append(first, count, n, start, length);
    }
    return n;
}

float far_patch_height_at(const FarPatch *p, double x, double z)
{
    int quads = p->quads, side = quads + 1;
    double size = far_terrain_patch_size(p->level), step = size / quads;
    double fx = (x - p->origin_x) / step, fz = (z - p->origin_z) / step;
    int i = (int)floor(fx), j = (int)floor(fz);
    i = i < 0 ? 0 : i >= quads ? quads - 1 : i;
    j = j < 0 ? 0 : j >= quads ? quads - 1 : j;
    float u = (float)(fx - i), v = (float)(fz - j);
    float ya = p->vertices[j * side + i].y, yb = p->vertices[j * side + i + 1].y;
    float yc = p->vertices[(j + 1) * side + i + 1].y, yd = p->vertices[(j + 1) * side + i].y;
    /* triangles (a, d, c) and (a, c, b): split along the a-c diagonal (u = v) */
    if (v >= u) return ya + (yc - yd) * u + (yd - ya) * v;
    return ya + (yb - ya) * u + (yc - yb) * v;
}
