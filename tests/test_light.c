/* test_light.c — sunlight and light propagation on small hand-built worlds with known answers, and on a
 * mixed world against an independent brute-force reference (whole-world flood), in several orders. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_fixture.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/light.h"
#include "strata/terrain.h"

static BlockRegistry *blocks;
static LightContext *lctx;

/* Sunlight on every chunk within r, then propagation on every chunk within r - 1 (in the given order). */
static void world_light(Terrain *t, int r, int sky, bool reverse)
{
    for (int cz = -r; cz <= r; cz++)
        for (int cx = -r; cx <= r; cx++) light_compute_sunlight(terrain_get_chunk(t, cx, cz), blocks, sky);
    int n = 2 * (r - 1) + 1;
    for (int i = 0; i < n * n; i++) {
        int k = reverse ? n * n - 1 - i : i;
        light_propagate(t, terrain_get_chunk(t, k % n - (r - 1), k / n - (r - 1)), blocks, lctx);
    }
}

/* Relights the 3x3 chunks around chunk (cx, cz) as the state machine does after an edit there. */
static void world_relight_around(Terrain *t, int cx, int cz, int sky)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) light_compute_sunlight(terrain_get_chunk(t, cx + dx, cz + dz), blocks, sky);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) light_propagate(t, terrain_get_chunk(t, cx + dx, cz + dz), blocks, lctx);
}

static int light_at(const Terrain *t, int x, int y, int z)
{
    return cell_light(terrain_get_cell_value(t, x, y, z));
}

static void set_block(Terrain *t, int x, int y, int z, int id)
{
    terrain_set_cell_value(t, x, y, z, cell_make(id, 0));
}

static int iabs(int v) { return v < 0 ? -v : v; }

/* ---- a torch in a closed room ---- */

#define ROOM_X0 -6
#define ROOM_X1 10
#define ROOM_Z0 2
#define ROOM_Z1 13
#define ROOM_Y0 30
#define ROOM_Y1 38

static int fill_room(int x, int y, int z)
{
    if (y >= 100) return BLOCK_AIR;
    if (x >= ROOM_X0 && x < ROOM_X1 && z >= ROOM_Z0 && z < ROOM_Z1 && y >= ROOM_Y0 && y < ROOM_Y1) return BLOCK_AIR;
    return BLOCK_STONE;
}

static void test_torch_in_room(void)
{
    Terrain *t = world_make(2, fill_room);
    const int tx = 3, ty = 31, tz = 7;
    set_block(t, tx, ty, tz, BLOCK_TORCH);
    world_light(t, 2, LIGHT_MAX, false);
    int wrong = 0, checked = 0;
    for (int x = ROOM_X0 - 1; x <= ROOM_X1; x++)
        for (int z = ROOM_Z0 - 1; z <= ROOM_Z1; z++)
            for (int y = ROOM_Y0 - 1; y <= ROOM_Y1; y++) {
                bool inside = x >= ROOM_X0 && x < ROOM_X1 && z >= ROOM_Z0 && z < ROOM_Z1 && y >= ROOM_Y0 && y < ROOM_Y1;
                int d = iabs(x - tx) + iabs(y - ty) + iabs(z - tz);
                int expect = inside && d < 15 ? 15 - d : 0;
                checked++;
                if (light_at(t, x, y, z) != expect) wrong++;
            }
    CHECK(checked > 1000);
    CHECK_EQ_INT(wrong, 0);
    /* exact values at known distances, on both sides of the chunk border at x = 0 */
    CHECK_EQ_INT(light_at(t, tx, ty, tz), 15);
    CHECK_EQ_INT(light_at(t, tx + 1, ty, tz), 14);
    CHECK_EQ_INT(light_at(t, tx, ty + 3, tz), 12);
    CHECK_EQ_INT(light_at(t, 0, ty, tz), 12);
    CHECK_EQ_INT(light_at(t, -1, ty, tz), 11);
    CHECK_EQ_INT(light_at(t, -5, ty, tz), 7);
    CHECK_EQ_INT(light_at(t, -5, ty + 2, tz + 3), 2);
    CHECK_EQ_INT(light_at(t, -6, ty, tz + 5), 1);
    CHECK_EQ_INT(light_at(t, 9, ty + 6, 12), 0);     /* 6 + 6 + 5 = 17 away */
    /* removing the torch returns darkness (the edit relights the 3x3 around its chunk) */
    set_block(t, tx, ty, tz, BLOCK_AIR);
    world_relight_around(t, 0, 0, LIGHT_MAX);
    int lit = 0;
    for (int x = ROOM_X0; x < ROOM_X1; x++)
        for (int z = ROOM_Z0; z < ROOM_Z1; z++)
            for (int y = ROOM_Y0; y < ROOM_Y1; y++) lit += light_at(t, x, y, z) != 0;
    CHECK_EQ_INT(lit, 0);
    /* a torch in the middle of chunk (0, 0): along -x the light crosses x = 0 exactly like inside */
    set_block(t, 8, 33, 8, BLOCK_TORCH);
    world_relight_around(t, 0, 0, LIGHT_MAX);
    int mismatches = 0;
    for (int d = 1; d <= 14; d++) mismatches += light_at(t, 8 - d, 33, 8) != 15 - d;
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(light_at(t, -1, 33, 8), 6);
    CHECK_EQ_INT(light_at(t, -6, 33, 8), 1);
    terrain_destroy(t);
}

/* ---- sky light under an overhang; water and leaves ---- */

static int fill_overhang(int x, int y, int z)
{
    if (y < 64) return BLOCK_STONE;
    if (y == 68 && x >= -4 && x < 6) return BLOCK_STONE;   /* a 10-wide roof, endless along z */
    (void)z;
    return BLOCK_AIR;
}

static void test_overhang(void)
{
    Terrain *t = world_make(2, fill_overhang);
    world_light(t, 2, LIGHT_MAX, false);
    int wrong = 0;
    for (int z = -10; z < 26; z++)
        for (int x = -4; x < 6; x++)
            for (int y = 64; y < 68; y++) {
                int from_left = 15 - (x + 5), from_right = 15 - (6 - x);
                int expect = from_left > from_right ? from_left : from_right;
                if (light_at(t, x, y, z) != expect) wrong++;
            }
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(light_at(t, -4, 65, 3), 14);
    CHECK_EQ_INT(light_at(t, 0, 65, 3), 10);
    CHECK_EQ_INT(light_at(t, 1, 66, -7), 10);
    CHECK_EQ_INT(light_at(t, 5, 64, 20), 14);
    CHECK_EQ_INT(light_at(t, 0, 69, 3), 15);      /* on the roof */
    CHECK_EQ_INT(light_at(t, 0, 68, 3), 0);       /* the roof itself */
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    int32_t roof = c->shafts[CHUNK_SHAFT_INDEX(2, 5)], open = c->shafts[CHUNK_SHAFT_INDEX(9, 5)];
    CHECK_EQ_INT(shaft_top_height(roof), 68);
    CHECK_EQ_INT(shaft_sunlight_height(roof), 69);
    CHECK_EQ_INT(shaft_bottom_height(roof), 64);
    CHECK_EQ_INT(shaft_top_height(open), 63);
    CHECK_EQ_INT(shaft_sunlight_height(open), 64);
    /* night: the sky level is what reaches the ground */
    world_light(t, 2, 5, false);
    CHECK_EQ_INT(light_at(t, 9, 64, 5), 5);
    CHECK_EQ_INT(light_at(t, -4, 65, 3), 4);
    CHECK_EQ_INT(light_at(t, 0, 65, 3), 0);
    terrain_destroy(t);
}

static int fill_pond(int x, int y, int z)
{
    if (y < 50) return BLOCK_STONE;
    if (x >= 2 && x < 12 && z >= 2 && z < 12) {
        if (y < 64) return BLOCK_WATER;
        return BLOCK_AIR;
    }
    if (y < 64) return BLOCK_STONE;
    if (x == 20 && z == 5 && y == 70) return BLOCK_OAK_LEAVES;
    if (x == 21 && z == 5 && y >= 70 && y < 74) return BLOCK_OAK_LEAVES;   /* a stack of 4 */
    return BLOCK_AIR;
}

static void test_water_and_leaves(void)
{
    Terrain *t = world_make(2, fill_pond);
    world_light(t, 2, LIGHT_MAX, false);
    /* straight down in water: 15 - 2 per block (the walls are rock, the surface is uniform) */
    for (int y = 63, expect = 13; y >= 50; y--, expect = expect - 2 > 0 ? expect - 2 : 0)
        CHECK_EQ_INT(light_at(t, 6, y, 6), expect);
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    CHECK_EQ_INT(shaft_top_height(c->shafts[CHUNK_SHAFT_INDEX(6, 6)]), 63);
    CHECK_EQ_INT(shaft_sunlight_height(c->shafts[CHUNK_SHAFT_INDEX(6, 6)]), 57);
    /* one leaf: sunlight 12 inside it, the air below gets 14 from the sides */
    CHECK_EQ_INT(light_at(t, 20, 70, 5), 12);
    CHECK_EQ_INT(light_at(t, 20, 69, 5), 14);
    /* four leaves: sunlight 12, 9, 6, 3 down the stack, but light from the side (15 - 1 - 3) lifts them */
    CHECK_EQ_INT(light_at(t, 21, 73, 5), 12);
    CHECK_EQ_INT(light_at(t, 21, 72, 5), 11);
    CHECK_EQ_INT(light_at(t, 21, 70, 5), 11);
    CHECK_EQ_INT(light_at(t, 21, 69, 5), 14);
    TerrainChunk *c1 = terrain_get_chunk(t, 1, 0);
    CHECK_EQ_INT(shaft_top_height(c1->shafts[CHUNK_SHAFT_INDEX(5, 5)]), 73);
    /* 12, 9, 6, 3 down the stack, and the 3 left goes on through the air to the ground */
    CHECK_EQ_INT(shaft_sunlight_height(c1->shafts[CHUNK_SHAFT_INDEX(5, 5)]), 64);
    terrain_destroy(t);
}

/* ---- snow cover: a thin layer is no opaque cube, and sunlight passes it unweakened ---- */

static int fill_snowfield(int x, int y, int z)
{
    if (y < 64) return BLOCK_STONE;
    if (y == 64 && x >= 0 && x < 12 && z >= 0 && z < 12) return BLOCK_SNOW_LAYER;   /* on the ground */
    if (y == 80 && x == 20 && z == 5) return BLOCK_SNOW_LAYER;                      /* one in the air */
    if (y == 64 && x == 20 && z == 8) return BLOCK_STONE;                            /* a step ... */
    if (y == 65 && x == 20 && z == 8) return BLOCK_SNOW_LAYER;                       /* ... with snow on it */
    return BLOCK_AIR;
}

static void test_snow_layer(void)
{
    Terrain *t = world_make(2, fill_snowfield);
    world_light(t, 2, LIGHT_MAX, false);
    /* the layer's own cell has full sky light (it sits on rock, in the open) */
    CHECK_EQ_INT(light_at(t, 5, 64, 5), 15);
    CHECK_EQ_INT(light_at(t, 0, 64, 0), 15);
    CHECK_EQ_INT(light_at(t, 20, 65, 8), 15);
    CHECK_EQ_INT(light_at(t, 5, 63, 5), 0);     /* the rock under it stays dark */
    /* sunlight goes straight through: the air under a layer in the air is at full sky light, and the
     * column's sunlight reaches the ground */
    CHECK_EQ_INT(light_at(t, 20, 80, 5), 15);
    CHECK_EQ_INT(light_at(t, 20, 79, 5), 15);
    CHECK_EQ_INT(light_at(t, 20, 64, 5), 15);
    TerrainChunk *c1 = terrain_get_chunk(t, 1, 0);
    CHECK_EQ_INT(shaft_top_height(c1->shafts[CHUNK_SHAFT_INDEX(4, 5)]), 80);
    CHECK_EQ_INT(shaft_sunlight_height(c1->shafts[CHUNK_SHAFT_INDEX(4, 5)]), 64);
    /* at night the layer passes the sky level on (attenuation 0) */
    world_light(t, 2, 4, false);
    CHECK_EQ_INT(light_at(t, 5, 64, 5), 4);
    CHECK_EQ_INT(light_at(t, 20, 79, 5), 4);
    terrain_destroy(t);
}

/* ---- emitters: magma 13, jack o'lantern 8 (opaque), torch 15 ---- */

static int fill_solid(int x, int y, int z)
{
    (void)x; (void)z;
    return y < 120 ? BLOCK_STONE : BLOCK_AIR;
}

static void test_emitters(void)
{
    Terrain *t = world_make(2, fill_solid);
    /* a 5-long tunnel at y 40 with magma at one end and a jack o'lantern at the other, in separate tunnels */
    for (int x = 0; x < 6; x++) set_block(t, x, 40, 3, BLOCK_AIR);
    set_block(t, 0, 40, 3, BLOCK_MAGMA);
    for (int x = 0; x < 6; x++) set_block(t, x, 40, 9, BLOCK_AIR);
    set_block(t, -1, 40, 9, BLOCK_JACK_O_LANTERN);
    world_light(t, 2, LIGHT_MAX, true);
    CHECK_EQ_INT(light_at(t, 0, 40, 3), 13);
    CHECK_EQ_INT(light_at(t, 1, 40, 3), 12);
    CHECK_EQ_INT(light_at(t, 5, 40, 3), 8);
    CHECK_EQ_INT(light_at(t, 1, 41, 3), 0);       /* rock stays dark */
    CHECK_EQ_INT(light_at(t, -1, 40, 9), 8);
    CHECK_EQ_INT(light_at(t, 0, 40, 9), 7);
    CHECK_EQ_INT(light_at(t, 5, 40, 9), 2);
    /* a chunk at the edge of the loaded world: missing neighbours block light, its own light is right */
    for (int x = 31; x < 36; x++) set_block(t, x, 40, 40, BLOCK_AIR);
    set_block(t, 33, 40, 40, BLOCK_TORCH);
    TerrainChunk *edge = terrain_get_chunk(t, 2, 2);
    light_compute_sunlight(edge, blocks, LIGHT_MAX);
    light_compute_sunlight(terrain_get_chunk(t, 1, 2), blocks, LIGHT_MAX);
    light_propagate(t, edge, blocks, lctx);
    CHECK_EQ_INT(light_at(t, 33, 40, 40), 15);
    CHECK_EQ_INT(light_at(t, 35, 40, 40), 13);
    CHECK_EQ_INT(light_at(t, 32, 40, 40), 14);
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    CHECK_EQ_INT(c->worker_emitter_slices, 1ull << (4 * 2 + 0));   /* slice 2, quadrant x < 8, z < 8 */
    CHECK_EQ_INT(c->worker_warm_emitter_slices, 0);   /* magma alone (a fluid): no warm emitter */
    /* the jack o'lantern (chunk -1, x 15, z 9: quadrant 3) and the torch (chunk 2, 2, x 1, z 8: quadrant 2) */
    CHECK_EQ_INT(terrain_get_chunk(t, -1, 0)->worker_warm_emitter_slices, 1ull << (4 * 2 + 3));
    CHECK_EQ_INT(edge->worker_warm_emitter_slices, 1ull << (4 * 2 + 2));
    CHECK_EQ_INT(edge->worker_emitter_slices, 1ull << (4 * 2 + 2));
    CHECK_EQ_INT(c->worker_sky_light, LIGHT_MAX);
    terrain_destroy(t);
}

/* ---- a mixed world against a brute-force reference, in two propagation orders ---- */

static uint32_t mix_hash(int x, int y, int z)
{
    uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)z * 83492791u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return h ^ (h >> 15);
}

static int fill_mixed(int x, int y, int z)
{
    int ground = 62 + (int)(6.0 * sin(x * 0.21) + 4.0 * cos(z * 0.17));
    /* caves: two tunnels that break the surface */
    int dx = x - 5, dz = z + 3;
    bool cave = (dz * dz + (y - 55) * (y - 55) < 16 && x > -30 && x < 30) ||
                (dx * dx + (y - 48 - z / 4) * (y - 48 - z / 4) < 9);
    uint32_t h = mix_hash(x, y, z);
    if (y < ground) {
        if (cave) return (h & 255) == 0 ? BLOCK_TORCH : BLOCK_AIR;
        if ((h & 1023) == 1) return BLOCK_MAGMA;
        if ((h & 1023) == 2) return BLOCK_JACK_O_LANTERN;
        return y < ground - 3 ? BLOCK_STONE : BLOCK_DIRT;
    }
    if (y < 60) return BLOCK_WATER;
    if (y == ground && (h & 63) == 3) return BLOCK_TORCH;
    if (y == ground && (h & 15) == 5) return BLOCK_TALL_GRASS;
    if (y == ground && (h & 15) == 6) return BLOCK_SNOW_LAYER;
    /* trees: trunk and leaf balls on a coarse grid */
    int gx = ((x % 11) + 11) % 11, gz = ((z % 13) + 13) % 13;
    if (gx == 5 && gz == 6 && y < ground + 5 && ground >= 60) return BLOCK_OAK_TRUNK;
    int ly = y - (ground + 5);
    if (ground >= 60 && (gx - 5) * (gx - 5) + (gz - 6) * (gz - 6) + ly * ly <= 7) return BLOCK_OAK_LEAVES;
    if (y == 80 && x > 20 && x < 40 && z > -10 && z < 6) return BLOCK_GLASS;
    if (y == 90 && x > -40 && x < -20 && z > 0 && z < 12) return BLOCK_ICE;
    return BLOCK_AIR;
}

#define REF_R 2
#define REF_W ((2 * REF_R + 1) * 16)
#define REF_INDEX(x, y, z) ((size_t)(y) + 256 * ((size_t)(x) + REF_W * (size_t)(z)))

/* Whole-world light computed the simple way: per-column sunlight, then relax until nothing changes. */
static uint8_t *reference_light(const Terrain *t, int sky)
{
    size_t n = (size_t)REF_W * REF_W * 256;
    uint8_t *light = calloc(n, 1);
    uint16_t *contents = calloc(n, sizeof *contents);
    uint32_t *queue = malloc(n * sizeof *queue);   /* ring; a cell is in it at most once */
    uint8_t *queued = calloc(n, 1);
    size_t head = 0, count = 0;
    for (int z = 0; z < REF_W; z++)
        for (int x = 0; x < REF_W; x++) {
            int l = sky;
            bool sun = true;
            for (int y = 255; y >= 0; y--) {
                int c = cell_contents(terrain_get_cell_value(t, x - REF_R * 16, y, z - REF_R * 16));
                contents[REF_INDEX(x, y, z)] = (uint16_t)c;
                if (sun && blocks->transparent_to_sun[c]) {
                    l -= blocks->attenuation[c];
                    if (l <= 0) sun = false;
                } else sun = false;
                int v = sun ? l : 0;
                if (blocks->emission[c] > v) v = blocks->emission[c];
                light[REF_INDEX(x, y, z)] = (uint8_t)v;
                if (v > 0) {
                    queue[(head + count++) % n] = (uint32_t)REF_INDEX(x, y, z);
                    queued[REF_INDEX(x, y, z)] = 1;
                }
            }
        }
    while (count) {
        uint32_t p = queue[head];
        head = (head + 1) % n;
        count--;
        queued[p] = 0;
        int y = (int)(p % 256), x = (int)(p / 256 % REF_W), z = (int)(p / 256 / REF_W);
        int l = light[p];
        static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int k = 0; k < 6; k++) {
            int nx = x + d[k][0], ny = y + d[k][1], nz = z + d[k][2];
            if (nx < 0 || nz < 0 || ny < 0 || nx >= REF_W || nz >= REF_W || ny > 255) continue;
            size_t q = REF_INDEX(nx, ny, nz);
            int nl = l - 1 - blocks->attenuation[contents[q]];
            if (nl > light[q]) {
                light[q] = (uint8_t)nl;
                if (!queued[q]) {
                    queue[(head + count++) % n] = (uint32_t)q;
                    queued[q] = 1;
                }
            }
        }
    }
    free(queued);
    free(contents);
    free(queue);
    return light;
}

static int compare_inner(const Terrain *t, const uint8_t *ref)
{
    int wrong = 0;
    for (int z = 16; z < REF_W - 16; z++)
        for (int x = 16; x < REF_W - 16; x++)
            for (int y = 0; y < 256; y++)
                if (light_at(t, x - REF_R * 16, y, z - REF_R * 16) != ref[REF_INDEX(x, y, z)]) wrong++;
    return wrong;
}

static void test_mixed_world_matches_reference(void)
{
    Terrain *t = world_make(REF_R, fill_mixed);
    world_light(t, REF_R, LIGHT_MAX, false);
    uint8_t *ref = reference_light(t, LIGHT_MAX);
    CHECK_EQ_INT(compare_inner(t, ref), 0);
    /* the world must exercise propagation: many cells are brighter than their sunlight */
    int propagated = 0, crossing = 0;
    for (int cz = -1; cz <= 1; cz++)
        for (int cx = -1; cx <= 1; cx++) {
            const TerrainChunk *c = terrain_get_chunk(t, cx, cz);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int sunlit = shaft_sunlight_height(c->shafts[CHUNK_SHAFT_INDEX(x, z)]);
                    for (int y = 0; y < sunlit; y++) {
                        int l = cell_light(chunk_get_cell(c, x, y, z));
                        propagated += l > 0;
                        crossing += l > 0 && (x == 0 || x == 15 || z == 0 || z == 15);
                    }
                }
        }
    CHECK(propagated > 2000);
    CHECK(crossing > 200);
    /* order independence: relight in reverse order, and the centre alone after its neighbours */
    world_light(t, REF_R, LIGHT_MAX, true);
    CHECK_EQ_INT(compare_inner(t, ref), 0);
    light_propagate(t, terrain_get_chunk(t, 0, 0), blocks, lctx);
    CHECK_EQ_INT(compare_inner(t, ref), 0);
    /* the centre first, before any neighbour propagated, gives the same centre */
    for (int cz = -REF_R; cz <= REF_R; cz++)
        for (int cx = -REF_R; cx <= REF_R; cx++) light_compute_sunlight(terrain_get_chunk(t, cx, cz), blocks, LIGHT_MAX);
    light_propagate(t, terrain_get_chunk(t, 0, 0), blocks, lctx);
    int wrong = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            for (int y = 0; y < 256; y++)
                wrong += light_at(t, x, y, z) != ref[REF_INDEX(x + REF_R * 16, y, z + REF_R * 16)];
    CHECK_EQ_INT(wrong, 0);
    free(ref);
    /* opening a cave roof: dig a shaft from the surface into the tunnel along z at x = 5; relighting
     * the 3x3 around the edited chunk gives the reference answer everywhere near it */
    world_light(t, REF_R, LIGHT_MAX, false);
    const int gx = 5, gz = 4;
    for (int y = 100; y > 40; y--) {
        set_block(t, gx, y, gz, BLOCK_AIR);   /* leaves of a tree above too */
    }
    world_relight_around(t, 0, 0, LIGHT_MAX);
    ref = reference_light(t, LIGHT_MAX);
    wrong = 0;
    for (int z = -8; z < 24; z++)
        for (int x = -8; x < 24; x++)
            for (int y = 0; y < 256; y++)
                wrong += light_at(t, x, y, z) != ref[REF_INDEX(x + REF_R * 16, y, z + REF_R * 16)];
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(light_at(t, gx, 50, gz), LIGHT_MAX);
    free(ref);
    terrain_destroy(t);
}

/* ---- random edits, relit in random orders, against the reference ---- */

static uint32_t rng_next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* Sunlight on the 3x3 chunks around (cx, cz), then propagation on those of them inside the propagated
 * area (|coord| <= REF_R - 1), each in a shuffled order: what the state machine may do after an edit. */
static void world_relight_shuffled(Terrain *t, int cx, int cz, int sky, uint32_t *rng)
{
    int order[9];
    for (int i = 0; i < 9; i++) order[i] = i;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 8; i > 0; i--) {
            int j = (int)(rng_next(rng) % (uint32_t)(i + 1)), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        for (int i = 0; i < 9; i++) {
            int x = cx + order[i] % 3 - 1, z = cz + order[i] / 3 - 1;
            TerrainChunk *c = terrain_get_chunk(t, x, z);
            if (pass == 0) light_compute_sunlight(c, blocks, sky);
            else if (iabs(x) < REF_R && iabs(z) < REF_R) light_propagate(t, c, blocks, lctx);
        }
    }
}

static void test_random_edits_match_reference(void)
{
    static const int palette[] = {BLOCK_AIR, BLOCK_AIR, BLOCK_TORCH, BLOCK_STONE, BLOCK_OAK_LEAVES,
                                  BLOCK_WATER, BLOCK_GLASS, BLOCK_MAGMA, BLOCK_JACK_O_LANTERN};
    Terrain *t = world_make(REF_R, fill_mixed);
    world_light(t, REF_R, LIGHT_MAX, false);
    uint32_t rng = 2024;
    int sky = LIGHT_MAX, wrong_rounds = 0;
    for (int round = 0; round < 8; round++) {
        if (round == 4 || round == 6) {
            /* the sky changes: everything is relit (here in a shuffled order too) */
            sky = round == 4 ? 4 : LIGHT_MAX;
            for (int cz = -REF_R; cz <= REF_R; cz++)
                for (int cx = -REF_R; cx <= REF_R; cx++)
                    light_compute_sunlight(terrain_get_chunk(t, cx, cz), blocks, sky);
            world_relight_shuffled(t, 0, 0, sky, &rng);
        }
        /* a few edits in one chunk of the propagated area, near its borders as often as not */
        int cx = (int)(rng_next(&rng) % 3) - 1, cz = (int)(rng_next(&rng) % 3) - 1;
        for (int e = 0; e < 6; e++) {
            int lx = (int)(rng_next(&rng) % 16), lz = (int)(rng_next(&rng) % 16);
            if (e & 1) lx = rng_next(&rng) & 1 ? 0 : 15;
            int y = 45 + (int)(rng_next(&rng) % 40);
            int id = palette[rng_next(&rng) % (sizeof palette / sizeof palette[0])];
            set_block(t, cx * 16 + lx, y, cz * 16 + lz, id);
        }
        world_relight_shuffled(t, cx, cz, sky, &rng);
        uint8_t *ref = reference_light(t, sky);
        wrong_rounds += compare_inner(t, ref) != 0;
        free(ref);
    }
    CHECK_EQ_INT(wrong_rounds, 0);
    terrain_destroy(t);
}

/* An edit that only brightens (edit.c: the new block lets as much light through and emits at least as much)
 * relights its own chunk from its own light, but its neighbours only propagate again, from the light they
 * hold, with their "final light" mark cleared (as the exchange does when the edit sends them back to
 * InvalidPropagatedLight): the light must still be the reference's everywhere. */
static void test_brightening_edits_match_reference(void)
{
    static const int palette[] = {BLOCK_AIR, BLOCK_TORCH, BLOCK_TORCH, BLOCK_STONE, BLOCK_OAK_LEAVES, BLOCK_WATER,
                                  BLOCK_GLASS, BLOCK_MAGMA, BLOCK_JACK_O_LANTERN};
    Terrain *t = world_make(REF_R, fill_mixed);
    world_light(t, REF_R, LIGHT_MAX, false);
    uint32_t rng = 77;
    int wrong_rounds = 0, brightening = 0;
    for (int round = 0; round < 24; round++) {
        const int cx = 0, cz = 0;   /* its 3x3 all propagate; its light reaches no chunk beyond them */
        int lx = (int)(rng_next(&rng) % 16), lz = (int)(rng_next(&rng) % 16);
        if (round & 1) lx = rng_next(&rng) & 1 ? 0 : 15;
        if (round % 3 == 0) {   /* in and around fill_mixed's tunnel along z (x 5, y 48 + z / 4), at a border */
            lx = 3 + (int)(rng_next(&rng) % 5);
            lz = rng_next(&rng) & 1 ? 0 : 15;
        }
        int x = cx * 16 + lx, z = cz * 16 + lz, y = CHUNK_SIZE_Y - 1;
        while (y > 0 && cell_contents(terrain_get_cell_value(t, x, y, z)) == BLOCK_AIR) y--;
        y += 1 - (int)(rng_next(&rng) % 4);   /* near the surface, where light can go somewhere: dig or place */
        if (round % 3 == 0) y = 45 + (int)(rng_next(&rng) % 10);
        int from = cell_contents(terrain_get_cell_value(t, x, y, z));
        int to = palette[rng_next(&rng) % (sizeof palette / sizeof palette[0])];
        bool brightens = blocks->attenuation[to] <= blocks->attenuation[from] && blocks->emission[to] >= blocks->emission[from];
        if (!brightens || to == from) {
            round--;   /* only edits of that kind here */
            continue;
        }
        brightening++;
        set_block(t, x, y, z, to);
        light_compute_sunlight(terrain_get_chunk(t, cx, cz), blocks, LIGHT_MAX);
        int order[9];
        for (int i = 0; i < 9; i++) order[i] = i;
        for (int i = 8; i > 0; i--) {
            int j = (int)(rng_next(&rng) % (uint32_t)(i + 1)), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        for (int i = 0; i < 9; i++) terrain_get_chunk(t, cx + i % 3 - 1, cz + i / 3 - 1)->worker_flags &= ~LIGHT_WORKER_FLAG_PROPAGATED;
        for (int i = 0; i < 9; i++) {
            int nx = cx + order[i] % 3 - 1, nz = cz + order[i] / 3 - 1;
            if (iabs(nx) < REF_R && iabs(nz) < REF_R) light_propagate(t, terrain_get_chunk(t, nx, nz), blocks, lctx);
        }
        uint8_t *ref = reference_light(t, LIGHT_MAX);
        int wr = compare_inner(t, ref);
        wrong_rounds += wr != 0;
        free(ref);
    }
    CHECK_EQ_INT(brightening, 24);
    CHECK_EQ_INT(wrong_rounds, 0);
    terrain_destroy(t);
}

/* ---- a concurrent editor: light writes never lose a contents change made meanwhile ---- */

#define EDITOR_Y0 240
#ifdef __SANITIZE_THREAD__
#define EDITOR_ROUNDS 200      /* ThreadSanitizer checks the accesses; a few rounds are enough */
#else
#define EDITOR_ROUNDS 3000     /* a lost update needs an edit inside a few-ns window: give it many chances */
#endif

typedef struct Editor {
    TerrainChunk *chunk;
    int started, stop;              /* set (atomically) by the editor / when the lighting rounds are done */
    long edits, lost;
} Editor;

/* Toggles air/glass in the sky-lit top of one column as fast as it can; before each write it checks
 * that its previous write to that cell is still there (only light bits may change behind its back). */
static void *editor_run(void *arg)
{
    Editor *e = arg;
    int last[CHUNK_SIZE_Y - EDITOR_Y0];
    memset(last, 0xFF, sizeof last);
    uint32_t rng = 12345;
    __atomic_store_n(&e->started, 1, __ATOMIC_RELEASE);
    for (e->edits = 0; !__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE); e->edits++) {
        rng = rng * 1664525u + 1013904223u;
        int y = EDITOR_Y0 + (int)((rng >> 8) % (CHUNK_SIZE_Y - EDITOR_Y0));
        int *mine = &last[y - EDITOR_Y0];
        if (*mine >= 0 && cell_contents(chunk_get_cell_shared(e->chunk, 5, y, 5)) != *mine) e->lost++;
        *mine = (rng >> 20) & 1 ? BLOCK_GLASS : BLOCK_AIR;
        chunk_set_cell_shared(e->chunk, 5, y, 5, cell_make(*mine, 0));
    }
    return NULL;
}

static void test_concurrent_edits(void)
{
    Terrain *t = world_make(2, fill_mixed);
    world_light(t, 2, LIGHT_MAX, false);
    Editor e = {.chunk = terrain_get_chunk(t, 0, 0), .started = 0, .stop = 0};
    pthread_t thread;
    pthread_create(&thread, NULL, editor_run, &e);
    while (!__atomic_load_n(&e.started, __ATOMIC_ACQUIRE)) {}   /* make sure the two overlap */
    /* the sky alternates, so every round rewrites the light of every cell the editor touches */
    for (int round = 0; round < EDITOR_ROUNDS; round++) light_compute_sunlight(e.chunk, blocks, round & 1 ? 6 : LIGHT_MAX);
    for (int round = 0; round < 4; round++) light_propagate(t, e.chunk, blocks, lctx);
    __atomic_store_n(&e.stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    CHECK(e.edits > 1000);
    CHECK_EQ_INT(e.lost, 0);
    terrain_destroy(t);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    lctx = light_context_create();
    RUN(test_torch_in_room);
    RUN(test_overhang);
    RUN(test_water_and_leaves);
    RUN(test_snow_layer);
    RUN(test_emitters);
    RUN(test_mixed_world_matches_reference);
    RUN(test_random_edits_match_reference);
    RUN(test_brightening_edits_match_reference);
    RUN(test_concurrent_edits);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
