/* world_file.c — world.json: read with field-by-field validation, written atomically.
 *
 * Design: the seed is a u64, which a JSON number (a double) cannot hold exactly, so it is stored as decimal
 * text. Fields a newer build added may be missing from an older file: settings, player and time fall back to
 * their defaults, but a field that is present with a wrong type or range is an error naming the file and the
 * field (config.h). format_version is checked first so that a newer file is refused with ST_ERR_VERSION
 * before any of its fields are judged. Writing goes through fileio_write_atomic (temp, fsync, rename, fsync
 * folder): a crash leaves the old or the new world.json, never a torn one. */
#include "strata/world_file.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/config.h"
#include "strata/fileio.h"

static StResult world_file_path(const char *dir, char *out, size_t size)
{
    int n = snprintf(out, size, "%s/world.json", dir);
    if (n < 0 || (size_t)n >= size) return st_fail(ST_ERR_ARG, "world folder path too long: %s", dir);
    return ST_OK;
}

/* ---- load ---- */

static StResult world_parse_seed(const ConfigDoc *doc, const cJSON *root, uint64_t *seed)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "seed");
    const char *expected = "the seed as decimal text (\"0\"..\"18446744073709551615\")";
    if (!item) return config_fail_field(doc, "", "seed", expected, NULL);
    if (!cJSON_IsString(item) || !item->valuestring[0] || item->valuestring[0] == '-' || item->valuestring[0] == '+' ||
        item->valuestring[0] == ' ')
        return config_fail_field(doc, "", "seed", expected, item);
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(item->valuestring, &end, 10);
    if (errno != 0 || !end || *end != 0) return config_fail_field(doc, "", "seed", expected, item);
    *seed = (uint64_t)v;
    return ST_OK;
}

static StResult world_get_float(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key, double min,
                                double max, float *out)
{
    double v = *out;
    StResult rc = config_get_number_opt(doc, obj, where, key, min, max, &v);
    if (rc == ST_OK) *out = (float)v;
    return rc;
}

static StResult world_parse_settings(const ConfigDoc *doc, const cJSON *settings, WorldSettings *s)
{
    if (!cJSON_IsObject(settings)) return config_fail_field(doc, "", "settings", "an object", settings);
    return world_settings_read(doc, settings, "settings", s);
}

static StResult world_parse_player(const ConfigDoc *doc, const cJSON *player, WorldMeta *meta)
{
    StResult rc;
    if (!cJSON_IsObject(player)) return config_fail_field(doc, "", "player", "an object", player);
    if ((rc = config_get_number_array_opt(doc, player, "player", "position", 3, 3, -1e9, 1e9, meta->player_position, NULL)) !=
        ST_OK)
        return rc;
    if ((rc = world_get_float(doc, player, "player", "yaw", -1e6, 1e6, &meta->player_yaw)) != ST_OK) return rc;
    if ((rc = world_get_float(doc, player, "player", "pitch", -180.0, 180.0, &meta->player_pitch)) != ST_OK) return rc;
    return config_get_bool_opt(doc, player, "player", "flying", &meta->player_flying);
}

static StResult world_parse(const ConfigDoc *doc, WorldMeta *meta)
{
    const cJSON *root = doc->root;
    StResult rc;
    if (!cJSON_IsObject(root)) return config_fail_field(doc, "", NULL, "a JSON object", root);

    long version = 0;
    const cJSON *version_item = cJSON_GetObjectItemCaseSensitive(root, "format_version");
    if (cJSON_IsNumber(version_item) && version_item->valuedouble > WORLD_FORMAT_VERSION &&
        version_item->valuedouble == floor(version_item->valuedouble))
        return st_fail(ST_ERR_VERSION,
                       "%s: format version %.0f is newer than this build reads (%d); open this world with a newer Strata",
                       doc->path, version_item->valuedouble, WORLD_FORMAT_VERSION);
    if ((rc = config_get_int(doc, root, "", "format_version", 1, WORLD_FORMAT_VERSION, &version)) != ST_OK) return rc;
    meta->format_version = (int)version;

    world_settings_default(&meta->settings);
    if ((rc = world_parse_seed(doc, root, &meta->settings.seed)) != ST_OK) return rc;
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(root, "settings");
    if (settings && (rc = world_parse_settings(doc, settings, &meta->settings)) != ST_OK) return rc;

    const cJSON *generator = NULL;
    if ((rc = config_get_object(doc, root, "", "generator", &generator)) != ST_OK) return rc;
    if ((rc = config_get_string(doc, generator, "generator", "name", meta->generator_name, sizeof meta->generator_name)) != ST_OK)
        return rc;
    if (!meta->generator_name[0])
        return config_fail_field(doc, "generator", "name", "a generator name",
                                 cJSON_GetObjectItemCaseSensitive(generator, "name"));
    long generator_version = 1;
    if ((rc = config_get_int(doc, generator, "generator", "version", 0, INT_MAX, &generator_version)) != ST_OK) return rc;
    meta->generator_version = (int)generator_version;

    const cJSON *player = cJSON_GetObjectItemCaseSensitive(root, "player");
    if (player && (rc = world_parse_player(doc, player, meta)) != ST_OK) return rc;
    if ((rc = world_get_float(doc, root, "", "time_of_day", 0.0, 1.0, &meta->time_of_day)) != ST_OK) return rc;
    return config_get_number_opt(doc, root, "", "game_time", 0.0, 1e15, &meta->game_time);
}

/* Parses a loaded document (and frees it); *meta changes only on success. */
static StResult world_meta_parse_doc(ConfigDoc *doc_in, WorldMeta *meta)
{
    ConfigDoc doc = *doc_in;
    WorldMeta loaded;
    memset(&loaded, 0, sizeof loaded);
    loaded.time_of_day = 0.5f;
    StResult rc = world_parse(&doc, &loaded);
    config_free(&doc);
    if (rc == ST_OK) *meta = loaded;
    return rc;
}

StResult world_meta_load(const char *dir, WorldMeta *meta)
{
    char path[PATH_MAX];
    StResult rc = world_file_path(dir, path, sizeof path);
    if (rc != ST_OK) return rc;
    if (!fileio_exists(path)) return st_fail(ST_ERR_NOT_FOUND, "%s: no such file (not a world folder)", path);
    ConfigDoc doc;
    if ((rc = config_load(path, &doc)) != ST_OK) return rc;
    return world_meta_parse_doc(&doc, meta);
}

StResult world_meta_parse(const char *path, const char *text, WorldMeta *meta)
{
    ConfigDoc doc;
    StResult rc = config_parse(path, text, &doc);
    if (rc != ST_OK) return rc;
    return world_meta_parse_doc(&doc, meta);
}

/* ---- save ---- */

/* cJSON's Add* helpers return NULL on failure; `ok` collects that across a whole object. */
static cJSON *world_build(const WorldMeta *meta)
{
    const WorldSettings *s = &meta->settings;
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    ok &= cJSON_AddNumberToObject(root, "format_version", WORLD_FORMAT_VERSION) != NULL;
    ok &= cJSON_AddStringToObject(root, "seed", seed) != NULL;

    cJSON *settings = cJSON_AddObjectToObject(root, "settings");
    ok &= settings != NULL;
    if (settings) {
        ok &= world_settings_write(s, settings);
    }
    cJSON *generator = cJSON_AddObjectToObject(root, "generator");
    ok &= generator != NULL;
    if (generator) {
        ok &= cJSON_AddStringToObject(generator, "name", meta->generator_name) != NULL;
        ok &= cJSON_AddNumberToObject(generator, "version", meta->generator_version) != NULL;
    }
    cJSON *player = cJSON_AddObjectToObject(root, "player");
    ok &= player != NULL;
    if (player) {
        ok &= config_add_number_array(player, "position", meta->player_position, 3);
        ok &= cJSON_AddNumberToObject(player, "yaw", meta->player_yaw) != NULL;
        ok &= cJSON_AddNumberToObject(player, "pitch", meta->player_pitch) != NULL;
        ok &= cJSON_AddBoolToObject(player, "flying", meta->player_flying) != NULL;
    }
    ok &= cJSON_AddNumberToObject(root, "time_of_day", meta->time_of_day) != NULL;
    ok &= cJSON_AddNumberToObject(root, "game_time", meta->game_time) != NULL;
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

StResult world_meta_save(const char *dir, const WorldMeta *meta)
{
    char path[PATH_MAX];
    StResult rc = world_file_path(dir, path, sizeof path);
    if (rc != ST_OK) return rc;
    for (int i = 0; i < 3; i++)
        if (!isfinite(meta->player_position[i]))
            return st_fail(ST_ERR_ARG, "%s: player position %d is not a finite number", path, i);
    if (!isfinite(meta->player_yaw) || !isfinite(meta->player_pitch) || !isfinite(meta->time_of_day) ||
        !isfinite(meta->game_time))
        return st_fail(ST_ERR_ARG, "%s: player orientation or time is not a finite number", path);
    cJSON *root = world_build(meta);
    if (!root) return st_fail(ST_ERR_NOMEM, "%s: out of memory building JSON", path);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) return st_fail(ST_ERR_NOMEM, "%s: out of memory printing JSON", path);
    size_t len = strlen(text);
    char *file = malloc(len + 2);
    if (!file) {
        cJSON_free(text);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    }
    memcpy(file, text, len);
    file[len] = '\n';
    file[len + 1] = 0;
    cJSON_free(text);
    rc = fileio_write_atomic(path, file, len + 1);
    free(file);
    return rc;
}
