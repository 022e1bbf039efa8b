/* heightfield_recipe_json.c — noise recipes as JSON: parse, load, write (heightfield_recipe.h), and the layer
 * kinds' names they use.
 *
 * Design: parsing fills plain structs field by field with the typed getters of heightfield_json.h; each
 * missing-but-optional field keeps its default, each bad field fails with "<file>: field '<path>': expected
 * <what>". Unknown keys are ignored. The recipe's evaluation and presets live in heightfield_recipe.c, which
 * calls down here to load a preset's file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"
#include "strata/heightfield_recipe.h"
#include "heightfield_json.h"

static const char *KIND_NAMES[] = {"perlin", "simplex", "worley", "fbm", "ridged"};

int height_layer_kind_from_name(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, KIND_NAMES[i])) return i;
    return -1;
}

const char *height_layer_kind_name(HeightLayerKind kind) { return (unsigned)kind < 5 ? KIND_NAMES[kind] : "perlin"; }

/* ---- recipes ---- */

static StResult parse_warp(const char *path, const cJSON *obj, const char *where, HeightWarp *w)
{
    StResult rc;
    int seed = (int)w->seed;
    if ((rc = get_num(path, obj, where, "frequency", 1e-6, 10.0, true, &w->frequency)) != ST_OK ||
        (rc = get_num(path, obj, where, "strength", 0.0, 100000.0, true, &w->strength)) != ST_OK ||
        (rc = get_int(path, obj, where, "octaves", 1, 12, &w->octaves)) != ST_OK ||
        (rc = get_int(path, obj, where, "seed", 0, 1000000000, &seed)) != ST_OK)
        return rc;
    w->seed = (uint32_t)seed;
    return ST_OK;
}

StResult height_recipe_parse(const char *path, const char *json, HeightRecipe *out)
{
    cJSON *root;
    StResult rc = parse_root(path, json, &root);
    if (rc != ST_OK) return rc;
    memset(out, 0, sizeof *out);
    out->scale = 1.0f;
    snprintf(out->name, sizeof out->name, "custom");
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    const cJSON *warps = cJSON_GetObjectItemCaseSensitive(root, "warps");
    const cJSON *clamp = cJSON_GetObjectItemCaseSensitive(root, "clamp");
    if ((rc = get_str(path, root, "", "name", out->name, sizeof out->name)) != ST_OK) goto done;
    if (!cJSON_IsArray(layers) || cJSON_GetArraySize(layers) < 1 || cJSON_GetArraySize(layers) > HEIGHT_RECIPE_MAX_LAYERS) {
        rc = st_fail(ST_ERR_FORMAT, "%s: field 'layers': expected an array of 1..%d layers", path, HEIGHT_RECIPE_MAX_LAYERS);
        goto done;
    }
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, layers) {
        char where[32];
        snprintf(where, sizeof where, "layers[%d]", i);
        HeightLayer *l = &out->layers[i];
        *l = (HeightLayer){.kind = HEIGHT_LAYER_PERLIN, .frequency = 0.01f, .amplitude = 1.0f, .lacunarity = 2.0f,
                           .persistence = 0.5f, .octaves = 1};
        snprintf(l->name, sizeof l->name, "layer%d", i);
        char kind[16] = "perlin";
        int seed = 0;
        if (!cJSON_IsObject(item)) { rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", path, where); goto done; }
        if ((rc = get_str(path, item, where, "name", l->name, sizeof l->name)) != ST_OK ||
            (rc = get_str(path, item, where, "kind", kind, sizeof kind)) != ST_OK ||
            (rc = get_num(path, item, where, "frequency", 1e-6, 10.0, true, &l->frequency)) != ST_OK ||
            (rc = get_num(path, item, where, "amplitude", -1e6, 1e6, true, &l->amplitude)) != ST_OK ||
            (rc = get_num(path, item, where, "lacunarity", 1.0, 8.0, false, &l->lacunarity)) != ST_OK ||
            (rc = get_num(path, item, where, "persistence", 0.0, 1.0, false, &l->persistence)) != ST_OK ||
            (rc = get_int(path, item, where, "octaves", 1, 12, &l->octaves)) != ST_OK ||
            (rc = get_int(path, item, where, "seed", 0, 1000000000, &seed)) != ST_OK)
            goto done;
        int k = height_layer_kind_from_name(kind);
        if (k < 0) {
            rc = st_fail(ST_ERR_FORMAT, "%s: field '%s.kind': expected perlin, simplex, worley, fbm or ridged, got \"%s\"", path, where, kind);
            goto done;
        }
        l->kind = (HeightLayerKind)k;
        l->seed = (uint32_t)seed;
        const cJSON *warp = cJSON_GetObjectItemCaseSensitive(item, "warp");
        if (warp) {
            char ww[48];
            snprintf(ww, sizeof ww, "%s.warp", where);
            l->warp.octaves = 2;
            if (!cJSON_IsObject(warp)) { rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", path, ww); goto done; }
            if ((rc = parse_warp(path, warp, ww, &l->warp)) != ST_OK) goto done;
        }
        i++;
    }
    out->layer_count = i;
    if (warps) {
        if (!cJSON_IsArray(warps) || cJSON_GetArraySize(warps) > HEIGHT_RECIPE_MAX_WARPS) {
            rc = st_fail(ST_ERR_FORMAT, "%s: field 'warps': expected an array of at most %d warps", path, HEIGHT_RECIPE_MAX_WARPS);
            goto done;
        }
        i = 0;
        cJSON_ArrayForEach(item, warps) {
            char where[32];
            snprintf(where, sizeof where, "warps[%d]", i);
            out->warps[i].octaves = 2;
            if (!cJSON_IsObject(item)) { rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", path, where); goto done; }
            if ((rc = parse_warp(path, item, where, &out->warps[i])) != ST_OK) goto done;
            i++;
        }
        out->warp_count = i;
    }
    if ((rc = get_bool(path, root, "", "normalize", &out->normalize)) != ST_OK ||
        (rc = get_num(path, root, "", "bias", -1e6, 1e6, false, &out->bias)) != ST_OK ||
        (rc = get_num(path, root, "", "scale", -1e6, 1e6, false, &out->scale)) != ST_OK ||
        (rc = get_num(path, root, "", "offset", -1e6, 1e6, false, &out->offset)) != ST_OK)
        goto done;
    if (clamp) {
        if (!cJSON_IsArray(clamp) || cJSON_GetArraySize(clamp) != 2 || !cJSON_IsNumber(cJSON_GetArrayItem(clamp, 0)) ||
            !cJSON_IsNumber(cJSON_GetArrayItem(clamp, 1)) ||
            cJSON_GetArrayItem(clamp, 0)->valuedouble > cJSON_GetArrayItem(clamp, 1)->valuedouble) {
            rc = st_fail(ST_ERR_FORMAT, "%s: field 'clamp': expected [min, max] with min <= max", path);
            goto done;
        }
        out->clamp = true;
        out->clamp_min = (float)cJSON_GetArrayItem(clamp, 0)->valuedouble;
        out->clamp_max = (float)cJSON_GetArrayItem(clamp, 1)->valuedouble;
    }
    rc = ST_OK;
done:
    cJSON_Delete(root);
    return rc;
}

StResult height_recipe_load(const char *path, HeightRecipe *out)
{
    char *text = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK) return rc;
    rc = height_recipe_parse(path, text, out);
    free(text);
    return rc;
}

/* A float as the shortest decimal that reads back as the same float (0.01, not 0.00999999977648258). */
static double tidy(float f)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.7g", (double)f);
    return strtod(buf, NULL);
}

static cJSON *warp_to_json(const HeightWarp *w)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "frequency", tidy(w->frequency));
    cJSON_AddNumberToObject(o, "strength", tidy(w->strength));
    cJSON_AddNumberToObject(o, "octaves", w->octaves);
    cJSON_AddNumberToObject(o, "seed", w->seed);
    return o;
}

StResult height_recipe_to_json(const HeightRecipe *r, char **json)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", r->name);
    if (r->warp_count) {
        cJSON *warps = cJSON_AddArrayToObject(root, "warps");
        for (int i = 0; i < r->warp_count; i++) cJSON_AddItemToArray(warps, warp_to_json(&r->warps[i]));
    }
    cJSON *layers = cJSON_AddArrayToObject(root, "layers");
    for (int i = 0; i < r->layer_count; i++) {
        const HeightLayer *l = &r->layers[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", l->name);
        cJSON_AddStringToObject(o, "kind", height_layer_kind_name(l->kind));
        cJSON_AddNumberToObject(o, "frequency", tidy(l->frequency));
        cJSON_AddNumberToObject(o, "amplitude", tidy(l->amplitude));
        cJSON_AddNumberToObject(o, "octaves", l->octaves);
        cJSON_AddNumberToObject(o, "lacunarity", tidy(l->lacunarity));
        cJSON_AddNumberToObject(o, "persistence", tidy(l->persistence));
        cJSON_AddNumberToObject(o, "seed", l->seed);
        if (l->warp.strength > 0.0f) cJSON_AddItemToObject(o, "warp", warp_to_json(&l->warp));
        cJSON_AddItemToArray(layers, o);
    }
    cJSON_AddBoolToObject(root, "normalize", r->normalize);
    cJSON_AddNumberToObject(root, "bias", tidy(r->bias));
    cJSON_AddNumberToObject(root, "scale", tidy(r->scale));
    cJSON_AddNumberToObject(root, "offset", tidy(r->offset));
    if (r->clamp) {
        cJSON *c = cJSON_AddArrayToObject(root, "clamp");
        cJSON_AddItemToArray(c, cJSON_CreateNumber(tidy(r->clamp_min)));
        cJSON_AddItemToArray(c, cJSON_CreateNumber(tidy(r->clamp_max)));
    }
    *json = cJSON_Print(root);
    cJSON_Delete(root);
    if (!*json) return st_fail(ST_ERR_NOMEM, "recipe JSON: out of memory");
    return ST_OK;
}
