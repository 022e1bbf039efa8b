/* level_buckets.c — growth and release of the light-level bucket queue (strata/level_buckets.h). */
#include "strata/level_buckets.h"

#include <stdlib.h>
#include <string.h>

bool level_buckets_grow(LevelBuckets *b, int level)
{
    int cap = b->capacity[level] ? b->capacity[level] * 2 : 1024;
    uint32_t *data = realloc(b->data[level], (size_t)cap * sizeof *data);
    if (!data) {
        b->failed = true;
        return false;
    }
    b->data[level] = data;
    b->capacity[level] = cap;
    return true;
}

void level_buckets_free(LevelBuckets *b)
{
    for (int i = 0; i < LEVEL_BUCKETS; i++) free(b->data[i]);
    memset(b, 0, sizeof *b);
}
