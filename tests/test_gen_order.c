/* test_gen_order.c — a chunk's contents are a pure function of (seed, settings, chunk coordinates).
 *
 * Generates a square of chunks in row order (the reference), then again in reverse order, in several
 * random orders, each chunk with a fresh GenContext (cold caches), with one context shared by two
 * generators, with 1 and 2 threads (pthreads, tests only), with 2 and 4 threads sharing a GenSharedCache, and
 * two contexts sharing one after the other (the second takes copies), and compares a hash of every chunk's cells
 * and shafts: all must be equal. Also checks that caves and pockets never leave water next to air, across
 * chunk borders included (caves do not drain the sea). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/rng.h"

#define SIDE 6
#define CX0 (-9)   /* chunks -9..-4: x, z in -144..-49, across the ocean corner's shore */
#define CZ0 (-9)
#define COUNT (SIDE * SIDE)

static BlockRegistry *blocks;

static uint64_t chunk_hash(const TerrainChunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *p = (const unsigned char *)chunk_cell_view_const(c).cells;
    for (size_t i = 0; i < CHUNK_CELLS * sizeof(int32_t); i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    p = (const unsigned char *)c->shafts;
    for (size_t i = 0; i < sizeof c->shafts; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static Generator *make(uint64_t seed)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = seed;
    Generator *g = NULL;
    if (generator_create(&s, blocks, "assets/worldgen.json", &g) != ST_OK)
        fprintf(stderr, "generator_create: %s\n", st_error_message());
    return g;
}

/* Generates chunk `index` of the square (passes run one at a time, as the update worker does). */
static uint64_t gen_index(const Generator *g, GenContext *ctx, TerrainChunk *c, int index)
{
    chunk_reset(c, CX0 + index % SIDE, CZ0 + index / SIDE);
    for (int p = 1; p <= 4; p++)
        generator_run_pass(g, p, c, ctx);
    return chunk_hash(c);
}

static void shuffle(int *order, int n, uint64_t seed)
{
    Rng rng;
    rng_init(&rng, seed);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_int_range(&rng, 0, i);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static int mismatches(const uint64_t *a, const uint64_t *b)
{
    int n = 0;
    for (int i = 0; i < COUNT; i++)
        n += a[i] != b[i];
    return n;
}

/* ---- threads ---- */

typedef struct Job {
    const Generator *g;
    GenSharedCache *shared;   /* the threads' contexts share their derivations through it, or NULL */
    const int *order;
    atomic_int next;
    uint64_t *hashes;
} Job;

static void *worker(void *arg)
{
    Job *job = arg;
    GenContext *ctx = gen_context_create();
    gen_context_share(ctx, job->shared);
    TerrainChunk *c = calloc(1, sizeof *c);
    for (;;) {
        int k = atomic_fetch_add(&job->next, 1);
        if (k >= COUNT)
            break;
        int index = job->order[k];
        job->hashes[index] = gen_index(job->g, ctx, c, index);
    }
    chunk_destroy(c);
    gen_context_destroy(ctx);
    return NULL;
}

static void run_threads(const Generator *g, const int *order, int threads, uint64_t *hashes, GenSharedCache *shared)
{
    Job job;
    job.g = g;
    job.shared = shared;
    job.order = order;
    job.hashes = hashes;
    atomic_init(&job.next, 0);
    pthread_t t[4];
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, worker, &job);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
}

static void test_order_and_threads(uint64_t seed)
{
    Generator *g = make(seed);
    CHECK(g != NULL);
    if (!g) return;
    TerrainChunk *c = calloc(1, sizeof *c);
    uint64_t reference[COUNT], other[COUNT];
    int order[COUNT];

    GenContext *ctx = gen_context_create();
    for (int i = 0; i < COUNT; i++)
        reference[i] = gen_index(g, ctx, c, i);
    gen_context_destroy(ctx);

    /* reverse order, warm context */
    ctx = gen_context_create();
    for (int i = COUNT - 1; i >= 0; i--)
        other[i] = gen_index(g, ctx, c, i);
    CHECK_EQ_INT(mismatches(reference, other), 0);
    /* the same context again: every cache entry is warm now */
    for (int i = 0; i < COUNT; i++)
        other[i] = gen_index(g, ctx, c, i);
    CHECK_EQ_INT(mismatches(reference, other), 0);
    gen_context_destroy(ctx);

    /* random orders, a fresh context per chunk (no cached caves or trees at all) */
    for (int r = 0; r < 2; r++) {
        shuffle(order, COUNT, seed * 31 + (uint64_t)r);
        for (int k = 0; k < COUNT; k++) {
            GenContext *fresh = gen_context_create();
            other[order[k]] = gen_index(g, fresh, c, order[k]);
            gen_context_destroy(fresh);
        }
        CHECK_EQ_INT(mismatches(reference, other), 0);
    }

    /* passes interleaved across chunks: pass 1 of all, then pass 2 of all, ... (one context) */
    {
        TerrainChunk *all = calloc(COUNT, sizeof *all);
        shuffle(order, COUNT, seed + 99);
        ctx = gen_context_create();
        for (int k = 0; k < COUNT; k++)
            chunk_reset(&all[order[k]], CX0 + order[k] % SIDE, CZ0 + order[k] / SIDE);
        for (int p = 1; p <= 4; p++)
            for (int k = 0; k < COUNT; k++)
                generator_run_pass(g, p, &all[order[(k * 7 + p) % COUNT]], ctx);
        for (int i = 0; i < COUNT; i++)
            other[i] = chunk_hash(&all[i]);
        CHECK_EQ_INT(mismatches(reference, other), 0);
        gen_context_destroy(ctx);
        for (int i = 0; i < COUNT; i++) chunk_release_storage(&all[i]);
        free(all);
    }

    /* 1 and 2 threads, random orders; then 2 and 4 threads sharing their derivations (as the job pool's do) */
    for (int threads = 1; threads <= 2; threads++) {
        shuffle(order, COUNT, seed * 7 + (uint64_t)threads);
        memset(other, 0, sizeof other);
        run_threads(g, order, threads, other, NULL);
        CHECK_EQ_INT(mismatches(reference, other), 0);
    }
    for (int threads = 2; threads <= 4; threads += 2) {
        GenSharedCache *shared = gen_shared_cache_create();
        CHECK(shared != NULL);
        shuffle(order, COUNT, seed * 13 + (uint64_t)threads);
        memset(other, 0, sizeof other);
        run_threads(g, order, threads, other, shared);
        CHECK_EQ_INT(mismatches(reference, other), 0);
        gen_shared_cache_destroy(shared);
    }
    chunk_destroy(c);
    generator_destroy(g);
}

/* Each chunk of the square by generators a and b, each with a fresh context (no cache at all). */
static void fresh_references(const Generator *a, const Generator *b, TerrainChunk *c, uint64_t *ref_a, uint64_t *ref_b)
{
    for (int i = 0; i < COUNT; i++) {
        GenContext *fresh = gen_context_create();
        ref_a[i] = gen_index(a, fresh, c, i);
        gen_context_destroy(fresh);
        fresh = gen_context_create();
        ref_b[i] = gen_index(b, fresh, c, i);
        gen_context_destroy(fresh);
    }
}

/* One context shared by generators of different seeds: the caches are keyed by the generator's inputs. */
static void test_shared_context(void)
{
    Generator *a = make(11), *b = make(12), *a2 = make(11);
    if (!a || !b || !a2) return;
    TerrainChunk *c = calloc(1, sizeof *c);
    uint64_t ref_a[COUNT], ref_b[COUNT];
    fresh_references(a, b, c, ref_a, ref_b);
    GenContext *ctx = gen_context_create();
    int bad = 0;
    for (int i = 0; i < COUNT; i++) {
        bad += gen_index(a, ctx, c, i) != ref_a[i];
        bad += gen_index(b, ctx, c, i) != ref_b[i];
        bad += gen_index(a2, ctx, c, i) != ref_a[i]; /* an equal generator may reuse a's entries */
    }
    CHECK_EQ_INT(bad, 0);
    int differ = 0;
    for (int i = 0; i < COUNT; i++)
        differ += ref_a[i] != ref_b[i];
    CHECK_EQ_INT(differ, COUNT);
    gen_context_destroy(ctx);
    chunk_destroy(c);
    generator_destroy(a);
    generator_destroy(b);
    generator_destroy(a2);
}

/* Two contexts sharing a GenSharedCache, one after the other: the second finds every source the first
 * derived (hits, copies), also across generators of other seeds in the same cache, and every chunk is the
 * same as a fresh unshared context makes it. */
static void test_shared_cache(void)
{
    Generator *a = make(11), *b = make(12), *a2 = make(11);
    if (!a || !b || !a2) return;
    TerrainChunk *c = calloc(1, sizeof *c);
    uint64_t ref_a[COUNT], ref_b[COUNT];
    fresh_references(a, b, c, ref_a, ref_b);
    GenSharedCache *shared = gen_shared_cache_create();
    CHECK(shared != NULL);
    GenContext *first = gen_context_create(), *second = gen_context_create();
    gen_context_share(first, shared);
    gen_context_share(second, shared);
    int bad = 0;
    for (int i = 0; i < COUNT; i++) {
        bad += gen_index(a, first, c, i) != ref_a[i];
        bad += gen_index(b, first, c, i) != ref_b[i];
    }
    long hits0, offers0, hits1, offers1;
    gen_shared_cache_counts(shared, &hits0, &offers0);
    CHECK(offers0 > 0);   /* the first context derived and offered */
    for (int i = COUNT - 1; i >= 0; i--) {
        bad += gen_index(a2, second, c, i) != ref_a[i];   /* an equal generator: a's copies */
        bad += gen_index(b, second, c, i) != ref_b[i];
    }
    gen_shared_cache_counts(shared, &hits1, &offers1);
    CHECK_EQ_INT(bad, 0);
    CHECK(hits1 > hits0);          /* the second context took copies */
    CHECK(offers1 - offers0 < (offers0 + 9) / 10);   /* and derived (almost) nothing again */
    gen_context_destroy(first);
    gen_context_destroy(second);
    gen_shared_cache_destroy(shared);
    chunk_destroy(c);
    generator_destroy(a);
    generator_destroy(b);
    generator_destroy(a2);
}

/* ---- water never touches air (sideways or below), across chunk borders too ---- */

static TerrainChunk *area[SIDE][SIDE];

static int cell_at(int x, int y, int z)
{
    if (x < 0 || z < 0 || x >= SIDE * 16 || z >= SIDE * 16 || y < 0 || y > 255)
        return -1;
    return cell_contents(chunk_get_cell(area[z >> 4][x >> 4], x & 15, y, z & 15));
}

static void test_water_sealed(void)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        Generator *g = make(seed);
        if (!g) continue;
        GenContext *ctx = gen_context_create();
        for (int i = 0; i < COUNT; i++) {
            area[i / SIDE][i % SIDE] = calloc(1, sizeof(TerrainChunk));
            gen_index(g, ctx, area[i / SIDE][i % SIDE], i);
        }
        long water = 0, leaks = 0, air_below_sea = 0;
        for (int z = 1; z < SIDE * 16 - 1; z++)
            for (int x = 1; x < SIDE * 16 - 1; x++)
                for (int y = 1; y <= g->ocean_level(g); y++) {
                    int v = cell_at(x, y, z);
                    air_below_sea += v == BLOCK_AIR;
                    if (v != BLOCK_WATER)
                        continue;
                    water++;
                    if (cell_at(x + 1, y, z) == BLOCK_AIR || cell_at(x - 1, y, z) == BLOCK_AIR ||
                        cell_at(x, y, z + 1) == BLOCK_AIR || cell_at(x, y, z - 1) == BLOCK_AIR ||
                        cell_at(x, y - 1, z) == BLOCK_AIR)
                        leaks++;
                }
        CHECK(water > 1000);         /* the area has sea */
        CHECK(air_below_sea > 1000); /* and caves below the sea level */
        CHECK_EQ_INT(leaks, 0);
        for (int i = 0; i < COUNT; i++)
            chunk_destroy(area[i / SIDE][i % SIDE]);
        gen_context_destroy(ctx);
        generator_destroy(g);
    }
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "blocks: %s\n", st_error_message());
        return 1;
    }
    fprintf(stderr, "-- order and threads, seed 1\n");
    test_order_and_threads(1);
    fprintf(stderr, "-- order and threads, seed 987654321\n");
    test_order_and_threads(987654321);
    RUN(test_shared_context);
    RUN(test_shared_cache);
    RUN(test_water_sealed);
    block_registry_destroy(blocks);
    return check_report();
}
