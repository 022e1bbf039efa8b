/* fake_generator.h — a tiny deterministic Generator for the update and edit tests: stone below y 56, dirt
 * up to 59, grass at 60, an air cave in every other chunk, a torch and tall grass on the surface of some
 * chunks. Each pass writes only its own chunk, as the interface requires, so results do not depend on
 * generation order. The update worker tests need a generator that is cheap and whose cells are known. It is
 * declared like the real generators: a static const GeneratorClass handed to generator_init. */
#ifndef STRATA_TEST_FAKE_GENERATOR_H
#define STRATA_TEST_FAKE_GENERATOR_H

#include <string.h>

#include "strata/generator.h"

#define FAKE_SURFACE_Y 60

static void fake_pass1(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)g; (void)ctx;
    for (int i = 0; i < CHUNK_SHAFTS; i++)
        chunk->shafts[i] = shaft_set_humidity(shaft_set_temperature(0, chunk->coord_x & 15), chunk->coord_z & 15);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            chunk_set_cell(chunk, x, 0, z, cell_make(BLOCK_BEDROCK, 0));
            for (int y = 1; y < 56; y++) chunk_set_cell(chunk, x, y, z, cell_make(BLOCK_STONE, 0));
        }
}

static void fake_pass2(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)g; (void)ctx;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            for (int y = 56; y < FAKE_SURFACE_Y; y++) chunk_set_cell(chunk, x, y, z, cell_make(BLOCK_DIRT, 0));
            chunk_set_cell(chunk, x, FAKE_SURFACE_Y, z, cell_make(BLOCK_GRASS, 0));
        }
}

static void fake_pass3(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)g; (void)ctx;
    if ((chunk->coord_x + chunk->coord_z) & 1) return;
    for (int z = 4; z < 12; z++)
        for (int x = 4; x < 12; x++)
            for (int y = 36; y < 44; y++) {
                int dx = x - 8, dy = y - 40, dz = z - 8;
                if (dx * dx + dy * dy + dz * dz <= 12) chunk_set_cell(chunk, x, y, z, cell_make(BLOCK_AIR, 0));
            }
}

static void fake_pass4(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)g; (void)ctx;
    if ((chunk->coord_x ^ chunk->coord_z) & 1) chunk_set_cell(chunk, 3, FAKE_SURFACE_Y + 1, 3, cell_make(BLOCK_TORCH, 0));
    chunk_set_cell(chunk, 5, FAKE_SURFACE_Y + 1, 5, cell_make(BLOCK_TALL_GRASS, 0));
}

static int fake_ocean_level(const Generator *g) { (void)g; return 64; }

static const GeneratorClass FAKE_GENERATOR_CLASS = {
    .name = "fake",
    .ocean_level = fake_ocean_level,
    .pass = {fake_pass1, fake_pass2, fake_pass3, fake_pass4},
};

/* A fake generator in *g (no climate methods, no private data, nothing to destroy). */
static inline void fake_generator_init(Generator *g, const BlockRegistry *blocks)
{
    memset(g, 0, sizeof *g);
    generator_init(g, &FAKE_GENERATOR_CLASS, 1, NULL);
    g->blocks = blocks;
}

/* The value the fake generator puts at a world cell (before light). */
static inline int32_t fake_cell_at(int x, int y, int z)
{
    int cx = x >> 4, cz = z >> 4, lx = x & 15, lz = z & 15;
    if (y == 0) return cell_make(BLOCK_BEDROCK, 0);
    if (!((cx + cz) & 1) && lx >= 4 && lx < 12 && lz >= 4 && lz < 12 && y >= 36 && y < 44) {
        int dx = lx - 8, dy = y - 40, dz = lz - 8;
        if (dx * dx + dy * dy + dz * dz <= 12) return cell_make(BLOCK_AIR, 0);
    }
    if (y < 56) return cell_make(BLOCK_STONE, 0);
    if (y < FAKE_SURFACE_Y) return cell_make(BLOCK_DIRT, 0);
    if (y == FAKE_SURFACE_Y) return cell_make(BLOCK_GRASS, 0);
    if (y == FAKE_SURFACE_Y + 1 && lx == 3 && lz == 3 && ((cx ^ cz) & 1)) return cell_make(BLOCK_TORCH, 0);
    if (y == FAKE_SURFACE_Y + 1 && lx == 5 && lz == 5) return cell_make(BLOCK_TALL_GRASS, 0);
    return cell_make(BLOCK_AIR, 0);
}

#endif
