/* test_far_terrain.c — far terrain: level choice against the switching distances and the bias, the
 * quadtree cut, seams (every shared edge between neighbouring patches, of equal or different levels, has
 * the same heights on both sides: no crack), the voxel boundary (the far surface stays at or below the
 * generator's surface near the voxel chunks), which of a patch's squares are drawn (far_patch_runs), and the
 * streaming worker (a flush yields the full cut). The columns themselves: test_far_columns.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "far_fixture.h"
#include "strata/chunk.h"

static void test_levels(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 0), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 79.9f), 0);
    /* defaults 80, 160, 320, 640 (were 100, 250, 600, 1500 with columns of 2, 8, 16, 32, 64 blocks, then 100,
     * 200, 400, 800): columns of 1, 2, 4, 8, 16 blocks at most 12 pixels wide at 720p (fov 75), twice as wide
     * at twice the distance */
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 80), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 159), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 160), 2);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 319), 2);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 320), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 639), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 640), 4);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1e6f), 4);
    far_terrain_set_lod_bias(&s, 2.0f);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 159), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 160), 1);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1279), 3);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 1280), 4);
    far_terrain_set_lod_bias(&s, 0.5f);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 39), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 40), 1);
    far_terrain_set_lod_bias(&s, 0.0f);   /* ignored */
    CHECK_NEAR(s.lod_bias, 0.5, 1e-6);
    far_terrain_set_lod_bias(&s, 1.0f);
    far_terrain_set_lod_distance(&s, 0, 40);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 39), 0);
    CHECK_EQ_INT(far_terrain_level_for_distance(&s, 41), 1);
    far_terrain_set_lod_distance(&s, 7, 1);   /* no such level: ignored */
    CHECK_NEAR(s.lod_distance[3], 640, 1e-6);
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

/* Whether square b's tops lie in one of the runs (its own, or the patch's merged tops). */
static bool tops_drawn(const FarPatch *p, int b, const int *first, const int *count, int n)
{
    bool drawn = false;
    for (int k = 0; k < n; k++) {
        drawn |= p->square_first[b] >= first[k] && p->square_sides[b][0] <= first[k] + count[k];
        drawn |= p->tops_count > 0 && p->tops_first >= first[k] && p->tops_first + p->tops_count <= first[k] + count[k];
    }
    return drawn;
}

/* Indices the patch's merged tops save when every square is drawn (0: it has none). */
static int merged_saving(const FarPatch *p)
{
    if (p->tops_count == 0) return 0;
    int own = 0;
    for (int b = 0; b < p->blocks * p->blocks; b++) own += p->square_sides[b][0] - p->square_first[b];
    return own - p->tops_count;
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
    CHECK_EQ_INT(p.square_first[squares], p.tops_first);
    CHECK_EQ_INT(p.tops_first + p.tops_count, p.index_count);
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
    CHECK_EQ_INT(total, expected - merged_saving(&p));   /* every square drawn: the merged tops for theirs */
    CHECK(total < p.index_count);   /* the sides facing away are left out */
    /* a camera over the middle of the patch: every group of the squares around it */
    n = far_patch_runs(&p, 160.0, 32.0, 0.0, NULL, NULL, first, count);
    total = expected = 0;
    for (int k = 0; k < n; k++) total += count[k];
    for (int b = 0; b < squares; b++) expected += square_expected(&p, b, 160.0, 32.0);
    CHECK_EQ_INT(total, expected - merged_saving(&p));
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
    int m = far_patch_runs_split(&p, cam_x, cam_z, cover, NULL, NULL, NULL, NULL, NULL, NULL, f2, c2, tf, tc, &t);
    CHECK_EQ_INT(t, 0);
    CHECK_EQ_INT(m, n);
    for (int k = 0; k < n && k < m; k++) CHECK(f2[k] == first[k] && c2[k] == count[k]);
    m = far_patch_runs_split(&p, cam_x, cam_z, cover, NULL, NULL, touches_left_half, NULL, NULL, NULL, f2, c2, tf, tc,
                             &t);
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

/* What a FarSeenFn saw: the boxes it was asked about, and whether it sees the squares west of x = 160. */
typedef struct SeenLog {
    int asked;
    bool see_west;
    double lo[FAR_PATCH_MAX_SQUARES][3], hi[FAR_PATCH_MAX_SQUARES][3];
} SeenLog;

/* A view that sees only the squares east of x = 160 (or, with see_west, all of them). */
static bool seen_east_half(void *user, const double lo[3], const double hi[3])
{
    SeenLog *log = user;
    if (log->asked < FAR_PATCH_MAX_SQUARES) {
        memcpy(log->lo[log->asked], lo, sizeof log->lo[0]);
        memcpy(log->hi[log->asked], hi, sizeof log->hi[0]);
    }
    log->asked++;
    return log->see_west || lo[0] >= 160.0;
}

/* far_patch_runs_split's `seen`: each square's box holds every vertex of its faces; a view that sees all
 * draws exactly what no view draws; the squares a view cannot see get no runs, and those it sees keep all of
 * theirs (tops and the sides facing the camera), in the plain and the touched runs alike. */
static void test_runs_seen(void)
{
    static const uint8_t same[4] = {1, 1, 1, 1};
    FarPatch p;
    CHECK_EQ_INT(far_patch_build(gen, &palette, 1, 2, 0, same, 0.0f, &p), ST_OK);   /* x 128..192, z 0..64 */
    int squares = p.blocks * p.blocks;
    CHECK(squares > 1);
    double bsize = (double)far_terrain_patch_size(p.level) / p.blocks;
    for (int b = 0; b < squares; b++) {
        CHECK(p.square_min_y[b] >= p.min_y && p.square_max_y[b] <= p.max_y);
        for (int k = p.square_first[b]; k < p.square_first[b + 1]; k++) {
            const FarVertex *v = &p.vertices[p.indices[k]];
            CHECK(v->y >= p.square_min_y[b] && v->y <= p.square_max_y[b]);
            double x = p.origin_x + v->x, z = p.origin_z + v->z;
            double x0 = p.origin_x + (b % p.blocks) * bsize, z0 = p.origin_z + (b / p.blocks) * bsize;
            CHECK(x >= x0 && x <= x0 + bsize && z >= z0 && z <= z0 + bsize);
        }
    }
    int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS], f2[FAR_PATCH_MAX_RUNS], c2[FAR_PATCH_MAX_RUNS];
    int tf[FAR_PATCH_MAX_RUNS], tc[FAR_PATCH_MAX_RUNS], t = -1;
    double cam_x = 100.0, cam_z = 30.0;
    /* a view that sees everything: the same runs as none; asked once a square, with the square's box */
    SeenLog all = {.see_west = true};
    int n = far_patch_runs(&p, cam_x, cam_z, 0.0, NULL, NULL, first, count);
    int m = far_patch_runs_split(&p, cam_x, cam_z, 0.0, NULL, NULL, NULL, NULL, seen_east_half, &all, f2, c2, tf, tc,
                                 &t);
    CHECK_EQ_INT(all.asked, squares);
    CHECK_EQ_INT(m, n);
    CHECK_EQ_INT(t, 0);
    for (int k = 0; k < n && k < m; k++) CHECK(f2[k] == first[k] && c2[k] == count[k]);
    for (int b = 0; b < squares && b < all.asked; b++) {
        double x0 = p.origin_x + (b % p.blocks) * bsize, z0 = p.origin_z + (b / p.blocks) * bsize;
        CHECK(all.lo[b][0] == x0 && all.lo[b][2] == z0 && all.hi[b][0] == x0 + bsize && all.hi[b][2] == z0 + bsize);
        CHECK(all.lo[b][1] == p.square_min_y[b] && all.hi[b][1] == p.square_max_y[b]);
    }
    /* a view that sees only the east half: the west squares get nothing, the east ones all they had; the
     * touched runs (the west half: touches_left_half) are culled as well */
    for (int pass = 0; pass < 2; pass++) {
        SeenLog east = {.see_west = false};
        m = far_patch_runs_split(&p, cam_x, cam_z, 0.0, NULL, NULL, pass ? touches_left_half : NULL, NULL,
                                 seen_east_half, &east, f2, c2, tf, tc, &t);
        int total = 0, expected = 0, west = 0;
        for (int k = 0; k < m; k++) total += c2[k];
        for (int k = 0; k < t; k++) total += tc[k];
        for (int b = 0; b < squares; b++) {
            bool is_west = p.origin_x + (b % p.blocks) * bsize < 160.0;
            bool drawn = tops_drawn(&p, b, f2, c2, m) || tops_drawn(&p, b, tf, tc, t);
            CHECK(drawn == !is_west);
            if (!is_west) expected += square_expected(&p, b, cam_x, cam_z);
            west += is_west;
        }
        CHECK(west > 0 && west < squares);
        CHECK_EQ_INT(total, expected);
    }
    far_patch_free(&p);
}

/* The top quad over column centre (x, z) among the quads of indices first..first + count: its y and colour;
 * returns how many cover it (floors aside); *floors: the sea floors' quads there. */
static int top_over(const FarPatch *p, int first, int count, float x, float z, float *y, uint8_t rgba[4], int *floors)
{
    int hits = 0;
    *floors = 0;
    for (int k = first; k < first + count; k += 6) {
        const FarVertex *v = &p->vertices[p->indices[k]];
        if (v[0].y != v[1].y || v[1].y != v[2].y || v[2].y != v[3].y) continue;   /* a side */
        float x0 = fminf(v[0].x, v[2].x), x1 = fmaxf(v[0].x, v[2].x);
        float z0 = fminf(v[0].z, v[2].z), z1 = fmaxf(v[0].z, v[2].z);
        if (x < x0 || x > x1 || z < z0 || z > z1) continue;
        if (v[0].color[3] == FAR_FLOOR_ALPHA) {
            (*floors)++;
            continue;
        }
        hits++;
        *y = v[0].y;
        memcpy(rgba, v[0].color, 4);
    }
    return hits;
}

/* A view that sees every square of patch `user` but its first (at its origin). */
static bool seen_but_corner(void *user, const double lo[3], const double hi[3])
{
    const FarPatch *p = user;
    (void)hi;
    return lo[0] != p->origin_x || lo[2] != p->origin_z;
}

/* A patch's merged tops (FarPatch.tops_first) are the same surface as its squares' tops: every column covered
 * by exactly one top of the same height and colour, the sea squares' floors the same; and they save quads. They
 * are drawn when every square is, and the squares' own tops when one square is not. */
static void test_merged_tops(void)
{
    int patches = 0, merged = 0, saved = 0, columns = 0;
    for (int level = 2; level < FAR_LEVELS; level++)
        for (int k = 0; k < 3; k++) {
            uint8_t same[4] = {(uint8_t)level, (uint8_t)level, (uint8_t)level, (uint8_t)level};
            FarPatch p;
            CHECK_EQ_INT(far_patch_build(gen, &palette, level, k * 2 - 3, 1 - k, same, 0.0f, &p), ST_OK);
            patches++;
            if (p.tops_count == 0) {
                far_patch_free(&p);
                continue;
            }
            merged++;
            saved += merged_saving(&p);
            CHECK(merged_saving(&p) > 0);
            int n = p.quads;
            float w = (float)far_terrain_patch_size(level) / n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    int b = (j / (n / p.blocks)) * p.blocks + i / (n / p.blocks);
                    float x = (i + 0.5f) * w, z = (j + 0.5f) * w, y0 = 0, y1 = 0;
                    uint8_t c0[4] = {0}, c1[4] = {0};
                    int f0, f1;
                    int own = p.square_sides[b][0] - p.square_first[b];
                    int h0 = top_over(&p, p.square_first[b], own, x, z, &y0, c0, &f0);
                    int h1 = top_over(&p, p.tops_first, p.tops_count, x, z, &y1, c1, &f1);
                    CHECK_EQ_INT(h0, 1);
                    CHECK_EQ_INT(h1, 1);
                    CHECK(y0 == y1 && y1 == p.tops[j * n + i]);
                    CHECK(memcmp(c0, c1, 4) == 0);
                    CHECK_EQ_INT(f0, f1);
                    columns++;
                }
            /* the runs: the merged tops when every square is drawn, the squares' own when one is not */
            int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS], tf[FAR_PATCH_MAX_RUNS], tc[FAR_PATCH_MAX_RUNS], t;
            double cam_x = p.origin_x - 50.0, cam_z = p.origin_z + 20.0;
            int runs = far_patch_runs(&p, cam_x, cam_z, 0.0, NULL, NULL, first, count), total = 0, expected = 0;
            for (int r = 0; r < runs; r++) total += count[r];
            for (int b = 0; b < p.blocks * p.blocks; b++) expected += square_expected(&p, b, cam_x, cam_z);
            CHECK_EQ_INT(total, expected - merged_saving(&p));
            runs = far_patch_runs_split(&p, cam_x, cam_z, 0.0, NULL, NULL, NULL, NULL, seen_but_corner, &p, first,
                                        count, tf, tc, &t);
            total = expected = 0;
            for (int r = 0; r < runs; r++) total += count[r];
            for (int b = 1; b < p.blocks * p.blocks; b++) expected += square_expected(&p, b, cam_x, cam_z);
            CHECK_EQ_INT(total, expected);
            CHECK(!tops_drawn(&p, 0, first, count, runs));
            far_patch_free(&p);
        }
    fprintf(stderr, "merged tops: %d of %d patches, %d indices saved, %d columns compared\n", merged, patches, saved,
            columns);
    CHECK(merged > patches / 2);
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

/* A holder that says it keeps every patch it is asked about (the renderer, once it has uploaded them). */
typedef struct KeptKeys {
    uint64_t keys[4096];
    int count;
} KeptKeys;

static bool keep_all(void *user, uint64_t key)
{
    KeptKeys *k = user;
    if (k->count < 4096) k->keys[k->count++] = key;
    return true;
}

static bool kept_has(const KeptKeys *k, uint64_t key)
{
    for (int i = 0; i < k->count; i++)
        if (k->keys[i] == key) return true;
    return false;
}

/* Released meshes: the patches keep their counts and squares but not their vertices; those the cache drops are
 * reported, each one the holder kept; a patch wanted again is built again, with its mesh. */
static void test_released_meshes(void)
{
    FarTerrainSettings s;
    far_terrain_settings_default(&s);
    s.far_distance = 500;
    s.load_radius = 500;
    s.unload_radius = 600;
    s.voxel_distance = 64;
    FarTerrain *ft = NULL;
    CHECK_EQ_INT(far_terrain_create(gen, &palette, &s, &ft), ST_OK);
    if (!ft) return;
    static KeptKeys kept;
    kept.count = 0;
    const FarPatch *const *patches;
    const uint64_t *forgotten;
    far_terrain_flush(ft, 0, 0);
    CHECK_EQ_INT(far_terrain_take_forgotten(ft, &forgotten), 0);   /* nothing released yet: nothing reported */
    int n = far_terrain_patches(ft, &patches);
    CHECK(n > 0);
    far_terrain_release_meshes(ft, keep_all, &kept);
    CHECK(kept.count >= n);
    int released = 0;
    for (int i = 0; i < n; i++) {
        released += !patches[i]->vertices && !patches[i]->indices;
        CHECK(patches[i]->vertex_count > 0 && patches[i]->index_count > 0);   /* the counts stay */
    }
    CHECK_EQ_INT(released, n);
    uint64_t first_key = patches[0]->key;
    /* far away: the old cut leaves the cache, and every patch it drops is reported, each one kept before */
    far_terrain_flush(ft, 5000, 0);
    int dropped = far_terrain_take_forgotten(ft, &forgotten);
    CHECK(dropped >= n);
    bool all_kept = true, first_dropped = false;
    for (int i = 0; i < dropped; i++) {
        all_kept = all_kept && kept_has(&kept, forgotten[i]);
        first_dropped = first_dropped || forgotten[i] == first_key;
    }
    CHECK(all_kept);
    CHECK(first_dropped);
    CHECK_EQ_INT(far_terrain_take_forgotten(ft, &forgotten), 0);     /* reported once */
    int n_far = far_terrain_patches(ft, &patches);
    for (int i = 0; i < n_far; i++) CHECK(patches[i]->vertices != NULL);   /* not released: new */
    /* back: built again, meshes and all */
    far_terrain_flush(ft, 0, 0);
    n = far_terrain_patches(ft, &patches);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) CHECK(patches[i]->vertices != NULL && patches[i]->indices != NULL);
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

int main(void)
{
    if (!far_fixture_open()) return 1;
    RUN(test_levels);
    RUN(test_cut_and_seams);
    RUN(test_runs_under_voxels);
    RUN(test_runs_split);
    RUN(test_runs_seen);
    RUN(test_merged_tops);
    RUN(test_streaming);
    RUN(test_released_meshes);
    RUN(test_voxel_distance_follows);
    far_fixture_close();
    return check_report();
}
