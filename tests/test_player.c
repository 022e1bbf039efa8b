/* test_player.c — player physics on a hand-built Terrain: falling and landing exactly on the floor, walls
 * in both directions (also at negative coordinates), jumping onto one block but not two, ceilings, flying,
 * no tunnelling at terminal speed, freezing where chunks have no contents, box/cell overlap for placing,
 * and the spawn ground height. */
#include <math.h>

#include "check.h"
#include "player.h"
#include "strata/spawn.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/error.h"
#include "strata/terrain.h"

#define FLOOR_TOP 63 /* stone up to y 63: the player stands at 64 */

static BlockRegistry *blocks;

/* Allocates chunks -r..r with stone up to FLOOR_TOP, all Valid. */
static Terrain *make_world(int r)
{
    Terrain *t = terrain_create();
    for (int cz = -r; cz <= r; cz++)
        for (int cx = -r; cx <= r; cx++) {
            TerrainChunk *c = terrain_allocate_chunk(t, cx, cz);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    for (int y = 0; y <= FLOOR_TOP; y++) chunk_set_cell(c, x, y, z, cell_make(BLOCK_STONE, 0));
            c->state = CHUNK_STATE_VALID;
        }
    return t;
}

static void put(Terrain *t, int x, int y, int z, int id)
{
    CHECK(terrain_set_cell_value(t, x, y, z, cell_make(id, 0)));
}

static void run(Player *p, const PlayerInput *in, const Terrain *t, int steps)
{
    for (int i = 0; i < steps; i++) player_step(p, in, t, blocks, PLAYER_STEP_SECONDS);
}

static void test_fall_and_land(void)
{
    Terrain *t = make_world(1);
    Player p;
    player_init(&p, 0.5, 80.0, 0.5);
    PlayerInput none = {0};
    run(&p, &none, t, 240);
    CHECK(p.on_ground);
    CHECK_NEAR(p.position[1], FLOOR_TOP + 1, 1e-9);
    CHECK_NEAR(p.velocity[1], 0.0, 1e-12);
    /* From high up at terminal speed: lands exactly, no tunnelling through the one-block crust. */
    for (int z = -16; z < 32; z++)
        for (int x = -16; x < 32; x++)
            for (int y = 0; y < FLOOR_TOP; y++) terrain_set_cell_value(t, x, y, z, 0);
    player_init(&p, 0.5, 250.0, 0.5);
    run(&p, &none, t, 600);
    CHECK(p.on_ground);
    CHECK_NEAR(p.position[1], FLOOR_TOP + 1, 1e-9);
    terrain_destroy(t);
}

static void test_walls(void)
{
    Terrain *t = make_world(1);
    for (int z = -16; z < 32; z++)
        for (int y = 64; y < 67; y++) {
            put(t, 3, y, z, BLOCK_STONE);
            put(t, -5, y, z, BLOCK_STONE);
        }
    Player p;
    player_init(&p, 0.5, 64.0, 0.5);
    p.yaw_deg = 90.0f; /* +X */
    PlayerInput fwd = {.forward = 1.0f};
    run(&p, &fwd, t, 200);
    CHECK_NEAR(p.position[0], 3.0 - PLAYER_HALF_WIDTH, 1e-9);
    CHECK_NEAR(p.position[2], 0.5, 1e-6);
    CHECK_NEAR(p.position[1], 64.0, 1e-9);
    p.yaw_deg = 270.0f; /* -X */
    run(&p, &fwd, t, 300);
    CHECK_NEAR(p.position[0], -4.0 + PLAYER_HALF_WIDTH, 1e-9);
    /* Walking: 4.3 blocks/s, so 60 steps move about 4 blocks (after the ramp-up), not 0 and not 10. */
    player_init(&p, 0.5, 64.0, 0.5);
    p.yaw_deg = 180.0f; /* +Z */
    run(&p, &fwd, t, 60);
    CHECK(p.position[2] > 0.5 + 3.0 && p.position[2] < 0.5 + PLAYER_WALK_SPEED);
    CHECK_NEAR(p.position[0], 0.5, 1e-6);
    terrain_destroy(t);
}

static void test_jump(void)
{
    Terrain *t = make_world(1);
    for (int z = -16; z < 32; z++) {
        for (int x = 2; x <= 5; x++) put(t, x, 64, z, BLOCK_STONE); /* a one-block step up to x 2..5 */
        for (int y = 64; y <= 66; y++) put(t, 6, y, z, BLOCK_STONE); /* then two blocks higher at x 6 */
    }
    Player p;
    player_init(&p, 0.5, 64.0, 0.5);
    PlayerInput none = {0}, jump = {.jump = true};
    run(&p, &none, t, 5);
    CHECK(p.on_ground);
    /* A standing jump peaks between 1 and 1.5 blocks and comes back down. */
    double peak = 0.0;
    player_step(&p, &jump, t, blocks, PLAYER_STEP_SECONDS);
    for (int i = 0; i < 120; i++) {
        player_step(&p, &none, t, blocks, PLAYER_STEP_SECONDS);
        if (p.position[1] > peak) peak = p.position[1];
    }
    CHECK(peak > 65.0 && peak < 65.5);
    CHECK_NEAR(p.position[1], 64.0, 1e-9);
    /* Walking +X with jump held climbs the one-block step, and stops at the two-block wall. */
    p.yaw_deg = 90.0f;
    PlayerInput walk_jump = {.forward = 1.0f, .jump = true};
    run(&p, &walk_jump, t, 300);
    CHECK_NEAR(p.position[0], 6.0 - PLAYER_HALF_WIDTH, 1e-9);
    run(&p, &(PlayerInput){0}, t, 60);
    CHECK_NEAR(p.position[1], 65.0, 1e-9);
    terrain_destroy(t);
}

static void test_ceiling_and_flying(void)
{
    Terrain *t = make_world(1);
    for (int z = -16; z < 32; z++)
        for (int x = -16; x < 32; x++) put(t, x, 70, z, BLOCK_STONE);
    Player p;
    player_init(&p, 0.5, 64.0, 0.5);
    p.flying = true;
    PlayerInput none = {0}, up = {.up = 1.0f}, down = {.up = -1.0f};
    run(&p, &none, t, 60);
    CHECK_NEAR(p.position[1], 64.0, 1e-9); /* flying: no gravity */
    run(&p, &up, t, 120);
    CHECK_NEAR(p.position[1], 70.0 - PLAYER_HEIGHT, 1e-9); /* head against the ceiling */
    run(&p, &down, t, 120);
    CHECK_NEAR(p.position[1], 64.0, 1e-9);
    /* Flying is faster than walking. */
    p.yaw_deg = 180.0f;
    PlayerInput fwd = {.forward = 1.0f};
    run(&p, &fwd, t, 60);
    CHECK(p.position[2] - 0.5 > PLAYER_WALK_SPEED);
    terrain_destroy(t);
}

static void test_frozen_without_contents(void)
{
    Terrain *t = make_world(1);
    Player p;
    player_init(&p, 0.5, 80.0, 0.5);
    PlayerInput none = {0};
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    c->state = CHUNK_STATE_INVALID_CONTENTS3;
    CHECK(!player_area_ready(&p, t, CHUNK_STATE_INVALID_LIGHT));
    CHECK(!player_step(&p, &none, t, blocks, PLAYER_STEP_SECONDS));
    CHECK_NEAR(p.position[1], 80.0, 1e-12);
    CHECK_EQ_INT(player_ground_height(&p, t, blocks), -1);
    c->state = CHUNK_STATE_INVALID_LIGHT;
    CHECK(player_area_ready(&p, t, CHUNK_STATE_INVALID_LIGHT));
    CHECK(!player_area_ready(&p, t, CHUNK_STATE_VALID));
    CHECK(player_step(&p, &none, t, blocks, PLAYER_STEP_SECONDS));
    CHECK(p.position[1] < 80.0);
    /* Near the edge of the loaded area (chunk 2 is missing), the player waits. */
    player_init(&p, 47.5, 80.0, 0.5);
    CHECK(!player_step(&p, &none, t, blocks, PLAYER_STEP_SECONDS));
    CHECK_NEAR(p.position[1], 80.0, 1e-12);
    terrain_destroy(t);
}

static void test_overlap_and_ground(void)
{
    Terrain *t = make_world(1);
    Player p;
    player_init(&p, 0.5, 64.0, 0.5);
    CHECK(player_overlaps_cell(&p, 0, 64, 0));
    CHECK(player_overlaps_cell(&p, 0, 65, 0));
    CHECK(!player_overlaps_cell(&p, 0, 66, 0));
    CHECK(!player_overlaps_cell(&p, 0, 63, 0));
    CHECK(!player_overlaps_cell(&p, 1, 64, 0));
    CHECK(!player_overlaps_cell(&p, -1, 64, 0));
    player_init(&p, 1.0, 64.0, -1.0); /* straddles x 0/1 and z -2/-1 */
    CHECK(player_overlaps_cell(&p, 0, 64, -1));
    CHECK(player_overlaps_cell(&p, 1, 64, -1));
    CHECK(player_overlaps_cell(&p, 0, 64, -2));
    CHECK(player_overlaps_cell(&p, 1, 65, -2));
    CHECK(!player_overlaps_cell(&p, 2, 64, -1));

    player_init(&p, 0.5, 100.0, 0.5);
    CHECK_EQ_INT(player_ground_height(&p, t, blocks), FLOOR_TOP + 1);
    put(t, 0, 90, 0, BLOCK_OAK_LEAVES); /* leaves are solid: stand on the canopy */
    CHECK_EQ_INT(player_ground_height(&p, t, blocks), 91);
    put(t, 0, 95, 0, BLOCK_TALL_GRASS); /* not solid: ignored */
    CHECK_EQ_INT(player_ground_height(&p, t, blocks), 91);
    /* The footprint counts: a pillar under the box's corner column raises the ground. */
    player_init(&p, 1.0, 100.0, 5.0);
    put(t, 1, 77, 4, BLOCK_STONE);
    CHECK_EQ_INT(player_ground_height(&p, t, blocks), 78);
    double eye[3];
    player_eye(&p, eye);
    CHECK_NEAR(eye[1], 100.0 + PLAYER_EYE_HEIGHT, 1e-12);
    terrain_destroy(t);
}

/* spawn_choose: not ready until the chunks around have contents; prefers a hill with a view over flat ground
 * boxed in; never water, never under a tree; faces the open side; the same answer twice. */
/* make_world(4) loads 4 chunks around: the search's rays end inside that square */
#define LOADED 56
static void test_spawn_choose(void)
{
    Terrain *t = make_world(4);
    SpawnChoice c;
    terrain_get_chunk(t, 2, 0)->state = CHUNK_STATE_INVALID_CONTENTS3; /* 2 chunks east: a view ray reaches it */
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &c), SPAWN_NOT_READY);
    terrain_get_chunk(t, 2, 0)->state = CHUNK_STATE_VALID;
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &c), SPAWN_FOUND);
    CHECK_EQ_INT(c.y, FLOOR_TOP + 1);
    CHECK_EQ_INT(c.view_blocks, SPAWN_VIEW_RANGE);
    /* A low mound 4 blocks east: higher ground wins, and the player stands on it. */
    for (int z = -1; z <= 1; z++)
        for (int x = 3; x <= 5; x++) put(t, x, 64, z, BLOCK_DIRT);
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &c), SPAWN_FOUND);
    CHECK_EQ_INT(c.y, FLOOR_TOP + 2);
    CHECK(c.x >= 3 && c.x <= 5 && c.z >= -1 && c.z <= 1);
    /* Water over the mound and a wall of stone three high on three sides of the start: the start's column
     * is boxed in, so the spawn moves out and faces open ground. */
    for (int z = -1; z <= 1; z++)
        for (int x = 3; x <= 5; x++) put(t, x, 65, z, BLOCK_WATER);
    for (int z = -2; z <= 2; z++)
        for (int x = -2; x <= 2; x++)
            if (x == -2 || x == 2 || z == -2)
                for (int y = 64; y < 67; y++) put(t, x, y, z, BLOCK_STONE);
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &c), SPAWN_FOUND);
    CHECK(!(c.x >= 3 && c.x <= 5 && c.z >= -1 && c.z <= 1)); /* not on the water */
    CHECK(c.view_blocks >= 10);
    SpawnChoice again;
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &again), SPAWN_FOUND);
    CHECK(again.x == c.x && again.z == c.z && again.yaw_deg == c.yaw_deg);
    /* A canopy over the whole search area: nowhere to stand in the open. */
    for (int z = -SPAWN_SEARCH_RADIUS - 2; z <= SPAWN_SEARCH_RADIUS + 2; z++)
        for (int x = -SPAWN_SEARCH_RADIUS - 2; x <= SPAWN_SEARCH_RADIUS + 2; x++) put(t, x, 72, z, BLOCK_OAK_LEAVES);
    CHECK_EQ_INT(spawn_choose_within(t, blocks, 0, 0, LOADED, &c), SPAWN_NONE);
    terrain_destroy(t);
}

/* Sprinting forward is PLAYER_SPRINT_FACTOR times as fast; sprinting backwards is not. */
static void test_sprint(void)
{
    Terrain *t = make_world(2);
    Player walk, run_p;
    player_init(&walk, 0.5, FLOOR_TOP + 1, 0.5);
    player_init(&run_p, 0.5, FLOOR_TOP + 1, 0.5);
    PlayerInput in = {.forward = 1.0f}, fast = {.forward = 1.0f, .sprint = true};
    run(&walk, &in, t, 60);
    run(&run_p, &fast, t, 60);
    double dw = fabs(walk.position[2] - 0.5), dr = fabs(run_p.position[2] - 0.5);
    CHECK(dr > dw * 1.2 && dr < dw * 1.4);
    terrain_destroy(t);
}

static void test_spawn_column(void)
{
    Terrain *t = make_world(1);
    int gx = 99, gz = 99;
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 0, 0, 4, &gx, &gz), FLOOR_TOP + 1);
    CHECK_EQ_INT(gx, 0);
    CHECK_EQ_INT(gz, 0);
    /* A tree at the spot: trunk and leaves are skipped for the nearest open column. */
    for (int y = 64; y < 70; y++) put(t, 0, y, 0, BLOCK_OAK_TRUNK);
    for (int z = -1; z <= 1; z++)
        for (int x = -1; x <= 1; x++) put(t, x, 70, z, BLOCK_OAK_LEAVES);
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 0, 0, 4, &gx, &gz), FLOOR_TOP + 1);
    CHECK(gx < -1 || gx > 1 || gz < -1 || gz > 1);
    CHECK(gx >= -2 && gx <= 2 && gz >= -2 && gz <= 2);
    /* Tall grass on the ground is fine; water on top is not. */
    put(t, 5, 64, 5, BLOCK_TALL_GRASS);
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 5, 5, 0, &gx, &gz), FLOOR_TOP + 1);
    put(t, 7, 64, 7, BLOCK_WATER);
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 7, 7, 0, &gx, &gz), -1);
    /* Columns of chunks without contents are never chosen. */
    terrain_get_chunk(t, 1, 0)->state = CHUNK_STATE_INVALID_CONTENTS2;
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 20, 5, 0, &gx, &gz), -1);
    CHECK_EQ_INT(player_find_ground_column(t, blocks, 20, 5, 6, &gx, &gz), FLOOR_TOP + 1);
    CHECK(gx < 16);
    terrain_destroy(t);
}

static void test_water(void)
{
    Terrain *t = make_world(1);
    for (int z = -16; z < 32; z++)
        for (int x = -16; x < 32; x++)
            for (int y = 58; y <= FLOOR_TOP; y++) terrain_set_cell_value(t, x, y, z, cell_make(BLOCK_WATER, 0));
    Player p;
    player_init(&p, 0.5, 80.0, 0.5);
    PlayerInput none = {0}, up = {.up = 1.0f};
    run(&p, &none, t, 600);
    CHECK(p.in_fluid);
    CHECK_NEAR(p.position[1], 58.0, 1e-9); /* sank to the floor of the pool */
    run(&p, &up, t, 120);
    CHECK(p.position[1] > 60.0); /* swims up */
    terrain_destroy(t);
}

int main(void)
{
    StResult rc = block_registry_load("assets/blocks.json", &blocks);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return check_report();
    }
    RUN(test_fall_and_land);
    RUN(test_walls);
    RUN(test_jump);
    RUN(test_ceiling_and_flying);
    RUN(test_frozen_without_contents);
    RUN(test_overlap_and_ground);
    RUN(test_spawn_column);
    RUN(test_spawn_choose);
    RUN(test_sprint);
    RUN(test_water);
    block_registry_destroy(blocks);
    return check_report();
}
