/* gen_feature.h — private to src/gen: cross-chunk features and the per-thread GenContext that memoises them.
 *
 * The purity rule (the whole generator lives by it): every cell a pass writes is a function of the seed,
 * the settings, the tunables and the chunk coordinates. A feature that crosses chunk borders (a cave, a
 * tree; later structures, dungeons, scatter) is therefore derived per *source chunk* from the seed, and
 * every chunk it touches re-derives it and paints only its own cells. Caches only memoise such pure
 * derivations; a result never depends on what is cached.
 *
 * How a feature plugs in (the one way; caves and trees do it, gen_caves.c / gen_trees.c):
 *   1. Give it a cache slot in GenFeatureSlot below.
 *   2. Declare a static const GenFeature: its item type's size, range() = how many chunks away a source
 *      may lie and still touch a chunk (derive it from the brushes' bounds so it can never be too small),
 *      key() = the generator's inputs hash (gen_generator_key), derive() = the items of one source chunk,
 *      paint() = one item into one chunk.
 *   3. In its pass, call gen_feature_paint_chunk(&feature, generator, ctx, chunk). That visits each source
 *      chunk within range, looks it up in the context's cache (deriving it on a miss), skips it when the
 *      bounds of all its items miss the chunk, and paints each of its items.
 * derive() appends items with gen_feature_add_item, which records each item's horizontal world bounds in
 * the entry; paint() receives the chunk and a CellView of it (obtained once per call) and must write only
 * that chunk, deciding each cell from that cell (and pure data) alone, so the order chunks are generated in
 * never matters.
 *
 * Threads: a GenFeature is immutable; a GenContext belongs to one thread (gen_context_create). Contexts of
 * several threads may share their derivations through a GenSharedCache (generator_shared_cache.c): a miss in the
 * thread's own cache copies another thread's entry, and a derivation is offered with gen_cache_publish. */
#ifndef STRATA_GEN_FEATURE_H
#define STRATA_GEN_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/chunk.h"
#include "strata/generator.h"

/* One cache per memoised feature. */
typedef enum GenFeatureSlot {
    GEN_FEATURE_SLOT_CAVES = 0,
    GEN_FEATURE_SLOT_TREES,
    GEN_FEATURE_SLOT_DUNGEONS,      /* src/gen/structures: one solved WFC layout per site */
    GEN_FEATURE_SLOT_SCATTER,       /* gen24 version 4: scatter objects (gen_scatter.c) */
    GEN_FEATURE_SLOT_SCATTER_TILES, /* gen24 version 4: the object groups' candidates per 16 x 16 tile */
    GEN_FEATURE_SLOTS
} GenFeatureSlot;

/* One memoised derivation for a source chunk. `key` identifies the generator's inputs (seed, settings,
 * tunables), so two equal generators may share entries and a different one never hits. */
typedef struct GenCacheEntry {
    bool valid;
    uint64_t key;
    int sx, sz;
    uint64_t stamp;
    int min_x, max_x, min_z, max_z;  /* world bounds of everything painted (for quick rejects) */
    int count, cap;
    void *items;                     /* count items of the cache's item_size */
} GenCacheEntry;

#define GEN_CACHE_ENTRIES 256

typedef struct GenSharedSlot GenSharedSlot;

/* A least-recently-used cache of source-chunk derivations. */
typedef struct GenCache {
    GenSharedSlot *shared;               /* the slot of a GenSharedCache this cache consults, or NULL */
    uint64_t tags[GEN_CACHE_ENTRIES];    /* hash of (key, sx, sz) per valid entry, 0 = empty: a fast scan */
    GenCacheEntry entries[GEN_CACHE_ENTRIES];
    uint64_t clock;
    size_t item_size;
    long hits, misses;
} GenCache;

struct GenContext {
    GenCache features[GEN_FEATURE_SLOTS];
    /* gen24 pass-3 scratch (gen24_carve_allowed, gen_caves.c): base-fill water in the ring of columns just
     * outside the chunk, per side, computed when first needed (ring_sides: bit per side valid) */
    unsigned ring_sides;
    int ring_levels;                                    /* cells y < ring_levels are covered */
    uint8_t ring_water[4][16][256];                     /* side (-x, +x, -z, +z), along-edge index, y */
};

/* A cross-chunk feature (see the top of this file). All callbacks take the generator's private data
 * (Generator.impl) as `generator`. */
typedef struct GenFeature {
    const char *name;
    GenFeatureSlot slot;               /* its cache in GenContext.features */
    size_t item_size;                  /* bytes per item */
    /* How many chunks away (in x and in z) a source chunk may lie and still touch a chunk. */
    int (*range)(const void *generator);
    /* The generator's inputs hash (gen_generator_key), the cache key. */
    uint64_t (*key)(const void *generator);
    /* Fills the entry of source chunk (sx, sz) (count 0 on entry) through gen_feature_add_item. Pure in the
     * generator and (sx, sz); may memoise its own pieces in ctx's other caches (never in `cache`). May mark the entry invalid (e->valid = false) when it cannot finish (out of
     * memory): it is then used for this chunk only and derived again next time. */
    void (*derive)(const void *generator, GenContext *ctx, GenCache *cache, GenCacheEntry *e, int sx, int sz);
    /* Paints one item into `chunk` (view = chunk_cell_view(chunk)). Called for every item of every source
     * whose bounds meet the chunk; the item's own reject test (brush_touches_chunk) is the callback's. */
    void (*paint)(const void *generator, GenContext *ctx, TerrainChunk *chunk, CellView view, const void *item);
} GenFeature;

/* Paints feature `f` of `generator` into `chunk`: every source chunk within range, cached per thread. */
void gen_feature_paint_chunk(const GenFeature *f, const void *generator, GenContext *ctx, TerrainChunk *chunk);

/* Appends one item (item_size bytes, uninitialised, for the caller to fill) to e, widening e's bounds by the
 * item's horizontal world bounds (inclusive). NULL when out of memory: the entry is then marked invalid, so
 * the truncated derivation is never reused. */
void *gen_feature_add_item(GenCache *cache, GenCacheEntry *e, int min_x, int max_x, int min_z, int max_z);

/* The lower-level cache calls under gen_feature_paint_chunk. gen_cache_lookup finds the entry for (key, sx,
 * sz); on a miss it returns the least recently used entry reset to (key, sx, sz) with count 0 and *hit false.
 * Never NULL. gen_cache_reserve ensures room for n more items; false when out of memory (the entry is then
 * marked invalid). */
GenCacheEntry *gen_cache_lookup(GenCache *cache, uint64_t key, int sx, int sz, bool *hit);
bool gen_cache_reserve(GenCache *cache, GenCacheEntry *e, int n);
/* Offers a just-derived entry to the shared cache (a copy; nothing when the cache shares nothing or e is
 * invalid). Call it once derive() has filled e. */
void gen_cache_publish(GenCache *cache, const GenCacheEntry *e);
/* generator_shared_cache.c: copies the shared entry (key, sx, sz) into e (its items, bounds and count); false when
 * the slot has none (or memory ran out). */
bool gen_shared_fetch(GenSharedSlot *slot, GenCache *cache, GenCacheEntry *e, uint64_t tag);
void gen_shared_offer(GenSharedSlot *slot, const GenCache *cache, const GenCacheEntry *e, uint64_t tag);

/* The key that identifies a generator's inputs: seed, settings, version, name and the tunables' text hash. */
uint64_t gen_generator_key(const Generator *g, uint64_t worldgen_hash);

#endif
