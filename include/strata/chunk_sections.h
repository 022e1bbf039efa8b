/* chunk_sections.h — palette sections: the packed (cold) storage of a chunk's cells, seed 002's
 * ChunkSection / BlockPalette.
 *
 * A chunk is 16 sections of 16 x 16 x 16 cells, section s holding y in 16s .. 16s + 15. Inside a section a
 * cell's index is x + z*16 + y*256 (y local, 0..15), the seed's BlockPalette order. A section keeps two
 * things apart:
 *  - contents and data (the cell value with its light bits clear): either uniform (one value, no array:
 *    all air, all stone, all water) or a palette of distinct values with packed indices of 1, 2, 4, 8 or
 *    16 bits. Setting a value not in the palette grows it (the indices are widened when the palette is
 *    full); a value whose last cell is overwritten leaves the palette, which shrinks to the narrowest width
 *    that holds the values left, and dissolves into a uniform section when one value is left.
 *  - light (4 bits): uniform (one level, no array) or 2,048 bytes of nibbles. Light changes far more often
 *    than contents (every relight) and varies smoothly, while contents are few and blocky: keeping it in the
 *    palette would multiply the palette by the light levels present (stone at 16 levels near a torch), so it
 *    would widen the indices of every section that has light gradients. Apart, a section of sky-lit air or
 *    of dark stone costs no light bytes at all, and a lit one costs a fixed 2 KiB.
 *
 * Ownership and threads: a section is a plain value owned by its chunk (chunk.h), which serialises access
 * (see chunk.h's hot and cold chunks). Nothing here locks. Allocation failure: section_set and
 * section_light_set return false and leave the section unchanged. */
#ifndef STRATA_CHUNK_SECTIONS_H
#define STRATA_CHUNK_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/cell.h"

#define SECTION_SIZE    16
#define SECTION_CELLS   4096
#define CHUNK_SECTIONS  16
#define SECTION_INDEX(x, y, z) ((x) + ((z) << 4) + ((y) << 8))
#define SECTION_LIGHT_BYTES (SECTION_CELLS / 2)

/* Kinds, for statistics: uniform, then the index widths. */
typedef enum SectionKind {
    SECTION_KIND_UNIFORM = 0,
    SECTION_KIND_BITS1,
    SECTION_KIND_BITS2,
    SECTION_KIND_BITS4,
    SECTION_KIND_BITS8,
    SECTION_KIND_BITS16,
    SECTION_KIND_COUNT
} SectionKind;

/* All-zero is a valid section: uniform air (value 0), uniform light 0, nothing allocated. */
typedef struct ChunkSection {
    uint64_t *indices;     /* SECTION_CELLS * bits / 64 words; NULL when uniform */
    int32_t *palette;      /* palette_cap values (light bits clear), then palette_cap uint16_t counts */
    int32_t uniform;       /* the value when bits == 0 */
    uint16_t palette_size; /* slots in use, free ones (count 0) included */
    uint16_t live;         /* entries with a count > 0 */
    uint8_t bits;          /* 0 (uniform), 1, 2, 4, 8 or 16 */
    uint8_t light_uniform; /* the light level when light == NULL */
    uint8_t *light;        /* SECTION_LIGHT_BYTES nibbles (even index in the low nibble), or NULL */
} ChunkSection;

/* Frees everything: the section becomes uniform `value` (light bits cleared), uniform light `light`. */
void section_reset(ChunkSection *s, int32_t value, int light);

/* The cell's value with light 0, and its light. i = SECTION_INDEX(x, y, z). */
int32_t section_get(const ChunkSection *s, int i);
int section_light_get(const ChunkSection *s, int i);
/* The full cell value (contents, data and light). */
static inline int32_t section_get_cell(const ChunkSection *s, int i);

/* Full cell values (section_get_cell) of y = y0 .. y0 + count - 1 (local, inside the section) of column (x, z). */
void section_get_column(const ChunkSection *s, int x, int z, int y0, int count, int32_t *out);

/* Sets the value (light bits ignored) / the light level. false on allocation failure (unchanged). */
bool section_set(ChunkSection *s, int i, int32_t value);
bool section_light_set(ChunkSection *s, int i, int light);
/* Sets the full cell value: contents and data through the palette, light through the nibbles. */
bool section_set_cell(ChunkSection *s, int i, int32_t cell);

/* Packs section `sy` (0..15) of a flat chunk array in chunk order (chunk.h's CHUNK_INDEX: y + x*256 +
 * z*4096) into `s` (previous contents freed), with the narrowest palette and uniform light where possible.
 * false on allocation failure (s is then uniform air). */
bool section_pack_from_chunk(ChunkSection *s, const int32_t *chunk_cells, int sy);
/* Packs all CHUNK_SECTIONS sections of a flat chunk at once (one pass over the chunk in memory order): the
 * same sections as section_pack_from_chunk one by one. false on allocation failure (all uniform air then). */
bool section_pack_chunk(ChunkSection *sections, const int32_t *chunk_cells);
/* Writes the section's cells, light included, into section `sy` of a flat chunk array in chunk order. */
void section_unpack_to_chunk(const ChunkSection *s, int32_t *chunk_cells, int sy);

/* True when every cell is air (contents 0, data 0), whatever the light: seed 002's ChunkSection.isEmpty. */
bool section_is_empty(const ChunkSection *s);
/* Whether the section holds one value (no index array). */
static inline bool section_is_uniform(const ChunkSection *s) { return s->bits == 0; }
SectionKind section_kind(const ChunkSection *s);
/* Heap bytes the section holds (indices, palette and counts, light nibbles). */
size_t section_heap_bytes(const ChunkSection *s);
/* Number of distinct values (1 when uniform). */
static inline int section_palette_count(const ChunkSection *s) { return s->bits ? s->live : 1; }

static inline int32_t section_get_cell(const ChunkSection *s, int i)
{
    return section_get(s, i) | (int32_t)(section_light_get(s, i) << CELL_LIGHT_SHIFT);
}

#endif
