/* test_codec.c — the chunk codec: round trips (generated, edited, worst-case, uniform chunks), the exact
 * seed format (run order, short and long runs, hand-built blobs decoded, encoder output inflated and
 * compared byte for byte), and rejection of every kind of bad input (truncated, bit-flipped, random, and
 * hand-built payloads that break one rule each) with ST_ERR_FORMAT and an all-air chunk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "strata/block.h"
#include "strata/chunk_codec.h"
#include "strata/generator.h"

static BlockRegistry *blocks;
static ChunkCodec *codec;
static TerrainChunk chunk_a, chunk_b;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Sequence position (x fastest, then z, then y) -> cell index. */
static int seq_to_index(int i) { return (i >> 8) + ((i & 255) << 8); }

static void fill_cells(TerrainChunk *c, int32_t value)
{
    int32_t *cells = chunk_cell_view(c).cells;
    for (int i = 0; i < CHUNK_CELLS; i++) cells[i] = value;
}

static bool chunks_equal_without_light(const TerrainChunk *a, const TerrainChunk *b)
{
    const int32_t *ca = chunk_cell_view_const(a).cells, *cb = chunk_cell_view_const(b).cells;
    for (int i = 0; i < CHUNK_CELLS; i++)
        if (cell_replace_light(ca[i], 0) != cb[i]) return false;
    for (int i = 0; i < CHUNK_SHAFTS; i++) {
        if (shaft_temperature(a->shafts[i]) != shaft_temperature(b->shafts[i])) return false;
        if (shaft_humidity(a->shafts[i]) != shaft_humidity(b->shafts[i])) return false;
    }
    return true;
}

static bool chunk_is_all_zero(const TerrainChunk *c)
{
    const int32_t *cells = chunk_cell_view_const(c).cells;
    for (int i = 0; i < CHUNK_CELLS; i++)
        if (cells[i]) return false;
    for (int i = 0; i < CHUNK_SHAFTS; i++)
        if (c->shafts[i]) return false;
    return true;
}

/* Encodes `c`, copies the blob out (caller frees), decodes it into chunk_b and compares. */
static uint8_t *round_trip(const TerrainChunk *c, size_t *size_out)
{
    const uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(chunk_codec_encode(codec, c, &bytes, &size), ST_OK);
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    fill_cells(&chunk_b, 0x55555555);
    StResult rc = chunk_codec_decode(codec, blocks, copy, size, &chunk_b);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) fprintf(stderr, "  decode: %s\n", st_error_message());
    CHECK(chunks_equal_without_light(c, &chunk_b));
    if (size_out) *size_out = size;
    return copy;
}

/* Raw Deflate of a hand-built payload (the seed format's compression). */
static uint8_t *deflate_raw(const uint8_t *raw, size_t size, size_t *out_size)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&zs, size) + 16;
    uint8_t *out = malloc(cap);
    zs.next_in = (Bytef *)raw;
    zs.avail_in = (uInt)size;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    CHECK_EQ_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_size = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

static uint8_t *inflate_raw(const uint8_t *blob, size_t size, size_t *out_size)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    inflateInit2(&zs, -15);
    uint8_t *out = malloc(CHUNK_CODEC_MAX_RAW + 1);
    zs.next_in = (Bytef *)blob;
    zs.avail_in = (uInt)size;
    zs.next_out = out;
    zs.avail_out = CHUNK_CODEC_MAX_RAW + 1;
    CHECK_EQ_INT(inflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_size = CHUNK_CODEC_MAX_RAW + 1 - zs.avail_out;
    inflateEnd(&zs);
    return out;
}

/* A hand-built payload writer. */
typedef struct RawBuf { uint8_t *data; size_t size; } RawBuf;
static void raw_init(RawBuf *b)
{
    b->data = calloc(1, CHUNK_CODEC_MAX_RAW + 64);
    b->size = CHUNK_SHAFTS;   /* shaft bytes zero */
}
static void raw_u32(RawBuf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++) b->data[b->size++] = (uint8_t)(v >> (8 * i));
}
/* One run in the seed format (count 1..271). */
static void raw_run(RawBuf *b, int32_t value, int count)
{
    if (count <= 15) {
        raw_u32(b, (uint32_t)cell_replace_light(value, count - 1));
    } else {
        raw_u32(b, (uint32_t)cell_replace_light(value, 15));
        b->data[b->size++] = (uint8_t)(count - 16);
    }
}
static void raw_fill(RawBuf *b, int32_t value, int count)
{
    while (count > 0) {
        int n = count > 271 ? 271 : count;
        raw_run(b, value, n);
        count -= n;
    }
}

/* Decodes a hand-built payload; returns the result and leaves the message in st_error_message. */
static StResult decode_raw(const RawBuf *b)
{
    size_t size;
    uint8_t *blob = deflate_raw(b->data, b->size, &size);
    StResult rc = chunk_codec_decode(codec, blocks, blob, size, &chunk_b);
    free(blob);
    return rc;
}

/* ---- chunks ---- */

static void make_uniform(TerrainChunk *c, int32_t value)
{
    chunk_reset(c, 3, -7);
    fill_cells(c, value);
}

/* Layered terrain with ores, caves and plants, light set everywhere (it must be dropped). */
static void make_terrain_like(TerrainChunk *c)
{
    chunk_reset(c, -2, 5);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int h = 58 + (int)((x * 7 + z * 3) % 11);
            int32_t shaft = shaft_set_temperature(0, (x + 2 * z) & 15);
            shaft = shaft_set_humidity(shaft, (3 * x + z) & 15);
            c->shafts[CHUNK_SHAFT_INDEX(x, z)] = shaft_set_top_height(shaft, h);
            for (int y = 0; y < 256; y++) {
                int id = BLOCK_AIR;
                if (y < 2) id = BLOCK_BEDROCK;
                else if (y < h - 4) id = rng_next() % 40 == 0 ? BLOCK_COAL_ORE : (y < 30 ? BLOCK_BASALT : BLOCK_GRANITE);
                else if (y < h) id = BLOCK_DIRT;
                else if (y == h) id = BLOCK_GRASS;
                else if (y < 64) id = BLOCK_WATER;
                else if (y == h + 1 && rng_next() % 8 == 0) id = BLOCK_TALL_GRASS;
                int light = y > h ? 15 : (int)(rng_next() % 16);
                chunk_set_cell(c, x, y, z, cell_replace_light(cell_make(id, id == BLOCK_TALL_GRASS ? 3 : 0), light));
            }
        }
}

/* Every cell different: contents cycle through the defined ids, data counts cells. */
static void make_worst_case(TerrainChunk *c)
{
    chunk_reset(c, 0, 0);
    int ids[BLOCK_MAX], n = 0;
    for (int id = 0; id < BLOCK_MAX; id++)
        if (block_is_defined(blocks, id)) ids[n++] = id;
    int32_t *cells = chunk_cell_view(c).cells;
    for (int i = 0; i < CHUNK_CELLS; i++) cells[i] = cell_make(ids[i % n], i);
    for (int i = 0; i < CHUNK_SHAFTS; i++) c->shafts[i] = shaft_set_humidity(shaft_set_temperature(0, i & 15), (i >> 4) & 15);
}

/* Player-like edits: a dug tunnel, a placed wall, torches. */
static void apply_edits(TerrainChunk *c)
{
    for (int x = 2; x < 14; x++)
        for (int y = 60; y < 63; y++) chunk_set_cell(c, x, y, 7, 0);
    for (int x = 4; x < 9; x++)
        for (int y = 64; y < 68; y++) chunk_set_cell(c, x, y, 3, cell_make(BLOCK_PLANKS, 0));
    chunk_set_cell(c, 5, 61, 7, cell_make(BLOCK_TORCH, 2));
    chunk_set_cell(c, 11, 61, 7, cell_make(BLOCK_TORCH, 4));
}

/* ---- tests ---- */

static void test_uniform(void)
{
    make_uniform(&chunk_a, cell_make(BLOCK_STONE, 0));
    size_t size;
    free(round_trip(&chunk_a, &size));
    /* 65536 = 241 runs of 271 + one of 225: 242 long runs of 5 bytes. */
    CHECK_EQ_INT(chunk_codec_last_run_count(codec), 242);
    CHECK_EQ_INT(chunk_codec_last_raw_size(codec), CHUNK_SHAFTS + 242 * 5);
    CHECK(size < 100);

    /* All air in full sunlight: the light is dropped, the blob equals plain air's. */
    make_uniform(&chunk_a, cell_replace_light(0, 15));
    free(round_trip(&chunk_a, NULL));
    const int32_t *cells = chunk_cell_view_const(&chunk_b).cells;
    for (int i = 0; i < CHUNK_CELLS; i++)
        if (cells[i] != 0) { CHECK(cells[i] == 0); break; }
}

static void test_run_lengths(void)
{
    /* Runs of 1, 15, 16, 271, 272 and 542 in sequence order, then air: exact run count and payload size. */
    const int lengths[] = {1, 15, 16, 271, 272, 542};
    const int ids[] = {BLOCK_STONE, BLOCK_DIRT, BLOCK_SAND, BLOCK_GRANITE, BLOCK_GRAVEL, BLOCK_CLAY};
    chunk_reset(&chunk_a, 0, 0);
    int pos = 0, runs = 0;
    size_t bytes = 0;
    int32_t *cells = chunk_cell_view(&chunk_a).cells;
    for (int k = 0; k < 6; k++) {
        for (int j = 0; j < lengths[k]; j++) cells[seq_to_index(pos++)] = cell_make(ids[k], 0);
        for (int left = lengths[k]; left > 0; left -= 271) {
            int n = left > 271 ? 271 : left;
            runs++;
            bytes += n <= 15 ? 4 : 5;
        }
    }
    int air = CHUNK_CELLS - pos;
    for (int left = air; left > 0; left -= 271) {
        runs++;
        bytes += (left > 271 ? 271 : left) <= 15 ? 4 : 5;
    }
    free(round_trip(&chunk_a, NULL));
    CHECK_EQ_INT(chunk_codec_last_run_count(codec), runs);
    CHECK_EQ_INT(chunk_codec_last_raw_size(codec), CHUNK_SHAFTS + bytes);
}

/* The encoder's payload is exactly the seed format, byte for byte (run order x, z, y). */
static void test_exact_seed_format(void)
{
    chunk_reset(&chunk_a, 0, 0);
    fill_cells(&chunk_a, cell_make(BLOCK_STONE, 0));
    chunk_set_cell(&chunk_a, 1, 0, 0, cell_replace_light(cell_make(BLOCK_DIRT, 5), 9));   /* sequence 1 */
    chunk_set_cell(&chunk_a, 0, 0, 1, cell_make(BLOCK_SAND, 0));                         /* sequence 16 */
    chunk_set_cell(&chunk_a, 0, 1, 0, cell_make(BLOCK_WATER, 0x3FFFF));                  /* sequence 256 */
    chunk_a.shafts[CHUNK_SHAFT_INDEX(2, 3)] = shaft_set_humidity(shaft_set_temperature(0x12345678, 11), 4);

    RawBuf expect;
    raw_init(&expect);
    expect.data[CHUNK_SHAFT_INDEX(2, 3)] = (11 << 4) | 4;
    raw_run(&expect, cell_make(BLOCK_STONE, 0), 1);
    raw_run(&expect, cell_make(BLOCK_DIRT, 5), 1);
    raw_run(&expect, cell_make(BLOCK_STONE, 0), 14);
    raw_run(&expect, cell_make(BLOCK_SAND, 0), 1);
    raw_run(&expect, cell_make(BLOCK_STONE, 0), 239);
    raw_run(&expect, cell_make(BLOCK_WATER, 0x3FFFF), 1);
    raw_fill(&expect, cell_make(BLOCK_STONE, 0), CHUNK_CELLS - 257);

    const uint8_t *bytes;
    size_t size, raw_size;
    CHECK_EQ_INT(chunk_codec_encode(codec, &chunk_a, &bytes, &size), ST_OK);
    uint8_t *raw = inflate_raw(bytes, size, &raw_size);
    CHECK_EQ_INT(raw_size, expect.size);
    CHECK(raw_size == expect.size && memcmp(raw, expect.data, raw_size) == 0);
    free(raw);

    /* The hand-built blob decodes to the chunk (light dropped, data kept, other shaft fields cleared). */
    CHECK_EQ_INT(decode_raw(&expect), ST_OK);
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 1, 0, 0), cell_make(BLOCK_DIRT, 5));
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 0, 0, 1), cell_make(BLOCK_SAND, 0));
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 0, 1, 0), cell_make(BLOCK_WATER, 0x3FFFF));
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 15, 255, 15), cell_make(BLOCK_STONE, 0));
    CHECK_EQ_INT(chunk_b.shafts[CHUNK_SHAFT_INDEX(2, 3)], shaft_set_humidity(shaft_set_temperature(0, 11), 4));
    CHECK(chunks_equal_without_light(&chunk_a, &chunk_b));

    /* A run that is not split at 271 the canonical way (long run of 16, short runs of 15) still decodes. */
    RawBuf odd;
    raw_init(&odd);
    raw_run(&odd, cell_make(BLOCK_STONE, 0), 16);
    for (int left = CHUNK_CELLS - 16; left > 0; left -= 15) raw_run(&odd, cell_make(BLOCK_STONE, 0), left > 15 ? 15 : left);
    CHECK_EQ_INT(decode_raw(&odd), ST_OK);
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 0, 57, 3), cell_make(BLOCK_STONE, 0));   /* cell 12345 */
    free(odd.data);
    free(expect.data);
}

static void test_terrain_and_edits(void)
{
    make_terrain_like(&chunk_a);
    size_t plain, edited;
    free(round_trip(&chunk_a, &plain));
    apply_edits(&chunk_a);
    free(round_trip(&chunk_a, &edited));
    CHECK(plain > 100 && edited > 100);
    size_t seed_size = 0;
    CHECK_EQ_INT(chunk_codec_seed_format_size(codec, &chunk_a, &seed_size), ST_OK);
    CHECK(seed_size > 100);
    fprintf(stderr, "  terrain-like chunk: %zu bytes (seed format %zu), edited %zu\n", plain, seed_size, edited);
}

static void test_generated_chunks(void)
{
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 12345;
    Generator *gen = NULL;
    StResult rc = generator_create(&settings, blocks, STRATA_ASSET_DIR "/worldgen.json", &gen);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) {
        fprintf(stderr, "  generator: %s\n", st_error_message());
        return;
    }
    GenContext *ctx = gen_context_create();
    const int coords[][2] = {{0, 0}, {1, -1}, {-5, 7}, {40, 3}, {-100, -100}, {13, 250}};
    for (size_t k = 0; k < sizeof coords / sizeof coords[0]; k++) {
        chunk_reset(&chunk_a, coords[k][0], coords[k][1]);
        generator_generate_chunk(gen, &chunk_a, ctx);
        size_t size;
        free(round_trip(&chunk_a, &size));
        apply_edits(&chunk_a);
        size_t edited;
        free(round_trip(&chunk_a, &edited));
        fprintf(stderr, "  generated chunk %d,%d: %zu bytes, edited %zu (%d runs)\n", coords[k][0], coords[k][1], size,
                edited, chunk_codec_last_run_count(codec));
    }
    gen_context_destroy(ctx);
    generator_destroy(gen);
}

static void test_worst_case(void)
{
    make_worst_case(&chunk_a);
    free(round_trip(&chunk_a, NULL));
    CHECK_EQ_INT(chunk_codec_last_run_count(codec), CHUNK_CELLS);
    CHECK_EQ_INT(chunk_codec_last_raw_size(codec), CHUNK_CODEC_MAX_RAW);
}

/* Every prefix of a real blob (stepping through it) fails cleanly, leaving air. */
static void test_truncated(void)
{
    make_terrain_like(&chunk_a);
    apply_edits(&chunk_a);
    size_t size;
    uint8_t *blob = round_trip(&chunk_a, &size);
    int failures = 0, tries = 0;
    for (size_t n = 0; n < size; n += (n < 64 ? 1 : 7)) {
        fill_cells(&chunk_b, 0x11111111);
        StResult rc = chunk_codec_decode(codec, blocks, blob, n, &chunk_b);
        tries++;
        if (rc == ST_ERR_FORMAT && chunk_is_all_zero(&chunk_b)) failures++;
    }
    CHECK_EQ_INT(failures, tries);
    /* Trailing bytes after the stream end are refused too. */
    uint8_t *longer = malloc(size + 3);
    memcpy(longer, blob, size);
    memset(longer + size, 0, 3);
    CHECK_EQ_INT(chunk_codec_decode(codec, blocks, longer, size + 3, &chunk_b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "trailing");
    free(longer);
    free(blob);
}

/* Single bit flips: raw Deflate has no checksum (the region record's CRC32 catches these), so a flip may
 * still decode; it must then be a valid chunk (known ids), otherwise ST_ERR_FORMAT with air left behind. */
static void test_bit_flips(void)
{
    make_terrain_like(&chunk_a);
    size_t size;
    uint8_t *blob = round_trip(&chunk_a, &size);
    int errors = 0, valid = 0, bad = 0;
    for (size_t bit = 0; bit < size * 8; bit += 3) {
        blob[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        StResult rc = chunk_codec_decode(codec, blocks, blob, size, &chunk_b);
        blob[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        if (rc == ST_ERR_FORMAT && chunk_is_all_zero(&chunk_b)) {
            errors++;
        } else if (rc == ST_OK) {
            bool ok = true;
            const int32_t *cells = chunk_cell_view_const(&chunk_b).cells;
            for (int i = 0; i < CHUNK_CELLS && ok; i++) ok = block_is_defined(blocks, cell_contents(cells[i]));
            if (ok) valid++; else bad++;
        } else {
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(errors > valid);
    fprintf(stderr, "  bit flips: %d rejected, %d decoded to another valid chunk\n", errors, valid);
    free(blob);
}

static void test_random_inputs(void)
{
    uint8_t *buf = malloc(70000);
    int errors = 0;
    const int rounds = 3000;
    for (int r = 0; r < rounds; r++) {
        size_t n = r < 100 ? (size_t)r : rng_next() % 70000;
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rng_next();
        if (chunk_codec_decode(codec, blocks, buf, n, &chunk_b) == ST_ERR_FORMAT && chunk_is_all_zero(&chunk_b)) errors++;
    }
    CHECK_EQ_INT(errors, rounds);
    /* Random payloads behind a valid Deflate stream reach the run parser. */
    errors = 0;
    for (int r = 0; r < 300; r++) {
        RawBuf b;
        raw_init(&b);
        size_t n = rng_next() % 20000;
        for (size_t i = 0; i < n; i++) b.data[b.size++] = (uint8_t)rng_next();
        if (decode_raw(&b) == ST_ERR_FORMAT) errors++;
        free(b.data);
    }
    CHECK_EQ_INT(errors, 300);
    free(buf);
}

/* Payloads that break exactly one rule. */
static void test_invalid_payloads(void)
{
    RawBuf b;
    int32_t stone = cell_make(BLOCK_STONE, 0);

    raw_init(&b);   /* one cell short */
    raw_fill(&b, stone, CHUNK_CELLS - 1);
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "runs cover 65535 cells, expected 65536");
    CHECK(chunk_is_all_zero(&chunk_b));
    free(b.data);

    raw_init(&b);   /* one cell too many */
    raw_fill(&b, stone, CHUNK_CELLS);
    raw_run(&b, stone, 1);
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "overflow");
    free(b.data);

    raw_init(&b);   /* a contents id the registry does not define */
    int unknown = -1;
    for (int id = BLOCK_MAX - 1; id > 0 && unknown < 0; id--)
        if (!block_is_defined(blocks, id)) unknown = id;
    raw_fill(&b, stone, 100);
    raw_run(&b, cell_make(unknown, 0), 1);
    raw_fill(&b, stone, CHUNK_CELLS - 101);
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    char want[64];
    snprintf(want, sizeof want, "unknown block id %d", unknown);
    CHECK_STR_CONTAINS(st_error_message(), want);
    CHECK(chunk_is_all_zero(&chunk_b));
    free(b.data);

    raw_init(&b);   /* a partial run at the end */
    raw_fill(&b, stone, CHUNK_CELLS);
    b.size += 3;
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "truncated");
    free(b.data);

    raw_init(&b);   /* a long run whose count byte is missing */
    raw_fill(&b, stone, CHUNK_CELLS - 20);
    raw_u32(&b, (uint32_t)cell_replace_light(stone, 15));
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "count byte");
    free(b.data);

    raw_init(&b);   /* shaft bytes only */
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "shorter than");
    b.size = 100;   /* not even the shafts */
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    free(b.data);

    raw_init(&b);   /* longer than any chunk can be */
    for (int i = 0; i < CHUNK_CELLS; i++) raw_run(&b, cell_make(BLOCK_STONE, i & 1), 1);
    b.data[b.size++] = 0;
    CHECK_EQ_INT(decode_raw(&b), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "longer than the largest chunk");
    free(b.data);

    /* Empty input and NULL-free zero length. */
    uint8_t none = 0;
    CHECK_EQ_INT(chunk_codec_decode(codec, blocks, &none, 0, &chunk_b), ST_ERR_FORMAT);

    /* Without a registry any id is accepted. */
    raw_init(&b);
    raw_fill(&b, cell_make(unknown, 0), CHUNK_CELLS);
    size_t size;
    uint8_t *blob = deflate_raw(b.data, b.size, &size);
    CHECK_EQ_INT(chunk_codec_decode(codec, NULL, blob, size, &chunk_b), ST_OK);
    CHECK_EQ_INT(cell_contents(chunk_get_cell(&chunk_b, 3, 9, 0)), unknown);   /* cell 777 */
    free(blob);
    free(b.data);
}

/* One codec serves many chunks in any order (reset z_streams, no state leaks between calls). */
static void test_codec_reuse(void)
{
    ChunkCodec *second = chunk_codec_create();
    CHECK(second != NULL);
    make_terrain_like(&chunk_a);
    const uint8_t *bytes;
    size_t size1, size2;
    CHECK_EQ_INT(chunk_codec_encode(codec, &chunk_a, &bytes, &size1), ST_OK);
    uint8_t *first = malloc(size1);
    memcpy(first, bytes, size1);
    for (int i = 0; i < 5; i++) {
        make_worst_case(&chunk_b);
        CHECK_EQ_INT(chunk_codec_encode(codec, &chunk_b, &bytes, &size2), ST_OK);
        CHECK_EQ_INT(chunk_codec_decode(codec, blocks, first, size1 / 2, &chunk_b), ST_ERR_FORMAT);
    }
    CHECK_EQ_INT(chunk_codec_encode(second, &chunk_a, &bytes, &size2), ST_OK);
    CHECK(size1 == size2 && memcmp(first, bytes, size1) == 0);
    CHECK_EQ_INT(chunk_codec_encode(codec, &chunk_a, &bytes, &size2), ST_OK);
    CHECK(size1 == size2 && memcmp(first, bytes, size1) == 0);
    free(first);
    chunk_codec_destroy(second);
    chunk_codec_destroy(NULL);
}

int main(void)
{
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "blocks.json: %s\n", st_error_message());
        return 1;
    }
    codec = chunk_codec_create();
    CHECK(codec != NULL);
    RUN(test_uniform);
    RUN(test_run_lengths);
    RUN(test_exact_seed_format);
    RUN(test_terrain_and_edits);
    RUN(test_generated_chunks);
    RUN(test_worst_case);
    RUN(test_truncated);
    RUN(test_bit_flips);
    RUN(test_random_inputs);
    RUN(test_invalid_payloads);
    RUN(test_codec_reuse);
    chunk_codec_destroy(codec);
    block_registry_destroy(blocks);
    return check_report();
}
