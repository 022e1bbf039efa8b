/* far_internal.h — what the far patch files share (src/lod only): one column's surface, the patch key and the
 * shared height grid (far_terrain_lattice.c). */
#ifndef STRATA_FAR_INTERNAL_H
#define STRATA_FAR_INTERNAL_H

#include <math.h>

#include "strata/far_terrain.h"

#define FAR_CANOPY_HEIGHT 6.0f   /* blocks woodland's canopy stands over its ground (a tree's leaves' top) */
#define FAR_CANOPY_COVER 0.3f    /* Generator.tree_cover from which a far column is canopy */

/* What a far column centred at world (x, z) shows: its top's height (the voxel sea's surface over water,
 * woodland's canopy over its ground) and colours. Without `full` only the heights (ground, no canopy):
 * a border's neighbour. */
typedef struct FarSurface {
    float height;       /* the generator's height there (Generator.calculate_height) */
    float top;          /* top face */
    float ground;       /* below this the side takes the ground's colour (the first block's bottom; canopy: its ground) */
    uint8_t rgb[3];     /* top face colour */
    uint8_t base[3];    /* top face colour before the sea's depth shade (water only; else rgb) */
    uint8_t side[3];    /* side colour above `ground` */
    uint8_t under[3];   /* side colour below it */
    bool water;
    bool canopy;        /* woodland's canopy: `top` stands FAR_CANOPY_HEIGHT over the ground */
    float cover;        /* the tree rules' cover (Generator.tree_cover) where they decide canopy or grass, else 0 */
} FarSurface;

void far_surface_at(const Generator *gen, const FarPalette *palette, double x, double z, bool full, FarSurface *s);
uint64_t far_patch_key(int level, int px, int pz, const uint8_t coarser[4]);
/* Shade of the voxel sea over a floor `depth` blocks down, in bands. */
float far_water_shade(float depth);

/* The far mesh's height over ground of height h: the voxel water surface (14/16 of the cell at the sea
 * level) where h is under the sea, else the top of the surface cell (a whole block). */
static inline float far_surface_of(float h, float ocean)
{
    return h < ocean + 0.5f ? ocean + 0.875f : floorf(h) + 1.0f;
}

/* ---- the shared height grid (far_terrain_lattice.c) ----
 * The generator is sampled only at the points of a square grid, FAR_LATTICE_STEP blocks apart at level 0 and
 * twice as far apart each level up (every level's points are points of the finer levels' grids), and the
 * samples are kept in a FarLattice, so that neighbouring patches and the levels above and below reuse them. */
#define FAR_LATTICE_STEP 4   /* blocks between the finest grid's points (level 0's) */

typedef struct FarLattice FarLattice;
/* A cache of 1 << capacity_log2 samples (4-way sets). One thread at a time; it serves one generator and one
 * palette (the colours are cached with the heights). NULL when out of memory. */
FarLattice *far_lattice_create(int capacity_log2);
void far_lattice_destroy(FarLattice *lattice);
/* The sample at grid point (ix, iz) (world ix * FAR_LATTICE_STEP, iz * FAR_LATTICE_STEP): far_surface_at
 * there, `full` or only its heights. Copied to *out (a later call may evict the cached one). */
void far_lattice_sample(FarLattice *lattice, const Generator *gen, const FarPalette *palette, long ix, long iz,
                        bool full, FarSurface *out);
/* Blocks between the grid points that patches of `level` interpolate: FAR_LATTICE_STEP << level. */
int far_lattice_spacing(int level);
/* Where world coordinate x lies on level's grid: the point at or before it (in that level's spacings) and the
 * fraction of the way to the next. The one formula every caller uses, so that the same column always gets
 * the same height, whichever patch computes it. */
static inline long far_lattice_cell(int level, double x, float *t)
{
    double spacing = (double)far_lattice_spacing(level);
    double cell = floor(x / spacing);
    *t = (float)((x - cell * spacing) / spacing);
    return (long)cell;
}
static inline float far_lattice_mix(float h00, float h10, float h01, float h11, float tx, float tz)
{
    float a = h00 + (h10 - h00) * tx, b = h01 + (h11 - h01) * tx;
    return a + (b - a) * tz;
}
/* The generator's height interpolated on level's grid at world (x, z) (heights only). */
float far_lattice_height(FarLattice *lattice, const Generator *gen, int level, double x, double z);

/* Builds a patch as far_patch_build does, its samples from (and into) `lattice` (NULL: a grid of its own). */
StResult far_patch_build_in(FarLattice *lattice, const Generator *gen, const FarPalette *palette, int level, int px,
                            int pz, const uint8_t coarser[4], float sink, FarPatch *out);

#endif
