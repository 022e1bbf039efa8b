/* sunlight.c — the InvalidLight step: sky light per column, shaft heights, emitter summary.
 *
 * Design. Each column is read once, from the top down (cells are contiguous in y):
 *   1. air above the first non-air cell (TopHeight) gets the sky light;
 *   2. from TopHeight down, while cells let sunlight through, the light loses each block's attenuation
 *      (water 2, leaves 3, air and glass 0); where it reaches 0 or meets an opaque block the sunlit part
 *      ends (SunlightHeight = the lowest sunlit y, 256 when even the top cell is dark, stored clamped to 255);
 *   3. every cell below gets light 0, except light-emitting blocks, which get their emission.
 * BottomHeight is the first cell from below that lets sunlight through.
 * Each column is first planned (read only), then light bits are written only where they differ, so an
 * unchanged chunk costs reads only. Writes are compare-and-swaps on pairs of cells, so a concurrent
 * main-thread edit of contents is never overwritten; light_compute_sunlight_unshared skips that for a
 * chunk no other thread can see yet (a locked operation costs ~5 ns, a plain store ~0.3 ns).
 * The step also records, for light_propagate, which slice quadrants hold emitters whose light can get out,
 * which rows hold transparent cells the sun does not reach, and the sky level it used
 * (chunk->worker_emitter_slices, worker_dark_rows, worker_sky_light): propagation then finds a
 * neighbour's emitters without scanning all of its cells, never needs that neighbour's propagated
 * light, and knows where its own chunk can still get brighter. */
#include "strata/light.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "strata/cell.h"

/* Per block id: emission in the low 4 bits, SUNLIGHT_PASSES when propagated light can enter it. */
#define SUNLIGHT_PASSES 0x10u

_Static_assert(offsetof(TerrainChunk, cells) % 8 == 0, "cell pairs must be 8-byte aligned for 64-bit CAS");

/* Cell pairs are updated with one 64-bit compare-and-swap: half the locked operations of per-cell
 * cell_store_light (a freshly generated chunk needs light in ~48k cells), with the same guarantee that
 * a contents change made meanwhile by another thread is kept. */
typedef int64_t __attribute__((may_alias)) SunlightPair;

#define SUNLIGHT_PAIR_LIGHT_MASK (((int64_t)CELL_LIGHT_MASK << 32) | CELL_LIGHT_MASK)

static inline int64_t sunlight_pair_with_light(int64_t pair, const uint8_t *want)
{
    return (pair & ~SUNLIGHT_PAIR_LIGHT_MASK) | ((int64_t)want[0] << CELL_LIGHT_SHIFT) |
           ((int64_t)want[1] << (32 + CELL_LIGHT_SHIFT));
}

/* Computes the light every cell of a column should have into want[]; returns the shaft with the three
 * heights replaced. Sets in *slices the slices holding emitters (of this column), ORs the rows holding
 * transparent cells without sun into dark[]; *dirty tells whether any cell's light differs from want[].
 * Reads only. */
static int32_t sunlight_plan_column(const int32_t *column, int32_t shaft, const BlockRegistry *blocks,
                                    const uint8_t *class, int sky, uint8_t want[CHUNK_SIZE_Y], uint32_t *slices,
                                    uint64_t dark[4], bool *dirty)
{
    const int32_t sky_air = (int32_t)sky << CELL_LIGHT_SHIFT;
    bool differs = false;
    int y = CHUNK_SIZE_Y - 1;
    int32_t v = 0;
    /* 1. air above TopHeight: the sky; runs already right are checked two cells per load */
    const int64_t sky_pair = (int64_t)(((uint64_t)(uint32_t)sky_air << 32) | (uint32_t)sky_air);
    for (; y >= 1; y -= 2) {
        if (__atomic_load_n((const SunlightPair *)&column[y - 1], __ATOMIC_RELAXED) != sky_pair) break;
        want[y] = want[y - 1] = (uint8_t)sky;
    }
    for (; y >= 0; y--) {
        v = cell_load(&column[y]);
        want[y] = (uint8_t)sky;
        if (v == sky_air) continue;
        if (cell_contents(v) != 0) break;
        differs = true;
    }
    int top = y < 0 ? 0 : y;
    /* 2. sunlight attenuated downwards (v holds the cell at y) */
    int light = sky;
    for (; y >= 0; v = y > 0 ? cell_load(&column[y - 1]) : 0, y--) {
        int c = cell_contents(v);
        if (!blocks->transparent_to_sun[c]) break;
        light -= blocks->attenuation[c];
        if (light <= 0) break;
        int e = class[c] & 15, w = e > light ? e : light;
        if (e) *slices |= 1u << (y >> 4);
        want[y] = (uint8_t)w;
        differs |= cell_light(v) != w;
    }
    int sunlit_from = y + 1;
    /* 3. darkness below, emitters keep their own light */
    uint32_t found = 0;
    for (; y >= 0; y--) {
        v = cell_load(&column[y]);
        unsigned k = class[cell_contents(v)];
        int e = (int)(k & 15);
        want[y] = (uint8_t)e;
        differs |= cell_light(v) != e;
        if (k) {
            found |= (uint32_t)(e != 0) << (y >> 4);
            dark[y >> 6] |= (uint64_t)(k >> 4) << (y & 63);
        }
    }
    *slices |= found;
    *dirty = differs;
    int bottom = 0;
    while (bottom < CHUNK_SIZE_Y - 1 && !blocks->transparent_to_sun[cell_contents(cell_load(&column[bottom]))])
        bottom++;
    shaft = shaft_set_top_height(shaft, top);
    shaft = shaft_set_bottom_height(shaft, bottom);
    return shaft_set_sunlight_height(shaft, sunlit_from > 255 ? 255 : sunlit_from);
}

/* Writes want[] into a column that other threads may edit: 64-bit CAS per pair that must change. */
static void sunlight_write_shared(int32_t *column, const uint8_t *want)
{
    for (int y = 0; y < CHUNK_SIZE_Y; y += 2) {
        SunlightPair *p = (SunlightPair *)&column[y];
        int64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
        for (;;) {
            int64_t nv = sunlight_pair_with_light(old, &want[y]);
            if (nv == old) break;
            if (__atomic_compare_exchange_n(p, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
        }
    }
}

/* Writes want[] into a column no other thread can touch: plain (relaxed) stores. */
static void sunlight_write_unshared(int32_t *column, const uint8_t *want)
{
    for (int y = 0; y < CHUNK_SIZE_Y; y++) {
        int32_t v = cell_load(&column[y]);
        if (cell_light(v) != want[y]) cell_store(&column[y], cell_replace_light(v, want[y]));
    }
}

/* Of the given slices of column (x, z), those holding an emitter whose light can go somewhere: the
 * emitter lets light through, or a face of it touches a cell that does (or another chunk). A magma
 * pocket sealed in rock then costs light_propagate nothing; an edit that opens it relights this chunk. */
static uint32_t sunlight_useful_emitter_slices(const TerrainChunk *chunk, const BlockRegistry *blocks, int x, int z,
                                               uint32_t slices)
{
    if (x == 0 || x == CHUNK_SIZE_X - 1 || z == 0 || z == CHUNK_SIZE_Z - 1) return slices;
    static const int step[6] = {1, -1, CHUNK_INDEX(1, 0, 0), -CHUNK_INDEX(1, 0, 0), CHUNK_INDEX(0, 0, 1),
                                -CHUNK_INDEX(0, 0, 1)};
    uint32_t useful = 0;
    for (int s = 0; s < CHUNK_SLICES; s++) {
        if (!(slices & (1u << s))) continue;
        for (int y = s * CHUNK_SLICE_HEIGHT; y < (s + 1) * CHUNK_SLICE_HEIGHT && !(useful & (1u << s)); y++) {
            int i = CHUNK_INDEX(x, y, z), c = cell_contents(cell_load(&chunk->cells[i]));
            if (!blocks->emission[c]) continue;
            bool open = blocks->attenuation[c] < LIGHT_MAX;
            for (int d = 0; d < 6 && !open; d++) {
                if ((d == 0 && y == CHUNK_SIZE_Y - 1) || (d == 1 && y == 0)) continue;
                open = blocks->attenuation[cell_contents(cell_load(&chunk->cells[i + step[d]]))] < LIGHT_MAX;
            }
            if (open) useful |= 1u << s;
        }
    }
    return useful;
}

/* worker_emitter_slices bits for column (x, z) whose emitters are in `slices` (those already set cost
 * nothing more). */
static uint64_t sunlight_emitter_blocks(const TerrainChunk *chunk, const BlockRegistry *blocks, int x, int z,
                                        uint32_t slices, uint64_t known)
{
    int quadrant = (x >= 8) + 2 * (z >= 8);
    uint32_t todo = 0;
    for (int s = 0; s < CHUNK_SLICES; s++)
        if ((slices & (1u << s)) && !((known >> (4 * s + quadrant)) & 1)) todo |= 1u << s;
    uint32_t useful = todo ? sunlight_useful_emitter_slices(chunk, blocks, x, z, todo) : 0;
    uint64_t bits = 0;
    for (int s = 0; s < CHUNK_SLICES; s++)
        if (useful & (1u << s)) bits |= 1ull << (4 * s + quadrant);
    return bits;
}

static void sunlight_chunk(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light, bool shared)
{
    int sky = sky_light < 0 ? 0 : sky_light > LIGHT_MAX ? LIGHT_MAX : sky_light;
    uint8_t class[BLOCK_MAX];
    for (int id = 0; id < BLOCK_MAX; id++)
        class[id] = (uint8_t)(blocks->emission[id] | (blocks->attenuation[id] < LIGHT_MAX ? SUNLIGHT_PASSES : 0));
    uint64_t emitter_blocks = 0;
    uint64_t dark[4] = {0, 0, 0, 0};
    uint8_t want[CHUNK_SIZE_Y];
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++) {
            int s = CHUNK_SHAFT_INDEX(x, z);
            int32_t *column = &chunk->cells[CHUNK_INDEX(x, 0, z)];
            bool dirty;
            uint32_t column_slices = 0;
            chunk->shafts[s] = sunlight_plan_column(column, chunk->shafts[s], blocks, class, sky, want, &column_slices,
                                                    dark, &dirty);
            if (column_slices) emitter_blocks |= sunlight_emitter_blocks(chunk, blocks, x, z, column_slices, emitter_blocks);
            if (!dirty) continue;
            if (shared) sunlight_write_shared(column, want);
            else sunlight_write_unshared(column, want);
        }
    chunk->worker_emitter_slices = emitter_blocks;
    chunk->worker_sky_light = (uint8_t)sky;
    memcpy(chunk->worker_dark_rows, dark, sizeof dark);
}

void light_compute_sunlight(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light)
{
    sunlight_chunk(chunk, blocks, sky_light, true);
}

void light_compute_sunlight_unshared(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light)
{
    sunlight_chunk(chunk, blocks, sky_light, false);
}
