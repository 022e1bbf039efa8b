/* chunk_codec.c — RLE + raw Deflate chunk blobs (Survivalcraft's format), with strict validation.
 *
 * Design: the run order (x fastest, then z, then y) is a transpose of the cell index (y fastest): sequence
 * position i = x + 16*z + 256*y maps to cell index (i >> 8) + ((i & 255) << 8). Encode transposes one band
 * of 16 heights at a time (16x16 tiles of 4x4 SSE2 blocks) into an L1-sized buffer and finds run
 * boundaries with a compare mask and count-trailing-zeros, one step per run instead of a branch per cell;
 * decode fills runs into a sequence-ordered scratch array (fixed 16-cell stores for short runs) and
 * transposes it back the same way. These turned a 65536-cell walk of ~90 us into ~15 us.
 * The z_streams live in the codec and are reset per call (deflateReset/inflateReset): one-shot compress2 spends
 * most of its time allocating and initialising its window and hash tables. Decode inflates into a buffer one
 * byte larger than the largest valid payload, so an over-long stream is detected without reading past it;
 * every run is bounds-checked before it is written. */
#include "strata/chunk_codec.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CODEC_SEQUENCE_PAD 4     /* sequence[-1] for the boundary scan */
#define CODEC_SEQUENCE_SLACK 32  /* codec_fill may write up to 15 cells past a run */

struct ChunkCodec {
    z_stream deflater;        /* CHUNK_CODEC_LEVEL */
    z_stream seed_deflater;   /* level 1, the seed format */
    z_stream inflater;
    uint8_t *raw;             /* shaft bytes + runs, CHUNK_CODEC_MAX_RAW + 1 */
    uint8_t *out;             /* deflate output */
    size_t out_capacity;
    int32_t *sequence_base;   /* CODEC_SEQUENCE_PAD + CHUNK_CELLS + CODEC_SEQUENCE_SLACK */
    int32_t *sequence;        /* CHUNK_CELLS values in run order; sequence[-1] and the slack are scratch */
    size_t last_raw_size;
    int last_run_count;
};

static int codec_deflate_init(z_stream *zs, int level)
{
    memset(zs, 0, sizeof *zs);
    /* Raw Deflate (negative window bits): the region record carries its own length and CRC32. */
    return deflateInit2(zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
}

ChunkCodec *chunk_codec_create(void)
{
    ChunkCodec *codec = calloc(1, sizeof *codec);
    if (!codec) return NULL;
    bool deflater_ok = codec_deflate_init(&codec->deflater, CHUNK_CODEC_LEVEL);
    bool seed_ok = codec_deflate_init(&codec->seed_deflater, 1);
    bool inflater_ok = inflateInit2(&codec->inflater, -15) == Z_OK;
    codec->raw = malloc(CHUNK_CODEC_MAX_RAW + 1);
    codec->sequence_base = malloc(sizeof(int32_t) * (CODEC_SEQUENCE_PAD + CHUNK_CELLS + CODEC_SEQUENCE_SLACK));
    codec->sequence = codec->sequence_base ? codec->sequence_base + CODEC_SEQUENCE_PAD : NULL;
    if (deflater_ok) codec->out_capacity = deflateBound(&codec->deflater, CHUNK_CODEC_MAX_RAW);
    if (seed_ok) {
        size_t seed_bound = deflateBound(&codec->seed_deflater, CHUNK_CODEC_MAX_RAW);
        if (seed_bound > codec->out_capacity) codec->out_capacity = seed_bound;
    }
    codec->out = codec->out_capacity ? malloc(codec->out_capacity) : NULL;
    if (!deflater_ok || !seed_ok || !inflater_ok || !codec->raw || !codec->sequence || !codec->out) {
        if (deflater_ok) deflateEnd(&codec->deflater);
        if (seed_ok) deflateEnd(&codec->seed_deflater);
        if (inflater_ok) inflateEnd(&codec->inflater);
        free(codec->raw);
        free(codec->sequence_base);
        free(codec->out);
        free(codec);
        return NULL;
    }
    return codec;
}

void chunk_codec_destroy(ChunkCodec *codec)
{
    if (!codec) return;
    deflateEnd(&codec->deflater);
    deflateEnd(&codec->seed_deflater);
    inflateEnd(&codec->inflater);
    free(codec->raw);
    free(codec->sequence_base);
    free(codec->out);
    free(codec);
}

size_t chunk_codec_last_raw_size(const ChunkCodec *codec) { return codec->last_raw_size; }
int chunk_codec_last_run_count(const ChunkCodec *codec) { return codec->last_run_count; }

/* ---- run-length layer ---- */

static inline void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Cells (y fastest) -> sequence (x fastest, then z, then y) with light bits cleared: a transpose of the
 * 256x256 (column, y) matrix in 4x4 blocks (SSE2). The update worker encodes a private snapshot or a
 * detached chunk, but if another thread did store a cell meanwhile, x86 vector loads do not tear naturally
 * aligned 4-byte lanes in practice, and a torn read would only store an old or new cell value (the chunk is
 * saved again after the edit anyway). Under ThreadSanitizer (which cannot see vector loads as atomic) and
 * on targets without SSE2 the scalar path with cell_load/cell_store is used. */
#if defined(__SANITIZE_THREAD__)
#define CODEC_USE_SSE2 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CODEC_USE_SSE2 0
#endif
#endif
#ifndef CODEC_USE_SSE2
#if defined(__SSE2__)
#define CODEC_USE_SSE2 1
#else
#define CODEC_USE_SSE2 0
#endif
#endif

#if CODEC_USE_SSE2
#include <emmintrin.h>

static inline void codec_transpose4(__m128i *r0, __m128i *r1, __m128i *r2, __m128i *r3)
{
    __m128i t0 = _mm_unpacklo_epi32(*r0, *r1), t1 = _mm_unpacklo_epi32(*r2, *r3);
    __m128i t2 = _mm_unpackhi_epi32(*r0, *r1), t3 = _mm_unpackhi_epi32(*r2, *r3);
    *r0 = _mm_unpacklo_epi64(t0, t1);
    *r1 = _mm_unpackhi_epi64(t0, t1);
    *r2 = _mm_unpacklo_epi64(t2, t3);
    *r3 = _mm_unpackhi_epi64(t2, t3);
}

/* One 4x4 block: four rows of `src` (stride 256) become four columns of `dst` (stride 256). */
static inline void codec_transpose_block(const int32_t *src, int32_t *dst, __m128i keep)
{
    __m128i r0 = _mm_and_si128(keep, _mm_loadu_si128((const __m128i *)(src)));
    __m128i r1 = _mm_and_si128(keep, _mm_loadu_si128((const __m128i *)(src + 256)));
    __m128i r2 = _mm_and_si128(keep, _mm_loadu_si128((const __m128i *)(src + 512)));
    __m128i r3 = _mm_and_si128(keep, _mm_loadu_si128((const __m128i *)(src + 768)));
    codec_transpose4(&r0, &r1, &r2, &r3);
    _mm_storeu_si128((__m128i *)(dst), r0);
    _mm_storeu_si128((__m128i *)(dst + 256), r1);
    _mm_storeu_si128((__m128i *)(dst + 512), r2);
    _mm_storeu_si128((__m128i *)(dst + 768), r3);
}

/* Cells y0..y0+15 of every column -> band[(y - y0) * 256 + column], light cleared, in 16x16 tiles: rows
 * 1 KiB apart all map to 4 of the 64 L1 sets, so a tile must stay small (16 lines) or it thrashes. The band
 * (16 KiB) stays in L1 while its runs are scanned, so encoding never writes a chunk-sized scratch array. */
static void codec_gather_band(CellViewConst cells, int y0, int32_t *band)
{
    const __m128i keep = _mm_set1_epi32(~(int32_t)CELL_LIGHT_MASK);
    for (int column0 = 0; column0 < 256; column0 += 16)
        for (int y = y0; y < y0 + 16; y += 4)
            for (int column = column0; column < column0 + 16; column += 4)
                codec_transpose_block(cell_view_const_at(cells, (column << 8) + y), band + ((y - y0) << 8) + column,
                                      keep);
}

/* Sequence -> cells, in 16x16 tiles (see above). */
static void codec_scatter_sequence(const int32_t *sequence, CellView cells)
{
    const __m128i keep = _mm_set1_epi32(-1);
    for (int column0 = 0; column0 < 256; column0 += 16)
        for (int y0 = 0; y0 < 256; y0 += 16)
            for (int column = column0; column < column0 + 16; column += 4)
                for (int y = y0; y < y0 + 16; y += 4)
                    codec_transpose_block(sequence + (y << 8) + column, cell_view_at(cells, (column << 8) + y), keep);
}

/* Bit k set when s[k] != s[k-1], for k in 0..63 (s[-1] must be readable). */
static inline uint64_t codec_boundaries(const int32_t *s)
{
    uint64_t mask = 0;
    for (int k = 0; k < 16; k++) {
        __m128i cur = _mm_loadu_si128((const __m128i *)(s + 4 * k));
        __m128i prev = _mm_loadu_si128((const __m128i *)(s + 4 * k - 1));
        int equal = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(cur, prev)));
        mask |= (uint64_t)(~equal & 15) << (4 * k);
    }
    return mask;
}

/* Fills `count` cells and up to 15 more (the sequence buffer has CODEC_SEQUENCE_SLACK spare cells): runs
 * of up to 16 cells, the common case at the surface, take four stores and no loop. */
static inline void codec_fill(int32_t *dst, int32_t value, int count)
{
    const __m128i v = _mm_set1_epi32(value);
    _mm_storeu_si128((__m128i *)(dst), v);
    _mm_storeu_si128((__m128i *)(dst + 4), v);
    _mm_storeu_si128((__m128i *)(dst + 8), v);
    _mm_storeu_si128((__m128i *)(dst + 12), v);
    for (int k = 16; k < count; k += 4) _mm_storeu_si128((__m128i *)(dst + k), v);
}
#else
static void codec_gather_band(CellViewConst cells, int y0, int32_t *band)
{
    const int32_t keep = ~(int32_t)CELL_LIGHT_MASK;
    for (int column = 0; column < 256; column++) {
        const int32_t *src = cell_view_const_at(cells, (column << 8) + y0);
        for (int dy = 0; dy < 16; dy++) band[(dy << 8) + column] = cell_load(&src[dy]) & keep;
    }
}

static void codec_scatter_sequence(const int32_t *sequence, CellView cells)
{
    for (int column0 = 0; column0 < 256; column0 += 16)
        for (int y0 = 0; y0 < 256; y0 += 16)
            for (int column = column0; column < column0 + 16; column++) {
                int32_t *dst = cell_view_at(cells, (column << 8) + y0);
                const int32_t *src = &sequence[(y0 << 8) + column];
                for (int dy = 0; dy < 16; dy++) cell_store(&dst[dy], src[dy << 8]);
            }
}

static inline uint64_t codec_boundaries(const int32_t *s)
{
    uint64_t mask = 0;
    for (int k = 0; k < 64; k++) mask |= (uint64_t)(s[k] != s[k - 1]) << k;
    return mask;
}

static inline void codec_fill(int32_t *dst, int32_t value, int count)
{
    for (int k = 0; k < count; k++) dst[k] = value;
}
#endif

/* Emits a run of any length (split at 271). A short run's unused count byte is written and then
 * overwritten by the next run: codec->raw has one spare byte past the largest payload for the last one. */
static inline uint8_t *codec_emit_run(uint8_t *p, int32_t value, int count, int *runs)
{
    while (count > CHUNK_CODEC_MAX_RUN) {
        put_le32(p, (uint32_t)value | (15u << CELL_LIGHT_SHIFT));
        p[4] = (uint8_t)(CHUNK_CODEC_MAX_RUN - 16);
        p += 5;
        count -= CHUNK_CODEC_MAX_RUN;
        (*runs)++;
    }
    uint32_t light = count > 15 ? 15u : (uint32_t)(count - 1);
    put_le32(p, (uint32_t)value | (light << CELL_LIGHT_SHIFT));
    p[4] = (uint8_t)(count - 16);
    (*runs)++;
    return p + 4 + (count > 15);
}

/* Writes shaft bytes and runs into codec->raw; returns the payload size. The chunk is walked in bands of
 * 16 heights; run boundaries come from a bit mask (64 cells per word, each cell compared with the one
 * before it), walked with count-trailing-zeros: no per-cell branch, one iteration per run. */
static size_t codec_build_raw(ChunkCodec *codec, const TerrainChunk *chunk)
{
    uint8_t *p = codec->raw;
    for (int i = 0; i < CHUNK_SHAFTS; i++) {
        int32_t shaft = chunk->shafts[i];
        p[i] = (uint8_t)((shaft_temperature(shaft) << 4) | shaft_humidity(shaft));
    }
    p += CHUNK_SHAFTS;

    const CellViewConst cells = chunk_cell_view_const(chunk);
    int32_t *band = codec->sequence;   /* 16 x 256 cells; band[-1] is the cell before the band */
    int runs = 0, start = 0;
    int32_t run_value = 0;
    for (int y0 = 0; y0 < 256; y0 += 16) {
        codec_gather_band(cells, y0, band);
        if (y0 == 0) run_value = band[0];
        band[-1] = y0 == 0 ? band[0] ^ 1 : run_value;   /* the run in progress reaches the band's edge */
        for (int w = 0; w < 16 * 256 / 64; w++) {
            uint64_t mask = codec_boundaries(band + w * 64);
            if (y0 == 0 && w == 0) mask &= ~(uint64_t)1;
            while (mask) {
                int local = w * 64 + __builtin_ctzll(mask);
                int end = (y0 << 8) + local;
                p = codec_emit_run(p, run_value, end - start, &runs);
                start = end;
                run_value = band[local];
                mask &= mask - 1;
            }
        }
    }
    p = codec_emit_run(p, run_value, CHUNK_CELLS - start, &runs);
    codec->last_run_count = runs;
    codec->last_raw_size = (size_t)(p - codec->raw);
    return codec->last_raw_size;
}

static StResult codec_deflate(z_stream *zs, const uint8_t *in, size_t in_size, uint8_t *out, size_t out_capacity,
                              size_t *out_size)
{
    if (deflateReset(zs) != Z_OK) return st_fail(ST_ERR_FORMAT, "chunk codec: deflateReset failed");
    zs->next_in = (Bytef *)in;
    zs->avail_in = (uInt)in_size;
    zs->next_out = out;
    zs->avail_out = (uInt)out_capacity;
    int zr = deflate(zs, Z_FINISH);
    if (zr != Z_STREAM_END)
        return st_fail(zr == Z_MEM_ERROR ? ST_ERR_NOMEM : ST_ERR_FORMAT, "chunk codec: deflate failed (%d%s%s)", zr,
                       zs->msg ? ": " : "", zs->msg ? zs->msg : "");
    *out_size = out_capacity - zs->avail_out;
    return ST_OK;
}

StResult chunk_codec_encode(ChunkCodec *codec, const TerrainChunk *chunk, const uint8_t **bytes, size_t *size)
{
    size_t raw_size = codec_build_raw(codec, chunk);
    StResult rc = codec_deflate(&codec->deflater, codec->raw, raw_size, codec->out, codec->out_capacity, size);
    if (rc != ST_OK) return rc;
    *bytes = codec->out;
    return ST_OK;
}

StResult chunk_codec_seed_format_size(ChunkCodec *codec, const TerrainChunk *chunk, size_t *size)
{
    size_t raw_size = codec_build_raw(codec, chunk);
    return codec_deflate(&codec->seed_deflater, codec->raw, raw_size, codec->out, codec->out_capacity, size);
}

/* ---- decode ---- */

static StResult codec_inflate(ChunkCodec *codec, const uint8_t *bytes, size_t size, size_t *raw_size)
{
    z_stream *zs = &codec->inflater;
    if (inflateReset(zs) != Z_OK) return st_fail(ST_ERR_FORMAT, "chunk blob: inflateReset failed");
    if (size > UINT32_MAX) return st_fail(ST_ERR_FORMAT, "chunk blob: %zu bytes is too large", size);
    zs->next_in = (Bytef *)bytes;
    zs->avail_in = (uInt)size;
    zs->next_out = codec->raw;
    zs->avail_out = CHUNK_CODEC_MAX_RAW + 1;
    int zr = inflate(zs, Z_FINISH);
    if (zr == Z_STREAM_END) {
        if (zs->avail_in != 0)
            return st_fail(ST_ERR_FORMAT, "chunk blob: %u bytes of trailing data after the Deflate stream (blob is %zu bytes)",
                           zs->avail_in, size);
        *raw_size = CHUNK_CODEC_MAX_RAW + 1 - zs->avail_out;
        if (*raw_size > CHUNK_CODEC_MAX_RAW)
            return st_fail(ST_ERR_FORMAT, "chunk blob: payload longer than the largest chunk (%d bytes)",
                           CHUNK_CODEC_MAX_RAW);
        return ST_OK;
    }
    if (zr == Z_DATA_ERROR)
        return st_fail(ST_ERR_FORMAT, "chunk blob: corrupt Deflate stream at byte %zu: %s",
                       size - zs->avail_in, zs->msg ? zs->msg : "invalid data");
    if (zr == Z_MEM_ERROR) return st_fail(ST_ERR_NOMEM, "chunk blob: out of memory while inflating");
    if (zs->avail_out == 0)
        return st_fail(ST_ERR_FORMAT, "chunk blob: payload longer than the largest chunk (%d bytes)", CHUNK_CODEC_MAX_RAW);
    return st_fail(ST_ERR_FORMAT, "chunk blob: truncated Deflate stream (%zu bytes, ended before the stream end)", size);
}

/* Parses shaft bytes and runs from codec->raw into the chunk. */
static StResult codec_parse_raw(ChunkCodec *codec, const BlockRegistry *blocks, size_t raw_size, TerrainChunk *chunk)
{
    const uint8_t *raw = codec->raw;
    if (raw_size < CHUNK_SHAFTS + 4)
        return st_fail(ST_ERR_FORMAT, "chunk blob: payload is %zu bytes, shorter than the %d shaft bytes and one run",
                       raw_size, CHUNK_SHAFTS);
    for (int i = 0; i < CHUNK_SHAFTS; i++) {
        int32_t shaft = shaft_set_temperature(0, raw[i] >> 4);
        chunk->shafts[i] = shaft_set_humidity(shaft, raw[i] & 15);
    }

    int32_t *sequence = codec->sequence;
    size_t pos = CHUNK_SHAFTS;
    int filled = 0;
    int run = 0;
    while (pos < raw_size) {
        if (raw_size - pos < 4)
            return st_fail(ST_ERR_FORMAT, "chunk blob: run %d at byte %zu: truncated (%zu of 4 bytes)", run, pos,
                           raw_size - pos);
        uint32_t word = get_le32(raw + pos);
        uint32_t light = (word >> CELL_LIGHT_SHIFT) & 15;
        bool long_run = light == 15;
        if (long_run && pos + 4 >= raw_size)
            return st_fail(ST_ERR_FORMAT, "chunk blob: run %d at byte %zu: long run lacks its count byte", run, pos);
        /* raw[pos + 4] is inside the buffer even after the last run (it has a spare byte). */
        int count = long_run ? 16 + raw[pos + 4] : (int)light + 1;
        int contents = (int)(word & CELL_CONTENTS_MASK);
        if (blocks && !block_is_defined(blocks, contents))
            return st_fail(ST_ERR_FORMAT, "chunk blob: run %d at byte %zu: unknown block id %d", run, pos, contents);
        if (count > CHUNK_CELLS - filled)
            return st_fail(ST_ERR_FORMAT, "chunk blob: run %d at byte %zu: %d cells overflow the chunk (%d already filled of %d)",
                           run, pos, count, filled, CHUNK_CELLS);
        codec_fill(sequence + filled, (int32_t)(word & ~(uint32_t)CELL_LIGHT_MASK), count);
        filled += count;
        pos += 4 + long_run;
        run++;
    }
    if (filled != CHUNK_CELLS)
        return st_fail(ST_ERR_FORMAT, "chunk blob: runs cover %d cells, expected %d", filled, CHUNK_CELLS);
    codec_scatter_sequence(sequence, chunk_cell_view(chunk));
    return ST_OK;
}

StResult chunk_codec_decode(ChunkCodec *codec, const BlockRegistry *blocks, const uint8_t *bytes, size_t size,
                            TerrainChunk *chunk)
{
    size_t raw_size = 0;
    StResult rc = codec_inflate(codec, bytes, size, &raw_size);
    if (rc == ST_OK) rc = codec_parse_raw(codec, blocks, raw_size, chunk);
    if (rc != ST_OK) {
        chunk_clear_cells(chunk);
        memset(chunk->shafts, 0, sizeof chunk->shafts);
    }
    return rc;
}
