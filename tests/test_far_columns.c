/* test_far_columns.c — a far patch's columns: faces flat and of one colour, shaded as the mesher shades, every
 * step closed, equal tops and sides merged; the nearest level against generated voxel chunks (heights),
 * the sea's surface, the surface blocks' colours and the canopy against the voxels' trees. The cut, seams,
 * runs and streaming: test_far_terrain.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "far_fixture.h"
#include "strata/chunk.h"

/* The far columns are drawn as the voxels draw blocks: every face is flat and of one colour, a top level,
 * a side vertical; a side is shaded as the mesher shades its direction against the top (+-X 0.8, +-Z 0.9);
 * inside a patch every step between neighbouring columns is closed by a side from the higher top down to
 * the lower one, and a side shows nothing but steps; neighbouring tops of equal height and colour are merged
 * (fewer quads than columns), and so are neighbouring sides of equal top and colour over steps of different
 * depths. */
static void test_columns(void)
{
    static const uint8_t same[4] = {1, 1, 1, 1}, fine[4] = {0, 0, 0, 0};
    int tops = 0, sides = 0, steps = 0, open = 0, columns = 0, bad_sides = 0, deepened = 0;
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
        /* every inner side shows exactly its steps: along its whole span its top is the higher column's top
         * and the lower column's top lies between its top and its bottom (a merged strip reaches down to the
         * lowest of its steps: the rest lies inside the lower columns, hidden) */
        for (int q = 0; q + 3 < p.vertex_count; q += 4) {
            const FarVertex *v = &p.vertices[q];
            bool vx = v[0].x == v[1].x && v[1].x == v[2].x, vz = v[0].z == v[1].z && v[1].z == v[2].z;
            if (vx == vz) continue;
            float e = vx ? v[0].x : v[0].z, lo = 1e9f, hi = -1e9f, s0 = 1e9f, s1 = -1e9f;
            for (int k = 0; k < 4; k++) {
                lo = fminf(lo, v[k].y);
                hi = fmaxf(hi, v[k].y);
                s0 = fminf(s0, vx ? v[k].z : v[k].x);
                s1 = fmaxf(s1, vx ? v[k].z : v[k].x);
            }
            int line = (int)lrintf(e / w);
            if (line <= 0 || line >= n) continue;   /* a skirt: checked by test_cut_and_seams */
            float first_low = -1.0f;
            bool deeper = false;
            for (int t = (int)lrintf(s0 / w); t < (int)lrintf(s1 / w); t++) {
                float a = vx ? p.tops[t * n + line - 1] : p.tops[(line - 1) * n + t];
                float b = vx ? p.tops[t * n + line] : p.tops[line * n + t];
                float high = fmaxf(a, b), low = fminf(a, b);
                if (high != hi || low >= hi || low < lo - 1e-4f) bad_sides++;
                if (first_low >= 0.0f && low != first_low) deeper = true;
                first_low = low;
            }
            deepened += deeper;
        }
        far_patch_free(&p);
    }
    fprintf(stderr, "columns: %d columns, %d tops, %d sides (%d over steps of different depths), %d steps\n", columns,
            tops, sides, deepened, steps);
    CHECK_EQ_INT(bad_sides, 0);
    CHECK(deepened > 0);
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
    if (!far_fixture_open()) return 1;
    RUN(test_columns);
    RUN(test_nearest_columns_match_voxels);
    RUN(test_water_flat);
    RUN(test_surface_matches_voxels);
    RUN(test_canopy_follows_trees);
    far_fixture_close();
    return check_report();
}
