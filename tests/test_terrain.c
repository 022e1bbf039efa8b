/* test_terrain.c — the Terrain chunk hash against a brute-force reference under allocate/free churn,
 * with coordinates chosen to collide (same or neighbouring home slots, wrap-around at the table's end,
 * Survivalcraft's (x + (z << 8)) & 0xFFFF collisions, far and negative coordinates); cell access at
 * negative world coordinates; the load limit; chunk reuse from the pool. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "strata/terrain.h"

/* ---- a small deterministic RNG ---- */
static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}
static int rng_range(int lo, int hi) /* inclusive */
{
    return lo + (int)(rng_next() % (uint32_t)(hi - lo + 1));
}

/* ---- candidate coordinates ---- */
#define CAND_MAX 320
typedef struct Cand { int cx, cz; TerrainChunk *chunk; } Cand;
static Cand cands[CAND_MAX];
static int cand_count;

static void cand_add(int cx, int cz)
{
    for (int i = 0; i < cand_count; i++)
        if (cands[i].cx == cx && cands[i].cz == cz) return;
    if (cand_count < CAND_MAX) cands[cand_count++] = (Cand){ cx, cz, NULL };
}

static void make_candidates(void)
{
    /* 1. many keys whose home slots fall in a 12-slot window across the table's wrap-around, and a few
     *    with the very same home slot: long shared probe runs that cross slot 65535 -> 0 */
    int wrap = 0, same = 0;
    while (wrap < 100 || same < 24) {
        int cx = rng_range(-5000, 5000), cz = rng_range(-5000, 5000);
        uint32_t h = terrain_home_slot(cx, cz);
        if ((h >= TERRAIN_CAPACITY - 6 || h < 6) && wrap < 100) { cand_add(cx, cz); wrap++; }
        else if (h == 31337 && same < 24) { cand_add(cx, cz); same++; }
    }
    /* 2. keys that all land in one slot of Survivalcraft's table: (x + (z << 8)) & 0xFFFF == 0 */
    for (int k = -20; k <= 20; k++) cand_add(256 * k, -k);
    for (int k = -10; k <= 10; k++) cand_add(65536 * k, 0);
    for (int k = -10; k <= 10; k++) cand_add(-256 * k + 65536, k);
    /* 3. far apart and negative, including the extremes of the chunk coordinate range */
    const int far[] = { 0, -1, 1, -134217728, 134217727, -99999, 99999, INT32_MAX / 16, INT32_MIN / 16 };
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++)
        for (size_t j = 0; j < sizeof far / sizeof far[0]; j++) cand_add(far[i], far[j]);
    while (cand_count < CAND_MAX) cand_add(rng_range(-2000000, 2000000), rng_range(-2000000, 2000000));
}

/* A value stamped into each chunk, so aliasing between chunks shows up. */
static int32_t stamp_of(int cx, int cz)
{
    return cell_make((int)(((uint32_t)cx * 31u + (uint32_t)cz) & 1023u), (int)(((uint32_t)cz * 7u + (uint32_t)cx) & CELL_DATA_MAX));
}

static int verify_all(const Terrain *t)
{
    int bad = 0, live = 0;
    for (int i = 0; i < cand_count; i++) {
        TerrainChunk *c = terrain_get_chunk(t, cands[i].cx, cands[i].cz);
        if (c != cands[i].chunk) bad++;
        if (c) {
            live++;
            if (c->coord_x != cands[i].cx || c->coord_z != cands[i].cz) bad++;
            if (chunk_get_cell(c, 3, 100, 5) != stamp_of(cands[i].cx, cands[i].cz)) bad++;
        }
    }
    if (terrain_chunk_count(t) != live) bad++;
    for (int i = 0; i < terrain_chunk_count(t); i++) {
        TerrainChunk *c = terrain_chunk_at(t, i);
        if (terrain_get_chunk(t, c->coord_x, c->coord_z) != c) bad++;
    }
    return bad;
}

static void test_churn(void)
{
    make_candidates();
    CHECK_EQ_INT(cand_count, CAND_MAX);
    Terrain *t = terrain_create();
    CHECK(t != NULL);
    int bad = 0, allocs = 0, frees = 0;
    for (int op = 0; op < 200000; op++) {
        Cand *k = &cands[rng_next() % (uint32_t)cand_count];
        if (!k->chunk) {
            k->chunk = terrain_allocate_chunk(t, k->cx, k->cz);
            if (!k->chunk) { bad++; continue; }
            if (chunk_get_cell(k->chunk, 3, 100, 5) != 0 || k->chunk->coord_x != k->cx ||
                k->chunk->origin_z != k->cz * 16 || k->chunk->state != CHUNK_STATE_NOT_LOADED) bad++;
            k->chunk->modification_counter = 5; /* must be reset when reused */
            chunk_set_cell(k->chunk, 3, 100, 5, stamp_of(k->cx, k->cz));
            allocs++;
        } else if (rng_next() % 4 == 0) {
            if (terrain_allocate_chunk(t, k->cx, k->cz) != k->chunk) bad++; /* existing one is returned */
        } else {
            if (rng_next() % 2) {
                terrain_free_chunk(t, k->chunk);
            } else {
                TerrainChunk *c = k->chunk;
                terrain_detach_chunk(t, c);
                if (terrain_get_chunk(t, k->cx, k->cz) != NULL) bad++;
                if (chunk_get_cell(c, 3, 100, 5) != stamp_of(k->cx, k->cz)) bad++; /* still valid memory */
                terrain_recycle_chunk(t, c);
            }
            k->chunk = NULL;
            frees++;
        }
        /* a random lookup after every operation */
        Cand *q = &cands[rng_next() % (uint32_t)cand_count];
        if (terrain_get_chunk(t, q->cx, q->cz) != q->chunk) bad++;
        if (op % 5000 == 0) bad += verify_all(t);
    }
    bad += verify_all(t);
    CHECK_EQ_INT(bad, 0);
    CHECK(allocs > 50000);
    CHECK(frees > 50000);
    /* empty it completely: every lookup then misses */
    for (int i = 0; i < cand_count; i++)
        if (cands[i].chunk) {
            terrain_free_chunk(t, cands[i].chunk);
            cands[i].chunk = NULL;
        }
    CHECK_EQ_INT(terrain_chunk_count(t), 0);
    CHECK_EQ_INT(verify_all(t), 0);
    terrain_destroy(t);
    terrain_destroy(NULL);
}

static void test_coords(void)
{
    CHECK_EQ_INT(chunk_coord_of(-1), -1);
    CHECK_EQ_INT(chunk_local_of(-1), 15);
    CHECK_EQ_INT(chunk_coord_of(-16), -1);
    CHECK_EQ_INT(chunk_local_of(-16), 0);
    CHECK_EQ_INT(chunk_coord_of(-17), -2);
    CHECK_EQ_INT(chunk_local_of(-17), 15);
    CHECK_EQ_INT(chunk_coord_of(0), 0);
    CHECK_EQ_INT(chunk_coord_of(15), 0);
    CHECK_EQ_INT(chunk_local_of(15), 15);
    CHECK_EQ_INT(chunk_coord_of(16), 1);
    CHECK_EQ_INT(chunk_local_of(16), 0);
}

static void test_cells(void)
{
    Terrain *t = terrain_create();
    TerrainChunk *a = terrain_allocate_chunk(t, -1, -1);
    TerrainChunk *b = terrain_allocate_chunk(t, -2, 0);
    CHECK(a && b);
    CHECK_EQ_INT(a->origin_x, -16);
    CHECK_EQ_INT(a->origin_z, -16);
    CHECK(terrain_get_chunk_at_cell(t, -1, -16) == a);
    CHECK(terrain_get_chunk_at_cell(t, -17, 0) == b);
    CHECK(terrain_get_chunk_at_cell(t, -17, -1) == NULL);
    CHECK(terrain_get_chunk_at_cell(t, 0, 0) == NULL);

    CHECK(terrain_set_cell_value(t, -1, 10, -1, cell_make(7, 3)));
    CHECK_EQ_INT(chunk_get_cell(a, 15, 10, 15), cell_make(7, 3));
    CHECK_EQ_INT(terrain_get_cell_value(t, -1, 10, -1), cell_make(7, 3));
    CHECK_EQ_INT(terrain_get_cell_value_fast(t, -1, 10, -1), cell_make(7, 3));
    CHECK(terrain_set_cell_value(t, -16, 0, -16, 9));
    CHECK_EQ_INT(chunk_get_cell(a, 0, 0, 0), 9);
    CHECK(terrain_set_cell_value(t, -17, 255, 15, 11));
    CHECK_EQ_INT(chunk_get_cell(b, 15, 255, 15), 11);
    terrain_set_cell_value_fast(t, -32, 1, 0, 13);
    CHECK_EQ_INT(chunk_get_cell(b, 0, 1, 0), 13);
    CHECK_EQ_INT(terrain_get_cell_value(t, -32, 1, 0), 13);
    /* outside y or without a chunk: air, and sets refused */
    CHECK_EQ_INT(terrain_get_cell_value(t, -1, -1, -1), 0);
    CHECK_EQ_INT(terrain_get_cell_value(t, -1, 256, -1), 0);
    CHECK(!terrain_set_cell_value(t, -1, 256, -1, 5));
    CHECK(!terrain_set_cell_value(t, -1, -1, -1, 5));
    CHECK(!terrain_set_cell_value(t, 0, 10, 0, 5));
    CHECK_EQ_INT(terrain_get_cell_value(t, 0, 10, 0), 0);
    CHECK_EQ_INT(terrain_get_cell_value(t, -17, 10, -1), 0);

    /* a freed chunk comes back from the pool reset */
    a->modification_counter = 3;
    a->flags = CHUNK_FLAG_LOADED;
    a->state = CHUNK_STATE_VALID;
    a->thread_state = CHUNK_STATE_VALID;
    a->worker_flags = 7;
    a->worker_emitter_slices = 0x8001;
    a->worker_warm_emitter_slices = 0x8001;
    a->worker_sky_light = 15;
    a->shafts[CHUNK_SHAFT_INDEX(3, 4)] = 77;
    terrain_free_chunk(t, a);
    CHECK_EQ_INT(terrain_get_cell_value(t, -1, 10, -1), 0);
    TerrainChunk *c = terrain_allocate_chunk(t, 5, 5);
    CHECK(c == a); /* reused, not a fresh allocation */
    CHECK_EQ_INT(chunk_get_cell(c, 15, 10, 15), 0);
    CHECK_EQ_INT(c->modification_counter, 0);
    CHECK_EQ_INT(c->flags, 0);
    CHECK_EQ_INT(c->state, CHUNK_STATE_NOT_LOADED);
    CHECK_EQ_INT(c->thread_state, CHUNK_STATE_NOT_LOADED);
    CHECK_EQ_INT(c->worker_flags, 0);
    CHECK_EQ_INT(c->worker_emitter_slices, 0);
    CHECK_EQ_INT(c->worker_warm_emitter_slices, 0);
    CHECK_EQ_INT(c->worker_sky_light, 0);
    CHECK_EQ_INT(c->shafts[CHUNK_SHAFT_INDEX(3, 4)], 0);
    CHECK(c->worker_geometry == NULL && c->worker_finished_mesh == NULL);
    CHECK_EQ_INT(c->coord_x, 5);
    CHECK_EQ_INT(c->origin_x, 80);

    /* a detached chunk that is never recycled is still freed by destroy (ASan's leak check) */
    terrain_detach_chunk(t, b);
    CHECK_EQ_INT(terrain_chunk_count(t), 1);
    terrain_destroy(t);
}

static void test_limit(void)
{
    Terrain *t = terrain_create_with_limit(64);
    TerrainChunk *chunks[64];
    int ok = 0;
    for (int i = 0; i < 64; i++) {
        chunks[i] = terrain_allocate_chunk(t, i * 1000 - 30000, -i);
        ok += chunks[i] != NULL;
    }
    CHECK_EQ_INT(ok, 64);
    CHECK(terrain_allocate_chunk(t, 1, 1) == NULL);          /* refused past the limit */
    CHECK(terrain_allocate_chunk(t, 1000 - 30000, -1) == chunks[1]); /* existing ones still found */
    terrain_free_chunk(t, chunks[7]);
    CHECK(terrain_allocate_chunk(t, 1, 1) != NULL);
    CHECK(terrain_allocate_chunk(t, 2, 2) == NULL);
    CHECK_EQ_INT(terrain_chunk_count(t), 64);
    terrain_destroy(t);
}

int main(void)
{
    RUN(test_coords);
    RUN(test_cells);
    RUN(test_limit);
    RUN(test_churn);
    return check_report();
}
