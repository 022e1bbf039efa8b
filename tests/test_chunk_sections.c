/* test_chunk_sections.c — palette sections: growth 1 -> 16 bits and shrink back, uniform sections made and
 * dissolved, value patterns at every width, light nibbles, packing a flat chunk, and fuzz-style random
 * set/get sequences on sections and on hot/cold chunks against a flat reference. */
#include <stdlib.h>

#include "check.h"
#include "strata/chunk.h"
#include "strata/chunk_sections.h"

static uint64_t rng_state = 0x5eed;
static uint32_t next_u32(void)
{
    rng_state += 0x9E3779B97F4A7C15ull;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 11);
}

static int bits_for(int values)
{
    return values <= 1 ? 0 : values <= 2 ? 1 : values <= 4 ? 2 : values <= 16 ? 4 : values <= 256 ? 8 : 16;
}

/* The k-th distinct test value, light bits clear, spanning contents and the full data range. */
static int32_t value_k(int k) { return cell_make(k % 1024, (k * 977) % (CELL_DATA_MAX + 1)); }

static int mismatches(const ChunkSection *s, const int32_t *ref)
{
    int bad = 0;
    for (int i = 0; i < SECTION_CELLS; i++) bad += section_get(s, i) != ref[i];
    return bad;
}

static void test_growth_and_shrink(void)
{
    ChunkSection s = {0};
    static int32_t ref[SECTION_CELLS];
    for (int i = 0; i < SECTION_CELLS; i++) ref[i] = 0;
    CHECK(section_is_uniform(&s));
    CHECK(section_is_empty(&s));
    int bad = 0, bad_bits = 0;
    /* Cell i takes value k = i + 1: after it, i + 2 distinct values (air in the rest) up to 4,096. */
    for (int i = 0; i < SECTION_CELLS; i++) {
        CHECK(section_set(&s, i, value_k(i + 1)));
        ref[i] = value_k(i + 1);
        int distinct = i + 2 > SECTION_CELLS ? SECTION_CELLS : i + 2;
        if (s.bits != bits_for(distinct)) bad_bits++;
        if (section_palette_count(&s) != distinct) bad_bits++;
        if (i < 300 || (i & 63) == 0 || i == SECTION_CELLS - 1) bad += mismatches(&s, ref);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(bad_bits, 0);
    CHECK_EQ_INT(s.bits, 16);
    CHECK_EQ_INT(section_kind(&s), SECTION_KIND_BITS16);
    CHECK(!section_is_empty(&s));
    /* Shrink: back to air from the end; each removal drops a value. */
    for (int i = SECTION_CELLS - 1; i >= 0; i--) {
        CHECK(section_set(&s, i, 0));
        ref[i] = 0;
        int distinct = i + 1;
        if (s.bits != bits_for(distinct)) bad_bits++;
        if (i < 300 || (i & 63) == 0) bad += mismatches(&s, ref);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(bad_bits, 0);
    CHECK(section_is_uniform(&s));
    CHECK(section_is_empty(&s));
    CHECK_EQ_INT(section_heap_bytes(&s), 0);
    section_reset(&s, 0, 0);
}

/* Every width holds every pattern: n values (n = the width's capacity, and its capacity + 1 to force the
 * next width) laid out as stripes, checkerboards, blocks and random, then read back. */
static void test_patterns_every_width(void)
{
    static const int counts[] = { 2, 3, 4, 5, 16, 17, 256, 257, 4096 };
    static int32_t ref[SECTION_CELLS];
    int bad = 0;
    for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c];
        for (int pattern = 0; pattern < 4; pattern++) {
            ChunkSection s = {0};
            section_reset(&s, value_k(0), 0);
            for (int i = 0; i < SECTION_CELLS; i++) {
                int k;
                switch (pattern) {
                case 0: k = i % n; break;                                   /* stripes along x */
                case 1: k = ((i & 15) + (i >> 4) + (i >> 8)) % n; break;    /* checkerboard */
                case 2: k = (i * n) / SECTION_CELLS; break;                 /* blocks */
                default: k = i < n ? i : (int)(next_u32() % (unsigned)n); break; /* random, all present */
                }
                ref[i] = value_k(k);
                if (!section_set(&s, i, ref[i])) bad++;
            }
            bad += mismatches(&s, ref);
            if (s.bits != bits_for(n)) bad++;
            /* Packed from a flat chunk: the same values at the narrowest width. */
            static int32_t flat[CHUNK_CELLS];
            for (int i = 0; i < SECTION_CELLS; i++) {
                int x = i & 15, z = (i >> 4) & 15, y = i >> 8;
                flat[CHUNK_INDEX(x, y + 32, z)] = ref[i] | (int32_t)((i % 7) << CELL_LIGHT_SHIFT);
            }
            ChunkSection p = {0};
            CHECK(section_pack_from_chunk(&p, flat, 2));
            bad += mismatches(&p, ref);
            if (p.bits != bits_for(n)) bad++;
            for (int i = 0; i < SECTION_CELLS; i++) bad += section_light_get(&p, i) != i % 7;
            static int32_t back[CHUNK_CELLS];
            section_unpack_to_chunk(&p, back, 2);
            for (int y = 32; y < 48; y++)
                for (int z = 0; z < 16; z++)
                    for (int x = 0; x < 16; x++) bad += back[CHUNK_INDEX(x, y, z)] != flat[CHUNK_INDEX(x, y, z)];
            section_reset(&p, 0, 0);
            section_reset(&s, 0, 0);
        }
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_uniform_made_and_dissolved(void)
{
    int32_t stone = cell_make(3, 0), dirt = cell_make(2, 0), sand = cell_make(4, 5);
    ChunkSection s = {0};
    section_reset(&s, stone, 0);
    CHECK(section_is_uniform(&s));
    CHECK(!section_is_empty(&s));
    CHECK_EQ_INT(section_heap_bytes(&s), 0);
    CHECK(section_set(&s, SECTION_INDEX(3, 4, 5), dirt));          /* dissolves the uniform section */
    CHECK_EQ_INT(s.bits, 1);
    CHECK_EQ_INT(section_get(&s, SECTION_INDEX(3, 4, 5)), dirt);
    CHECK_EQ_INT(section_get(&s, SECTION_INDEX(3, 4, 6)), stone);
    CHECK(section_set(&s, SECTION_INDEX(3, 4, 5), sand));          /* dirt's last cell: its slot reused */
    CHECK_EQ_INT(s.bits, 1);
    CHECK_EQ_INT(section_palette_count(&s), 2);
    CHECK_EQ_INT(section_get(&s, SECTION_INDEX(3, 4, 5)), sand);
    CHECK(section_set(&s, SECTION_INDEX(3, 4, 5), stone));         /* one value left: uniform again */
    CHECK(section_is_uniform(&s));
    CHECK_EQ_INT(s.uniform, stone);
    CHECK_EQ_INT(section_heap_bytes(&s), 0);
    /* Overwriting every cell with another value also ends uniform, of the new value. */
    for (int i = 0; i < SECTION_CELLS; i++) CHECK(section_set(&s, i, dirt) || 1);
    CHECK(section_is_uniform(&s));
    CHECK_EQ_INT(s.uniform, dirt);
    /* Light bits never enter the palette. */
    CHECK(section_set(&s, 0, cell_replace_light(dirt, 9)));
    CHECK(section_is_uniform(&s));
    section_reset(&s, 0, 0);
}

static void test_light_nibbles(void)
{
    ChunkSection s = {0};
    section_reset(&s, 0, 15);
    CHECK(s.light == NULL);
    CHECK_EQ_INT(section_light_get(&s, 77), 15);
    CHECK(section_light_set(&s, 77, 15));
    CHECK(s.light == NULL);
    CHECK(section_light_set(&s, 77, 4));
    CHECK(s.light != NULL);
    CHECK(section_light_set(&s, 78, 11));
    CHECK_EQ_INT(section_light_get(&s, 76), 15);
    CHECK_EQ_INT(section_light_get(&s, 77), 4);
    CHECK_EQ_INT(section_light_get(&s, 78), 11);
    CHECK_EQ_INT(section_light_get(&s, 79), 15);
    CHECK_EQ_INT(section_get_cell(&s, 77), cell_replace_light(0, 4));
    CHECK_EQ_INT(section_heap_bytes(&s), SECTION_LIGHT_BYTES);
    /* Packing a uniformly lit section drops the nibbles. */
    static int32_t flat[CHUNK_CELLS];
    for (int i = 0; i < CHUNK_CELLS; i++) flat[i] = cell_replace_light(cell_make(1, 0), 6);
    CHECK(section_pack_from_chunk(&s, flat, 15));
    CHECK(s.light == NULL && section_is_uniform(&s));
    CHECK_EQ_INT(section_get_cell(&s, 4095), flat[0]);
    CHECK_EQ_INT(section_heap_bytes(&s), 0);
    section_reset(&s, 0, 0);
}

/* Random set/get sequences on one section with a small value alphabet (so values come and go and the
 * width moves both ways) against a flat reference. */
static void test_fuzz_section(void)
{
    static int32_t ref[SECTION_CELLS];
    int bad = 0, widths_seen = 0;
    for (int round = 0; round < 40; round++) {
        ChunkSection s = {0};
        for (int i = 0; i < SECTION_CELLS; i++) ref[i] = 0;
        int alphabet = 1 + (int)(next_u32() % 600);
        int region = 1 + (int)(next_u32() % SECTION_CELLS);
        for (int step = 0; step < 20000; step++) {
            int i = (int)(next_u32() % (unsigned)region);
            int32_t v = value_k((int)(next_u32() % (unsigned)alphabet));
            if (next_u32() % 4 == 0) v = 0;
            CHECK(section_set(&s, i, v) || 1);
            ref[i] = v;
            if (section_get(&s, i) != v) bad++;
            int j = (int)(next_u32() % SECTION_CELLS);
            if (section_get(&s, j) != ref[j]) bad++;
            widths_seen |= 1 << s.bits;
        }
        bad += mismatches(&s, ref);
        int distinct = 0;
        unsigned char seen[1024] = {0}; /* value_k(k) for k < 1024 differ in their contents */
        for (int i = 0; i < SECTION_CELLS; i++) {
            int key = cell_contents(ref[i]);
            if (!seen[key]) { seen[key] = 1; distinct++; }
        }
        if (section_palette_count(&s) != distinct) bad++;
        if (s.bits != bits_for(distinct)) bad++;
        section_reset(&s, 0, 0);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(widths_seen & (1 << 0));
    CHECK(widths_seen & (1 << 1));
    CHECK(widths_seen & (1 << 8));
}

/* A whole chunk through the accessors, cold and hot, packed and unpacked in between, against a flat copy. */
static void test_fuzz_chunk_hot_cold(void)
{
    TerrainChunk *c = chunk_create(4, -9);
    CHECK(c != NULL);
    if (!c) return;
    int32_t *ref = calloc(CHUNK_CELLS, sizeof *ref);
    int32_t *out = malloc(sizeof *out * CHUNK_CELLS);
    CHECK(!chunk_is_hot(c));
    int base_scratch = chunk_scratch_in_use();
    int bad = 0;
    for (int step = 0; step < 60000; step++) {
        int x = (int)(next_u32() % 16), z = (int)(next_u32() % 16);
        int y = (int)(next_u32() % 256);
        if (next_u32() % 2) y = 60 + (int)(next_u32() % 20); /* dense in a few sections */
        int32_t v = cell_replace_light(value_k((int)(next_u32() % 40)), (int)(next_u32() % 16));
        switch (next_u32() % 8) {
        case 0: chunk_set_cell_shared(c, x, y, z, v); break;
        default: chunk_set_cell(c, x, y, z, v); break;
        }
        ref[CHUNK_INDEX(x, y, z)] = v;
        int32_t got = (step & 1) ? chunk_get_cell(c, x, y, z) : chunk_get_cell_shared(c, x, y, z);
        if (got != v) bad++;
        if (step % 7919 == 0) {
            if (chunk_is_hot(c)) CHECK(chunk_pack(c));
            else chunk_make_hot(c);
        }
        if (step % 15013 == 0) {
            chunk_copy_cells_out(c, out);
            for (int i = 0; i < CHUNK_CELLS; i++) bad += out[i] != ref[i];
        }
        if (step % 1009 == 0) {   /* a column span, hot or cold, across section borders (uniform ones too) */
            int y0 = (int)(next_u32() % 256), n = 1 + (int)(next_u32() % (256 - y0));
            int32_t column[CHUNK_SIZE_Y];
            chunk_get_column_shared(c, x, z, y0, n, column);
            for (int k = 0; k < n; k++) bad += column[k] != ref[CHUNK_INDEX(x, y0 + k, z)];
        }
    }
    CHECK(chunk_pack(c));
    CHECK(!chunk_is_hot(c));
    CHECK_EQ_INT(chunk_scratch_in_use(), base_scratch);
    int kinds[SECTION_KIND_COUNT] = {0};
    size_t bytes = chunk_resident_bytes(c, kinds);
    CHECK(bytes < 16 * (8192 + 4096 * 6 + 2048) + sizeof *c);
    int total = 0;
    for (int k = 0; k < SECTION_KIND_COUNT; k++) total += kinds[k];
    CHECK_EQ_INT(total, CHUNK_SECTIONS);
    CellViewConst view = chunk_cell_view_const(c);
    CHECK(chunk_is_hot(c));
    for (int i = 0; i < CHUNK_CELLS; i++) bad += *cell_view_const_at(view, i) != ref[i];
    CHECK_EQ_INT(bad, 0);
    /* Clearing leaves it cold and empty. */
    chunk_clear_cells(c);
    CHECK(!chunk_is_hot(c));
    CHECK_EQ_INT(chunk_resident_bytes(c, NULL), sizeof *c);
    for (int s = 0; s < CHUNK_SECTIONS; s++) CHECK(section_is_empty(&c->sections[s]));
    chunk_destroy(c);
    free(ref);
    free(out);
}

/* A whole chunk packed at once (section_pack_chunk, one pass in memory order) gives the same sections as packing
 * them one by one: the same width, palette in the same order, cells and light; and the palette's counts are right
 * (setting every cell to one value leaves one live entry). Sections: sky, rock, palettes of 2..40 values (past 16
 * the palette is hashed) in runs and at random, light uniform or not. */
static void test_pack_whole_chunk(void)
{
    static int32_t flat[CHUNK_CELLS];
    for (int round = 0; round < 4; round++) {
        for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
            int n = 1 + (sy * 3 + round * 5) % 41;
            bool runs = (sy + round) & 1, lit = sy % 3 == 0;
            for (int y = 0; y < 16; y++)
                for (int z = 0; z < 16; z++)
                    for (int x = 0; x < 16; x++) {
                        int k = runs ? ((x / 5 + z + y * 3) % n) : (int)(next_u32() % (unsigned)n);
                        int light = lit ? (int)(next_u32() % 16) : sy % 16;
                        flat[CHUNK_INDEX(x, sy * 16 + y, z)] = value_k(k) | (int32_t)(light << CELL_LIGHT_SHIFT);
                    }
        }
        ChunkSection whole[CHUNK_SECTIONS] = {0}, one = {0};
        CHECK(section_pack_chunk(whole, flat));
        int bad = 0;
        for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
            CHECK(section_pack_from_chunk(&one, flat, sy));
            ChunkSection *w = &whole[sy];
            bad += w->bits != one.bits || w->palette_size != one.palette_size || w->live != one.live ||
                   w->uniform != one.uniform || w->light_uniform != one.light_uniform || !w->light != !one.light;
            for (int k = 0; k < w->palette_size && w->palette && one.palette; k++) bad += w->palette[k] != one.palette[k];
            for (int i = 0; i < SECTION_CELLS; i++) {
                int x = i & 15, z = (i >> 4) & 15, y = i >> 8;
                bad += section_get_cell(w, i) != flat[CHUNK_INDEX(x, sy * 16 + y, z)];
                bad += section_get_cell(&one, i) != section_get_cell(w, i);
            }
            for (int i = 0; i < SECTION_CELLS; i++) bad += !section_set(w, i, value_k(0));
            bad += w->bits && w->live != 1;
            section_reset(&one, 0, 0);
            section_reset(w, 0, 0);
        }
        CHECK_EQ_INT(bad, 0);
    }
}

int main(void)
{
    RUN(test_growth_and_shrink);
    RUN(test_patterns_every_width);
    RUN(test_pack_whole_chunk);
    RUN(test_uniform_made_and_dissolved);
    RUN(test_light_nibbles);
    RUN(test_fuzz_section);
    RUN(test_fuzz_chunk_hot_cold);
    return check_report();
}
