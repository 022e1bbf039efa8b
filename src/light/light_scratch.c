/* light_scratch.c — what both light steps keep between calls: the context, the bucket queue and the
 * per-block tables.
 *
 * Design. Everything here is scratch: nothing a step computes depends on what a previous call left in it.
 * Memory grows on demand and is kept, so a worker lighting chunk after chunk allocates nothing once warm;
 * the large pieces (the sunlight step's per-cell bytes, propagation's stamps) are allocated by the step
 * that first needs them. */
#include <stdlib.h>
#include <string.h>

#include "light_internal.h"

LightContext *light_context_create(void)
{
    return calloc(1, sizeof(LightContext));
}

void light_context_destroy(LightContext *ctx)
{
    if (!ctx) return;
    level_buckets_free(&ctx->buckets);
    free(ctx->own);
    free(ctx->stamp);
    free(ctx);
}

_Static_assert(LEVEL_BUCKETS == LIGHT_MAX + 1, "one bucket a light level");

void light_tables_prepare(LightTables *t, const BlockRegistry *blocks)
{
    if (t->blocks == blocks) return;
    t->blocks = blocks;
    for (int id = 0; id < BLOCK_MAX; id++) {
        bool warm = blocks->emission[id] && blocks->shape[id] != BLOCK_SHAPE_FLUID;
        t->class[id] = (uint8_t)((blocks->emission[id] & 15) | (blocks->transparent_to_sun[id] ? LIGHT_CLASS_SUN : 0) |
                                 (warm ? LIGHT_CLASS_WARM : 0));
    }
}
