/* test_mesher.c — face counts on small known volumes, subsets, winding, smooth light and ambient occlusion,
 * tints and seasons, and slice hashes (unchanged slices are skipped, and skipping never changes output). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
static MesherContext *mctx;

static int fill_air(int x, int y, int z) { (void)x; (void)y; (void)z; return BLOCK_AIR; }
static int fill_floor(int x, int y, int z) { (void)x; (void)z; return y <= 64 ? BLOCK_STONE : BLOCK_AIR; }
static int fill_rock(int x, int y, int z) { (void)x; (void)z; return y < 120 ? BLOCK_STONE : BLOCK_AIR; }

/* Sunlight everywhere, propagation on every chunk that has all its neighbours. */
static void world_light(Terrain *t) { mesh_fixture_light(t, blocks, lctx); }

static void set_block(Terrain *t, int x, int y, int z, int id)
{
    terrain_set_cell_value(t, x, y, z, cell_make(id, 0));
}

static ChunkMesh *mesh_chunk(Terrain *t, int cx, int cz)
{
    TerrainChunk *c = terrain_get_chunk(t, cx, cz);
    mesher_build_pass(t, c, blocks, mctx, 1);
    mesher_build_pass(t, c, blocks, mctx, 2);
    return mesher_pack(c);
}

static void world_destroy(Terrain *t) { mesh_fixture_destroy(t); }

static int subset_count(const ChunkMesh *m, int subset) { return m->subsets[subset].count; }
/* The alpha-tested subset as near chunks draw it: without the far leaves (half resolution). */
static int near_alpha_count(const ChunkMesh *m) { return chunk_mesh_alpha_part_vertices(m, MESH_ALPHA_NEAR); }

/* Normal of quad q of a list from its first triangle. */
static void quad_normal(const VertexList *l, int q, float n[3])
{
    const TerrainVertex *v = &l->data[q * 4];
    float a[3] = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z};
    float b[3] = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z};
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- counts ---- */

static void test_single_block(void)
{
    Terrain *t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_STONE);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), 24);
    for (int s = 0; s < 4; s++) CHECK_EQ_INT(subset_count(m, s), 4);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_OTHER), 8);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_ALPHA_TESTED), 0);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_TRANSPARENT), 0);
    CHECK_EQ_INT(m->min_y, 70);
    CHECK_EQ_INT(m->max_y, 71);
    CHECK_EQ_INT(m->coord_x, 0);
    /* subset by face direction, and counter-clockwise seen from outside */
    static const float dir[4][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0}};
    int right = 0;
    for (int s = 0; s < 4; s++) {
        float n[3];
        quad_normal(&m->subsets[s], 0, n);
        right += n[0] * dir[s][0] + n[1] * dir[s][1] + n[2] * dir[s][2] > 0.99f;
    }
    CHECK_EQ_INT(right, 4);
    int up = 0, down = 0;
    for (int q = 0; q < 2; q++) {
        float n[3];
        quad_normal(&m->subsets[4], q, n);
        const TerrainVertex *v = &m->subsets[4].data[q * 4];
        if (n[1] > 0.99f && v[0].y == 71.0f) up++;
        if (n[1] < -0.99f && v[0].y == 70.0f) down++;
    }
    CHECK_EQ_INT(up, 1);
    CHECK_EQ_INT(down, 1);
    /* full daylight, nothing around: top vertices white, bottom shaded 0.55, texture inside the stone tile */
    int tile = blocks->defs[BLOCK_STONE].textures[BLOCK_FACE_POS_Y];
    int top_white = 0, in_tile = 0;
    for (int i = 0; i < 8; i++) {
        const TerrainVertex *v = &m->subsets[4].data[i];
        if (v->y == 71.0f) top_white += v->color[0] == 255 && v->color[1] == 255 && v->color[3] == 255;
        else CHECK_EQ_INT(v->color[0], (255 * (int)lrintf(0.55f * 256)) >> 8);
        int u0 = (tile % 16) * MESHER_UV_TILE_STRIDE, u1 = u0 + 16;
        int v0 = (tile / 16) * MESHER_UV_TILE_STRIDE, v1 = v0 + 16;
        in_tile += v->tx >= u0 && v->tx <= u1 && v->ty >= v0 && v->ty <= v1;
    }
    CHECK_EQ_INT(top_white, 4);
    CHECK_EQ_INT(in_tile, 8);
    chunk_mesh_destroy(m);
    /* two adjacent blocks: 10 quads */
    set_block(t, 6, 70, 5, BLOCK_STONE);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), 40);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_POS_X), 4);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_POS_Z), 8);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

static void test_chunk_border(void)
{
    Terrain *t = world_make(2, fill_air);
    set_block(t, 15, 70, 5, BLOCK_STONE);   /* chunk (0, 0) */
    set_block(t, 16, 70, 5, BLOCK_STONE);   /* chunk (1, 0) */
    world_light(t);
    ChunkMesh *m0 = mesh_chunk(t, 0, 0), *m1 = mesh_chunk(t, 1, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m0), 20);
    CHECK_EQ_INT(subset_count(m0, MESH_SUBSET_OPAQUE_POS_X), 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m1), 20);
    CHECK_EQ_INT(subset_count(m1, MESH_SUBSET_OPAQUE_NEG_X), 0);
    chunk_mesh_destroy(m0);
    chunk_mesh_destroy(m1);
    world_destroy(t);
    /* a missing neighbour culls nothing */
    t = world_make(0, fill_air);
    set_block(t, 15, 70, 5, BLOCK_STONE);
    set_block(t, 0, 0, 0, BLOCK_STONE);     /* the world's floor: no bottom face at y 0 */
    world_light(t);
    m0 = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m0), 24 + 20);
    chunk_mesh_destroy(m0);
    world_destroy(t);
}

static void test_water_plants_torches(void)
{
    Terrain *t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_WATER);
    set_block(t, 6, 70, 5, BLOCK_WATER);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), 40);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_TRANSPARENT), 40);
    int lowered = 0;
    for (int i = 0; i < 40; i++) lowered += m->subsets[6].data[i].y == 70.875f;
    CHECK_EQ_INT(lowered, 2 * 4 + 6 * 2);     /* 2 top faces, 6 side faces' upper edges */
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* frozen over: under ice the water stays full height and shows no top face; the ice shows all six */
    t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_WATER);
    set_block(t, 5, 71, 5, BLOCK_ICE);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_TRANSPARENT), (5 + 6) * 4);
    lowered = 0;
    for (int i = 0; i < m->subsets[6].count; i++) lowered += m->subsets[6].data[i].y == 70.875f;
    CHECK_EQ_INT(lowered, 0);
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* a 3 x 2 x 3 pool in the open: only its outside, the lower layer full height */
    t = world_make(2, fill_air);
    for (int x = 2; x < 5; x++)
        for (int z = 2; z < 5; z++)
            for (int y = 60; y < 62; y++) set_block(t, x, y, z, BLOCK_WATER);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), (9 + 9 + 4 * 6) * 4);
    chunk_mesh_destroy(m);
    world_destroy(t);

    t = world_make(2, fill_floor);
    set_block(t, 3, 65, 3, BLOCK_TALL_GRASS);
    set_block(t, 8, 65, 8, BLOCK_RED_FLOWER);
    set_block(t, 12, 65, 3, BLOCK_TORCH);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    /* a plant is two diagonal quads (8 vertices): the alpha-tested pass is drawn two-sided, so no reversed
     * copies; the torch is a box of 6 quads */
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_ALPHA_TESTED), 8 + 8 + 24);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_TRANSPARENT), 0);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_OTHER), 256 * 4);   /* the floor's tops, none culled */
    for (int s = 0; s < 4; s++) CHECK_EQ_INT(subset_count(m, s), 0);  /* neighbours' floors hide the sides */
    /* the two planes of a plant are vertical and cross at right angles, along the cell's diagonals */
    float a[3], b[3];
    quad_normal(&m->subsets[5], 0, a);
    quad_normal(&m->subsets[5], 1, b);
    CHECK(fabsf(a[1]) < 1e-6f && fabsf(b[1]) < 1e-6f);
    CHECK(fabsf(a[0] * b[0] + a[2] * b[2]) < 1e-6f);
    CHECK(fabsf(fabsf(a[0]) - fabsf(a[2])) < 1e-6f && fabsf(a[0]) > 0.5f);
    CHECK_EQ_INT(m->max_y, 66);
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* a torch in a dark closed room glows; the room's walls are lit by it */
    t = world_make(2, fill_rock);
    for (int x = 4; x < 9; x++)
        for (int z = 4; z < 9; z++)
            for (int y = 40; y < 44; y++) set_block(t, x, y, z, BLOCK_AIR);
    set_block(t, 6, 40, 6, BLOCK_TORCH);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_ALPHA_TESTED), 24);
    int bright = 0;
    for (int i = 0; i < 24; i++) bright += m->subsets[5].data[i].color[0] >= 140;
    CHECK_EQ_INT(bright, 24);
    /* walls: 5x4 per side, floor and ceiling 5x5 (the torch does not hide the floor); the rock's surface */
    CHECK_EQ_INT(chunk_mesh_vertex_count(m) - 24, (4 * 20 + 2 * 25) * 4 + 256 * 4);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

/* A plant's quads cover only its tile's drawn box (BlockRegistry.tile_margin): positions and texture
 * coordinates both shrink to it, so the same texels land where they did on the whole quad. */
static void test_plant_fits_its_tile(void)
{
    int tile = blocks->defs[BLOCK_TALL_GRASS].textures[0];
    BlockTileMargin saved = blocks->tile_margin[tile];
    blocks->tile_margin[tile] = (BlockTileMargin){.left = 2, .right = 3, .top = 4, .bottom = 1};
    Terrain *t = world_make(2, fill_floor);
    set_block(t, 3, 65, 3, BLOCK_TALL_GRASS);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    const VertexList *l = &m->subsets[MESH_SUBSET_ALPHA_TESTED];
    CHECK_EQ_INT(l->count, 8);
    int tile_u = (tile & 15) * MESHER_UV_TILE_STRIDE, tile_v = (tile >> 4) * MESHER_UV_TILE_STRIDE;
    int good = 0;
    for (int i = 0; i < l->count; i++) {
        const TerrainVertex *v = &l->data[i];
        int u = v->tx - tile_u, w = v->ty - tile_v;
        /* u runs along the quad's diagonal: the vertex lies u / 16 along it from one of the cell's corners */
        float dx = v->x - 3.0f, dz = v->z - 3.0f;
        bool diagonal = fabsf(dz - dx) < 1e-5f || fabsf(dz - (1.0f - dx)) < 1e-5f;
        bool u_ok = (u == 2 || u == 13), v_ok = (w == 4 || w == 15);
        float height = v->y - 65.0f;
        bool y_ok = w == 15 ? fabsf(height - 1.0f / 16.0f) < 1e-6f : fabsf(height - 12.0f / 16.0f) < 1e-6f;
        float offset = u / 16.0f;
        bool x_ok = fabsf(dx - offset) < 1e-5f || fabsf(dx - (1.0f - offset)) < 1e-5f;
        good += diagonal && u_ok && v_ok && y_ok && x_ok;
    }
    CHECK_EQ_INT(good, 8);
    chunk_mesh_destroy(m);
    world_destroy(t);
    blocks->tile_margin[tile] = saved;
}

static int count_quads(const VertexList *l, float y0, float y1, int axis, int sign);

static void test_leaves_and_glass(void)
{
    Terrain *t = world_make(2, fill_air);
    set_block(t, 3, 70, 3, BLOCK_OAK_LEAVES);
    set_block(t, 4, 70, 3, BLOCK_BIRCH_LEAVES);   /* faces between leaves (of any kind) culled */
    set_block(t, 8, 70, 8, BLOCK_GLASS);
    set_block(t, 9, 70, 8, BLOCK_GLASS);          /* faces between panes culled */
    set_block(t, 3, 70, 10, BLOCK_OAK_LEAVES);
    set_block(t, 4, 70, 10, BLOCK_STONE);         /* the stone keeps its face to the leaves, the leaf loses its */
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    /* "fast leaves": two touching leaves show 10 faces, not 12 (a canopy shows only its outside); a leaf
     * next to stone shows 5 */
    CHECK_EQ_INT(near_alpha_count(m), 10 * 4 + 5 * 4);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_TRANSPARENT), 10 * 4);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_NEG_X), 4);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m) - subset_count(m, 5) - subset_count(m, 6), 24);
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* a 3 x 3 x 3 ball of mixed leaves across a slice boundary (y 15..17) and the chunk border (x 15..17):
     * only its 54 outer faces, whichever chunk and slice each leaf is in */
    t = world_make(2, fill_air);
    for (int x = 15; x < 18; x++)
        for (int z = 4; z < 7; z++)
            for (int y = 15; y < 18; y++)
                set_block(t, x, y, z, (x + y + z) & 1 ? BLOCK_OAK_LEAVES : BLOCK_SPRUCE_LEAVES);
    world_light(t);
    ChunkMesh *m0 = mesh_chunk(t, 0, 0), *m1 = mesh_chunk(t, 1, 0);
    /* chunk 0 holds the x = 15 layer: its 9 faces to -X and 3 on each of the 4 sides around; chunk 1 the rest */
    CHECK_EQ_INT(near_alpha_count(m0), (9 + 3 * 4) * 4);
    CHECK_EQ_INT(near_alpha_count(m1), (9 + 6 * 4) * 4);
    CHECK_EQ_INT(near_alpha_count(m0) + near_alpha_count(m1), 54 * 4);
    chunk_mesh_destroy(m0);
    chunk_mesh_destroy(m1);
    world_destroy(t);

    /* Step 16's canopy streaks: no top or bottom face of leaves across a one-cell air gap to more leaves (a gap
     * of two, or stone across the gap, keeps them), also when the gap is a slice's first row */
    t = world_make(2, fill_air);
    set_block(t, 3, 70, 3, BLOCK_OAK_LEAVES);
    set_block(t, 3, 72, 3, BLOCK_SPRUCE_LEAVES);   /* gap at 71: 5 + 5 faces */
    set_block(t, 8, 70, 8, BLOCK_OAK_LEAVES);
    set_block(t, 8, 73, 8, BLOCK_OAK_LEAVES);      /* gap of two: 6 + 6 */
    set_block(t, 12, 79, 12, BLOCK_OAK_LEAVES);    /* slice 4's top row; gap at 80, slice 5's first row */
    set_block(t, 12, 81, 12, BLOCK_OAK_LEAVES);    /* 5 + 5 */
    set_block(t, 5, 70, 12, BLOCK_OAK_LEAVES);
    set_block(t, 5, 72, 12, BLOCK_STONE);          /* stone across the gap: the leaf keeps all 6 */
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(m->alpha_leaf_vertices[4], (5 + 5 + 6 + 6 + 5 + 6) * 4);
    CHECK_EQ_INT(m->alpha_leaf_vertices[5], 5 * 4);
    /* in the plane y 71 only the tops of the leaves under a gap of two and under the stone; none at the gaps' tops */
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_ALPHA_TESTED], 71, 71, 1, 0), 2);
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_ALPHA_TESTED], 72, 72, 1, 0), 0);
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_ALPHA_TESTED], 80, 80, 1, 0), 0);
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_ALPHA_TESTED], 81, 81, 1, 0), 0);
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* each slice's alpha-tested part holds its far leaves first (lod_vertices), then its leaves' faces
     * (alpha_leaf_vertices), then its plants and torches: the renderer draws far leaves one-sided. Slice 4 (y 64..79): two leaves among grass and a torch;
     * slice 5: a lone leaf; slice 6: grass only. */
    t = world_make(2, fill_air);
    set_block(t, 3, 70, 3, BLOCK_OAK_LEAVES);
    set_block(t, 4, 70, 3, BLOCK_OAK_LEAVES);
    set_block(t, 6, 70, 6, BLOCK_TALL_GRASS);
    set_block(t, 2, 70, 9, BLOCK_TALL_GRASS);
    set_block(t, 9, 70, 2, BLOCK_TORCH);
    set_block(t, 5, 85, 5, BLOCK_SPRUCE_LEAVES);
    set_block(t, 5, 100, 5, BLOCK_TALL_GRASS);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(m->alpha_leaf_vertices[4], 10 * 4);
    CHECK_EQ_INT(m->alpha_leaf_vertices[5], 6 * 4);
    CHECK_EQ_INT(m->alpha_leaf_vertices[6], 0);
    int leaf_tiles[2] = { block_registry_find_tile(blocks, "oak_leaves"), block_registry_find_tile(blocks, "spruce_leaves") };
    int at = 0, misplaced = 0;
    for (int s = 0; s < CHUNK_SLICES; s++) {
        for (int i = 0; i < m->slice_vertices[MESH_SUBSET_ALPHA_TESTED][s]; i++) {
            const TerrainVertex *v = &m->subsets[MESH_SUBSET_ALPHA_TESTED].data[at + i];
            int tile = (v->tx / MESHER_UV_TILE_STRIDE) + 16 * (v->ty / MESHER_UV_TILE_STRIDE);
            bool leaf = tile == leaf_tiles[0] || tile == leaf_tiles[1];
            int lod = m->lod_vertices[MESH_SUBSET_ALPHA_TESTED][s];
            misplaced += leaf != (i < lod + m->alpha_leaf_vertices[s]);
        }
        at += m->slice_vertices[MESH_SUBSET_ALPHA_TESTED][s];
    }
    CHECK_EQ_INT(at, subset_count(m, MESH_SUBSET_ALPHA_TESTED));
    CHECK_EQ_INT(misplaced, 0);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

/* ---- light, ambient occlusion, tints ---- */

static int expected_channel(float light_sevenths, float shade)
{
    float b = mesher_light_brightness(light_sevenths / 7.0f, 0.5f);
    return (255 * (int)lrintf(b * shade * 256.0f)) >> 8;
}

static void test_ambient_occlusion(void)
{
    Terrain *t = world_make(2, fill_floor);
    set_block(t, 5, 65, 5, BLOCK_STONE);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    const VertexList *tops = &m->subsets[MESH_SUBSET_OPAQUE_OTHER];
    int found = 0;
    for (int q = 0; q < tops->count / 4; q++) {
        const TerrainVertex *v = &tops->data[q * 4];
        float minx = 99, minz = 99;
        for (int k = 0; k < 4; k++) {
            if (v[k].x < minx) minx = v[k].x;
            if (v[k].z < minz) minz = v[k].z;
        }
        if (v[0].y != 65.0f || minx != 6.0f || minz != 5.0f) continue;
        found++;
        for (int k = 0; k < 4; k++) {
            /* corners on x = 6 touch the block (shadow 10 of 7ths), the others are open */
            int expect = v[k].x == 6.0f ? expected_channel(105 - 10, 1.0f) : 255;
            CHECK_EQ_INT(v[k].color[0], expect);
        }
    }
    CHECK_EQ_INT(found, 1);
    /* the block's own top is in full light */
    for (int q = 0; q < tops->count / 4; q++)
        if (tops->data[q * 4].y == 66.0f)
            for (int k = 0; k < 4; k++) CHECK_EQ_INT(tops->data[q * 4 + k].color[0], 255);
    chunk_mesh_destroy(m);
    /* brightness lifts the dark: a face lit 0 gets 0.1 * brightness */
    mesher_context_set_brightness(mctx, 1.0f);
    CHECK_NEAR(mesher_light_brightness(0, 1.0f), 0.1, 1e-6);
    CHECK_NEAR(mesher_light_brightness(15, 0.3f), 1.0, 1e-6);
    CHECK_NEAR(mesher_light_brightness(7.5f, 0.0f), pow(0.5, 1.25), 1e-6);
    mesher_context_set_brightness(mctx, 0.5f);
    world_destroy(t);
}

/* ---- thin layers (snow cover) ---- */

/* Quads of a list whose vertices all lie in y0 <= y <= y1, with an outward normal along `axis` (0 x, 1 y,
 * 2 z) of sign `sign` (0: any direction). */
static int count_quads(const VertexList *l, float y0, float y1, int axis, int sign)
{
    int n = 0;
    for (int q = 0; q < l->count / 4; q++) {
        bool inside = true;
        for (int k = 0; k < 4; k++) inside = inside && l->data[q * 4 + k].y >= y0 && l->data[q * 4 + k].y <= y1;
        float nrm[3];
        quad_normal(l, q, nrm);
        float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        if (inside && len > 0 && (sign == 0 || nrm[axis] * (float)sign > 0.99f * len)) n++;
    }
    return n;
}

static int count_mesh_quads(const ChunkMesh *m, float y0, float y1, int axis, int sign)
{
    int n = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) n += count_quads(&m->subsets[s], y0, y1, axis, sign);
    return n;
}

static void test_snow_layer(void)
{
    const float top = 70.0f + 2.0f / 16.0f;
    /* alone in the air: a 16 x 2 x 16 pixel box, 6 faces, all in subset 4 (opaque non-cube) */
    Terrain *t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_SNOW_LAYER);
    world_light(t);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(t, 5, 70, 5)), 15);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), 24);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_OTHER), 24);
    const VertexList *l = &m->subsets[MESH_SUBSET_OPAQUE_OTHER];
    float min_y = 999, max_y = -999;
    int at_top = 0;
    for (int i = 0; i < l->count; i++) {
        min_y = l->data[i].y < min_y ? l->data[i].y : min_y;
        max_y = l->data[i].y > max_y ? l->data[i].y : max_y;
        at_top += l->data[i].y == top;
        CHECK(l->data[i].x >= 5.0f && l->data[i].x <= 6.0f && l->data[i].z >= 5.0f && l->data[i].z <= 6.0f);
    }
    CHECK(min_y == 70.0f);
    CHECK(max_y == top);
    CHECK_EQ_INT(at_top, 4 + 4 * 2);   /* the top face and the upper edge of each side */
    CHECK_EQ_INT(m->min_y, 70);
    CHECK_EQ_INT(m->max_y, 71);
    /* one face per direction, each facing outwards (counter-clockwise seen from outside) */
    CHECK_EQ_INT(count_quads(l, 70, top, 1, 1), 1);
    CHECK_EQ_INT(count_quads(l, 70, top, 1, -1), 1);
    CHECK_EQ_INT(count_quads(l, 70, top, 0, 1), 1);
    CHECK_EQ_INT(count_quads(l, 70, top, 0, -1), 1);
    CHECK_EQ_INT(count_quads(l, 70, top, 2, 1), 1);
    CHECK_EQ_INT(count_quads(l, 70, top, 2, -1), 1);
    /* texture: the snow tile; the sides show its bottom 2 pixel rows, top and bottom all of it */
    int tile = block_registry_find_tile(blocks, "snow");
    int u0 = (tile % 16) * MESHER_UV_TILE_STRIDE, u1 = u0 + 16;
    int v0 = (tile / 16) * MESHER_UV_TILE_STRIDE, v1 = v0 + 16;
    int v14 = v0 + 14;
    int in_tile = 0, side_rows = 0;
    for (int q = 0; q < l->count / 4; q++) {
        float nrm[3];
        quad_normal(l, q, nrm);
        bool side = fabsf(nrm[1]) < 1e-6f;
        for (int k = 0; k < 4; k++) {
            const TerrainVertex *v = &l->data[q * 4 + k];
            in_tile += v->tx >= u0 && v->tx <= u1 && v->ty >= v0 && v->ty <= v1;
            if (side) side_rows += v->ty == (v->y == top ? v14 : v1);
        }
    }
    CHECK_EQ_INT(in_tile, 24);
    CHECK_EQ_INT(side_rows, 16);
    /* full daylight: the top is white */
    for (int q = 0; q < l->count / 4; q++)
        if (l->data[q * 4].y == top && l->data[q * 4 + 2].y == top)
            for (int k = 0; k < 4; k++) CHECK_EQ_INT(l->data[q * 4 + k].color[0], 255);
    chunk_mesh_destroy(m);

    /* on stone: the layer has no bottom face (5 faces); the stone keeps its sides and bottom, and only its
     * top goes, covered by the layer's box (5 faces) */
    set_block(t, 5, 69, 5, BLOCK_STONE);
    world_light(t);
    CHECK_EQ_INT(cell_light(terrain_get_cell_value(t, 5, 70, 5)), 15);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), (5 + 5) * 4);
    CHECK_EQ_INT(count_mesh_quads(m, 70, top, 1, -1), 0);   /* no face looks down from the layer */
    CHECK_EQ_INT(count_mesh_quads(m, 70, 70, 1, 1), 0);     /* no stone top under the layer */
    CHECK_EQ_INT(count_mesh_quads(m, 70, top, 1, 1), 1);    /* the layer's own top */
    CHECK_EQ_INT(count_mesh_quads(m, 69, 70, 0, 0), 4 + 1); /* the stone's 4 sides and its bottom */
    chunk_mesh_destroy(m);

    /* on leaves: the leaf loses its top the same way, and the layer shows its bottom in its place (seen
     * from below through the leaves); nothing else of the leaf is culled */
    set_block(t, 5, 69, 5, BLOCK_SPRUCE_LEAVES);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_ALPHA_TESTED), 5 * 4);
    CHECK_EQ_INT(subset_count(m, MESH_SUBSET_OPAQUE_OTHER), 6 * 4);
    CHECK_EQ_INT(count_mesh_quads(m, 70, 70, 1, 0), 1);     /* one face in the plane between: the layer's bottom */
    CHECK_EQ_INT(count_mesh_quads(m, 70, 70, 1, -1), 1);
    set_block(t, 5, 69, 5, BLOCK_STONE);
    chunk_mesh_destroy(m);

    /* a stone cube beside it keeps its face towards the layer; the layer loses its side there */
    set_block(t, 6, 70, 5, BLOCK_STONE);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), (4 + 5 + 6) * 4);
    int stone_face = 0;
    for (int q = 0; q < subset_count(m, MESH_SUBSET_OPAQUE_NEG_X) / 4; q++)
        stone_face += m->subsets[MESH_SUBSET_OPAQUE_NEG_X].data[q * 4].x == 6.0f;
    CHECK_EQ_INT(stone_face, 1);
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_OPAQUE_OTHER], 70, top, 0, 1), 0);
    /* the layer's top takes ambient occlusion like a floor: its corners against the stone are darker */
    l = &m->subsets[MESH_SUBSET_OPAQUE_OTHER];
    int found = 0;
    for (int q = 0; q < l->count / 4; q++) {
        const TerrainVertex *v = &l->data[q * 4];
        if (v[0].y != top || v[1].y != top || v[2].y != top) continue;
        found++;
        for (int k = 0; k < 4; k++)
            CHECK_EQ_INT(v[k].color[0], v[k].x == 6.0f ? expected_channel(105 - 10, 1.0f) : 255);
    }
    CHECK_EQ_INT(found, 1);
    chunk_mesh_destroy(m);

    /* an opaque cube on it hides its top */
    set_block(t, 5, 71, 5, BLOCK_STONE);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    CHECK_EQ_INT(count_quads(&m->subsets[MESH_SUBSET_OPAQUE_OTHER], top, top, 1, 1), 0);
    chunk_mesh_destroy(m);
    world_destroy(t);

    /* a snow field is one sheet: two layers side by side hide the sides between them (2 tops, 2 bottoms,
     * 6 outer sides), across a chunk border as well */
    t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_SNOW_LAYER);
    set_block(t, 6, 70, 5, BLOCK_SNOW_LAYER);
    set_block(t, 15, 70, 9, BLOCK_SNOW_LAYER);
    set_block(t, 16, 70, 9, BLOCK_SNOW_LAYER);
    world_light(t);
    m = mesh_chunk(t, 0, 0);
    ChunkMesh *m1 = mesh_chunk(t, 1, 0);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m), (10 + 5) * 4);
    CHECK_EQ_INT(chunk_mesh_vertex_count(m1), 5 * 4);
    chunk_mesh_destroy(m);
    chunk_mesh_destroy(m1);
    world_destroy(t);
}

static void test_tints_and_seasons(void)
{
    Terrain *t = world_make(2, fill_air);
    set_block(t, 5, 70, 5, BLOCK_GRASS);
    set_block(t, 9, 70, 9, BLOCK_OAK_LEAVES);
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    for (int i = 0; i < CHUNK_SHAFTS; i++) c->shafts[i] = shaft_set_humidity(shaft_set_temperature(0, 12), 3);
    world_light(t);
    ChunkMesh *m = mesh_chunk(t, 0, 0);
    uint8_t grass[3];
    mesher_tint_color(BLOCK_TINT_GRASS, 12, 3, MESHER_SEASON_SUMMER, grass);
    int tinted_top = 0, plain_side = 0;
    for (int i = 0; i < m->subsets[4].count; i++) {
        const TerrainVertex *v = &m->subsets[4].data[i];
        if (v->y == 71.0f) tinted_top += v->color[0] == grass[0] && v->color[1] == grass[1] && v->color[2] == grass[2];
    }
    for (int i = 0; i < 4; i++) plain_side += m->subsets[0].data[i].color[0] == m->subsets[0].data[i].color[1];
    CHECK_EQ_INT(tinted_top, 4);
    CHECK_EQ_INT(plain_side, 4);     /* grass sides carry their own green: untinted */
    uint8_t leaves_summer = m->subsets[5].data[16].color[0];
    chunk_mesh_destroy(m);
    /* autumn: every slice rebuilds (the hash covers the setting), foliage turns warmer */
    mesher_context_set_season(mctx, MESHER_SEASON_AUTUMN);
    mesher_build_pass(t, c, blocks, mctx, 1);
    CHECK_EQ_INT(c->worker_geometry->slices_rebuilt_last_pass, 8);
    mesher_build_pass(t, c, blocks, mctx, 2);
    CHECK_EQ_INT(c->worker_geometry->slices_rebuilt_last_pass, 8);
    m = mesher_pack(c);
    CHECK(m->subsets[5].data[16].color[0] > leaves_summer);
    uint8_t a[3], s[3];
    mesher_tint_color(BLOCK_TINT_FOLIAGE, 12, 3, MESHER_SEASON_AUTUMN, a);
    mesher_tint_color(BLOCK_TINT_FOLIAGE, 12, 3, MESHER_SEASON_SUMMER, s);
    CHECK(a[0] > s[0] && a[1] < s[1]);
    mesher_tint_color(BLOCK_TINT_NONE, 3, 3, MESHER_SEASON_WINTER, a);
    CHECK(a[0] == 255 && a[1] == 255 && a[2] == 255);
    mesher_context_set_season(mctx, MESHER_SEASON_SUMMER);
    chunk_mesh_destroy(m);
    world_destroy(t);
}

/* ---- slice hashes ---- */

static bool meshes_equal(const ChunkMesh *a, const ChunkMesh *b)
{
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        if (a->subsets[s].count != b->subsets[s].count) return false;
        if (a->subsets[s].count &&
            memcmp(a->subsets[s].data, b->subsets[s].data, (size_t)a->subsets[s].count * sizeof(TerrainVertex)))
            return false;
    }
    return a->min_y == b->min_y && a->max_y == b->max_y;
}

/* Rebuilt slices of chunk (cx, cz) in passes 1 and 2 as a bit set. */
static unsigned rebuild(Terrain *t, int cx, int cz, int counts[2])
{
    TerrainChunk *c = terrain_get_chunk(t, cx, cz);
    uint64_t before[CHUNK_SLICES] = {0};
    bool built[CHUNK_SLICES];
    if (c->worker_geometry) {
        memcpy(before, c->worker_geometry->slice_hash, sizeof before);
        memcpy(built, c->worker_geometry->slice_built, sizeof built);
    } else memset(built, 0, sizeof built);
    mesher_build_pass(t, c, blocks, mctx, 1);
    counts[0] = c->worker_geometry->slices_rebuilt_last_pass;
    mesher_build_pass(t, c, blocks, mctx, 2);
    counts[1] = c->worker_geometry->slices_rebuilt_last_pass;
    unsigned set = 0;
    for (int s = 0; s < CHUNK_SLICES; s++)
        if (!built[s] || before[s] != c->worker_geometry->slice_hash[s]) set |= 1u << s;
    return set;
}

static void relight_around(Terrain *t, int cx, int cz)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) light_compute_sunlight(terrain_get_chunk(t, cx + dx, cz + dz), blocks, LIGHT_MAX);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) light_propagate(t, terrain_get_chunk(t, cx + dx, cz + dz), blocks, lctx);
}

static int fill_hills(int x, int y, int z)
{
    int ground = 70 + (int)(8 * sin(x * 0.3) * cos(z * 0.25));
    if (y < ground) return (x * 7 + z * 3 + y) % 41 == 0 ? BLOCK_AIR : y < ground - 2 ? BLOCK_STONE : BLOCK_DIRT;
    if (y == ground) return (x + z) % 9 == 0 ? BLOCK_TALL_GRASS : (x * z) % 23 == 5 ? BLOCK_TORCH : BLOCK_AIR;
    if (y < 66) return BLOCK_WATER;
    if (y > ground + 3 && y < ground + 7 && ((x % 8) + 8) % 8 < 3 && ((z % 8) + 8) % 8 < 3) return BLOCK_OAK_LEAVES;
    return BLOCK_AIR;
}

static void test_slice_hashes(void)
{
    Terrain *t = world_make(2, fill_rock);
    world_light(t);
    int n[2];
    CHECK_EQ_INT(rebuild(t, 0, 0, n), 0xFFFFu);
    CHECK_EQ_INT(n[0], 8);
    CHECK_EQ_INT(n[1], 8);
    for (int cz = -1; cz <= 1; cz++)
        for (int cx = -1; cx <= 1; cx++)
            if (cx || cz) rebuild(t, cx, cz, n);
    /* nothing changed: nothing rebuilt */
    CHECK_EQ_INT(rebuild(t, 0, 0, n), 0);
    CHECK_EQ_INT(n[0] + n[1], 0);
    /* a buried block changes in the middle of slice 5: only slice 5 */
    set_block(t, 7, 88, 7, BLOCK_GRANITE);
    relight_around(t, 0, 0);
    CHECK_EQ_INT(rebuild(t, 0, 0, n), 1u << 5);
    CHECK_EQ_INT(n[0], 1);
    CHECK_EQ_INT(n[1], 0);
    CHECK_EQ_INT(rebuild(t, 1, 0, n), 0);
    /* on the chunk border, on the slice's bottom row: slices 4 and 5 here and in the neighbour */
    set_block(t, 15, 80, 7, BLOCK_GRANITE);
    relight_around(t, 0, 0);
    CHECK_EQ_INT(rebuild(t, 0, 0, n), (1u << 4) | (1u << 5));
    CHECK_EQ_INT(rebuild(t, 1, 0, n), (1u << 4) | (1u << 5));
    CHECK_EQ_INT(rebuild(t, 0, 1, n), 0);
    /* a torch in a closed room in slice 5: light changes stay inside it */
    for (int x = 3; x < 12; x++)
        for (int z = 3; z < 12; z++)
            for (int y = 84; y < 92; y++) set_block(t, x, y, z, BLOCK_AIR);
    relight_around(t, 0, 0);
    CHECK_EQ_INT(rebuild(t, 0, 0, n), 1u << 5);
    set_block(t, 7, 85, 7, BLOCK_TORCH);
    relight_around(t, 0, 0);
    CHECK_EQ_INT(rebuild(t, 0, 0, n), 1u << 5);
    /* light does change the rebuilt slice's colours */
    ChunkMesh *lit = mesher_pack(terrain_get_chunk(t, 0, 0));
    CHECK(lit->subsets[4].count > 0);
    chunk_mesh_destroy(lit);
    world_destroy(t);

    /* skipping never changes the output: incremental meshes equal meshes built from scratch after edits */
    t = world_make(2, fill_hills);
    world_light(t);
    for (int cz = -1; cz <= 1; cz++)
        for (int cx = -1; cx <= 1; cx++) rebuild(t, cx, cz, n);
    static const int edits[][4] = {{3, 75, 4, BLOCK_AIR}, {15, 60, 15, BLOCK_TORCH}, {-1, 71, 8, BLOCK_STONE},
                                   {8, 66, 0, BLOCK_WATER}, {5, 90, 5, BLOCK_OAK_LEAVES}, {12, 69, -1, BLOCK_AIR}};
    int equal = 0, total = 0;
    unsigned touched = 0;
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        set_block(t, edits[e][0], edits[e][1], edits[e][2], edits[e][3]);
        relight_around(t, edits[e][0] >> 4, edits[e][2] >> 4);
        for (int cz = -1; cz <= 1; cz++)
            for (int cx = -1; cx <= 1; cx++) {
                touched |= rebuild(t, cx, cz, n);
                TerrainChunk *c = terrain_get_chunk(t, cx, cz);
                ChunkMesh *incremental = mesher_pack(c);
                ChunkGeometry *keep = c->worker_geometry;
                c->worker_geometry = NULL;
                ChunkMesh *fresh = mesh_chunk(t, cx, cz);
                chunk_geometry_destroy(c->worker_geometry);
                c->worker_geometry = keep;
                equal += meshes_equal(incremental, fresh);
                total++;
                chunk_mesh_destroy(incremental);
                chunk_mesh_destroy(fresh);
            }
    }
    CHECK_EQ_INT(equal, total);
    CHECK(touched != 0);
    world_destroy(t);
}

/* ---- meshing while another thread edits (run under ThreadSanitizer too) ---- */

typedef struct MeshEditor {
    TerrainChunk *chunk;
    int started, stop;
    long edits;
} MeshEditor;

static void *mesh_editor_run(void *arg)
{
    MeshEditor *e = arg;
    uint32_t rng = 99;
    __atomic_store_n(&e->started, 1, __ATOMIC_RELEASE);
    for (e->edits = 0; !__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE); e->edits++) {
        rng = rng * 1664525u + 1013904223u;
        int i = (int)((rng >> 8) % CHUNK_CELLS);
        int32_t block = cell_make((rng >> 4) & 1 ? BLOCK_STONE : BLOCK_AIR, 0);
        chunk_set_cell_shared(e->chunk, (i >> 8) & 15, i & 255, i >> 12, block);
    }
    return NULL;
}

static void test_concurrent_mesh(void)
{
    Terrain *t = world_make(2, fill_hills);
    world_light(t);
    MeshEditor e = {.chunk = terrain_get_chunk(t, 1, 0), .started = 0, .stop = 0};   /* a neighbour of the chunk meshed */
    pthread_t thread;
    pthread_create(&thread, NULL, mesh_editor_run, &e);
    while (!__atomic_load_n(&e.started, __ATOMIC_ACQUIRE)) {}   /* make sure the two overlap */
    int built = 0;
    for (int round = 0; round < 20; round++) {
        TerrainChunk *c = terrain_get_chunk(t, 0, 0);
        mesher_build_pass(t, c, blocks, mctx, 1 + (round & 1));
        built += c->worker_geometry->slices_rebuilt_last_pass;
    }
    __atomic_store_n(&e.stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    CHECK(e.edits > 0);
    CHECK(built >= 16);   /* the first two passes build everything; border changes rebuild more */
    world_destroy(t);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    lctx = light_context_create();
    mctx = mesher_context_create();
    mesher_context_set_merge(mctx, false);   /* these tests count faces (merging: test_mesher_merge.c) */
    mesher_context_set_lod(mctx, false);     /* ... at full resolution (half: test_mesher_lod.c) */
    RUN(test_single_block);
    RUN(test_chunk_border);
    RUN(test_water_plants_torches);
    RUN(test_plant_fits_its_tile);
    RUN(test_leaves_and_glass);
    RUN(test_snow_layer);
    RUN(test_ambient_occlusion);
    RUN(test_tints_and_seasons);
    RUN(test_slice_hashes);
    RUN(test_concurrent_mesh);
    mesher_context_destroy(mctx);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
