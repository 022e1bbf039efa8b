/* far_internal.h — what the far patch files share (src/lod only): one column's surface and the patch key. */
#ifndef STRATA_FAR_INTERNAL_H
#define STRATA_FAR_INTERNAL_H

#include "strata/far_terrain.h"

#define FAR_CANOPY_HEIGHT 6.0f   /* blocks woodland's canopy stands over its ground (a tree's leaves' top) */
#define FAR_CANOPY_COVER 0.3f    /* Generator.tree_cover from which a far column is canopy */

/* What a far column centred at world (x, z) shows: its top's height (the voxel sea's surface over water,
 * woodland's canopy over its ground) and colours. Without `full` only the heights (ground, no canopy):
 * a border's neighbour. */
typedef struct FarSurface {
    float top;          /* top face */
    float ground;       /* below this the side takes the ground's colour (the first block's bottom; canopy: its ground) */
    uint8_t rgb[3];     /* top face colour */
    uint8_t side[3];    /* side colour above `ground` */
    uint8_t under[3];   /* side colour below it */
    bool water;
} FarSurface;

void far_surface_at(const Generator *gen, const FarPalette *palette, double x, double z, bool full, FarSurface *s);
uint64_t far_patch_key(int level, int px, int pz, const uint8_t coarser[4]);

#endif
