/* test_range_alloc.c — the range allocator of the geometry arenas (strata/range_alloc.h, no GL): first fit,
 * coalescing with either and both neighbours, a full arena refusing, and a random churn checked against a
 * brute-force occupancy map (no overlap, every unit accounted for, one free range once all is returned). */
#include "check.h"
#include "strata/range_alloc.h"

#include <stdint.h>
#include <stdlib.h>

/* The free list is sorted, non-empty ranges, none touching, inside the capacity, and used + free = capacity. */
static void check_invariants(const RangeAlloc *a)
{
    long free_units = 0;
    bool ok = true;
    for (int i = 0; i < a->free_count; i++) {
        const RangeSpan *r = &a->free_ranges[i];
        ok = ok && r->size > 0 && r->offset >= 0 && r->offset + r->size <= a->capacity;
        if (i > 0)
            ok = ok && a->free_ranges[i - 1].offset + a->free_ranges[i - 1].size < r->offset;
        free_units += r->size;
    }
    CHECK(ok);
    CHECK_EQ_INT(free_units + a->used, a->capacity);
}

static void test_first_fit_and_coalescing(void)
{
    RangeAlloc a;
    CHECK(range_alloc_init(&a, 1000));
    CHECK_EQ_INT(range_alloc_take(&a, 100), 0);
    CHECK_EQ_INT(range_alloc_take(&a, 200), 100);
    CHECK_EQ_INT(range_alloc_take(&a, 300), 300);
    CHECK_EQ_INT(range_alloc_largest_free(&a), 400);
    CHECK_EQ_INT(range_alloc_take(&a, 401), -1);        /* does not fit anywhere */
    CHECK_EQ_INT(range_alloc_take(&a, 0), -1);
    /* a hole at 100..300: first fit puts a small request there, a large one after 600 */
    CHECK(range_alloc_give(&a, 100, 200));
    CHECK_EQ_INT(a.free_count, 2);
    CHECK_EQ_INT(range_alloc_take(&a, 250), 600);
    CHECK_EQ_INT(range_alloc_take(&a, 50), 100);
    check_invariants(&a);
    /* free now: 150..300 and 850..1000; 0..100 touches neither (100..150 is taken) */
    CHECK(range_alloc_give(&a, 0, 100));
    CHECK_EQ_INT(a.free_ranges[0].offset, 0);
    CHECK_EQ_INT(a.free_ranges[0].size, 100);
    CHECK(range_alloc_give(&a, 100, 50));              /* joins both: 0..100 and 150..300 */
    CHECK_EQ_INT(a.free_ranges[0].offset, 0);
    CHECK_EQ_INT(a.free_ranges[0].size, 300);
    check_invariants(&a);
    CHECK(range_alloc_give(&a, 600, 250));             /* joins the tail 850..1000 */
    CHECK(range_alloc_give(&a, 300, 300));             /* joins both: one range again */
    CHECK_EQ_INT(a.free_count, 1);
    CHECK_EQ_INT(a.used, 0);
    CHECK_EQ_INT(range_alloc_largest_free(&a), 1000);
    check_invariants(&a);
    range_alloc_free(&a);
}

static void test_full_arena(void)
{
    RangeAlloc a;
    CHECK(range_alloc_init(&a, 64));
    CHECK_EQ_INT(range_alloc_take(&a, 64), 0);
    CHECK_EQ_INT(a.free_count, 0);
    CHECK_EQ_INT(range_alloc_largest_free(&a), 0);
    CHECK_EQ_INT(range_alloc_take(&a, 1), -1);
    CHECK(range_alloc_give(&a, 0, 64));
    CHECK_EQ_INT(range_alloc_take(&a, 64), 0);
    range_alloc_free(&a);
}

/* Random takes and gives against an occupancy map of the units. */
static void test_churn(void)
{
    enum { CAP = 4096, SLOTS = 200 };
    RangeAlloc a;
    CHECK(range_alloc_init(&a, CAP));
    static uint8_t owner[CAP];
    int offset[SLOTS], size[SLOTS];
    for (int i = 0; i < SLOTS; i++) offset[i] = -1;
    uint32_t seed = 12345;
    int overlaps = 0, failures_with_room = 0;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 1664525u + 1013904223u;
        int s = (int)((seed >> 8) % SLOTS);
        if (offset[s] < 0) {
            int n = 1 + (int)((seed >> 20) % 96);
            int o = range_alloc_take(&a, n);
            if (o < 0) {
                /* refused only when no run of n free units exists */
                int run = 0, best = 0;
                for (int u = 0; u < CAP; u++) { run = owner[u] ? 0 : run + 1; if (run > best) best = run; }
                failures_with_room += best >= n;
                continue;
            }
            for (int u = o; u < o + n; u++) { overlaps += owner[u] != 0; owner[u] = 1; }
            offset[s] = o;
            size[s] = n;
        } else {
            CHECK(range_alloc_give(&a, offset[s], size[s]));
            for (int u = offset[s]; u < offset[s] + size[s]; u++) owner[u] = 0;
            offset[s] = -1;
        }
    }
    CHECK_EQ_INT(overlaps, 0);
    CHECK_EQ_INT(failures_with_room, 0);
    check_invariants(&a);
    for (int i = 0; i < SLOTS; i++)
        if (offset[i] >= 0) CHECK(range_alloc_give(&a, offset[i], size[i]));
    CHECK_EQ_INT(a.free_count, 1);
    CHECK_EQ_INT(a.used, 0);
    range_alloc_free(&a);
}

int main(void)
{
    RUN(test_first_fit_and_coalescing);
    RUN(test_full_arena);
    RUN(test_churn);
    return check_report();
}
