/* test_spawn.c — the first view (spawn.h): for the README's seeds (1, 7, 42, 123456, "hello") the spawn search
 * run as the game runs it (spawn_coarse_start from the generator's coarse spawn, the chunks around it generated,
 * spawn_choose_within the game's default loaded square) finds a column with a view of at least 48 blocks, faces
 * that view, and does not stand in a thicket (no trunk or leaves within 2 blocks from the feet to 3 above) or a
 * gorge (ground above the eye in no more than 5 of the 8 directions within 6 blocks). Also: the coarse step is
 * a function of the generator alone (the same twice). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/spawn.h"
#include "strata/terrain.h"
#include "strata/world_settings.h"

static BlockRegistry *blocks;

#define LOADED_CHUNKS 6 /* around the start's chunk: covers the search and its rays (spawn.h) */

static bool tree_cell(int id) { return id >= BLOCK_OAK_TRUNK && id <= BLOCK_MIMOSA_LEAVES; }

static int cell_at(const Terrain *t, int x, int y, int z)
{
    const TerrainChunk *c = terrain_get_chunk_at_cell(t, x, z);
    return c && y >= 0 && y < 256 ? chunk_get_contents(c, chunk_local_of(x), y, chunk_local_of(z)) : BLOCK_AIR;
}

static void check_seed(const char *text)
{
    WorldSettings s;
    world_settings_default(&s);
    CHECK_EQ_INT(world_seed_parse(text, &s.seed), ST_OK);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&s, blocks, "assets/worldgen.json", &g), ST_OK);
    if (!g) return;
    int sx, sz, x, z, x2, z2;
    g->find_coarse_spawn_position(g, &sx, &sz);
    spawn_coarse_start(g, sx, sz, &x, &z);
    spawn_coarse_start(g, sx, sz, &x2, &z2);
    CHECK(x == x2 && z == z2);
    Terrain *t = terrain_create();
    GenContext *ctx = gen_context_create();
    for (int cz = chunk_coord_of(z) - LOADED_CHUNKS; cz <= chunk_coord_of(z) + LOADED_CHUNKS; cz++)
        for (int cx = chunk_coord_of(x) - LOADED_CHUNKS; cx <= chunk_coord_of(x) + LOADED_CHUNKS; cx++) {
            TerrainChunk *c = terrain_allocate_chunk(t, cx, cz);
            generator_generate_chunk(g, c, ctx);
            c->state = CHUNK_STATE_INVALID_LIGHT;
        }
    SpawnChoice c = {0};
    CHECK_EQ_INT(spawn_choose_within(t, blocks, x, z, (LOADED_CHUNKS - 1) * 16, &c), SPAWN_FOUND);
    int thicket = 0, walls = 0;
    for (int dz = -2; dz <= 2; dz++)
        for (int dx = -2; dx <= 2; dx++)
            for (int dy = 0; dy <= 3; dy++) thicket += tree_cell(cell_at(t, c.x + dx, c.y + dy, c.z + dz));
    for (int d = 0; d < 8; d++) {
        double yaw = d * M_PI / 4.0;
        bool wall = false;
        for (int k = 1; k <= 6 && !wall; k++) {
            int px = (int)floor(c.x + 0.5 + sin(yaw) * k), pz = (int)floor(c.z + 0.5 - cos(yaw) * k);
            wall = blocks->solid[cell_at(t, px, c.y + 2, pz)];
        }
        walls += wall;
    }
    /* the view it reports, along its yaw at eye level: the cells there are open */
    double yaw = c.yaw_deg * M_PI / 180.0;
    int open = 0;
    for (int k = 1; k <= 48; k++) {
        int px = (int)floor(c.x + 0.5 + sin(yaw) * k), pz = (int)floor(c.z + 0.5 - cos(yaw) * k);
        if (blocks->solid[cell_at(t, px, c.y, pz)] || blocks->solid[cell_at(t, px, c.y + 1, pz)]) break;
        open = k;
    }
    fprintf(stderr, "  seed %s: coarse spawn %d %d, start %d %d, spawned at %d %d %d facing %.0f (view %d blocks), "
            "%d tree cells near, %d walls\n", text, sx, sz, x, z, c.x, c.y, c.z, c.yaw_deg, c.view_blocks, thicket,
            walls);
    CHECK(c.view_blocks >= 48);
    CHECK(open >= 48);
    CHECK_EQ_INT(thicket, 0);
    CHECK(walls <= 5);
    gen_context_destroy(ctx);
    terrain_destroy(t);
    generator_destroy(g);
}

static void test_first_views(void)
{
    const char *seeds[] = {"1", "7", "42", "123456", "hello"};
    for (int i = 0; i < 5; i++) check_seed(seeds[i]);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) return 1;
    RUN(test_first_views);
    block_registry_destroy(blocks);
    return check_report();
}
