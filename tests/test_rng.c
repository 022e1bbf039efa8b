/* test_rng.c — hashing and random streams: known constants, pinned values, no collisions on a grid,
 * distributions, inclusive integer bounds, determinism. */
#include "check.h"
#include "strata/rng.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_mix_and_fnv_constants(void)
{
    /* splitmix64's first output for seed 0 is mix64(golden increment): a published constant. */
    CHECK(rng_mix64(0x9E3779B97F4A7C15ull) == 0xE220A8397B1DCDAFull);
    CHECK(rng_mix64(0) == 0);
    /* FNV-1a 64 of "" and "a" are the published offset basis and 0xaf63dc4c8601ec8c. */
    CHECK(rng_hash_string("") == rng_mix64(0xCBF29CE484222325ull));
    CHECK(rng_hash_string("a") == rng_mix64(0xAF63DC4C8601EC8Cull));
    CHECK(rng_hash_string(NULL) == rng_hash_string(""));
}

/* These pin the implementation: a change here changes every world generated from a seed. */
static void test_pinned_values(void)
{
    CHECK(rng_hash2(1, 2, 3) == 0x6AEBE34703F1E172ull);
    CHECK(rng_hash3(1, 2, 3, 4) == 0x763DC844472B618Dull);
    CHECK(rng_hash_string("strata") == 0xBDC7F02A3D84E502ull);
    CHECK(rng_derive(1, "temperature") == 0x972C9EF1301D69C3ull);
    Rng r;
    rng_init(&r, 1);
    CHECK(rng_next_u64(&r) == 0x82F826066B9CF0E8ull);
    CHECK(rng_next_u64(&r) == 0xD13795BF3B28F48Bull);
    CHECK(rng_next_u64(&r) == 0x946224B148081F2Cull);
}

static void test_string_hash_order(void)
{
    /* Survivalcraft's summed char*(1+29i) hash collides on these; FNV-1a must not. */
    CHECK(rng_hash_string("ab") != rng_hash_string("ba"));
    CHECK(rng_hash_string("abc") != rng_hash_string("cba"));
    CHECK(rng_hash_string("temperature") != rng_hash_string("humidity"));
    CHECK(rng_derive(1, "temperature") != rng_derive(2, "temperature"));
    CHECK(rng_derive(1, "temperature") != rng_derive(1, "humidity"));
    CHECK(rng_derive(0, "") != 0);
    /* Deterministic. */
    CHECK(rng_derive(12345, "caves") == rng_derive(12345, "caves"));
}

static void test_hash_grid_unique(void)
{
    /* 256 x 256 coordinates (negative included) and a few seeds: no two hashes equal. */
    enum { SIDE = 256, COUNT = SIDE * SIDE * 3 };
    uint64_t *h = malloc(sizeof *h * COUNT);
    size_t n = 0;
    for (uint64_t seed = 0; seed < 3; seed++)
        for (int a = -SIDE / 2; a < SIDE / 2; a++)
            for (int b = -SIDE / 2; b < SIDE / 2; b++) h[n++] = rng_hash2(seed, a, b);
    qsort(h, n, sizeof *h, cmp_u64);
    int dups = 0;
    for (size_t i = 1; i < n; i++) dups += h[i] == h[i - 1];
    CHECK_EQ_INT(dups, 0);

    /* hash3 with c distinguishes layers, and hash2 and hash3 are unrelated. */
    n = 0;
    for (int c = 0; c < 3; c++)
        for (int a = -SIDE / 2; a < SIDE / 2; a++)
            for (int b = -SIDE / 2; b < SIDE / 2; b++) h[n++] = rng_hash3(7, a, b, c);
    qsort(h, n, sizeof *h, cmp_u64);
    dups = 0;
    for (size_t i = 1; i < n; i++) dups += h[i] == h[i - 1];
    CHECK_EQ_INT(dups, 0);
    CHECK(rng_hash3(7, 1, 2, 0) != rng_hash2(7, 1, 2));
    CHECK(rng_hash2(7, 1, 2) != rng_hash2(7, 2, 1));
    CHECK(rng_hash2(7, -1, 0) != rng_hash2(7, 0, -1));
    free(h);
}

static void test_hash_bits_balanced(void)
{
    /* Each output bit is set about half the time over neighbouring coordinates (avalanche). */
    int counts[64] = {0};
    enum { N = 100000 };
    for (int i = 0; i < N; i++) {
        uint64_t v = rng_hash2(99, i % 317, i / 317);
        for (int b = 0; b < 64; b++) counts[b] += (int)((v >> b) & 1);
    }
    int worst = 0;
    for (int b = 0; b < 64; b++) {
        int off = abs(counts[b] - N / 2);
        if (off > worst) worst = off;
    }
    CHECK(worst < N / 100); /* within 1% (5 sigma is ~0.8%) */
}

static void test_float_distribution(void)
{
    Rng r;
    rng_init(&r, 42);
    double sum = 0;
    float lo = 1, hi = 0;
    int buckets[10] = {0};
    enum { N = 1000000 };
    for (int i = 0; i < N; i++) {
        float f = rng_float(&r);
        sum += f;
        if (f < lo) lo = f;
        if (f > hi) hi = f;
        buckets[(int)(f * 10)]++;
    }
    CHECK_NEAR(sum / N, 0.5, 0.01);
    CHECK(lo >= 0.0f && lo < 0.001f);
    CHECK(hi < 1.0f && hi > 0.999f);
    for (int b = 0; b < 10; b++) CHECK(abs(buckets[b] - N / 10) < N / 200);

    for (int i = 0; i < 100000; i++) {
        float f = rng_float_range(&r, -3.0f, 5.0f);
        if (!(f >= -3.0f && f < 5.0f)) { CHECK(0); break; }
    }
    CHECK(rng_float_range(&r, 2.0f, 2.0f) == 2.0f);
}

static void test_int_range(void)
{
    Rng r;
    rng_init(&r, 7);
    int counts[7] = {0};
    enum { N = 700000 };
    for (int i = 0; i < N; i++) {
        int v = rng_int_range(&r, -3, 3);
        if (v < -3 || v > 3) { CHECK(0); return; }
        counts[v + 3]++;
    }
    for (int k = 0; k < 7; k++) CHECK(abs(counts[k] - N / 7) < N / 7 / 20); /* both ends inclusive, uniform */
    CHECK_EQ_INT(rng_int_range(&r, 5, 5), 5);
    CHECK_EQ_INT(rng_int_range(&r, 5, 4), 5);
    /* The full int range must not overflow. */
    int saw_neg = 0, saw_pos = 0;
    for (int i = 0; i < 1000; i++) {
        int v = rng_int_range(&r, INT_MIN, INT_MAX);
        saw_neg |= v < 0;
        saw_pos |= v > 0;
    }
    CHECK(saw_neg && saw_pos);
}

static void test_bool_and_streams(void)
{
    Rng r;
    rng_init(&r, 3);
    int yes = 0;
    enum { N = 1000000 };
    for (int i = 0; i < N; i++) yes += rng_bool(&r, 0.3f);
    CHECK_NEAR((double)yes / N, 0.3, 0.005);
    int never = 0, always = 0;
    for (int i = 0; i < 10000; i++) {
        never += rng_bool(&r, 0.0f);
        always += rng_bool(&r, 1.0f);
    }
    CHECK_EQ_INT(never, 0);
    CHECK_EQ_INT(always, 10000);

    /* Same seed, same stream; neighbouring seeds, unrelated streams (no shifted copies). */
    Rng a, b, c;
    rng_init(&a, 1000);
    rng_init(&b, 1000);
    rng_init(&c, 1001);
    int same = 1, shared = 0;
    uint64_t first_c[64];
    for (int i = 0; i < 64; i++) first_c[i] = rng_next_u64(&c);
    for (int i = 0; i < 64; i++) {
        uint64_t va = rng_next_u64(&a);
        same &= va == rng_next_u64(&b);
        for (int j = 0; j < 64; j++) shared += va == first_c[j];
    }
    CHECK(same);
    CHECK_EQ_INT(shared, 0);
}

int main(void)
{
    RUN(test_mix_and_fnv_constants);
    RUN(test_pinned_values);
    RUN(test_string_hash_order);
    RUN(test_hash_grid_unique);
    RUN(test_hash_bits_balanced);
    RUN(test_float_distribution);
    RUN(test_int_range);
    RUN(test_bool_and_streams);
    return check_report();
}
