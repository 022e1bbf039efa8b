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
void station_manifest_free(StationManifest *m);
/* The index of the type, or -1. */
int station_manifest_find(const StationManifest *m, const char *type);
/* The flat zone of station `d` whose footprint's minimum corner is (x0, z0), at core height `height`. */
void station_flat_zone(const StationDef *d, int x0, int z0, float height, uint32_t id, FlatZone *out);

#endif
