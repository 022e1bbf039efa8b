/* generator.c — the generator interface: world settings, seed parsing, creation and dispatch by terrain
 * mode, and the per-thread GenContext with its memo caches.
 *
 * Design: generator_create validates the settings, loads worldgen.json (the tunables) and hands off to
 * gen24 (continent, island) or flat. A Generator is immutable afterwards. Generator.version is what a
 * world stores; generator_create_version rebuilds the generator a world was made with, or refuses a
 * version this build does not know. The GenContext caches (caves and tree placements per source chunk)
 * are keyed by a hash of everything the derivation depends on (seed, settings, tunables, version), so a
 * context can be shared across generators and a cache can never change a result. */
#include "gen_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WORLDGEN_DEFAULT_PATH STRATA_ASSET_DIR "/worldgen.json"

StResult generator_create_version(const WorldSettings *settings, const BlockRegistry *blocks,
                                  const char *worldgen_path, int version, Generator **out)
{
    *out = NULL;
    if (!settings || !blocks)
        return st_fail(ST_ERR_ARG, "generator_create: settings and blocks are required");
    if (settings->mode == TERRAIN_MODE_HEIGHTMAP)
        return st_fail(ST_ERR_ARG, "terrain mode 'heightmap' needs a heightmap file (not available in this version)");
    if (settings->mode != TERRAIN_MODE_CONTINENT && settings->mode != TERRAIN_MODE_ISLAND &&
        settings->mode != TERRAIN_MODE_FLAT)
        return st_fail(ST_ERR_ARG, "generator_create: unknown terrain mode %d", (int)settings->mode);
    StResult rc = world_settings_validate(settings);
    if (rc != ST_OK)
        return rc;
    WorldgenConfig *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return st_fail(ST_ERR_NOMEM, "generator_create: out of memory");
    rc = worldgen_load(worldgen_path ? worldgen_path : WORLDGEN_DEFAULT_PATH, blocks, cfg);
    if (rc != ST_OK) {
        free(cfg);
        return rc;
    }
    Generator *g = calloc(1, sizeof *g);
    if (!g) {
        free(cfg);
        return st_fail(ST_ERR_NOMEM, "generator_create: out of memory");
    }
    g->settings = *settings;
    g->blocks = blocks;
    rc = settings->mode == TERRAIN_MODE_FLAT ? gen_flat_create(g, cfg, version) : gen24_create(g, cfg, version);
    free(cfg);
    if (rc != ST_OK) {
        free(g);
        return rc;
    }
    *out = g;
    return ST_OK;
}

StResult generator_create(const WorldSettings *settings, const BlockRegistry *blocks, const char *worldgen_path,
                          Generator **out)
{
    return generator_create_version(settings, blocks, worldgen_path, 0, out);
}

void generator_destroy(Generator *g)
{
    if (!g)
        return;
    if (g->destroy)
        g->destroy(g);
    free(g);
}

void generator_generate_chunk(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    for (int pass = 1; pass <= 4; pass++)
        generator_run_pass(g, pass, chunk, ctx);
}

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

/* ---- GenContext ---- */

GenContext *gen_context_create(void)
{
    GenContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->caves.item_size = sizeof(GenCaveStroke);
    ctx->trees.item_size = sizeof(GenTreePlacement);
    return ctx;
}

static void cache_free(GenCache *c)
{
    for (int i = 0; i < GEN_CACHE_ENTRIES; i++)
        free(c->entries[i].items);
}

void gen_context_destroy(GenContext *ctx)
{
    if (!ctx)
        return;
    cache_free(&ctx->caves);
    cache_free(&ctx->trees);
    free(ctx);
}

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
    *hit = false;
    return e;
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

/* ---- random helpers ---- */

GenVec3 gen_vec3_normalize(GenVec3 v)
{
    float l = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    if (l <= 0.0f)
        return gen_vec3(0.0f, 0.0f, 0.0f);
    return gen_vec3(v.x / l, v.y / l, v.z / l);
}

GenVec3 gen_rng_direction(Rng *rng)
{
    for (;;) {
        float x = rng_float_range(rng, -1.0f, 1.0f);
        float y = rng_float_range(rng, -1.0f, 1.0f);
        float z = rng_float_range(rng, -1.0f, 1.0f);
        float l2 = x * x + y * y + z * z;
        if (l2 > 1e-4f && l2 <= 1.0f) {
            float l = sqrtf(l2);
            return gen_vec3(x / l, y / l, z / l);
        }
    }
}
