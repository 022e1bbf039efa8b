/* config.h — typed, validated reads of JSON data files (cJSON underneath).
 *
 * Every getter names the file and the field path in its error: 
 *   "assets/worldgen.json: field 'ores[2].count_base': expected a number in 0..64, got \"x\"".
 * A ConfigDoc owns the parsed tree; config_* getters take a cJSON node and a dotted path for messages.
 * Thread safety: a loaded doc is read-only; use from one thread at a time or copy values out. */
#ifndef STRATA_CONFIG_H
#define STRATA_CONFIG_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "strata/error.h"

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

/* Records the standard field error for checks the getters do not cover (an enum name, a cross-field
 * rule) and returns ST_ERR_FORMAT: with `got` NULL, "<file>: missing field '<where>.<key>' (expected
 * <expected>)"; otherwise "<file>: field '<where>.<key>': expected <expected>, got <json of got>".
 * `key` NULL names `where` itself. */
StResult config_fail_field(const ConfigDoc *doc, const char *where, const char *key, const char *expected,
                           const cJSON *got);

#endif
