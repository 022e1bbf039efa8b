/* light_internal.h — shared by the files of src/light (private): the context and the per-block tables both
 * steps use (the bucket queue is core's LevelBuckets, strata/level_buckets.h).
 *
 * Both floods (the chunk's own in light_sunlight.c, the one across chunk borders in light_propagate.c) are Dial's
 * algorithm: one bucket per light level, brightest first. A step always lands at a lower level than the
 * cell it leaves, so a bucket never grows while it is being drained, and each cell is final the first time
 * it is popped at its own level (an entry whose cell was raised again since is skipped). */
#ifndef STRATA_LIGHT_INTERNAL_H
#define STRATA_LIGHT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "strata/level_buckets.h"
#include "strata/light.h"

/* Per block id, in LightTables.class: emission in the low 4 bits, LIGHT_CLASS_SUN when sunlight passes
 * (BlockRegistry.transparent_to_sun), LIGHT_CLASS_WARM for an emitter that is not a fluid (a torch, not magma:
 * the mesher's warm tint comes from those alone, TerrainChunk.worker_warm_emitter_slices). */
#define LIGHT_CLASS_SUN 0x10u
#define LIGHT_CLASS_WARM 0x20u

typedef struct LightTables {
    const BlockRegistry *blocks;   /* the registry the tables were built from */
    uint8_t class[BLOCK_MAX];
} LightTables;

struct LightContext {
    LevelBuckets buckets;
    LightTables tables;
    uint8_t *own;                  /* light_sunlight.c: CHUNK_CELLS bytes of scratch (allocated on first use) */
    uint16_t *stamp;               /* light_propagate.c: per region cell, generation << 4 | light of a raised
                                    * neighbour cell (allocated on the first propagation) */
    uint16_t generation;
    TerrainChunk *chunks[9];       /* light_propagate.c: the 3x3 neighbourhood, [dz * 3 + dx] */
};

/* Rebuilds the tables if they were made for another registry. */
void light_tables_prepare(LightTables *t, const BlockRegistry *blocks);

/* light_sunlight.c: the InvalidLight step with the given scratch. */
void light_sunlight_run(TerrainChunk *chunk, const LightTables *tables, int sky_light, bool shared, uint8_t *own,
                        LevelBuckets *q);

/* Border-ring rows (TerrainChunk.worker_dark_rows): bit y is set when a cell of the chunk's outer ring of
 * columns (x or z 0 or 15) in row y may hold light >= 2 that is not just the sky level above its column's
 * top. A superset is fine; light_propagate reads it to find the rows where light can cross a border. */
static inline void light_mark_row(uint64_t rows[4], int y)
{
    rows[y >> 6] |= 1ull << (y & 63);
}

static inline bool light_is_border_column(int x, int z)
{
    return x == 0 || x == CHUNK_SIZE_X - 1 || z == 0 || z == CHUNK_SIZE_Z - 1;
}

#endif
