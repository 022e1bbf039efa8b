/* update_fixture.h — shared by the update worker tests: a fake in-memory ChunkStorage (counts loads and
 * saves, can fail saves and report a damaged copy), a fixture with the real Terrain, block registry, light
 * and mesher plus the fake generator, mesh/release callbacks that count per chunk, and helpers to run
 * the non-threaded worker until idle and to check an area against one location. One fixture per program. */
#ifndef STRATA_TEST_UPDATE_FIXTURE_H
#define STRATA_TEST_UPDATE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_generator.h"
#include "strata/block.h"
#include "strata/edit.h"
#include "strata/log.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/update_step.h"

/* ---- a fake in-memory ChunkStorage ---- */

#define FAKE_MAX_ENTRIES 64
typedef struct FakeEntry {
    int cx, cz;
    int saves;
    int32_t shafts[CHUNK_SHAFTS];
    int32_t *saved_cells;              /* CHUNK_CELLS, CHUNK_INDEX order */
} FakeEntry;

/* The saved cell (x, y, z) of an entry. */
static inline int32_t fake_saved_cell(const FakeEntry *e, int x, int y, int z)
{
    return e->saved_cells[CHUNK_INDEX(x, y, z)];
}

typedef struct FakeStorage {
    FakeEntry entries[FAKE_MAX_ENTRIES];
    int count;
    bool has_damaged;
    int damaged_cx, damaged_cz;
    int fail_saves;          /* the next N saves fail with ST_ERR_IO */
    int io_error_loads;      /* while > 0, loads of chunk io_cx,io_cz fail with ST_ERR_IO (counting down) */
    int io_cx, io_cz, io_failed_loads;
    int total_saves, failed_saves, loads, bad_saves;
} FakeStorage;

static inline FakeEntry *fake_find(FakeStorage *s, int cx, int cz)
{
    for (int i = 0; i < s->count; i++)
        if (s->entries[i].cx == cx && s->entries[i].cz == cz) return &s->entries[i];
    return NULL;
}

static inline StResult fake_load(void *user, TerrainChunk *chunk)
{
    FakeStorage *s = user;
    s->loads++;
    if (s->io_error_loads > 0 && chunk->coord_x == s->io_cx && chunk->coord_z == s->io_cz) {
        s->io_error_loads--;
        s->io_failed_loads++;
        return st_fail(ST_ERR_IO, "fake region: read: Input/output error");
    }
    if (s->has_damaged && chunk->coord_x == s->damaged_cx && chunk->coord_z == s->damaged_cz) {
        chunk_set_cell(chunk, 1, 200, 1, cell_make(BLOCK_GLASS, 0)); /* a half-decoded blob */
        return st_fail(ST_ERR_FORMAT, "fake region: chunk %d,%d: CRC mismatch", chunk->coord_x, chunk->coord_z);
    }
    FakeEntry *e = fake_find(s, chunk->coord_x, chunk->coord_z);
    if (!e) return ST_ERR_NOT_FOUND;
    chunk_copy_cells_in(chunk, e->saved_cells);
    memcpy(chunk->shafts, e->shafts, sizeof chunk->shafts);
    return ST_OK;
}

static inline StResult fake_save(void *user, const TerrainChunk *chunk)
{
    FakeStorage *s = user;
    if (chunk->modification_counter <= 0 || (chunk->flags & CHUNK_FLAG_DAMAGED_ON_DISK)) s->bad_saves++;
    if (s->fail_saves > 0) {
        s->fail_saves--;
        s->failed_saves++;
        return st_fail(ST_ERR_IO, "fake region: disk full");
    }
    FakeEntry *e = fake_find(s, chunk->coord_x, chunk->coord_z);
    if (!e) {
        if (s->count == FAKE_MAX_ENTRIES) return st_fail(ST_ERR_IO, "fake region: full");
        e = &s->entries[s->count++];
        e->cx = chunk->coord_x;
        e->cz = chunk->coord_z;
        e->saved_cells = malloc(CHUNK_CELLS * sizeof *e->saved_cells);
    }
    chunk_copy_cells_out(chunk, e->saved_cells);
    memcpy(e->shafts, chunk->shafts, sizeof chunk->shafts);
    e->saves++;
    s->total_saves++;
    if (s->has_damaged && chunk->coord_x == s->damaged_cx && chunk->coord_z == s->damaged_cz) s->has_damaged = false;
    return ST_OK;
}

static inline void fake_storage_free(FakeStorage *s)
{
    for (int i = 0; i < s->count; i++) free(s->entries[i].saved_cells);
    memset(s, 0, sizeof *s);
}

/* ---- fixture ---- */

#define MAP_SIDE 512
typedef struct Fixture {
    BlockRegistry *blocks;
    Terrain *terrain;
    Generator gen;
    TerrainUpdater *u;
    UpdaterCallbacks cb;
    FakeStorage storage;
    ChunkStorage chunk_storage;
    int meshes[MAP_SIDE * MAP_SIDE];  /* meshes delivered per chunk since it was allocated */
    int released, total_meshes, bad_meshes;
} Fixture;

static Fixture fx;
static int fx_threads; /* UpdaterConfig.threads of the next fixture_init (0: the default) */

static inline int *mesh_count(int cx, int cz)
{
    return &fx.meshes[((cx + MAP_SIDE / 2) & (MAP_SIDE - 1)) + ((cz + MAP_SIDE / 2) & (MAP_SIDE - 1)) * MAP_SIDE];
}

static inline void on_mesh_ready(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    Fixture *f = user;
    if (!mesh || mesh->coord_x != chunk->coord_x || mesh->coord_z != chunk->coord_z) f->bad_meshes++;
    (*mesh_count(chunk->coord_x, chunk->coord_z))++;
    f->total_meshes++;
    chunk_mesh_destroy(mesh);
}

static inline void on_chunk_released(void *user, TerrainChunk *chunk)
{
    Fixture *f = user;
    f->released++;
    *mesh_count(chunk->coord_x, chunk->coord_z) = 0;
}

static inline void fixture_init(bool threaded, bool with_storage)
{
    memset(&fx, 0, sizeof fx);
    StResult rc = block_registry_load(STRATA_ASSET_DIR "/blocks.json", &fx.blocks);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        exit(1);
    }
    fx.terrain = terrain_create();
    fake_generator_init(&fx.gen, fx.blocks);
    fx.chunk_storage = (ChunkStorage){ .user = &fx.storage, .load = fake_load, .save = fake_save };
    UpdaterConfig config = {
        .terrain = fx.terrain, .generator = &fx.gen, .blocks = fx.blocks,
        .storage = with_storage ? &fx.chunk_storage : NULL, .sky_light = 15, .threaded = threaded,
        .threads = fx_threads,
    };
    CHECK_EQ_INT(updater_create(&config, &fx.u), ST_OK);
    fx.cb = (UpdaterCallbacks){ .user = &fx, .mesh_ready = on_mesh_ready, .chunk_released = on_chunk_released };
}

static inline void fixture_free(void)
{
    updater_destroy(fx.u);
    terrain_destroy(fx.terrain);
    block_registry_destroy(fx.blocks);
    fake_storage_free(&fx.storage);
    CHECK_EQ_INT(fx.bad_meshes, 0);
}

static inline void set_loc(int index, int cx, int cz, int vis, int content)
{
    UpdateLocation loc = { .active = true, .x = cx * 16 + 8.5f, .z = cz * 16 + 8.5f,
                           .visibility_chunks = vis, .content_chunks = content };
    updater_set_location(fx.u, index, &loc);
}

/* Non-threaded: exchange and run steps until the worker has nothing left to do. */
static inline void run_until_idle(void)
{
    int iterations = 0;
    for (;;) {
        updater_exchange(fx.u, &fx.cb);
        if (updater_run_steps(fx.u, 1000000) == 0) break;
        if (++iterations > 1000) break;
    }
    CHECK(iterations <= 1000);
}

static inline int chebyshev(int ax, int az, int bx, int bz)
{
    int dx = abs(ax - bx), dz = abs(az - bz);
    return dx > dz ? dx : dz;
}

/* Every allocated chunk against one location: Valid with exactly one mesh within vis, at least
 * InvalidVertices1 inside the content area, at least InvalidPropagatedLight on its outer ring. */
static inline void check_single_location(int lx, int lz, int vis, int content, bool exact_meshes)
{
    int n = terrain_chunk_count(fx.terrain), wrong = 0, wrong_mesh = 0;
    for (int i = 0; i < n; i++) {
        TerrainChunk *c = terrain_chunk_at(fx.terrain, i);
        int d = chebyshev(c->coord_x, c->coord_z, lx, lz);
        if (d <= vis) {
            if (c->state != CHUNK_STATE_VALID) wrong++;
        } else if (d < content) {
            if (c->state < CHUNK_STATE_INVALID_VERTICES1) wrong++;
        } else if (d == content) {
            if (c->state < CHUNK_STATE_INVALID_PROPAGATED_LIGHT) wrong++;
        } else if (d > content + 1) {
            wrong++; /* should have been released */
        }
        int meshes = *mesh_count(c->coord_x, c->coord_z);
        if (exact_meshes ? meshes != (c->state == CHUNK_STATE_VALID ? 1 : 0)
                         : (c->state == CHUNK_STATE_VALID) != (meshes > 0)) wrong_mesh++;
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(wrong_mesh, 0);
    for (int cz = lz - vis; cz <= lz + vis; cz++)
        for (int cx = lx - vis; cx <= lx + vis; cx++) CHECK(terrain_get_chunk(fx.terrain, cx, cz) != NULL);
}

static inline int32_t stone(void) { return cell_make(BLOCK_STONE, 0); }

#endif
