/* test_mesher_lod.c — the half-resolution copy (mesher_lod.c), 2 x 2 x 2 cells a block. Leaves: a
 * block-aligned canopy keeps exactly its outside (same area, outward winding, inside its box); a lone leaf
 * goes, a thin sheet grows to a block; merging joins the unit faces; the per-slice parts of the alpha-tested
 * subset (far leaves, leaves, the rest) come out as chunk_mesh_alpha_runs reads them. Terrain: ground whose
 * top is a block's upper cell keeps its height, one whose top is the lower cell rounds down; and over 2 x 2
 * chunks of hills with caves, overhangs and a sea, the far copy's opaque faces close up: every edge inside
 * the region is walked once each way (no hole, no doubled face, across chunk and slice borders); where a chunk
 * drawn near is open at a chunk edge that the copies fill, both copies have their side there. Ice: solid in
 * the copy when mostly opaque, its own faces then drawn by near chunks only. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "world_fixture.h"
#include "mesh_fixture.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"

static BlockRegistry *blocks;
static LightContext *lctx;
static MesherContext *plain, *merged;

static int fill_air(int x, int y, int z) { (void)x; (void)y; (void)z; return BLOCK_AIR; }

static void world_light(Terrain *t) { mesh_fixture_light(t, blocks, lctx); }

static void set_box(Terrain *t, int x0, int y0, int z0, int x1, int y1, int z1, int id)
{
    for (int z = z0; z <= z1; z++)
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) terrain_set_cell_value(t, x, y, z, cell_make(id, 0));
}

static ChunkMesh *mesh_chunk(Terrain *t, MesherContext *ctx) { return mesh_fixture_build(t, 0, 0, blocks, ctx); }

static void world_destroy(Terrain *t) { mesh_fixture_destroy(t); }

/* The far-leaves part of a mesh, as quads: count, summed area, and how many break a rule: a vertex outside
 * [lo, hi], a quad not on the box's surface, or one wound inward (its normal pointing to the box's centre). */
typedef struct LodStats {
    int quads, outside, inward;
    double area;
} LodStats;

static LodStats lod_stats(const ChunkMesh *m, const float lo[3], const float hi[3])
{
    LodStats st = {0, 0, 0, 0.0};
    const int k = MESH_SUBSET_ALPHA_TESTED;
    int first[CHUNK_SLICES], count[CHUNK_SLICES];
    int runs = chunk_mesh_alpha_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k],
                                     m->alpha_leaf_vertices, MESH_ALPHA_LOD_LEAVES, 0xFFFF, first, count);
    float centre[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    for (int r = 0; r < runs; r++)
        for (int q = first[r]; q < first[r] + count[r]; q += 4) {
            const TerrainVertex *v = &m->subsets[k].data[q];
            float p[4][3];
            for (int i = 0; i < 4; i++) {
                p[i][0] = v[i].x;
                p[i][1] = v[i].y;
                p[i][2] = v[i].z;
            }
            bool on_surface = false;
            for (int a = 0; a < 3; a++) {
                bool flat = p[0][a] == p[1][a] && p[0][a] == p[2][a] && p[0][a] == p[3][a];
                if (flat && (p[0][a] == lo[a] || p[0][a] == hi[a])) on_surface = true;
            }
            float c[3] = {0, 0, 0};
            for (int i = 0; i < 4; i++)
                for (int a = 0; a < 3; a++) {
                    if (p[i][a] < lo[a] || p[i][a] > hi[a]) st.outside++;
                    c[a] += p[i][a] / 4;
                }
            if (!on_surface) st.outside++;
            float e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
            float e2[3] = {p[3][0] - p[0][0], p[3][1] - p[0][1], p[3][2] - p[0][2]};
            float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            st.area += sqrt((double)(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
            float out = n[0] * (c[0] - centre[0]) + n[1] * (c[1] - centre[1]) + n[2] * (c[2] - centre[2]);
            if (out <= 0.0f) st.inward++;
            st.quads++;
        }
    return st;
}

static void test_aligned_canopy(void)
{
    /* a 4 x 4 x 4 canopy on the 2-cell grid (x, z 4..7, y 64..67, in slice 4): 2 x 2 x 2 leaf blocks, whose
     * outside is the canopy's own: 6 sides of 16 unit faces */
    Terrain *t = world_make(1, fill_air);
    set_box(t, 4, 64, 4, 7, 67, 7, BLOCK_OAK_LEAVES);
    world_light(t);
    float lo[3] = {4, 64, 4}, hi[3] = {8, 68, 8};
    ChunkMesh *a = mesh_chunk(t, plain), *b = mesh_chunk(t, merged);
    LodStats sa = lod_stats(a, lo, hi), sb = lod_stats(b, lo, hi);
    CHECK_EQ_INT(sa.quads, 6 * 4);           /* unmerged: one quad per block face */
    CHECK(fabs(sa.area - 96.0) < 1e-3);
    CHECK_EQ_INT(sa.outside, 0);
    CHECK_EQ_INT(sa.inward, 0);
    CHECK(sb.quads >= 6 && sb.quads < 6 * 4);   /* merged: at least one quad a side, fewer */
    CHECK(fabs(sb.area - 96.0) < 1e-3);
    CHECK_EQ_INT(sb.outside, 0);
    CHECK_EQ_INT(sb.inward, 0);
    /* the exact leaves are still there, after the far leaves and before the rest */
    CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(a, MESH_ALPHA_LEAVES), 6 * 16 * 4);
    CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(a, MESH_ALPHA_LOD_LEAVES), 6 * 4 * 4);
    CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(a, MESH_ALPHA_REST), 0);
    CHECK_EQ_INT(a->lod_vertices[MESH_SUBSET_ALPHA_TESTED][4], 6 * 4 * 4);
    CHECK_EQ_INT(a->lod_vertices[MESH_SUBSET_ALPHA_TESTED][3] + a->lod_vertices[MESH_SUBSET_ALPHA_TESTED][5], 0);
    chunk_mesh_destroy(a);
    chunk_mesh_destroy(b);
    world_destroy(t);
}

static void test_sparse_leaves(void)
{
    /* a lone leaf and a pair (2 of a block's 8 cells) make no far leaves; a 2 x 2 sheet (4 of 8) makes one
     * whole block: its sides grow to 2 cells tall */
    Terrain *t = world_make(1, fill_air);
    terrain_set_cell_value(t, 1, 70, 1, cell_make(BLOCK_OAK_LEAVES, 0));
    set_box(t, 9, 70, 1, 9, 71, 1, BLOCK_OAK_LEAVES);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, plain);
    CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(m, MESH_ALPHA_LOD_LEAVES), 0);
    CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(m, MESH_ALPHA_LEAVES), (6 + 10) * 4);
    chunk_mesh_destroy(m);
    world_destroy(t);

    t = world_make(1, fill_air);
    set_box(t, 10, 80, 10, 11, 80, 11, BLOCK_SPRUCE_LEAVES);
    world_light(t);
    float lo[3] = {10, 80, 10}, hi[3] = {12, 82, 12};
    m = mesh_chunk(t, plain);
    LodStats st = lod_stats(m, lo, hi);
    CHECK_EQ_INT(st.quads, 6);
    CHECK(fabs(st.area - 24.0) < 1e-3);
    CHECK_EQ_INT(st.outside, 0);
    CHECK_EQ_INT(st.inward, 0);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

static void test_against_rock_and_border(void)
{
    /* a canopy resting on stone shows no bottom; one across the chunk's +X border (x 14..17) shows no face
     * between its blocks on either side of it (the blocks beyond the border are classified too) */
    Terrain *t = world_make(1, fill_air);
    set_box(t, 0, 60, 0, 15, 63, 15, BLOCK_STONE);
    set_box(t, 4, 64, 4, 7, 65, 7, BLOCK_OAK_LEAVES);
    set_box(t, 14, 64, 10, 17, 65, 11, BLOCK_OAK_LEAVES);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, plain);
    const int k = MESH_SUBSET_ALPHA_TESTED;
    int first[CHUNK_SLICES], count[CHUNK_SLICES], down = 0, border = 0, quads = 0;
    int runs = chunk_mesh_alpha_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k],
                                     m->alpha_leaf_vertices, MESH_ALPHA_LOD_LEAVES, 0xFFFF, first, count);
    for (int r = 0; r < runs; r++)
        for (int q = first[r]; q < first[r] + count[r]; q += 4) {
            const TerrainVertex *v = &m->subsets[k].data[q];
            bool flat_y = v[0].y == v[1].y && v[0].y == v[2].y && v[0].y == v[3].y;
            bool flat_x = v[0].x == v[1].x && v[0].x == v[2].x && v[0].x == v[3].x;
            down += flat_y && v[0].y == 64.0f;
            border += flat_x && v[0].x == 16.0f;
            quads++;
        }
    CHECK_EQ_INT(down, 0);
    CHECK_EQ_INT(border, 0);
    /* in block faces: the first canopy's top (2 x 2) and 4 sides (2 x 1); the border one's block in this chunk
     * (x 14..15): top, -X, +Z and -Z */
    CHECK_EQ_INT(quads, (4 + 4 * 2) + 4);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

static int fill_floor_64(int x, int y, int z) { (void)x; (void)z; return y <= 64 ? BLOCK_STONE : BLOCK_AIR; }
static int fill_floor_65(int x, int y, int z) { (void)x; (void)z; return y <= 65 ? BLOCK_GRASS : BLOCK_AIR; }

/* Quads of subset 4's far copy facing up, and the heights they lie at (min, max). */
static int lod_tops(const ChunkMesh *m, float *lo, float *hi)
{
    const int k = MESH_SUBSET_OPAQUE_OTHER;
    int first[CHUNK_SLICES], count[CHUNK_SLICES], tops = 0;
    int runs = chunk_mesh_lod_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k], true, 0xFFFF,
                                   first, count);
    *lo = 1e9f;
    *hi = -1e9f;
    for (int r = 0; r < runs; r++)
        for (int q = first[r]; q < first[r] + count[r]; q += 4) {
            const TerrainVertex *v = &m->subsets[k].data[q];
            if (v[0].y != v[1].y || v[0].y != v[2].y) continue;
            float e1[3] = {v[1].x - v[0].x, 0, v[1].z - v[0].z}, e2[3] = {v[3].x - v[0].x, 0, v[3].z - v[0].z};
            if (e1[2] * e2[0] - e1[0] * e2[2] <= 0.0f) continue;   /* facing down */
            tops++;
            *lo = v[0].y < *lo ? v[0].y : *lo;
            *hi = v[0].y > *hi ? v[0].y : *hi;
        }
    return tops;
}

static void test_ground_rounding(void)
{
    float lo, hi;
    Terrain *t = world_make(1, fill_floor_65);   /* top cell 65: a block's upper cell */
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, plain);
    CHECK_EQ_INT(lod_tops(m, &lo, &hi), 64);   /* one quad per block face */
    CHECK(lo == 66.0f && hi == 66.0f);
    CHECK_EQ_INT(chunk_mesh_subset_vertices(m, MESH_SUBSET_OPAQUE_OTHER, false), 256 * 4);   /* full resolution */
    chunk_mesh_destroy(m);
    world_destroy(t);

    t = world_make(1, fill_floor_64);   /* top cell 64: the lower one rounds down */
    world_light(t);
    m = mesh_chunk(t, plain);
    CHECK_EQ_INT(lod_tops(m, &lo, &hi), 64);
    CHECK(lo == 64.0f && hi == 64.0f);
    /* ... to the floor of slice 4, and slice 4 draws it (the air it faces): the occlusion walk reaches slice 4
     * from above, but never slice 3 under the stone row 64 (the copy's top there was never drawn) */
    CHECK_EQ_INT(m->lod_vertices[MESH_SUBSET_OPAQUE_OTHER][3], 0);
    CHECK_EQ_INT(m->lod_vertices[MESH_SUBSET_OPAQUE_OTHER][4], 64 * 4);
    for (int k = 0; k < 4; k++) CHECK_EQ_INT(chunk_mesh_subset_vertices(m, k, true), 0);   /* no sides */
    /* lit like the air above the ground, not the stone it lies under */
    const VertexList *l = &m->subsets[MESH_SUBSET_OPAQUE_OTHER];
    CHECK(l->count > 0 && l->data[0].color[0] > 100);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

/* Ground whose top cell is 65 from x 16 on (chunk (1, 0)), and 64 before it but for one column in four
 * (x and z even) that rises to 65: in the far copy every block of both chunks along x = 16 is solid, yet
 * chunk (0, 0) at full resolution is open at y 65 in three columns of four. */
static int fill_edge_step(int x, int y, int z)
{
    int top = x >= 16 || (x % 2 == 0 && z % 2 == 0) ? 65 : 64;
    return y <= top ? BLOCK_STONE : BLOCK_AIR;
}

/* Summed area of the far copy's faces of `subset` that lie in the plane x = `x` (chunk-local). */
static double lod_side_area(const ChunkMesh *m, int subset, float x)
{
    int first[CHUNK_SLICES], count[CHUNK_SLICES];
    int runs = chunk_mesh_lod_runs(0, m->subsets[subset].count, m->slice_vertices[subset], m->lod_vertices[subset],
                                   true, 0xFFFF, first, count);
    double area = 0.0;
    for (int r = 0; r < runs; r++)
        for (int q = first[r]; q < first[r] + count[r]; q += 4) {
            const TerrainVertex *v = &m->subsets[subset].data[q];
            if (v[0].x != x || v[1].x != x || v[2].x != x || v[3].x != x) continue;
            float y0 = fminf(fminf(v[0].y, v[1].y), v[2].y), y1 = fmaxf(fmaxf(v[0].y, v[1].y), v[2].y);
            float z0 = fminf(fminf(v[0].z, v[1].z), v[2].z), z1 = fmaxf(fmaxf(v[0].z, v[1].z), v[2].z);
            area += (double)(y1 - y0) * (z1 - z0);
        }
    return area;
}

/* A chunk drawn near shows its openings at the edge, which the next chunk's far copy must close: there,
 * chunk (1, 0)'s far copy has its -X side along x = 16 over the whole edge, from 64 to 66 (the block row the
 * openings are in), and chunk (0, 0)'s has its +X side there too (either may be the far one), back to back. */
static void test_edge_against_near_chunk(void)
{
    Terrain *t = world_make(1, fill_edge_step);
    world_light(t);
    ChunkMesh *far = mesh_fixture_build(t, 1, 0, blocks, plain), *near = mesh_fixture_build(t, 0, 0, blocks, plain);
    CHECK_NEAR(lod_side_area(far, MESH_SUBSET_OPAQUE_NEG_X, 0.0f), 16.0 * 2.0, 1e-6);
    CHECK_NEAR(lod_side_area(near, MESH_SUBSET_OPAQUE_POS_X, 16.0f), 16.0 * 2.0, 1e-6);
    chunk_mesh_destroy(far);
    chunk_mesh_destroy(near);
    world_destroy(t);
}

/* A lake frozen over at y 64 (a block's lower row), with a hole in the ice at (3, 3). */
static int fill_frozen_lake(int x, int y, int z)
{
    bool hole = (x & 15) == 3 && (z & 15) == 3;
    return y <= 61 ? BLOCK_STONE : y <= 63 ? BLOCK_WATER : y == 64 && !hole ? BLOCK_ICE : BLOCK_AIR;
}

static int vertex_tile(const TerrainVertex *v)
{
    return (v->ty / MESHER_UV_TILE_STRIDE) * 16 + v->tx / MESHER_UV_TILE_STRIDE;
}

/* Vertices of a mesh's transparent subset drawn by far chunks (`far`) or near ones, and how many of them show
 * the ice tile. */
static int transparent_part(const ChunkMesh *m, bool far, int *ice)
{
    const int k = MESH_SUBSET_TRANSPARENT, ice_tile = blocks->defs[BLOCK_ICE].textures[0];
    int first[MESH_SUBSET_COUNT * CHUNK_SLICES], count[MESH_SUBSET_COUNT * CHUNK_SLICES], total = 0, at = 0;
    int firsts[MESH_SUBSET_COUNT] = {0}, counts[MESH_SUBSET_COUNT] = {0};
    for (int j = 0; j < MESH_SUBSET_COUNT; j++) {
        firsts[j] = at;
        counts[j] = m->subsets[j].count;
        at += counts[j];
    }
    int runs = chunk_mesh_subset_runs(firsts, counts, (const int (*)[CHUNK_SLICES])m->slice_vertices,
                                      (const int (*)[CHUNK_SLICES])m->lod_vertices, 1u << k, far, 0xFFFF, first, count);
    *ice = 0;
    for (int r = 0; r < runs; r++)
        for (int i = first[r]; i < first[r] + count[r]; i++) {
            total++;
            *ice += vertex_tile(&m->subsets[k].data[i - firsts[k]]) == ice_tile;
        }
    return total;
}

/* Ice, mostly opaque (BlockRegistry.far_opaque), is solid in the far copy: a frozen lake whose ice lies in a
 * block's lower row, over water, keeps an ice top a cell over the ice, over its hole as well (it fills the cell above, so the lake
 * does not open), and far chunks leave out the ice's own faces while drawing the water's; near chunks draw
 * every face. Without the flag (glass, or an atlas not read) ice keeps its faces at any distance. */
static void test_ice_far_copy(void)
{
    BlockRegistry *iced = malloc(sizeof *iced);
    *iced = *blocks;
    iced->far_opaque[BLOCK_ICE] = 1;
    int ice_tile = blocks->defs[BLOCK_ICE].textures[0];
    Terrain *t = world_make(1, fill_frozen_lake);
    world_light(t);
    ChunkMesh *m = mesh_fixture_build(t, 0, 0, iced, plain);
    float lo, hi;
    CHECK_EQ_INT(lod_tops(m, &lo, &hi), 2 * 64);   /* the ice over the lake, and the lake's stone floor */
    CHECK(lo == 62.0f && hi == 66.0f);
    const VertexList *l = &m->subsets[MESH_SUBSET_OPAQUE_OTHER];
    int ice_tops = 0;
    for (int i = 0; i < l->count; i += 4) ice_tops += l->data[i].y == 66.0f && vertex_tile(&l->data[i]) == ice_tile;
    CHECK_EQ_INT(ice_tops, 64);
    int total = m->subsets[MESH_SUBSET_TRANSPARENT].count, ice_near, ice_far;
    CHECK_EQ_INT(transparent_part(m, false, &ice_near), total);
    int far = transparent_part(m, true, &ice_far);
    CHECK(ice_near >= 255 * 4);   /* the ice's tops at least */
    CHECK_EQ_INT(ice_far, 0);
    CHECK_EQ_INT(far, total - ice_near);
    CHECK(far >= 4);   /* the water's top in the hole */
    CHECK_EQ_INT(chunk_mesh_subset_vertices(m, MESH_SUBSET_TRANSPARENT, false), total);
    CHECK_EQ_INT(chunk_mesh_subset_vertices(m, MESH_SUBSET_TRANSPARENT, true), far);
    chunk_mesh_destroy(m);

    /* without the flag: no ice in the copy (the lake rounds down to its floor), every face at any distance */
    m = mesh_fixture_build(t, 0, 0, blocks, plain);
    CHECK_EQ_INT(lod_tops(m, &lo, &hi), 64);
    CHECK(lo == 62.0f && hi == 62.0f);
    total = m->subsets[MESH_SUBSET_TRANSPARENT].count;
    CHECK_EQ_INT(transparent_part(m, true, &ice_far), total);
    CHECK(ice_far >= 255 * 4);
    chunk_mesh_destroy(m);
    world_destroy(t);
    free(iced);
}

/* Hills with caves and overhangs over a sea, for the closed-surface check. */
static int fill_rough(int x, int y, int z)
{
    int h = 60 + (int)lrintf(7.0f * sinf((float)x * 0.37f) + 5.0f * cosf((float)z * 0.29f + (float)x * 0.11f));
    uint32_t n = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)z * 83492791u;
    if (y > h) return y <= 58 ? BLOCK_WATER : (y == h + 3 && n % 13 == 0) ? BLOCK_STONE : BLOCK_AIR;  /* floating bits */
    int dx = x - 12, dy = y - 50, dz = z - 20;
    if (dx * dx + dy * dy * 2 + dz * dz < 40 || n % 11 == 0) return BLOCK_AIR;   /* a cave and holes */
    return y == h ? BLOCK_GRASS : y > h - 3 ? BLOCK_DIRT : BLOCK_STONE;
}

/* Directed edges of the far copy's opaque faces (all 2 cells long, unmerged), counted +1 one way and -1 the
 * other. */
#define EDGE_TABLE (1 << 20)
typedef struct EdgeTable {
    uint64_t *keys;
    int *sums;
} EdgeTable;

static void edge_add(EdgeTable *t, const int a[3], const int b[3])
{
    const int *lo = a, *hi = b;
    int sign = 1;
    if (a[0] > b[0] || (a[0] == b[0] && (a[1] > b[1] || (a[1] == b[1] && a[2] > b[2])))) {
        lo = b;
        hi = a;
        sign = -1;
    }
    int axis = hi[0] != lo[0] ? 0 : hi[1] != lo[1] ? 1 : 2;
    uint64_t key = ((uint64_t)(lo[0] + 64) << 40 | (uint64_t)(lo[1] + 64) << 20 | (uint64_t)(lo[2] + 64) << 2 | (uint64_t)axis) + 1;
    uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 44;
    while (t->keys[i] && t->keys[i] != key) i = (i + 1) & (EDGE_TABLE - 1);
    t->keys[i] = key;
    t->sums[i] += sign;
}

static void test_far_terrain_closed(void)
{
    Terrain *t = world_make(2, fill_rough);
    world_light(t);
    EdgeTable edges = {calloc(EDGE_TABLE, sizeof(uint64_t)), calloc(EDGE_TABLE, sizeof(int))};
    int faces = 0;
    for (int cz = 0; cz < 2; cz++)
        for (int cx = 0; cx < 2; cx++) {
            ChunkMesh *m = mesh_fixture_build(t, cx, cz, blocks, plain);
            for (int k = 0; k <= MESH_SUBSET_OPAQUE_OTHER; k++) {
                int first[CHUNK_SLICES], count[CHUNK_SLICES];
                int runs = chunk_mesh_lod_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k],
                                               true, 0xFFFF, first, count);
                for (int r = 0; r < runs; r++)
                    for (int q = first[r]; q < first[r] + count[r]; q += 4) {
                        const TerrainVertex *v = &m->subsets[k].data[q];
                        int p[4][3];
                        for (int i = 0; i < 4; i++) {
                            p[i][0] = (int)v[i].x + 16 * cx;
                            p[i][1] = (int)v[i].y;
                            p[i][2] = (int)v[i].z + 16 * cz;
                        }
                        for (int i = 0; i < 4; i++) edge_add(&edges, p[i], p[(i + 1) & 3]);
                        faces++;
                    }
            }
            chunk_mesh_destroy(m);
        }
    /* edges on the region's outer sides continue into chunks not meshed here, and the world's floor is open
     * (nothing draws the faces of what lies below it, at either resolution): skipped */
    int open = 0;
    for (int i = 0; i < EDGE_TABLE; i++) {
        if (!edges.keys[i] || edges.sums[i] == 0) continue;
        uint64_t key = edges.keys[i] - 1;
        int x = (int)(key >> 40) - 64, y = (int)(key >> 20 & 0xFFFFF) - 64, z = (int)(key >> 2 & 0x3FFFF) - 64;
        int axis = (int)(key & 3);
        bool on_x_side = (x == 0 || x == 32) && axis != 0, on_z_side = (z == 0 || z == 32) && axis != 2;
        bool on_floor = y == 0 && axis != 1;
        if (!on_x_side && !on_z_side && !on_floor) open++;
    }
    CHECK(faces > 1000);
    CHECK_EQ_INT(open, 0);
    free(edges.keys);
    free(edges.sums);
    world_destroy(t);
}

static void test_alpha_runs(void)
{
    /* slices 0..2 laid out as [lod][leaves][rest]: 8 + 4 + 4, 0 + 8 + 0, 4 + 0 + 4 */
    int slice_vertices[CHUNK_SLICES] = {16, 8, 8}, lod[CHUNK_SLICES] = {8, 0, 4}, leaf[CHUNK_SLICES] = {4, 8, 0};
    int first[CHUNK_SLICES], count[CHUNK_SLICES];
    int runs = chunk_mesh_alpha_runs(100, 32, slice_vertices, lod, leaf, MESH_ALPHA_LOD_LEAVES, 0xFFFF, first, count);
    CHECK_EQ_INT(runs, 2);
    CHECK(first[0] == 100 && count[0] == 8 && first[1] == 124 && count[1] == 4);
    runs = chunk_mesh_alpha_runs(100, 32, slice_vertices, lod, leaf, MESH_ALPHA_LEAVES, 0xFFFF, first, count);
    CHECK_EQ_INT(runs, 2);
    CHECK(first[0] == 108 && count[0] == 4 && first[1] == 116 && count[1] == 8);
    runs = chunk_mesh_alpha_runs(100, 32, slice_vertices, lod, leaf, MESH_ALPHA_NEAR, 0xFFFF, first, count);
    CHECK_EQ_INT(runs, 2);   /* slice 0's leaves and rest join slice 1's leaves */
    CHECK(first[0] == 108 && count[0] == 16 && first[1] == 128 && count[1] == 4);
    runs = chunk_mesh_alpha_runs(100, 32, slice_vertices, lod, leaf, MESH_ALPHA_REST, 0x4, first, count);
    CHECK_EQ_INT(runs, 1);   /* only slice 2 */
    CHECK(first[0] == 128 && count[0] == 4);
    /* counts that do not add up: no per-slice layout, all of it is the rest */
    runs = chunk_mesh_alpha_runs(100, 40, slice_vertices, lod, leaf, MESH_ALPHA_LEAVES, 0xFFFF, first, count);
    CHECK_EQ_INT(runs, 0);
    runs = chunk_mesh_alpha_runs(100, 40, slice_vertices, lod, leaf, MESH_ALPHA_NEAR, 0x1, first, count);
    CHECK(runs == 1 && first[0] == 100 && count[0] == 40);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    lctx = light_context_create();
    plain = mesher_context_create();
    merged = mesher_context_create();
    mesher_context_set_merge(plain, false);
    RUN(test_aligned_canopy);
    RUN(test_sparse_leaves);
    RUN(test_against_rock_and_border);
    RUN(test_alpha_runs);
    RUN(test_ground_rounding);
    RUN(test_edge_against_near_chunk);
    RUN(test_ice_far_copy);
    RUN(test_far_terrain_closed);
    mesher_context_destroy(plain);
    mesher_context_destroy(merged);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
