/* chunk_sections.c — palette sections (seed 002's BlockPalette and ChunkSection).
 *
 * Design. A section is uniform (bits 0: one value in `uniform`, nothing allocated) or a palette of up to
 * 4,096 values with a per-value reference count and packed indices of 1, 2, 4, 8 or 16 bits (a width that
 * divides 64, so an index never straddles two words). Setting a cell:
 *  - to its current value: nothing;
 *  - to a value already in the palette: the counts move;
 *  - to a new value while the old one has this cell as its last user: the old palette slot is reused in
 *    place (no growth, no index rewrite);
 *  - otherwise the value takes a free slot (count 0), or is appended, or the indices are widened first.
 * When a count falls to 0 the slot is freed; when the live values fit a narrower width the palette is
 * compacted (free slots dropped) and the indices rewritten at that width; one live value left dissolves
 * the section into a uniform one. So a section always has the narrowest width its live values need, and
 * growth and shrinkage are symmetric (no hysteresis: edits are rare and a rewrite is 4,096 indices).
 * Light is kept apart as nibbles (see the header for why); a section's light array is allocated when a
 * cell's level first differs from the uniform level, and dropped again when a section is packed with one
 * level throughout.
 * Packing a flat chunk (the worker, when a chunk goes cold) first tests for one raw cell throughout (the
 * commonest section: sky, buried rock, open sea), else gathers the section in section order, finds
 * the palette with a last-value cache (runs of equal cells are the norm) and, past 16 values, a hash.
 * Lookup of a value when setting is linear over the palette, which is short in real terrain; a 16-bit
 * palette (more than 256 distinct values in 4,096 cells) costs up to 4,096 compares per new value. */
#include "strata/chunk_sections.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int section_cap(int bits) { return bits >= 16 ? SECTION_CELLS : 1 << bits; }
static int section_words(int bits) { return SECTION_CELLS * bits / 64; }
static int section_shift(int bits) /* log2(64 / bits) */
{
    switch (bits) {
    case 1: return 6;
    case 2: return 5;
    case 4: return 4;
    case 8: return 3;
    default: return 2;
    }
}
static int section_bits_for(int values)
{
    return values <= 2 ? 1 : values <= 4 ? 2 : values <= 16 ? 4 : values <= 256 ? 8 : 16;
}
static uint16_t *section_counts(const ChunkSection *s) { return (uint16_t *)(s->palette + section_cap(s->bits)); }

static inline unsigned index_get(const uint64_t *w, int bits, int i)
{
    int shift = section_shift(bits);
    unsigned off = (unsigned)(i & ((1 << shift) - 1)) * (unsigned)bits;
    return (unsigned)(w[i >> shift] >> off) & ((1u << bits) - 1u);
}
static inline void index_set(uint64_t *w, int bits, int i, unsigned v)
{
    int shift = section_shift(bits);
    unsigned off = (unsigned)(i & ((1 << shift) - 1)) * (unsigned)bits;
    uint64_t mask = (uint64_t)((1u << bits) - 1u) << off;
    w[i >> shift] = (w[i >> shift] & ~mask) | ((uint64_t)v << off);
}

static void section_free_contents(ChunkSection *s)
{
    free(s->indices);
    free(s->palette);
    s->indices = NULL;
    s->palette = NULL;
    s->bits = 0;
    s->palette_size = 0;
    s->live = 0;
}

void section_reset(ChunkSection *s, int32_t value, int light)
{
    section_free_contents(s);
    free(s->light);
    s->light = NULL;
    s->uniform = value & ~CELL_LIGHT_MASK;
    s->light_uniform = (uint8_t)(light & 15);
}

int32_t section_get(const ChunkSection *s, int i)
{
    if (!s->bits) return s->uniform;
    return s->palette[index_get(s->indices, s->bits, i)];
}

int section_light_get(const ChunkSection *s, int i)
{
    if (!s->light) return s->light_uniform;
    return (s->light[i >> 1] >> ((i & 1) * 4)) & 15;
}

void section_get_column(const ChunkSection *s, int x, int z, int y0, int count, int32_t *out)
{
    int base = x + (z << 4);
    if (!s->bits && !s->light) {   /* sky, buried rock, still sea: one value throughout */
        int32_t v = s->uniform | (int32_t)(s->light_uniform << CELL_LIGHT_SHIFT);
        for (int k = 0; k < count; k++) out[k] = v;
        return;
    }
    for (int k = 0; k < count; k++) {
        int i = base + ((y0 + k) << 8);
        int32_t v = s->bits ? s->palette[index_get(s->indices, s->bits, i)] : s->uniform;
        int light = s->light ? (s->light[i >> 1] >> ((i & 1) * 4)) & 15 : s->light_uniform;
        out[k] = v | (int32_t)(light << CELL_LIGHT_SHIFT);
    }
}

/* Allocates an empty palette and index array of `bits`. */
static bool section_alloc(int bits, int32_t **palette, uint64_t **indices)
{
    int cap = section_cap(bits);
    *palette = calloc((size_t)cap, sizeof(int32_t) + sizeof(uint16_t));
    *indices = calloc((size_t)section_words(bits), sizeof(uint64_t));
    if (*palette && *indices) return true;
    free(*palette);
    free(*indices);
    return false;
}

/* Rewrites the section at width `bits` (>= what its live values need). compact: drop free slots. */
static bool section_reshape(ChunkSection *s, int bits, bool compact)
{
    int32_t *palette;
    uint64_t *indices;
    if (!section_alloc(bits, &palette, &indices)) return false;
    uint16_t *counts = (uint16_t *)(palette + section_cap(bits));
    const uint16_t *old_counts = section_counts(s);
    uint16_t remap[SECTION_CELLS];
    int n = 0;
    for (int k = 0; k < s->palette_size; k++) {
        if (compact && old_counts[k] == 0) continue;
        remap[k] = (uint16_t)n;
        palette[n] = s->palette[k];
        counts[n] = old_counts[k];
        n++;
    }
    for (int i = 0; i < SECTION_CELLS; i++) index_set(indices, bits, i, remap[index_get(s->indices, s->bits, i)]);
    free(s->palette);
    free(s->indices);
    s->palette = palette;
    s->indices = indices;
    s->bits = (uint8_t)bits;
    s->palette_size = (uint16_t)n;
    return true;
}

/* After a count fell to 0: dissolve or narrow. Shrinking never fails the set (on allocation failure the
 * section just stays wider). */
static void section_after_free(ChunkSection *s)
{
    if (s->live == 1) {
        const uint16_t *counts = section_counts(s);
        int k = 0;
        while (counts[k] == 0) k++;
        int32_t v = s->palette[k];
        section_free_contents(s);
        s->uniform = v;
        return;
    }
    int want = section_bits_for(s->live);
    if (want < s->bits) section_reshape(s, want, true);
}

bool section_set(ChunkSection *s, int i, int32_t value)
{
    value &= ~CELL_LIGHT_MASK;
    if (!s->bits) {
        if (value == s->uniform) return true;
        int32_t *palette;
        uint64_t *indices;
        if (!section_alloc(1, &palette, &indices)) return false;
        uint16_t *counts = (uint16_t *)(palette + 2);
        palette[0] = s->uniform;
        palette[1] = value;
        counts[0] = SECTION_CELLS - 1;
        counts[1] = 1;
        index_set(indices, 1, i, 1);
        s->palette = palette;
        s->indices = indices;
        s->bits = 1;
        s->palette_size = 2;
        s->live = 2;
        return true;
    }
    unsigned old = index_get(s->indices, s->bits, i);
    if (s->palette[old] == value) return true;
    uint16_t *counts = section_counts(s);
    int found = -1, free_slot = -1;
    for (int k = 0; k < s->palette_size; k++) {
        if (counts[k] == 0) {
            if (free_slot < 0) free_slot = k;
        } else if (s->palette[k] == value) {
            found = k;
            break;
        }
    }
    if (found < 0 && counts[old] == 1) { /* this cell was the old value's last: reuse its slot */
        s->palette[old] = value;
        return true;
    }
    if (found < 0) {
        if (free_slot >= 0) {
            found = free_slot;
        } else {
            if (s->palette_size == section_cap(s->bits)) {
                if (!section_reshape(s, s->bits * 2, false)) return false;
                counts = section_counts(s);
                old = index_get(s->indices, s->bits, i);
            }
            found = s->palette_size++;
        }
        s->palette[found] = value;
        counts[found] = 0;
        s->live++;
    }
    counts[found]++;
    index_set(s->indices, s->bits, i, (unsigned)found);
    if (--counts[old] == 0) {
        s->live--;
        section_after_free(s);
    }
    return true;
}

bool section_light_set(ChunkSection *s, int i, int light)
{
    light &= 15;
    if (!s->light) {
        if (light == s->light_uniform) return true;
        s->light = malloc(SECTION_LIGHT_BYTES);
        if (!s->light) return false;
        memset(s->light, s->light_uniform * 0x11, SECTION_LIGHT_BYTES);
    }
    uint8_t *b = &s->light[i >> 1];
    *b = (i & 1) ? (uint8_t)((*b & 0x0F) | (light << 4)) : (uint8_t)((*b & 0xF0) | light);
    return true;
}

bool section_set_cell(ChunkSection *s, int i, int32_t cell)
{
    if (!section_set(s, i, cell)) return false;
    return section_light_set(s, i, cell_light(cell));
}

/* ---- packing a flat chunk ---- */

typedef struct PackScratch {
    int32_t values[SECTION_CELLS];      /* section order, light bits clear */
    uint8_t lights[SECTION_CELLS];
    uint16_t index_of[SECTION_CELLS];   /* palette index per cell */
    int32_t palette[SECTION_CELLS];
    uint16_t counts[SECTION_CELLS];
    uint16_t hash[8192];                /* palette index + 1; 0 empty */
    int32_t gathered[CHUNK_SECTIONS * SECTION_CELLS];   /* a chunk's cells, section after section, section order */
} PackScratch;

/* A thread's scratch (~340 KiB) is made on its first pack and freed when the thread ends: as _Thread_local data it
 * would be static TLS, which glibc clears for every thread the process starts, packing or not. */
static _Thread_local PackScratch *tl_pack;
static pthread_key_t pack_key;
static pthread_once_t pack_once = PTHREAD_ONCE_INIT;
static bool pack_key_made;

static void pack_key_make(void) { pack_key_made = pthread_key_create(&pack_key, free) == 0; }

/* This thread's scratch, or NULL (out of memory: the pack fails, the chunk stays hot). */
static PackScratch *pack_scratch(void)
{
    if (tl_pack) return tl_pack;
    pthread_once(&pack_once, pack_key_make);
    if (!pack_key_made) return NULL;
    PackScratch *p = malloc(sizeof *p);
    if (p && pthread_setspecific(pack_key, p) != 0) {
        free(p);
        p = NULL;
    }
    return tl_pack = p;
}

static unsigned pack_hash(int32_t v) { return ((uint32_t)v * 0x9E3779B1u) >> 19; }

/* Packs one section from its cells in section order (i = x + z*16 + y*256, light bits included). */
static bool section_pack_cells(PackScratch *p, ChunkSection *s, const int32_t *cells)
{
    section_reset(s, 0, 0);
    /* Most sections are one cell throughout (sky, buried rock, still sea). */
    int32_t raw = cells[0], diff = 0;
    for (int i = 0; i < SECTION_CELLS; i++) diff |= cells[i] ^ raw;
    if (!diff) {
        s->uniform = raw & ~CELL_LIGHT_MASK;
        s->light_uniform = (uint8_t)cell_light(raw);
        return true;
    }
    int32_t first = raw & ~CELL_LIGHT_MASK;
    uint8_t first_light = (uint8_t)cell_light(raw);
    int32_t value_diff = 0, light_diff = 0;
    for (int i = 0; i < SECTION_CELLS; i++) {
        int32_t c = cells[i];
        int32_t v = c & ~CELL_LIGHT_MASK;
        uint8_t l = (uint8_t)cell_light(c);
        p->values[i] = v;
        p->lights[i] = l;
        value_diff |= v ^ first;
        light_diff |= l ^ first_light;
    }
    bool same_value = !value_diff, same_light = !light_diff;
    s->light_uniform = first_light;
    if (!same_light) {
        s->light = malloc(SECTION_LIGHT_BYTES);
        if (!s->light) {
            section_reset(s, 0, 0);
            return false;
        }
        for (int i = 0; i < SECTION_CELLS; i += 2)
            s->light[i >> 1] = (uint8_t)(p->lights[i] | (p->lights[i + 1] << 4));
    }
    if (same_value) {
        s->uniform = first;
        return true;
    }
    /* The palette, in order of first appearance. A run of one value is found once and counted in a register
     * (counting every cell through memory made one long store-to-load chain: ~40% of packing). */
    int n = 1, last_k = 0, run = 0;
    int32_t last_v = p->values[0];
    p->palette[0] = last_v;
    p->counts[0] = 0;
    bool hashed = false;
    for (int i = 0; i < SECTION_CELLS; i++) {
        int32_t v = p->values[i];
        if (v != last_v) {
            p->counts[last_k] = (uint16_t)(p->counts[last_k] + run);
            run = 0;
            int k = -1;
            if (!hashed) {
                for (int j = 0; j < n; j++) {
                    if (p->palette[j] == v) {
                        k = j;
                        break;
                    }
                }
            } else {
                for (unsigned h = pack_hash(v);; h = (h + 1) & 8191u) {
                    if (!p->hash[h]) break;
                    if (p->palette[p->hash[h] - 1] == v) {
                        k = p->hash[h] - 1;
                        break;
                    }
                }
            }
            if (k < 0) {
                k = n++;
                p->palette[k] = v;
                p->counts[k] = 0;
                if (!hashed && n > 16) {
                    memset(p->hash, 0, sizeof p->hash);
                    for (int j = 0; j < n; j++) {
                        unsigned h = pack_hash(p->palette[j]);
                        while (p->hash[h]) h = (h + 1) & 8191u;
                        p->hash[h] = (uint16_t)(j + 1);
                    }
                    hashed = true;
                } else if (hashed) {
                    unsigned h = pack_hash(v);
                    while (p->hash[h]) h = (h + 1) & 8191u;
                    p->hash[h] = (uint16_t)(k + 1);
                }
            }
            last_k = k;
            last_v = v;
        }
        run++;
        p->index_of[i] = (uint16_t)last_k;
    }
    p->counts[last_k] = (uint16_t)(p->counts[last_k] + run);
    int bits = section_bits_for(n);
    int32_t *palette;
    uint64_t *indices;
    if (!section_alloc(bits, &palette, &indices)) {
        section_reset(s, 0, 0);
        return false;
    }
    memcpy(palette, p->palette, (size_t)n * sizeof *palette);
    memcpy(palette + section_cap(bits), p->counts, (size_t)n * sizeof(uint16_t));
    int per_shift = section_shift(bits), per = 1 << per_shift;
    for (int w = 0; w < section_words(bits); w++) {
        uint64_t word = 0;
        const uint16_t *src = p->index_of + (w << per_shift);
        for (int j = 0; j < per; j++) word |= (uint64_t)src[j] << (j * bits);
        indices[w] = word;
    }
    s->palette = palette;
    s->indices = indices;
    s->bits = (uint8_t)bits;
    s->palette_size = (uint16_t)n;
    s->live = (uint16_t)n;
    return true;
}

/* Cells of one section of a flat chunk (chunk order) into section order. */
static void section_gather(int32_t *out, const int32_t *chunk_cells, int sy)
{
    const int32_t *base = chunk_cells + sy * SECTION_SIZE;
    for (int z = 0; z < 16; z++) {
        for (int x = 0; x < 16; x++) {
            const int32_t *col = base + (x << 8) + (z << 12);
            int32_t *dst = out + x + (z << 4);
            for (int y = 0; y < 16; y++) dst[y << 8] = col[y];
        }
    }
}

bool section_pack_from_chunk(ChunkSection *s, const int32_t *chunk_cells, int sy)
{
    PackScratch *p = pack_scratch();
    if (!p) {
        section_reset(s, 0, 0);
        return false;
    }
    section_gather(p->gathered, chunk_cells, sy);
    return section_pack_cells(p, s, p->gathered);
}

/* One pass over the chunk in memory order (column after column, which the hardware prefetcher streams) puts
 * every section's cells in section order; then each section is packed from there. Gathering section by section
 * read one 64-byte line every 1 KiB of a 256 KiB chunk gone cold since it was written: those misses were ~40%
 * of packing (perf, a loading world). */
bool section_pack_chunk(ChunkSection *sections, const int32_t *chunk_cells)
{
    PackScratch *p = pack_scratch();
    if (!p) {
        for (int k = 0; k < CHUNK_SECTIONS; k++) section_reset(&sections[k], 0, 0);
        return false;
    }
    int32_t *t = p->gathered;
    for (int z = 0; z < 16; z++) {
        const int32_t *row = chunk_cells + (z << 12);   /* 16 columns, 16 KiB */
        for (int yy = 0; yy < 256; yy++) {
            int32_t *dst = t + (yy >> 4) * SECTION_CELLS + ((yy & 15) << 8) + (z << 4);
            for (int x = 0; x < 16; x++) dst[x] = row[(x << 8) + yy];
        }
    }
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        if (!section_pack_cells(p, &sections[sy], t + sy * SECTION_CELLS)) {
            for (int k = 0; k < CHUNK_SECTIONS; k++) section_reset(&sections[k], 0, 0);
            return false;
        }
    }
    return true;
}

/* Decodes a section into cell order (index words one by one, then the light nibbles), then copies the
 * cells out to the chunk's column order: ~4x faster than decoding each cell in column order. */
static _Thread_local int32_t unpack_scratch[SECTION_CELLS];

void section_unpack_to_chunk(const ChunkSection *s, int32_t *chunk_cells, int sy)
{
    int32_t *base = chunk_cells + sy * SECTION_SIZE;
    if (!s->bits && !s->light) {
        int32_t cell = s->uniform | (int32_t)(s->light_uniform << CELL_LIGHT_SHIFT);
        for (int col = 0; col < 256; col++) {
            int32_t *dst = base + (col << 8);
            for (int y = 0; y < 16; y++) dst[y] = cell;
        }
        return;
    }
    int32_t *v = unpack_scratch;
    if (s->bits) {
        const int bits = s->bits, per = 64 / bits;
        const uint64_t mask = (bits == 64) ? ~0ull : ((1ull << bits) - 1u);
        const int32_t *palette = s->palette;
        for (int w = 0, i = 0; w < section_words(bits); w++) {
            uint64_t word = s->indices[w];
            for (int j = 0; j < per; j++, word >>= bits) v[i++] = palette[word & mask];
        }
    } else {
        for (int i = 0; i < SECTION_CELLS; i++) v[i] = s->uniform;
    }
    if (s->light) {
        for (int i = 0; i < SECTION_CELLS; i += 2) {
            unsigned b = s->light[i >> 1];
            v[i] |= (int32_t)((b & 15u) << CELL_LIGHT_SHIFT);
            v[i + 1] |= (int32_t)((b >> 4) << CELL_LIGHT_SHIFT);
        }
    } else if (s->light_uniform) {
        int32_t l = (int32_t)(s->light_uniform << CELL_LIGHT_SHIFT);
        for (int i = 0; i < SECTION_CELLS; i++) v[i] |= l;
    }
    for (int z = 0; z < 16; z++) {
        for (int x = 0; x < 16; x++) {
            int32_t *dst = base + (x << 8) + (z << 12);
            const int32_t *src = v + x + (z << 4);
            for (int y = 0; y < 16; y++) dst[y] = src[y << 8];
        }
    }
}

bool section_is_empty(const ChunkSection *s)
{
    return !s->bits && s->uniform == 0;
}

SectionKind section_kind(const ChunkSection *s)
{
    switch (s->bits) {
    case 0: return SECTION_KIND_UNIFORM;
    case 1: return SECTION_KIND_BITS1;
    case 2: return SECTION_KIND_BITS2;
    case 4: return SECTION_KIND_BITS4;
    case 8: return SECTION_KIND_BITS8;
    default: return SECTION_KIND_BITS16;
    }
}

size_t section_heap_bytes(const ChunkSection *s)
{
    size_t n = s->light ? SECTION_LIGHT_BYTES : 0;
    if (s->bits)
        n += (size_t)section_words(s->bits) * sizeof(uint64_t) +
             (size_t)section_cap(s->bits) * (sizeof(int32_t) + sizeof(uint16_t));
    return n;
}
