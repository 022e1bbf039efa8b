/* voxel_model_internal.h — private to the voxelizer (voxel_model.h): the triangle soup a model becomes
 * (voxel_model_import.c, the only file that talks to Assimp) and the palette of blocks colours map to
 * (voxel_palette.c). */
#ifndef STRATA_VOXEL_MODEL_INTERNAL_H
#define STRATA_VOXEL_MODEL_INTERNAL_H

#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/voxel_model.h"

typedef struct VoxelTriangle {
    float v[3][3];      /* model units, node transforms applied */
    float rgb[3];       /* 0..1: vertex colours, texture or material colour */
} VoxelTriangle;

typedef struct VoxelSoup {
    VoxelTriangle *tris;
    int count;
    float min[3], max[3];
} VoxelSoup;

/* Reads every triangle of the model at `path` with its colour. ST_ERR_IO (unreadable, unknown format) naming
 * the file and Assimp's message, ST_ERR_FORMAT when it holds no triangles. */
StResult voxel_soup_import(const char *path, VoxelSoup *out);
void voxel_soup_free(VoxelSoup *soup);

#define VOXEL_PALETTE_MAX 64
typedef struct VoxelPalette {
    int count;
    int block[VOXEL_PALETTE_MAX];
    float rgb[VOXEL_PALETTE_MAX][3];   /* 0..255: the mean of the block's six faces' tile means */
} VoxelPalette;

/* The palette of `spec` (NULL/"blocks", or "name,name,..."), coloured from the atlas. ST_ERR_ARG for a name
 * that is no palette block, ST_ERR_IO when the atlas cannot be read. */
StResult voxel_palette_build(const BlockRegistry *blocks, const char *spec, const char *atlas_path,
                             VoxelPalette *out);
/* The nearest block to rgb (0..1). */
int voxel_palette_nearest(const VoxelPalette *p, const float rgb[3]);

#endif
