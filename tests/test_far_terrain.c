/* test_far_terrain.c — far terrain: level choice against the switching distances and the bias, the
 * quadtree cut, seams (every shared edge between neighbouring patches, of equal or different levels, has
 * the same heights on both sides: no crack), the voxel boundary (the far surface stays at or below the
 * generator's surface near the voxel chunks), and the streaming worker (a flush yields the full cut). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/far_terrain.h"
#include "strata/generator.h"
#include "strata/world_settings.h"

static BlockRegistry *blocks;
static FarPalette palette;   /* blocks.json's map colours */
static Generator *gen;

static void test_levels(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 0), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 99.9f), 0);
    /* defaults 100, 200, 400, 800 (were 100, 250, 600, 1500 with columns of 2, 8, 16, 32, 64 blocks): columns
     * of 1, 2, 4, 8, 16 blocks stay 6 to 12 pixels wide at 720p, twice as wide at twice the distance */
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 100), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 199), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 200), 2);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 399), 2);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 400), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 799), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 800), 4);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1e6f), 4);
    far_terrain_set_lod_bias(&s, 2.0f);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 199), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 200), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1599), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1600), 4);
    far_terrain_set_lod_bias(&s, 0.5f);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 49), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 50), 1);
    far_terrain_set_lod_bias(&s, 0.0f);   /* ignored */
    CHECK_NEAR(s.lod_bias, 0.5, 1e-6);
    far_terrain_set_lod_bias(&s, 1.0f);
    far_terrain_set_lod_distance(&s, 0, 40);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 39), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 41), 1);
    far_terrain_set_lod_distance(&s, 7, 1);   /* no such level: ignored */
    CHECK_NEAR(s.lod_distance[3], 800, 1e-6);
    CHECK_EQ_INT(far_terrain_patch_size(0), FAR_LEVEL0_SIZE);
    CHECK_EQ_INT(far_terrain_patch_size(4), FAR_LEVEL0_SIZE * 16);
    /* columns 1, 2, 4, 8 and 16 blocks wide: the width doubles with each level's distance band */
    static const int width[FAR_LEVELS] = {1, 2, 4, 8, 16};
    for (int l = 0; l < FAR_LEVELS; l++) {
        CHECK_EQ_INT(far_terrain_patch_quads(l), FAR_PATCH_QUADS);
        CHECK_EQ_INT(far_terrain_patch_size(l) / far_terrain_patch_quads(l), width[l]);
        CHECK_EQ_INT(far_terrain_patch_size(l) % far_terrain_patch_quads(l), 0);
    }
}

static FarPatch *build_cut(const FarTerrainSettings *s, double cx, double cz, int *n)
{
    FarPatch *leaves = malloc(4096 * sizeof *leaves);
    *n = far_terrain_select(s, cx, cz, leaves, 4096);
    for (int i = 0; i < *n; i++) {
        FarPatch p;
        CHECK_EQ_INT(far_patch_build(gen, &palette, leaves[i].level, leaves[i].px, leaves[i].pz, leaves[i].coarser, 0.0f, &p), ST_OK);
        CHECK(p.key == leaves[i].key);
        leaves[i] = p;
    }
    return leaves;
}

static void free_cut(FarPatch *leaves, int n)
{
    for (int i = 0; i < n; i++) far_patch_free(&leaves[i]);
    free(leaves);
}

static int leaf_at(const FarPatch *leaves, int n, double x, double z)
{
    for (int i = 0; i < n; i++) {
        double size = far_terrain_patch_size(leaves[i].level);
        if (x >= leaves[i].origin_x && x < leaves[i].origin_x + size && z >= leaves[i].origin_z && z < leaves[i].origin_z + size)
            return i;
    }
    return -1;
}

/* Whether the generator's terrain is smooth around world (x, z) at the scale of level's height grid (points
 * 4 << level blocks apart): its second differences over one spacing (along x, along z and across) are at most
 * a block, so a mix of the grid's heights lies within a block of the generator's own. */
static bool smooth_at(int level, double x, double z)
{
    float d = (float)(4 << level), fx = (float)x, fz = (float)z, h = gen->calculate_height(gen, fx, fz);
    float ddx = gen->calculate_height(gen, fx + d, fz) + gen->calculate_height(gen, fx - d, fz) - 2.0f * h;
    float ddz = gen->calculate_height(gen, fx, fz + d) + gen->calculate_height(gen, fx, fz - d) - 2.0f * h;
    float dxz = (gen->calculate_height(gen, fx + d, fz + d) - gen->calculate_height(gen, fx + d, fz - d) -
                 gen->calculate_height(gen, fx - d, fz + d) + gen->calculate_height(gen, fx - d, fz - d)) * 0.25f;
    return fabsf(ddx) <= 1.0f && fabsf(ddz) <= 1.0f && fabsf(dxz) <= 1.0f;
}

/* Points from 24 blocks inside the voxel distance to 48 beyond it, against the surface the voxel chunks would
 * have at their column's centre (far_terrain_sample: the ground cell's top, the sea's surface, woodland's
 * canopy): the far columns go on at the voxels' height, unsunk (far.frag leaves out what lies over drawn
 * voxel chunks instead). A column's height is the shared grid's mixed and rounded to its ground cell's top
 * (levels 0 and 1) or to the nearest cube of its width (1 << level blocks, from level 2 on), so where the terrain
 * is smooth (smooth_at) it is within a block, or that cube, of the voxels' (an eighth more where one is the
 * sea's surface; off counts the others; *rough the points on
 * steeper ground, not compared); its canopy is its nearest grid point's, so at a wood's edge it may stand
 * FAR_CANOPY_HEIGHT over or under (*edge). Every top is a whole block (or the sea's surface). */
static int count_off(const FarTerrainSettings *s, double cx, double cz, const FarPatch *leaves, int n, int *near,
                     int *edge, int *rough)
{
    int off = 0;
    float sea = (float)gen->ocean_level(gen) + 0.875f;
    for (int a = 0; a < 720; a++) {
        for (double r = s->voxel_distance - 24; r <= s->voxel_distance + 48; r += 3) {
            double x = cx + r * cos(a * M_PI / 360), z = cz + r * sin(a * M_PI / 360);
            int i = leaf_at(leaves, n, x, z);
            if (i < 0) continue;
            (*near)++;
            double w = (double)far_terrain_patch_size(leaves[i].level) / leaves[i].quads;
            double mx = leaves[i].origin_x + (floor((x - leaves[i].origin_x) / w) + 0.5) * w;
            double mz = leaves[i].origin_z + (floor((z - leaves[i].origin_z) / w) + 0.5) * w;
            uint8_t rgb[3];
            bool water;
            float surface = far_terrain_sample(gen, &palette, mx, mz, rgb, &water);
            float y = far_patch_height_at(&leaves[i], x, z);
            if (y != sea && y != floorf(y)) off++;   /* a whole block, or the sea's surface */
            float d = fabsf(y - surface), cube = (float)(leaves[i].level < 2 ? 1 : 1 << leaves[i].level) + 0.125f + 1e-3f;
            if (d <= cube) continue;
            if (fabsf(d - 6.0f) <= cube) {   /* FAR_CANOPY_HEIGHT: a wood's edge */
                (*edge)++;
            } else if (!smooth_at(leaves[i].level, mx, mz)) {
                (*rough)++;
            } else {
                if (off < 5) printf("off: %.1f %.1f level %d far %.2f surface %.2f\n", x, z, leaves[i].level, y, surface);
                off++;
            }
        }
    }
    return off;
}

/* The lowest and highest y of patch p's side faces in the plane of its local coordinate `plane` along axis
 * `axis` (0: x = plane, faces looking along X; 2: z = plane) that cover coordinate s along that plane (the
 * other horizontal axis). Faces are quads of 4 vertices of their own. Returns false if none. */
static bool side_span(const FarPatch *p, int axis, float plane, float s, float *lo, float *hi)
{
    bool any = false;
    *lo = 1e9f;
    *hi = -1e9f;
    for (int q = 0; q + 3 < p->vertex_count; q += 4) {
        const FarVertex *v = &p->vertices[q];
        bool in_plane = true;
        float s0 = 1e9f, s1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
        for (int k = 0; k < 4; k++) {
            float a = axis == 0 ? v[k].x : v[k].z, b = axis == 0 ? v[k].z : v[k].x;
            in_plane &= fabsf(a - plane) < 1e-4f;
            s0 = fminf(s0, b);
            s1 = fmaxf(s1, b);
            y0 = fminf(y0, v[k].y);
            y1 = fmaxf(y1, v[k].y);
        }
        if (!in_plane || y1 - y0 < 1e-4f || s < s0 - 1e-4f || s > s1 + 1e-4f) continue;
        any = true;
        *lo = fminf(*lo, y0);
        *hi = fmaxf(*hi, y1);
    }
    return any;
}

/* Whether the step between two columns at the point s of plane (axis, plane) of patch p (its higher column's
 * patch) is closed: a side spans from the higher top down to the lower one. */
static bool step_closed(const FarPatch *p, int axis, float plane, float s, float high, float low)
{
    if (high - low < 1e-3f) return true;
    float lo, hi;
    return side_span(p, axis, plane, s, &lo, &hi) && lo <= low + 1e-3f && hi >= high - 1e-3f;
}

static void test_cut_and_seams(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    s.far_distance = 2048;
    s.voxel_distance = 128;
    double cx = 37.5, cz = -81.25;
    int n = 0;
    FarPatch *leaves = build_cut(&s, cx, cz, &n);
    CHECK(n > 20);
    int levels[FAR_LEVELS] = {0};
    for (int i = 0; i < n; i++) levels[leaves[i].level]++;
    for (int l = 1; l < FAR_LEVELS; l++) CHECK(levels[l] > 0);   /* every level but 0 (under the voxels) shows */
    /* levels follow the distances: each leaf's level is the rule's level for its nearest point */
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        double size = far_terrain_patch_size(leaves[i].level);
        double dx = fmax(fmax(leaves[i].origin_x - cx, cx - (leaves[i].origin_x + size)), 0.0);
        double dz = fmax(fmax(leaves[i].origin_z - cz, cz - (leaves[i].origin_z + size)), 0.0);
        int want = far_terrain_level_for_distance(&s, (float)sqrt(dx * dx + dz * dz));
        wrong += want < leaves[i].level;   /* never coarser than its distance asks ... */
        if (leaves[i].level < FAR_LEVELS - 1) {   /* ... and finer only because its parent had to split */
            double ps = size * 2, px = floor(leaves[i].origin_x / ps) * ps, pz = floor(leaves[i].origin_z / ps) * ps;
            double pdx = fmax(fmax(px - cx, cx - (px + ps)), 0.0), pdz = fmax(fmax(pz - cz, cz - (pz + ps)), 0.0);
            wrong += far_terrain_level_for_distance(&s, (float)sqrt(pdx * pdx + pdz * pdz)) > leaves[i].level;
        }
    }
    CHECK_EQ_INT(wrong, 0);
    /* no overlap: every point is in at most one leaf (checked on a grid) */
    int overlaps = 0;
    for (double z = cz - 2000; z < cz + 2000; z += 37)
        for (double x = cx - 2000; x < cx + 2000; x += 37) {
            int count = 0;
            for (int i = 0; i < n; i++) {
                double size = far_terrain_patch_size(leaves[i].level);
                count += x >= leaves[i].origin_x && x < leaves[i].origin_x + size && z >= leaves[i].origin_z &&
                         z < leaves[i].origin_z + size;
            }
            overlaps += count > 1;
        }
    CHECK_EQ_INT(overlaps, 0);
    /* seams: at every point of every edge, the higher of the two patches' columns hangs a side (its skirt)
     * down to the lower one's top: no crack between patches of any levels */
    int pairs_mixed = 0, pairs_grids = 0, cracks = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        double size = far_terrain_patch_size(leaves[i].level);
        for (int k = 0; k < 4; k++)
            for (int m = 0; m < 64; m++) {
                double t = size * (m + 0.5) / 64.0;
                double ex = k == 0 ? leaves[i].origin_x + size : k == 1 ? leaves[i].origin_x : leaves[i].origin_x + t;
                double ez = k < 2 ? leaves[i].origin_z + t : k == 2 ? leaves[i].origin_z + size : leaves[i].origin_z;
                double ox = k == 0 ? 0.25 : k == 1 ? -0.25 : 0, oz = k == 2 ? 0.25 : k == 3 ? -0.25 : 0;
                int j = leaf_at(leaves, n, ex + ox, ez + oz);
                if (j < 0) continue;
                float a = far_patch_height_at(&leaves[i], ex - ox, ez - oz), b = far_patch_height_at(&leaves[j], ex + ox, ez + oz);
                checked++;
                if (leaves[j].level != leaves[i].level && m == 32) pairs_mixed++;
                /* columns of one width against columns twice as wide */
                if (leaves[j].level == leaves[i].level + 1 && m == 32) pairs_grids++;
                if (a < b) continue;   /* the other patch's side closes it (checked from there) */
                float plane = (float)(k == 0 ? size : k == 1 ? 0.0 : k == 2 ? size : 0.0);
                if (!step_closed(&leaves[i], k < 2 ? 0 : 2, plane, (float)t, a, b)) {
                    if (cracks < 5) printf("crack: %.1f %.1f levels %d/%d tops %.1f %.1f\n", ex, ez, leaves[i].level, leaves[j].level, a, b);
                    cracks++;
                }
            }
    }
    CHECK(checked > 1000);
    CHECK(pairs_mixed > 0);
    CHECK(pairs_grids > 0);
    CHECK_EQ_INT(cracks, 0);
    /* the voxel boundary: near the view distance the far columns stand at the voxels' surface */
    int near = 0, edge = 0, rough = 0;
    CHECK_EQ_INT(count_off(&s, cx, cz, leaves, n, &near, &edge, &rough), 0);
    CHECK(near > 1000);
    printf("voxel distance 128: %d points, %d at a wood's edge, %d on steep ground\n", near, edge, rough);
    CHECK(edge * 50 <= near);    /* woods' edges off by a column or so: at most 2% of the points */
    CHECK(rough * 10 <= near);   /* and most of the boundary compared */
    free_cut(leaves, n);
    /* the same at view distances 16 and 32, where the boundary lies in coarser levels */
    for (int vd = 256; vd <= 512; vd *= 2) {
        s.voxel_distance = (float)vd;
        leaves = build_cut(&s, cx, cz, &n);
        near = edge = rough = 0;
        CHECK_EQ_INT(count_off(&s, cx, cz, leaves, n, &near, &edge, &rough), 0);
        CHECK(near > 1000);
        printf("voxel distance %d: %d points, %d at a wood's edge, %d on steep ground\n", vd, near, edge, rough);
        /* the boundary lies in levels 2 and 3 here, whose grids are 16 and 32 blocks: the tree cover mixed
         * between points that far apart puts woods' edges a column or two off at up to 10% of the points (the
         * columns were as wide as those grids before, each sampled at its centre) */
        CHECK(edge * 10 <= near);
        free_cut(leaves, n);
    }
    /* far distance 0: off */
    s.far_distance = 0;
    FarPatch one;
    CHECK_EQ_INT(far_terrain_select(&s, 0, 0, &one, 1), 0);
}

/* Voxel chunks drawn over x < 160 only (the left half of patch (1, 2, 0)). */
static bool covered_left_half(void *user, double x0, double z0, double x1, double z1)
{
    (void)z0;
    (void)z1;
    (*(int *)user)++;
    return x0 >= 128.0 && x1 <= 160.0;
}

/* Indices far_patch_runs draws of square b of p for a camera at (cam_x, cam_z), counted here from the layout
 * (FarPatch.square_sides): its tops and each side group that may face the camera (+X sides only for a camera
 * east of the square's west edge, and so on). */
static int square_expected(const FarPatch *p, int b, double cam_x, double cam_z)
{
    double bsize = (double)far_terrain_patch_size(p->level) / p->blocks;
    double x0 = p->origin_x + (b % p->blocks) * bsize, z0 = p->origin_z + (b / p->blocks) * bsize;
    bool facing[4] = {cam_x > x0, cam_z > z0, cam_x < x0 + bsize, cam_z < z0 + bsize};
    int total = p->square_sides[b][0] - p->square_first[b];
    for (int g = 0; g < 4; g++)
        if (facing[g]) total += (g < 3 ? p->square_sides[b][g + 1] : p->square_first[b + 1]) - p->square_sides[b][g];
    return total;
}

/* Whether square b's tops lie in one of the runs. */
static bool tops_drawn(const FarPatch *p, int b, const int *first, const int *count, int n)
{
    bool drawn = false;
    for (int k = 0; k < n; k++) drawn |= p->square_first[b] >= first[k] && p->square_sides[b][0] <= first[k] + count[k];
    return drawn;
}

/* far_patch_runs: the squares of a patch wholly inside the voxel cover are left out (each with its tops, its
 * sides and its skirts); of the others, the tops and the side groups that may face the camera are drawn once
 * (a group facing away is all back faces). */
static void test_runs_under_voxels(void)
{
    static const uint8_t same[4] = {1, 1, 1, 1};
    FarPatch p;
    CHECK_EQ_INT(far_patch_build(gen, &palette, 1, 2, 0, same, 0.0f, &p), ST_OK);   /* x 128..192, z 0..64 */
    CHECK(p.blocks >= 1 && p.quads % p.blocks == 0);
    int squares = p.blocks * p.blocks;
    CHECK_EQ_INT(p.square_first[0], 0);
    CHECK_EQ_INT(p.square_first[squares], p.index_count);
    for (int b = 0; b < squares; b++) {
        CHECK(p.square_sides[b][0] > p.square_first[b]);   /* every square has its top */
        for (int g = 0; g < 4; g++) CHECK(p.square_sides[b][g] <= (g < 3 ? p.square_sides[b][g + 1] : p.square_first[b + 1]));
    }
    /* the side groups face their way: every quad of group g is vertical and wound to face it */
    int faced = 0;
    for (int b = 0; b < squares; b++)
        for (int g = 0; g < 4; g++) {
            int end = g < 3 ? p.square_sides[b][g + 1] : p.square_first[b + 1];
            for (int k = p.square_sides[b][g]; k < end; k += 3) {
                const FarVertex *a = &p.vertices[p.indices[k]], *b1 = &p.vertices[p.indices[k + 1]], *c = &p.vertices[p.indices[k + 2]];
                /* the normal (b1 - a) x (c - a): counter-clockwise seen from outside */
                float ux = b1->x - a->x, uy = b1->y - a->y, uz = b1->z - a->z, vx = c->x - a->x, vy = c->y - a->y, vz = c->z - a->z;
                float nx = uy * vz - uz * vy, nz = ux * vy - uy * vx;
                float want[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
                CHECK(nx * want[g][0] + nz * want[g][1] > 0.0f);
                faced++;
            }
        }
    CHECK(faced > 0);
    int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS];
    /* no cover: every square's tops and the sides that may face a camera west of the patch (no +X group) */
    int n = far_patch_runs(&p, 0, 0, 0.0, NULL, NULL, first, count);
    int total = 0, expected = 0;
    for (int k = 0; k < n; k++) total += count[k];
    for (int b = 0; b < squares; b++) {
        expected += square_expected(&p, b, 0, 0);
        CHECK(tops_drawn(&p, b, first, count, n));
    }
    CHECK_EQ_INT(total, expected);
    CHECK(total < p.index_count);   /* the sides facing away are left out */
    /* a camera over the middle of the patch: every group of the squares around it */
    n = far_patch_runs(&p, 160.0, 32.0, 0.0, NULL, NULL, first, count);
    total = expected = 0;
    for (int k = 0; k < n; k++) total += count[k];
    for (int b = 0; b < squares; b++) expected += square_expected(&p, b, 160.0, 32.0);
    CHECK_EQ_INT(total, expected);
    /* a cover reaching into the patch: the kept squares are exactly those with a corner beyond it */
    double cam_x = 100.0, cam_z = 30.0, cover = 75.0;
    n = far_patch_runs(&p, cam_x, cam_z, cover, NULL, NULL, first, count);
    CHECK(n >= 1 && n <= FAR_PATCH_MAX_RUNS);
    int kept = 0, dropped = 0, kept_indices = 0;
    double bsize = (double)far_terrain_patch_size(p.level) / p.blocks;
    for (int b = 0; b < squares; b++) {
        double x0 = p.origin_x + (b % p.blocks) * bsize, z0 = p.origin_z + (b / p.blocks) * bsize, far2 = 0.0;
        for (int c = 0; c < 4; c++) {
            double dx = x0 + (c & 1) * bsize - cam_x, dz = z0 + (c >> 1) * bsize - cam_z;
            far2 = fmax(far2, dx * dx + dz * dz);
        }
        bool drawn = tops_drawn(&p, b, first, count, n);
        CHECK(drawn == (far2 >= cover * cover || (p.square_water >> b & 1u)));   /* the sea's squares stay */
        kept += drawn;
        dropped += !drawn;
        if (drawn) kept_indices += square_expected(&p, b, cam_x, cam_z);
    }
    CHECK(kept > 0 && dropped > 0);
    total = 0;   /* the runs do not overlap */
    for (int k = 0; k < n; k++) {
        total += count[k];
        if (k > 0) CHECK(first[k] > first[k - 1] + count[k - 1]);
    }
    CHECK_EQ_INT(total, kept_indices);
    /* a cover over the whole patch: nothing but the sea's squares */
    n = far_patch_runs(&p, 160.0, 32.0, 1000.0, NULL, NULL, first, count);
    total = 0;
    int sea = 0;
    for (int k = 0; k < n; k++) total += count[k];
    for (int b = 0; b < squares; b++)
        if (p.square_water >> b & 1u) sea += square_expected(&p, b, 160.0, 32.0);
    CHECK_EQ_INT(total, sea);
    /* ... unless the chunks there are not drawn yet: then the squares over them stay */
    int asked = 0;
    n = far_patch_runs(&p, 160.0, 32.0, 1000.0, covered_left_half, &asked, first, count);
    CHECK(asked >= squares - __builtin_popcount(p.square_water));   /* every land square is asked */
    total = 0;
    int right = 0;
    for (int b = 0; b < squares; b++)
        if (b % p.blocks >= p.blocks / 2 || (p.square_water >> b & 1u)) right += square_expected(&p, b, 160.0, 32.0);
    for (int k = 0; k < n; k++) total += count[k];
    CHECK_EQ_INT(total, right);
    far_patch_free(&p);
}

/* Squares reaching x < 160 (the renderer's "touches a drawn chunk"). */
static bool touches_left_half(void *user, double x0, double z0, double x1, double z1)
{
    (void)user;
    (void)z0;
    (void)z1;
    (void)x1;
    return x0 < 160.0;
}

/* far_patch_runs_split: the squares far_patch_runs keeps, each exactly once, in the touched runs when
 * `touches` says so and in the others when not; without `touches` it is far_patch_runs. */
static void test_runs_split(void)
{
    static const uint8_t same[4] = {1, 1, 1, 1};
    FarPatch p;
    CHECK_EQ_INT(far_patch_build(gen, &palette, 1, 2, 0, same, 0.0f, &p), ST_OK);   /* x 128..192, z 0..64 */
    int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS], tf[FAR_PATCH_MAX_RUNS], tc[FAR_PATCH_MAX_RUNS];
    int f2[FAR_PATCH_MAX_RUNS], c2[FAR_PATCH_MAX_RUNS], t = -1;
    double cam_x = 100.0, cam_z = 30.0, cover = 75.0;
    int n = far_patch_runs(&p, cam_x, cam_z, cover, NULL, NULL, first, count);
    int m = far_patch_runs_split(&p, cam_x, cam_z, cover, NULL, NULL, NULL, NULL, f2, c2, tf, tc, &t);
    CHECK_EQ_INT(t, 0);
    CHECK_EQ_INT(m, n);
    for (int k = 0; k < n && k < m; k++) CHECK(f2[k] == first[k] && c2[k] == count[k]);
    m = far_patch_runs_split(&p, cam_x, cam_z, cover, NULL, NULL, touches_left_half, NULL, f2, c2, tf, tc, &t);
    int squares = p.blocks * p.blocks;
    double bsize = (double)far_terrain_patch_size(p.level) / p.blocks;
    int plain_squares = 0, touched_squares = 0;
    for (int b = 0; b < squares; b++) {
        int lo = p.square_first[b], hi = p.square_sides[b][0];   /* its tops */
        bool kept = false, in_plain = false, in_touched = false;
        for (int k = 0; k < n; k++) kept |= lo >= first[k] && hi <= first[k] + count[k];
        for (int k = 0; k < m; k++) in_plain |= lo >= f2[k] && hi <= f2[k] + c2[k];
        for (int k = 0; k < t; k++) in_touched |= lo >= tf[k] && hi <= tf[k] + tc[k];
        bool left = p.origin_x + (b % p.blocks) * bsize < 160.0;
        CHECK(!(in_plain && in_touched));
        CHECK(in_plain == (kept && !left));
        CHECK(in_touched == (kept && left));
        plain_squares += in_plain;
        touched_squares += in_touched;
    }
    CHECK(plain_squares > 0 && touched_squares > 0);
    far_patch_free(&p);
}

/* The far columns are drawn as the voxels draw blocks: every face is flat and of one colour, a top level,
 * a side vertical; a side is shaded as the mesher shades its direction against the top (+-X 0.8, +-Z 0.9);
 * inside a patch every step between neighbouring columns is closed by a side from the higher top down to
 * the lower one; and neighbouring tops of equal height and colour are merged (fewer quads than columns). */
static void test_columns(void)
{
    static const uint8_t same[4] = {1, 1, 1, 1}, fine[4] = {0, 0, 0, 0};
    int tops = 0, sides = 0, steps = 0, open = 0, columns = 0;
    for (int k = 0; k < 6; k++) {
        FarPatch p;
        int level = k < 3 ? 1 : 0;
        CHECK_EQ_INT(far_patch_build(gen, &palette, level, k * 3 - 4, 2 - k, level ? same : fine, 0.0f, &p), ST_OK);
        for (int q = 0; q + 3 < p.vertex_count; q += 4) {
            const FarVertex *v = &p.vertices[q];
            bool level_face = true, same_colour = true, vertical_x = true, vertical_z = true;
            for (int i = 1; i < 4; i++) {
                level_face &= v[i].y == v[0].y;
                same_colour &= memcmp(v[i].color, v[0].color, 4) == 0;
                vertical_x &= v[i].x == v[0].x;
                vertical_z &= v[i].z == v[0].z;
            }
            CHECK(same_colour);
            CHECK(level_face || vertical_x || vertical_z);
            tops += level_face;
            sides += !level_face;
        }
        int n = p.quads;
        float w = (float)far_terrain_patch_size(level) / n;
        columns += n * n;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                float here = p.tops[j * n + i];
                if (i + 1 < n) {
                    float there = p.tops[j * n + i + 1];
                    steps += here != there;
                    if (!step_closed(&p, 0, (i + 1) * w, (j + 0.5f) * w, fmaxf(here, there), fminf(here, there))) open++;
                }
                if (j + 1 < n) {
                    float there = p.tops[(j + 1) * n + i];
                    steps += here != there;
                    if (!step_closed(&p, 2, (j + 1) * w, (i + 0.5f) * w, fmaxf(here, there), fminf(here, there))) open++;
                }
            }
        far_patch_free(&p);
    }
    fprintf(stderr, "columns: %d columns, %d tops, %d sides, %d steps\n", columns, tops, sides, steps);
    CHECK(steps > 50);   /* the patches are not flat: the check below means something */
    CHECK_EQ_INT(open, 0);
    CHECK(tops > 0 && tops < columns);
    CHECK(sides > 0);
    /* the shading: a grass column's top and its +X side, both from the palette's grass */
    FarPalette grey = palette;
    for (int id = 0; id < BLOCK_MAX; id++) {
        memset(grey.top[id], 200, 3);
        memset(grey.side[id], 200, 3);
    }
    int x_sides = 0, z_sides = 0;
    for (int k = 0; k < 4; k++) {   /* seed 1's snowy spawn: snow and rock are untinted */
        FarPatch p;
        CHECK_EQ_INT(far_patch_build(gen, &grey, 1, k % 2 - 1, k / 2 - 1, same, 0.0f, &p), ST_OK);
        for (int q = 0; q + 3 < p.vertex_count; q += 4) {
            const FarVertex *v = &p.vertices[q];
            bool vx = v[0].x == v[1].x && v[1].x == v[2].x, vz = v[0].z == v[1].z && v[1].z == v[2].z;
            if (vx == vz || v[0].color[0] != v[0].color[1] || v[0].color[1] != v[0].color[2]) continue;
            /* untinted blocks are 200 grey: their sides 160 (X) and 180 (Z) */
            CHECK_EQ_INT(v[0].color[0], vx ? 160 : 180);
            x_sides += vx;
            z_sides += vz;
        }
        far_patch_free(&p);
    }
    CHECK(x_sides > 0 && z_sides > 0);
    fprintf(stderr, "grey sides: %d X, %d Z\n", x_sides, z_sides);
}

/* The nearest level's far columns continue the voxel terrain block for block: level 0's columns are 1 block
 * wide, their tops whole blocks (or the sea's surface), and where the terrain is smooth (smooth_at) each top is
 * within a block of the voxel chunks' own surface in that column (the generated chunks: the top of their
 * highest solid cube, or of their water), trees and canopy aside. */
static void test_nearest_columns_match_voxels(void)
{
    static const int spots[][2] = {{0, 0}, {5, -3}, {-8, 4}, {20, 10}, {-30, -20}, {12, 40}};
    static const uint8_t fine[4] = {0, 0, 0, 0};
    CHECK_EQ_INT(far_terrain_patch_size(0) / far_terrain_patch_quads(0), 1);
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = chunk_create(0, 0);
    float sea = (float)gen->ocean_level(gen) + 0.875f;
    int compared = 0, within = 0, whole = 0, columns = 0, exact = 0, unsourced = 0;
    for (int k = 0; k < 6; k++) {
        FarPatch p;
        CHECK_EQ_INT(far_patch_build(gen, &palette, 0, spots[k][0], spots[k][1], fine, 0.0f, &p), ST_OK);
        CHECK_EQ_INT(p.quads, FAR_LEVEL0_SIZE);
        for (int q = 0; q < 4; q++) {   /* the patch's 2 x 2 chunks */
            int cx = spots[k][0] * 2 + (q & 1), cz = spots[k][1] * 2 + (q >> 1);
            chunk_reset(c, cx, cz);
            generator_generate_chunk(gen, c, ctx);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int i = (q & 1) * 16 + x, j = (q >> 1) * 16 + z;
                    float top = p.tops[j * p.quads + i];
                    columns++;
                    whole += top == floorf(top) || top == sea;
                    int y = 254, block = BLOCK_AIR;
                    bool tree = false;
                    for (; y > 0; y--) {
                        block = chunk_get_contents(c, x, y, z);
                        if (block == BLOCK_AIR) continue;
                        const BlockDef *def = &blocks->defs[block];
                        if (block == BLOCK_WATER || (def->shape == BLOCK_SHAPE_CUBE && blocks->layer[block] == BLOCK_LAYER_OPAQUE))
                            break;
                        tree |= blocks->layer[block] == BLOCK_LAYER_ALPHA_TESTED && def->shape == BLOCK_SHAPE_CUBE;
                    }
                    float voxel = block == BLOCK_WATER ? sea : (float)(y + 1);
                    double wx = cx * 16 + x + 0.5, wz = cz * 16 + z + 0.5;
                    if (tree || top > voxel + 3.0f || !smooth_at(0, wx, wz)) continue;   /* trees, canopy, cliffs */
                    /* where the generator's height itself is not the voxels' surface (pass 2's beaches raise
                     * the sand a block or two over the sea), far terrain has no way to know: not compared */
                    uint8_t rgb[3];
                    bool water;
                    if (fabsf(far_terrain_sample(gen, &palette, wx, wz, rgb, &water) - voxel) > 1.0f + 1e-3f) {
                        unsourced++;
                        continue;
                    }
                    compared++;
                    within += fabsf(top - voxel) <= 1.0f + 1e-3f;
                    exact += top == voxel;
                }
        }
        far_patch_free(&p);
    }
    fprintf(stderr, "nearest columns: %d of %d compared, %d within a block, %d the same (%d where the generator's "
            "height is not the voxels' surface)\n", compared, columns, within, exact, unsourced);
    CHECK_EQ_INT(whole, columns);
    CHECK(compared > columns / 3);
    CHECK(unsourced * 5 < compared);
    CHECK(within * 100 >= compared * 99);   /* all but a structure's or a trunk's odd column */
    CHECK(exact * 2 >= compared);   /* a mixed height rounds to the voxels' block or the next: mostly the same */
    chunk_destroy(c);
    gen_context_destroy(ctx);
}

static void test_water_flat(void)
{
    /* find a patch of ocean: walk away from the spawn until a sample is water */
    uint8_t rgb[3];
    bool water = false;
    double x = 0;
    for (x = 0; x < 200000; x += 256) {
        far_terrain_sample(gen, &palette, x, 0, rgb, &water);
        if (water) break;
    }
    if (!water) return;   /* no ocean on this line: nothing to check */
    float a = far_terrain_sample(gen, &palette, x, 0, rgb, &water);
    CHECK_NEAR(a, gen->ocean_level(gen) + 0.875, 1e-4);
}

static void test_streaming(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    s.far_distance = 700;
    s.streaming_budget_per_frame = 2;
    s.voxel_distance = 16;   /* the leaf at the origin (key 0) is made too */
    s.priority_mode = FAR_PRIORITY_DIRECTION_BASED;
    FarTerrain *ft = NULL;
    CHECK_EQ_INT(far_terrain_create(gen, &palette, &s, &ft), ST_OK);
    if (!ft) return;
    const FarPatch *const *patches;
    far_terrain_update(ft, 0, 0, 0, -1);
    CHECK_EQ_INT(far_terrain_patches(ft, &patches), 0);   /* nothing until the whole cut is built */
    far_terrain_flush(ft, 0, 0);
    FarPatch leaves[4096];
    int want = far_terrain_select(far_terrain_settings(ft), 0, 0, leaves, 4096);
    int n = far_terrain_patches(ft, &patches);
    CHECK_EQ_INT(n, want);
    CHECK(n > 0);
    /* move: the old cut stays drawn until the new one is complete */
    far_terrain_update(ft, 300, 0, 1, 0);
    CHECK_EQ_INT(far_terrain_patches(ft, &patches), n);
    far_terrain_flush(ft, 300, 0);
    int want2 = far_terrain_select(far_terrain_settings(ft), 300, 0, leaves, 4096);
    CHECK_EQ_INT(far_terrain_patches(ft, &patches), want2);
    FarTerrainStats st;
    far_terrain_get_stats(ft, &st);
    CHECK(st.triangles > 0);
    far_terrain_destroy(ft);
}

/* The view distance changes (the settings menu): the far ring follows, in both directions. */
static bool far_cut_clear_of(const FarPatch *const *patches, int n, double cam_x, double cam_z, double voxel)
{
    for (int i = 0; i < n; i++) {
        double size = far_terrain_patch_size(patches[i]->level);
        double fx = fmax(fabs(patches[i]->origin_x - cam_x), fabs(patches[i]->origin_x + size - cam_x));
        double fz = fmax(fabs(patches[i]->origin_z - cam_z), fabs(patches[i]->origin_z + size - cam_z));
        if (sqrt(fx * fx + fz * fz) < voxel) return false;   /* wholly under the voxel chunks */
    }
    return true;
}

static void test_voxel_distance_follows(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    s.far_distance = 600;
    s.voxel_distance = 128;
    FarTerrain *ft = NULL;
    CHECK_EQ_INT(far_terrain_create(gen, &palette, &s, &ft), ST_OK);
    if (!ft) return;
    const FarPatch *const *patches;
    far_terrain_flush(ft, 0, 0);
    int n8 = far_terrain_patches(ft, &patches);
    CHECK(n8 > 0);
    far_terrain_set_voxel_distance(ft, 256);           /* view distance 8 -> 16 */
    CHECK_NEAR(far_terrain_settings(ft)->voxel_distance, 256, 1e-6);
    far_terrain_flush(ft, 0, 0);
    int n16 = far_terrain_patches(ft, &patches);
    FarPatch leaves[4096];
    CHECK_EQ_INT(n16, far_terrain_select(far_terrain_settings(ft), 0, 0, leaves, 4096));
    CHECK(far_cut_clear_of(patches, n16, 0, 0, 256));
    far_terrain_set_voxel_distance(ft, 32);            /* -> 2: the ring comes back, nearer than before */
    far_terrain_flush(ft, 0, 0);
    int n2 = far_terrain_patches(ft, &patches);
    CHECK(n2 > n8);
    bool near_leaf = false;
    for (int i = 0; i < n2; i++) {
        double size = far_terrain_patch_size(patches[i]->level);
        double nx = fmax(0.0, fmax(patches[i]->origin_x, -(patches[i]->origin_x + size)));
        double nz = fmax(0.0, fmax(patches[i]->origin_z, -(patches[i]->origin_z + size)));
        near_leaf = near_leaf || sqrt(nx * nx + nz * nz) < 100.0;
    }
    CHECK(near_leaf);                                  /* leaves inside the old 128-block ring */
    far_terrain_destroy(ft);
}

/* The block a voxel column shows from above, as the far terrain would name it: the snow cover for a column
 * under snow, the ground under a plant; -1 where a tree or a building stands (the far surface has none). */
static int voxel_surface_block(const TerrainChunk *c, int x, int z)
{
    int y = 254;
    while (y > 0 && chunk_get_contents(c, x, y, z) == BLOCK_AIR) y--;
    int top = chunk_get_contents(c, x, y, z);
    if (top == BLOCK_SNOW_LAYER) return top;
    if (blocks->defs[top].shape != BLOCK_SHAPE_CUBE && blocks->defs[top].shape != BLOCK_SHAPE_FLUID) top = chunk_get_contents(c, x, y - 1, z);
    if (top == BLOCK_ICE && chunk_get_contents(c, x, y - 1, z) == BLOCK_WATER) return top;
    switch (top) {
    case BLOCK_WATER: case BLOCK_ICE: case BLOCK_GRASS: case BLOCK_SAND: case BLOCK_GRAVEL: case BLOCK_GRANITE:
    case BLOCK_BASALT: case BLOCK_SNOW: case BLOCK_CLAY: case BLOCK_LIMESTONE: case BLOCK_SANDSTONE: case BLOCK_DIRT:
        return top;
    default: return -1;
    }
}

/* Generator.surface_block names what the voxel chunks show from above (snow, grass, sand, rock, water; the
 * canopy it names for woodland stands on their grass) in nearly nine columns in ten of seed 1's snowy spawn,
 * a warm coast and a forest, columns under trees or plants aside, so the far terrain that continues them has
 * their colours; and the far colour of a snow-covered column is the palette's snow. */
static void test_surface_matches_voxels(void)
{
    static const int areas[][2] = {{-4, -4}, {20, -30}, {-40, 12}};
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = chunk_create(0, 0);
    int compared = 0, agreed = 0, snow = 0;
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 16; i++) {
            int cx = areas[a][0] + i % 4 * 2, cz = areas[a][1] + i / 4 * 2;
            chunk_reset(c, cx, cz);
            generator_generate_chunk(gen, c, ctx);
            for (int z = 0; z < 16; z += 3)
                for (int x = 0; x < 16; x += 3) {
                    int voxel = voxel_surface_block(c, x, z);
                    if (voxel < 0) continue;
                    float wx = (float)(cx * 16 + x), wz = (float)(cz * 16 + z);
                    int far = gen->surface_block(gen, wx, wz, gen->calculate_height(gen, wx, wz),
                                                 gen->calculate_temperature(gen, wx, wz),
                                                 gen->calculate_humidity(gen, wx, wz));
                    compared++;
                    agreed += far == voxel || (far == BLOCK_SNOW_LAYER && voxel == BLOCK_ICE) ||
                              (far == BLOCK_OAK_LEAVES && voxel == BLOCK_GRASS);   /* woodland's ground */
                    if (far == BLOCK_SNOW_LAYER) {
                        snow++;
                        uint8_t rgb[3];
                        bool water;
                        far_terrain_sample(gen, &palette, wx, wz, rgb, &water);
                        CHECK(memcmp(rgb, palette.top[BLOCK_SNOW_LAYER], 3) == 0);
                    }
                }
        }
    fprintf(stderr, "surface: %d of %d columns agree, %d under snow\n", agreed, compared, snow);
    CHECK(compared > 1000);
    CHECK(snow > compared / 10);
    CHECK(agreed >= compared * 9 / 10);
    chunk_destroy(c);
    gen_context_destroy(ctx);
}

/* The far canopy stands where the voxel chunks grow trees: over seed 1's eastern woods and grassland, in
 * cells of 8 x 8 blocks (a level-1 column), the share of columns topped by leaves in the voxel chunks is
 * far higher in the cells the far terrain makes canopy (Generator.tree_cover, the scatter's tree rules) than
 * in those it leaves bare grass; and a canopy cell's far top stands FAR_CANOPY_HEIGHT over its ground. */
static void test_canopy_follows_trees(void)
{
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = chunk_create(0, 0);
    int canopy_cells = 0, bare_cells = 0;
    double canopy_leaves = 0, bare_leaves = 0;
    for (int cz = 0; cz < 10; cz++)
        for (int cx = 26; cx < 36; cx++) {
            chunk_reset(c, cx, cz);
            generator_generate_chunk(gen, c, ctx);
            for (int q = 0; q < 4; q++) {
                int x0 = (q & 1) * 8, z0 = (q >> 1) * 8, leaves = 0;
                for (int z = z0; z < z0 + 8; z++)
                    for (int x = x0; x < x0 + 8; x++) {
                        int y = 254;
                        while (y > 0 && chunk_get_contents(c, x, y, z) == BLOCK_AIR) y--;
                        int top = chunk_get_contents(c, x, y, z);
                        leaves += blocks->layer[top] == BLOCK_LAYER_ALPHA_TESTED && blocks->shape[top] == BLOCK_SHAPE_CUBE;
                    }
                double wx = cx * 16 + x0 + 4.0, wz = cz * 16 + z0 + 4.0;
                uint8_t rgb[3];
                bool water;
                float top = far_terrain_sample(gen, &palette, wx, wz, rgb, &water);
                if (water) continue;
                float ground = floorf(gen->calculate_height(gen, (float)wx, (float)wz)) + 1.0f;
                if (top > ground + 0.5f) {
                    CHECK_NEAR(top, ground + 6.0f, 1e-4);
                    canopy_cells++;
                    canopy_leaves += leaves / 64.0;
                } else {
                    bare_cells++;
                    bare_leaves += leaves / 64.0;
                }
            }
        }
    double canopy_share = canopy_cells ? canopy_leaves / canopy_cells : 0, bare_share = bare_cells ? bare_leaves / bare_cells : 0;
    fprintf(stderr, "canopy: %d cells, %.0f%% leaves on top; bare: %d cells, %.0f%%\n", canopy_cells, 100 * canopy_share,
            bare_cells, 100 * bare_share);
    CHECK(canopy_cells > 20 && bare_cells > 20);
    CHECK(canopy_share > 0.3);
    CHECK(canopy_share > 3.0 * bare_share);
    chunk_destroy(c);
    gen_context_destroy(ctx);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    far_palette_init(&palette, blocks);
    WorldSettings ws;
    world_settings_default(&ws);
    ws.seed = 1;
    if (generator_create(&ws, blocks, "assets/worldgen.json", &gen) != ST_OK) {
        fprintf(stderr, "generator: %s\n", st_error_message());
        return 1;
    }
    RUN(test_levels);
    RUN(test_cut_and_seams);
    RUN(test_runs_under_voxels);
    RUN(test_runs_split);
    RUN(test_columns);
    RUN(test_nearest_columns_match_voxels);
    RUN(test_water_flat);
    RUN(test_streaming);
    RUN(test_voxel_distance_follows);
    RUN(test_surface_matches_voxels);
    RUN(test_canopy_follows_trees);
    generator_destroy(gen);
    block_registry_destroy(blocks);
    return check_report();
}
