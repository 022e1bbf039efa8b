/* test_dungeon_light.c — what lights seed 1's dungeon (Step 16: "a room at y 41 is lit like daylight around
 * an unlit torch"). The world is loaded as the game loads it (a threaded update worker, one location) under
 * the noon sky (15) and under a night sky (4). In the box of the dungeon's rooms and the foot of its shaft
 * (y 38..56; above, natural caves open to the sky cross it) no open cell holds more than its torches give it
 * (the nearest torch's emission less the walk to it: an upper bound, a wall may block a path), and every cell
 * holds the same at night as at noon: no sunlight comes down the spiral shaft (its steps close each ring
 * column every 8 blocks). The cells next to a torch hold its emission less one: the torches are lit. What
 * looked like daylight is the torches' own light: 14 next to one, 7..15 across a room with a torch in each
 * tile, one level under the noon sun's 15 at most, in the same white and on the same brightness curve (one
 * light channel), not light from the wrong place. Step 17 draws it as torch light: the mesher recovers the
 * block-light part (mesher_blocklight.c) and gives the corners it explains a candle colour. Under the noon sky the
 * meshes the game gets are kept: the lit faces of the dungeon's rooms are drawn warm (red above green above blue),
 * and the sunlit tops of untinted blocks (snow, ice, stone) with no emitter within 16 cells stay neutral
 * (red == green == blue). */
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

#define MAX_MESHES 256

/* The latest mesh of each chunk (noon run only; NULL user: dropped). */
typedef struct KeptMeshes {
    int count;
    int coord[MAX_MESHES][2];
    ChunkMesh *mesh[MAX_MESHES];
} KeptMeshes;

static void keep_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    KeptMeshes *kept = user;
    if (!kept) {
        chunk_mesh_destroy(mesh);
        return;
    }
    for (int i = 0; i < kept->count; i++)
        if (kept->coord[i][0] == chunk->coord_x && kept->coord[i][1] == chunk->coord_z) {
            chunk_mesh_destroy(kept->mesh[i]);
            kept->mesh[i] = mesh;
            return;
        }
    if (kept->count == MAX_MESHES) {
        chunk_mesh_destroy(mesh);
        return;
    }
    kept->coord[kept->count][0] = chunk->coord_x;
    kept->coord[kept->count][1] = chunk->coord_z;
    kept->mesh[kept->count++] = mesh;
}

/* Calls fn on every quad of the kept meshes' near parts (each slice's own faces, after its half-resolution
 * copy), vertices in world coordinates. */
typedef void (*QuadFn)(void *user, const TerrainVertex v[4], const float world[4][3]);
static void each_quad(const KeptMeshes *kept, QuadFn fn, void *user)
{
    for (int c = 0; c < kept->count; c++) {
        const ChunkMesh *m = kept->mesh[c];
        for (int k = 0; k < MESH_SUBSET_COUNT; k++)
            for (int s = 0, first = 0; s < CHUNK_SLICES; first += m->slice_vertices[k][s], s++)
                for (int i = first + m->lod_vertices[k][s]; i + 4 <= first + m->slice_vertices[k][s]; i += 4) {
                    const TerrainVertex *v = &m->subsets[k].data[i];
                    float w[4][3];
                    for (int j = 0; j < 4; j++) {
                        w[j][0] = v[j].x + (float)(kept->coord[c][0] * CHUNK_SIZE_X);
                        w[j][1] = v[j].y;
                        w[j][2] = v[j].z + (float)(kept->coord[c][1] * CHUNK_SIZE_Z);
                    }
                    fn(user, v, (const float (*)[3])w);
                }
    }
}

/* The candle colour (red over green over blue, blue at most 3/4 of red); grey is red == green == blue. */
static bool vertex_warm(const TerrainVertex *v)
{
    return v->color[0] > v->color[1] && v->color[1] > v->color[2] && 4 * v->color[2] <= 3 * v->color[0];
}
static bool vertex_lit(const TerrainVertex *v) { return v->color[0] > 40; }

typedef struct RoomFaces {
    int quads, lit, warm;
} RoomFaces;

/* Quads wholly inside the rooms' box: their lit corners are torch light. */
static void count_room_face(void *user, const TerrainVertex v[4], const float w[4][3])
{
    RoomFaces *r = user;
    for (int j = 0; j < 4; j++)   /* block faces only (a torch's quads lie off the grid) */
        for (int a = 0; a < 3; a++)
            if (w[j][a] != (float)(int)w[j][a]) return;
    for (int j = 0; j < 4; j++)
        if (w[j][0] < BOX_X0 || w[j][0] > BOX_X1 + 1 || w[j][1] < BOX_Y0 || w[j][1] > BOX_Y1 + 1 || w[j][2] < BOX_Z0 ||
            w[j][2] > BOX_Z1 + 1)
            return;
    r->quads++;
    for (int j = 0; j < 4; j++) {
        if (!vertex_lit(&v[j])) continue;
        r->lit++;
        r->warm += vertex_warm(&v[j]);
        if (!vertex_warm(&v[j]) && r->lit - r->warm <= 3)
            fprintf(stderr, "room corner %.0f %.0f %.0f colour %d %d %d not warm\n", w[j][0], w[j][1], w[j][2],
                    v[j].color[0], v[j].color[1], v[j].color[2]);
    }
}

/* A sunlit top of an untinted block (snow, ice, stone, sand) far from every emitter: the level quads that
 * cover it within its cell's height. */
typedef struct SunlitTop {
    int x, y, z;          /* the block's cell */
    int quads, neutral;
} SunlitTop;

static void check_sunlit_top(void *user, const TerrainVertex v[4], const float w[4][3])
{
    SunlitTop *t = user;
    float lo_x = w[0][0], hi_x = w[0][0], lo_z = w[0][2], hi_z = w[0][2];
    for (int j = 0; j < 4; j++) {
        if (w[j][1] != w[0][1] || w[j][1] <= (float)t->y || w[j][1] > (float)(t->y + 1)) return;   /* its top */
        lo_x = w[j][0] < lo_x ? w[j][0] : lo_x;
        hi_x = w[j][0] > hi_x ? w[j][0] : hi_x;
        lo_z = w[j][2] < lo_z ? w[j][2] : lo_z;
        hi_z = w[j][2] > hi_z ? w[j][2] : hi_z;
    }
    if (t->x + 0.5f < lo_x || t->x + 0.5f > hi_x || t->z + 0.5f < lo_z || t->z + 0.5f > hi_z) return;
    t->quads++;
    bool neutral = true;
    for (int j = 0; j < 4; j++) neutral = neutral && v[j].color[0] == v[j].color[1] && v[j].color[1] == v[j].color[2];
    t->neutral += neutral;
}

/* Noon run: the rooms' lit faces are warm, sunlit untinted tops far from every emitter neutral. */
static void check_colours(const BlockRegistry *blocks, const Terrain *terrain, const KeptMeshes *kept)
{
    RoomFaces room = {0, 0, 0};
    each_quad(kept, count_room_face, &room);
    fprintf(stderr, "rooms: %d quads, %d lit corners, %d warm\n", room.quads, room.lit, room.warm);
    CHECK(room.lit > 200);
    CHECK_EQ_INT(room.warm, room.lit);
    /* the emitters of the loaded area */
    enum { MAX_EMITTERS = 1 << 17 };
    int (*emitters)[3] = malloc(sizeof(int[MAX_EMITTERS][3]));
    if (!emitters) return;
    int n = 0;
    for (int c = 0; c < kept->count; c++) {
        const TerrainChunk *chunk = terrain_get_chunk(terrain, kept->coord[c][0], kept->coord[c][1]);
        if (!chunk) continue;
        for (int z = 0; z < CHUNK_SIZE_Z; z++)
            for (int x = 0; x < CHUNK_SIZE_X; x++)
                for (int y = 0; y < CHUNK_SIZE_Y; y++)
                    if (blocks->emission[cell_contents(chunk_get_cell(chunk, x, y, z))] && n < MAX_EMITTERS) {
                        emitters[n][0] = chunk->origin_x + x;
                        emitters[n][1] = y;
                        emitters[n][2] = chunk->origin_z + z;
                        n++;
                    }
    }
    CHECK(n < MAX_EMITTERS);
    int tops = 0, quads = 0, neutral = 0;
    for (int c = 0; c < kept->count && tops < 200; c++) {
        const TerrainChunk *chunk = terrain_get_chunk(terrain, kept->coord[c][0], kept->coord[c][1]);
        if (!chunk) continue;
        for (int z = 2; z < CHUNK_SIZE_Z; z += 5)
            for (int x = 2; x < CHUNK_SIZE_X; x += 5) {
                int wx = chunk->origin_x + x, wz = chunk->origin_z + z, y = CHUNK_SIZE_Y - 2;
                while (y > 0 && cell_contents(chunk_get_cell(chunk, x, y, z)) == BLOCK_AIR) y--;
                int id = cell_contents(chunk_get_cell(chunk, x, y, z));
                if (id == BLOCK_AIR || block_face_tinted(&blocks->defs[id], BLOCK_FACE_POS_Y)) continue;
                if (cell_light(chunk_get_cell(chunk, x, y + 1, z)) != LIGHT_MAX) continue;
                bool far = true;
                for (int k = 0; k < n && far; k++)
                    far = abs(emitters[k][0] - wx) + abs(emitters[k][1] - y) + abs(emitters[k][2] - wz) > 16;
                if (!far) continue;
                SunlitTop top = {wx, y, wz, 0, 0};
                each_quad(kept, check_sunlit_top, &top);
                tops++;
                quads += top.quads;
                neutral += top.neutral;
            }
    }
    fprintf(stderr, "%d emitters; sunlit untinted tops far from them: %d, %d quads over them, %d neutral\n", n, tops, quads,
            neutral);
    CHECK(tops >= 10);
    CHECK(quads >= 100);   /* most tops found (a top in a chunk at the edge of the loaded area has no mesh) */
    CHECK_EQ_INT(neutral, quads);
    free(emitters);
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
    static KeptMeshes kept;
    kept.count = 0;
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
    UpdaterCallbacks cb = {.user = sky == LIGHT_MAX ? &kept : NULL, .mesh_ready = keep_mesh, .chunk_released = no_release};
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
    if (sky == LIGHT_MAX) check_colours(blocks, terrain, &kept);
    for (int i = 0; i < kept.count; i++) chunk_mesh_destroy(kept.mesh[i]);
    kept.count = 0;
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
