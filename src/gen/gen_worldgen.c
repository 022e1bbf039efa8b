/* gen_worldgen.c — loads assets/worldgen.json, the generator's tunables, into a WorldgenConfig.
 *
 * Design: every field is required and range checked, so a typo or an out-of-range value is a clear
 * ST_ERR_FORMAT naming the file and the field path ("assets/worldgen.json: field 'ores[2].y': ...")
 * instead of a silently different world. Block names resolve through the block registry. The hash of
 * the text becomes part of the generator's cache key. */
#include "gen_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/config.h"
#include "strata/fileio.h"

typedef struct Parser {
    const ConfigDoc *doc;
    const BlockRegistry *blocks;
} Parser;

static void field_path(char *buf, size_t size, const char *where, const char *key)
{
    if (where && *where)
        snprintf(buf, size, "%s.%s", where, key);
    else
        snprintf(buf, size, "%s", key);
}

static StResult bad_field(const Parser *p, const char *where, const char *key, const char *expected, const cJSON *got)
{
    char path[160];
    field_path(path, sizeof path, where, key);
    if (!got)
        return st_fail(ST_ERR_FORMAT, "%s: missing field '%s' (expected %s)", p->doc->path, path, expected);
    char *text = cJSON_PrintUnformatted(got);
    StResult rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected %s, got %s", p->doc->path, path, expected,
                          text ? text : "?");
    cJSON_free(text);
    return rc;
}

static StResult num(const Parser *p, const cJSON *o, const char *where, const char *key, double lo, double hi, float *out)
{
    double v;
    StResult rc = config_get_number(p->doc, o, where, key, lo, hi, &v);
    if (rc == ST_OK)
        *out = (float)v;
    return rc;
}

static StResult inum(const Parser *p, const cJSON *o, const char *where, const char *key, long lo, long hi, int *out)
{
    long v;
    StResult rc = config_get_int(p->doc, o, where, key, lo, hi, &v);
    if (rc == ST_OK)
        *out = (int)v;
    return rc;
}

static StResult block(const Parser *p, const cJSON *o, const char *where, const char *key, int *out)
{
    char name[BLOCK_NAME_MAX];
    StResult rc = config_get_string(p->doc, o, where, key, name, sizeof name);
    if (rc != ST_OK)
        return rc;
    int id = block_registry_find(p->blocks, name);
    if (id < 0)
        return bad_field(p, where, key, "a block name from the block registry", cJSON_GetObjectItemCaseSensitive(o, key));
    *out = id;
    return ST_OK;
}

/* A JSON array of exactly n numbers in [lo, hi], non-decreasing when `ordered`. */
static StResult numbers(const Parser *p, const cJSON *o, const char *where, const char *key, int n, double lo, double hi,
                        bool ordered, float *out)
{
    double v[8];
    StResult rc = n <= 8 ? config_get_number_array(p->doc, o, where, key, n, n, lo, hi, v, NULL)
                         : st_fail(ST_ERR_ARG, "%s: numbers: at most 8", key);
    if (rc != ST_OK)
        return rc;
    char expected[128];
    snprintf(expected, sizeof expected, "an array of %d numbers in %g..%g%s", n, lo, hi, ordered ? ", in order" : "");
    for (int i = 0; i < n; i++) {
        out[i] = (float)v[i];
        if (ordered && i > 0 && out[i] < out[i - 1])
            return bad_field(p, where, key, expected, cJSON_GetObjectItemCaseSensitive(o, key));
    }
    return ST_OK;
}

static StResult irange(const Parser *p, const cJSON *o, const char *where, const char *key, int lo, int hi, int *a, int *b)
{
    float v[2];
    StResult rc = numbers(p, o, where, key, 2, lo, hi, true, v);
    if (rc != ST_OK)
        return rc;
    if (v[0] != (float)(int)v[0] || v[1] != (float)(int)v[1]) {
        char expected[96];
        snprintf(expected, sizeof expected, "two integers in %d..%d, in order", lo, hi);
        return bad_field(p, where, key, expected, cJSON_GetObjectItemCaseSensitive(o, key));
    }
    *a = (int)v[0];
    *b = (int)v[1];
    return ST_OK;
}

#define TRY(x) do { StResult rc_ = (x); if (rc_ != ST_OK) return rc_; } while (0)

static StResult parse_terrain(const Parser *p, const cJSON *root, GenTerrainConfig *t)
{
    const cJSON *o;
    TRY(config_get_object(p->doc, root, "", "terrain", &o));
    const char *w = "terrain";
    float corner[2];
    TRY(numbers(p, o, w, "ocean_corner", 2, -100000, 100000, false, corner));
    t->ocean_corner_x = corner[0];
    t->ocean_corner_z = corner[1];
    TRY(num(p, o, w, "ocean_slope", 0, 1, &t->ocean_slope));
    TRY(num(p, o, w, "ocean_slope_variation", 0, 1, &t->ocean_slope_variation));
    TRY(num(p, o, w, "islands_frequency", 0, 1, &t->islands_frequency));
    TRY(num(p, o, w, "density_bias", 0, 255, &t->density_bias));
    TRY(num(p, o, w, "height_bias", -64, 64, &t->height_bias));
    TRY(num(p, o, w, "rivers_strength", 0, 4, &t->rivers_strength));
    TRY(num(p, o, w, "mountains_strength", 0, 400, &t->mountains_strength));
    TRY(num(p, o, w, "mountain_range_frequency", 0.00001, 0.1, &t->mountain_range_frequency));
    TRY(num(p, o, w, "mountains_percentage", 0.01, 0.99, &t->mountains_percentage));
    TRY(num(p, o, w, "mountains_detail_frequency", 0.00001, 1, &t->mountains_detail_frequency));
    TRY(inum(p, o, w, "mountains_detail_octaves", 1, 8, &t->mountains_detail_octaves));
    TRY(num(p, o, w, "mountains_detail_persistence", 0, 1, &t->mountains_detail_persistence));
    TRY(num(p, o, w, "hills_percentage", 0.01, 0.99, &t->hills_percentage));
    TRY(num(p, o, w, "hills_strength", 0, 200, &t->hills_strength));
    TRY(num(p, o, w, "hills_frequency", 0.00001, 1, &t->hills_frequency));
    TRY(inum(p, o, w, "hills_octaves", 1, 8, &t->hills_octaves));
    TRY(num(p, o, w, "hills_persistence", 0, 1, &t->hills_persistence));
    TRY(num(p, o, w, "turbulence_strength", 0, 200, &t->turbulence_strength));
    TRY(num(p, o, w, "turbulence_frequency", 0.00001, 1, &t->turbulence_frequency));
    TRY(inum(p, o, w, "turbulence_octaves", 1, 8, &t->turbulence_octaves));
    TRY(num(p, o, w, "turbulence_persistence", 0, 1, &t->turbulence_persistence));
    TRY(num(p, o, w, "min_turbulence", 0, 1, &t->min_turbulence));
    TRY(num(p, o, w, "turbulence_zero", 0, 0.99, &t->turbulence_zero));
    TRY(num(p, o, w, "surface_multiplier", 0, 10, &t->surface_multiplier));
    TRY(num(p, o, w, "temperature_frequency", 0.00001, 1, &t->temperature_frequency));
    TRY(num(p, o, w, "humidity_frequency", 0.00001, 1, &t->humidity_frequency));
    TRY(num(p, o, w, "continent_biome_scaling", 0.1, 10, &t->continent_biome_scaling));
    TRY(num(p, o, w, "island_biome_scaling", 0.1, 10, &t->island_biome_scaling));
    TRY(num(p, o, w, "beach_distance", 0, 200, &t->beach_distance));
    if (t->hills_percentage <= t->mountains_percentage)
        return bad_field(p, w, "hills_percentage", "a value above terrain.mountains_percentage",
                         cJSON_GetObjectItemCaseSensitive(o, "hills_percentage"));
    return ST_OK;
}

static StResult parse_caves(const Parser *p, const cJSON *root, GenCaveConfig *c)
{
    const cJSON *o;
    TRY(config_get_object(p->doc, root, "", "caves", &o));
    const char *w = "caves";
    c->enabled = true;
    TRY(config_get_bool_opt(p->doc, o, w, "enabled", &c->enabled));
    TRY(num(p, o, w, "probability", 0, 1, &c->probability));
    TRY(irange(p, o, w, "length", 2, 1000, &c->length_min, &c->length_max));
    TRY(irange(p, o, w, "branch_length", 2, 1000, &c->branch_length_min, &c->branch_length_max));
    TRY(inum(p, o, w, "max_branches", 0, 12, &c->max_branches));
    TRY(num(p, o, w, "max_distance", 4, 64, &c->max_distance));
    TRY(num(p, o, w, "turn_distance", 0, 64, &c->turn_distance));
    TRY(inum(p, o, w, "brush_sizes", 1, GEN24_CAVE_TYPES_MAX, &c->brush_sizes));
    TRY(inum(p, o, w, "brush_variants", 1, GEN24_CAVE_VARIANTS_MAX, &c->brush_variants));
    return ST_OK;
}

static StResult parse_vein(const Parser *p, const cJSON *o, const char *w, bool ore, GenVeinConfig *v)
{
    TRY(config_get_string(p->doc, o, w, "name", v->name, sizeof v->name));
    TRY(block(p, o, w, "block", &v->block));
    TRY(block(p, o, w, "host", &v->host));
    TRY(irange(p, o, w, "y", 0, 255, &v->y_min, &v->y_max));
    if (ore) {
        TRY(num(p, o, w, "count_base", 0, 64, &v->count_base));
        TRY(num(p, o, w, "count_mountain", 0, 64, &v->count_mountain));
    } else {
        int count;
        TRY(inum(p, o, w, "count", 0, 200, &count));
        v->count_base = (float)count;
        v->count_mountain = 0.0f;
    }
    TRY(irange(p, o, w, "veins", 1, 64, &v->veins_min, &v->veins_max));
    TRY(irange(p, o, w, "steps", 1, 32, &v->steps_min, &v->steps_max));
    TRY(num(p, o, w, "vertical", 0, 4, &v->vertical));
    return ST_OK;
}

static StResult parse_veins(const Parser *p, const cJSON *root, const char *key, bool ore, GenVeinConfig *out,
                            int *count)
{
    const cJSON *a;
    TRY(config_get_array(p->doc, root, "", key, &a));
    int n = cJSON_GetArraySize(a);
    if (n > GEN_MAX_VEINS) {
        char expected[64];
        snprintf(expected, sizeof expected, "at most %d entries", GEN_MAX_VEINS);
        return bad_field(p, "", key, expected, a);
    }
    for (int i = 0; i < n; i++) {
        char where[64];
        snprintf(where, sizeof where, "%s[%d]", key, i);
        const cJSON *o = cJSON_GetArrayItem(a, i);
        if (!cJSON_IsObject(o))
            return st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", p->doc->path, where);
        memset(&out[i], 0, sizeof out[i]);
        TRY(parse_vein(p, o, where, ore, &out[i]));
    }
    *count = n;
    return ST_OK;
}

static StResult parse_fluid(const Parser *p, const cJSON *root, const char *key, GenFluidPocketConfig *f)
{
    const cJSON *o;
    TRY(config_get_object(p->doc, root, "", key, &o));
    TRY(block(p, o, key, "block", &f->block));
    TRY(num(p, o, key, "probability_base", 0, 1, &f->probability_base));
    TRY(num(p, o, key, "probability_mountain", 0, 1, &f->probability_mountain));
    TRY(irange(p, o, key, "y", 0, 255, &f->y_min, &f->y_max));
    TRY(irange(p, o, key, "count", 0, 16, &f->count_min, &f->count_max));
    int n = 0;
    TRY(config_get_int_array(p->doc, o, key, "sizes", 1, GEN_MAX_FLUID_SIZES, 2, 16, f->sizes, &n));
    f->size_count = n;
    f->deep = false;
    TRY(config_get_bool_opt(p->doc, o, key, "deep", &f->deep));
    return ST_OK;
}

static StResult trapezoid(const Parser *p, const cJSON *o, const char *w, const char *key, double hi, GenTrapezoid *t)
{
    float v[4];
    TRY(numbers(p, o, w, key, 4, 0, hi, true, v));
    t->a = v[0]; t->b = v[1]; t->c = v[2]; t->d = v[3];
    return ST_OK;
}

static StResult parse_odds(const Parser *p, const cJSON *o, const char *w, const char *key, float *scale,
                           GenTrapezoid *temperature, GenTrapezoid *humidity, GenTrapezoid *height)
{
    const cJSON *q;
    char where[96];
    TRY(config_get_object(p->doc, o, w, key, &q));
    field_path(where, sizeof where, w, key);
    TRY(num(p, q, where, "scale", 0, 1, scale));
    TRY(trapezoid(p, q, where, "temperature", 15, temperature));
    TRY(trapezoid(p, q, where, "humidity", 15, humidity));
    TRY(trapezoid(p, q, where, "height", 255, height));
    return ST_OK;
}

static StResult parse_trees(const Parser *p, const cJSON *root, WorldgenConfig *cfg)
{
    static const char *shapes[GEN_TREE_SHAPE_COUNT] = {"oak", "birch", "spruce", "tall_spruce", "mimosa", "poplar"};
    const cJSON *o, *types;
    TRY(config_get_object(p->doc, root, "", "trees", &o));
    TRY(inum(p, o, "trees", "max_per_chunk", 0, 64, &cfg->trees_max_per_chunk));
    TRY(inum(p, o, "trees", "tries", 0, 256, &cfg->trees_tries));
    TRY(inum(p, o, "trees", "min_y", 1, 250, &cfg->trees_min_y));
    TRY(config_get_array(p->doc, o, "trees", "types", &types));
    int n = cJSON_GetArraySize(types);
    if (n > GEN_MAX_TREE_TYPES) {
        char expected[64];
        snprintf(expected, sizeof expected, "at most %d tree types", GEN_MAX_TREE_TYPES);
        return bad_field(p, "trees", "types", expected, types);
    }
    for (int i = 0; i < n; i++) {
        GenTreeConfig *t = &cfg->trees[i];
        memset(t, 0, sizeof *t);
        char w[64];
        snprintf(w, sizeof w, "trees.types[%d]", i);
        const cJSON *e = cJSON_GetArrayItem(types, i);
        if (!cJSON_IsObject(e))
            return st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", p->doc->path, w);
        TRY(config_get_string(p->doc, e, w, "name", t->name, sizeof t->name));
        char shape[32];
        TRY(config_get_string(p->doc, e, w, "shape", shape, sizeof shape));
        int s = -1;
        for (int k = 0; k < GEN_TREE_SHAPE_COUNT; k++)
            if (strcmp(shape, shapes[k]) == 0)
                s = k;
        if (s < 0)
            return bad_field(p, w, "shape", "one of oak|birch|spruce|tall_spruce|mimosa|poplar",
                             cJSON_GetObjectItemCaseSensitive(e, "shape"));
        t->shape = (GenTreeShape)s;
        TRY(block(p, e, w, "trunk", &t->trunk));
        TRY(block(p, e, w, "leaves", &t->leaves));
        TRY(parse_odds(p, e, w, "probability", &t->probability_scale, &t->probability_temperature,
                       &t->probability_humidity, &t->probability_height));
        TRY(parse_odds(p, e, w, "density", &t->density_scale, &t->density_temperature, &t->density_humidity,
                       &t->density_height));
        double sizes[GEN_MAX_TREE_BRUSHES];
        int m = 0;
        TRY(config_get_number_array(p->doc, e, w, "sizes", 1, GEN_MAX_TREE_BRUSHES, 3, 32, sizes, &m));
        for (int k = 0; k < m; k++)
            t->sizes[k] = (float)sizes[k];
        t->size_count = m;
    }
    cfg->tree_type_count = n;
    return ST_OK;
}

static StResult parse_plants(const Parser *p, const cJSON *root, GenPlantConfig *pl)
{
    const cJSON *o, *flowers;
    const char *w = "plants";
    TRY(config_get_object(p->doc, root, "", "plants", &o));
    TRY(inum(p, o, w, "grass_humidity_min", 0, 16, &pl->grass_humidity_min));
    TRY(num(p, o, w, "grass_humidity_divisor", 1, 1000, &pl->grass_humidity_divisor));
    TRY(config_get_array(p->doc, o, w, "flowers", &flowers));
    int n = cJSON_GetArraySize(flowers);
    if (n > GEN_MAX_FLOWERS) {
        char expected[64];
        snprintf(expected, sizeof expected, "at most %d flowers", GEN_MAX_FLOWERS);
        return bad_field(p, w, "flowers", expected, flowers);
    }
    for (int i = 0; i < n; i++) {
        char where[64];
        snprintf(where, sizeof where, "plants.flowers[%d]", i);
        const cJSON *e = cJSON_GetArrayItem(flowers, i);
        if (!cJSON_IsObject(e))
            return st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", p->doc->path, where);
        TRY(block(p, e, where, "block", &pl->flowers[i].block));
        TRY(num(p, e, where, "probability", 0, 1, &pl->flowers[i].probability));
    }
    pl->flower_count = n;
    TRY(num(p, o, w, "dry_bush_probability", 0, 1, &pl->dry_bush_probability));
    TRY(num(p, o, w, "sand_bush_probability", 0, 1, &pl->sand_bush_probability));
    TRY(num(p, o, w, "cactus_chunk_probability", 0, 1, &pl->cactus_chunk_probability));
    TRY(num(p, o, w, "pumpkin_chunk_probability", 0, 1, &pl->pumpkin_chunk_probability));
    return ST_OK;
}

/* The optional "climate" object (GenClimateConfig): absent fields keep version 4's rules. */
void worldgen_climate_default(GenClimateConfig *c)
{
    c->frozen_at_or_below = 0;
    c->alpine_ice_above = 120;
    c->mountain_ridged_octaves = false;
}

static StResult parse_climate(const Parser *p, const cJSON *root, GenClimateConfig *c)
{
    worldgen_climate_default(c);
    const cJSON *o = config_get_item(root, "climate");
    if (!o)
        return ST_OK;
    if (!cJSON_IsObject(o))
        return bad_field(p, "", "climate", "an object", o);
    long v = c->frozen_at_or_below;
    TRY(config_get_int_opt(p->doc, o, "climate", "frozen_at_or_below", 0, 15, &v));
    c->frozen_at_or_below = (int)v;
    v = c->alpine_ice_above;
    TRY(config_get_int_opt(p->doc, o, "climate", "alpine_ice_above", 64, 255, &v));
    c->alpine_ice_above = (int)v;
    TRY(config_get_bool_opt(p->doc, o, "climate", "mountain_ridged_octaves", &c->mountain_ridged_octaves));
    return ST_OK;
}

StResult worldgen_parse(const char *path, const char *text, const BlockRegistry *blocks, WorldgenConfig *out)
{
    ConfigDoc doc;
    memset(out, 0, sizeof *out);
    StResult rc = config_parse(path, text, &doc);
    if (rc != ST_OK)
        return rc;
    Parser p = {&doc, blocks};
    const cJSON *root = doc.root;
    if (!cJSON_IsObject(root)) {
        config_free(&doc);
        return st_fail(ST_ERR_FORMAT, "%s: expected a JSON object at the top", path);
    }
    do {
        if ((rc = inum(&p, root, "", "version", 1, 1, &out->version)) != ST_OK) break;
        if ((rc = inum(&p, root, "", "sea_level", 16, 200, &out->sea_level)) != ST_OK) break;
        if ((rc = parse_terrain(&p, root, &out->terrain)) != ST_OK) break;
        if ((rc = parse_caves(&p, root, &out->caves)) != ST_OK) break;
        if ((rc = parse_veins(&p, root, "ores", true, out->ores, &out->ore_count)) != ST_OK) break;
        if ((rc = parse_veins(&p, root, "pockets", false, out->pockets, &out->pocket_count)) != ST_OK) break;
        if ((rc = parse_fluid(&p, root, "water_pockets", &out->water_pockets)) != ST_OK) break;
        if ((rc = parse_fluid(&p, root, "magma_pockets", &out->magma_pockets)) != ST_OK) break;
        if ((rc = parse_trees(&p, root, out)) != ST_OK) break;
        if ((rc = parse_plants(&p, root, &out->plants)) != ST_OK) break;
        if ((rc = parse_climate(&p, root, &out->climate)) != ST_OK) break;
    } while (0);
    config_free(&doc);
    if (rc == ST_OK)
        out->text_hash = rng_hash_string(text);
    return rc;
}

StResult worldgen_load(const char *path, const BlockRegistry *blocks, WorldgenConfig *out)
{
    char *text;
    size_t size;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK)
        return rc;
    rc = worldgen_parse(path, text, blocks, out);
    free(text);
    /* the scatter rules (gen24 version 4) next to it, else the shipped ones */
    const char *slash = strrchr(path, '/');
    snprintf(out->scatter_path, sizeof out->scatter_path, "%.*sscatter.json", slash ? (int)(slash - path + 1) : 0, path);
    if (!fileio_exists(out->scatter_path))
        snprintf(out->scatter_path, sizeof out->scatter_path, "%s", "assets/scatter.json");
    return rc;
}
