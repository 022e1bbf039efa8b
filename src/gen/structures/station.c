/* station.c — loading assets/stations.json (station.h).
 *
 * Design: validated field by field through the config getters (messages name file and field); the model path
 * is relative to the manifest's folder; a model that is not a template (seed 004's "bank.glb") is voxelized
 * (voxel_model.h) at `scale` cells per model unit, through the cache folder when one is given, or, loaded
 * deferred, left for station_manifest_load_models once the caller knows its cache folder (the game: the
 * world's); that second step loads the manifest again and swaps it in, its types checked unchanged.
 * Generation (gen_structures.c) and the game's runtime placement share this loader and station_flat_zone,
 * so a station placed by a player sits on the same zone shape as one a settlement generated. */
#include "strata/station.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/config.h"
#include "strata/fileio.h"
#include "strata/voxel_model.h"

#include <cjson/cJSON.h>

/* The station's model: a voxel template as it is, or a model voxelized at `scale` cells per model unit. */
static StResult load_model(ConfigDoc *doc, const cJSON *e, const char *where, const char *mpath, double scale,
                           const BlockRegistry *blocks, const char *cache_dir, bool defer, StationDef *d)
{
    if (!voxel_model_is_model(mpath)) {
        if (scale != 1.0)
            return config_fail_field(doc, where, "scale", "1 for a voxel template (a model takes any scale)",
                                     config_get_item(e, "scale"));
        return voxel_template_load(mpath, blocks, &d->model);
    }
    if (defer) {   /* voxelized later (station_manifest_load_models): only the file is checked now */
        d->deferred = true;
        return fileio_exists(mpath) ? ST_OK
                                    : config_fail_field(doc, where, "model", "a model file that exists",
                                                        config_get_item(e, "model"));
    }
    VoxelizeOptions opt = {.scale = (float)scale, .fill = VOXELIZE_SOLID};
    StResult rc = voxel_model_load_cached(mpath, &opt, cache_dir, blocks, &d->model, NULL, 0);
    return rc == ST_OK ? ST_OK : st_fail_context(rc, "%s: %s.model", doc->path, where);
}

static StResult manifest_load(const char *path, const BlockRegistry *blocks, const char *cache_dir, bool defer,
                              StationManifest *out)
{
    memset(out, 0, sizeof *out);
    ConfigDoc doc;
    StResult rc = config_load(path, &doc);
    if (rc != ST_OK)
        return rc;
    const cJSON *arr;
    if ((rc = config_get_array(&doc, doc.root, "", "stations", &arr)) != ST_OK)
        goto done;
    int i = 0;
    for (const cJSON *e = arr->child; e && rc == ST_OK; e = e->next, i++) {
        if (i >= STATION_MANIFEST_MAX) {
            rc = config_fail_field(&doc, "", "stations", "at most 16 stations", arr);
            break;
        }
        StationDef *d = &out->defs[i];
        char where[32], model[256];
        snprintf(where, sizeof where, "stations[%d]", i);
        double scale = 1, yoff = 0, pad = 2, blend = 6;
        d->flatten = true;
        if ((rc = config_get_string(&doc, e, where, "type", d->type, sizeof d->type)) != ST_OK ||
            (rc = config_get_string(&doc, e, where, "model", model, sizeof model)) != ST_OK ||
            (rc = config_get_number_opt(&doc, e, where, "scale", 0.01, 64, &scale)) != ST_OK ||
            (rc = config_get_number_opt(&doc, e, where, "modelYOffset", -16, 16, &yoff)) != ST_OK ||
            (rc = config_get_string_opt(&doc, e, where, "examine", d->examine, sizeof d->examine)) != ST_OK ||
            (rc = config_get_bool_opt(&doc, e, where, "flattenGround", &d->flatten)) != ST_OK ||
            (rc = config_get_number_opt(&doc, e, where, "flattenPadding", 0, 32, &pad)) != ST_OK ||
            (rc = config_get_number_opt(&doc, e, where, "flattenBlendRadius", 0, 32, &blend)) != ST_OK)
            break;
        d->y_offset = (int)yoff;
        d->padding = (float)pad;
        d->blend = (float)blend;
        char mpath[800];
        const char *slash = strrchr(path, '/');
        snprintf(mpath, sizeof mpath, "%.*s%s", slash && model[0] != '/' ? (int)(slash - path + 1) : 0, path, model);
        if ((rc = load_model(&doc, e, where, mpath, scale, blocks, cache_dir, defer, d)) != ST_OK)
            break;
        d->footprint[0] = d->model.size[0];
        d->footprint[1] = d->model.size[2];
        if (config_get_item(e, "footprint"))
            rc = config_get_int_array(&doc, e, where, "footprint", 2, 2, 1, 64, d->footprint, NULL);
        out->count = i + 1;
    }
done:
    config_free(&doc);
    if (rc != ST_OK)
        station_manifest_free(out);
    return rc;
}

StResult station_manifest_load(const char *path, const BlockRegistry *blocks, StationManifest *out)
{
    return manifest_load(path, blocks, NULL, false, out);
}

StResult station_manifest_load_cached(const char *path, const BlockRegistry *blocks, const char *cache_dir,
                                      StationManifest *out)
{
    return manifest_load(path, blocks, cache_dir, false, out);
}

StResult station_manifest_load_deferred(const char *path, const BlockRegistry *blocks, StationManifest *out)
{
    return manifest_load(path, blocks, NULL, true, out);
}

StResult station_manifest_load_models(StationManifest *m, const char *path, const BlockRegistry *blocks,
                                      const char *cache_dir)
{
    bool deferred = false;
    for (int i = 0; i < m->count; i++)
        deferred |= m->defs[i].deferred;
    if (!deferred)
        return ST_OK;
    StationManifest *full = malloc(sizeof *full);
    if (!full)
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    StResult rc = manifest_load(path, blocks, cache_dir, false, full);
    for (int i = 0; rc == ST_OK && i < m->count; i++)
        if (full->count != m->count || strcmp(full->defs[i].type, m->defs[i].type) != 0)
            rc = st_fail(ST_ERR_STATE, "%s: the station types changed while the game started", path);
    if (rc == ST_OK) {
        station_manifest_free(m);
        *m = *full;
    } else {
        station_manifest_free(full);
    }
    free(full);
    return rc;
}

void station_manifest_free(StationManifest *m)
{
    if (!m)
        return;
    for (int i = 0; i < STATION_MANIFEST_MAX; i++)
        voxel_template_free(&m->defs[i].model);
    m->count = 0;
}

int station_manifest_find(const StationManifest *m, const char *type)
{
    for (int i = 0; i < m->count; i++)
        if (!strcmp(m->defs[i].type, type))
            return i;
    return -1;
}

void station_flat_zone(const StationDef *d, int x0, int z0, float height, uint32_t id, FlatZone *out)
{
    int fx = d->footprint[0], fz = d->footprint[1];
    memset(out, 0, sizeof *out);
    out->id = id;
    out->center_x = (float)x0 + fx * 0.5f;
    out->center_z = (float)z0 + fz * 0.5f;
    out->width = (float)fx + 2 * d->padding;
    out->depth = (float)fz + 2 * d->padding;
    out->height = height;
    out->blend_radius = d->blend;
    out->shape = FLAT_ZONE_RECT;
}
