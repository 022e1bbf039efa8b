/* level_buckets.h — a bucket queue of cell indices by light level (0..15): Dial's algorithm for a
 * flood whose keys fall by at least one a step, so visiting buckets from the brightest down visits every cell
 * at its final level first. Used by light propagation (src/light) and the mesher's warm block-light flood
 * (src/mesh/mesher_blocklight.c). Buckets grow by doubling and keep their storage between floods. */
#ifndef STRATA_LEVEL_BUCKETS_H
#define STRATA_LEVEL_BUCKETS_H

#include <stdbool.h>
#include <stdint.h>

/* Levels 0..15: a light level (LIGHT_MAX + 1 of strata/cell.h, which core cannot include; light_scratch.c
 * checks that they agree). */
#define LEVEL_BUCKETS 16

typedef struct LevelBuckets {
    uint32_t *data[LEVEL_BUCKETS];
    int count[LEVEL_BUCKETS];
    int capacity[LEVEL_BUCKETS];
    bool failed;                   /* an entry was dropped (out of memory) */
} LevelBuckets;

/* Grows bucket `level`; false (and failed set) when memory ran out. */
bool level_buckets_grow(LevelBuckets *b, int level);
/* Frees every bucket's storage and zeroes the queue. */
void level_buckets_free(LevelBuckets *b);

/* Appends value to bucket `level`; false (the value dropped, failed set) when memory ran out. */
static inline bool level_buckets_push(LevelBuckets *b, int level, uint32_t value)
{
    if (b->count[level] == b->capacity[level] && !level_buckets_grow(b, level)) return false;
    b->data[level][b->count[level]++] = value;
    return true;
}

#endif
