/* config.c — typed, validated reads of JSON data files on top of cJSON.
 *
 * Design: a bad data file is user input, so every failure says which file, which field (a dotted path
 * such as "ores[2].count_base") and what was expected, and quotes what was found as compact JSON:
 *   "<file>: field '<where>.<key>': expected <what>, got <json>"
 *   "<file>: missing field '<where>.<key>' (expected <what>)"
 * Syntax errors turn cJSON's parse-end pointer into a line and column. Parsing requires the text to
 * end after the value (trailing garbage is an error). An explicit `null` is a wrong type, not a missing
 * field: only an absent key counts as missing, so `_opt` getters never silently ignore a typo'd value.
 * Keys are matched case-sensitively. */
#include "strata/config.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"

/* ---- load / parse ---- */

StResult config_parse(const char *path, const char *text, ConfigDoc *doc)
{
    if (!doc) return st_fail(ST_ERR_ARG, "config_parse: NULL doc");
    doc->root = NULL;
    snprintf(doc->path, sizeof doc->path, "%s", path ? path : "(text)");
    if (!text) return st_fail(ST_ERR_ARG, "%s: no text to parse", doc->path);

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        if (!end) return st_fail(ST_ERR_NOMEM, "%s: out of memory while parsing JSON", doc->path);
        int line = 1, column = 1;
        for (const char *p = text; p < end && *p; p++) {
            if (*p == '\n') { line++; column = 1; }
            else column++;
        }
        /* A short excerpt of the text at the error, on one line. */
        char near[24];
        size_t n = 0;
        for (const char *p = end; *p && *p != '\n' && n + 1 < sizeof near; p++) near[n++] = *p;
        near[n] = 0;
        if (n == 0)
            return st_fail(ST_ERR_FORMAT, "%s: JSON syntax error at line %d, column %d (unexpected end)",
                           doc->path, line, column);
        return st_fail(ST_ERR_FORMAT, "%s: JSON syntax error at line %d, column %d near '%s'",
                       doc->path, line, column, near);
    }
    doc->root = root;
    return ST_OK;
}

StResult config_load(const char *path, ConfigDoc *doc)
{
    if (!doc) return st_fail(ST_ERR_ARG, "config_load: NULL doc");
    doc->root = NULL;
    char *text = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK) {
        snprintf(doc->path, sizeof doc->path, "%s", path ? path : "");
        return rc;
    }
    size_t text_length = strlen(text);
    if (text_length != size) {
        free(text);
        snprintf(doc->path, sizeof doc->path, "%s", path);
        return st_fail(ST_ERR_FORMAT, "%s: contains a NUL byte at offset %zu (expected JSON text)",
                       path, text_length);
    }
    rc = config_parse(path, text, doc);
    free(text);
    return rc;
}

void config_free(ConfigDoc *doc)
{
    if (!doc) return;
    cJSON_Delete(doc->root);
    doc->root = NULL;
}

/* ---- messages ---- */

/* "<where>.<key>", "<key>" at the root, "<where>" when key is NULL. */
static void field_path(const char *where, const char *key, char *out, size_t size)
{
    bool has_where = where && where[0];
    if (!key) snprintf(out, size, "%s", has_where ? where : "(root)");
    else if (has_where) snprintf(out, size, "%s.%s", where, key);
    else snprintf(out, size, "%s", key);
}

static const char *doc_path(const ConfigDoc *doc)
{
    return doc && doc->path[0] ? doc->path : "(config)";
}

StResult config_fail_field(const ConfigDoc *doc, const char *where, const char *key, const char *expected,
                           const cJSON *got)
{
    char field[256];
    field_path(where, key, field, sizeof field);
    if (!got) return st_fail(ST_ERR_FORMAT, "%s: missing field '%s' (expected %s)", doc_path(doc), field, expected);

    char *json = cJSON_PrintUnformatted(got);
    const char *shown = json ? json : "(unprintable)";
    size_t len = strlen(shown);
    StResult rc;
    if (len > 80)
        rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected %s, got %.77s...", doc_path(doc), field, expected, shown);
    else
        rc = st_fail(ST_ERR_FORMAT, "%s: field '%s': expected %s, got %s", doc_path(doc), field, expected, shown);
    cJSON_free(json);
    return rc;
}

/* ---- lookup ---- */

/* Finds obj[key]. Returns ST_OK with *item NULL when absent. Fails when obj is not an object. */
static StResult lookup(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                       const cJSON **item)
{
    *item = NULL;
    if (!key) return st_fail(ST_ERR_ARG, "%s: config getter called with a NULL key", doc_path(doc));
    if (!cJSON_IsObject(obj)) {
        if (!obj) {
            char field[256];
            field_path(where, NULL, field, sizeof field);
            return st_fail(ST_ERR_FORMAT, "%s: missing object '%s' (looking for '%s')", doc_path(doc), field, key);
        }
        return config_fail_field(doc, where, NULL, "an object", obj);
    }
    *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return ST_OK;
}

/* ---- numbers ---- */

static StResult get_number(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           double min, double max, double *out, bool required)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    char what[96];
    snprintf(what, sizeof what, "a number in %.15g..%.15g", min, max);
    if (!item) return required ? config_fail_field(doc, where, key, what, NULL) : ST_OK;
    if (!cJSON_IsNumber(item)) return config_fail_field(doc, where, key, what, item);
    double v = item->valuedouble;
    if (!(v >= min && v <= max)) return config_fail_field(doc, where, key, what, item);
    if (out) *out = v;
    return ST_OK;
}

StResult config_get_number(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           double min, double max, double *out)
{
    return get_number(doc, obj, where, key, min, max, out, true);
}

StResult config_get_number_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                               double min, double max, double *out)
{
    return get_number(doc, obj, where, key, min, max, out, false);
}

static StResult get_int(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                        long min, long max, long *out, bool required)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    char what[96];
    snprintf(what, sizeof what, "an integer in %ld..%ld", min, max);
    if (!item) return required ? config_fail_field(doc, where, key, what, NULL) : ST_OK;
    if (!cJSON_IsNumber(item)) return config_fail_field(doc, where, key, what, item);
    double v = item->valuedouble;
    /* Range check on the double first: a huge value must not overflow the conversion to long. */
    if (!(v >= (double)min && v <= (double)max) || floor(v) != v || v >= 9223372036854775808.0 ||
        v < -9223372036854775808.0)
        return config_fail_field(doc, where, key, what, item);
    long l = (long)v;
    if (l < min || l > max) return config_fail_field(doc, where, key, what, item);
    if (out) *out = l;
    return ST_OK;
}

StResult config_get_int(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                        long min, long max, long *out)
{
    return get_int(doc, obj, where, key, min, max, out, true);
}

StResult config_get_int_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                            long min, long max, long *out)
{
    return get_int(doc, obj, where, key, min, max, out, false);
}

/* ---- booleans and strings ---- */

StResult config_get_bool_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, bool *out)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    if (!item) return ST_OK;
    if (!cJSON_IsBool(item)) return config_fail_field(doc, where, key, "true or false", item);
    if (out) *out = cJSON_IsTrue(item);
    return ST_OK;
}

static StResult get_string(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           char *out, size_t size, bool required)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    char what[64];
    if (size > 0) snprintf(what, sizeof what, "a string of at most %zu bytes", size - 1);
    else snprintf(what, sizeof what, "a string");
    if (!item) return required ? config_fail_field(doc, where, key, what, NULL) : ST_OK;
    if (!cJSON_IsString(item) || !item->valuestring) return config_fail_field(doc, where, key, what, item);
    size_t len = strlen(item->valuestring);
    if (!out || len >= size) return config_fail_field(doc, where, key, what, item);
    memcpy(out, item->valuestring, len + 1);
    return ST_OK;
}

StResult config_get_string(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           char *out, size_t size)
{
    return get_string(doc, obj, where, key, out, size, true);
}

StResult config_get_string_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                               char *out, size_t size)
{
    return get_string(doc, obj, where, key, out, size, false);
}

/* ---- containers ---- */

StResult config_get_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, const cJSON **out)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    if (!item || !cJSON_IsArray(item)) return config_fail_field(doc, where, key, "an array", item);
    if (out) *out = item;
    return ST_OK;
}

StResult config_get_object(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, const cJSON **out)
{
    const cJSON *item;
    StResult rc = lookup(doc, obj, where, key, &item);
    if (rc != ST_OK) return rc;
    if (!item || !cJSON_IsObject(item)) return config_fail_field(doc, where, key, "an object", item);
    if (out) *out = item;
    return ST_OK;
}

/* ---- arrays of numbers ---- */

static void array_expected(char *out, size_t size, int min_count, int max_count, const char *what, double min, double max)
{
    if (min_count == max_count)
        snprintf(out, size, "an array of %d %s in %.15g..%.15g", min_count, what, min, max);
    else
        snprintf(out, size, "an array of %d..%d %s in %.15g..%.15g", min_count, max_count, what, min, max);
}

/* Checks obj[key] against the count and range; fills values (double) and *n. *n = -1 when absent. */
static StResult get_array_values(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                 int min_count, int max_count, double min, double max, bool integers, bool required,
                                 double *values, int *n)
{
    const cJSON *array;
    *n = -1;
    StResult rc = lookup(doc, obj, where, key, &array);
    if (rc != ST_OK) return rc;
    char what[128];
    array_expected(what, sizeof what, min_count, max_count, integers ? "integers" : "numbers", min, max);
    if (!array) return required ? config_fail_field(doc, where, key, what, NULL) : ST_OK;
    int size = cJSON_IsArray(array) ? cJSON_GetArraySize(array) : -1;
    if (size < min_count || size > max_count) return config_fail_field(doc, where, key, what, array);
    for (int i = 0; i < size; i++) {
        const cJSON *item = cJSON_GetArrayItem(array, i);
        double v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
        if (!(v >= min && v <= max) || (integers && floor(v) != v)) return config_fail_field(doc, where, key, what, array);
        values[i] = v;
    }
    *n = size;
    return ST_OK;
}

static StResult get_number_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                 int min_count, int max_count, double min, double max, double *out, int *count,
                                 bool required)
{
    if (min_count < 0 || max_count < min_count || !out)
        return st_fail(ST_ERR_ARG, "%s: config array getter called with bad bounds", doc_path(doc));
    int n;
    StResult rc = get_array_values(doc, obj, where, key, min_count, max_count, min, max, false, required, out, &n);
    if (rc == ST_OK && n >= 0 && count) *count = n;
    return rc;
}

StResult config_get_number_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                 int min_count, int max_count, double min, double max, double *out, int *count)
{
    return get_number_array(doc, obj, where, key, min_count, max_count, min, max, out, count, true);
}

StResult config_get_number_array_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                     int min_count, int max_count, double min, double max, double *out, int *count)
{
    /* values land in a scratch copy first so a bad array leaves `out` as it was */
    if (min_count < 0 || max_count < min_count || max_count > 64 || !out)
        return st_fail(ST_ERR_ARG, "%s: config array getter called with bad bounds", doc_path(doc));
    double values[64];
    int n;
    StResult rc = get_array_values(doc, obj, where, key, min_count, max_count, min, max, false, false, values, &n);
    if (rc != ST_OK || n < 0) return rc;
    memcpy(out, values, (size_t)n * sizeof *out);
    if (count) *count = n;
    return ST_OK;
}

StResult config_get_int_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                              int min_count, int max_count, long min, long max, int *out, int *count)
{
    if (min_count < 0 || max_count < min_count || max_count > 64 || !out || min < -2147483647L || max > 2147483647L)
        return st_fail(ST_ERR_ARG, "%s: config array getter called with bad bounds", doc_path(doc));
    double values[64];
    int n;
    StResult rc = get_array_values(doc, obj, where, key, min_count, max_count, (double)min, (double)max, true, true,
                                   values, &n);
    if (rc != ST_OK) return rc;
    for (int i = 0; i < n; i++) out[i] = (int)values[i];
    if (count) *count = n;
    return ST_OK;
}

const cJSON *config_get_item(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) && key ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

/* ---- builders ---- */

bool config_add_number(cJSON *obj, const char *key, double value)
{
    return cJSON_AddNumberToObject(obj, key, value) != NULL;
}

bool config_add_string(cJSON *obj, const char *key, const char *value)
{
    return cJSON_AddStringToObject(obj, key, value) != NULL;
}

bool config_add_number_array(cJSON *obj, const char *key, const double *values, int count)
{
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < count; i++) {
        cJSON *n = cJSON_CreateNumber(values[i]);
        if (!n || !cJSON_AddItemToArray(array, n)) {
            cJSON_Delete(n);
            cJSON_Delete(array);
            return false;
        }
    }
    if (!array) return false;
    if (!cJSON_AddItemToObject(obj, key, array)) {
        cJSON_Delete(array);
        return false;
    }
    return true;
}
