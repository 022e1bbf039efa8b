/* splat_json.c — auto-splat rules as JSON: parse and load (splat.h).
 *
 * Design: as heightfield_recipe_json.c: the typed getters of heightfield_json.h, each bad field named with its
 * file and path, unknown keys ignored. The rules' evaluation lives in splat.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"
#include "strata/splat.h"
#include "heightfield_json.h"

StResult splat_rules_parse(const char *path, const char *json, SplatRules *out)
{
    cJSON *root;
    StResult rc = parse_root(path, json, &root);
    if (rc != ST_OK) return rc;
    memset(out, 0, sizeof *out);
    out->relative = true;
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    char def[32] = "";
    if (!cJSON_IsArray(layers) || cJSON_GetArraySize(layers) < 1 || cJSON_GetArraySize(layers) > SPLAT_MAX_LAYERS) {
        rc = st_fail(ST_ERR_FORMAT, "%s: field 'layers': expected an array of 1..%d layer names", path, SPLAT_MAX_LAYERS);
        goto done;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, layers) {
        if (!cJSON_IsString(item) || strlen(item->valuestring) >= sizeof out->layer_names[0] || !item->valuestring[0]) {
            rc = st_fail(ST_ERR_FORMAT, "%s: field 'layers[%d]': expected a name of 1..31 characters", path, out->layer_count);
            goto done;
        }
        snprintf(out->layer_names[out->layer_count++], sizeof out->layer_names[0], "%s", item->valuestring);
    }
    if ((rc = get_str(path, root, "", "default", def, sizeof def)) != ST_OK || (rc = get_bool(path, root, "", "relative", &out->relative)) != ST_OK)
        goto done;
    out->default_layer = def[0] ? splat_rules_layer(out, def) : 0;
    if (out->default_layer < 0) { rc = st_fail(ST_ERR_FORMAT, "%s: field 'default': \"%s\" is not one of 'layers'", path, def); goto done; }
    if (rules && (!cJSON_IsArray(rules) || cJSON_GetArraySize(rules) > SPLAT_MAX_RULES)) {
        rc = st_fail(ST_ERR_FORMAT, "%s: field 'rules': expected an array of at most %d rules", path, SPLAT_MAX_RULES);
        goto done;
    }
    cJSON_ArrayForEach(item, rules) {
        char where[32], layer[32] = "";
        snprintf(where, sizeof where, "rules[%d]", out->rule_count);
        SplatRule *r = &out->rules[out->rule_count];
        *r = (SplatRule){.min_height = -INFINITY, .max_height = INFINITY, .min_slope = -INFINITY, .max_slope = INFINITY,
                         .height_blend = 0.0f, .slope_blend = 0.0f, .strength = 1.0f};
        if (!cJSON_IsObject(item)) { rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected an object", path, where); goto done; }
        if ((rc = get_str(path, item, where, "layer", layer, sizeof layer)) != ST_OK ||
            (rc = get_num(path, item, where, "min_height", -1e9, 1e9, false, &r->min_height)) != ST_OK ||
            (rc = get_num(path, item, where, "max_height", -1e9, 1e9, false, &r->max_height)) != ST_OK ||
            (rc = get_num(path, item, where, "min_slope", 0.0, 1e6, false, &r->min_slope)) != ST_OK ||
            (rc = get_num(path, item, where, "max_slope", 0.0, 1e6, false, &r->max_slope)) != ST_OK ||
            (rc = get_num(path, item, where, "height_blend", 0.0, 1e9, false, &r->height_blend)) != ST_OK ||
            (rc = get_num(path, item, where, "slope_blend", 0.0, 1e6, false, &r->slope_blend)) != ST_OK ||
            (rc = get_num(path, item, where, "strength", 0.0, 1.0, false, &r->strength)) != ST_OK)
            goto done;
        r->layer = splat_rules_layer(out, layer);
        if (r->layer < 0) { rc = st_fail(ST_ERR_FORMAT, "%s: field '%s.layer': \"%s\" is not one of 'layers'", path, where, layer); goto done; }
        out->rule_count++;
    }
    rc = ST_OK;
done:
    cJSON_Delete(root);
    return rc;
}

StResult splat_rules_load(const char *path, SplatRules *out)
{
    char *text = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK) return rc;
    rc = splat_rules_parse(path, text, out);
    free(text);
    return rc;
}
