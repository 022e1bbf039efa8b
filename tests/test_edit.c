/* test_edit.c — ChangeCell / DestroyCell and the block raycast on a hand-built Terrain: downgrade of the
 * 3x3 neighbourhood, modification counter, damaged flag, refusals (y out of range, unloaded chunk, chunk
 * without contents); raycasts down, diagonal, at negative coordinates, along an axis, through water,
 * across chunk borders, from inside a block, and misses at the maximum distance. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fake_generator.h"
#include "strata/block.h"
#include "strata/edit.h"
#include "strata/terrain.h"
#include "strata/update.h"

static BlockRegistry *blocks;

/* 4 x 4 chunks (-2..1) at state Valid, a stone floor at y <= 10, nothing else. */
static Terrain *make_terrain(void)
{
    Terrain *t = terrain_create();
    for (int cz = -2; cz <= 1; cz++)
        for (int cx = -2; cx <= 1; cx++) {
            TerrainChunk *c = terrain_allocate_chunk(t, cx, cz);
            c->state = c->thread_state = CHUNK_STATE_VALID;
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    for (int y = 0; y <= 10; y++) chunk_set_cell(c, x, y, z, cell_make(BLOCK_STONE, 0));
        }
    return t;
}

static bool cast(const Terrain *t, float ox, float oy, float oz, float dx, float dy, float dz, float max, RaycastHit *hit)
{
    const float origin[3] = { ox, oy, oz }, dir[3] = { dx, dy, dz };
    return edit_raycast(t, blocks, origin, dir, max, hit);
}

static void check_hit(const RaycastHit *h, int x, int y, int z, int face, int px, int py, int pz)
{
    CHECK_EQ_INT(h->x, x);
    CHECK_EQ_INT(h->y, y);
    CHECK_EQ_INT(h->z, z);
    CHECK_EQ_INT(h->face, face);
    CHECK_EQ_INT(h->place_x, px);
    CHECK_EQ_INT(h->place_y, py);
    CHECK_EQ_INT(h->place_z, pz);
}

static void test_raycast(void)
{
    Terrain *t = make_terrain();
    RaycastHit h;

    /* Straight down onto the floor. */
    CHECK(cast(t, 0.5f, 20.5f, 0.5f, 0, -1, 0, 50, &h));
    check_hit(&h, 0, 10, 0, BLOCK_FACE_POS_Y, 0, 11, 0);
    CHECK_NEAR(h.distance, 9.5, 1e-4);
    CHECK_EQ_INT(cell_contents(h.value), BLOCK_STONE);

    /* Diagonal in x and z: the ray steps x, z, x, z, ... and enters (3, 20, 3) through its -Z face. */
    terrain_set_cell_value(t, 3, 20, 3, cell_make(BLOCK_PLANKS, 0));
    CHECK(cast(t, 0.5f, 20.5f, 0.5f, 1, 0, 1, 50, &h));
    check_hit(&h, 3, 20, 3, BLOCK_FACE_NEG_Z, 3, 20, 2);
    CHECK_NEAR(h.distance, 2.5 * sqrt(2.0), 1e-4);
    CHECK_EQ_INT(cell_contents(h.value), BLOCK_PLANKS);

    /* Negative coordinates, along -X, crossing from chunk 0 into chunk -1. */
    terrain_set_cell_value(t, -5, 20, -7, cell_make(BLOCK_GLASS, 0));
    CHECK(cast(t, 0.25f, 20.5f, -6.5f, -1, 0, 0, 50, &h));
    check_hit(&h, -5, 20, -7, BLOCK_FACE_POS_X, -4, 20, -7);
    CHECK_NEAR(h.distance, 4.25, 1e-4);

    /* Along +Z; a maximum distance just short misses, exactly at the face hits. */
    terrain_set_cell_value(t, 0, 20, 5, cell_make(BLOCK_STONE, 0));
    CHECK(cast(t, 0.5f, 20.5f, 0.5f, 0, 0, 2.0f, 50, &h)); /* direction need not be normalised */
    check_hit(&h, 0, 20, 5, BLOCK_FACE_NEG_Z, 0, 20, 4);
    CHECK_NEAR(h.distance, 4.5, 1e-4);
    CHECK(!cast(t, 0.5f, 20.5f, 0.5f, 0, 0, 1, 4.4f, &h));
    CHECK(cast(t, 0.5f, 20.5f, 0.5f, 0, 0, 1, 4.5f, &h));

    /* Down and diagonal in y at negative coordinates: lands on the floor top. */
    CHECK(cast(t, -10.5f, 14.0f, -20.5f, 0, -1, -1, 50, &h));
    check_hit(&h, -11, 10, -24, BLOCK_FACE_POS_Y, -11, 11, -24);

    /* Water and magma are looked through; tall grass is hit. */
    for (int y = 11; y <= 15; y++) terrain_set_cell_value(t, -3, y, 4, cell_make(BLOCK_WATER, 0));
    terrain_set_cell_value(t, -3, 16, 4, cell_make(BLOCK_MAGMA, 0));
    CHECK(cast(t, -2.5f, 30.5f, 4.5f, 0, -1, 0, 50, &h));
    check_hit(&h, -3, 10, 4, BLOCK_FACE_POS_Y, -3, 11, 4);
    terrain_set_cell_value(t, 7, 11, 7, cell_make(BLOCK_TALL_GRASS, 0));
    CHECK(cast(t, 7.5f, 30.5f, 7.5f, 0, -1, 0, 50, &h));
    check_hit(&h, 7, 11, 7, BLOCK_FACE_POS_Y, 7, 12, 7);

    /* Misses: into the sky, out of the loaded area, a zero direction. */
    CHECK(!cast(t, 0.5f, 20.5f, 0.5f, 0, 1, 0, 300, &h));
    CHECK(!cast(t, 0.5f, 20.5f, 0.5f, 1, 0, 0, 200, &h)); /* no block along the way; unloaded reads as air */
    CHECK(!cast(t, 0.5f, 20.5f, 0.5f, 0, 0, 0, 50, &h));

    /* A chunk still being generated (state below InvalidLight) reads as air. */
    terrain_get_chunk(t, 0, -1)->state = CHUNK_STATE_INVALID_CONTENTS2;
    CHECK(!cast(t, 5.5f, 20.5f, -5.5f, 0, -1, 0, 50, &h));
    terrain_get_chunk(t, 0, -1)->state = CHUNK_STATE_INVALID_LIGHT;
    CHECK(cast(t, 5.5f, 20.5f, -5.5f, 0, -1, 0, 50, &h));
    check_hit(&h, 5, 10, -6, BLOCK_FACE_POS_Y, 5, 11, -6);

    /* Starting inside a block hits it at distance 0. */
    CHECK(cast(t, 0.5f, 5.5f, 0.5f, 0, -1, 0, 50, &h));
    CHECK_EQ_INT(h.x, 0);
    CHECK_EQ_INT(h.y, 5);
    CHECK_EQ_INT(h.z, 0);
    CHECK_NEAR(h.distance, 0.0, 1e-6);

    /* A long shallow ray visits every cell: compare with a fine march. */
    terrain_set_cell_value(t, -20, 12, 9, cell_make(BLOCK_BRICKS, 0));
    CHECK(cast(t, 9.3f, 12.2f, -3.7f, -29.3f + 0.5f, 0.3f, 12.7f + 0.5f, 60, &h));
    CHECK_EQ_INT(h.x, -20);
    CHECK_EQ_INT(h.y, 12);
    CHECK_EQ_INT(h.z, 9);
    terrain_destroy(t);
}

/* Blocks smaller than their cell are hit on their own box (block_shape_bounds), and a ray that passes beside
 * one goes on: the crosshair's target is what it shows. Before, a snow layer took its whole cell, so a ray
 * over the snow to the ground behind it hit the layer, and the ray straight down hit it 14/16 above it. */
static void test_raycast_shapes(void)
{
    Terrain *t = make_terrain();
    RaycastHit h;
    terrain_set_cell_value(t, 2, 11, 2, cell_make(BLOCK_SNOW_LAYER, 0));
    /* straight down onto the snow: its top at 11 + 2/16, the top face, the block above it to place in */
    CHECK(cast(t, 2.5f, 20.5f, 2.5f, 0, -1, 0, 50, &h));
    check_hit(&h, 2, 11, 2, BLOCK_FACE_POS_Y, 2, 12, 2);
    CHECK_NEAR(h.distance, 20.5 - 11.125, 1e-4);
    /* from (2.5, 11.9, 1.5) along +Z dipping 0.1 a block: through the layer's cell at y 11.7..11.8, well over
     * the slab, to the floor at y 11 past it (z 10.5: the ray reaches y 11 after 9 blocks) */
    CHECK(cast(t, 2.5f, 11.9f, 1.5f, 0, -0.1f, 1, 50, &h));
    check_hit(&h, 2, 10, 10, BLOCK_FACE_POS_Y, 2, 11, 10);
    /* low enough to meet the slab's side: its -Z face, at z 2 */
    CHECK(cast(t, 2.5f, 11.1f, 1.5f, 0, 0, 1, 50, &h));
    check_hit(&h, 2, 11, 2, BLOCK_FACE_NEG_Z, 2, 11, 1);
    CHECK_NEAR(h.distance, 0.5, 1e-4);
    /* a torch: past its stick the ray goes on; at it, it is hit on its side (x 6/16 into the cell) */
    terrain_set_cell_value(t, 5, 11, 5, cell_make(BLOCK_TORCH, 0));
    CHECK(cast(t, 3.5f, 11.3f, 5.1f, 1, 0, 0, 4, &h) == false);   /* z 5.1: beside the stick (6/16..10/16) */
    CHECK(cast(t, 3.5f, 11.3f, 5.5f, 1, 0, 0, 4, &h));
    check_hit(&h, 5, 11, 5, BLOCK_FACE_NEG_X, 4, 11, 5);
    CHECK_NEAR(h.distance, 1.5 + 6.0 / 16.0, 1e-4);
    /* the outline's boxes: a cube its whole cell, the snow its slab */
    float lo[3], hi[3];
    block_shape_bounds(BLOCK_SHAPE_CUBE, lo, hi);
    CHECK(lo[0] == 0.0f && lo[1] == 0.0f && hi[1] == 1.0f && hi[2] == 1.0f);
    block_shape_bounds(BLOCK_SHAPE_LAYER, lo, hi);
    CHECK(lo[1] == 0.0f && hi[1] == 0.125f && hi[0] == 1.0f);
    terrain_destroy(t);
}

static void test_change_cell(void)
{
    Terrain *t = make_terrain();
    Generator gen;
    fake_generator_init(&gen, blocks);
    TerrainUpdater *u = NULL;
    UpdaterConfig config = { .terrain = t, .generator = &gen, .blocks = blocks, .sky_light = 15, .threaded = false };
    CHECK_EQ_INT(updater_create(&config, &u), ST_OK);

    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    c->flags |= CHUNK_FLAG_DAMAGED_ON_DISK;
    CHECK(edit_change_cell(t, u, 15, 30, 0, cell_replace_light(cell_make(BLOCK_DIRT, 0), 9)));
    CHECK_EQ_INT(c->modification_counter, 1);
    CHECK(!(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK));
    CHECK_EQ_INT(terrain_get_cell_value(t, 15, 30, 0), cell_make(BLOCK_DIRT, 0)); /* light cleared */
    int downgraded = 0;
    for (int i = 0; i < terrain_chunk_count(t); i++) {
        TerrainChunk *n = terrain_chunk_at(t, i);
        bool near = abs(n->coord_x) <= 1 && abs(n->coord_z) <= 1;
        if (n->state == CHUNK_STATE_INVALID_LIGHT) downgraded++;
        CHECK_EQ_INT(n->state, near ? CHUNK_STATE_INVALID_LIGHT : CHUNK_STATE_VALID);
        if (n != c) CHECK_EQ_INT(n->modification_counter, 0);
    }
    CHECK_EQ_INT(downgraded, 9);

    /* The same block again changes nothing. */
    CHECK(!edit_change_cell(t, u, 15, 30, 0, cell_make(BLOCK_DIRT, 0)));
    CHECK_EQ_INT(c->modification_counter, 1);

    /* Refusals. */
    CHECK(!edit_change_cell(t, u, 3, -1, 3, cell_make(BLOCK_DIRT, 0)));
    CHECK(!edit_change_cell(t, u, 3, 256, 3, cell_make(BLOCK_DIRT, 0)));
    CHECK(!edit_change_cell(t, u, 1000, 30, 3, cell_make(BLOCK_DIRT, 0)));
    CHECK(!edit_change_cell(t, u, -33, 30, 3, cell_make(BLOCK_DIRT, 0))); /* chunk -3 not allocated */
    TerrainChunk *young = terrain_get_chunk(t, -2, -2);
    young->state = CHUNK_STATE_INVALID_CONTENTS4;
    CHECK(!edit_change_cell(t, u, -32, 30, -32, cell_make(BLOCK_DIRT, 0)));
    CHECK_EQ_INT(young->modification_counter, 0);
    CHECK_EQ_INT(terrain_get_cell_value(t, -32, 30, -32), 0);

    /* DestroyCell through the Editor: leaves new_value, queues a drop and a particle burst; air again changes
     * nothing; bedrock is never destroyed. */
    Editor *ed = NULL;
    EditorConfig ec = { .terrain = t, .updater = u, .blocks = blocks };
    CHECK_EQ_INT(editor_create(&ec, &ed), ST_OK);
    CHECK(editor_destroy_cell(ed, 0, -17, 10, -1, cell_make(BLOCK_AIR, 0), false, false));
    CHECK_EQ_INT(terrain_get_cell_value(t, -17, 10, -1), 0);
    CHECK_EQ_INT(terrain_get_chunk(t, -2, -1)->modification_counter, 1);
    CHECK_EQ_INT(terrain_get_chunk(t, -2, -1)->state, CHUNK_STATE_INVALID_LIGHT);
    EditEvent ev[4];
    CHECK_EQ_INT(editor_take_events(ed, ev, 4), 2);
    CHECK_EQ_INT(ev[0].kind, EDIT_EVENT_DROP);
    CHECK_EQ_INT(ev[0].block, BLOCK_COBBLESTONE);
    CHECK_EQ_INT(ev[1].kind, EDIT_EVENT_PARTICLES);
    CHECK_EQ_INT(ev[1].block, BLOCK_STONE);
    CHECK_EQ_INT(ev[1].x, -17);
    CHECK(!editor_destroy_cell(ed, 0, -17, 10, -1, cell_make(BLOCK_AIR, 0), false, false));
    CHECK(!editor_destroy_cell(ed, 0, -17, 300, -1, cell_make(BLOCK_AIR, 0), false, false));
    CHECK(editor_destroy_cell(ed, 0, -17, 9, -1, cell_make(BLOCK_WATER, 0), true, true));
    CHECK_EQ_INT(editor_take_events(ed, ev, 4), 0);
    terrain_set_cell_value(t, -17, 0, -1, cell_make(BLOCK_BEDROCK, 0));
    CHECK(!editor_destroy_cell(ed, 0, -17, 0, -1, cell_make(BLOCK_AIR, 0), true, true));
    editor_destroy(ed);

    /* Without an updater (tools): the main states are lowered directly. */
    TerrainChunk *far = terrain_get_chunk(t, 1, 1);
    far->state = CHUNK_STATE_VALID;
    CHECK(edit_change_cell(t, NULL, 31, 40, 31, cell_make(BLOCK_GLASS, 0)));
    CHECK_EQ_INT(far->state, CHUNK_STATE_INVALID_LIGHT);
    CHECK_EQ_INT(far->modification_counter, 1);

    updater_destroy(u);
    terrain_destroy(t);
}

int main(void)
{
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    RUN(test_raycast);
    RUN(test_raycast_shapes);
    RUN(test_change_cell);
    block_registry_destroy(blocks);
    return check_report();
}
