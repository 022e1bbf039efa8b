/* generator_context.c — the per-thread GenContext (generator.h): created empty, its feature caches' item
 * buffers freed with it. The caches themselves live in gen_feature.c. */
#include "gen_feature.h"

#include <stdlib.h>

static void cache_free(GenCache *c)
{
    for (int i = 0; i < GEN_CACHE_ENTRIES; i++)
        free(c->entries[i].items);
}

GenContext *gen_context_create(void)
{
    return calloc(1, sizeof(GenContext));
}

void gen_context_destroy(GenContext *ctx)
{
    if (!ctx)
        return;
    for (int s = 0; s < GEN_FEATURE_SLOTS; s++)
        cache_free(&ctx->features[s]);
    free(ctx);
}
