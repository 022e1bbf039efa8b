/* gen_feature.c — cross-chunk features: the per-thread GenContext, its LRU caches of source-chunk
 * derivations, and the one loop every feature paints through (gen_feature.h explains how features plug in).
 *
 * Design: a cache is a fixed array of 256 entries scanned linearly by a 64-bit tag (a hash of key and
 * source coordinates), so a lookup is one pass over 2 KB; a miss evicts the least recently used entry and
 * keeps its item buffer for the next derivation. The key hashes everything a derivation depends on (seed,
 * settings, tunables, version, generator name), so a context may serve several generators and a cache
 * can never change a result. */
#include "gen_feature.h"

#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"

uint64_t gen_generator_key(const Generator *g, uint64_t worldgen_hash)
{
    const WorldSettings *s = &g->settings;
    uint64_t h = rng_mix64(s->seed ^ 0x9E3779B97F4A7C15ull);
    uint32_t f[6];
    memcpy(&f[0], &s->biome_size, 4);
    memcpy(&f[1], &s->temperature_offset, 4);
    memcpy(&f[2], &s->humidity_offset, 4);
    memcpy(&f[3], &s->island_size_x, 4);
    memcpy(&f[4], &s->island_size_z, 4);
    f[5] = (uint32_t)s->mode;
    for (int i = 0; i < 6; i++)
        h = rng_mix64(h ^ f[i]);
    h = rng_mix64(h ^ (uint64_t)(uint32_t)s->sea_level_offset);
    h = rng_mix64(h ^ (uint64_t)(uint32_t)s->flat_height);
    h = rng_mix64(h ^ (uint64_t)(uint32_t)g->version);
    h = rng_mix64(h ^ rng_hash_string(g->name ? g->name : ""));
    return rng_mix64(h ^ worldgen_hash);
}

/* ---- the cache ---- */

static uint64_t cache_tag(uint64_t key, int sx, int sz)
{
    uint64_t t = rng_mix64(key ^ rng_mix64(((uint64_t)(uint32_t)sx << 32) | (uint32_t)sz));
    return t ? t : 1; /* 0 marks an empty slot */
}

GenCacheEntry *gen_cache_lookup(GenCache *cache, uint64_t key, int sx, int sz, bool *hit)
{
    uint64_t tag = cache_tag(key, sx, sz);
    cache->clock++;
    int victim = 0;
    for (int i = 0; i < GEN_CACHE_ENTRIES; i++) {
        if (cache->tags[i] == tag) {
            GenCacheEntry *e = &cache->entries[i];
            if (e->valid && e->key == key && e->sx == sx && e->sz == sz) {
                e->stamp = cache->clock;
                cache->hits++;
                *hit = true;
                return e;
            }
        }
    }
    /* miss: an empty slot, or the least recently used */
    for (int i = 0; i < GEN_CACHE_ENTRIES; i++) {
        const GenCacheEntry *e = &cache->entries[i];
        if (!e->valid) {
            victim = i;
            break;
        }
        if (e->stamp < cache->entries[victim].stamp)
            victim = i;
    }
    GenCacheEntry *e = &cache->entries[victim];
    cache->misses++;
    cache->tags[victim] = tag;
    e->valid = true;
    e->key = key;
    e->sx = sx;
    e->sz = sz;
    e->stamp = cache->clock;
    e->count = 0;
    e->min_x = e->max_x = e->min_z = e->max_z = 0;
    *hit = cache->shared && gen_shared_fetch(cache->shared, cache, e, tag);   /* another thread derived it */
    return e;
}

void gen_cache_publish(GenCache *cache, const GenCacheEntry *e)
{
    if (cache->shared && e->valid) gen_shared_offer(cache->shared, cache, e, cache_tag(e->key, e->sx, e->sz));
}

bool gen_cache_reserve(GenCache *cache, GenCacheEntry *e, int n)
{
    if (e->count + n <= e->cap)
        return true;
    int cap = e->cap ? e->cap * 2 : 256;
    while (cap < e->count + n)
        cap *= 2;
    void *items = realloc(e->items, cache->item_size * (size_t)cap);
    if (!items) {
        e->valid = false; /* never reuse a truncated derivation */
        return false;
    }
    e->items = items;
    e->cap = cap;
    return true;
}

void *gen_feature_add_item(GenCache *cache, GenCacheEntry *e, int min_x, int max_x, int min_z, int max_z)
{
    if (!gen_cache_reserve(cache, e, 1))
        return NULL;
    void *item = (char *)e->items + cache->item_size * (size_t)e->count;
    e->count++;
    if (e->count == 1 || min_x < e->min_x) e->min_x = min_x;
    if (e->count == 1 || max_x > e->max_x) e->max_x = max_x;
    if (e->count == 1 || min_z < e->min_z) e->min_z = min_z;
    if (e->count == 1 || max_z > e->max_z) e->max_z = max_z;
    return item;
}

/* ---- painting ---- */

void gen_feature_paint_chunk(const GenFeature *f, const void *generator, GenContext *ctx, TerrainChunk *chunk)
{
    GenCache *cache = &ctx->features[f->slot];
    cache->item_size = f->item_size;
    const int r = f->range(generator);
    const uint64_t key = f->key(generator);
    const int ox = chunk->origin_x, oz = chunk->origin_z;
    CellView view = chunk_cell_view(chunk);
    for (int si = chunk->coord_x - r; si <= chunk->coord_x + r; si++)
        for (int sj = chunk->coord_z - r; sj <= chunk->coord_z + r; sj++) {
            bool hit;
            GenCacheEntry *e = gen_cache_lookup(cache, key, si, sj, &hit);
            if (!hit) {
                f->derive(generator, ctx, cache, e, si, sj);
                gen_cache_publish(cache, e);
            }
            if (e->count == 0 || e->max_x < ox || e->min_x > ox + 15 || e->max_z < oz || e->min_z > oz + 15)
                continue;
            const char *item = e->items;
            for (int k = 0; k < e->count; k++, item += f->item_size)
                f->paint(generator, ctx, chunk, view, item);
        }
}
