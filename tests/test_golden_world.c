/* test_golden_world.c — the whole chunk pipeline pinned: real gen24, sunlight, light propagation and both
 * vertex passes through the (non-threaded) update worker, for two seeds. Each golden chunk's cells (contents,
 * light and data), shafts and finished mesh (every vertex of every subset) are hashed; the hashes are pinned.
 *
 * Structural steps (moving code between modules, new cell storage) must leave every hash as it is: a change
 * here means the worlds players see changed. A deliberate change to generation, light or meshing updates the
 * pins in the same commit and says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

#define GOLDEN_CHUNKS 4
static const int golden_coords[GOLDEN_CHUNKS][2] = { {0, 0}, {1, -1}, {-2, 2}, {2, 1} };

typedef struct GoldenRun {
    uint64_t mesh_hash[GOLDEN_CHUNKS];
    int meshes[GOLDEN_CHUNKS];
} GoldenRun;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static int golden_index(int cx, int cz)
{
    for (int i = 0; i < GOLDEN_CHUNKS; i++)
        if (golden_coords[i][0] == cx && golden_coords[i][1] == cz) return i;
    return -1;
}

/* Threads that run the update worker's steps (--threads N; 1 when not given): the pins hold for any N. */
static int g_threads = 1;

static uint64_t mesh_hash(const ChunkMesh *mesh)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        h = fnv(h, &mesh->subsets[s].count, sizeof mesh->subsets[s].count);
        if (mesh->subsets[s].count > 0)
            h = fnv(h, mesh->subsets[s].data, sizeof(TerrainVertex) * (size_t)mesh->subsets[s].count);
    }
    return h;
}

static void on_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    GoldenRun *run = user;
    int i = golden_index(chunk->coord_x, chunk->coord_z);
    if (i >= 0 && mesh) {
        run->mesh_hash[i] = mesh_hash(mesh);
        run->meshes[i]++;
    }
    chunk_mesh_destroy(mesh);
}

static uint64_t chunk_cells_hash(const TerrainChunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++)
            for (int y = 0; y < CHUNK_SIZE_Y; y++) {
                int32_t v = chunk_get_cell(c, x, y, z);
                h = fnv(h, &v, sizeof v);
            }
    h = fnv(h, c->shafts, sizeof c->shafts);
    return h;
}

/* Runs the world around chunk (0, 0) to Valid at visibility 3 and returns the cell and mesh hashes. */
static void run_world(const BlockRegistry *blocks, uint64_t seed, int version, uint64_t cell_hash[GOLDEN_CHUNKS],
                      GoldenRun *run)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = seed;
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", version, &g), ST_OK);
    if (!g) return;
    Terrain *terrain = terrain_create();
    UpdaterConfig config = { .terrain = terrain, .generator = g, .blocks = blocks, .storage = NULL,
                             .sky_light = 15, .threaded = false, .threads = g_threads };
    TerrainUpdater *u = NULL;
    CHECK_EQ_INT(updater_create(&config, &u), ST_OK);
    if (!u) return;
    CHECK_EQ_INT(updater_threads(u), g_threads);
    UpdateLocation loc = { .active = true, .x = 8.5f, .z = 8.5f, .visibility_chunks = 3, .content_chunks = 5 };
    updater_set_location(u, 0, &loc);
    UpdaterCallbacks cb = { .user = run, .mesh_ready = on_mesh, .chunk_released = NULL };
    memset(run, 0, sizeof *run);
    for (int i = 0; i < 1000; i++) {
        updater_exchange(u, &cb);
        if (updater_run_steps(u, 1000000) == 0 && updater_is_ready(u, 0)) break;
    }
    updater_exchange(u, &cb);
    CHECK(updater_is_ready(u, 0));
    for (int i = 0; i < GOLDEN_CHUNKS; i++) {
        TerrainChunk *c = terrain_get_chunk(terrain, golden_coords[i][0], golden_coords[i][1]);
        CHECK(c != NULL);
        cell_hash[i] = c ? chunk_cells_hash(c) : 0;
        CHECK_EQ_INT(run->meshes[i], 1);
    }
    updater_destroy(u);
    terrain_destroy(terrain);
    generator_destroy(g);
}

static void test_golden_world(void)
{
    BlockRegistry *blocks = NULL;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    if (!blocks) return;
    /* seed 1: coast and hills at the origin; seed 2: dense forest (leaves, plants, shade).
     * Mesh pins updated by Step 10: greedy merging of coplanar faces (mesher_merge.c) and tile-local texture
     * coordinates changed the vertex data; again by Step 10's fewer-triangles work (faces whose colour is
     * affine merge, leaves' faces merge in the alpha-tested subset); and by the far-leaves pass (each slice's
     * alpha-tested part holds its leaves first: the same quads per slice and subset, in another order); and
     * by the half-resolution copies (each slice's part of each subset starts with the slice at 2 x 2 x 2 cells
     * a block: mesher_lod.c), and again when a copy's top at a slice's floor moved to the slice it faces, and
     * when a copy's sides on the chunk's edge came to close the openings of a near neighbour; and by Step 16's
     * leaves (no top or bottom face of leaves across a one-cell air gap to more leaves: seed 2's forest); the
     * cells pins are unchanged. Step 13's faster vertex passes left every pin as it was. Step 17's warm block light (mesher_blocklight.c) left them too: its
     * candle colour comes only from emitters that are not fluids, and these chunks have magma but no torch in reach. Pinned to generator version 3 since
     * version 4 (the climate review, then scatter) came; version 4's pins follow. */
    static const struct {
        uint64_t seed;
        int version;
        uint64_t cells[GOLDEN_CHUNKS], mesh[GOLDEN_CHUNKS];
    } golden[] = {
        {1, 3,
         {0x1de0787ae3596d1aull, 0x671e94d9e8af053eull, 0x870ce65d30904126ull, 0x936c22540ceaac03ull},
         {0x681a2d0451c8564eull, 0xaf5f1a747d57999cull, 0x79d9303f45f872faull, 0x06b569ec259253c2ull}},
        {2, 3,
         {0x68d22223b8373377ull, 0x9dce66a82ab5ee15ull, 0x05001fb2ba215195ull, 0xce6cef483862f8a9ull},
         {0x77b77dee70209ac0ull, 0xa6aba3c229d9b635ull, 0x6bbc7d58d6301451ull, 0x588c10a10d8be693ull}},
        /* version 4: the climate review leaves these chunks as version 3 made them (no top there is frozen
         * above height 120, and the mountain rule stayed); the scatter rules (version 4 too) moved seed 2's
         * (seed 1's chunks there have no tree or plant in either version) */
        {1, 4,
         {0x1de0787ae3596d1aull, 0x671e94d9e8af053eull, 0x870ce65d30904126ull, 0x936c22540ceaac03ull},
         {0x681a2d0451c8564eull, 0xaf5f1a747d57999cull, 0x79d9303f45f872faull, 0x06b569ec259253c2ull}},
        {2, 4, /* the scatter rules: seed 2's forest at the origin */
         {0x0c91a95d68b12d2dull, 0x9b1c3fed8324bef4ull, 0xd045e5b74c05949eull, 0x70c6fab1f42b0f37ull},
         {0xd566f2e19a4cfb67ull, 0x37391e6d9d1e53e5ull, 0x5a58bcd20d9cc51aull, 0xe2ec72a9609b2640ull}},
    };
    for (size_t k = 0; k < sizeof golden / sizeof golden[0]; k++) {
        uint64_t cells[GOLDEN_CHUNKS] = {0};
        GoldenRun run;
        run_world(blocks, golden[k].seed, golden[k].version, cells, &run);
        for (int i = 0; i < GOLDEN_CHUNKS; i++) {
            if (cells[i] != golden[k].cells[i] || run.mesh_hash[i] != golden[k].mesh[i])
                fprintf(stderr, "golden: seed %llu version %d chunk %d,%d cells 0x%016llxull mesh 0x%016llxull\n",
                        (unsigned long long)golden[k].seed, golden[k].version, golden_coords[i][0], golden_coords[i][1],
                        (unsigned long long)cells[i], (unsigned long long)run.mesh_hash[i]);
            CHECK(cells[i] == golden[k].cells[i]);
            CHECK(run.mesh_hash[i] == golden[k].mesh[i]);
        }
    }
    block_registry_destroy(blocks);
}

/* ---- the same world whatever the threads and the order chunks are asked for ---- */

#define AGREE_R 3              /* the visibility square compared: (2 * 3 + 1)^2 chunks */
#define AGREE_SIDE (2 * AGREE_R + 1)

typedef struct AgreeRun {
    uint64_t mesh[AGREE_SIDE * AGREE_SIDE];   /* the last mesh delivered for each chunk of the square */
} AgreeRun;

static void agree_on_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    AgreeRun *run = user;
    int x = chunk->coord_x + AGREE_R, z = chunk->coord_z + AGREE_R;
    if (mesh && x >= 0 && x < AGREE_SIDE && z >= 0 && z < AGREE_SIDE) run->mesh[x + z * AGREE_SIDE] = mesh_hash(mesh);
    chunk_mesh_destroy(mesh);
}

static void agree_until_ready(TerrainUpdater *u, const UpdaterCallbacks *cb)
{
    for (int i = 0; i < 2000; i++) {
        updater_exchange(u, cb);
        if (updater_run_steps(u, 64) == 0 && updater_is_ready(u, 0)) break;
    }
    updater_exchange(u, cb);
    CHECK(updater_is_ready(u, 0));
}

/* Loads seed 2 (version 4: a forest, light under leaves) with `threads` threads; order 0 asks for the square
 * at once, order 1 first for a square three chunks east, then moves there. Returns the hash of the cells
 * and light of the square's chunks; the last meshes in *run. */
static uint64_t agree_world(const BlockRegistry *blocks, int threads, int order, AgreeRun *run)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 2;
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", 4, &g), ST_OK);
    if (!g) return 0;
    Terrain *terrain = terrain_create();
    UpdaterConfig config = { .terrain = terrain, .generator = g, .blocks = blocks, .sky_light = 15,
                             .threaded = false, .threads = threads };
    TerrainUpdater *u = NULL;
    CHECK_EQ_INT(updater_create(&config, &u), ST_OK);
    uint64_t h = 0;
    if (u) {
        memset(run, 0, sizeof *run);
        UpdaterCallbacks cb = { .user = run, .mesh_ready = agree_on_mesh };
        if (order == 1) {
            UpdateLocation east = { .active = true, .x = 56.5f, .z = 8.5f, .visibility_chunks = 2, .content_chunks = 6 };
            updater_set_location(u, 0, &east);
            agree_until_ready(u, &cb);
        }
        UpdateLocation loc = { .active = true, .x = 8.5f, .z = 8.5f, .visibility_chunks = AGREE_R, .content_chunks = 6 };
        updater_set_location(u, 0, &loc);
        agree_until_ready(u, &cb);
        h = 0xcbf29ce484222325ull;
        for (int cz = -AGREE_R; cz <= AGREE_R; cz++) {
            for (int cx = -AGREE_R; cx <= AGREE_R; cx++) {
                TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
                CHECK(c != NULL);
                uint64_t ch = c ? chunk_cells_hash(c) : 0;
                h = fnv(h, &ch, sizeof ch);
            }
        }
        updater_destroy(u);
    }
    terrain_destroy(terrain);
    generator_destroy(g);
    return h;
}

static void test_threads_agree(void)
{
    BlockRegistry *blocks = NULL;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    if (!blocks) return;
    AgreeRun first, run;
    uint64_t want = agree_world(blocks, 1, 0, &first);
    CHECK(want != 0);
    const int cases[][2] = { {1, 1}, {g_threads, 0}, {g_threads, 1}, {3, 1} };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint64_t got = agree_world(blocks, cases[k][0], cases[k][1], &run);
        if (got != want) fprintf(stderr, "threads %d order %d: cells 0x%016llx, 1 thread 0x%016llx\n", cases[k][0],
                                 cases[k][1], (unsigned long long)got, (unsigned long long)want);
        CHECK(got == want);
        int differ = 0;
        for (int i = 0; i < AGREE_SIDE * AGREE_SIDE; i++) {
            CHECK(run.mesh[i] != 0);
            differ += run.mesh[i] != first.mesh[i];
        }
        CHECK_EQ_INT(differ, 0);
    }
    block_registry_destroy(blocks);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            g_threads = atoi(argv[++i]);
        } else {
            fprintf(stderr, "test_golden_world: unknown argument '%s' (expected --threads N)\n", argv[i]);
            return 2;
        }
    }
    if (g_threads < 1) {
        fprintf(stderr, "test_golden_world: --threads wants a number >= 1\n");
        return 2;
    }
    RUN(test_golden_world);
    RUN(test_threads_agree);
    return check_report();
}
