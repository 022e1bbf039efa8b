/* chunk_scratch.c — the pool of hot chunks' 256 KiB cell scratches (chunk.h: chunk_make_hot, chunk_pack).
 *
 * Design. Scratches are carved eight at a time from slabs of 2 MiB, each its own mapping aligned to 2 MiB and
 * marked for transparent huge pages (Linux, MADV_HUGEPAGE), populated in one call when it is made
 * (MADV_POPULATE_WRITE, where the kernel has it). A loading world keeps ~230 chunks hot at once at view
 * distance 8, each in fresh memory: page by page, the first writes into it were most of generation pass 1 on
 * this virtual machine (its host maps every new page), and a huge page is one mapping for eight scratches
 * (world ready at 2 threads ~0.87x; a scratch used to be its own populated mapping). A returned scratch
 * stays in its slab for the next chunk; a slab whose eight are all returned is kept while the spare slabs
 * hold less than CHUNK_SCRATCH_SPARE scratches, else given back, and chunk_scratch_trim gives back the
 * spare slabs beyond what it is asked to keep (the update worker, once its world is ready). A slab with
 * any scratch in use stays whole, so its free scratches stay resident (at most 1.75 MiB a hot chunk, none
 * once the world is packed). A scratch never handed out since its slab was made is zero (the chunk_make_hot
 * of a new, all air chunk then writes nothing); one handed out again holds its last chunk's cells.
 * Scratches are taken from the fullest slab with room, so the hot chunks of a settled world gather in few
 * slabs and the rest can go. Any thread: one mutex, held for a scan of the slabs (a few dozen), never while
 * mapping or unmapping. */
#define _GNU_SOURCE
#include "chunk_scratch.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define SCRATCH_SLAB_BYTES ((size_t)2 << 20)
#define SCRATCH_PER_SLAB ((int)(SCRATCH_SLAB_BYTES / CHUNK_SCRATCH_BYTES))
#define SCRATCH_SPARE_SLABS (CHUNK_SCRATCH_SPARE / SCRATCH_PER_SLAB)
_Static_assert(SCRATCH_SLAB_BYTES % CHUNK_SCRATCH_BYTES == 0 && SCRATCH_SLAB_BYTES / CHUNK_SCRATCH_BYTES <= 8,
               "a slab holds a whole number of scratches, at most 8 (one bit each)");

typedef struct ScratchSlab {
    char *base;
    uint8_t used;      /* bit k: scratch k is handed out */
    uint8_t written;   /* bit k: scratch k was handed out since the slab was made (no longer known zero) */
} ScratchSlab;

static struct {
    pthread_mutex_t lock;
    ScratchSlab *slabs;
    int count, capacity;
    int in_use;
} pool = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

static char *slab_map(void)
{
#ifdef __linux__
    size_t size = SCRATCH_SLAB_BYTES;
    char *raw = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    char *base = (char *)(((uintptr_t)raw + size - 1) & ~(uintptr_t)(size - 1));
    size_t head = (size_t)(base - raw);
    if (head) munmap(raw, head);
    munmap(base + size, size - head);
    madvise(base, size, MADV_HUGEPAGE);   /* refused (no THP): 4 KiB pages, populated below all the same */
#ifdef MADV_POPULATE_WRITE
    if (madvise(base, size, MADV_POPULATE_WRITE) != 0) {
        /* an older kernel: the pages come on first write */
    }
#endif
    return base;
#else
    char *base = aligned_alloc(SCRATCH_SLAB_BYTES, SCRATCH_SLAB_BYTES);
    if (base) memset(base, 0, SCRATCH_SLAB_BYTES);
    return base;
#endif
}

static void slab_unmap(char *base)
{
    if (!base) return;
#ifdef __linux__
    munmap(base, SCRATCH_SLAB_BYTES);
#else
    free(base);
#endif
}

/* With the lock held: a free scratch of the fullest slab with room (one never written first), or NULL. */
static int32_t *pool_take_locked(bool *zeroed)
{
    int best = -1, best_used = -1;
    for (int i = 0; i < pool.count; i++) {
        int used = __builtin_popcount(pool.slabs[i].used);
        if (used < SCRATCH_PER_SLAB && used > best_used) {
            best = i;
            best_used = used;
        }
    }
    if (best < 0) return NULL;
    ScratchSlab *s = &pool.slabs[best];
    int k = -1;
    for (int j = 0; j < SCRATCH_PER_SLAB && k < 0; j++)
        if (!(s->used >> j & 1) && !(s->written >> j & 1)) k = j;
    for (int j = 0; j < SCRATCH_PER_SLAB && k < 0; j++)
        if (!(s->used >> j & 1)) k = j;
    *zeroed = !(s->written >> k & 1);
    s->used |= (uint8_t)(1u << k);
    s->written |= (uint8_t)(1u << k);
    pool.in_use++;
    return (int32_t *)(s->base + (size_t)k * CHUNK_SCRATCH_BYTES);
}

int32_t *chunk_scratch_acquire(bool *zeroed)
{
    pthread_mutex_lock(&pool.lock);
    int32_t *p = pool_take_locked(zeroed);
    pthread_mutex_unlock(&pool.lock);
    if (p) return p;
    char *base = slab_map();   /* outside the lock: populating 2 MiB takes a while */
    if (!base) return NULL;
    pthread_mutex_lock(&pool.lock);
    if (pool.count == pool.capacity) {
        int capacity = pool.capacity ? pool.capacity * 2 : 64;
        ScratchSlab *grown = realloc(pool.slabs, sizeof *grown * (size_t)capacity);
        if (!grown) {
            pthread_mutex_unlock(&pool.lock);
            slab_unmap(base);
            return NULL;
        }
        pool.slabs = grown;
        pool.capacity = capacity;
    }
    pool.slabs[pool.count++] = (ScratchSlab){base, 0, 0};
    p = pool_take_locked(zeroed);   /* the new slab's, or one another thread returned meanwhile */
    pthread_mutex_unlock(&pool.lock);
    return p;
}

/* With the lock held: removes the free slabs beyond `keep` free ones, writing their bases to `out` (at most
 * `max`); returns how many. */
static int pool_drop_free_locked(int keep, char **out, int max)
{
    int free_slabs = 0, n = 0;
    for (int i = 0; i < pool.count; i++) free_slabs += pool.slabs[i].used == 0;
    for (int i = pool.count - 1; i >= 0 && free_slabs > keep && n < max; i--) {
        if (pool.slabs[i].used) continue;
        out[n++] = pool.slabs[i].base;
        pool.slabs[i] = pool.slabs[--pool.count];
        free_slabs--;
    }
    return n;
}

void chunk_scratch_release(int32_t *p)
{
    if (!p) return;
    char *drop[1];
    int n = 0;
    pthread_mutex_lock(&pool.lock);
    for (int i = 0; i < pool.count; i++) {
        ScratchSlab *s = &pool.slabs[i];
        if ((char *)p < s->base || (char *)p >= s->base + SCRATCH_SLAB_BYTES) continue;
        int k = (int)(((char *)p - s->base) / (ptrdiff_t)CHUNK_SCRATCH_BYTES);
        s->used &= (uint8_t)~(1u << k);
        pool.in_use--;
        if (!s->used) n = pool_drop_free_locked(SCRATCH_SPARE_SLABS, drop, 1);
        break;
    }
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < n; i++) slab_unmap(drop[i]);
}

void chunk_scratch_trim(int keep)
{
    char *drop[64];
    int keep_slabs = keep > 0 ? (keep + SCRATCH_PER_SLAB - 1) / SCRATCH_PER_SLAB : 0;
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        int n = pool_drop_free_locked(keep_slabs, drop, 64);
        pthread_mutex_unlock(&pool.lock);
        for (int i = 0; i < n; i++) slab_unmap(drop[i]);
        if (n < 64) return;
    }
}

int chunk_scratch_in_use(void)
{
    pthread_mutex_lock(&pool.lock);
    int n = pool.in_use;
    pthread_mutex_unlock(&pool.lock);
    return n;
}
