/* crash_chunks.h — the deterministic chunk versions shared by the crash writer and its driver.
 *
 * Step k of the writer saves version k of chunk crash_step_chunk(k); the contents of a version follow from
 * (chunk, version) alone, so the driver can rebuild what any version must look like. Sizes swing between
 * phases of small and large blobs (1..60 KB), so records move, files fragment and compaction runs. */
#ifndef STRATA_TEST_CRASH_CHUNKS_H
#define STRATA_TEST_CRASH_CHUNKS_H

#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"

#define CRASH_CHUNKS 48   /* 40 in region 0,0 and 8 in region -1,-1 */

static inline uint64_t crash_mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

static inline void crash_chunk_coords(int i, int *cx, int *cz)
{
    if (i < 40) {
        *cx = (i * 7) & 15;
        *cz = (i * 3 + i / 16) & 15;
    } else {
        *cx = -1 - (i - 40);
        *cz = -3 - (i - 40);
    }
}

static inline int crash_step_chunk(long step) { return (int)(crash_mix((uint64_t)step * 2654435761u + 17) % CRASH_CHUNKS); }

static inline void crash_make_chunk(TerrainChunk *c, int i, long version)
{
    int cx, cz;
    crash_chunk_coords(i, &cx, &cz);
    chunk_reset(c, cx, cz);
    uint64_t h = crash_mix((uint64_t)version * 0x9E3779B97F4A7C15ull + (uint64_t)i);
    int ground = 30 + (int)(h % 50);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            c->shafts[CHUNK_SHAFT_INDEX(x, z)] = shaft_set_humidity(shaft_set_temperature(0, (int)(h >> 8) & 15), x);
            int32_t *column = cell_view_column(chunk_cell_view(c), x, z);
            for (int y = 0; y < ground; y++) column[y] = cell_make(BLOCK_STONE, 0);
            column[ground] = cell_make(BLOCK_GRASS, 0);
        }
    /* Noise cells: few in small phases, many in large ones. */
    static const int ids[] = {BLOCK_DIRT, BLOCK_SAND, BLOCK_GRAVEL, BLOCK_PLANKS, BLOCK_GLASS, BLOCK_TORCH, BLOCK_BRICKS};
    long phase = version / 400;
    int noise = (int)((h >> 16) % (phase % 2 ? 20000u : 1500u));
    uint64_t r = h;
    for (int n = 0; n < noise; n++) {
        r = crash_mix(r + (uint64_t)n);
        int i = (int)(r & (CHUNK_CELLS - 1));
        chunk_set_cell(c, (i >> 8) & 15, i & 255, i >> 12, cell_make(ids[(r >> 16) % 7], (int)((r >> 24) & 0xFF)));
    }
    c->modification_counter = 1;
}

#endif
