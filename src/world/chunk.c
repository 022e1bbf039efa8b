/* chunk.c — TerrainChunk reset, cell storage (hot scratch or cold palette sections) and its accessors.
 *
 * Design. Chunks are pooled by Terrain, so reset must leave a chunk exactly as a fresh one: all cells air,
 * shafts zero, states NotLoaded, no flags. The whole bookkeeping part before the shafts is zeroed at once,
 * so a field another module adds to TerrainChunk is reset too (0 is NotLoaded, no flags, NULL geometry).
 *
 * Storage. A cold chunk is 16 ChunkSections (chunk_sections.h); a reset chunk is 16 uniform air sections,
 * nothing allocated. A hot chunk's cells live in a 256 KiB scratch (64-byte aligned) and its sections are
 * all uniform air. Scratches come from one process-wide pool (chunk_scratch.c: carved from 2 MiB huge
 * pages, kept for the next chunk when returned, trimmed by the update worker when its world is ready); a
 * fresh one is known to be zero, so making a new (all air) chunk hot writes nothing. The number of hot
 * chunks itself is bounded by their owners (the update worker packs what left its working set).
 *
 * The cell lock. Each chunk has a one-word spin lock (zero is free, so a zeroed chunk is valid) that the
 * _shared accessors, the copy-out and the hot/cold transitions hold. It is held for one cell, or for one
 * pack/unpack (~100 us) when the owner changes the form: the main thread may then wait that long for one
 * read. The lock's acquire/release order the `hot` pointer and the sections between the two threads; the
 * owner reads `hot` without it (nobody else writes it). */
#include "strata/chunk.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_scratch.h"
#include "strata/log.h"


static void spin_lock(uint32_t *lock)
{
    for (int spins = 0; __atomic_exchange_n(lock, 1u, __ATOMIC_ACQUIRE); spins++) {
        while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
            if (++spins > 64) sched_yield();
        }
    }
}
static void spin_unlock(uint32_t *lock) { __atomic_store_n(lock, 0u, __ATOMIC_RELEASE); }

static void chunk_lock(const TerrainChunk *c) { spin_lock((uint32_t *)&c->cell_lock); }
static void chunk_unlock(const TerrainChunk *c) { spin_unlock((uint32_t *)&c->cell_lock); }

/* ---- lifetime ---- */

/* With the lock held: no scratch, all sections uniform air. */
static void chunk_drop_storage_locked(TerrainChunk *c)
{
    if (c->hot) chunk_scratch_release(c->hot);
    c->hot = NULL;
    for (int s = 0; s < CHUNK_SECTIONS; s++) section_reset(&c->sections[s], 0, 0);
}

void chunk_release_storage(TerrainChunk *chunk)
{
    chunk_lock(chunk);
    chunk_drop_storage_locked(chunk);
    chunk_unlock(chunk);
}

void chunk_reset(TerrainChunk *chunk, int cx, int cz)
{
    memset(chunk, 0, offsetof(TerrainChunk, shafts));
    chunk->coord_x = cx;
    chunk->coord_z = cz;
    chunk->origin_x = cx * CHUNK_SIZE_X;
    chunk->origin_z = cz * CHUNK_SIZE_Z;
    chunk->state = CHUNK_STATE_NOT_LOADED;
    chunk->thread_state = CHUNK_STATE_NOT_LOADED;
    memset(chunk->shafts, 0, sizeof chunk->shafts);
    chunk->worker_hot_stamp = 0;
    chunk->worker_hot_exchange = 0;
    chunk_clear_cells(chunk);
}

TerrainChunk *chunk_create(int cx, int cz)
{
    TerrainChunk *c = calloc(1, sizeof *c);
    if (c) chunk_reset(c, cx, cz);
    return c;
}

void chunk_destroy(TerrainChunk *chunk)
{
    if (!chunk) return;
    chunk_release_storage(chunk);
    free(chunk);
}

/* ---- hot and cold ---- */

/* Whether every cell of the section unpacks to 0 (air, light 0). */
static bool section_is_zero(const ChunkSection *s)
{
    return !s->bits && s->uniform == 0 && !s->light && s->light_uniform == 0;
}

void chunk_make_hot(TerrainChunk *chunk)
{
    if (chunk->hot) return;
    bool zeroed;
    int32_t *scratch = chunk_scratch_acquire(&zeroed);
    if (!scratch) {
        log_error("world", "out of memory unpacking chunk %d,%d (a 256 KiB scratch)", chunk->coord_x, chunk->coord_z);
        abort();
    }
    chunk_lock(chunk);
    bool all_zero = true;
    for (int s = 0; s < CHUNK_SECTIONS && all_zero; s++) all_zero = section_is_zero(&chunk->sections[s]);
    if (all_zero) {
        /* a new chunk: fresh memory already holds it; a pooled scratch is cleared in one pass (unpacking 16
         * uniform air sections into column order cost ~10x a memset: perf, a loading world) */
        if (!zeroed) memset(scratch, 0, CHUNK_SCRATCH_BYTES);
    } else {
        for (int s = 0; s < CHUNK_SECTIONS; s++)
            if (!zeroed || !section_is_zero(&chunk->sections[s])) section_unpack_to_chunk(&chunk->sections[s], scratch, s);
    }
    for (int s = 0; s < CHUNK_SECTIONS; s++) section_reset(&chunk->sections[s], 0, 0);
    chunk->hot = scratch;
    chunk_unlock(chunk);
}

bool chunk_pack(TerrainChunk *chunk)
{
    if (!chunk->hot) return true;
    chunk_lock(chunk);
    bool ok = section_pack_chunk(chunk->sections, chunk->hot);
    if (ok) {
        chunk_scratch_release(chunk->hot);
        chunk->hot = NULL;
    }
    chunk_unlock(chunk);
    return ok;
}

size_t chunk_resident_bytes(const TerrainChunk *c, int kinds[SECTION_KIND_COUNT])
{
    size_t n = sizeof *c;
    chunk_lock(c);
    if (c->hot) n += CHUNK_SCRATCH_BYTES;
    for (int s = 0; s < CHUNK_SECTIONS; s++) {
        n += section_heap_bytes(&c->sections[s]);
        if (kinds && !c->hot) kinds[section_kind(&c->sections[s])]++;
    }
    chunk_unlock(c);
    return n;
}

/* ---- accessors ---- */

int32_t chunk_get_cell_cold(const TerrainChunk *c, int x, int y, int z)
{
    return section_get_cell(&c->sections[y >> 4], SECTION_INDEX(x, y & 15, z));
}

void chunk_set_cell_cold(TerrainChunk *c, int x, int y, int z, int32_t v)
{
    if (!section_set_cell(&c->sections[y >> 4], SECTION_INDEX(x, y & 15, z), v))
        log_error("world", "out of memory setting a cell of chunk %d,%d: the change is lost", c->coord_x, c->coord_z);
}

int32_t chunk_get_cell_shared(const TerrainChunk *c, int x, int y, int z)
{
    chunk_lock(c);
    int32_t v = c->hot ? cell_load(&c->hot[CHUNK_INDEX(x, y, z)]) : chunk_get_cell_cold(c, x, y, z);
    chunk_unlock(c);
    return v;
}

void chunk_get_column_shared(const TerrainChunk *c, int x, int z, int y0, int count, int32_t *out)
{
    chunk_lock(c);
    if (c->hot) {
        const int32_t *column = &c->hot[CHUNK_INDEX(x, y0, z)];
        for (int i = 0; i < count; i++) out[i] = cell_load(&column[i]);
    } else {
        for (int y = y0, end = y0 + count; y < end;) {   /* a section at a time */
            int n = 16 - (y & 15) < end - y ? 16 - (y & 15) : end - y;
            section_get_column(&c->sections[y >> 4], x, z, y & 15, n, out + (y - y0));
            y += n;
        }
    }
    chunk_unlock(c);
}

void chunk_set_cell_shared(TerrainChunk *c, int x, int y, int z, int32_t v)
{
    chunk_lock(c);
    if (c->hot) cell_store(&c->hot[CHUNK_INDEX(x, y, z)], v);
    else chunk_set_cell_cold(c, x, y, z, v);
    chunk_unlock(c);
}

void chunk_copy_cells_out(const TerrainChunk *c, int32_t *out)
{
    chunk_lock(c);
    if (c->hot) {
        for (int i = 0; i < CHUNK_CELLS; i++) out[i] = cell_load(&c->hot[i]);
    } else {
        for (int s = 0; s < CHUNK_SECTIONS; s++) section_unpack_to_chunk(&c->sections[s], out, s);
    }
    chunk_unlock(c);
}

void chunk_copy_cells_in(TerrainChunk *c, const int32_t *in)
{
    chunk_make_hot(c);
    memcpy(c->hot, in, CHUNK_SCRATCH_BYTES);
}

void chunk_clear_cells(TerrainChunk *c)
{
    chunk_lock(c);
    chunk_drop_storage_locked(c);
    chunk_unlock(c);
}
