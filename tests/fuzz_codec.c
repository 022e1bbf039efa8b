/* fuzz_codec.c — libFuzzer target for the chunk codec (built by tests/run_fuzz_codec.sh with clang
 * -fsanitize=fuzzer,address,undefined; not part of the CMake build).
 *
 * The first input byte picks a mode:
 *   0: the rest is a blob, decoded as it comes from disk (exercises inflate error handling);
 *   1: the rest is an uncompressed payload, deflated here first, so mutations reach the run parser;
 *   2: the rest describes a chunk (runs of ids, lengths and data), which is encoded and decoded.
 * Properties checked (a failure traps): a failed decode leaves the chunk all air; a successful decode holds
 * only defined ids and no light, and re-encoding it then decoding gives the same cells; mode 2 round trips
 * exactly. Any out-of-bounds access is caught by AddressSanitizer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "strata/chunk_codec.h"

static ChunkCodec *codec;
static BlockRegistry registry;
static TerrainChunk chunk, again;
static uint8_t payload[CHUNK_CODEC_MAX_RAW + 64];
static uint8_t *blob_copy;

static void fuzz_init(void)
{
    codec = chunk_codec_create();
    if (!codec) __builtin_trap();
    for (int id = 0; id < 46; id++) registry.defs[id].defined = true;
    registry.defs[1000].defined = true;
    registry.count = 1001;
    blob_copy = malloc(CHUNK_CODEC_MAX_RAW + 1024);
}

static void check_decoded(StResult rc, const TerrainChunk *c)
{
    const int32_t *cells = chunk_cell_view_const(c).cells;
    if (rc != ST_OK) {
        for (int i = 0; i < CHUNK_CELLS; i++)
            if (cells[i]) __builtin_trap();
        for (int i = 0; i < CHUNK_SHAFTS; i++)
            if (c->shafts[i]) __builtin_trap();
        return;
    }
    for (int i = 0; i < CHUNK_CELLS; i++) {
        if (!block_is_defined(&registry, cell_contents(cells[i]))) __builtin_trap();
        if (cell_light(cells[i])) __builtin_trap();
    }
}

/* Encodes `c`, decodes the blob into `again`, and traps unless the cells match exactly. */
static void check_round_trip(const TerrainChunk *c)
{
    const uint8_t *bytes;
    size_t size;
    if (chunk_codec_encode(codec, c, &bytes, &size) != ST_OK) __builtin_trap();
    memcpy(blob_copy, bytes, size);
    if (chunk_codec_decode(codec, &registry, blob_copy, size, &again) != ST_OK) __builtin_trap();
    const int32_t *before = chunk_cell_view_const(c).cells, *after = chunk_cell_view_const(&again).cells;
    for (int i = 0; i < CHUNK_CELLS; i++)
        if (cell_replace_light(before[i], 0) != after[i]) __builtin_trap();
}

static size_t deflate_payload(const uint8_t *data, size_t size)
{
    uLongf out_size = CHUNK_CODEC_MAX_RAW + 1024;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) __builtin_trap();
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)size;
    zs.next_out = blob_copy;
    zs.avail_out = (uInt)out_size;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) __builtin_trap();
    size_t n = out_size - zs.avail_out;
    deflateEnd(&zs);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!codec) fuzz_init();
    if (size == 0) return 0;
    int mode = data[0] % 3;
    data++;
    size--;
    if (mode == 0) {
        StResult rc = chunk_codec_decode(codec, &registry, data, size, &chunk);
        check_decoded(rc, &chunk);
        if (rc == ST_OK) check_round_trip(&chunk);
    } else if (mode == 1) {
        if (size > CHUNK_CODEC_MAX_RAW + 16) return 0;
        memcpy(payload, data, size);
        size_t n = deflate_payload(payload, size);
        StResult rc = chunk_codec_decode(codec, &registry, blob_copy, n, &chunk);
        check_decoded(rc, &chunk);
        if (rc == ST_OK) check_round_trip(&chunk);
    } else {
        /* Runs: id byte, length byte (+1, times 3 when the id's top bit is set), data byte. */
        chunk_clear_cells(&chunk);
        int32_t *cells = chunk_cell_view(&chunk).cells;
        int filled = 0;
        for (size_t i = 0; i + 3 <= size && filled < CHUNK_CELLS; i += 3) {
            int id = data[i] & 0x7F;
            id = id < 46 ? id : (id == 127 ? 1000 : 0);
            int length = (data[i + 1] + 1) * (data[i] & 0x80 ? 3 : 1);
            int32_t value = cell_replace_light(cell_make(id, data[i + 2] * 1021), data[i + 2] & 15);
            for (int k = 0; k < length && filled < CHUNK_CELLS; k++, filled++)
                cells[((filled & 255) << 8) + (filled >> 8)] = value;
        }
        for (int i = 0; i < CHUNK_SHAFTS; i++) chunk.shafts[i] = size ? data[i % size] << 8 : 0;
        check_round_trip(&chunk);
    }
    return 0;
}
