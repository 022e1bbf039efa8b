/* test_editor.c — the Editor above ChangeCell: the circular history (batches, redo branch, memory bound),
 * undo/redo round trips checked cell by cell (also with the chunks unloaded and saved in between, undone
 * while far away, and the world reloaded from storage), the behaviours (falling sand settles, water spreads
 * to 7 and recedes when cut off, plants break without support, same ticks give the same world) and the
 * height tools (flatten reaches the target in the core, smooth never steepens, paint's probability and
 * seed). Runs the real update worker (not threaded) on the fake generator and an in-memory storage. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "update_fixture.h"
#include "strata/behaviour.h"
#include "strata/history.h"
#include "strata/rng.h"
#include "strata/shapes.h"
#include "strata/terrain_tools.h"

/* The box of cells the tests compare: x, z in -40..55, y 30..110. */
#define BOX_X0 (-40)
#define BOX_X1 56
#define BOX_Y0 30
#define BOX_Y1 110
#define BOX_CELLS ((BOX_X1 - BOX_X0) * (BOX_X1 - BOX_X0) * (BOX_Y1 - BOX_Y0))

static Editor *ed;

static void world_open(size_t history_bytes)
{
    fixture_init(false, true);
    set_loc(0, 0, 0, 4, 6);
    run_until_idle();
    EditorConfig ec = { .terrain = fx.terrain, .updater = fx.u, .blocks = fx.blocks, .history_bytes = history_bytes };
    CHECK_EQ_INT(editor_create(&ec, &ed), ST_OK);
}

static void world_close(void)
{
    editor_destroy(ed);
    ed = NULL;
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    fixture_free();
}

static int32_t *snapshot(void)
{
    int32_t *s = malloc(sizeof(int32_t) * BOX_CELLS);
    int i = 0;
    for (int z = BOX_X0; z < BOX_X1; z++)
        for (int x = BOX_X0; x < BOX_X1; x++)
            for (int y = BOX_Y0; y < BOX_Y1; y++) s[i++] = editor_get_cell(ed, x, y, z);
    return s;
}

static int count_differences(const int32_t *a, const int32_t *b)
{
    int n = 0;
    for (int i = 0; i < BOX_CELLS; i++) n += a[i] != b[i];
    return n;
}

static void test_history_unit(void)
{
    EditHistory *h = NULL;
    CHECK_EQ_INT(history_create(100, &h), ST_ERR_ARG);
    CHECK_EQ_INT(history_create(1 << 20, &h), ST_OK);
    history_begin(h);
    history_begin(h); /* nested: still one entry */
    history_record(h, 1, 2, 3, 10, 11);
    history_end(h);
    history_record(h, 1, 2, 4, 20, 21);
    history_end(h);
    history_begin(h);
    history_end(h); /* empty action: no entry */
    history_record(h, 5, 5, 5, 30, 31); /* outside a batch: an entry of its own */
    CHECK_EQ_INT(history_undo_count(h), 2);
    int n = 0;
    const HistoryCell *c = history_undo(h, &n);
    CHECK(c != NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(c[0].old_value, 30);
    c = history_undo(h, &n);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(c[1].new_value, 21);
    CHECK(history_undo(h, &n) == NULL);
    CHECK(!history_record_follow_up(h, 0, 0, 0, 1, 2)); /* nothing done to follow */
    c = history_redo(h, &n);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(history_redo_count(h), 1);
    history_record(h, 9, 9, 9, 1, 2); /* a new action drops the redo branch */
    CHECK_EQ_INT(history_redo_count(h), 0);
    CHECK_EQ_INT(history_undo_count(h), 2);
    CHECK(history_record_follow_up(h, 9, 8, 9, 3, 4));
    c = history_undo(h, &n);
    CHECK_EQ_INT(n, 2);
    history_destroy(h);

    /* The bound drops the oldest entries; an action bigger than the bound is lost. */
    CHECK_EQ_INT(history_create(64 * 1024, &h), ST_OK);
    for (int a = 0; a < 100; a++) {
        history_begin(h);
        for (int i = 0; i < 100; i++) history_record(h, a, i, 0, 0, 1);
        history_end(h);
        CHECK(history_bytes_used(h) <= 64 * 1024);
    }
    CHECK(history_dropped_entries(h) > 0);
    CHECK(history_undo_count(h) > 5);
    CHECK_EQ_INT(history_undo_count(h) + history_dropped_entries(h), 100);
    c = history_undo(h, &n);
    CHECK_EQ_INT(n, 100);
    CHECK_EQ_INT(c[0].x, 99);
    history_begin(h);
    for (int i = 0; i < 10000; i++) history_record(h, 0, i, 0, 0, 1);
    history_end(h);
    CHECK_EQ_INT(history_undo_count(h), 0);
    CHECK(history_bytes_used(h) <= 64 * 1024);
    history_destroy(h);
}

/* Three tool strokes and a few hand edits: one history entry each. */
static void do_edits(void)
{
    int changed = 0;
    CHECK_EQ_INT(terrain_tool_modify_height(ed, 8, 8, 12, 9, TOOL_FALLOFF_SMOOTH, &changed), ST_OK);
    CHECK(changed > 300);
    CHECK_EQ_INT(terrain_tool_flatten(ed, 20, -4, 10, 55, 1.0f, &changed), ST_OK);
    CHECK(changed > 100);
    CHECK_EQ_INT(terrain_tool_paint_layer(ed, -10, 10, 8, BLOCK_SAND, 0.7f, TOOL_FALLOFF_LINEAR, 42, &changed), ST_OK);
    CHECK(changed > 10);
    editor_begin_action(ed);
    CHECK(editor_destroy_cell(ed, 0, 30, 60, 30, cell_make(BLOCK_AIR, 0), false, false));
    CHECK(editor_change_cell(ed, 31, 61, 30, cell_make(BLOCK_BRICKS, 0)));
    editor_end_action(ed);
}

/* Walks the location to chunk (cx, 0) and lets the worker settle (releasing and saving what it leaves). */
static void walk_to(int cx)
{
    set_loc(0, cx, 0, 4, 6);
    run_until_idle();
    editor_frame(ed);
    run_until_idle();
}

static void test_undo_round_trip(void)
{
    world_open(0);
    int32_t *before = snapshot();
    do_edits();
    int32_t *after = snapshot();
    CHECK(count_differences(before, after) > 500);
    EditorStats st;
    editor_get_stats(ed, &st);
    CHECK_EQ_INT(st.undo_entries, 4);

    /* Undo and redo in place. */
    for (int i = 0; i < 4; i++) CHECK(editor_undo(ed));
    CHECK(!editor_undo(ed));
    int32_t *s = snapshot();
    CHECK_EQ_INT(count_differences(before, s), 0);
    free(s);
    for (int i = 0; i < 4; i++) CHECK(editor_redo(ed));
    CHECK(!editor_redo(ed));
    s = snapshot();
    CHECK_EQ_INT(count_differences(after, s), 0);
    free(s);

    /* Walk 1,000+ blocks away (the edited chunks are saved and released), undo everything while far away,
     * walk back: the pending writes land as the chunks come back from storage. */
    long saves_before = fx.storage.total_saves;
    walk_to(70);
    CHECK(fx.storage.total_saves > saves_before);
    CHECK(terrain_get_chunk(fx.terrain, 0, 0) == NULL);
    for (int i = 0; i < 4; i++) CHECK(editor_undo(ed));
    editor_get_stats(ed, &st);
    CHECK(st.pending_writes > 500);
    walk_to(0);
    editor_get_stats(ed, &st);
    CHECK_EQ_INT(st.pending_writes, 0);
    s = snapshot();
    CHECK_EQ_INT(count_differences(before, s), 0);
    free(s);

    /* Redo while far, back again. */
    walk_to(-70);
    for (int i = 0; i < 4; i++) CHECK(editor_redo(ed));
    walk_to(0);
    s = snapshot();
    CHECK_EQ_INT(count_differences(after, s), 0);
    free(s);

    /* Save and relaunch: the history is gone, the world is the edited one, cell by cell. */
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    FakeStorage kept = fx.storage;
    memset(&fx.storage, 0, sizeof fx.storage);
    editor_destroy(ed);
    updater_destroy(fx.u);
    terrain_destroy(fx.terrain);
    block_registry_destroy(fx.blocks);
    fixture_init(false, true);
    fx.storage = kept;
    set_loc(0, 0, 0, 4, 6);
    run_until_idle();
    EditorConfig ec = { .terrain = fx.terrain, .updater = fx.u, .blocks = fx.blocks };
    CHECK_EQ_INT(editor_create(&ec, &ed), ST_OK);
    CHECK(!editor_undo(ed));
    s = snapshot();
    CHECK_EQ_INT(count_differences(after, s), 0);
    free(s);
    free(before);
    free(after);
    world_close();
}

static void test_history_bound_in_editor(void)
{
    world_open(64 * 1024);
    for (int i = 0; i < 40; i++) {
        editor_begin_action(ed);
        for (int k = 0; k < 100; k++) editor_change_cell(ed, k % 16, 70 + i, k / 16, cell_make(BLOCK_PLANKS, 0));
        editor_end_action(ed);
    }
    EditorStats st;
    editor_get_stats(ed, &st);
    CHECK(st.history_dropped > 0);
    CHECK(st.history_bytes <= 64 * 1024);
    CHECK_EQ_INT(st.undo_entries + (int)st.history_dropped, 40);
    world_close();
}

static void test_falling_sand(void)
{
    world_open(0);
    editor_begin_action(ed);
    for (int y = 70; y < 75; y++) editor_change_cell(ed, 2, y, 2, cell_make(BLOCK_SAND, 0));
    editor_change_cell(ed, 6, 61, 6, cell_make(BLOCK_GRAVEL, 0)); /* supported: stays */
    editor_end_action(ed);
    editor_tick(ed, 40);
    for (int y = 61; y < 66; y++) CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 2, y, 2)), BLOCK_SAND);
    for (int y = 66; y < 80; y++) CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 2, y, 2)), BLOCK_AIR);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 6, 61, 6)), BLOCK_GRAVEL);
    /* Dig under the gravel: it falls into the hole. */
    editor_begin_action(ed);
    editor_destroy_cell(ed, 0, 6, 60, 6, cell_make(BLOCK_AIR, 0), true, true);
    editor_end_action(ed);
    editor_tick(ed, 5);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 6, 60, 6)), BLOCK_GRAVEL);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 6, 61, 6)), BLOCK_AIR);
    /* One undo takes back the dig and the fall. */
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 6, 61, 6)), BLOCK_GRAVEL);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 6, 60, 6)), BLOCK_GRASS);
    /* A plant loses its support: the tall grass at (5, 61, 5) breaks when the grass below goes. */
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 5, 61, 5)), BLOCK_TALL_GRASS);
    editor_destroy_cell(ed, 0, 5, 60, 5, cell_make(BLOCK_AIR, 0), true, true);
    editor_tick(ed, 2);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 5, 61, 5)), BLOCK_AIR);
    /* Leaves stay without support. */
    editor_change_cell(ed, 10, 80, 10, cell_make(BLOCK_OAK_LEAVES, 0));
    editor_tick(ed, 10);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 10, 80, 10)), BLOCK_OAK_LEAVES);
    world_close();
}

/* An update an action scheduled dies with the action's undo: generated terrain can hold a block that needs
 * support with air below (a snow layer whose leaves a settlement cleared); an edit next to it schedules its
 * support check, and if that ran after the undo it would break the block with nothing recorded. */
/* One action that sets one cell. */
static void act_place(int x, int y, int z, int block)
{
    editor_begin_action(ed);
    editor_change_cell(ed, x, y, z, cell_make(block, 0));
    editor_end_action(ed);
}

static void test_undo_cancels_scheduled_updates(void)
{
    world_open(0);
    /* the floating plant, written past the Editor as the generator would leave it */
    TerrainChunk *c = terrain_get_chunk_at_cell(fx.terrain, 12, 12);
    CHECK(c != NULL);
    if (!c) {
        world_close();
        return;
    }
    for (int y = 70; y < 80; y++) CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 12, y, 12)), BLOCK_AIR);
    chunk_set_cell(c, 12, 75, 12, cell_make(BLOCK_TALL_GRASS, 0));
    /* placed beside it and undone before a tick: the plant stays, the stone goes */
    act_place(13, 75, 12, BLOCK_STONE);
    CHECK(editor_undo(ed));
    editor_tick(ed, 5);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 12, 75, 12)), BLOCK_TALL_GRASS);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 13, 75, 12)), BLOCK_AIR);
    EditorStats st;
    editor_get_stats(ed, &st);
    CHECK_EQ_INT(st.scheduled, 0);
    /* ticked before the undo: the check breaks the plant as a follow-up, and the undo brings it back */
    act_place(13, 75, 12, BLOCK_STONE);
    editor_tick(ed, 2);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 12, 75, 12)), BLOCK_AIR);
    CHECK(editor_undo(ed));
    editor_tick(ed, 5);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 12, 75, 12)), BLOCK_TALL_GRASS);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 13, 75, 12)), BLOCK_AIR);
    /* an older action's updates outlive a newer action's undo: sand placed in the air falls even when the
     * next action (a stone far away) is undone before the sand's first tick */
    act_place(20, 75, 20, BLOCK_SAND);
    act_place(30, 75, 30, BLOCK_STONE);
    CHECK(editor_undo(ed));
    editor_tick(ed, 40);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 20, 75, 20)), BLOCK_AIR);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 30, 75, 30)), BLOCK_AIR);
    int sand = 0;
    for (int y = 50; y < 75; y++) sand += cell_contents(editor_get_cell(ed, 20, y, 20)) == BLOCK_SAND;
    CHECK_EQ_INT(sand, 1);
    world_close();
}

/* Hashes the compared box. */
static uint64_t box_hash(void)
{
    uint64_t h = 1469598103934665603ull;
    for (int z = BOX_X0; z < BOX_X1; z++)
        for (int x = BOX_X0; x < BOX_X1; x++)
            for (int y = 55; y < 80; y++) h = (h ^ (uint32_t)editor_get_cell(ed, x, y, z)) * 1099511628211ull;
    return h;
}

static uint64_t water_scenario(bool check)
{
    world_open(0);
    /* A source on flat grass at (24, 61, 24) (no torch or plant within 8 of it). */
    editor_change_cell(ed, 24, 61, 24, cell_make(BLOCK_WATER, 0));
    editor_tick(ed, 7 * 5 + 10);
    int wrong = 0;
    for (int dz = -9; dz <= 9; dz++)
        for (int dx = -9; dx <= 9; dx++) {
            int32_t v = editor_get_cell(ed, 24 + dx, 61, 24 + dz);
            int d = abs(dx) + abs(dz);
            bool water = cell_contents(v) == BLOCK_WATER;
            if (d <= FLUID_MAX_LEVEL ? !(water && fluid_level(v) == d) : water) wrong++;
        }
    if (check) CHECK_EQ_INT(wrong, 0);
    /* Water pours down a hole and spreads at the bottom. */
    editor_destroy_cell(ed, 0, 26, 60, 24, cell_make(BLOCK_AIR, 0), true, true);
    editor_destroy_cell(ed, 0, 26, 59, 24, cell_make(BLOCK_AIR, 0), true, true);
    editor_tick(ed, 40);
    if (check) CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 26, 59, 24)), BLOCK_WATER);
    uint64_t spread = box_hash();
    /* Cut off the source: everything recedes. */
    editor_change_cell(ed, 24, 61, 24, cell_make(BLOCK_STONE, 0));
    editor_tick(ed, 8 * 5 * 3);
    int left = 0;
    for (int dz = -10; dz <= 10; dz++)
        for (int dx = -10; dx <= 10; dx++)
            for (int y = 58; y <= 62; y++) left += cell_contents(editor_get_cell(ed, 24 + dx, y, 24 + dz)) == BLOCK_WATER;
    if (check) CHECK_EQ_INT(left, 0);
    /* Two sources one apart refill the cell between them. */
    editor_change_cell(ed, 0, 61, 24, cell_make(BLOCK_WATER, 0));
    editor_change_cell(ed, 2, 61, 24, cell_make(BLOCK_WATER, 0));
    editor_tick(ed, 20);
    if (check) CHECK_EQ_INT(editor_get_cell(ed, 1, 61, 24), cell_make(BLOCK_WATER, 0));
    uint64_t h = spread ^ (box_hash() * 31);
    world_close();
    return h;
}

static void test_water_and_determinism(void)
{
    uint64_t a = water_scenario(true);
    uint64_t b = water_scenario(false);
    CHECK(a == b);
}

static int max_slope(int x0, int z0, int x1, int z1)
{
    int best = 0;
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++) {
            int h = terrain_tool_surface_height(ed, x, z);
            int hx = terrain_tool_surface_height(ed, x + 1, z), hz = terrain_tool_surface_height(ed, x, z + 1);
            if (abs(h - hx) > best) best = abs(h - hx);
            if (abs(h - hz) > best) best = abs(h - hz);
        }
    return best;
}

static void test_tools(void)
{
    world_open(0);
    /* Rough ground: random bumps. */
    Rng rng;
    rng_init(&rng, 7);
    for (int i = 0; i < 30; i++)
        CHECK_EQ_INT(terrain_tool_modify_height(ed, rng_int_range(&rng, -20, 20), rng_int_range(&rng, -20, 20),
                                                rng_int_range(&rng, 2, 6), rng_int_range(&rng, -8, 12),
                                                (ToolFalloff)(i % 3), NULL), ST_OK);
    /* Raised columns keep grass on top, dirt below. */
    CHECK_EQ_INT(terrain_tool_modify_height(ed, 40, 40, 3, 6, TOOL_FALLOFF_NONE, NULL), ST_OK);
    CHECK_EQ_INT(terrain_tool_surface_height(ed, 40, 40), 66);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 40, 66, 40)), BLOCK_GRASS);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 40, 65, 40)), BLOCK_DIRT);
    CHECK_EQ_INT(cell_contents(editor_get_cell(ed, 40, 62, 40)), BLOCK_STONE);

    int before = max_slope(-30, -30, 30, 30);
    CHECK(before >= 3);
    CHECK_EQ_INT(terrain_tool_smooth(ed, 0, 0, 20, 1.0f, 4, NULL), ST_OK);
    int after = max_slope(-30, -30, 30, 30);
    CHECK(after <= before);
    for (int i = 0; i < 5; i++) {
        int b2 = max_slope(-30, -30, 30, 30);
        CHECK_EQ_INT(terrain_tool_smooth(ed, rng_int_range(&rng, -10, 10), rng_int_range(&rng, -10, 10),
                                         rng_int_range(&rng, 3, 12), 0.7f, 2, NULL), ST_OK);
        CHECK(max_slope(-30, -30, 30, 30) <= b2);
    }

    /* Flatten: every core column at the target (cut and fill). */
    CHECK_EQ_INT(terrain_tool_flatten(ed, 0, 0, 16, 63, 1.0f, NULL), ST_OK);
    int off = 0;
    for (int dz = -8; dz <= 8; dz++)
        for (int dx = -8; dx <= 8; dx++)
            if (dx * dx + dz * dz <= 64 && terrain_tool_surface_height(ed, dx, dz) != 63) off++;
    CHECK_EQ_INT(off, 0);

    /* Paint: opacity 1 paints the whole disc, 0 nothing, 0.5 about half, the same seed the same cells. */
    int changed = 0;
    CHECK_EQ_INT(terrain_tool_paint_layer(ed, 0, 0, 6, BLOCK_SAND, 1.0f, TOOL_FALLOFF_NONE, 1, &changed), ST_OK);
    int disc = 0;
    for (int dz = -6; dz <= 6; dz++)
        for (int dx = -6; dx <= 6; dx++) disc += dx * dx + dz * dz <= 36;
    CHECK_EQ_INT(changed, disc);
    CHECK_EQ_INT(terrain_tool_paint_layer(ed, 0, 0, 6, BLOCK_GRAVEL, 0.0f, TOOL_FALLOFF_NONE, 1, &changed), ST_OK);
    CHECK_EQ_INT(changed, 0);
    CHECK_EQ_INT(terrain_tool_paint_layer(ed, 0, 0, 6, BLOCK_GRAVEL, 0.5f, TOOL_FALLOFF_NONE, 9, &changed), ST_OK);
    CHECK(changed > disc / 4 && changed < disc * 3 / 4);
    int first = changed;
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(terrain_tool_paint_layer(ed, 0, 0, 6, BLOCK_GRAVEL, 0.5f, TOOL_FALLOFF_NONE, 9, &changed), ST_OK);
    CHECK_EQ_INT(changed, first);

    /* Limits are explained. */
    CHECK_EQ_INT(terrain_tool_modify_height(ed, 0, 0, 65, 1, TOOL_FALLOFF_NONE, NULL), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "1..64");
    CHECK_EQ_INT(terrain_tool_flatten(ed, 0, 0, 4, 300, 1.0f, NULL), ST_ERR_ARG);
    CHECK_EQ_INT(terrain_tool_falloff_parse("smooth"), TOOL_FALLOFF_SMOOTH);
    CHECK_EQ_INT(terrain_tool_falloff_parse("cubic"), -1);
    world_close();
}

/* Independent inside tests (yaw 0; axis as given) for the brute-force comparison. */
static bool reference_inside(ShapeKind k, const float *S, int axis, int x, int y, int z)
{
    int h = axis == 0 ? x : axis == 2 ? z : y;
    int u = axis == 0 ? y : x, v = axis == 2 ? y : z;
    switch (k) {
    case SHAPE_SPHERE: return x * x + y * y + z * z <= S[0] * S[0];
    case SHAPE_BOX: return 2 * x >= -S[0] && 2 * x < S[0] && 2 * y >= -S[1] && 2 * y < S[1] && 2 * z >= -S[2] && 2 * z < S[2];
    case SHAPE_CYLINDER: return h >= 0 && h < S[1] && u * u + v * v <= S[0] * S[0];
    case SHAPE_CONE: {
        double r = S[0] * (1.0 - h / (double)S[1]);
        return h >= 0 && h < S[1] && u * u + v * v <= r * r + 1e-4;
    }
    case SHAPE_TORUS: {
        double ring = sqrt((double)(u * u + v * v)) - S[0];
        return ring * ring + h * h <= S[1] * S[1] + 1e-4;
    }
    case SHAPE_PLANE: return y >= 0 && y < S[0] && 2 * x >= -S[1] && 2 * x < S[1] && 2 * z >= -S[1] && 2 * z < S[1];
    default: return false;
    }
}

static void test_shapes_brute_force(void)
{
    static const struct { ShapeKind k; float s[3]; int axis; } cases[] = {
        {SHAPE_SPHERE, {7, 0, 0}, 1}, {SHAPE_SPHERE, {1, 0, 0}, 1}, {SHAPE_BOX, {5, 3, 8}, 1},
        {SHAPE_CYLINDER, {4, 9, 0}, 1}, {SHAPE_CYLINDER, {3, 6, 0}, 0}, {SHAPE_CONE, {6, 10, 0}, 1},
        {SHAPE_CONE, {5, 7, 0}, 2}, {SHAPE_TORUS, {8, 3, 0}, 1}, {SHAPE_TORUS, {6, 2, 0}, 0},
        {SHAPE_PLANE, {2, 11, 0}, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int hollow = 0; hollow <= 1; hollow++) {
            ShapeSpec sp = { .kind = cases[c].k, .axis = cases[c].axis, .block = BLOCK_STONE, .hollow = hollow };
            memcpy(sp.sizes, cases[c].s, sizeof sp.sizes);
            ShapeVolume v;
            CHECK_EQ_INT(shape_compile(&sp, &v), ST_OK);
            /* Every compiled cell is inside (and on the shell when hollow); every reference cell is compiled. */
            const int B = 24;
            static uint8_t grid[49 * 49 * 49];
            memset(grid, 0, sizeof grid);
            int bad = 0;
            for (int i = 0; i < v.count; i++) {
                const BrushCell *bc = v.brush.cells + i;
                int q[3] = {bc->x, bc->y, bc->z};
                if (abs(q[0]) > B || abs(q[1]) > B || abs(q[2]) > B) { bad++; continue; }
                grid[(q[0] + B) + (q[1] + B) * 49 + (q[2] + B) * 49 * 49] = 1;
            }
            int expected = 0;
            for (int z = -B + 1; z < B; z++)
                for (int y = -B + 1; y < B; y++)
                    for (int x = -B + 1; x < B; x++) {
                        const float *S = cases[c].s;
                        int ax = cases[c].axis;
                        bool in = reference_inside(sp.kind, S, ax, x, y, z);
                        if (in && hollow)
                            in = !(reference_inside(sp.kind, S, ax, x + 1, y, z) && reference_inside(sp.kind, S, ax, x - 1, y, z) &&
                                   reference_inside(sp.kind, S, ax, x, y + 1, z) && reference_inside(sp.kind, S, ax, x, y - 1, z) &&
                                   reference_inside(sp.kind, S, ax, x, y, z + 1) && reference_inside(sp.kind, S, ax, x, y, z - 1));
                        expected += in;
                        if (in != (grid[(x + B) + (y + B) * 49 + (z + B) * 49 * 49] != 0)) bad++;
                    }
            if (bad) fprintf(stderr, "shape %s case %zu hollow %d: %d cells differ\n", shape_kind_name(sp.kind), c, hollow, bad);
            CHECK_EQ_INT(bad, 0);
            CHECK_EQ_INT(v.count, expected);
            CHECK(v.count > 0);
            shape_volume_free(&v);
        }
    }
    /* Rock: between spheres of 0.6 R and 1.4 R, same seed same rock, another seed another. */
    ShapeSpec rock = { .kind = SHAPE_ROCK, .sizes = {10}, .block = BLOCK_GRANITE, .seed = 3 };
    ShapeVolume a, b;
    CHECK_EQ_INT(shape_compile(&rock, &a), ST_OK);
    CHECK(a.count > (int)(4.19 * 216) && a.count < (int)(4.19 * 2744));
    for (int i = 0; i < a.count; i++) {
        const BrushCell *q = a.brush.cells + i;
        CHECK(shape_inside(&rock, q->x, q->y, q->z));
    }
    rock.seed = 4;
    CHECK_EQ_INT(shape_compile(&rock, &b), ST_OK);
    CHECK(a.count != b.count || memcmp(a.brush.cells, b.brush.cells, (size_t)a.count * sizeof(BrushCell)) != 0);
    shape_volume_free(&a);
    shape_volume_free(&b);
    /* Tree: trunk from the origin up, leaves above. */
    ShapeSpec tree = { .kind = SHAPE_TREE, .sizes = {3, 8}, .block = BLOCK_OAK_TRUNK, .leaves = BLOCK_OAK_LEAVES, .seed = 1 };
    CHECK_EQ_INT(shape_compile(&tree, &a), ST_OK);
    int trunk = 0, leaves = 0, base = 0;
    for (int i = 0; i < a.count; i++) {
        const BrushCell *q = a.brush.cells + i;
        trunk += cell_contents(q->value) == BLOCK_OAK_TRUNK;
        leaves += cell_contents(q->value) == BLOCK_OAK_LEAVES;
        base += q->x == 0 && q->y == 0 && q->z == 0 && cell_contents(q->value) == BLOCK_OAK_TRUNK;
    }
    CHECK(trunk >= 8);
    CHECK(leaves > trunk);
    CHECK_EQ_INT(base, 1);
    CHECK(a.min[1] >= 0);
    shape_volume_free(&a);
    /* Limits. */
    ShapeSpec big = { .kind = SHAPE_SPHERE, .sizes = {65}, .block = BLOCK_STONE };
    CHECK_EQ_INT(shape_compile(&big, &a), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "1..64");
}

static void test_shape_paint_modes(void)
{
    world_open(0);
    /* A sphere of radius 5 centred at the surface (y 60): half in the ground, half in the air. */
    ShapeSpec sp = { .kind = SHAPE_SPHERE, .sizes = {5}, .block = BLOCK_BRICKS };
    ShapeVolume v;
    CHECK_EQ_INT(shape_compile(&sp, &v), ST_OK);
    int air = 0, solid = 0, other = 0;
    for (int i = 0; i < v.count; i++) {
        const BrushCell *q = v.brush.cells + i;
        int b = cell_contents(editor_get_cell(ed, 24 + q->x, 60 + q->y, 24 + q->z));
        if (b == BLOCK_AIR) air++;
        else if (fx.blocks->solid[b]) solid++;
        else other++;
    }
    CHECK_EQ_INT(shape_paint(ed, &v, SHAPE_PAINT_AIR, 24, 60, 24), air);
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(shape_paint(ed, &v, SHAPE_PAINT_SOLID, 24, 60, 24), solid);
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(shape_paint(ed, &v, SHAPE_PAINT_REPLACE, 24, 60, 24), air + solid + other);
    CHECK(editor_undo(ed));
    /* Carving with air in replace mode digs a hole; air mode with air changes nothing. */
    ShapeSpec carve = sp;
    carve.block = BLOCK_AIR;
    ShapeVolume c;
    CHECK_EQ_INT(shape_compile(&carve, &c), ST_OK);
    CHECK_EQ_INT(shape_paint(ed, &c, SHAPE_PAINT_AIR, 24, 60, 24), 0);
    CHECK_EQ_INT(shape_paint(ed, &c, SHAPE_PAINT_REPLACE, 24, 60, 24), solid + other);
    shape_volume_free(&c);
    shape_volume_free(&v);
    world_close();
}

static bool is_stone(void *user, int32_t v) { (void)user; return cell_contents(v) == BLOCK_STONE; }

/* Shapes are TerrainBrushes: counters over a shape, and selective strokes through brush Paint on the Editor's
 * BrushWorld (one history entry each, undone exactly). */
static void test_shape_brush_counters_and_selective(void)
{
    world_open(0);
    ShapeSpec sp = { .kind = SHAPE_SPHERE, .sizes = {6}, .block = BLOCK_BRICKS };
    ShapeVolume v;
    CHECK_EQ_INT(shape_compile(&sp, &v), ST_OK);
    /* brute force over the world */
    int stone = 0, air = 0, solid = 0;
    for (int i = 0; i < v.count; i++) {
        const BrushCell *q = v.brush.cells + i;
        int b = cell_contents(editor_get_cell(ed, 24 + q->x, 60 + q->y, 24 + q->z));
        stone += b == BLOCK_STONE;
        air += b == BLOCK_AIR;
        solid += fx.blocks->solid[b] != 0;
    }
    CHECK(air > 0 && solid > 0);
    BrushWorld w = editor_brush_world(ed);
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_STONE, 0)), stone);
    CHECK_EQ_INT(brush_count_match(&v.brush, &w, 24, 60, 24, is_stone, NULL), stone);
    BrushMatch m;
    void *mu;
    shape_mode_match(SHAPE_PAINT_AIR, fx.blocks, &m, &mu);
    CHECK_EQ_INT(brush_count_match(&v.brush, &w, 24, 60, 24, m, mu), air);
    shape_mode_match(SHAPE_PAINT_SOLID, fx.blocks, &m, &mu);
    CHECK_EQ_INT(brush_count_match(&v.brush, &w, 24, 60, 24, m, mu), solid);
    shape_mode_match(SHAPE_PAINT_REPLACE, fx.blocks, &m, &mu);
    CHECK(m == NULL);

    /* replace only air through the brush path: the solid part is kept, one history entry */
    EditorStats st0, st1;
    editor_get_stats(ed, &st0);
    shape_mode_match(SHAPE_PAINT_AIR, fx.blocks, &m, &mu);
    CHECK_EQ_INT(editor_paint_brush(ed, &v.brush, 24, 60, 24, m, mu), air);
    editor_get_stats(ed, &st1);
    CHECK_EQ_INT(st1.undo_entries, st0.undo_entries + 1);
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_BRICKS, 0)), air);
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_STONE, 0)), stone);
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_BRICKS, 0)), 0);

    /* replace only solid: the stone the counter saw becomes bricks, the air stays */
    CHECK_EQ_INT(shape_paint(ed, &v, SHAPE_PAINT_SOLID, 24, 60, 24), solid);
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_STONE, 0)), 0);
    CHECK_EQ_INT(brush_count_match(&v.brush, &w, 24, 60, 24, m, mu), air);   /* m is still "only air" */
    CHECK(editor_undo(ed));
    CHECK_EQ_INT(brush_count_value(&v.brush, &w, 24, 60, 24, cell_make(BLOCK_STONE, 0)), stone);

    /* shape_build adds to any TerrainBrush: a box and a sphere together, then compiled */
    TerrainBrush tb;
    brush_init(&tb);
    ShapeSpec box = { .kind = SHAPE_BOX, .sizes = {3, 3, 3}, .block = BLOCK_GRANITE };
    CHECK_EQ_INT(shape_build(&sp, &tb), ST_OK);
    CHECK_EQ_INT(tb.count, v.count);
    CHECK_EQ_INT(shape_build(&box, &tb), ST_OK);
    CHECK_EQ_INT(tb.count, v.count);                 /* the box lies inside the sphere: replaced, not added */
    const BrushCell *centre = brush_find(&tb, 0, 0, 0);
    CHECK(centre && cell_contents(centre->value) == BLOCK_GRANITE);
    brush_free(&tb);
    shape_volume_free(&v);
    world_close();
}

int main(void)
{
    log_set_level(LOG_WARN);
    RUN(test_history_unit);
    RUN(test_undo_round_trip);
    RUN(test_history_bound_in_editor);
    RUN(test_falling_sand);
    RUN(test_undo_cancels_scheduled_updates);
    RUN(test_water_and_determinism);
    RUN(test_tools);
    RUN(test_shapes_brute_force);
    RUN(test_shape_paint_modes);
    RUN(test_shape_brush_counters_and_selective);
    return check_report();
}
