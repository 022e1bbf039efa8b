/* generator_shared_cache.c — derived cross-chunk features shared by the threads of a job pool (generator.h).
 *
 * Design. Each thread keeps its own GenContext caches (gen_feature.c: lock-free, 256 entries a feature). With
 * several threads the sources around a chunk are usually derived by another thread already (neighbouring
 * chunks go to whichever thread is free): at 2 threads a loading world derived each cave source twice, at 4
 * three times (perf: the cache misses of a view distance 8 load, 3,825 at 1 thread, 6,963 at 2, 12,441 at
 * 4). A thread's miss therefore asks this second level before it derives: one slot a feature, each a mutex
 * and GEN_SHARED_ENTRIES entries (LRU), holding copies. A hit copies the items into the thread's own entry
 * (items are flat: gen_feature_add_item's buffer, no pointer a thread owns), so no entry is ever read while
 * another thread may evict it; a derivation is offered once made (gen_cache_publish). The lock is held for a
 * tag scan and a copy of a few kB, and taken only on the threads' own misses. Derivations are pure, so which
 * thread made an entry never shows in a cell (the golden worlds and world_hash at 1, 2, 4 and 8 threads). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gen_feature.h"

#define GEN_SHARED_ENTRIES 1024

typedef struct GenSharedEntry {
    uint64_t tag, key, stamp;
    int sx, sz;
    int min_x, max_x, min_z, max_z;
    int count;
    size_t bytes, cap_bytes;
    void *items;
} GenSharedEntry;

struct GenSharedSlot {
    pthread_mutex_t lock;
    uint64_t clock;
    long hits, offers;                   /* copies handed out; derivations taken in */
    uint64_t tags[GEN_SHARED_ENTRIES];   /* 0: empty */
    GenSharedEntry entries[GEN_SHARED_ENTRIES];
};

struct GenSharedCache {
    GenSharedSlot slots[GEN_FEATURE_SLOTS];
};

GenSharedCache *gen_shared_cache_create(void)
{
    GenSharedCache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    for (int s = 0; s < GEN_FEATURE_SLOTS; s++) pthread_mutex_init(&c->slots[s].lock, NULL);
    return c;
}

void gen_shared_cache_destroy(GenSharedCache *c)
{
    if (!c) return;
    for (int s = 0; s < GEN_FEATURE_SLOTS; s++) {
        for (int i = 0; i < GEN_SHARED_ENTRIES; i++) free(c->slots[s].entries[i].items);
        pthread_mutex_destroy(&c->slots[s].lock);
    }
    free(c);
}

void gen_shared_cache_counts(GenSharedCache *c, long *hits, long *offers)
{
    *hits = *offers = 0;
    for (int s = 0; s < GEN_FEATURE_SLOTS; s++) {
        pthread_mutex_lock(&c->slots[s].lock);
        *hits += c->slots[s].hits;
        *offers += c->slots[s].offers;
        pthread_mutex_unlock(&c->slots[s].lock);
    }
}

void gen_context_share(GenContext *ctx, GenSharedCache *shared)
{
    for (int s = 0; s < GEN_FEATURE_SLOTS; s++) ctx->features[s].shared = shared ? &shared->slots[s] : NULL;
}

static int shared_find(const GenSharedSlot *slot, uint64_t tag, uint64_t key, int sx, int sz)
{
    for (int i = 0; i < GEN_SHARED_ENTRIES; i++) {
        if (slot->tags[i] != tag) continue;
        const GenSharedEntry *se = &slot->entries[i];
        if (se->key == key && se->sx == sx && se->sz == sz) return i;
    }
    return -1;
}

bool gen_shared_fetch(GenSharedSlot *slot, GenCache *cache, GenCacheEntry *e, uint64_t tag)
{
    bool found = false;
    pthread_mutex_lock(&slot->lock);
    int i = shared_find(slot, tag, e->key, e->sx, e->sz);
    if (i >= 0) {
        GenSharedEntry *se = &slot->entries[i];
        /* an entry offered with another item size (another feature's: never) is not this cache's */
        /* room in the thread's entry (its buffer kept from the entry's last use; cap counts items) */
        bool room = se->bytes == cache->item_size * (size_t)se->count;
        if (room && se->count > e->cap) {
            void *items = realloc(e->items, se->bytes);
            if (items) {
                e->items = items;
                e->cap = se->count;
            } else {
                room = false;   /* out of memory: the thread derives it (and fails the same way, marked) */
            }
        }
        if (room) {
            if (se->bytes) memcpy(e->items, se->items, se->bytes);
            e->count = se->count;
            e->min_x = se->min_x;
            e->max_x = se->max_x;
            e->min_z = se->min_z;
            e->max_z = se->max_z;
            se->stamp = ++slot->clock;
            slot->hits++;
            found = true;
        }
    }
    pthread_mutex_unlock(&slot->lock);
    return found;
}

void gen_shared_offer(GenSharedSlot *slot, const GenCache *cache, const GenCacheEntry *e, uint64_t tag)
{
    size_t bytes = cache->item_size * (size_t)e->count;
    pthread_mutex_lock(&slot->lock);
    if (shared_find(slot, tag, e->key, e->sx, e->sz) < 0) {   /* another thread may have offered it first */
        int victim = 0;
        for (int i = 0; i < GEN_SHARED_ENTRIES; i++) {
            if (!slot->tags[i]) {
                victim = i;
                break;
            }
            if (slot->entries[i].stamp < slot->entries[victim].stamp) victim = i;
        }
        GenSharedEntry *se = &slot->entries[victim];
        bool room = true;
        if (bytes > se->cap_bytes) {
            void *grown = realloc(se->items, bytes);
            if (grown) {
                se->items = grown;
                se->cap_bytes = bytes;
            } else {
                room = false;   /* out of memory: not shared, nothing lost */
            }
        }
        if (room) {
            if (bytes) memcpy(se->items, e->items, bytes);
            se->bytes = bytes;
            se->count = e->count;
            se->key = e->key;
            se->sx = e->sx;
            se->sz = e->sz;
            se->min_x = e->min_x;
            se->max_x = e->max_x;
            se->min_z = e->min_z;
            se->max_z = e->max_z;
            se->stamp = ++slot->clock;
            slot->tags[victim] = tag;
            slot->offers++;
        }
    }
    pthread_mutex_unlock(&slot->lock);
}
