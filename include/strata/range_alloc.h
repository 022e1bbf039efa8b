/* range_alloc.h — a range allocator over [0, capacity) units (no GL, no I/O).
 *
 * Purpose: first fit over a free list sorted by offset, neighbouring free ranges coalesced on every
 * give-back, so the list never holds two touching ranges. The renderer's geometry arenas (big VBOs,
 * src/render/chunk_buffers.c) count vertices with it; tests/test_range_alloc.c drives it alone.
 * Ownership: a RangeAlloc owns its free list (range_alloc_free releases it); the caller owns the struct.
 * Threading: none inside; one thread at a time per RangeAlloc (the renderer's: the main thread). */
#ifndef STRATA_RANGE_ALLOC_H
#define STRATA_RANGE_ALLOC_H

#include <stdbool.h>

typedef struct RangeSpan {
    int offset, size;
} RangeSpan;

typedef struct RangeAlloc {
    int capacity;                 /* units */
    int used;                     /* units handed out */
    RangeSpan *free_ranges;      /* sorted by offset, none touching */
    int free_count, free_capacity;
} RangeAlloc;

/* One free range of `capacity` units. False when out of memory (the allocator is left empty). */
bool range_alloc_init(RangeAlloc *arena, int capacity);
void range_alloc_free(RangeAlloc *arena);
/* The lowest offset where `size` (> 0) units fit (first fit), or -1 when no free range is large enough. */
int range_alloc_take(RangeAlloc *arena, int size);
/* Returns a range taken before; it merges with free neighbours. False only when the free list cannot grow
 * (out of memory: the range is lost to this arena, nothing else breaks). */
bool range_alloc_give(RangeAlloc *arena, int offset, int size);
/* The largest free range, in units (0 when full). */
int range_alloc_largest_free(const RangeAlloc *arena);

#endif
