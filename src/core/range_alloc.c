/* range_alloc.c — first-fit range allocator with coalescing (strata/range_alloc.h).
 *
 * Design: the free ranges are a dense array sorted by offset. Take scans for the first range that fits and
 * cuts the request from its front (a range used up is removed). Give finds the insertion point by binary
 * search and merges with the range before and/or after when they touch, so the array stays sorted with no
 * two touching ranges and a fully released arena is one range again. The array is short in practice (a few
 * hundred holes at most for thousands of chunks), so linear first fit costs little next to an upload. */
#include "strata/range_alloc.h"

#include <stdlib.h>
#include <string.h>

bool range_alloc_init(RangeAlloc *arena, int capacity)
{
    memset(arena, 0, sizeof *arena);
    arena->free_capacity = 16;
    arena->free_ranges = malloc((size_t)arena->free_capacity * sizeof *arena->free_ranges);
    if (!arena->free_ranges) {
        arena->free_capacity = 0;
        return false;
    }
    arena->capacity = capacity;
    if (capacity > 0) {
        arena->free_ranges[0] = (RangeSpan){ 0, capacity };
        arena->free_count = 1;
    }
    return true;
}

void range_alloc_free(RangeAlloc *arena)
{
    free(arena->free_ranges);
    memset(arena, 0, sizeof *arena);
}

int range_alloc_take(RangeAlloc *arena, int size)
{
    if (size <= 0)
        return -1;
    for (int i = 0; i < arena->free_count; i++) {
        RangeSpan *r = &arena->free_ranges[i];
        if (r->size < size)
            continue;
        int offset = r->offset;
        r->offset += size;
        r->size -= size;
        if (r->size == 0) {
            memmove(r, r + 1, (size_t)(arena->free_count - i - 1) * sizeof *r);
            arena->free_count--;
        }
        arena->used += size;
        return offset;
    }
    return -1;
}

bool range_alloc_give(RangeAlloc *arena, int offset, int size)
{
    if (size <= 0)
        return true;
    /* first free range after the given one */
    int lo = 0, hi = arena->free_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (arena->free_ranges[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    RangeSpan *ranges = arena->free_ranges;
    bool joins_prev = lo > 0 && ranges[lo - 1].offset + ranges[lo - 1].size == offset;
    bool joins_next = lo < arena->free_count && offset + size == ranges[lo].offset;
    if (joins_prev && joins_next) {
        ranges[lo - 1].size += size + ranges[lo].size;
        memmove(&ranges[lo], &ranges[lo + 1], (size_t)(arena->free_count - lo - 1) * sizeof *ranges);
        arena->free_count--;
    } else if (joins_prev) {
        ranges[lo - 1].size += size;
    } else if (joins_next) {
        ranges[lo].offset = offset;
        ranges[lo].size += size;
    } else {
        if (arena->free_count == arena->free_capacity) {
            int capacity = arena->free_capacity ? arena->free_capacity * 2 : 16;
            RangeSpan *grown = realloc(ranges, (size_t)capacity * sizeof *grown);
            if (!grown)
                return false;
            arena->free_ranges = ranges = grown;
            arena->free_capacity = capacity;
        }
        memmove(&ranges[lo + 1], &ranges[lo], (size_t)(arena->free_count - lo) * sizeof *ranges);
        ranges[lo] = (RangeSpan){ offset, size };
        arena->free_count++;
    }
    arena->used -= size;
    return true;
}

int range_alloc_largest_free(const RangeAlloc *arena)
{
    int largest = 0;
    for (int i = 0; i < arena->free_count; i++)
        if (arena->free_ranges[i].size > largest)
            largest = arena->free_ranges[i].size;
    return largest;
}
