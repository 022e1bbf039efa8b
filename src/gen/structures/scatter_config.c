/* scatter_config.c — loads assets/scatter.json (scatter.h): rules, layers, density maps, exclusions.
 *
 * Design: every field is checked and every failure names the file and the field path in the camelCase
 * ("assets/scatter.json: rules[3].minSpacing: must be > 0"). Optional fields get the documented defaults.
 * Density maps are 8-bit grayscale PNGs read with libpng's simplified API, relative to the file's folder.
 * The text's hash (and each map's pixels) feed the generator's cache key through text_hash. */
#include "strata/scatter.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/config.h"
#include "strata/fileio.h"
#include "strata/rng.h"

static const char *const KIND_PREFIX[SCATTER_KIND_COUNT] = {"tree:", "plant:", "boulder", "rock", "template:"};
static const char *const TREE_TYPES[] = {"oak", "birch", "spruce", "tall_spruce", "mimosa", "poplar"};

void scatter_config_free(ScatterConfig *cfg)
{
    if (!cfg)
        return;
    for (int i = 0; i < cfg->map_count; i++)
        free(cfg->maps[i].pixels);
    free(cfg->maps);
    free(cfg->rules);
    free(cfg->layers);
    free(cfg->groups);
    free(cfg->group_reach);
    free(cfg->exclusions);
    free(cfg);
}

int scatter_layer_find(const ScatterConfig *cfg, const char *name)
{
    for (int i = 0; i < cfg->layer_count; i++)
        if (strcmp(cfg->layers[i], name) == 0)
            return i;
    return -1;
}

int scatter_group_find(const ScatterConfig *cfg, const char *name)
{
    for (int i = 0; i < cfg->group_count; i++)
        if (strcmp(cfg->groups[i], name) == 0)
            return i;
    return -1;
}

static StResult load_map(const char *file, const char *where, const char *dir, const char *rel, ScatterMap *m,
                         uint64_t *hash)
{
    snprintf(m->path, sizeof m->path, "%s%s", dir, rel);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, m->path))
        return st_fail(ST_ERR_IO, "%s: %s.path: cannot read PNG '%s': %s", file, where, m->path, img.message);
    img.format = PNG_FORMAT_GRAY;
    m->width = (int)img.width;
    m->height = (int)img.height;
    m->pixels = malloc(PNG_IMAGE_SIZE(img));
    if (!m->pixels) {
        png_image_free(&img);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory for '%s'", file, m->path);
    }
    if (!png_image_finish_read(&img, NULL, m->pixels, 0, NULL)) {
        free(m->pixels);
        m->pixels = NULL;
        return st_fail(ST_ERR_FORMAT, "%s: %s.path: bad PNG '%s': %s", file, where, m->path, img.message);
    }
    for (size_t i = 0; i < (size_t)m->width * (size_t)m->height; i++)
        *hash = (*hash ^ m->pixels[i]) * 0x100000001b3ull;
    return ST_OK;
}

static StResult ramp(const ConfigDoc *doc, const cJSON *o, const char *where, const char *key, ScatterRamp *out)
{
    double v[4];
    int n = 0;
    StResult rc = config_get_number_array_opt(doc, o, where, key, 4, 4, 0, 255, v, &n);
    if (rc != ST_OK || n == 0)
        return rc;
    if (!(v[0] <= v[1] && v[1] <= v[2] && v[2] <= v[3]))
        return st_fail(ST_ERR_FORMAT, "%s: %s.%s: must be 4 rising values [a, b, c, d]", doc->path, where, key);
    *out = (ScatterRamp){(float)v[0], (float)v[1], (float)v[2], (float)v[3], true};
    return ST_OK;
}

/* An optional [lo, hi] pair with lo <= hi. */
static StResult pair(const ConfigDoc *doc, const cJSON *o, const char *where, const char *key, double lo, double hi,
                     double *a, double *b)
{
    double v[2];
    int n = 0;
    StResult rc = config_get_number_array_opt(doc, o, where, key, 2, 2, lo, hi, v, &n);
    if (rc != ST_OK || n == 0)
        return rc;
    if (v[0] > v[1])
        return st_fail(ST_ERR_FORMAT, "%s: %s.%s: must be [min, max] with min <= max", doc->path, where, key);
    *a = v[0];
    *b = v[1];
    return ST_OK;
}

static StResult parse_object(const ConfigDoc *doc, const char *where, const BlockRegistry *blocks, const char *type,
                             ScatterRule *r)
{
    int k;
    for (k = 0; k < SCATTER_KIND_COUNT; k++) {
        size_t n = strlen(KIND_PREFIX[k]);
        bool prefix = KIND_PREFIX[k][n - 1] == ':';
        if (prefix ? strncmp(type, KIND_PREFIX[k], n) == 0 : strcmp(type, KIND_PREFIX[k]) == 0)
            break;
    }
    if (k == SCATTER_KIND_COUNT)
        return st_fail(ST_ERR_FORMAT, "%s: %s.objectType: '%s' is not tree:<type>, plant:<block>, boulder, rock or "
                       "template:<name>", doc->path, where, type);
    r->kind = (ScatterKind)k;
    const char *arg = strchr(type, ':');
    const char *name = arg ? arg + 1 : type;
    if (strlen(name) >= sizeof r->object)
        return st_fail(ST_ERR_FORMAT, "%s: %s.objectType: '%s' is too long", doc->path, where, type);
    memcpy(r->object, name, strlen(name) + 1);
    if (arg && !arg[1])
        return st_fail(ST_ERR_FORMAT, "%s: %s.objectType: '%s' names nothing after ':'", doc->path, where, type);
    if (r->kind == SCATTER_TREE) {
        bool known = false;
        for (size_t i = 0; i < sizeof TREE_TYPES / sizeof TREE_TYPES[0]; i++)
            known = known || strcmp(r->object, TREE_TYPES[i]) == 0;
        if (!known)
            return st_fail(ST_ERR_FORMAT, "%s: %s.objectType: unknown tree type '%s' (oak, birch, spruce, tall_spruce, "
                           "mimosa, poplar)", doc->path, where, r->object);
    } else if (r->kind == SCATTER_PLANT) {
        r->block = block_registry_find(blocks, r->object);
        if (r->block <= 0)
            return st_fail(ST_ERR_FORMAT, "%s: %s.objectType: unknown block '%s'", doc->path, where, r->object);
    }
    return ST_OK;
}

static StResult finish_rule(const ConfigDoc *doc, const char *where, int index, ScatterConfig *cfg, ScatterRule *r);

/* The seed's densityMap: a bare PNG path, one pixel per block, centred on the world origin. */
static StResult parse_map_path(const ConfigDoc *doc, const char *mwhere, const char *dir, const char *rel,
                               ScatterConfig *cfg, ScatterRule *r)
{
    ScatterMap *m = &cfg->maps[cfg->map_count];
    memset(m, 0, sizeof *m);
    StResult rc = load_map(doc->path, mwhere, dir, rel, m, &cfg->text_hash);
    if (rc != ST_OK)
        return rc;
    m->x0 = -0.5f * (float)m->width, m->z0 = -0.5f * (float)m->height;
    m->x1 = 0.5f * (float)m->width, m->z1 = 0.5f * (float)m->height;
    r->map = cfg->map_count++;
    return ST_OK;
}

/* densityMap: {"path", "extent", "outside"} or the seed's bare path. */
static StResult parse_density_map(const ConfigDoc *doc, const cJSON *o, const char *where, const char *dir,
                                  ScatterConfig *cfg, ScatterRule *r)
{
    StResult rc;
    r->map = -1;
    const cJSON *map = config_get_item(o, "densityMap");
    if (map) {
        char mwhere[48];
        snprintf(mwhere, sizeof mwhere, "%s.densityMap", where);
        if (cJSON_IsString(map))
            return parse_map_path(doc, mwhere, dir, map->valuestring, cfg, r);
        if (!cJSON_IsObject(map))
            return st_fail(ST_ERR_FORMAT, "%s: %s: must be a PNG path or {\"path\", \"extent\": [x0, z0, x1, z1]}",
                           doc->path, mwhere);
        ScatterMap *m = &cfg->maps[cfg->map_count];
        memset(m, 0, sizeof *m);
        char rel[200];
        double ext[4], outside = 0.0;
        if ((rc = config_get_string(doc, map, mwhere, "path", rel, sizeof rel)) != ST_OK ||
            (rc = config_get_number_array(doc, map, mwhere, "extent", 4, 4, -1e7, 1e7, ext, NULL)) != ST_OK ||
            (rc = config_get_number_opt(doc, map, mwhere, "outside", 0, 1, &outside)) != ST_OK)
            return rc;
        if (!(ext[0] < ext[2] && ext[1] < ext[3]))
            return st_fail(ST_ERR_FORMAT, "%s: %s.extent: must be [x0, z0, x1, z1] with x0 < x1 and z0 < z1",
                           doc->path, mwhere);
        m->x0 = (float)ext[0], m->z0 = (float)ext[1], m->x1 = (float)ext[2], m->z1 = (float)ext[3];
        m->outside = (float)outside;
        if ((rc = load_map(doc->path, mwhere, dir, rel, m, &cfg->text_hash)) != ST_OK)
            return rc;
        r->map = cfg->map_count++;
    }
    return ST_OK;
}

static StResult parse_rule(const ConfigDoc *doc, const cJSON *o, int index, const char *dir, const BlockRegistry *blocks,
                           ScatterConfig *cfg, ScatterRule *r)
{
    char where[32];
    snprintf(where, sizeof where, "rules[%d]", index);
    StResult rc;
    char type[2 * SCATTER_NAME_MAX];
    if ((rc = config_get_string_opt(doc, o, where, "name", r->name, sizeof r->name)) != ST_OK ||
        (rc = config_get_string_opt(doc, o, where, "layer", r->layer, sizeof r->layer)) != ST_OK ||
        (rc = config_get_string_opt(doc, o, where, "spacingGroup", r->group, sizeof r->group)) != ST_OK ||
        (rc = config_get_string(doc, o, where, "objectType", type, sizeof type)) != ST_OK ||
        (rc = parse_object(doc, where, blocks, type, r)) != ST_OK)
        return rc;
    if (!r->name[0])   /* the seed's rules carry no name: the objectType names the rule */
        snprintf(r->name, sizeof r->name, "%.*s", (int)sizeof r->name - 1, type);
    if (!r->layer[0])
        memcpy(r->layer, r->name, sizeof r->layer);
    double v = 0.0;
    if ((rc = config_get_number(doc, o, where, "baseDensity", -1e9, 1e9, &v)) != ST_OK)
        return rc;
    if (!(v >= 0.0 && v <= 1.0))
        return st_fail(ST_ERR_FORMAT, "%s: %s.baseDensity: must be in 0..1", doc->path, where);
    r->base_density = (float)v;
    if ((rc = config_get_number(doc, o, where, "minSpacing", -1e9, 1e9, &v)) != ST_OK)
        return rc;
    if (!(v > 0.0))
        return st_fail(ST_ERR_FORMAT, "%s: %s.minSpacing: must be > 0", doc->path, where);
    if (v > 64.0)
        return st_fail(ST_ERR_FORMAT, "%s: %s.minSpacing: must be <= 64", doc->path, where);
    r->min_spacing = (float)v;
    r->cell = (int)lrint(v) < 1 ? 1 : (int)lrint(v);
    v = 90.0;
    if ((rc = config_get_number_opt(doc, o, where, "maxSlope", 0, 90, &v)) != ST_OK)
        return rc;
    r->max_slope = (float)v;
    double a = 0, b = 255;
    if ((rc = pair(doc, o, where, "heightRange", 0, 255, &a, &b)) != ST_OK)
        return rc;
    r->height_min = (int)a;
    r->height_max = (int)b;
    a = 1, b = 1;
    if ((rc = pair(doc, o, where, "scaleRange", 0, 64, &a, &b)) != ST_OK)
        return rc;
    r->scale_min = (float)a;
    r->scale_max = (float)b;
    a = 0, b = 0;
    if ((rc = pair(doc, o, where, "rotationRange", -360, 360, &a, &b)) != ST_OK)
        return rc;
    r->rotation_min = (float)a;
    r->rotation_max = (float)b;
    double sink = 0;   /* the seed writes a fraction of a block (0.2): whole blocks, rounded */
    if ((rc = config_get_number_opt(doc, o, where, "sinkAmount", 0, 32, &sink)) != ST_OK ||
        (rc = config_get_bool_opt(doc, o, where, "alignToNormal", &r->align_to_normal)) != ST_OK)
        return rc;
    r->sink_amount = (float)sink;
    r->sink = (int)floor(sink + 0.5);
    a = 0, b = 15;
    if ((rc = pair(doc, o, where, "temperatureRange", 0, 15, &a, &b)) != ST_OK)
        return rc;
    r->temperature_min = (int)a;
    r->temperature_max = (int)b;
    a = 0, b = 15;
    if ((rc = pair(doc, o, where, "humidityRange", 0, 15, &a, &b)) != ST_OK)
        return rc;
    r->humidity_min = (int)a;
    r->humidity_max = (int)b;
    if ((rc = ramp(doc, o, where, "temperature", &r->temperature)) != ST_OK ||
        (rc = ramp(doc, o, where, "humidity", &r->humidity)) != ST_OK ||
        (rc = ramp(doc, o, where, "height", &r->height)) != ST_OK)
        return rc;
    r->exclude_structures = true;
    if ((rc = config_get_bool_opt(doc, o, where, "excludeStructures", &r->exclude_structures)) != ST_OK)
        return rc;
    char text[SCATTER_NAME_MAX] = "";
    if ((rc = config_get_string_opt(doc, o, where, "densityField", text, sizeof text)) != ST_OK)
        return rc;
    if (text[0] && strcmp(text, "forest") != 0)
        return st_fail(ST_ERR_FORMAT, "%s: %s.densityField: '%s' is not a field (forest)", doc->path, where, text);
    r->forest = text[0] != 0;
    r->block = r->kind == SCATTER_PLANT ? r->block : BLOCK_GRANITE;
    text[0] = 0;
    if ((rc = config_get_string_opt(doc, o, where, "block", text, sizeof text)) != ST_OK)
        return rc;
    if (text[0]) {
        if (r->kind != SCATTER_BOULDER && r->kind != SCATTER_ROCK)
            return st_fail(ST_ERR_FORMAT, "%s: %s.block: only boulders and rocks take a block", doc->path, where);
        if ((r->block = block_registry_find(blocks, text)) <= 0)
            return st_fail(ST_ERR_FORMAT, "%s: %s.block: unknown block '%s'", doc->path, where, text);
    }
    const cJSON *ground = config_get_item(o, "ground");
    if (ground) {
        if (!cJSON_IsArray(ground) || cJSON_GetArraySize(ground) > SCATTER_MAX_GROUND)
            return st_fail(ST_ERR_FORMAT, "%s: %s.ground: must be an array of at most %d block names", doc->path,
                           where, SCATTER_MAX_GROUND);
        const cJSON *it;
        cJSON_ArrayForEach(it, ground) {
            int id = cJSON_IsString(it) ? block_registry_find(blocks, it->valuestring) : -1;
            if (id <= 0)
                return st_fail(ST_ERR_FORMAT, "%s: %s.ground[%d]: not a block name", doc->path, where, r->ground_count);
            r->ground[r->ground_count++] = id;
        }
    }
    if ((rc = parse_density_map(doc, o, where, dir, cfg, r)) != ST_OK)
        return rc;
    return finish_rule(doc, where, index, cfg, r);
}

/* Names, layer and spacing group of a parsed rule. */
static StResult finish_rule(const ConfigDoc *doc, const char *where, int index, ScatterConfig *cfg, ScatterRule *r)
{
    for (int i = 0; i < index; i++)
        if (strcmp(cfg->rules[i].name, r->name) == 0)
            return st_fail(ST_ERR_FORMAT, "%s: %s.name: '%s' is already rules[%d]'s", doc->path, where, r->name, i);
    r->seed_salt = rng_hash_string(r->name);
    int layer = scatter_layer_find(cfg, r->layer);
    if (layer < 0) {
        layer = cfg->layer_count++;
        memcpy(cfg->layers[layer], r->layer, sizeof r->layer);
    }
    r->layer_index = layer;
    if (!r->group[0])
        memcpy(r->group, r->layer, sizeof r->layer);
    int group = scatter_group_find(cfg, r->group);
    if (group < 0) {
        group = cfg->group_count++;
        memcpy(cfg->groups[group], r->group, sizeof r->group);
        cfg->group_reach[group] = 0.0f;
    }
    r->group_index = group;
    if (r->min_spacing > cfg->group_reach[group])
        cfg->group_reach[group] = r->min_spacing;
    return ST_OK;
}

static StResult parse_exclusions(const ConfigDoc *doc, const cJSON *root, ScatterConfig *cfg)
{
    cfg->dungeon_clearance = 6;
    const cJSON *ex = config_get_item(root, "exclusions");
    if (!ex)
        return ST_OK;
    long clear = cfg->dungeon_clearance;
    StResult rc = config_get_int_opt(doc, ex, "exclusions", "dungeonClearance", 0, 64, &clear);
    if (rc != ST_OK)
        return rc;
    cfg->dungeon_clearance = (int)clear;
    const cJSON *rects = config_get_item(ex, "rects");
    if (!rects)
        return ST_OK;
    if (!cJSON_IsArray(rects))
        return st_fail(ST_ERR_FORMAT, "%s: exclusions.rects: must be an array of [x0, z0, x1, z1]", doc->path);
    int n = cJSON_GetArraySize(rects);
    cfg->exclusions = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->exclusions);
    if (!cfg->exclusions)
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", doc->path);
    for (int i = 0; i < n; i++) {
        const cJSON *it = cJSON_GetArrayItem(rects, i);
        double v[4];
        bool ok = cJSON_IsArray(it) && cJSON_GetArraySize(it) == 4;
        for (int k = 0; ok && k < 4; k++) {
            const cJSON *e = cJSON_GetArrayItem(it, k);
            ok = cJSON_IsNumber(e);
            v[k] = ok ? e->valuedouble : 0.0;
        }
        if (!ok || v[0] > v[2] || v[1] > v[3])
            return st_fail(ST_ERR_FORMAT, "%s: exclusions.rects[%d]: must be [x0, z0, x1, z1] with x0 <= x1, z0 <= z1",
                           doc->path, i);
        cfg->exclusions[i] = (ScatterRect){(float)v[0], (float)v[1], (float)v[2], (float)v[3]};
    }
    cfg->exclusion_count = n;
    return ST_OK;
}

StResult scatter_config_parse(const char *path, const char *text, const BlockRegistry *blocks, ScatterConfig **out)
{
    *out = NULL;
    ConfigDoc doc;
    StResult rc = config_parse(path, text, &doc);
    if (rc != ST_OK)
        return rc;
    char dir[256] = "";
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
    ScatterConfig *cfg = calloc(1, sizeof *cfg);
    const cJSON *rules = NULL;
    if (!cfg) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    cfg->text_hash = rng_hash_string(text);
    long version = 1;   /* the seed's example names no version */
    const char *rules_key = config_get_item(doc.root, "scatterRules") ? "scatterRules" : "rules";
    if ((rc = config_get_int_opt(&doc, doc.root, "", "version", 1, 1, &version)) != ST_OK ||
        (rc = config_get_array(&doc, doc.root, "", rules_key, &rules)) != ST_OK ||
        (rc = parse_exclusions(&doc, doc.root, cfg)) != ST_OK)
        goto done;
    int n = cJSON_GetArraySize(rules);
    cfg->rules = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->rules);
    cfg->maps = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->maps);
    cfg->layers = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->layers);
    cfg->groups = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->groups);
    cfg->group_reach = calloc((size_t)(n > 0 ? n : 1), sizeof *cfg->group_reach);
    if (!cfg->rules || !cfg->maps || !cfg->layers || !cfg->groups || !cfg->group_reach) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    for (int i = 0; i < n && rc == ST_OK; i++) {
        const cJSON *o = cJSON_GetArrayItem(rules, i);
        if (!cJSON_IsObject(o)) {
            rc = st_fail(ST_ERR_FORMAT, "%s: rules[%d]: must be an object", path, i);
            break;
        }
        rc = parse_rule(&doc, o, i, dir, blocks, cfg, &cfg->rules[i]);
        if (rc == ST_OK)
            cfg->rule_count = i + 1;
    }
done:
    config_free(&doc);
    if (rc != ST_OK) {
        scatter_config_free(cfg);
        return rc;
    }
    *out = cfg;
    return ST_OK;
}

StResult scatter_config_load(const char *path, const BlockRegistry *blocks, ScatterConfig **out)
{
    char *text = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK)
        return st_fail_context(rc, "cannot read scatter rules");
    rc = scatter_config_parse(path, text, blocks, out);
    free(text);
    return rc;
}
