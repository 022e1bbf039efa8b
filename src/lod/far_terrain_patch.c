/* far_terrain_patch.c — the pure half of far terrain: settings, level choice, the quadtree cut, what a column shows
 * (far_surface_at) and which of a patch's squares to draw (far_terrain_columns.c builds the meshes): those not
 * wholly under drawn voxel chunks and, where the renderer asks (far_patch_runs_split's `seen`, a FarSeenFn),
 * those whose box, the square's columns from their lowest vertex to their highest, may be seen. When every
 * square is drawn in the plain runs, the patch's tops merged across its squares stand in for theirs.
 *
 * Design. Patches are aligned squares: patch (px, pz) of level L covers [px, px + 1) x [pz, pz + 1) times
 * FAR_LEVEL0_SIZE << L blocks. The cut descends from the coarsest level, splitting a node while its nearest
 * point is nearer than its level's switching distance (times the bias); each leaf records the levels of its
 * coarser neighbours (the skirts reach down to their columns). A column shows the generator's surface block
 * at its centre (Generator.surface_block: snow cover, grass, sand, rock, ice, water) in the palette's colours
 * under the climate's tint; with the game's palette (the atlas tiles' mean colours) the far surface meets the
 * voxel chunks without a step in colour. Where the generator has tree rules (Generator.tree_cover) a grass
 * column whose cover reaches FAR_CANOPY_COVER is woodland's canopy, leaves FAR_CANOPY_HEIGHT over the
 * ground: over seed 1's woods the voxel chunks top 55% of such columns with leaves and 3% of the others
 * (test_far_terrain). Water is shaded by the depth of its floor in bands (the voxel sea shows its floor). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "far_internal.h"
#include "strata/mesher.h"


void far_terrain_settings_default(FarTerrainSettings *s)
{
    memset(s, 0, sizeof *s);
    static const float d[FAR_LEVELS - 1] = {80, 160, 320, 640};   /* columns 1, 2, 4, 8, 16 blocks: each at most
                                                                   * 12 pixels wide at 720p (fov 75: 11.7 px at a
                                                                   * band's start); 100, 200, 400, 800 drew 26% more
                                                                   * far triangles, most in the 2-block ring */
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
    (void)level;   /* every level has the same grid of columns: they double in width with the patch */
    return FAR_PATCH_QUADS;
}

/* ---- samples ---- */

static void far_mul(uint8_t rgb[3], const uint8_t a[3], const uint8_t b[3])
{
    for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)((a[i] * (b[i] + 1)) >> 8);
}

void far_palette_init(FarPalette *palette, const BlockRegistry *blocks)
{
    palette->blocks = blocks;
    for (int id = 0; id < BLOCK_MAX; id++) {
        const BlockDef *def = &blocks->defs[id];
        if (block_face_tinted(def, BLOCK_FACE_POS_Y)) memset(palette->top[id], 255, 3);
        else memcpy(palette->top[id], def->map_color, 3);
        if (block_face_tinted(def, BLOCK_FACE_POS_X)) memset(palette->side[id], 255, 3);
        else memcpy(palette->side[id], def->map_color, 3);
    }
}

/* Block `id`'s colour on face `face` (top or +X) at temperature t and humidity hu: the palette's, times the
 * climate's tint where the mesher tints that face. */
static void far_block_color(const FarPalette *palette, int id, BlockFace face, int t, int hu, uint8_t rgb[3])
{
    const BlockDef *def = &palette->blocks->defs[id];
    const uint8_t *base = face == BLOCK_FACE_POS_Y ? palette->top[id] : palette->side[id];
    if (!block_face_tinted(def, face)) {
        memcpy(rgb, base, 3);
        return;
    }
    uint8_t tint[3];
    mesher_tint_color(def->tint, t, hu, MESHER_SEASON_SUMMER, tint);
    far_mul(rgb, tint, base);
}

/* The block a cliff of `block` shows under its first cell: dirt under grass, stone under snow. */
static int far_under_block(int block)
{
    switch (block) {
    case BLOCK_GRASS: return BLOCK_DIRT;
    case BLOCK_SNOW_LAYER: case BLOCK_SNOW: case BLOCK_ICE: return BLOCK_STONE;
    default: return block;
    }
}

/* Shade of the voxel sea over a floor `depth` blocks down, in bands (so that open sea merges into few quads):
 * the voxel sea shows its sand floor through the water near the shore and grows darker as it deepens. */
float far_water_shade(float depth)
{
    return depth < 2.0f ? 0.95f : depth < 5.0f ? 0.88f : depth < 10.0f ? 0.8f : 0.72f;
}

void far_surface_at(const Generator *gen, const FarPalette *palette, double x, double z, bool full, FarSurface *s)
{
    float fx = (float)x, fz = (float)z;
    float h = gen->calculate_height(gen, fx, fz);
    float ocean = (float)gen->ocean_level(gen);
    s->height = h;
    s->water = h < ocean + 0.5f;
    s->top = far_surface_of(h, ocean);
    s->ground = s->top - 1.0f;
    s->canopy = false;
    s->cover = 0.0f;
    if (!full) return;
    int t = gen->calculate_temperature(gen, fx, fz), hu = gen->calculate_humidity(gen, fx, fz);
    int block = gen->surface_block ? gen->surface_block(gen, fx, fz, h, t, hu) : s->water ? BLOCK_WATER : BLOCK_GRASS;
    const BlockRegistry *blocks = palette->blocks;
    bool leaves = blocks->layer[block] == BLOCK_LAYER_ALPHA_TESTED && blocks->shape[block] == BLOCK_SHAPE_CUBE;
    if (gen->tree_cover && (leaves || block == BLOCK_GRASS)) {
        /* the scatter's tree rules decide where the canopy stands (surface_block's woodland guess aside) */
        int kind = BLOCK_OAK_LEAVES;
        s->cover = gen->tree_cover(gen, fx, fz, &kind);
        block = s->cover >= FAR_CANOPY_COVER ? kind : BLOCK_GRASS;
        leaves = block != BLOCK_GRASS;
    }
    far_block_color(palette, block, BLOCK_FACE_POS_Y, t, hu, s->rgb);
    far_block_color(palette, block, BLOCK_FACE_POS_X, t, hu, s->side);
    far_block_color(palette, far_under_block(block), BLOCK_FACE_POS_X, t, hu, s->under);
    if (leaves) {
        /* woodland: the canopy, a volume of leaves over the grass, its leaves' gaps in shade */
        for (int i = 0; i < 3; i++) {
            s->rgb[i] = (uint8_t)(s->rgb[i] * 7 / 8);
            s->side[i] = (uint8_t)(s->side[i] * 3 / 4);
        }
        far_block_color(palette, BLOCK_DIRT, BLOCK_FACE_POS_X, t, hu, s->under);
        s->ground = s->top;
        s->top += FAR_CANOPY_HEIGHT;
        s->canopy = true;
    }
    memcpy(s->base, s->rgb, 3);
    if (!leaves && block == BLOCK_WATER) {
        float shade = far_water_shade(ocean - h);
        for (int i = 0; i < 3; i++) {
            float c = s->rgb[i] * shade;
            s->rgb[i] = (uint8_t)(c > 255.0f ? 255.0f : c);
        }
    }
}

float far_terrain_sample(const Generator *gen, const FarPalette *palette, double x, double z, uint8_t rgb[3],
                         bool *water)
{
    FarSurface s;
    far_surface_at(gen, palette, x, z, true, &s);
    memcpy(rgb, s.rgb, 3);
    *water = s.water;
    return s.top;
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
    for (int k = 0; k < 4; k++) {
        int l = far_leaf_level_at(s, cx, cz, mx[k], mz[k]);
        p->coarser[k] = (uint8_t)(l > level ? l : level);
    }
    p->key = far_patch_key(level, (int)px, (int)pz, p->coarser);
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

/* ---- meshes (far_terrain_columns.c builds them) ---- */

uint64_t far_patch_key(int level, int px, int pz, const uint8_t coarser[4])
{
    uint64_t key = (uint64_t)level | ((uint64_t)(uint32_t)px & 0xFFFFFu) << 4 | ((uint64_t)(uint32_t)pz & 0xFFFFFu) << 24;
    for (int k = 0; k < 4; k++) key |= (uint64_t)coarser[k] << (44 + 4 * k);
    return key;
}

void far_patch_free(FarPatch *patch)
{
    free(patch->vertices);
    free(patch->indices);
    free(patch->tops);
    patch->vertices = NULL;
    patch->indices = NULL;
    patch->tops = NULL;
    patch->vertex_count = patch->index_count = 0;
}

int far_patch_runs(const FarPatch *p, double cam_x, double cam_z, double voxel_cover, FarCoveredFn covered,
                   void *user, int *first, int *count)
{
    return far_patch_runs_split(p, cam_x, cam_z, voxel_cover, covered, user, NULL, NULL, NULL, NULL, first, count,
                                NULL, NULL, NULL);
}

/* Appends square b's tops (unless `tops` is false) and the side groups that may face a camera at (cam_x,
 * cam_z): a +X side at x = e is a front face only for a camera at x > e, and the square's +X sides lie beyond
 * its west edge x0. */
static int far_square_runs(const FarPatch *p, int b, bool tops, double x0, double z0, double x1, double z1,
                           double cam_x, double cam_z, int *first, int *count, int n)
{
    const int *sides = p->square_sides[b];
    int end = p->square_first[b + 1];
    if (tops) n = mesh_runs_append(first, count, n, p->square_first[b], sides[FAR_SIDES_POS_X] - p->square_first[b]);
    bool facing[4] = {cam_x > x0, cam_z > z0, cam_x < x1, cam_z < z1};   /* FAR_SIDES_* */
    for (int g = 0; g < 4; g++) {
        int start = sides[g], stop = g < 3 ? sides[g + 1] : end;
        if (facing[g] && stop > start) n = mesh_runs_append(first, count, n, start, stop - start);
    }
    return n;
}

int far_patch_runs_split(const FarPatch *p, double cam_x, double cam_z, double voxel_cover, FarCoveredFn covered,
                         void *user, FarCoveredFn touches, void *touches_user, FarSeenFn seen, void *seen_user,
                         int *first, int *count, int *touched_first, int *touched_count, int *touched_runs)
{
    enum { FAR_SQUARE_OUT, FAR_SQUARE_PLAIN, FAR_SQUARE_TOUCHED };
    int blocks = p->blocks > 0 ? p->blocks : 1, n = 0, t = 0, plain = 0;
    double bsize = (double)far_terrain_patch_size(p->level) / blocks;
    uint8_t drawn[FAR_PATCH_MAX_SQUARES];
    for (int b = 0; b < blocks * blocks; b++) {
        drawn[b] = FAR_SQUARE_OUT;
        int length = p->square_first[b + 1] - p->square_first[b];
        if (length <= 0) continue;
        double x0 = p->origin_x + (b % blocks) * bsize, z0 = p->origin_z + (b / blocks) * bsize;
        double x1 = x0 + bsize, z1 = z0 + bsize;
        double far_x = fmax(fabs(cam_x - x0), fabs(cam_x - x1)), far_z = fmax(fabs(cam_z - z0), fabs(cam_z - z1));
        if (!(p->square_water >> b & 1u) && far_x * far_x + far_z * far_z < voxel_cover * voxel_cover &&
            (!covered || covered(user, x0, z0, x1, z1)))
            continue;   /* wholly under drawn voxel chunks */
        if (seen) {
            const double lo[3] = {x0, p->square_min_y[b], z0}, hi[3] = {x1, p->square_max_y[b], z1};
            if (!seen(seen_user, lo, hi)) continue;   /* off-screen or behind a hill */
        }
        drawn[b] = touches && touches(touches_user, x0, z0, x1, z1) ? FAR_SQUARE_TOUCHED : FAR_SQUARE_PLAIN;
        plain += drawn[b] == FAR_SQUARE_PLAIN;
    }
    /* every square in the plain runs: the patch's merged tops for theirs (fewer triangles, the same surface) */
    bool merged = p->tops_count > 0 && plain == blocks * blocks;
    if (merged) n = mesh_runs_append(first, count, n, p->tops_first, p->tops_count);
    for (int b = 0; b < blocks * blocks; b++) {
        if (drawn[b] == FAR_SQUARE_OUT) continue;
        double x0 = p->origin_x + (b % blocks) * bsize, z0 = p->origin_z + (b / blocks) * bsize;
        if (drawn[b] == FAR_SQUARE_TOUCHED)
            t = far_square_runs(p, b, true, x0, z0, x0 + bsize, z0 + bsize, cam_x, cam_z, touched_first,
                                touched_count, t);
        else
            n = far_square_runs(p, b, !merged, x0, z0, x0 + bsize, z0 + bsize, cam_x, cam_z, first, count, n);
    }
    if (touched_runs) *touched_runs = t;
    return n;
}

float far_patch_height_at(const FarPatch *p, double x, double z)
{
    int n = p->quads;
    double w = (double)far_terrain_patch_size(p->level) / n;
    int i = (int)floor((x - p->origin_x) / w), j = (int)floor((z - p->origin_z) / w);
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    j = j < 0 ? 0 : j >= n ? n - 1 : j;
    return p->tops[j * n + i];
}
