/* test_dungeon_light.c — what lights seed 1's dungeon (Step 16: "a room at y 41 is lit like daylight around
 * an unlit torch"). The world is loaded as the game loads it (a threaded update worker, one location) under
 * the noon sky (15) and under a night sky (4). In the box of the dungeon's rooms and the foot of its shaft
 * (y 38..56; above, natural caves open to the sky cross it) no open cell holds more than its torches give it
 * (the nearest torch's emission less the walk to it: an upper bound, a wall may block a path), and every cell
 * holds the same at night as at noon: no sunlight comes down the spiral shaft (its steps close each ring
 * column every 8 blocks). The cells next to a torch hold its emission less one: the torches are lit. What
 * looked like daylight is the torches' own light: 14 next to one, 7..15 across a room with a torch in each
 * tile, one level under the noon sun's 15 at most, in the same white and on the same brightness curve (one
 * light channel), not light from the wrong place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/generator.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

/* The dungeon of seed 1: its entrance at 138 85 160 (goto_structure), its rooms from y 41. */
#define BOX_X0 120
#define BOX_X1 170
#define BOX_Z0 130
#define BOX_Z1 175
#define BOX_Y0 38
#define BOX_Y1 56
#define MAX_TORCHES 256
#define BOX_CELLS ((BOX_X1 - BOX_X0 + 1) * (BOX_Y1 - BOX_Y0 + 1) * (BOX_Z1 - BOX_Z0 + 1))

static void drop_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    (void)user;
    (void)chunk;
    chunk_mesh_destroy(mesh);
}

static void no_release(void *user, TerrainChunk *chunk)
{
    (void)user;
    (void)chunk;
}

static int32_t cell_at(const Terrain *t, int x, int y, int z)
{
    const TerrainChunk *c = terrain_get_chunk_at_cell(t, x, z);
    return c ? chunk_get_cell(c, chunk_local_of(x), y, chunk_local_of(z)) : -1;
}

/* Loads seed 1 around the dungeon under sky light `sky` and checks its light; returns the open cells seen and
 * leaves each box cell's light in lights (-1 where the cell is not open). */
static int check_dungeon(const BlockRegistry *blocks, int sky, int torches_xyz[MAX_TORCHES][3], int *torch_count,
                         int8_t *lights)
{
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 1;
    Generator *gen = NULL;
    CHECK_EQ_INT(generator_create(&settings, blocks, STRATA_ASSET_DIR "/worldgen.json", &gen), ST_OK);
    Terrain *terrain = terrain_create();
    TerrainUpdater *updater = NULL;
    UpdaterConfig cfg = {.terrain = terrain, .generator = gen, .blocks = blocks, .sky_light = sky, .threaded = true};
    CHECK_EQ_INT(updater_create(&cfg, &updater), ST_OK);
    if (!gen || !terrain || !updater) return 0;
    UpdateLocation loc = {.active = true, .x = 145.0f, .z = 152.0f, .visibility_chunks = 3, .content_chunks = 5};
    UpdaterCallbacks cb = {.user = NULL, .mesh_ready = drop_mesh, .chunk_released = no_release};
    updater_set_location(updater, 0, &loc);
    for (long waits = 0; !updater_is_ready(updater, 0) && waits < 600000; waits++) {
        updater_exchange(updater, &cb);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    CHECK(updater_is_ready(updater, 0));
    int n = 0;
    for (int y = BOX_Y0 - 2; y <= BOX_Y1 + 2; y++)
        for (int z = BOX_Z0 - 15; z <= BOX_Z1 + 15; z++)
            for (int x = BOX_X0 - 15; x <= BOX_X1 + 15; x++)
                if (cell_contents(cell_at(terrain, x, y, z)) == BLOCK_TORCH && n < MAX_TORCHES) {
                    torches_xyz[n][0] = x;
                    torches_xyz[n][1] = y;
                    torches_xyz[n][2] = z;
                    n++;
                }
    *torch_count = n;
    int emission = blocks->emission[BLOCK_TORCH], open = 0, brighter = 0, lit_next = 0;
    for (int y = BOX_Y0; y <= BOX_Y1; y++)
        for (int z = BOX_Z0; z <= BOX_Z1; z++)
            for (int x = BOX_X0; x <= BOX_X1; x++) {
                int32_t v = cell_at(terrain, x, y, z);
                int id = cell_contents(v);
                int8_t *light = &lights[((y - BOX_Y0) * (BOX_Z1 - BOX_Z0 + 1) + (z - BOX_Z0)) * (BOX_X1 - BOX_X0 + 1) +
                                        (x - BOX_X0)];
                *light = -1;
                if (v < 0 || id != BLOCK_AIR) continue;
                *light = (int8_t)cell_light(v);
                open++;
                int best = 0;
                for (int k = 0; k < n; k++) {
                    int d = abs(x - torches_xyz[k][0]) + abs(y - torches_xyz[k][1]) + abs(z - torches_xyz[k][2]);
                    if (emission - d > best) best = emission - d;
                    if (d == 1) lit_next += cell_light(v) == emission - 1;
                }
                if (cell_light(v) > best) {
                    if (brighter < 5)
                        fprintf(stderr, "sky %d: %d %d %d has light %d, its torches give at most %d\n", sky, x, y, z,
                                cell_light(v), best);
                    brighter++;
                }
            }
    fprintf(stderr, "sky %d: %d open cells, %d torches, %d brighter than the torches give, %d torch neighbours lit\n",
            sky, open, n, brighter, lit_next);
    CHECK(open > 300);
    CHECK(n >= 3);
    CHECK_EQ_INT(brighter, 0);
    CHECK(lit_next >= n);
    updater_destroy(updater);
    terrain_destroy(terrain);
    generator_destroy(gen);
    return open;
}

int main(void)
{
    BlockRegistry *blocks = NULL;
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    static int noon_torches[MAX_TORCHES][3], night_torches[MAX_TORCHES][3];
    int noon_n = 0, night_n = 0;
    fprintf(stderr, "-- test_dungeon_light\n");
    int8_t *noon_light = malloc(BOX_CELLS), *night_light = malloc(BOX_CELLS);
    if (!noon_light || !night_light) return 1;
    int noon = check_dungeon(blocks, LIGHT_MAX, noon_torches, &noon_n, noon_light);
    int night = check_dungeon(blocks, 4, night_torches, &night_n, night_light);
    CHECK_EQ_INT(noon, night);
    CHECK_EQ_INT(noon_n, night_n);
    int differ = 0;   /* the sky's level changes nothing down there */
    for (int k = 0; k < BOX_CELLS; k++) differ += noon_light[k] != night_light[k];
    CHECK_EQ_INT(differ, 0);
    free(noon_light);
    free(night_light);
    block_registry_destroy(blocks);
    return check_report();
}
