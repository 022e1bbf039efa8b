/* mesher.c — the two vertex passes: slice neighbourhood copies, content hashes, and slice building.
 *
 * Which geometry copies a build makes (full resolution, the far copy, or both: mesher_context_set_copies,
 * chosen per chunk by the update worker) is a mask on the emission loop of mesher_build_lists and a switch
 * on the far copy; the copies go into every slice hash, so a slice built with others is rebuilt.
 *
 * Design. A pass visits the slices of one parity. It first hashes each slice plus a one-cell border
 * straight from the 3x3 chunks (relaxed atomic loads: neighbours may be edited concurrently), together
 * with everything else the geometry depends on (the columns' temperature and humidity, the brightness
 * and season settings). A slice that was built before with the same hash keeps its geometry: a
 * single-block edit relights 9 chunks but remeshes only the few slices whose cells or light changed (the
 * hash adds four 64-bit words per AVX2 step where the processor has it, two per SSE2 step elsewhere, with
 * the lines of the column two ahead prefetched, and tells on the way which slices hold nothing but air; pass 2 redoes
 * the chunk's occluders only when a slice of it was rebuilt).
 * A slice to rebuild is copied into the context's slab (a column of one block takes its masks from that
 * block's kind), and per-column bit masks (opaque cube / not air / water, one bit per y) let whole runs of
 * buried stone or still water be skipped 18 cells at a time, so only cells that can show a face reach the
 * per-cell code (mesher_faces.c, mesher_shapes.c). A slice is built and merged in the context's scratch lists
 * (warm, grown once) and each list then copied into the slice's geometry at its size.
 * Below the world is treated as bedrock (no bottom faces at y 0), above it as air at full light; a
 * missing neighbour chunk as air lit like the nearest cell of this chunk. */
#include <stdlib.h>
#include <string.h>

#include "mesher_internal.h"
#include "strata/log.h"

#define MESHER_HASH_P1 0x9E3779B185EBCA87ull
#define MESHER_HASH_P2 0xC2B2AE3D27D4EB4Full

MesherContext *mesher_context_create(void)
{
    MesherContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->brightness = 0.5f;
    ctx->season = MESHER_SEASON_SUMMER;
    ctx->merge = true;
    ctx->lod = true;
    ctx->copies = MESH_COPIES_BOTH;
    mesher_light_init_taps(ctx);
    mesher_light_init_tables(ctx);
    return ctx;
}

void mesher_context_destroy(MesherContext *ctx)
{
    if (!ctx) return;
    mesher_merge_free(ctx);
    mesher_blocklight_free(ctx);
    free(ctx->leaf_list.data);
    free(ctx->near_list.data);
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        free(ctx->lod_lists[k].data);
        free(ctx->build_lists[k].data);
    }
    free(ctx);
}

void mesher_context_set_brightness(MesherContext *ctx, float brightness)
{
    ctx->brightness = brightness < 0 ? 0 : brightness > 1 ? 1 : brightness;
    mesher_light_init_tables(ctx);
}

void mesher_context_set_season(MesherContext *ctx, int season)
{
    ctx->season = season < MESHER_SEASON_SPRING ? MESHER_SEASON_SPRING
                : season > MESHER_SEASON_WINTER ? MESHER_SEASON_WINTER : season;
    mesher_light_init_tables(ctx);
}

void mesher_context_set_lod(MesherContext *ctx, bool lod)
{
    ctx->lod = lod;
}

void mesher_context_set_copies(MesherContext *ctx, unsigned copies)
{
    copies &= MESH_COPIES_BOTH;
    ctx->copies = copies ? copies : MESH_COPIES_BOTH;
}

/* The copies a build makes: those asked for, or full resolution alone without the half-resolution layout. */
static inline unsigned mesher_build_copies(const MesherContext *ctx)
{
    return ctx->lod ? ctx->copies : MESH_COPY_FULL;
}

void mesher_context_set_merge(MesherContext *ctx, bool merge)
{
    ctx->merge = merge;
}

/* ---- vertex output ---- */

/* ---- slab copy and hash ---- */

static inline uint64_t mesher_hash_round(uint64_t acc, uint64_t word)
{
    acc += word * MESHER_HASH_P2;
    acc = (acc << 31) | (acc >> 33);
    return acc * MESHER_HASH_P1;
}

static uint64_t mesher_hash_finish(uint64_t h)
{
    h ^= h >> 33;
    h *= MESHER_HASH_P2;
    h ^= h >> 29;
    h *= MESHER_HASH_P1;
    return h ^ (h >> 32);
}

/* What every slice of this pass depends on besides its cells: settings and the columns' climate. */
static uint64_t mesher_pass_seed(const MesherContext *ctx, const TerrainChunk *chunk)
{
    uint64_t h = 0x243F6A8885A308D3ull;
    uint32_t bright;
    memcpy(&bright, &ctx->brightness, sizeof bright);
    h = mesher_hash_round(h, ((uint64_t)bright << 8) | (uint64_t)ctx->season | (uint64_t)ctx->merge << 40 |
                                 (uint64_t)ctx->lod << 41 | (uint64_t)mesher_build_copies(ctx) << 42);
    h = mesher_hash_round(h, (uint64_t)(uintptr_t)ctx->blocks);
    for (int i = 0; i < CHUNK_SHAFTS; i += 2) {
        uint64_t a = (uint32_t)chunk->shafts[i] & 0xFF00u, b = (uint32_t)chunk->shafts[i + 1] & 0xFF00u;
        h = mesher_hash_round(h, a | b << 32);
    }
    return h;
}

/* Missing neighbour columns read as air, lit like our nearest cell: the column to read and what to keep. */
/* Hashes the slices of one parity, each with a two-cell border (the faces need one, the half-resolution copy
 * a 2-cell block beyond it: mesher_lod.c), straight from the chunks: column by column (each column's memory
 * read front to back), two cells per 64-bit load (chunk.h: view columns are 8-byte aligned). Per slice the
 * words are keyed by position and summed as products of their halves (the NH construction): no dependency
 * chain between words, and a change in one or a few cells changes the sum except with odds near 2^-32.
 * Rows outside the world are constant and not hashed. */
typedef int64_t __attribute__((may_alias)) MesherCellPair;

#define MESHER_KEY_STEP 0x9E3779B97F4A7C15ull
#define MESHER_HASH_BORDER 2
#define MESHER_OWN_UNKNOWN 2   /* own_nonair[i]: 1 a cell of the slice is not air, 0 all are, 2 not worked out */

/* One slice's 10 words of one column (all inside the world) added to its sum: two words per SSE2 step
 * (pmuludq multiplies the low halves of both lanes by their high halves), the same sum as the scalar loop. */
#if defined(__SSE2__)
#include <emmintrin.h>
/* The cells are read with plain vector loads while the main thread may store to them (relaxed atomics
 * elsewhere): a torn read only gives a hash that differs, and the edit that stored sends the chunk back to
 * be meshed again. ThreadSanitizer is told not to instrument it. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MESHER_NO_TSAN __attribute__((no_sanitize("thread")))
#endif
#endif
#if !defined(MESHER_NO_TSAN) && defined(__SANITIZE_THREAD__)
#define MESHER_NO_TSAN __attribute__((no_sanitize("thread")))
#endif
#ifndef MESHER_NO_TSAN
#define MESHER_NO_TSAN
#endif
MESHER_NO_TSAN static inline __m128i mesher_hash_words(__m128i acc, const int32_t *rows, uint64_t key, __m128i keep)
{
    __m128i k = _mm_set_epi64x((long long)(key + MESHER_KEY_STEP), (long long)key);
    const __m128i step = _mm_set1_epi64x((long long)(2 * MESHER_KEY_STEP));
    for (int w = 0; w < 10; w += 2) {
        __m128i x = _mm_add_epi64(_mm_and_si128(_mm_loadu_si128((const __m128i *)(rows + 2 * w)), keep), k);
        acc = _mm_add_epi64(acc, _mm_mul_epu32(x, _mm_srli_epi64(x, 32)));
        k = _mm_add_epi64(k, step);
    }
    return acc;
}
#endif

/* Asks for the next column's cache lines while this one is hashed: a pass reads every line of its 20 x 20
 * columns, mostly from outside the core's caches (the chunks were generated and lit long before), and the
 * stride from a chunk's column to its neighbour's defeats the hardware's prefetch (~15 us a pass). */
static inline void mesher_hash_prefetch(const MesherContext *ctx, int sx, int sz)
{
#if defined(__SSE2__)
    if (sx + 1 >= CHUNK_SIZE_X + MESHER_HASH_BORDER) return;
    bool missing;
    const char *next = (const char *)mesher_source_column(ctx, sx + 1, sz, &missing);
    for (int line = 0; line < CHUNK_SIZE_Y * (int)sizeof(int32_t); line += 64) _mm_prefetch(next + line, _MM_HINT_T0);
#else
    (void)ctx;
    (void)sx;
    (void)sz;
#endif
}

/* The words of a slice clipped by the world's top or bottom (w_lo..w_hi of the 10), one at a time. */
static inline uint64_t mesher_hash_clipped(const int32_t *column, int y0, uint64_t k, uint64_t keep)
{
    int w_lo = y0 > 0 ? 0 : 1, w_hi = y0 + 18 <= CHUNK_SIZE_Y ? 10 : 9;
    const MesherCellPair *rows = (const MesherCellPair *)&column[y0];   /* word w: rows[w - 1] */
    uint64_t s = 0;
    for (int w = w_lo; w < w_hi; w++) {
        uint64_t x = ((uint64_t)__atomic_load_n(&rows[w - 1], __ATOMIC_RELAXED) & keep) + k + (uint64_t)w * MESHER_KEY_STEP;
        s += (x & 0xFFFFFFFFull) * (x >> 32);
    }
    return s;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define MESHER_HASH_AVX2 1
#include <immintrin.h>
/* The same sums with AVX2 where the processor has it (chosen at run time): a slice's 10 words of a column in
 * two 4-word steps and one 2-word step, its keys kept in vectors advanced by one column's 10 steps. */
__attribute__((target("avx2"))) MESHER_NO_TSAN static void
mesher_hash_sums_avx2(const MesherContext *ctx, int first_slice, uint64_t key[MESHER_PASS_SLICES],
                      uint64_t sum[MESHER_PASS_SLICES], uint8_t own_nonair[MESHER_PASS_SLICES])
{
    /* the slice's own rows (words 1..8) of the chunk's own columns ORed, for mesher_slice_empty's answer */
    const __m256i own_lo = _mm256_set_epi32(CELL_CONTENTS_MASK, CELL_CONTENTS_MASK, CELL_CONTENTS_MASK,
                                            CELL_CONTENTS_MASK, CELL_CONTENTS_MASK, CELL_CONTENTS_MASK, 0, 0);
    const __m256i own_mid = _mm256_set1_epi32(CELL_CONTENTS_MASK);
    const __m128i own_hi = _mm_set_epi32(0, 0, CELL_CONTENTS_MASK, CELL_CONTENTS_MASK);
    __m256i any[MESHER_PASS_SLICES];
    for (int i = 0; i < MESHER_PASS_SLICES; i++) any[i] = _mm256_setzero_si256();
    const uint64_t pair_light = ((uint64_t)CELL_LIGHT_MASK << 32) | CELL_LIGHT_MASK;
    const uint64_t S = MESHER_KEY_STEP;
    __m256i acc[MESHER_PASS_SLICES], k4[MESHER_PASS_SLICES];
    __m128i acc2[MESHER_PASS_SLICES], k2[MESHER_PASS_SLICES];
    for (int i = 0; i < MESHER_PASS_SLICES; i++) {
        uint64_t k = key[i];
        acc[i] = _mm256_setzero_si256();
        acc2[i] = _mm_setzero_si128();
        k4[i] = _mm256_set_epi64x((long long)(k + 3 * S), (long long)(k + 2 * S), (long long)(k + S), (long long)k);
        k2[i] = _mm_set_epi64x((long long)(k + 9 * S), (long long)(k + 8 * S));
    }
    const __m256i four = _mm256_set1_epi64x((long long)(4 * S)), ten4 = _mm256_set1_epi64x((long long)(10 * S));
    const __m128i ten2 = _mm_set1_epi64x((long long)(10 * S));
    for (int sz = -MESHER_HASH_BORDER; sz < CHUNK_SIZE_Z + MESHER_HASH_BORDER; sz++)
        for (int sx = -MESHER_HASH_BORDER; sx < CHUNK_SIZE_X + MESHER_HASH_BORDER; sx++) {
            bool missing;
            const int32_t *column = mesher_source_column(ctx, sx, sz, &missing);
            uint64_t keep = missing ? pair_light : ~0ull;
            {   /* mesher_hash_prefetch, written out (not inlined here), two columns ahead, into the next row */
                int px = sx + 2, pz = sz;
                if (px >= CHUNK_SIZE_X + MESHER_HASH_BORDER) {
                    px -= CHUNK_SIZE_X + 2 * MESHER_HASH_BORDER;
                    pz++;
                }
                if (pz >= CHUNK_SIZE_Z + MESHER_HASH_BORDER) pz = sz, px = sx;
                bool next_missing;
                const char *next = (const char *)mesher_source_column(ctx, px, pz, &next_missing);
                for (int line = 0; line < CHUNK_SIZE_Y * (int)sizeof(int32_t); line += 64) _mm_prefetch(next + line, _MM_HINT_T0);
            }
            __m256i keep4 = _mm256_set1_epi64x((long long)keep);
            __m128i keep2 = _mm_set1_epi64x((long long)keep);
            bool own = sx >= 0 && sx < CHUNK_SIZE_X && sz >= 0 && sz < CHUNK_SIZE_Z;
            for (int i = 0; i < MESHER_PASS_SLICES; i++) {
                int y0 = (first_slice + 2 * i) * CHUNK_SLICE_HEIGHT;
                uint64_t k = key[i];
                key[i] = k + 10 * S;
                if (y0 > 0 && y0 + 18 <= CHUNK_SIZE_Y) {
                    const int32_t *r = &column[y0 - 2];
                    __m256i c0 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)r), keep4);
                    __m256i c1 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(r + 8)), keep4);
                    __m128i c2 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(r + 16)), keep2);
                    if (own)
                        any[i] = _mm256_or_si256(any[i], _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(c0, own_lo),
                                                                                          _mm256_and_si256(c1, own_mid)),
                                                                         _mm256_castsi128_si256(_mm_and_si128(c2, own_hi))));
                    __m256i x0 = _mm256_add_epi64(c0, k4[i]);
                    __m256i x1 = _mm256_add_epi64(c1, _mm256_add_epi64(k4[i], four));
                    __m128i x2 = _mm_add_epi64(c2, k2[i]);
                    acc[i] = _mm256_add_epi64(acc[i], _mm256_add_epi64(_mm256_mul_epu32(x0, _mm256_srli_epi64(x0, 32)),
                                                                       _mm256_mul_epu32(x1, _mm256_srli_epi64(x1, 32))));
                    acc2[i] = _mm_add_epi64(acc2[i], _mm_mul_epu32(x2, _mm_srli_epi64(x2, 32)));
                } else {
                    sum[i] += mesher_hash_clipped(column, y0, k, keep);
                }
                k4[i] = _mm256_add_epi64(k4[i], ten4);
                k2[i] = _mm_add_epi64(k2[i], ten2);
            }
        }
    for (int i = 0; i < MESHER_PASS_SLICES; i++) {
        uint64_t lanes[6];
        _mm256_storeu_si256((__m256i *)lanes, acc[i]);
        _mm_storeu_si128((__m128i *)(lanes + 4), acc2[i]);
        sum[i] += lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5];
        int y0 = (first_slice + 2 * i) * CHUNK_SLICE_HEIGHT;
        own_nonair[i] = y0 > 0 && y0 + 18 <= CHUNK_SIZE_Y ? !_mm256_testz_si256(any[i], any[i]) : MESHER_OWN_UNKNOWN;
    }
}
#endif

static void mesher_hash_pass(const MesherContext *ctx, int first_slice, uint64_t seed,
                             uint64_t hashes[MESHER_PASS_SLICES], uint8_t own_nonair[MESHER_PASS_SLICES])
{
    memset(own_nonair, MESHER_OWN_UNKNOWN, MESHER_PASS_SLICES);
    uint64_t sum[MESHER_PASS_SLICES], key[MESHER_PASS_SLICES];
    for (int i = 0; i < MESHER_PASS_SLICES; i++) {
        sum[i] = 0;
        key[i] = mesher_hash_round(seed, (uint64_t)(first_slice + 2 * i));
    }
#if defined(MESHER_HASH_AVX2)
    if (__builtin_cpu_supports("avx2")) {
        mesher_hash_sums_avx2(ctx, first_slice, key, sum, own_nonair);
        for (int i = 0; i < MESHER_PASS_SLICES; i++) hashes[i] = mesher_hash_finish(mesher_hash_round(key[i], sum[i]));
        return;
    }
#endif
#if defined(__SSE2__)
    __m128i acc[MESHER_PASS_SLICES];
    for (int i = 0; i < MESHER_PASS_SLICES; i++) acc[i] = _mm_setzero_si128();
#endif
    const uint64_t pair_light = ((uint64_t)CELL_LIGHT_MASK << 32) | CELL_LIGHT_MASK;
    for (int sz = -MESHER_HASH_BORDER; sz < CHUNK_SIZE_Z + MESHER_HASH_BORDER; sz++)
        for (int sx = -MESHER_HASH_BORDER; sx < CHUNK_SIZE_X + MESHER_HASH_BORDER; sx++) {
            bool missing;
            const int32_t *column = mesher_source_column(ctx, sx, sz, &missing);
            uint64_t keep = missing ? pair_light : ~0ull;
            mesher_hash_prefetch(ctx, sx, sz);
#if defined(__SSE2__)
            __m128i keep_v = _mm_set1_epi64x((long long)keep);
#endif
            for (int i = 0; i < MESHER_PASS_SLICES; i++) {
                /* rows y0-2 .. y0+17: word w (w = 0..9) holds rows y0-2+2w and y0-1+2w, clipped to the world */
                int y0 = (first_slice + 2 * i) * CHUNK_SLICE_HEIGHT;
                uint64_t k = key[i];
                key[i] = k + 10 * MESHER_KEY_STEP;
#if defined(__SSE2__)
                if (y0 > 0 && y0 + 18 <= CHUNK_SIZE_Y) {
                    acc[i] = mesher_hash_words(acc[i], &column[y0 - 2], k, keep_v);
                    continue;
                }
#endif
                sum[i] += mesher_hash_clipped(column, y0, k, keep);
            }
        }
#if defined(__SSE2__)
    for (int i = 0; i < MESHER_PASS_SLICES; i++) {
        uint64_t lanes[2];
        _mm_storeu_si128((__m128i *)lanes, acc[i]);
        sum[i] += lanes[0] + lanes[1];
    }
#endif
    for (int i = 0; i < MESHER_PASS_SLICES; i++) hashes[i] = mesher_hash_finish(mesher_hash_round(key[i], sum[i]));
}

/* Whether a slice's own cells are all air (then it has no faces, whatever its border holds). */
static bool mesher_slice_empty(CellViewConst cells, int slice)
{
    const uint64_t pair_contents = ((uint64_t)CELL_CONTENTS_MASK << 32) | CELL_CONTENTS_MASK;
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++) {
            const MesherCellPair *words =
                (const MesherCellPair *)(cell_view_const_column(cells, x, z) + slice * CHUNK_SLICE_HEIGHT);
            uint64_t any = 0;
            for (int w = 0; w < CHUNK_SLICE_HEIGHT / 2; w++) any |= (uint64_t)__atomic_load_n(&words[w], __ATOMIC_RELAXED);
            if (any & pair_contents) return false;
        }
    return true;
}

/* The kind masks of a slab column whose 18 cells hold one block (MESHER_KIND_* bits `k`). */
static inline void mesher_uniform_masks(MesherSlab *slab, int col, unsigned k)
{
    const uint32_t all = (1u << SLAB_SIZE) - 1;
    slab->opaque[col] = k & MESHER_KIND_OPAQUE ? all : 0;
    slab->nonair[col] = k & MESHER_KIND_NONAIR ? all : 0;
    slab->water[col] = k & MESHER_KIND_WATER ? all : 0;
    slab->leaves[col] = k & MESHER_KIND_LEAVES ? all : 0;
    slab->far_opaque[col] = k & MESHER_KIND_FAR_OPAQUE ? all : 0;
}

#if defined(__SSE2__)
/* One column of a slice inside the world (no row below or above it): 18 cells copied four at a time (plain
 * vector loads, as in the hash: a torn read is sent back by the edit that stored). A column of one block
 * (buried stone, open air: most of them) gets its masks from that block's kind alone; true then. */
MESHER_NO_TSAN static bool mesher_copy_column_sse2(int32_t *dst, const int32_t *from, int32_t keep)
{
    const __m128i keep_v = _mm_set1_epi32(keep), contents = _mm_set1_epi32(CELL_CONTENTS_MASK);
    __m128i v[4], diff = _mm_setzero_si128();
    for (int q = 0; q < 4; q++) {
        v[q] = _mm_and_si128(_mm_loadu_si128((const __m128i *)(from + 4 * q)), keep_v);
        _mm_storeu_si128((__m128i *)(dst + 4 * q), v[q]);
    }
    int32_t t0 = from[16] & keep, t1 = from[17] & keep;
    dst[16] = t0;
    dst[17] = t1;
    __m128i first = _mm_and_si128(_mm_shuffle_epi32(v[0], 0), contents);
    for (int q = 0; q < 4; q++) diff = _mm_or_si128(diff, _mm_xor_si128(_mm_and_si128(v[q], contents), first));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(diff, _mm_setzero_si128())) == 0xFFFF &&
           ((t0 ^ _mm_cvtsi128_si32(first)) & CELL_CONTENTS_MASK) == 0 && ((t1 ^ t0) & CELL_CONTENTS_MASK) == 0;
}
#endif

/* Copies one slice with its border into ctx->slab_data (for a slice that is rebuilt) and builds its
 * per-column bit masks on the way. */
static void mesher_copy_slab(MesherContext *ctx, int slice)
{
    MesherSlab *slab = &ctx->slab_data;
    const uint8_t *kind = ctx->kind;
    int y_base = slice * CHUNK_SLICE_HEIGHT - 1;                  /* world y of slab row 0 */
    int j_lo = y_base < 0 ? 1 : 0;
    int j_hi = y_base + SLAB_SIZE > CHUNK_SIZE_Y ? SLAB_SIZE - 1 : SLAB_SIZE;
    const int32_t below = cell_make(BLOCK_BEDROCK, 0);           /* below the world: no bottom faces */
    const int32_t above = LIGHT_MAX << CELL_LIGHT_SHIFT;          /* above it: air in full light */
    for (int sz = 0; sz < SLAB_SIZE; sz++)
        for (int sx = 0; sx < SLAB_SIZE; sx++) {
            bool missing;
            const int32_t *from = mesher_source_column(ctx, sx - 1, sz - 1, &missing) + y_base;
            int32_t keep = missing ? CELL_LIGHT_MASK : ~0;
            int col = sx + sz * SLAB_SIZE;
            int32_t *dst = &slab->cells[col * SLAB_STRIDE_X];
            uint8_t kinds[32] = {0};   /* slab row j's MESHER_KIND_* bits */
#if defined(__SSE2__)
            if (j_lo == 0 && j_hi == SLAB_SIZE) {
                if (mesher_copy_column_sse2(dst, from, keep)) {
                    mesher_uniform_masks(slab, col, kind[cell_contents(dst[0])]);
                    continue;
                }
                for (int j = 0; j < SLAB_SIZE; j++) kinds[j] = kind[cell_contents(dst[j])];
                mesher_kind_masks(kinds, &slab->opaque[col], &slab->nonair[col], &slab->water[col],
                                  &slab->leaves[col], &slab->far_opaque[col]);
                continue;
            }
#endif
            for (int j = 0; j < SLAB_SIZE; j++) {
                int32_t v = j < j_lo ? below : j >= j_hi ? above : cell_load(&from[j]) & keep;
                dst[j] = v;
                kinds[j] = kind[cell_contents(v)];
            }
            mesher_kind_masks(kinds, &slab->opaque[col], &slab->nonair[col], &slab->water[col], &slab->leaves[col],
                              &slab->far_opaque[col]);
        }
}

/* ---- slice building ---- */

/* The vertical extent of a slice's vertices, for mesher_pack. */
static void mesher_measure_slice(ChunkGeometry *g, int s)
{
    float min_y = CHUNK_SIZE_Y, max_y = 0;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        const VertexList *list = &g->slices[s][k];
        for (int i = 0; i < list->count; i++) {
            float y = list->data[i].y;
            min_y = y < min_y ? y : min_y;
            max_y = y > max_y ? y : max_y;
        }
    }
    g->slice_min_y[s] = min_y;
    g->slice_max_y[s] = max_y;
}

/* Appends `from` to `to` (growing it); false if it cannot grow. */
static bool mesher_list_append(MesherContext *ctx, VertexList *to, const VertexList *from)
{
    if (from->count == 0) return true;   /* an empty list may have no storage yet */
    if (to->count + from->count > to->capacity && !mesher_list_grow(ctx, to, from->count)) return false;
    memcpy(to->data + to->count, from->data, (size_t)from->count * sizeof *from->data);
    to->count += from->count;
    return true;
}

/* Builds one slice's lists. Each list starts with the slice's faces at half resolution (mesher_lod.c: far
 * chunks draw those instead); the alpha-tested list then holds the leaves' faces, then plants, torches and
 * other cut-outs (ChunkMesh.lod_vertices, alpha_leaf_vertices). The transparent list, which has no half-
 * resolution faces, starts instead with the faces far chunks draw too (water, glass), then those of cubes
 * their copy holds (ice). Sets lod_counts[k] to list k's first part and *leaf_count to the alpha-tested
 * list's second. The copies (mesher_context_set_copies) choose what is built: without MESH_COPY_FAR no
 * half-resolution part; without MESH_COPY_FULL only the cells that are not opaque cubes, leaves, ice or other
 * opaque blocks (snow cover, magma) are emitted (the emission mask below: water, glass, plants and other
 * shapes, what far chunks draw cell by cell), the bulk of a slice's faces and of its greedy merging left out. */
static void mesher_build_lists(MesherContext *ctx, const MesherSlab *slab, int slice, VertexList *lists,
                               int lod_counts[MESH_SUBSET_COUNT], int *leaf_count)
{
    *leaf_count = 0;
    for (int i = 0; i < MESH_SUBSET_COUNT; i++) lists[i].count = lod_counts[i] = 0;
    ctx->leaf_list.count = 0;
    ctx->near_list.count = 0;
    mesher_merge_begin_slice(ctx);
    ctx->slab = slab->cells;
    ctx->slice_y0 = slice * CHUNK_SLICE_HEIGHT;
    const uint32_t *om = slab->opaque, *nm = slab->nonair, *wm = slab->water, *lm = slab->leaves;
    const uint32_t *fm = slab->far_opaque;
    const uint32_t inner = ((1u << CHUNK_SLICE_HEIGHT) - 1) << 1;
    const unsigned copies = mesher_build_copies(ctx);
    const bool full = copies & MESH_COPY_FULL, far = copies & MESH_COPY_FAR;
    for (int z = 0; z < CHUNK_SIZE_Z; z++)
        for (int x = 0; x < CHUNK_SIZE_X; x++) {
            int col = SLAB_COLUMN(x, z);
            uint32_t nonair = nm[col] & inner;
            if (!nonair) continue;
            uint32_t o = om[col], w = wm[col];
            uint32_t hidden = o & (o << 1) & (o >> 1) & om[col - 1] & om[col + 1] & om[col - SLAB_SIZE] &
                              om[col + SLAB_SIZE];
            if (w) {  /* water inside water (or against rock) shows no face */
                uint32_t ow = o | w;
                hidden |= w & (ow << 1) & (ow >> 1) & (om[col - 1] | wm[col - 1]) & (om[col + 1] | wm[col + 1]) &
                          (om[col - SLAB_SIZE] | wm[col - SLAB_SIZE]) & (om[col + SLAB_SIZE] | wm[col + SLAB_SIZE]);
            }
            uint32_t l = lm[col];
            if (l) {  /* leaves inside leaves (or against rock) show no face */
                uint32_t ol = o | l;
                hidden |= l & (ol << 1) & (ol >> 1) & (om[col - 1] | lm[col - 1]) & (om[col + 1] | lm[col + 1]) &
                          (om[col - SLAB_SIZE] | lm[col - SLAB_SIZE]) & (om[col + SLAB_SIZE] | lm[col + SLAB_SIZE]);
            }
            uint32_t todo = nonair & ~hidden;
            if (!full) {   /* far only: the cells far chunks draw cell by cell (not opaque: no snow cover) */
                uint32_t rest = todo & ~(o | l | fm[col]);
                todo = 0;
                while (rest) {
                    int j = __builtin_ctz(rest);
                    rest &= rest - 1;
                    if (ctx->blocks->layer[cell_contents(slab->cells[SLAB_INDEX(x, j - 1, z)])] != BLOCK_LAYER_OPAQUE)
                        todo |= 1u << j;
                }
            }
            while (todo) {
                int j = __builtin_ctz(todo);
                todo &= todo - 1;
                mesher_faces_emit_cell(ctx, lists, x, j - 1, z);
            }
        }
    VertexList *lod = ctx->lod_lists;
    if (far)
        mesher_lod_build(ctx, slab, slice, lod);
    else
        for (int k = 0; k < MESH_SUBSET_COUNT; k++) lod[k].count = 0;
    if (ctx->merge) {
        mesher_merge_slice(ctx, lists);
        mesher_merge_list(ctx, &ctx->leaf_list);
        mesher_merge_list(ctx, &ctx->near_list);
        if (far)
            for (int k = 0; k < MESH_SUBSET_COUNT; k++) mesher_lod_merge(ctx, &lod[k]);
    }
    if (ctx->lod) {
        lod_counts[MESH_SUBSET_TRANSPARENT] = lists[MESH_SUBSET_TRANSPARENT].count;
        if (!mesher_list_append(ctx, &lists[MESH_SUBSET_TRANSPARENT], &ctx->near_list)) return;
    }
    *leaf_count = ctx->leaf_list.count;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        bool alpha = k == MESH_SUBSET_ALPHA_TESTED;
        if (lod[k].count == 0 && !(alpha && ctx->leaf_list.count > 0)) continue;
        int lods = lod[k].count;
        if ((alpha && !mesher_list_append(ctx, &lod[k], &ctx->leaf_list)) || !mesher_list_append(ctx, &lod[k], &lists[k])) {
            *leaf_count = 0;
            return;   /* ctx->failed: the slice is built again next pass */
        }
        VertexList swap = lists[k];
        lists[k] = lod[k];
        lod[k] = swap;   /* the old list's storage is the next slice's scratch */
        lod_counts[k] = lods;
    }
}

/* Builds one slice (mesher_build_lists) in the context's scratch lists, then copies each into the slice's
 * geometry, whose storage grows only to the list's size (once, for a fresh chunk). */
static void mesher_build_slice(MesherContext *ctx, const MesherSlab *slab, int slice, VertexList *dest,
                               int lod_counts[MESH_SUBSET_COUNT], int *leaf_count)
{
    VertexList *lists = ctx->build_lists;
    mesher_build_lists(ctx, slab, slice, lists, lod_counts, leaf_count);
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        int n = lists[k].count;
        dest[k].count = 0;
        if (n == 0) continue;
        if (n > dest[k].capacity) {
            TerrainVertex *data = realloc(dest[k].data, (size_t)n * sizeof *data);
            if (!data) {
                ctx->failed = true;   /* the slice is built again next pass */
                continue;
            }
            dest[k].data = data;
            dest[k].capacity = n;
        }
        memcpy(dest[k].data, lists[k].data, (size_t)n * sizeof *lists[k].data);
        dest[k].count = n;
    }
}

void mesher_build_pass(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks,
                       MesherContext *ctx, int pass)
{
    ChunkGeometry *g = chunk->worker_geometry;
    if (!g) {
        g = calloc(1, sizeof *g);
        if (!g) {
            log_error("mesh", "chunk %d,%d: out of memory for its slice geometry", chunk->coord_x, chunk->coord_z);
            return;
        }
        chunk->worker_geometry = g;
    }
    g->copies = mesher_build_copies(ctx);   /* a change of them changes every slice hash: all are rebuilt */
    mesher_light_prepare_blocks(ctx, blocks);
    mesher_light_prepare_columns(ctx, chunk);
    const CellViewConst own = chunk_cell_view_const(chunk);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) {
            int n = (dz + 1) * 3 + dx + 1;
            const TerrainChunk *k = dx == 0 && dz == 0 ? chunk
                : terrain_get_chunk(terrain, chunk->coord_x + dx, chunk->coord_z + dz);
            ctx->neighbours[n] = k && k != chunk ? chunk_cell_view_const(k) : own;
            ctx->neighbour_missing[n] = !k;
            ctx->warm_emitter_slices[n] = k ? k->worker_warm_emitter_slices : 0;
        }
    mesher_blocklight_begin_pass(ctx);
    uint64_t seed = mesher_pass_seed(ctx, chunk);
    int first = pass == 1 ? 1 : 0;
    uint64_t hashes[MESHER_PASS_SLICES];
    uint8_t own_nonair[MESHER_PASS_SLICES];
    mesher_hash_pass(ctx, first, seed, hashes, own_nonair);
    g->slices_rebuilt_last_pass = 0;
    for (int i = 0; i < MESHER_PASS_SLICES; i++) {
        int s = first + 2 * i;
        uint64_t h = hashes[i];
        if (g->slice_built[s] && g->slice_hash[s] == h) continue;
        ctx->failed = false;
        if (own_nonair[i] == MESHER_OWN_UNKNOWN ? mesher_slice_empty(own, s) : !own_nonair[i]) {   /* all air: nothing to show, nothing to copy */
            for (int k = 0; k < MESH_SUBSET_COUNT; k++) g->slices[s][k].count = 0;
            g->slice_leaf_vertices[s] = 0;
            memset(g->slice_lod_vertices[s], 0, sizeof g->slice_lod_vertices[s]);
            g->visibility.slice_graph[s] = VISIBILITY_ALL_OPEN;
            memset(g->slice_opaque_rows[s], 0, sizeof g->slice_opaque_rows[s]);
        } else {
            mesher_copy_slab(ctx, s);
            mesher_blocklight_prepare(ctx, s);
            mesher_build_slice(ctx, &ctx->slab_data, s, g->slices[s], g->slice_lod_vertices[s],
                               &g->slice_leaf_vertices[s]);
            g->visibility.slice_graph[s] = mesher_visibility_slice(&ctx->slab_data, g->slice_opaque_rows[s]);
        }
        g->slice_opaque_known = (uint16_t)(g->slice_opaque_known | 1u << s);
        mesher_measure_slice(g, s);
        g->slice_hash[s] = h;
        g->slice_built[s] = !ctx->failed;   /* retried next pass if a list could not grow */
        g->slices_rebuilt_last_pass++;
        if (ctx->failed)
            log_error("mesh", "chunk %d,%d slice %d: out of memory for vertices", chunk->coord_x, chunk->coord_z, s);
    }
    /* The occluders come from the chunk's own cells, which every slice hash covers: while no slice is rebuilt
     * (an edit next door that changed only light, or nothing here) they stay as they are. Whole-chunk work:
     * once per build, in the pass that finishes it, from the opaque rows each slice's build kept (the slab's
     * masks; an all-air slice has none), which are those of the cells while its hash holds. */
    if (g->slices_rebuilt_last_pass > 0) g->occluders_current = false;
    if (pass == 2 && !g->occluders_current) {
        mesher_visibility_occluders(ctx, chunk, own, g, &g->visibility);
        g->occluders_current = true;
    }
}
