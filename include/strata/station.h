/* station.h — station manifests (assets/stations.json, seed 004): the station types a world and a player
 * place, each a voxel template on a flat zone.
 *
 * Fields per entry: type, model (a voxel template path relative to the manifest or absolute, or a model: .glb, .gltf, .fbx,
 * .obj, voxelized at `scale` blocks per model unit, voxel_model.h), scale (default 1; 1 only for a template),
 * modelYOffset (default 0),
 * examine (the HUD text when a player looks at the station), footprint [x, z] (default: the template's
 * bounds), flattenGround (default true), flattenPadding (default 2), flattenBlendRadius (default 6). The flat
 * zone of a station is the footprint plus the padding on every side, blended over the blend radius, at the
 * height sampled at its centre (station_flat_zone). Errors name the file and the field (ST_ERR_FORMAT) or the
 * missing file (ST_ERR_IO).
 * Ownership: station_manifest_free releases the templates. Threads: a loaded manifest is immutable. */
#ifndef STRATA_STATION_H
#define STRATA_STATION_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/flat_zone.h"
#include "strata/voxel_template.h"

#define STATION_MANIFEST_MAX 16
#define STATION_TYPE_MAX 32
#define STATION_EXAMINE_MAX 160

typedef struct StationDef {
    char type[STATION_TYPE_MAX];
    char examine[STATION_EXAMINE_MAX];
    VoxelTemplate model;
    int footprint[2];   /* x, z */
    int y_offset;       /* modelYOffset: the template's bottom sits at the zone height + 1 + y_offset */
    bool flatten;
    float padding, blend;
    bool deferred;      /* loaded deferred: a model not voxelized yet (model empty, footprint 0 unless given) */
} StationDef;

typedef struct StationManifest {
    int count;
    StationDef defs[STATION_MANIFEST_MAX];
} StationManifest;

/* Loads the manifest and its templates (names resolved through `blocks`). On error *out is empty. */
StResult station_manifest_load(const char *path, const BlockRegistry *blocks, StationManifest *out);
/* The same, with models voxelized through the cache folder `cache_dir` (NULL: none; voxel_model_load_cached),
 * e.g. a folder beside the world. */
StResult station_manifest_load_cached(const char *path, const BlockRegistry *blocks, const char *cache_dir,
                                      StationManifest *out);
/* Checks the manifest as station_manifest_load does, loading its voxel templates but not voxelizing its
 * models (their defs are `deferred`, the model files only checked to exist): the types are known before the
 * cache folder is. */
StResult station_manifest_load_deferred(const char *path, const BlockRegistry *blocks, StationManifest *out);
/* Voxelizes the deferred models of `m` (loaded from `path`) through `cache_dir` (NULL: none): the manifest is
 * loaded again with station_manifest_load_cached and replaces *m (same types in the same order, else
 * ST_ERR_STATE and *m unchanged). No-op when nothing is deferred. */
StResult station_manifest_load_models(StationManifest *m, const char *path, const BlockRegistry *blocks,
                                      const char *cache_dir);
void station_manifest_free(StationManifest *m);
/* The index of the type, or -1. */
int station_manifest_find(const StationManifest *m, const char *type);
/* The flat zone of station `d` whose footprint's minimum corner is (x0, z0), at core height `height`. */
void station_flat_zone(const StationDef *d, int x0, int z0, float height, uint32_t id, FlatZone *out);

#endif
