/* voxel_model.h — models become voxels: a glTF/.glb, FBX or OBJ model (read with Assimp) turned into a voxel
 * template (voxel_template.h), and a cache of the results keyed by the model file's hash.
 *
 * Voxelizing: the model's triangles (all meshes, node transforms applied) are scaled so that its bounding box
 * is `size` cells on its longest side (or `scale` cells per model unit; or, with `fit`, the largest scale that
 * fits the box, centred in x and z, standing on y = 0). A cell is solid when its centre is inside the mesh (the
 * nonzero winding rule along x rows; VOXELIZE_SOLID) or a triangle reaches into it (the Akenine-Moller
 * triangle-box test; touching is not enough), so closed meshes come out solid and open ones keep their
 * shell; VOXELIZE_SURFACE keeps only the solid cells with a face to a non-solid one. A surface cell's
 * colour is the mean of its triangles' colours (an inside cell's: the triangle its row entered by):
 * vertex colours, else the diffuse/base-colour texture sampled at the triangle's UVs (PNG, embedded or
 * beside the model), else the material's diffuse/base colour,
 * else white. The colour becomes the nearest block (RGB distance, lowest id on ties) of the palette: the
 * opaque untinted cubes of blocks.json, each with its atlas tiles' mean colour (texels of alpha >= 128).
 * Cells outside the model are "keep" (VOXEL_TEMPLATE_KEEP), or air with `fit` (a WFC tile owns its box). The result is a pure function of the model file, the options and the assets.
 *
 * Errors: an unreadable file or a format Assimp does not know is ST_ERR_IO naming the file and Assimp's
 * message; a model without triangles (or of zero extent) is ST_ERR_FORMAT; a box past 256 cells is ST_ERR_ARG.
 * The cache (voxel_model_cache.c): see voxel_model_load_cached.
 * Ownership: the caller frees the template (voxel_template_free). Threads: any; Assimp's C import is
 * reentrant per call. */
#ifndef STRATA_VOXEL_MODEL_H
#define STRATA_VOXEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/voxel_template.h"

typedef enum VoxelizeFill { VOXELIZE_SOLID = 0, VOXELIZE_SURFACE } VoxelizeFill;

typedef struct VoxelizeOptions {
    int size;               /* cells on the longest side, 1..256; 0: use scale (or fit) */
    float scale;            /* cells per model unit (when size and fit are 0) */
    int fit[3];             /* fit[0] > 0: the template is exactly this box (a WFC tileSize) */
    VoxelizeFill fill;
    const char *palette;    /* NULL or "blocks": every opaque untinted cube; else "name,name,...": only those */
    const char *atlas_path; /* NULL: STRATA_ASSET_DIR/textures/atlas.png */
} VoxelizeOptions;

/* Does `path` name a model rather than a voxel template (its extension is not .json)? */
bool voxel_model_is_model(const char *path);

/* Voxelizes the model at `path` into `out` (see above). */
StResult voxel_model_voxelize(const char *path, const VoxelizeOptions *opt, const BlockRegistry *blocks,
                              VoxelTemplate *out);

/* The cache key of (the model, the options): FNV-1a 64 of the file's bytes, then of the files it names beside
 * it (a glTF's or .glb's external buffers and images, an OBJ's .mtl files and their map_Kd textures; a missing
 * one counts as missing), then of the options' text. ST_ERR_IO when the model cannot be read. */
StResult voxel_model_cache_key(const char *path, const VoxelizeOptions *opt, uint64_t *key);

/* The template of a model through the cache in `cache_dir` (NULL or "": no cache, voxelize every time): the file
 * cache_dir/<key as 16 hex digits>.json is loaded when it is there and loads, else the model is voxelized and
 * that file written atomically (the folder is made then; a cache that cannot be written is only logged; a
 * cache file that does not load is replaced, with a warning). Since voxelizing is deterministic, deleting the
 * cache never changes a world. `cache_file` (may be NULL) gets the cache path. */
StResult voxel_model_load_cached(const char *path, const VoxelizeOptions *opt, const char *cache_dir,
                                 const BlockRegistry *blocks, VoxelTemplate *out, char *cache_file, size_t n);

/* The cache folder for models a world uses: <world_dir>/models while the world folder is written
 * (`world_written`: a world opened to be saved), else $XDG_CACHE_HOME/strata/models (an absolute value), else
 * $HOME/.cache/strata/models, else "" (no cache: voxelize in memory). Makes nothing. */
void voxel_model_cache_dir(const char *world_dir, bool world_written, char *out, size_t n);

#endif
