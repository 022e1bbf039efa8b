/* config.h — typed, validated reads of JSON data files (cJSON underneath, not exposed).
 *
 * Every getter names the file and the field path in its error: 
 *   "assets/worldgen.json: field 'ores[2].count_base': expected a number in 0..64, got \"x\"".
 * A ConfigDoc owns the parsed tree; config_* getters take a cJSON node and a dotted path for messages.
 * cJSON stays behind this header: nodes are the opaque `struct cJSON` (forward-declared); only a file that
 * walks nodes itself includes <cjson/cJSON.h>. The config_add_* builders cover writing a small object.
 * Thread safety: a loaded doc is read-only; use from one thread at a time or copy values out. */
#ifndef STRATA_CONFIG_H
#define STRATA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/error.h"

/* A JSON node (cJSON's, opaque here). */
typedef struct cJSON cJSON;

typedef struct ConfigDoc {
    char path[512];   /* the file, for messages */
    cJSON *root;
} ConfigDoc;

/* Parses the file; a syntax error is ST_ERR_FORMAT naming the file, line and column. */
StResult config_load(const char *path, ConfigDoc *doc);
/* Parses text (path is only used in messages). */
StResult config_parse(const char *path, const char *text, ConfigDoc *doc);
void config_free(ConfigDoc *doc);

/* Field getters. `obj` is an object node, `where` its path for messages ("" at the root, "ores[2]").
 * Required variants fail if the field is missing; *_opt variants leave *out unchanged when missing. */
StResult config_get_number(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           double min, double max, double *out);
StResult config_get_number_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                               double min, double max, double *out);
StResult config_get_int(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                        long min, long max, long *out);
StResult config_get_int_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                            long min, long max, long *out);
StResult config_get_bool_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, bool *out);
/* Copies a string field into out (size bytes, must fit). */
StResult config_get_string(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                           char *out, size_t size);
StResult config_get_string_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                               char *out, size_t size);
/* The array / object field, or an error naming it if missing or of another type. */
StResult config_get_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, const cJSON **out);
StResult config_get_object(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, const cJSON **out);

/* Arrays of numbers: obj[key] must be an array of min_count..max_count numbers, each in min..max (integers
 * for the int variant); the values go to out[0..count-1] and *count (may be NULL) gets the count. A
 * failure names the file and field: "expected an array of 2 numbers in 1..10000000, got [1]". The _opt
 * variant leaves out and *count unchanged when the field is missing. */
StResult config_get_number_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                 int min_count, int max_count, double min, double max, double *out, int *count);
StResult config_get_number_array_opt(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                     int min_count, int max_count, double min, double max, double *out, int *count);
StResult config_get_int_array(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                              int min_count, int max_count, long min, long max, int *out, int *count);

/* obj[key] (case-sensitive) or NULL when absent or obj is not an object: for config_fail_field's `got`. */
const cJSON *config_get_item(const cJSON *obj, const char *key);

/* Builders for writing: each adds obj[key] and returns false when out of memory (nothing added). */
bool config_add_number(cJSON *obj, const char *key, double value);
bool config_add_string(cJSON *obj, const char *key, const char *value);
bool config_add_number_array(cJSON *obj, const char *key, const double *values, int count);

/* Records the standard field error for checks the getters do not cover (an enum name, a cross-field
 * rule) and returns ST_ERR_FORMAT: with `got` NULL, "<file>: missing field '<where>.<key>' (expected
 * <expected>)"; otherwise "<file>: field '<where>.<key>': expected <expected>, got <json of got>".
 * `key` NULL names `where` itself. */
StResult config_fail_field(const ConfigDoc *doc, const char *where, const char *key, const char *expected,
                           const cJSON *got);

#endif
