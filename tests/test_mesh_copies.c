/* test_mesh_copies.c — each chunk builds only the geometry copies it is drawn with (update.h's copy rule,
 * mesher_context_set_copies): real gen24 (seed 1: coast, water, plants, trees) through the non-threaded update
 * worker, once with a viewer location (the game's player) and once without (both copies everywhere, as
 * before). What the renderer draws of each chunk must be the same vertices in both runs: a far-only chunk's
 * half-resolution copy, water, glass and leaves' copy; a near-only chunk's full resolution. Far chunks have no
 * full-resolution opaque faces but keep their water and plants; near chunks have no far copy; moving the
 * player sends a chunk whose wanted copies grew back to be meshed (not ready meanwhile) and the worker builds
 * them; the meshes are the same at 1, 2 and 4 threads (--threads N: the first run's count). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/mesher.h"
#include "strata/render.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

#define VIEW 5                       /* visibility in chunks: chunks -VIEW..VIEW are Valid */
#define SIDE (2 * (VIEW + 8) + 1)    /* the meshes kept: chunks -VIEW-8..VIEW+8 (the player moves 4 east) */
#define OFF (VIEW + 8)

static BlockRegistry *blocks;
static Generator *generator;

typedef struct Run {
    ChunkMesh *mesh[SIDE][SIDE];     /* the latest mesh of each chunk, [cz + OFF][cx + OFF] */
    int meshes;
} Run;

static void on_mesh(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    Run *run = user;
    int x = chunk->coord_x + OFF, z = chunk->coord_z + OFF;
    if (x < 0 || x >= SIDE || z < 0 || z >= SIDE) {
        chunk_mesh_destroy(mesh);
        return;
    }
    chunk_mesh_destroy(run->mesh[z][x]);
    run->mesh[z][x] = mesh;
    run->meshes++;
}

static ChunkMesh *mesh_at(Run *run, int cx, int cz) { return run->mesh[cz + OFF][cx + OFF]; }

static void run_free(Run *run)
{
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++) chunk_mesh_destroy(run->mesh[z][x]);
}

typedef struct World {
    Terrain *terrain;
    TerrainUpdater *updater;
    UpdaterCallbacks cb;
    Run run;
} World;

static UpdateLocation location_at(int cx, int cz, bool viewer)
{
    return (UpdateLocation){ .active = true, .x = cx * 16 + 8.0f, .z = cz * 16 + 8.0f, .visibility_chunks = VIEW,
                             .content_chunks = VIEW + 2, .viewer = viewer, .far_copy_from = RENDER_LOD_FROM };
}

static void world_run(World *w)
{
    for (int i = 0; i < 1000; i++) {
        updater_exchange(w->updater, &w->cb);
        if (updater_run_steps(w->updater, 1000000) == 0 && updater_is_ready(w->updater, 0)) break;
    }
    updater_exchange(w->updater, &w->cb);
    CHECK(updater_is_ready(w->updater, 0));
}

static void world_open(World *w, int threads, bool viewer)
{
    memset(w, 0, sizeof *w);
    w->terrain = terrain_create();
    UpdaterConfig config = { .terrain = w->terrain, .generator = generator, .blocks = blocks, .sky_light = 15,
                             .threaded = false, .threads = threads };
    CHECK_EQ_INT(updater_create(&config, &w->updater), ST_OK);
    w->cb = (UpdaterCallbacks){ .user = &w->run, .mesh_ready = on_mesh, .chunk_released = NULL };
    UpdateLocation loc = location_at(0, 0, viewer);
    updater_set_location(w->updater, 0, &loc);
    world_run(w);
}

static void world_close(World *w)
{
    updater_destroy(w->updater);
    terrain_destroy(w->terrain);
    run_free(&w->run);
}

/* ---- what the renderer draws of a mesh ---- */

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_runs(uint64_t h, const VertexList *list, int runs, const int *first, const int *count, int *vertices)
{
    for (int r = 0; r < runs; r++) {   /* the vertices in order (runs join differently where a part is empty) */
        h = fnv(h, list->data + first[r], sizeof(TerrainVertex) * (size_t)count[r]);
        *vertices += count[r];
    }
    return h;
}

/* The vertices a far (`far` true) or near chunk draws of each subset, hashed, and how many: opaque at that
 * resolution, the transparent subset's far part or all of it, the alpha-tested parts of render_alpha_parts at
 * a distance past RENDER_FAR_LEAVES_FROM. */
static uint64_t drawn_hash(const ChunkMesh *m, bool far, int *vertices)
{
    uint64_t h = 0xcbf29ce484222325ull;
    int first[MESH_SUBSET_COUNT * CHUNK_SLICES], count[MESH_SUBSET_COUNT * CHUNK_SLICES];
    *vertices = 0;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        if (k == MESH_SUBSET_ALPHA_TESTED) continue;
        int zero[MESH_SUBSET_COUNT] = {0}, counts[MESH_SUBSET_COUNT] = {0};
        counts[k] = m->subsets[k].count;
        int runs = chunk_mesh_subset_runs(zero, counts,
                                          (const int (*)[CHUNK_SLICES])m->slice_vertices,
                                          (const int (*)[CHUNK_SLICES])m->lod_vertices, 1u << k, far, 0xFFFF, first,
                                          count);
        h = hash_runs(h, &m->subsets[k], runs, first, count, vertices);
    }
    int parts[2];
    render_alpha_parts(RENDER_LOD_FROM + 10.0f, RENDER_FAR_LEAVES_FROM, far, &parts[0], &parts[1]);
    const int k = MESH_SUBSET_ALPHA_TESTED;
    for (int p = 0; p < 2; p++) {
        if (parts[p] < 0) continue;
        int runs = chunk_mesh_alpha_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k],
                                         m->alpha_leaf_vertices, (MeshAlphaPart)parts[p], 0xFFFF, first, count);
        h = hash_runs(h, &m->subsets[k], runs, first, count, vertices);
    }
    return h;
}

/* Vertices of one alpha-tested part, hashed (plants, torches: MESH_ALPHA_REST). */
static uint64_t alpha_part_hash(const ChunkMesh *m, MeshAlphaPart part, int *vertices)
{
    int first[CHUNK_SLICES], count[CHUNK_SLICES];
    const int k = MESH_SUBSET_ALPHA_TESTED;
    int runs = chunk_mesh_alpha_runs(0, m->subsets[k].count, m->slice_vertices[k], m->lod_vertices[k],
                                     m->alpha_leaf_vertices, part, 0xFFFF, first, count);
    *vertices = 0;
    return hash_runs(0xcbf29ce484222325ull, &m->subsets[k], runs, first, count, vertices);
}

static uint64_t mesh_hash(const ChunkMesh *m)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        h = fnv(h, &m->subsets[s].count, sizeof m->subsets[s].count);
        if (m->subsets[s].count > 0) h = fnv(h, m->subsets[s].data, sizeof(TerrainVertex) * (size_t)m->subsets[s].count);
        h = fnv(h, m->lod_vertices[s], sizeof m->lod_vertices[s]);
    }
    return fnv(h, &m->far_only, sizeof m->far_only);
}

/* Chunk (cx, cz) of `viewed` against the same chunk of `both` (built with both copies): it has the copies
 * `wanted`, and each draws the same vertices. Adds the far-only chunk's water and plants to the totals. */
static void check_chunk(const ChunkMesh *viewed, const ChunkMesh *both, unsigned wanted, int *far_only_chunks,
                        int *far_water, int *far_plants)
{
    CHECK(viewed != NULL && both != NULL);
    if (!viewed || !both) return;
    CHECK_EQ_INT(viewed->lod, (wanted & MESH_COPY_FAR) != 0);
    CHECK_EQ_INT(viewed->far_only, (wanted & MESH_COPY_FULL) == 0);
    int a, b;
    if (wanted & MESH_COPY_FAR) {
        CHECK(drawn_hash(viewed, true, &a) == drawn_hash(both, true, &b));
        CHECK_EQ_INT(a, b);
        CHECK(alpha_part_hash(viewed, MESH_ALPHA_REST, &a) == alpha_part_hash(both, MESH_ALPHA_REST, &b));
        CHECK_EQ_INT(a, b);   /* plants and other cut-outs kept */
    }
    if (wanted & MESH_COPY_FULL) {
        CHECK(drawn_hash(viewed, false, &a) == drawn_hash(both, false, &b));
        CHECK_EQ_INT(a, b);
    }
    if (!(wanted & MESH_COPY_FAR)) {   /* near only: no half-resolution copy at all */
        for (int k = 0; k < MESH_SUBSET_ALPHA_TESTED + 1; k++) CHECK_EQ_INT(chunk_mesh_subset_vertices(viewed, k, true), 0);
    }
    if (!(wanted & MESH_COPY_FULL)) {  /* far only: no full-resolution opaque cube faces nor leaves */
        (*far_only_chunks)++;
        for (int k = MESH_SUBSET_OPAQUE_POS_Z; k <= MESH_SUBSET_OPAQUE_NEG_X; k++)
            CHECK_EQ_INT(chunk_mesh_subset_vertices(viewed, k, false), 0);
        CHECK_EQ_INT(chunk_mesh_alpha_part_vertices(viewed, MESH_ALPHA_LEAVES), 0);
        CHECK_EQ_INT(chunk_mesh_subset_vertices(viewed, MESH_SUBSET_OPAQUE_OTHER, false), 0);   /* snow cover too */
        *far_water += chunk_mesh_subset_vertices(viewed, MESH_SUBSET_TRANSPARENT, true);
        int plants;
        alpha_part_hash(viewed, MESH_ALPHA_REST, &plants);
        *far_plants += plants;
    }
}

static void test_copy_rule(void)
{
    UpdateLocation loc = location_at(0, 0, true);
    /* chunk centres 16, 32, 48, 64 blocks east of the player */
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 1, 0), MESH_COPY_FULL);
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 2, 0), MESH_COPIES_BOTH);
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 3, 0), MESH_COPIES_BOTH);
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 4, 0), MESH_COPY_FAR);
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 0, 0), MESH_COPY_FULL);
    loc.viewer = false;   /* tests and tools: both */
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 4, 0), MESH_COPIES_BOTH);
    loc.viewer = true;
    loc.far_copy_from = 0.0f;   /* the renderer never draws the far copy */
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 6, 0), MESH_COPY_FULL);
    loc.active = false;
    CHECK_EQ_INT(updater_copies_wanted(&loc, 1, 4, 0), MESH_COPIES_BOTH);
    /* the renderer draws the copy a chunk has: the far one if that is all, at any distance */
    CHECK(render_chunk_draws_far(true, true, 5.0f, RENDER_LOD_FROM));
    CHECK(!render_chunk_draws_far(true, false, 5.0f, RENDER_LOD_FROM));
    CHECK(render_chunk_draws_far(true, false, 60.0f, RENDER_LOD_FROM));
    CHECK(!render_chunk_draws_far(false, false, 60.0f, RENDER_LOD_FROM));
}

static int g_threads = 1;

static void test_copies_by_distance(void)
{
    World viewed, both;
    world_open(&viewed, g_threads, true);
    world_open(&both, 1, false);
    UpdateLocation loc = location_at(0, 0, true);
    int far_only = 0, water = 0, plants = 0;
    long viewed_vertices = 0, both_vertices = 0;
    for (int cz = -VIEW; cz <= VIEW; cz++)
        for (int cx = -VIEW; cx <= VIEW; cx++) {
            ChunkMesh *a = mesh_at(&viewed.run, cx, cz), *b = mesh_at(&both.run, cx, cz);
            check_chunk(a, b, updater_copies_wanted(&loc, 1, cx, cz), &far_only, &water, &plants);
            viewed_vertices += chunk_mesh_vertex_count(a);
            both_vertices += chunk_mesh_vertex_count(b);
        }
    CHECK(far_only > 60);      /* of 121: all but those within 64 blocks */
    CHECK(water > 0);          /* seed 1's sea, in far chunks */
    CHECK(plants > 0);         /* and its grass and flowers */
    CHECK(viewed_vertices < both_vertices * 3 / 4);

    /* The meshes do not depend on the thread count. */
    for (int threads = 2; threads <= 4; threads += 2) {
        World again;
        world_open(&again, threads, true);
        for (int cz = -VIEW; cz <= VIEW; cz++)
            for (int cx = -VIEW; cx <= VIEW; cx++) {
                ChunkMesh *a = mesh_at(&viewed.run, cx, cz), *c = mesh_at(&again.run, cx, cz);
                CHECK(a && c && mesh_hash(a) == mesh_hash(c));
            }
        world_close(&again);
    }

    /* The player walks 4 chunks east: chunk (4, 0), far only, is near now; (-1, 0), near only, is far. Both
     * are sent back at once (not ready until built) and rebuilt with the copies they lacked. */
    loc = location_at(4, 0, true);
    updater_set_location(viewed.updater, 0, &loc);
    updater_exchange(viewed.updater, &viewed.cb);
    CHECK(terrain_get_chunk(viewed.terrain, 4, 0)->state < CHUNK_STATE_VALID);
    CHECK(terrain_get_chunk(viewed.terrain, -1, 0)->state < CHUNK_STATE_VALID);
    CHECK(terrain_get_chunk(viewed.terrain, 2, 0)->state == CHUNK_STATE_VALID);   /* had both */
    CHECK(!updater_is_ready(viewed.updater, 0));
    UpdateLocation both_loc = location_at(4, 0, false);
    updater_set_location(both.updater, 0, &both_loc);
    world_run(&viewed);
    world_run(&both);
    far_only = water = plants = 0;
    for (int cz = -VIEW; cz <= VIEW; cz++)
        for (int cx = 4 - VIEW; cx <= 4 + VIEW; cx++) {
            ChunkMesh *a = mesh_at(&viewed.run, cx, cz), *b = mesh_at(&both.run, cx, cz);
            unsigned wanted = updater_copies_wanted(&loc, 1, cx, cz);
            CHECK(a && b);
            if (!a || !b) continue;
            /* a chunk keeps a copy it no longer needs until it is meshed again: check what it must have */
            unsigned has = (a->lod ? MESH_COPY_FAR : 0) | (a->far_only ? 0 : MESH_COPY_FULL);
            CHECK_EQ_INT(has & wanted, wanted);
            int x, y;
            if (wanted & MESH_COPY_FAR) CHECK(drawn_hash(a, true, &x) == drawn_hash(b, true, &y) && x == y);
            if (wanted & MESH_COPY_FULL) CHECK(drawn_hash(a, false, &x) == drawn_hash(b, false, &y) && x == y);
        }
    ChunkMesh *east = mesh_at(&viewed.run, 4, 0), *west = mesh_at(&viewed.run, -1, 0);
    CHECK(east && !east->far_only);
    CHECK(west && west->lod);
    world_close(&viewed);
    world_close(&both);
}

/* The threaded worker (the game's): a viewer walks 3 chunks east in steps of 8 blocks, exchanging every
 * millisecond; once ready again every chunk in view has the copies it wants (ThreadSanitizer watches the
 * exchange sending chunks back while the worker and its pool run). */
static void test_copies_threaded_walk(void)
{
    World w;
    memset(&w, 0, sizeof w);
    w.terrain = terrain_create();
    UpdaterConfig config = { .terrain = w.terrain, .generator = generator, .blocks = blocks, .sky_light = 15,
                             .threaded = true, .threads = g_threads > 1 ? g_threads : 2 };
    CHECK_EQ_INT(updater_create(&config, &w.updater), ST_OK);
    w.cb = (UpdaterCallbacks){ .user = &w.run, .mesh_ready = on_mesh, .chunk_released = NULL };
    UpdateLocation loc = location_at(0, 0, true);
    for (int step = 0; step <= 6; step++) {
        loc.x = 8.0f + 8.0f * (float)step;
        updater_set_location(w.updater, 0, &loc);
        bool ready = false;
        for (int frame = 0; frame < 60000 && !ready; frame++) {
            updater_exchange(w.updater, &w.cb);
            ready = updater_is_ready(w.updater, 0);
            if (!ready) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        CHECK(ready);
    }
    int lx = chunk_coord_of((int)loc.x);
    for (int cz = -VIEW; cz <= VIEW; cz++)
        for (int cx = lx - VIEW; cx <= lx + VIEW; cx++) {
            const ChunkMesh *m = mesh_at(&w.run, cx, cz);
            CHECK(m != NULL);
            if (!m) continue;
            unsigned wanted = updater_copies_wanted(&loc, 1, cx, cz);
            unsigned has = (m->lod ? MESH_COPY_FAR : 0) | (m->far_only ? 0 : MESH_COPY_FULL);
            CHECK_EQ_INT(has & wanted, wanted);
        }
    updater_destroy(w.updater);
    terrain_destroy(w.terrain);
    run_free(&w.run);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--threads") == 0) g_threads = atoi(argv[i + 1]);
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 1;
    if (generator_create(&s, blocks, "assets/worldgen.json", &generator) != ST_OK) {
        fprintf(stderr, "cannot create the generator: %s\n", st_error_message());
        return 1;
    }
    RUN(test_copy_rule);
    RUN(test_copies_by_distance);
    RUN(test_copies_threaded_walk);
    generator_destroy(generator);
    block_registry_destroy(blocks);
    return check_report();
}
