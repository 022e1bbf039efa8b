/* world_fixture.h — a small hand-built world for tests: (2r+1)^2 chunks around chunk (0, 0) whose
 * contents come from a function of world coordinates. Header-only; include from one test file. */
#ifndef STRATA_TEST_WORLD_FIXTURE_H
#define STRATA_TEST_WORLD_FIXTURE_H

#include "strata/cell.h"
#include "strata/chunk.h"
#include "strata/terrain.h"

/* Block id at world cell (x, y, z). */
typedef int (*FillFn)(int x, int y, int z);

static inline Terrain *world_make(int r, FillFn fill)
{
    Terrain *t = terrain_create();
    for (int cz = -r; cz <= r; cz++)
        for (int cx = -r; cx <= r; cx++) {
            TerrainChunk *c = terrain_allocate_chunk(t, cx, cz);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    for (int y = 0; y < 256; y++)
                        chunk_set_cell(c, x, y, z, cell_make(fill(c->origin_x + x, y, c->origin_z + z), 0));
        }
    return t;
}

#endif
