/* light_sunlight.c — the InvalidLight step: sky light per column, shaft heights, and the chunk's own light flood.
 *
 * Design. The step computes everything about a chunk's light that needs no neighbour: each cell ends at
 * the brightest light that reaches it from this chunk's own sources along paths inside this chunk (its
 * "own light"). light_propagate then only adds light that crosses chunk borders, and may read any
 * neighbour's light bits as a lower bound of that neighbour's final light (see light_propagate.c).
 *   1. Columns, each read once from the top down (cells are contiguous in y):
 *      - air above the first non-air cell (TopHeight) gets the sky light; sky already right is checked
 *        sixteen cells per test;
 *      - from TopHeight down, while cells let sunlight through, the light loses each block's attenuation
 *        (water 2, leaves 3, air and glass 0); where it reaches 0 or meets an opaque block the sunlit part
 *        ends (SunlightHeight = the lowest sunlit y, 256 when even the top cell is dark, stored clamped);
 *      - every cell below gets light 0, except light-emitting blocks, which get their emission; runs of
 *        identical cells (buried stone) cost one compare per two to eight cells;
 *      - BottomHeight, the lowest cell that lets sunlight through, is tracked on the way down.
 *      A cell darker than this is written at once. A brighter one (light the last run's flood or the last
 *      propagation gave it) is only noted ("deferred", with its column light): the flood in 3. either
 *      brings it back to the light it holds, which costs no write, or it is lowered at the end. An
 *      unchanged chunk that is lit again thus costs reads only.
 *   2. Seeds: emitters, and cells next to a sunlit cell of a neighbouring column that would pass them more
 *      light than they have (vertical neighbours can never gain: sunlight does not increase downwards, and
 *      where it dies the next block's attenuation is at least the light left). Only rows between the
 *      sunlit column's SunlightHeight and the other column's TopHeight can qualify.
 *   3. A bucket flood (Dial's algorithm, light_internal.h) inside the chunk.
 * Writes to a chunk other threads can see are compare-and-swaps that change only the light bits (two
 * cells per 64-bit operation in the sky), so a concurrent main-thread edit of contents is never lost;
 * light_compute_sunlight_unshared uses plain stores for a chunk nobody else can see yet (a locked
 * operation costs several ns, a plain store a fraction of one).
 * The step also records for light_propagate the rows where the chunk's border ring may hold light
 * (worker_dark_rows, see light_internal.h), the sky level it used (worker_sky_light), and which slice
 * quadrants hold emitters whose light can get out (worker_emitter_slices, a summary for tools and tests),
 * and which of those hold an emitter that is not a fluid (worker_warm_emitter_slices: where the mesher's warm
 * tint floods block light; a quadrant of magma alone is left out). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "light_internal.h"
#include "strata/cell.h"
#include "strata/log.h"

/* Two cells (y even, y + 1) as one 64-bit word: chunk.h guarantees views' columns are 8-byte aligned. */
typedef int64_t __attribute__((may_alias)) SunlightPair;

#define SUNLIGHT_PREFETCH_COLUMNS 1   /* how far ahead the column scan asks for memory */

#define SUNLIGHT_PAIR_LIGHT_MASK    (((int64_t)CELL_LIGHT_MASK << 32) | CELL_LIGHT_MASK)
#define SUNLIGHT_PAIR_CONTENTS_MASK (((int64_t)CELL_CONTENTS_MASK << 32) | CELL_CONTENTS_MASK)

/* ---- writes ---- */

/* Gives the cell at p (whose value was v when read) light `light`. */
static inline void sunlight_set(int32_t *p, int32_t v, int light, bool shared)
{
    if (shared) cell_store_light(p, light);
    else cell_store(p, cell_replace_light(v, light));
}

/* Gives both cells of an all-air pair the sky light. */
static inline void sunlight_set_pair(SunlightPair *p, int64_t old, int64_t sky_bits, bool shared)
{
    if (!shared) {
        __atomic_store_n(p, (old & ~SUNLIGHT_PAIR_LIGHT_MASK) | sky_bits, __ATOMIC_RELAXED);
        return;
    }
    for (;;) {
        int64_t nv = (old & ~SUNLIGHT_PAIR_LIGHT_MASK) | sky_bits;
        if (nv == old) return;
        if (__atomic_compare_exchange_n(p, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
}

/* ---- emitter summary ---- */

/* Of the given slices of column (x, z), those holding an emitter whose light can go somewhere: the
 * emitter lets light through, or a face of it touches a cell that does (or another chunk). */
static uint32_t sunlight_useful_emitter_slices(CellViewConst cells, const BlockRegistry *blocks, int x, int z,
                                               uint32_t slices)
{
    if (x == 0 || x == CHUNK_SIZE_X - 1 || z == 0 || z == CHUNK_SIZE_Z - 1) return slices;
    static const int step[6] = {1, -1, CHUNK_INDEX(1, 0, 0), -CHUNK_INDEX(1, 0, 0), CHUNK_INDEX(0, 0, 1),
                                -CHUNK_INDEX(0, 0, 1)};
    uint32_t useful = 0;
    for (int s = 0; s < CHUNK_SLICES; s++) {
        if (!(slices & (1u << s))) continue;
        for (int y = s * CHUNK_SLICE_HEIGHT; y < (s + 1) * CHUNK_SLICE_HEIGHT && !(useful & (1u << s)); y++) {
            int i = CHUNK_INDEX(x, y, z), c = cell_contents(cell_load(cell_view_const_at(cells, i)));
            if (!blocks->emission[c]) continue;
            bool open = blocks->attenuation[c] < LIGHT_MAX;
            for (int d = 0; d < 6 && !open; d++) {
                if ((d == 0 && y == CHUNK_SIZE_Y - 1) || (d == 1 && y == 0)) continue;
                int n = cell_contents(cell_load(cell_view_const_at(cells, i + step[d])));
                open = blocks->attenuation[n] < LIGHT_MAX;
            }
            if (open) useful |= 1u << s;
        }
    }
    return useful;
}

/* The bits of `slices` (bit s) as worker_emitter_slices bits of column (x, z)'s quadrant. */
static uint64_t sunlight_quadrant_bits(uint32_t slices, int x, int z)
{
    int quadrant = (x >= 8) + 2 * (z >= 8);
    uint64_t bits = 0;
    for (; slices; slices &= slices - 1) bits |= 1ull << (4 * __builtin_ctz(slices) + quadrant);
    return bits;
}

/* worker_emitter_slices bits for column (x, z) whose emitters are in `slices`. */
static uint64_t sunlight_emitter_blocks(CellViewConst cells, const BlockRegistry *blocks, int x, int z,
                                        uint32_t slices, uint64_t known)
{
    int quadrant = (x >= 8) + 2 * (z >= 8);
    uint32_t todo = 0;
    for (int s = 0; s < CHUNK_SLICES; s++)
        if ((slices & (1u << s)) && !((known >> (4 * s + quadrant)) & 1)) todo |= 1u << s;
    uint32_t useful = todo ? sunlight_useful_emitter_slices(cells, blocks, x, z, todo) : 0;
    uint64_t bits = 0;
    for (int s = 0; s < CHUNK_SLICES; s++)
        if (useful & (1u << s)) bits |= 1ull << (4 * s + quadrant);
    return bits;
}

/* ---- columns ---- */

typedef struct SunlightRun {
    TerrainChunk *chunk;
    CellView view;                         /* the chunk's cells, for this step */
    const BlockRegistry *blocks;
    const uint8_t *class;
    int sky;
    bool shared;
    LevelBuckets *q;
    uint8_t *own;                          /* light of a deferred cell (valid where `deferred` is set) */
    uint64_t deferred[CHUNK_CELLS / 64];   /* cells brighter than their sunlight: lowered only if the
                                            * flood does not bring them back to what they have */
    uint64_t rows[4];                      /* border-ring rows, see light_internal.h */
    int16_t top[CHUNK_SHAFTS];             /* per column: TopHeight */
    int16_t sunlit_from[CHUNK_SHAFTS];     /* per column: lowest sunlit y, 256 when none */
} SunlightRun;

static inline bool sunlight_is_deferred(const SunlightRun *r, int i)
{
    return (r->deferred[i >> 6] >> (i & 63)) & 1;
}

/* The light cell i has in this run (v: its value when read). */
static inline int sunlight_current(const SunlightRun *r, int i, int32_t v)
{
    return sunlight_is_deferred(r, i) ? r->own[i] : cell_light(v);
}

/* Cell i (value v when read) should have at least light `want` from the columns: a darker cell is
 * written now; a brighter one (light from the last run's flood or propagation) keeps its bits until the
 * flood has decided, so an unchanged chunk writes nothing. */
static inline void sunlight_want(SunlightRun *r, int i, int32_t v, int want)
{
    int light = cell_light(v);
    if (light == want) return;
    if (light < want) {
        sunlight_set(cell_view_at(r->view, i), v, want, r->shared);
        return;
    }
    r->deferred[i >> 6] |= 1ull << (i & 63);
    r->own[i] = (uint8_t)want;
}

/* State of the scan below a column's sunlit part. */
typedef struct SunlightDark {
    int bottom;            /* lowest cell that lets sunlight through, so far */
    uint32_t slices;       /* slices holding emitters */
    uint32_t warm;         /* slices holding warm emitters (LIGHT_CLASS_WARM) */
    bool run_ok, run_sun;  /* run_pair: two copies of the last cell, which was right and no emitter */
    int64_t run_pair;
} SunlightDark;

/* One cell below the sunlit part: light 0, or its emission for an emitter. */
static inline __attribute__((always_inline)) void sunlight_dark_cell(SunlightRun *r, SunlightDark *dark, int base,
                                                                      int y, bool border)
{
    int32_t v = cell_load(cell_view_at(r->view, base + y));
    unsigned k = r->class[cell_contents(v)];
    int e = (int)(k & 15);
    if (k & LIGHT_CLASS_SUN) dark->bottom = y;
    dark->run_ok = cell_light(v) == e && !e;
    if (dark->run_ok) {
        dark->run_pair = (int64_t)(((uint64_t)(uint32_t)v << 32) | (uint32_t)v);
        dark->run_sun = (k & LIGHT_CLASS_SUN) != 0;
        return;
    }
    sunlight_want(r, base + y, v, e);
    if (!e) return;
    dark->slices |= 1u << (y >> 4);
    if (k & LIGHT_CLASS_WARM) dark->warm |= 1u << (y >> 4);
    if (e >= 2) {
        level_buckets_push(r->q, e, (uint32_t)(base + y));
        if (border) light_mark_row(r->rows, y);
    }
}

/* Lights column (x, z), queues its emitters, updates its shaft. Returns the slices holding emitters (bit s),
 * and those holding warm ones (LIGHT_CLASS_WARM, bit 16 + s). */
static uint32_t sunlight_column(SunlightRun *r, int x, int z)
{
    const BlockRegistry *blocks = r->blocks;
    const uint8_t *class = r->class;
    const bool shared = r->shared, border = light_is_border_column(x, z);
    const int sky = r->sky, base = CHUNK_INDEX(x, 0, z);
    int32_t *column = cell_view_column(r->view, x, z);
    const int32_t sky_air = (int32_t)sky << CELL_LIGHT_SHIFT;
    const int64_t sky_bits = (int64_t)(((uint64_t)(uint32_t)sky_air << 32) | (uint32_t)sky_air);
    const int64_t pair_sky_light = sky_bits;   /* the light bits of a pair at the sky level */
    uint32_t slices = 0, warm = 0;

    /* 1. air above TopHeight: the sky, sixteen or eight cells per test while they are right already,
     * then pairs */
    int y = CHUNK_SIZE_Y - 1;
    for (; y >= 15; y -= 16) {
        const SunlightPair *p = (const SunlightPair *)&column[y - 15];
        int64_t d = 0;
        for (int i = 0; i < 8; i++) d |= __atomic_load_n(&p[i], __ATOMIC_RELAXED) ^ sky_bits;
        if (d) break;
    }
    for (; y >= 7; y -= 8) {
        SunlightPair *p = (SunlightPair *)&column[y - 7];
        int64_t p0 = __atomic_load_n(&p[0], __ATOMIC_RELAXED), p1 = __atomic_load_n(&p[1], __ATOMIC_RELAXED);
        int64_t p2 = __atomic_load_n(&p[2], __ATOMIC_RELAXED), p3 = __atomic_load_n(&p[3], __ATOMIC_RELAXED);
        if (!((p0 ^ sky_bits) | (p1 ^ sky_bits) | (p2 ^ sky_bits) | (p3 ^ sky_bits))) continue;
        if (p0 | p1 | p2 | p3) break;
        /* eight cells of unlit plain air (a fresh chunk) */
        sunlight_set_pair(&p[0], 0, sky_bits, shared);
        sunlight_set_pair(&p[1], 0, sky_bits, shared);
        sunlight_set_pair(&p[2], 0, sky_bits, shared);
        sunlight_set_pair(&p[3], 0, sky_bits, shared);
    }
    for (; y >= 1; y -= 2) {
        SunlightPair *p = (SunlightPair *)&column[y - 1];
        int64_t pair = __atomic_load_n(p, __ATOMIC_RELAXED);
        if (pair == sky_bits) continue;
        if (pair & SUNLIGHT_PAIR_CONTENTS_MASK) break;
        if ((pair & SUNLIGHT_PAIR_LIGHT_MASK) == pair_sky_light) continue;   /* air with data bits */
        if (cell_light((int32_t)pair) <= sky && cell_light((int32_t)(pair >> 32)) <= sky) {
            sunlight_set_pair(p, pair, sky_bits, shared);
        } else {
            sunlight_want(r, base + y - 1, (int32_t)pair, sky);
            sunlight_want(r, base + y, (int32_t)(pair >> 32), sky);
        }
    }
    int32_t v = 0;
    for (; y >= 0; y--) {
        v = cell_load(&column[y]);
        if (cell_contents(v) != 0) break;
        sunlight_want(r, base + y, v, sky);
    }
    int top = y < 0 ? 0 : y;
    int bottom = y < 0 ? 0 : y < CHUNK_SIZE_Y - 1 ? y + 1 : CHUNK_SIZE_Y - 1;

    /* 2. sunlight attenuated downwards (v holds the cell at y) */
    int light = sky;
    for (; y >= 0; v = y > 0 ? cell_load(&column[y - 1]) : 0, y--) {
        int c = cell_contents(v);
        if (!blocks->transparent_to_sun[c]) break;
        light -= blocks->attenuation[c];
        if (light <= 0) break;
        bottom = y;
        int e = class[c] & 15, w = e > light ? e : light;
        sunlight_want(r, base + y, v, w);
        if (border && w >= 2) light_mark_row(r->rows, y);
        if (e) {
            slices |= 1u << (y >> 4);
            if (class[c] & LIGHT_CLASS_WARM) warm |= 1u << (y >> 4);
            if (w >= 2) level_buckets_push(r->q, w, (uint32_t)(base + y));
        }
    }
    int sunlit_from = y + 1;

    /* 3. darkness below; emitters keep their own light. Read a pair of cells per load: a pair equal to
     * two copies of a cell already right (and not an emitter: buried stone) is right too, and so are
     * the three pairs after it when they are equal as well. */
    SunlightDark dark = {.bottom = bottom, .slices = slices, .warm = warm};
    if (y >= 0 && !(y & 1)) sunlight_dark_cell(r, &dark, base, y--, border);   /* then pairs (y - 1, y) */
    for (; y >= 1; y -= 2) {
        const SunlightPair *p = (const SunlightPair *)&column[y - 1];
        int64_t pair = __atomic_load_n(p, __ATOMIC_RELAXED);
        if (dark.run_ok && pair == dark.run_pair) {
            if (y >= 7 && !((__atomic_load_n(&p[-1], __ATOMIC_RELAXED) ^ pair) |
                            (__atomic_load_n(&p[-2], __ATOMIC_RELAXED) ^ pair) |
                            (__atomic_load_n(&p[-3], __ATOMIC_RELAXED) ^ pair)))
                y -= 6;
            if (dark.run_sun) dark.bottom = y - 1;
            continue;
        }
        sunlight_dark_cell(r, &dark, base, y, border);
        sunlight_dark_cell(r, &dark, base, y - 1, border);
    }
    bottom = dark.bottom;
    slices = dark.slices | dark.warm << 16;

    int s = CHUNK_SHAFT_INDEX(x, z);
    r->top[s] = (int16_t)top;
    r->sunlit_from[s] = (int16_t)sunlit_from;
    int32_t shaft = r->chunk->shafts[s];
    shaft = shaft_set_top_height(shaft, top);
    shaft = shaft_set_bottom_height(shaft, bottom);
    r->chunk->shafts[s] = shaft_set_sunlight_height(shaft, sunlit_from > 255 ? 255 : sunlit_from);
    return slices;
}

/* ---- the chunk's own flood ---- */

/* Raises cell i (value v when read) to `light` and queues it. A deferred cell raised back to the light
 * it already holds needs no write. */
static inline __attribute__((always_inline)) void sunlight_raise(SunlightRun *r, int i, int32_t v, int light)
{
    uint64_t bit = 1ull << (i & 63);
    if (r->deferred[i >> 6] & bit) {
        r->deferred[i >> 6] &= ~bit;
        if (cell_light(v) != light) sunlight_set(cell_view_at(r->view, i), v, light, r->shared);
    } else {
        sunlight_set(cell_view_at(r->view, i), v, light, r->shared);
    }
    if (light < 2) return;
    if (light_is_border_column((i >> 8) & 15, i >> 12)) light_mark_row(r->rows, i & 255);
    level_buckets_push(r->q, light, (uint32_t)i);
}

/* Cells of column b that sunlit cells of the neighbouring column a can brighten: rows from a's
 * SunlightHeight to b's TopHeight (above it b is sky). */
static void sunlight_seed_rows(SunlightRun *r, int a, int b, int y0, int y1)
{
    int sa = CHUNK_INDEX(a & 15, 0, a >> 4), sb = CHUNK_INDEX(b & 15, 0, b >> 4);
    const int32_t *ca = cell_view_at(r->view, sa), *cb = cell_view_at(r->view, sb);
    const uint8_t *attenuation = r->blocks->attenuation;
    for (int y = y0; y <= y1; y++) {
        int la = sunlight_current(r, sa + y, cell_load(&ca[y]));
        int32_t vb = cell_load(&cb[y]);
        int lb = sunlight_current(r, sb + y, vb);
        if (la - 1 <= lb) continue;
        int nl = la - 1 - attenuation[cell_contents(vb)];
        if (nl > lb) sunlight_raise(r, sb + y, vb, nl);
    }
}

static inline void sunlight_seed_edge(SunlightRun *r, int a, int b)
{
    if (r->sunlit_from[a] <= r->top[b]) sunlight_seed_rows(r, a, b, r->sunlit_from[a], r->top[b]);
}

static void sunlight_flood(SunlightRun *r)
{
    const uint8_t *attenuation = r->blocks->attenuation;
    const CellView view = r->view;
    LevelBuckets *q = r->q;
    for (int level = LIGHT_MAX; level >= 2; level--) {
        for (int k = 0; k < q->count[level]; k++) {
            int i = (int)q->data[level][k];
            if (sunlight_current(r, i, cell_load(cell_view_at(view, i))) != level) continue;   /* raised again since */
            int y = i & 255, x = (i >> 8) & 15, z = i >> 12;
            int n[6], m = 0;
            if (y < CHUNK_SIZE_Y - 1) n[m++] = i + 1;
            if (y > 0) n[m++] = i - 1;
            if (x < CHUNK_SIZE_X - 1) n[m++] = i + CHUNK_INDEX(1, 0, 0);
            if (x > 0) n[m++] = i - CHUNK_INDEX(1, 0, 0);
            if (z < CHUNK_SIZE_Z - 1) n[m++] = i + CHUNK_INDEX(0, 0, 1);
            if (z > 0) n[m++] = i - CHUNK_INDEX(0, 0, 1);
            for (int d = 0; d < m; d++) {
                int32_t nv = cell_load(cell_view_at(view, n[d]));
                int nl = level - 1 - attenuation[cell_contents(nv)];
                if (nl > sunlight_current(r, n[d], nv)) sunlight_raise(r, n[d], nv, nl);
            }
        }
        q->count[level] = 0;
    }
}

/* Deferred cells the flood did not reach keep only their sunlight. */
static void sunlight_lower_deferred(SunlightRun *r)
{
    const CellView view = r->view;
    for (int w = 0; w < CHUNK_CELLS / 64; w++) {
        for (uint64_t bits = r->deferred[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            int32_t *p = cell_view_at(view, i);
            sunlight_set(p, cell_load(p), r->own[i], r->shared);
        }
        r->deferred[w] = 0;
    }
}

void light_sunlight_run(TerrainChunk *chunk, const LightTables *tables, int sky_light, bool shared, uint8_t *own,
                        LevelBuckets *q)
{
    SunlightRun *r = &(SunlightRun){0};
    r->chunk = chunk;
    r->view = chunk_cell_view(chunk);
    r->blocks = tables->blocks;
    r->class = tables->class;
    r->sky = sky_light < 0 ? 0 : sky_light > LIGHT_MAX ? LIGHT_MAX : sky_light;
    r->shared = shared;
    r->q = q;
    r->own = own;
    q->failed = false;
    for (int level = 0; level <= LIGHT_MAX; level++) q->count[level] = 0;
    uint64_t emitter_blocks = 0, warm_blocks = 0;   /* warm_blocks: quadrants holding a warm emitter */
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++) {
            /* Columns are read top-down, which the hardware prefetchers follow poorly: ask for the next
             * column (1 KB) while this one is processed. */
            int ahead = CHUNK_INDEX(x, 0, z) + SUNLIGHT_PREFETCH_COLUMNS * CHUNK_SIZE_Y;
            if (ahead < CHUNK_CELLS) {
                const char *next = (const char *)cell_view_at(r->view, ahead);
                for (int line = 0; line < CHUNK_SIZE_Y * 4; line += 64) __builtin_prefetch(next + line);
            }
            uint32_t found = sunlight_column(r, x, z), slices = found & 0xFFFFu;
            if (slices)
                emitter_blocks |= sunlight_emitter_blocks(cell_view_to_const(r->view), r->blocks, x, z, slices,
                                                          emitter_blocks);
            if (found >> 16) warm_blocks |= sunlight_quadrant_bits(found >> 16, x, z);
        }
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++) {
            int s = CHUNK_SHAFT_INDEX(x, z);
            if (x + 1 < CHUNK_SIZE_X) {
                sunlight_seed_edge(r, s, s + 1);
                sunlight_seed_edge(r, s + 1, s);
            }
            if (z + 1 < CHUNK_SIZE_Z) {
                sunlight_seed_edge(r, s, s + CHUNK_SIZE_X);
                sunlight_seed_edge(r, s + CHUNK_SIZE_X, s);
            }
        }
    sunlight_flood(r);
    sunlight_lower_deferred(r);
    chunk->worker_emitter_slices = emitter_blocks;
    /* a quadrant whose light can get out and that holds a warm emitter (its own light need not get out: the
     * mesher's flood seeds every warm emitter of a flagged quadrant, so it skips exactly the quadrants whose
     * only emitters are fluids) */
    chunk->worker_warm_emitter_slices = emitter_blocks & warm_blocks;
    chunk->worker_sky_light = (uint8_t)r->sky;
    chunk->worker_flags &= ~LIGHT_WORKER_FLAG_PROPAGATED;
    memcpy(chunk->worker_dark_rows, r->rows, sizeof r->rows);
    if (q->failed)
        log_warn("light", "chunk %d,%d: out of memory while lighting; some cells stay darker", chunk->coord_x,
                 chunk->coord_z);
}

/* ---- entry points ---- */

static void sunlight_once(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light, bool shared)
{
    LightTables tables = {0};
    LevelBuckets q = {0};
    uint8_t *own = malloc(CHUNK_CELLS);
    if (!own) {
        log_error("light", "chunk %d,%d: out of memory for the sunlight scratch; its light is unchanged",
                  chunk->coord_x, chunk->coord_z);
        return;
    }
    light_tables_prepare(&tables, blocks);
    light_sunlight_run(chunk, &tables, sky_light, shared, own, &q);
    level_buckets_free(&q);
    free(own);
}

void light_compute_sunlight(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light)
{
    sunlight_once(chunk, blocks, sky_light, true);
}

void light_compute_sunlight_unshared(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light)
{
    sunlight_once(chunk, blocks, sky_light, false);
}

void light_compute_sunlight_ctx(TerrainChunk *chunk, const BlockRegistry *blocks, int sky_light, bool shared,
                                LightContext *ctx)
{
    if (!ctx->own && !(ctx->own = malloc(CHUNK_CELLS))) {
        log_error("light", "chunk %d,%d: out of memory for the sunlight scratch; its light is unchanged",
                  chunk->coord_x, chunk->coord_z);
        return;
    }
    light_tables_prepare(&ctx->tables, blocks);
    light_sunlight_run(chunk, &ctx->tables, sky_light, shared, ctx->own, &ctx->buckets);
}
