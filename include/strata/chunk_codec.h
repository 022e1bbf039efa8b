/* chunk_codec.h — a chunk's cells and shafts to bytes and back (the payload of a region record).
 *
 * Format (Survivalcraft's chunk blob, no framing): raw Deflate of
 *   256 shaft bytes (temperature << 4 | humidity, shaft index x + z*16), then the cells as runs in the order
 *   x fastest, then z, then y. A run is a little-endian int32: the cell value with its light bits replaced by
 *   count-1 (count 1..15); a longer run sets the light bits to 15 and adds one byte count-16 (count 16..271;
 *   longer runs are split). Stored light is dropped: decoded cells have light 0 (light is recomputed).
 * Decoding validates everything (Deflate stream, exact payload size, run totals exactly 65536, every contents
 * id defined in the block registry) and fails with ST_ERR_FORMAT and a message, never reading or writing out
 * of bounds. No checksum here: region records carry the CRC32.
 *
 * Ownership: chunk_codec_create allocates a codec with its own z_streams and scratch buffers (reused across
 * calls: deflateReset/inflateReset, no per-chunk setup); chunk_codec_destroy frees it (NULL is a no-op).
 * Threads: a codec is used by one thread at a time; use one codec per thread. Encode reads cells with
 * relaxed atomic loads, so another thread may edit the chunk meanwhile (the blob then holds either value). */
#ifndef STRATA_CHUNK_CODEC_H
#define STRATA_CHUNK_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"

/* Largest payload before Deflate: 256 shaft bytes + one 4-byte run per cell. */
#define CHUNK_CODEC_MAX_RAW (CHUNK_SHAFTS + 4 * CHUNK_CELLS)
/* Longest run one RLE entry can hold (15 + 256). */
#define CHUNK_CODEC_MAX_RUN 271
/* Deflate level of Strata's blobs; the seed format uses level 1 (fastest). Measured on generated chunks with
 * edits (warm): level 1 ~50 us / 3206 bytes, 2 ~54 us / 3058 bytes, 4 ~72 us / 2772 bytes, 6 ~420 us. Level 2
 * keeps encode near the 50 us goal and still writes smaller blobs than the seed. Decode (~28 us) barely
 * depends on the level. */
#define CHUNK_CODEC_LEVEL 2

typedef struct ChunkCodec ChunkCodec;

/* NULL when memory or zlib initialisation fails. */
ChunkCodec *chunk_codec_create(void);
void chunk_codec_destroy(ChunkCodec *codec);

/* Encodes `chunk`. On ST_OK *bytes points at codec-owned memory valid until the next call on this codec
 * and *size is its length. Fails only on a zlib error (ST_ERR_NOMEM / ST_ERR_FORMAT with a message). */
StResult chunk_codec_encode(ChunkCodec *codec, const TerrainChunk *chunk, const uint8_t **bytes, size_t *size);

/* Decodes `size` bytes into `chunk`'s cells (light 0) and shafts (temperature and humidity only; the other
 * shaft fields 0). Coordinates, states and flags are not touched. `blocks` validates contents ids (NULL:
 * any id 0..1023 is accepted). On any failure the cells and shafts are left all zero (air) and the result
 * is ST_ERR_FORMAT with a message saying what was wrong and where ("run 812 at byte 3500: ..."). */
StResult chunk_codec_decode(ChunkCodec *codec, const BlockRegistry *blocks, const uint8_t *bytes, size_t size,
                            TerrainChunk *chunk);

/* The size of `chunk` in the plain seed format: the same runs, raw Deflate at the fastest level, no
 * checksum or record framing (for the benchmark's seed_format_bytes_per_chunk). */
StResult chunk_codec_seed_format_size(ChunkCodec *codec, const TerrainChunk *chunk, size_t *size);

/* The uncompressed run-length payload of the last encode on this codec (shaft bytes + runs): its size in
 * bytes and its number of runs. For tools and tests. */
size_t chunk_codec_last_raw_size(const ChunkCodec *codec);
int chunk_codec_last_run_count(const ChunkCodec *codec);

#endif
