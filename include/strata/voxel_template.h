/* voxel_template.h — voxel templates: small boxes of blocks (station models, WFC tile meshes), the format of
 * assets/templates/ (documented in assets/templates/README.md).
 *
 * A template is size [x, y, z], a palette mapping one character to a block name (or null: keep whatever is
 * there) and `layers`: size y layers from the bottom, each size z rows (z from 0), each row size x characters
 * (x from 0). Loading resolves block names through a BlockRegistry; an unknown name, a character missing
 * from the palette or a row of the wrong length is ST_ERR_FORMAT naming the file and field.
 * Ownership: the caller frees with voxel_template_free. Threads: a loaded template is immutable. */
#ifndef STRATA_VOXEL_TEMPLATE_H
#define STRATA_VOXEL_TEMPLATE_H

#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"

#define VOXEL_TEMPLATE_KEEP (-1)   /* a cell the template leaves as it is */
#define VOXEL_TEMPLATE_MAX_SIDE 256

typedef struct VoxelTemplate {
    char name[64];
    int size[3];        /* x, y, z */
    int16_t *voxels;    /* block id or VOXEL_TEMPLATE_KEEP, index (y * size z + z) * size x + x */
} VoxelTemplate;

StResult voxel_template_parse(const char *path, const char *text, const BlockRegistry *blocks, VoxelTemplate *out);
StResult voxel_template_load(const char *path, const BlockRegistry *blocks, VoxelTemplate *out);
void voxel_template_free(VoxelTemplate *t);

static inline int voxel_template_get(const VoxelTemplate *t, int x, int y, int z)
{
    return t->voxels[(y * t->size[2] + z) * t->size[0] + x];
}
/* The cell of the template turned by `quarter` quarter turns about +y (+x towards +z), at rotated local
 * coordinates (x, y, z); turns of 1 and 3 need a square footprint (size x == size z). */
int voxel_template_get_rotated(const VoxelTemplate *t, int quarter, int x, int y, int z);

/* Writes `t` in the format above (block names from `blocks`), atomically. */
StResult voxel_template_save(const VoxelTemplate *t, const BlockRegistry *blocks, const char *path);

#endif
