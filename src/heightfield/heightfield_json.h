/* heightfield_json.h — the heightfield module's typed JSON getters (cJSON directly, so this is the one header
 * to adapt if the config API changes), shared by heightfield_recipe_json.c and splat_json.c. Private to
 * src/heightfield. Each fails with "<file>: field '<where>.<key>': expected <what>"; a missing optional field
 * leaves *out as it was. */
#ifndef STRATA_HEIGHTFIELD_JSON_H
#define STRATA_HEIGHTFIELD_JSON_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/error.h"

static inline StResult get_num(const char *path, const cJSON *obj, const char *where, const char *key, double lo, double hi,
                        bool required, float *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required) return st_fail(ST_ERR_FORMAT, "%s: missing field '%s%s%s' (expected a number)", path, where, *where ? "." : "", key);
        return ST_OK;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi))
        return st_fail(ST_ERR_FORMAT, "%s: field '%s%s%s': expected a number in %g..%g", path, where, *where ? "." : "", key, lo, hi);
    *out = (float)v->valuedouble;
    return ST_OK;
}

static inline StResult get_int(const char *path, const cJSON *obj, const char *where, const char *key, int lo, int hi, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return ST_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi)
        return st_fail(ST_ERR_FORMAT, "%s: field '%s%s%s': expected an integer in %d..%d", path, where, *where ? "." : "", key, lo, hi);
    *out = (int)v->valuedouble;
    return ST_OK;
}

static inline StResult get_bool(const char *path, const cJSON *obj, const char *where, const char *key, bool *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return ST_OK;
    if (!cJSON_IsBool(v)) return st_fail(ST_ERR_FORMAT, "%s: field '%s%s%s': expected true or false", path, where, *where ? "." : "", key);
    *out = cJSON_IsTrue(v);
    return ST_OK;
}

static inline StResult get_str(const char *path, const cJSON *obj, const char *where, const char *key, char *out, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return ST_OK;
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= size)
        return st_fail(ST_ERR_FORMAT, "%s: field '%s%s%s': expected a string of at most %zu characters", path, where, *where ? "." : "",
                       key, size - 1);
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return ST_OK;
}

static inline StResult parse_root(const char *path, const char *json, cJSON **root)
{
    const char *end = NULL;
    *root = cJSON_ParseWithOpts(json, &end, 0);
    if (!*root) {
        int line = 1, col = 1;
        for (const char *p = json; end && p < end; p++) {
            if (*p == '\n') { line++; col = 1; } else col++;
        }
        return st_fail(ST_ERR_FORMAT, "%s: JSON syntax error at line %d, column %d", path, line, col);
    }
    if (!cJSON_IsObject(*root)) {
        cJSON_Delete(*root);
        return st_fail(ST_ERR_FORMAT, "%s: expected a JSON object at the top level", path);
    }
    return ST_OK;
}

#endif
