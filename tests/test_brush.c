/* test_brush.c — TerrainBrush: adding cells (replace, if-empty, box, ray), bounds, value replacement,
 * compiling (order, row index, empty brush) and painting clipped to one chunk (fast, selective, into, avoid
 * water); value and position handlers, thick rays; counters (by value, by handler, by position) and Paint on a
 * world through a fake BrushWorld. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/brush.h"
#include "strata/chunk.h"

static TerrainChunk *new_chunk(int cx, int cz)
{
    TerrainChunk *c = calloc(1, sizeof *c);
    chunk_reset(c, cx, cz);
    return c;
}

static int count_contents(const TerrainChunk *c, int contents)
{
    int n = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            for (int y = 0; y < 256; y++)
                n += chunk_get_contents(c, x, y, z) == contents;
    return n;
}

static void test_add_and_replace(void)
{
    TerrainBrush b;
    brush_init(&b);
    CHECK(brush_find(&b, 0, 0, 0) == NULL);
    brush_add_cell(&b, 1, 2, 3, 7, 0);
    brush_add_cell(&b, 1, 2, 3, 8, BRUSH_CELL_FORCE);        /* replaces */
    brush_add_cell_if_empty(&b, 1, 2, 3, 9, 0);              /* keeps */
    brush_add_cell_if_empty(&b, -1, -2, -3, 10, 0);          /* adds */
    CHECK_EQ_INT(b.count, 2);
    const BrushCell *c = brush_find(&b, 1, 2, 3);
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ_INT(c->value, 8);
        CHECK_EQ_INT(c->flags, BRUSH_CELL_FORCE);
    }
    c = brush_find(&b, -1, -2, -3);
    CHECK(c && c->value == 10);
    CHECK(brush_find(&b, 1, 2, 4) == NULL);
    brush_replace_value(&b, 10, 11);
    c = brush_find(&b, -1, -2, -3);
    CHECK(c && c->value == 11);
    c = brush_find(&b, 1, 2, 3);
    CHECK(c && c->value == 8);

    /* many cells: the hash grows and every cell stays findable */
    brush_clear(&b);
    CHECK_EQ_INT(b.count, 0);
    CHECK(brush_find(&b, 1, 2, 3) == NULL);
    brush_add_box(&b, -5, 0, -5, 10, 20, 10, 3);
    CHECK_EQ_INT(b.count, 2000);
    int missing = 0;
    for (int x = -5; x < 5; x++)
        for (int y = 0; y < 20; y++)
            for (int z = -5; z < 5; z++) {
                c = brush_find(&b, x, y, z);
                missing += !c || c->value != 3;
            }
    CHECK_EQ_INT(missing, 0);
    CHECK(brush_find(&b, 5, 0, 0) == NULL);
    CHECK(!b.out_of_memory);
    brush_free(&b);
    CHECK_EQ_INT(b.count, 0);
}

static void test_ray_and_bounds(void)
{
    TerrainBrush b;
    brush_init(&b);
    int x0, y0, z0, x1, y1, z1;
    brush_bounds(&b, &x0, &y0, &z0, &x1, &y1, &z1);
    CHECK(x0 == 0 && y0 == 0 && z0 == 0 && x1 == 0 && y1 == 0 && z1 == 0);
    /* a ray has max(|d|) + 1 cells, both ends included */
    brush_add_ray(&b, 0, 0, 0, 6, -3, 2, 5, false);
    CHECK_EQ_INT(b.count, 7);
    CHECK(brush_find(&b, 0, 0, 0) != NULL);
    CHECK(brush_find(&b, 6, -3, 2) != NULL);
    brush_bounds(&b, &x0, &y0, &z0, &x1, &y1, &z1);
    CHECK(x0 == 0 && y0 == -3 && z0 == 0 && x1 == 6 && y1 == 0 && z1 == 2);
    /* only_empty keeps the cells there; a plain ray replaces them */
    brush_add_ray(&b, 0, 0, 0, 0, 4, 0, 9, true);
    CHECK(brush_find(&b, 0, 0, 0)->value == 5);
    CHECK(brush_find(&b, 0, 4, 0)->value == 9);
    brush_add_ray(&b, 0, 0, 0, 0, -1, 0, 9, false);
    CHECK(brush_find(&b, 0, 0, 0)->value == 9);
    /* a zero-length ray is one cell */
    brush_clear(&b);
    brush_add_ray(&b, 3, 3, 3, 3, 3, 3, 1, false);
    CHECK_EQ_INT(b.count, 1);
    brush_free(&b);
}

static void test_compile(void)
{
    TerrainBrush b;
    brush_init(&b);
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);   /* empty */
    CHECK_EQ_INT(cb.count, 0);
    CHECK(cb.cells == NULL);
    brush_compiled_free(&cb);

    brush_add_cell(&b, 2, 0, 1, 1, 0);
    brush_add_cell(&b, -1, 5, 1, 2, 0);
    brush_add_cell(&b, 0, 0, -2, 3, 0);
    brush_add_cell(&b, -1, 1, 1, 4, 0);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(cb.count, 4);
    CHECK(cb.min_x == -1 && cb.min_y == 0 && cb.min_z == -2 && cb.max_x == 2 && cb.max_y == 5 && cb.max_z == 1);
    /* sorted by z, then x, then y */
    const BrushCell *c = cb.cells;
    CHECK(c[0].value == 3 && c[1].value == 4 && c[2].value == 2 && c[3].value == 1);
    /* rows: z -2 has one cell, z -1 and 0 none, z 1 three */
    CHECK(cb.z_rows[0] == 0 && cb.z_rows[1] == 1 && cb.z_rows[2] == 1 && cb.z_rows[3] == 1 && cb.z_rows[4] == 4);
    /* the compiled brush is a copy: the builder may be reused */
    brush_clear(&b);
    brush_add_cell(&b, 0, 0, 0, 99, 0);
    CHECK_EQ_INT(cb.cells->value, 3);
    brush_compiled_free(&cb);
    CHECK(cb.cells == NULL && cb.count == 0);
    brush_free(&b);
}

/* Whether the compiled cells are in z, x, y order, strictly (positions are unique). */
static bool cells_in_order(const CompiledBrush *cb)
{
    const BrushCell *cell = cb->cells;
    for (int i = 1; i < cb->count; i++) {
        const BrushCell *a = &cell[i - 1], *b = &cell[i];
        int order = a->z != b->z ? a->z - b->z : a->x != b->x ? a->x - b->x : a->y - b->y;
        if (order >= 0) return false;
    }
    return true;
}

/* Compiling sorts with counting passes over the bounds, and falls back to qsort when the bounds are far wider
 * than the cells are many: both give the z, x, y order, every cell kept once with its value. */
static void test_compile_sorts(void)
{
    TerrainBrush b;
    brush_init(&b);
    uint32_t state = 12345;
    int added = 0;
    long value_sum = 0;
    for (int i = 0; i < 3000; i++) {   /* a random blob, in random order, some positions repeated */
        state = state * 1664525u + 1013904223u;
        int x = (int)(state >> 8 & 31) - 16, y = (int)(state >> 14 & 15) - 4, z = (int)(state >> 20 & 31) - 16;
        if (!brush_find(&b, x, y, z)) {
            added++;
            value_sum += i + 1;
        }
        brush_add_cell_if_empty(&b, x, y, z, i + 1, 0);
    }
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(cb.count, added);
    CHECK(cells_in_order(&cb));
    long sum = 0;
    const BrushCell *cell = cb.cells;
    for (int i = 0; i < cb.count; i++) sum += cell[i].value;
    CHECK(sum == value_sum);
    brush_compiled_free(&cb);

    brush_clear(&b);   /* three cells 30,000 apart: the qsort path */
    brush_add_cell(&b, 0, 0, 15000, 1, 0);
    brush_add_cell(&b, -15000, 3, 0, 2, 0);
    brush_add_cell(&b, 15000, -3, 0, 3, 0);
    brush_add_cell(&b, 15000, -4, 0, 4, 0);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(cb.count, 4);
    CHECK(cells_in_order(&cb));
    cell = cb.cells;
    CHECK(cell[0].value == 2 && cell[1].value == 4 && cell[2].value == 3 && cell[3].value == 1);
    brush_compiled_free(&cb);
    brush_free(&b);
}

static void test_paint_clipping(void)
{
    /* a 6x6x6 box centred on a chunk corner paints only the part inside each chunk */
    TerrainBrush b;
    brush_init(&b);
    brush_add_box(&b, -3, -3, -3, 6, 6, 6, cell_make(BLOCK_STONE, 0));
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    int total = 0;
    for (int cz = -1; cz <= 1; cz++)
        for (int cx = -1; cx <= 1; cx++) {
            TerrainChunk *c = new_chunk(cx, cz);
            bool touches = brush_touches_chunk(&cb, 16, 16, cx, cz);
            static uint8_t air_only[BLOCK_MAX] = {[BLOCK_AIR] = 1};
            brush_paint_into(&cb, c, 16, 100, 16, air_only);   /* origin at world (16, 100, 16) */
            int n = count_contents(c, BLOCK_STONE);
            total += n;
            if (cx == 0 && cz == 0) {
                CHECK_EQ_INT(n, 3 * 6 * 3);           /* world x 13..15, z 13..15 */
                CHECK(touches);
                CHECK_EQ_INT(chunk_get_contents(c, 15, 97, 15), BLOCK_STONE);
                CHECK_EQ_INT(chunk_get_contents(c, 15, 103, 15), BLOCK_AIR);
                CHECK_EQ_INT(chunk_get_contents(c, 12, 100, 15), BLOCK_AIR);
            } else if (cx == -1 || cz == -1) {
                CHECK_EQ_INT(n, 0);
                CHECK(!touches);
            } else {
                CHECK_EQ_INT(n, 3 * 6 * 3);
                CHECK(touches);
            }
            chunk_destroy(c);
        }
    CHECK_EQ_INT(total, 6 * 6 * 6);

    /* y clipping: a brush hanging below y 0 and above 255 paints only 0..255 */
    TerrainChunk *c = new_chunk(0, 0);
    brush_clear(&b);
    brush_add_box(&b, 0, -2, 0, 1, 4, 1, cell_make(BLOCK_DIRT, 0));   /* y -2..1 from the origin */
    brush_compiled_free(&cb);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    static uint8_t air_only[BLOCK_MAX] = {[BLOCK_AIR] = 1};
    brush_paint_into(&cb, c, 4, 0, 4, air_only);     /* y -2, -1 clipped */
    brush_paint_into(&cb, c, 6, 256, 6, air_only);   /* y 254, 255 painted, 256, 257 clipped */
    CHECK_EQ_INT(count_contents(c, BLOCK_DIRT), 4);
    CHECK_EQ_INT(chunk_get_contents(c, 4, 1, 4), BLOCK_DIRT);
    CHECK_EQ_INT(chunk_get_contents(c, 6, 255, 6), BLOCK_DIRT);
    chunk_destroy(c);
    brush_compiled_free(&cb);
    brush_free(&b);
}

static void test_paint_rules(void)
{
    TerrainChunk *c = new_chunk(2, -3);
    for (int y = 0; y < 10; y++)
        chunk_set_cell(c, 5, y, 5, cell_make(y < 5 ? BLOCK_GRANITE : BLOCK_BASALT, 0));
    TerrainBrush b;
    brush_init(&b);
    brush_add_box(&b, 0, 0, 0, 1, 12, 1, cell_make(BLOCK_COAL_ORE, 0));
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    int wx = 2 * 16 + 5, wz = -3 * 16 + 5;
    /* selective: only over granite */
    brush_paint_selective(&cb, c, wx, 0, wz, BLOCK_GRANITE);
    CHECK_EQ_INT(count_contents(c, BLOCK_COAL_ORE), 5);
    CHECK_EQ_INT(chunk_get_contents(c, 5, 5, 5), BLOCK_BASALT);
    CHECK_EQ_INT(chunk_get_contents(c, 5, 11, 5), BLOCK_AIR);
    brush_compiled_free(&cb);

    /* into: only where replaceable, except forced cells */
    brush_clear(&b);
    brush_add_box(&b, 0, 0, 0, 1, 12, 1, cell_make(BLOCK_OAK_TRUNK, 0));
    brush_add_cell(&b, 0, 6, 0, cell_make(BLOCK_OAK_TRUNK, 0), BRUSH_CELL_FORCE);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    static uint8_t air_only[BLOCK_MAX] = {[BLOCK_AIR] = 1};
    brush_paint_into(&cb, c, wx, 0, wz, air_only);
    CHECK_EQ_INT(count_contents(c, BLOCK_OAK_TRUNK), 3);     /* y 10, 11 (air) and 6 (forced) */
    CHECK_EQ_INT(chunk_get_contents(c, 5, 6, 5), BLOCK_OAK_TRUNK);
    CHECK_EQ_INT(chunk_get_contents(c, 5, 7, 5), BLOCK_BASALT);
    CHECK_EQ_INT(chunk_get_contents(c, 5, 10, 5), BLOCK_OAK_TRUNK);
    brush_compiled_free(&cb);
    brush_free(&b);
    chunk_destroy(c);
}

/* ---- handlers, counters, world paint ---- */

/* value handler: stone becomes granite, anything else is left */
static bool stone_to_granite(void *user, int32_t current, int32_t *out)
{
    (*(int *)user)++;
    if (cell_contents(current) != BLOCK_STONE) return false;
    *out = cell_make(BLOCK_GRANITE, 0);
    return true;
}

/* position handler: dirt where x + z is even, leave elsewhere */
static bool checker(void *user, int x, int y, int z, int32_t *out)
{
    (void)user;
    (void)y;
    if ((x + z) & 1) return false;
    *out = cell_make(BLOCK_DIRT, 0);
    return true;
}

static void test_handlers_on_chunk(void)
{
    TerrainChunk *c = new_chunk(1, 0);
    for (int x = 0; x < 16; x++)
        chunk_set_cell(c, x, 10, 0, cell_make(x < 8 ? BLOCK_STONE : BLOCK_SAND, 0));
    TerrainBrush b;
    brush_init(&b);
    int calls = 0;
    int hv = brush_add_value_handler(&b, stone_to_granite, &calls);
    int hp = brush_add_position_handler(&b, checker, NULL);
    CHECK_EQ_INT(hv, 0);
    CHECK_EQ_INT(hp, 1);
    brush_add_box_handler(&b, 0, 0, 0, 16, 1, 1, hv);     /* row y 10 */
    brush_add_box_handler(&b, 0, 1, 0, 16, 1, 1, hp);     /* row y 11 */
    brush_add_cell(&b, 0, 2, 0, cell_make(BLOCK_CLAY, 0), 0);
    const BrushCell *f = brush_find(&b, 3, 1, 0);
    CHECK(f && (f->flags & BRUSH_CELL_HANDLER) && f->value == hp);
    brush_replace_value(&b, hp, 99);                      /* handler cells are not values */
    f = brush_find(&b, 3, 1, 0);
    CHECK(f && f->value == hp);
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(cb.handler_count, 2);
    brush_paint_fast(&cb, c, 16, 10, 0);
    CHECK_EQ_INT(calls, 16);
    CHECK_EQ_INT(count_contents(c, BLOCK_GRANITE), 8);
    CHECK_EQ_INT(count_contents(c, BLOCK_SAND), 8);
    CHECK_EQ_INT(count_contents(c, BLOCK_DIRT), 8);         /* world x 16..31: even ones */
    CHECK_EQ_INT(chunk_get_contents(c, 0, 11, 0), BLOCK_DIRT);
    CHECK_EQ_INT(chunk_get_contents(c, 1, 11, 0), BLOCK_AIR);
    CHECK_EQ_INT(count_contents(c, BLOCK_CLAY), 1);
    brush_compiled_free(&cb);
    CHECK(cb.handlers == NULL);

    /* a bad handler id fails the compile; clear forgets the handlers */
    brush_clear(&b);
    CHECK_EQ_INT(b.handler_count, 0);
    brush_add_cell_handler(&b, 0, 0, 0, 5);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_ERR_NOMEM);
    brush_free(&b);
    chunk_destroy(c);
}

static void test_ray_box(void)
{
    TerrainBrush b;
    brush_init(&b);
    brush_add_ray_box(&b, 0, 0, 0, 4, 0, 0, 1, 3, 3, 1);
    CHECK_EQ_INT(b.count, 5 * 9);
    CHECK(brush_find(&b, 4, 1, -1) != NULL);
    CHECK(brush_find(&b, 5, 0, 0) == NULL);
    brush_free(&b);
}

static void test_paint_fast_and_avoid_water(void)
{
    TerrainChunk *c = new_chunk(0, 0);
    chunk_set_cell(c, 5, 20, 5, cell_make(BLOCK_WATER, 0));
    chunk_set_cell(c, 9, 20, 5, cell_make(BLOCK_SAND, 0));
    TerrainBrush b;
    brush_init(&b);
    brush_add_box(&b, 0, 0, 0, 12, 1, 1, cell_make(BLOCK_STONE, 0));   /* x 0..11 at y 20, z 5 */
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    /* avoid water: not into the water cell (x 5) nor next to it (x 4, 6) */
    TerrainChunk *a = new_chunk(0, 0);
    chunk_set_cell(a, 5, 20, 5, cell_make(BLOCK_WATER, 0));
    chunk_set_cell(a, 9, 21, 5, cell_make(BLOCK_WATER, 0));           /* above x 9 */
    brush_paint_avoid_water(&cb, a, 0, 20, 5);
    CHECK_EQ_INT(count_contents(a, BLOCK_STONE), 12 - 3 - 1);
    CHECK_EQ_INT(chunk_get_contents(a, 4, 20, 5), BLOCK_AIR);
    CHECK_EQ_INT(chunk_get_contents(a, 5, 20, 5), BLOCK_WATER);
    CHECK_EQ_INT(chunk_get_contents(a, 6, 20, 5), BLOCK_AIR);
    CHECK_EQ_INT(chunk_get_contents(a, 9, 20, 5), BLOCK_AIR);
    CHECK_EQ_INT(chunk_get_contents(a, 7, 20, 5), BLOCK_STONE);
    chunk_destroy(a);
    /* fast: replaces everything, water included */
    brush_paint_fast(&cb, c, 0, 20, 5);
    CHECK_EQ_INT(count_contents(c, BLOCK_STONE), 12);
    CHECK_EQ_INT(count_contents(c, BLOCK_WATER), 0);
    /* selective with a fixed brush: only where sand was (none left), then only over stone */
    brush_compiled_free(&cb);
    brush_clear(&b);
    brush_add_box(&b, 0, 0, 0, 16, 1, 1, cell_make(BLOCK_IRON_ORE, 0));
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    brush_paint_selective(&cb, c, 0, 20, 5, BLOCK_SAND);
    CHECK_EQ_INT(count_contents(c, BLOCK_IRON_ORE), 0);
    brush_paint_selective(&cb, c, 0, 20, 5, BLOCK_STONE);
    CHECK_EQ_INT(count_contents(c, BLOCK_IRON_ORE), 12);
    brush_compiled_free(&cb);
    brush_free(&b);
    chunk_destroy(c);
}

/* A fake world: a 32x32x32 block of cells at the origin, counting writes. */
typedef struct FakeWorld {
    int32_t grid[32][32][32];
    int writes;
} FakeWorld;

static int32_t fake_get(void *user, int x, int y, int z)
{
    FakeWorld *w = user;
    if ((unsigned)x > 31u || (unsigned)y > 31u || (unsigned)z > 31u) return -1;
    return w->grid[x][y][z];
}

static bool fake_set(void *user, int x, int y, int z, int32_t v)
{
    FakeWorld *w = user;
    if ((unsigned)x > 31u || (unsigned)y > 31u || (unsigned)z > 31u) return false;
    w->writes++;
    if (w->grid[x][y][z] == v) return false;
    w->grid[x][y][z] = v;
    return true;
}

static bool is_air(void *user, int32_t v) { (void)user; return cell_contents(v) == BLOCK_AIR; }
static bool is_stone(void *user, int32_t v) { (void)user; return cell_contents(v) == BLOCK_STONE; }
static bool low_half(void *user, int x, int y, int z) { (void)user; (void)x; (void)z; return y < 16; }

static void test_world_counters_and_paint(void)
{
    FakeWorld *fw = calloc(1, sizeof *fw);
    for (int x = 0; x < 32; x++)
        for (int z = 0; z < 32; z++)
            for (int y = 0; y < 16; y++)
                fw->grid[x][y][z] = cell_make(BLOCK_STONE, 0) | (y == 15 ? 0xF << CELL_LIGHT_SHIFT : 0);
    BrushWorld w = {.user = fw, .get_cell = fake_get, .set_cell = fake_set};
    TerrainBrush b;
    brush_init(&b);
    brush_add_box(&b, -2, -2, -2, 4, 4, 4, cell_make(BLOCK_SAND, 0));    /* y 14..17 around origin y 16 */
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    /* counters: 2 of the 4 layers are stone (light ignored), by value, by handler, by position */
    CHECK_EQ_INT(brush_count_value(&cb, &w, 10, 16, 10, cell_make(BLOCK_STONE, 0)), 32);
    CHECK_EQ_INT(brush_count_match(&cb, &w, 10, 16, 10, is_air, NULL), 32);
    CHECK_EQ_INT(brush_count_position(&cb, &w, 10, 16, 10, low_half, NULL), 32);
    /* cells outside the world never count */
    CHECK_EQ_INT(brush_count_match(&cb, &w, 0, 16, 0, is_air, NULL), 2 * 2 * 2);
    /* paint only into air, then only over stone with a value handler */
    CHECK_EQ_INT(brush_paint_where(&cb, &w, 10, 16, 10, is_air, NULL), 32);
    CHECK_EQ_INT(brush_count_value(&cb, &w, 10, 16, 10, cell_make(BLOCK_SAND, 0)), 32);
    CHECK_EQ_INT(fw->grid[10][14][10], cell_make(BLOCK_STONE, 0));
    CHECK_EQ_INT(fw->grid[10][16][10], cell_make(BLOCK_SAND, 0));
    /* plain paint: every cell written, the sand ones do not change */
    fw->writes = 0;
    CHECK_EQ_INT(brush_paint(&cb, &w, 10, 16, 10), 32);
    CHECK_EQ_INT(fw->writes, 64);
    /* a value handler through the world: only stone becomes granite */
    brush_clear(&b);
    int calls = 0;
    brush_add_box_handler(&b, 0, 0, 0, 1, 32, 1, brush_add_value_handler(&b, stone_to_granite, &calls));
    brush_compiled_free(&cb);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(brush_paint(&cb, &w, 0, 0, 0), 16);
    CHECK_EQ_INT(calls, 32);
    CHECK_EQ_INT(cell_contents(fw->grid[0][3][0]), BLOCK_GRANITE);
    CHECK_EQ_INT(brush_count_match(&cb, &w, 0, 0, 0, is_stone, NULL), 0);
    /* a position handler through the world, selective on stone */
    brush_clear(&b);
    brush_add_box_handler(&b, 0, 0, 0, 4, 1, 1, brush_add_position_handler(&b, checker, NULL));
    brush_compiled_free(&cb);
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    CHECK_EQ_INT(brush_paint_where(&cb, &w, 4, 5, 7, is_stone, NULL), 2);  /* x 4..7, z 7: x 5, 7 */
    CHECK_EQ_INT(cell_contents(fw->grid[5][5][7]), BLOCK_DIRT);
    CHECK_EQ_INT(cell_contents(fw->grid[4][5][7]), BLOCK_STONE);
    brush_compiled_free(&cb);
    brush_free(&b);
    free(fw);
}

static void test_world_of_chunk(void)
{
    TerrainChunk *c = new_chunk(-1, 2);
    BrushWorld w = brush_world_of_chunk(c);
    TerrainBrush b;
    brush_init(&b);
    brush_add_box(&b, 0, 0, 0, 8, 1, 1, cell_make(BLOCK_STONE, 0));
    CompiledBrush cb;
    CHECK_EQ_INT(brush_compile(&b, &cb), ST_OK);
    /* origin at world x -4: x -4..-1 inside chunk -1, 0..3 outside */
    CHECK_EQ_INT(brush_paint(&cb, &w, -4, 30, 33), 4);
    CHECK_EQ_INT(count_contents(c, BLOCK_STONE), 4);
    CHECK_EQ_INT(brush_count_value(&cb, &w, -4, 30, 33, cell_make(BLOCK_STONE, 0)), 4);
    CHECK_EQ_INT(brush_count_match(&cb, &w, -4, 30, 33, is_air, NULL), 0);
    brush_compiled_free(&cb);
    brush_free(&b);
    chunk_destroy(c);
}

int main(void)
{
    RUN(test_add_and_replace);
    RUN(test_ray_and_bounds);
    RUN(test_compile);
    RUN(test_compile_sorts);
    RUN(test_paint_clipping);
    RUN(test_paint_rules);
    RUN(test_handlers_on_chunk);
    RUN(test_ray_box);
    RUN(test_paint_fast_and_avoid_water);
    RUN(test_world_counters_and_paint);
    RUN(test_world_of_chunk);
    return check_report();
}
