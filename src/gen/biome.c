/* biome.c — named biomes (assets/biomes.json): loading with field-precise errors, classification by
 * climate box, scatter layer and splat rule queries, and the blended fog.
 *
 * Design: a biome is a box in gen24's integer climate (plus an optional height band), first match wins, and
 * the nearest box catches the rest, so every place has exactly one biome and the file order says which of
 * two overlapping boxes is the more specific. The blend does not interpolate the climate (it is integer and
 * would snap): it samples the climate on a world-aligned grid around the place and weighs each sample's
 * biome by a smooth kernel of its distance, (1 - (d/R)^2)^2. The samples sit still while the place moves,
 * so the weights, and the fog made from them, change continuously; a border fades over ~2R of travel.
 * With a step of 16 and R = 48 that is at most 49 grid points, ~29 inside R: cheap enough for a few
 * queries a second on the main thread. */
#include "strata/biome.h"
#include "strata/config.h"
#include "strata/fileio.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct BiomeSet {
    int count;
    Biome biomes[BIOME_MAX];
};

static StResult parse_splat_rule(const ConfigDoc *doc, const cJSON *e, const char *where, const BlockRegistry *blocks,
                                 BiomeSplatRule *r)
{
    StResult rc;
    double v;
    memset(r, 0, sizeof *r);
    r->block = -1;
    r->min_height = -INFINITY;
    r->max_height = INFINITY;
    r->min_slope = 0.0f;
    r->max_slope = INFINITY;
    if (!cJSON_IsObject(e))
        return config_fail_field(doc, where, NULL, "an object", e);
    if ((rc = config_get_string_opt(doc, e, where, "block", r->block_name, sizeof r->block_name)) != ST_OK)
        return rc;
    if (config_get_item(e, "color")) {
        double c[3];
        if ((rc = config_get_number_array(doc, e, where, "color", 3, 3, 0, 1, c, NULL)) != ST_OK)
            return rc;
        r->has_color = true;
        for (int k = 0; k < 3; k++)
            r->color[k] = (float)c[k];
    }
    if (!r->block_name[0] && !r->has_color)
        return config_fail_field(doc, where, "block", "a block name or a \"color\" (or both)", NULL);
    if (r->block_name[0] && blocks) {
        r->block = block_registry_find(blocks, r->block_name);
        if (r->block < 0)
            return config_fail_field(doc, where, "block", "a block name of assets/blocks.json",
                                     config_get_item(e, "block"));
    }
    v = r->min_height;
    if ((rc = config_get_number_opt(doc, e, where, "minHeight", -INFINITY, 256, &v)) != ST_OK) return rc;
    r->min_height = (float)v;
    v = r->max_height;
    if ((rc = config_get_number_opt(doc, e, where, "maxHeight", -1, INFINITY, &v)) != ST_OK) return rc;
    r->max_height = (float)v;
    v = r->min_slope;
    if ((rc = config_get_number_opt(doc, e, where, "minSlope", 0, 1000, &v)) != ST_OK) return rc;
    r->min_slope = (float)v;
    v = r->max_slope;
    if ((rc = config_get_number_opt(doc, e, where, "maxSlope", 0, INFINITY, &v)) != ST_OK) return rc;
    r->max_slope = (float)v;
    if (r->min_height > r->max_height)
        return config_fail_field(doc, where, "maxHeight", "a height >= minHeight", config_get_item(e, "maxHeight"));
    if (r->min_slope > r->max_slope)
        return config_fail_field(doc, where, "maxSlope", "a slope >= minSlope", config_get_item(e, "maxSlope"));
    return ST_OK;
}

static StResult parse_biome(const ConfigDoc *doc, const cJSON *e, const char *where, const BlockRegistry *blocks,
                            const BiomeSet *set, Biome *b)
{
    StResult rc;
    int range[2];
    const cJSON *arr;
    char sub[96];
    memset(b, 0, sizeof *b);
    if (!cJSON_IsObject(e))
        return config_fail_field(doc, where, NULL, "an object", e);
    if ((rc = config_get_string(doc, e, where, "name", b->name, sizeof b->name)) != ST_OK)
        return rc;
    if (!b->name[0] || biome_set_find(set, b->name) >= 0)
        return config_fail_field(doc, where, "name", "a non-empty name no earlier biome has",
                                 config_get_item(e, "name"));
    if ((rc = config_get_int_array(doc, e, where, "temperature", 2, 2, 0, 15, range, NULL)) != ST_OK)
        return rc;
    if (range[0] > range[1])
        return config_fail_field(doc, where, "temperature", "[min, max] with min <= max",
                                 config_get_item(e, "temperature"));
    b->temperature_min = range[0];
    b->temperature_max = range[1];
    if ((rc = config_get_int_array(doc, e, where, "humidity", 2, 2, 0, 15, range, NULL)) != ST_OK)
        return rc;
    if (range[0] > range[1])
        return config_fail_field(doc, where, "humidity", "[min, max] with min <= max", config_get_item(e, "humidity"));
    b->humidity_min = range[0];
    b->humidity_max = range[1];
    b->height_min = -INFINITY;
    b->height_max = INFINITY;
    if (config_get_item(e, "height")) {
        double h[2];
        if ((rc = config_get_number_array(doc, e, where, "height", 2, 2, 0, 256, h, NULL)) != ST_OK)
            return rc;
        if (h[0] > h[1])
            return config_fail_field(doc, where, "height", "[min, max] with min <= max", config_get_item(e, "height"));
        b->height_min = (float)h[0];
        b->height_max = (float)h[1];
    }
    if ((rc = config_get_array(doc, e, where, "splatRules", &arr)) != ST_OK)
        return rc;
    for (const cJSON *r = arr->child; r; r = r->next) {
        if (b->splat_rule_count == BIOME_MAX_SPLAT_RULES)
            return config_fail_field(doc, where, "splatRules", "at most 8 rules", arr);
        snprintf(sub, sizeof sub, "%s.splatRules[%d]", where, b->splat_rule_count);
        if ((rc = parse_splat_rule(doc, r, sub, blocks, &b->splat_rules[b->splat_rule_count])) != ST_OK)
            return rc;
        b->splat_rule_count++;
    }
    if ((rc = config_get_array(doc, e, where, "scatterLayers", &arr)) != ST_OK)
        return rc;
    for (const cJSON *l = arr->child; l; l = l->next) {
        snprintf(sub, sizeof sub, "%s.scatterLayers[%d]", where, b->layer_count);
        if (b->layer_count == BIOME_MAX_LAYERS)
            return config_fail_field(doc, where, "scatterLayers", "at most 16 layer names", arr);
        if (!cJSON_IsString(l) || !l->valuestring[0] || strlen(l->valuestring) >= BIOME_NAME_MAX)
            return config_fail_field(doc, sub, NULL, "a layer name of 1..31 characters", l);
        snprintf(b->layers[b->layer_count++], BIOME_NAME_MAX, "%s", l->valuestring);
    }
    double c[3], density;
    if ((rc = config_get_number_array(doc, e, where, "fogColor", 3, 3, 0, 1, c, NULL)) != ST_OK ||
        (rc = config_get_number(doc, e, where, "fogDensity", 0, 1, &density)) != ST_OK)
        return rc;
    for (int k = 0; k < 3; k++)
        b->fog_color[k] = (float)c[k];
    b->fog_density = (float)density;
    return ST_OK;
}

StResult biome_set_parse(const char *path, const char *json, const BlockRegistry *blocks, BiomeSet **out)
{
    *out = NULL;
    ConfigDoc doc;
    StResult rc = config_parse(path, json, &doc);
    if (rc != ST_OK)
        return rc;
    BiomeSet *set = calloc(1, sizeof *set);
    if (!set) {
        config_free(&doc);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    }
    const cJSON *arr;
    if ((rc = config_get_array(&doc, doc.root, "", "biomes", &arr)) == ST_OK) {
        for (const cJSON *e = arr->child; e && rc == ST_OK; e = e->next) {
            if (set->count == BIOME_MAX) {
                rc = config_fail_field(&doc, "", "biomes", "at most 32 biomes", arr);
                break;
            }
            char where[32];
            snprintf(where, sizeof where, "biomes[%d]", set->count);
            if ((rc = parse_biome(&doc, e, where, blocks, set, &set->biomes[set->count])) == ST_OK)
                set->count++;
        }
        if (rc == ST_OK && set->count == 0)
            rc = config_fail_field(&doc, "", "biomes", "at least one biome", arr);
    }
    config_free(&doc);
    if (rc != ST_OK) {
        free(set);
        return rc;
    }
    *out = set;
    return ST_OK;
}

StResult biome_set_load(const char *path, const BlockRegistry *blocks, BiomeSet **out)
{
    *out = NULL;
    if (!path)
        path = "assets/biomes.json";
    char *text;
    size_t size;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK)
        return rc;
    rc = biome_set_parse(path, text, blocks, out);
    free(text);
    return rc;
}

void biome_set_destroy(BiomeSet *set) { free(set); }

int biome_set_count(const BiomeSet *set) { return set ? set->count : 0; }

const Biome *biome_set_get(const BiomeSet *set, int index)
{
    return set && index >= 0 && index < set->count ? &set->biomes[index] : NULL;
}

int biome_set_find(const BiomeSet *set, const char *name)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->biomes[i].name, name) == 0)
            return i;
    return -1;
}

static int range_distance(int v, int lo, int hi) { return v < lo ? lo - v : (v > hi ? v - hi : 0); }

int biome_set_classify(const BiomeSet *set, int temperature, int humidity, float height)
{
    int best = 0, best_d = 1 << 30;
    for (int i = 0; i < set->count; i++) {
        const Biome *b = &set->biomes[i];
        int d = range_distance(temperature, b->temperature_min, b->temperature_max) +
                range_distance(humidity, b->humidity_min, b->humidity_max);
        bool in_height = height >= b->height_min && height <= b->height_max;
        if (d == 0 && in_height)
            return i;
        /* a height band only narrows a biome: outside its band it is a fallback of last resort */
        if (!in_height)
            d += 1000;
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

bool biome_set_layer_allowed(const BiomeSet *set, int index, const char *layer_name)
{
    const Biome *b = biome_set_get(set, index);
    if (!b || !layer_name)
        return false;
    for (int i = 0; i < b->layer_count; i++)
        if (strcmp(b->layers[i], layer_name) == 0)
            return true;
    return false;
}

const BiomeSplatRule *biome_set_splat_rule(const BiomeSet *set, int index, float height, float slope)
{
    const Biome *b = biome_set_get(set, index);
    if (!b)
        return NULL;
    for (int i = 0; i < b->splat_rule_count; i++) {
        const BiomeSplatRule *r = &b->splat_rules[i];
        if (height >= r->min_height && height <= r->max_height && slope >= r->min_slope && slope <= r->max_slope)
            return r;
    }
    return NULL;
}

void biome_set_weights_at(const BiomeSet *set, BiomeClimateFn climate, void *user, float x, float z, float *weights)
{
    const int step = BIOME_BLEND_STEP;
    const float r = BIOME_BLEND_RADIUS;
    for (int i = 0; i < set->count; i++)
        weights[i] = 0.0f;
    int x0 = (int)floorf((x - r) / (float)step), x1 = (int)ceilf((x + r) / (float)step);
    int z0 = (int)floorf((z - r) / (float)step), z1 = (int)ceilf((z + r) / (float)step);
    float total = 0.0f;
    for (int gz = z0; gz <= z1; gz++)
        for (int gx = x0; gx <= x1; gx++) {
            float sx = (float)(gx * step), sz = (float)(gz * step);
            float q = ((sx - x) * (sx - x) + (sz - z) * (sz - z)) / (r * r);
            if (q >= 1.0f)
                continue;
            float w = (1.0f - q) * (1.0f - q);
            int t, h;
            float height;
            climate(user, sx, sz, &t, &h, &height);
            weights[biome_set_classify(set, t, h, height)] += w;
            total += w;
        }
    if (total <= 0.0f) { /* cannot happen with step < radius; keep the contract anyway */
        int t, h;
        float height;
        climate(user, x, z, &t, &h, &height);
        weights[biome_set_classify(set, t, h, height)] = 1.0f;
        return;
    }
    for (int i = 0; i < set->count; i++)
        weights[i] /= total;
}

void biome_set_fog_at(const BiomeSet *set, BiomeClimateFn climate, void *user, float x, float z, BiomeFog *out)
{
    float weights[BIOME_MAX];
    biome_set_weights_at(set, climate, user, x, z, weights);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < set->count; i++) {
        const Biome *b = &set->biomes[i];
        for (int k = 0; k < 3; k++)
            out->color[k] += weights[i] * b->fog_color[k];
        out->density += weights[i] * b->fog_density;
    }
}

static void generator_climate(void *user, float x, float z, int *temperature, int *humidity, float *height)
{
    const Generator *g = user;
    *temperature = g->calculate_temperature ? g->calculate_temperature(g, x, z) : 8;
    *humidity = g->calculate_humidity ? g->calculate_humidity(g, x, z) : 8;
    *height = g->calculate_height ? g->calculate_height(g, x, z) : (float)(g->ocean_level ? g->ocean_level(g) : 64);
}

void biome_set_fog_at_generator(const BiomeSet *set, const Generator *gen, float x, float z, BiomeFog *out)
{
    biome_set_fog_at(set, generator_climate, (void *)gen, x, z, out);
}
