/* mesher_blocklight.c — how much of a vertex's light is torch light: the warm block-light tint.
 *
 * Design. A cell holds one light value, the max of sunlight and block light (light_sunlight.c,
 * light_propagate.c), so a room lit by torches would be drawn in the same white as daylight. The mesher
 * recovers the block-light part for the slices that can have any: for a slice being rebuilt, when a chunk
 * of the 3x3 neighbourhood has a warm emitter (one that is not a fluid: mesher_bl_warm_emitter) in a quadrant
 * whose light can get out (TerrainChunk.worker_warm_emitter_slices, the light step's summary, bits for
 * quadrants of 16-cell slices) in the slice or the slices just above and below (light reaches 15 cells at
 * most), it floods block light alone from the warm emitters in those quadrants over a 48 x 48 x 48 grid (the
 * 3x3 chunks, 16 rows above and below the slice: a path that leaves it cannot come back to the slice with
 * light left), with the propagation's rule: a neighbour gets light - 1 - its block's attenuation, an emitter
 * at least its emission; a missing chunk blocks light. Dial's buckets, brightest first, as light_propagate.c.
 * The slab's part is copied into ctx->slab_block_light. Slices with no such emitter near (almost all) skip
 * all of it: one test of 9 words per slice. Only emitters that are not fluids seed the flood: magma's light
 * stays neutral, and since the summary leaves out quadrants whose only emitters are fluids (magma lakes lie
 * near most chunks of seed 1), a slice near magma alone is not even scanned. The summary flags exactly the
 * quadrants of worker_emitter_slices that hold a warm emitter, so the seeds are those a scan of every
 * flagged quadrant would find. A pass remembers which quadrants it scanned and found without a warm emitter
 * (ctx->bl_warm_quadrants, cleared at each pass's start: cells may change between passes; with the warm
 * summary such a quadrant is one edited since its light step), and a scan asks for the quadrant's 64 cache
 * lines before it reads them (the neighbours' cells there are rarely in cache).
 * A face corner reads the same 4 cells as its light (mesher_light_face_corners): when the brightest block
 * light among them reaches the brightest light, the light there is the torches' and the corner's colour is
 * multiplied by a candle colour, dimmed more the lower the level (from 1 next to a torch to 1/2 at light 0),
 * so torch light falls off towards darkness; otherwise (sun or sky brighter) it stays neutral.
 * Staleness: a slice keeps its geometry while its content hash (mesher.c: the slice's cells with a 2-cell
 * border, light bits included) is unchanged, and the warmth depends on emitters up to 15 cells away, which
 * the hash does not see. It cannot go stale but for ties: every cell a corner reads is hashed, and the real
 * light L of a cell is max(sky light, block light B) under the same flood rule this file mirrors. When an
 * emitter beyond the border is placed, removed or walled off, a cell's B changes; if its L stays the same,
 * B was and stays <= L (the sky's light explains L), so a corner whose warmth is "some cell's B reaches the
 * brightest L" flips only where B comes to equal or leaves exactly the sky's level there. Such a tie is
 * drawn with the warmth of its last build until the next change rebuilds the slice; everywhere else a
 * change of warmth is a change of light bits, which rebuilds it. Hashing the emitters near (worker_emitter_
 * slices) was tried and dropped: it rebuilt the slices next to every torch edit and still missed moves
 * inside a quadrant. Slices without emitters near keep the exact colours and hashes they had before. */
#include <stdlib.h>
#include <string.h>

#include "mesher_internal.h"

#define BL_GRID   48
#define BL_STRIDE_Y 1
#define BL_STRIDE_X BL_GRID
#define BL_STRIDE_Z (BL_GRID * BL_GRID)
#define BL_CELLS  (BL_GRID * BL_GRID * BL_GRID)

/* Candle colour the corner's RGB is multiplied by (of 256) where the torches explain its light. */
static const uint16_t MESHER_WARM[3] = {256, 188, 120};
/* and by dim / 256 at light level l: dim = MESHER_WARM_DIM + (256 - MESHER_WARM_DIM) * l / 15, so torch light
 * falls off towards darkness faster than daylight's curve alone (a room lit 7..14 would read as day) */
#define MESHER_WARM_DIM 128u

/* The bits of a summary (worker_warm_emitter_slices) for slices s-1..s+1 (12 bits, shifted to bit 0). */
static inline uint64_t mesher_emitter_bits(uint64_t summary, int slice)
{
    int lo = slice > 0 ? slice - 1 : 0, hi = slice + 1 < CHUNK_SLICES ? slice + 1 : CHUNK_SLICES - 1;
    uint64_t mask = (hi - lo + 1) * 4 >= 64 ? ~0ull : ((1ull << ((hi - lo + 1) * 4)) - 1);
    return summary >> (4 * lo) & mask;
}

bool mesher_blocklight_near(const MesherContext *ctx, int slice)
{
    uint64_t any = 0;
    for (int n = 0; n < 9; n++) any |= mesher_emitter_bits(ctx->warm_emitter_slices[n], slice);
    return any != 0;
}

/* ---- flood ---- */

/* An emitter whose light is drawn warm: any emitting block but a fluid. Magma lakes are common deep down and
 * their light reaches far (a flood per slice near every lake cost the vertex passes ~50 us a chunk); magma
 * shows its own glow, and its light stays neutral. */
static inline bool mesher_bl_warm_emitter(const BlockRegistry *blocks, int id)
{
    return blocks->emission[id] && blocks->shape[id] != BLOCK_SHAPE_FLUID;
}

/* Bit k set where row y0 + k (k 0..15) of a column holds an emitter (ctx->bl_ids, or any emitting block
 * when there are more than 8 kinds): 4 loads and a compare per kind for 16 cells, no branch per cell. */
static inline uint32_t mesher_bl_emitter_rows(const MesherContext *ctx, const int32_t *rows)
{
#if defined(__SSE2__)
    if (ctx->bl_id_count <= 8) {
        const __m128i low = _mm_set1_epi32(0x3ff);
        __m128i c[4], hit[4];
        for (int j = 0; j < 4; j++) {
            c[j] = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(rows + 4 * j)), low);
            hit[j] = _mm_setzero_si128();
        }
        for (int i = 0; i < ctx->bl_id_count; i++) {
            __m128i id = _mm_set1_epi32(ctx->bl_ids[i]);
            for (int j = 0; j < 4; j++) hit[j] = _mm_or_si128(hit[j], _mm_cmpeq_epi32(c[j], id));
        }
        __m128i packed = _mm_packs_epi16(_mm_packs_epi32(hit[0], hit[1]), _mm_packs_epi32(hit[2], hit[3]));
        return (uint32_t)_mm_movemask_epi8(packed);
    }
#endif
    uint32_t m = 0;
    for (int k = 0; k < CHUNK_SLICE_HEIGHT; k++)
        if (mesher_bl_warm_emitter(ctx->blocks, cell_contents(cell_load(&rows[k])))) m |= 1u << k;
    return m;
}

static inline void mesher_bl_prefetch(const int32_t *rows)
{
#if defined(__SSE2__)
    _mm_prefetch((const char *)rows, _MM_HINT_T0);
#else
    (void)rows;
#endif
}

void mesher_blocklight_begin_pass(MesherContext *ctx)
{
    memset(ctx->bl_warm_quadrants, 0, sizeof ctx->bl_warm_quadrants);
}

/* Cells between the grid span [lo, hi] and the slab's span (grid 15..32) on one axis. */
static inline int mesher_bl_gap(int lo, int hi)
{
    return hi < 15 ? 15 - hi : lo > 32 ? lo - 32 : 0;
}

/* Contents of grid cell (gx, gy, gz) (chunk-local x = gx - 16, world y = y_base + gy); -1 where light
 * cannot go (a missing chunk, outside the world). */
static inline int mesher_bl_contents(const MesherContext *ctx, int gx, int gy, int gz, int y_base)
{
    int wy = y_base + gy;
    if (wy < 0 || wy >= CHUNK_SIZE_Y) return -1;
    int lx = gx - 16, lz = gz - 16;
    int n = ((lz >> 4) + 1) * 3 + (lx >> 4) + 1;
    if (ctx->neighbour_missing[n]) return -1;
    return cell_contents(cell_load(&cell_view_const_column(ctx->neighbours[n], lx & 15, lz & 15)[wy]));
}

bool mesher_blocklight_prepare(MesherContext *ctx, int slice)
{
    ctx->block_light_active = false;
    if (!mesher_blocklight_near(ctx, slice)) return false;
    if (!ctx->bl_grid && !(ctx->bl_grid = calloc(1, BL_CELLS))) return false;   /* no warmth: neutral colours */
    uint8_t *grid = ctx->bl_grid;
    /* the last flood's cells back to 0: every cell it raised is in a bucket (levels 0 and 1 included) */
    LevelBuckets *queue = &ctx->bl_buckets;
    for (int l = 0; l <= LIGHT_MAX; l++) {
        for (int k = 0; k < queue->count[l]; k++) grid[queue->data[l][k]] = 0;
        queue->count[l] = 0;
    }
    const BlockRegistry *blocks = ctx->blocks;
    if (ctx->bl_ids_blocks != blocks) {
        ctx->bl_ids_blocks = blocks;
        ctx->bl_id_count = 0;
        for (int id = 0; id < BLOCK_MAX; id++) {
            if (!mesher_bl_warm_emitter(blocks, id)) continue;
            if (ctx->bl_id_count < 8) ctx->bl_ids[ctx->bl_id_count] = (uint16_t)id;
            ctx->bl_id_count++;
        }
    }
    int y_base = slice * CHUNK_SLICE_HEIGHT - 16;
    bool ok = true;
    int seeds = 0;
    /* seeds: the emitters of the flagged quadrants */
    for (int n = 0; n < 9; n++) {
        uint64_t bits = ctx->warm_emitter_slices[n];
        if (!bits || ctx->neighbour_missing[n]) continue;
        int cx = n % 3, cz = n / 3;
        for (int s = slice - 1; s <= slice + 1; s++) {
            if (s < 0 || s >= CHUNK_SLICES) continue;
            for (int q = 0; q < 4; q++) {
                if (!(bits >> (4 * s + q) & 1)) continue;
                int x0 = cx * 16 + (q & 1) * 8, z0 = cz * 16 + (q >> 1) * 8, gy0 = s * CHUNK_SLICE_HEIGHT - y_base;
                if (mesher_bl_gap(x0, x0 + 7) + mesher_bl_gap(z0, z0 + 7) + mesher_bl_gap(gy0, gy0 + 15) >= LIGHT_MAX)
                    continue;   /* too far from the slab for any light to arrive */
                uint8_t *memo = &ctx->bl_warm_quadrants[n][s];
                if ((*memo >> (4 + q) & 1) && !(*memo >> q & 1)) continue;   /* scanned this pass: none warm */
                for (int gz = z0; gz < z0 + 8; gz++)   /* the quadrant's 64 lines asked for at once */
                    for (int gx = x0; gx < x0 + 8; gx++)
                        mesher_bl_prefetch(&cell_view_const_column(ctx->neighbours[n], gx & 15, gz & 15)[y_base + gy0]);
                bool warm = false;
                for (int gz = z0; gz < z0 + 8; gz++)
                    for (int gx = x0; gx < x0 + 8; gx++) {
                        const int32_t *col = cell_view_const_column(ctx->neighbours[n], gx & 15, gz & 15);
                        uint32_t rows = mesher_bl_emitter_rows(ctx, &col[y_base + gy0]);
                        warm = warm || rows;
                        while (rows) {
                            int gy = gy0 + __builtin_ctz(rows);
                            rows &= rows - 1;
                            int id = cell_contents(cell_load(&col[y_base + gy]));
                            int e = mesher_bl_warm_emitter(blocks, id) ? blocks->emission[id] : 0;
                            if (!e || mesher_bl_gap(gx, gx) + mesher_bl_gap(gy, gy) + mesher_bl_gap(gz, gz) >= e) continue;
                            int i = gy + gx * BL_STRIDE_X + gz * BL_STRIDE_Z;
                            if (e > grid[i]) {
                                grid[i] = (uint8_t)e;
                                ok = ok && level_buckets_push(queue, e, (uint32_t)i);
                                seeds++;
                            }
                        }
                    }
                *memo = (uint8_t)(*memo | 1u << (4 + q) | (unsigned)warm << q);
            }
        }
    }
    if (seeds == 0) return false;   /* only fluid emitters (magma) near: neutral, as the slices without any */
    /* flood, brightest first */
    static const int step[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int level = LIGHT_MAX; level >= 2 && ok; level--) {
        for (int k = 0; k < queue->count[level] && ok; k++) {
            int i = (int)queue->data[level][k];
            if (grid[i] != level) continue;   /* raised since it was queued */
            int gy = i % BL_GRID, gx = i / BL_GRID % BL_GRID, gz = i / BL_STRIDE_Z;
            for (int d = 0; d < 6; d++) {
                int x = gx + step[d][0], y = gy + step[d][1], z = gz + step[d][2];
                if ((unsigned)x >= BL_GRID || (unsigned)y >= BL_GRID || (unsigned)z >= BL_GRID) continue;
                int j = y + x * BL_STRIDE_X + z * BL_STRIDE_Z;
                if (grid[j] >= level - 1) continue;
                int id = mesher_bl_contents(ctx, x, y, z, y_base);
                if (id < 0) continue;
                int light = level - 1 - blocks->attenuation[id];
                if (light <= grid[j]) continue;
                grid[j] = (uint8_t)light;
                ok = level_buckets_push(queue, light, (uint32_t)j);   /* levels 0, 1: kept only to be cleared */
            }
        }
    }
    if (!ok) {   /* a push failed (out of memory): a raised cell may be in no bucket, so clear the whole grid */
        memset(grid, 0, BL_CELLS);
        for (int l = 0; l <= LIGHT_MAX; l++) queue->count[l] = 0;
        return false;
    }
    /* the slab's part: slab (x, y, z) in -1..16 is grid (x + 16, y + 16, z + 16) */
    for (int z = -1; z <= CHUNK_SIZE_Z; z++)
        for (int x = -1; x <= CHUNK_SIZE_X; x++)
            memcpy(&ctx->slab_block_light[SLAB_INDEX(x, -1, z)], &grid[15 + (x + 16) * BL_STRIDE_X + (z + 16) * BL_STRIDE_Z],
                   SLAB_SIZE);
    ctx->block_light_active = true;
    return true;
}

void mesher_blocklight_free(MesherContext *ctx)
{
    free(ctx->bl_grid);
    ctx->bl_grid = NULL;
    level_buckets_free(&ctx->bl_buckets);
}

/* ---- colour ---- */

void mesher_blocklight_tint_face(const MesherContext *ctx, int cell, int face, int first, uint8_t color[4][4])
{
    const MesherFaceTaps *t = &ctx->taps[face];
    const int32_t *slab = ctx->slab;
    const uint8_t *bl = ctx->slab_block_light;
    int front = cell + t->front;
    for (int i = 0; i < 4; i++) {
        int k = (first + i) & 3;
        int light = cell_light(slab[front]), block = bl[front];
        for (int j = 0; j < 3; j++) {
            int c = front + t->around[k][j];
            int l = cell_light(slab[c]);
            if (l > light) light = l;
            if (bl[c] > block) block = bl[c];
        }
        if (block == 0 || block < light) continue;   /* sun or sky explains it: neutral */
        unsigned dim = MESHER_WARM_DIM + (256u - MESHER_WARM_DIM) * (unsigned)light / LIGHT_MAX;
        for (int ch = 0; ch < 3; ch++) color[i][ch] = (uint8_t)((color[i][ch] * MESHER_WARM[ch] * dim) >> 16);
    }
}
