/* user_settings.c — the settings table, validation, settings.json.
 *
 * Design: values are doubles in one array indexed by UserSettingId, so every rule (range, step, format) is a
 * row of USER_SETTINGS rather than code per field. The file is a flat JSON object of those names; unknown
 * keys are ignored (a newer game's settings load in an older one), a known key with a bad value fails the
 * whole file (reported, kept as .bad, replaced by the defaults) so a half-valid file never surprises. */
#include "user_settings.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/config.h"
#include "strata/fileio.h"

static const UserSettingSpec USER_SETTINGS[USER_SETTING_COUNT] = {
    {"view_distance", "View distance", USER_SETTING_INT, 2, 32, 1, 8},
    {"fov", "Field of view", USER_SETTING_INT, 50, 110, 5, 75},
    {"mouse_sensitivity", "Mouse sensitivity", USER_SETTING_NUMBER, 0.1, 4.0, 0.1, 1.0},
    {"invert_mouse", "Invert mouse", USER_SETTING_BOOL, 0, 1, 1, 0},
    {"brightness", "Brightness", USER_SETTING_NUMBER, 0.0, 1.0, 0.25, 0.5},
    {"fullscreen", "Fullscreen", USER_SETTING_BOOL, 0, 1, 1, 0},
    {"vsync", "VSync", USER_SETTING_BOOL, 0, 1, 1, 1},
    {"gui_scale", "GUI scale", USER_SETTING_INT, 0, 4, 1, 0},
    {"volume", "Sound volume", USER_SETTING_NUMBER, 0.0, 1.0, 0.1, 0.8},
    {"threads", "Worker threads", USER_SETTING_INT, 0, 64, 1, 0},
};

const UserSettingSpec *user_setting_spec(UserSettingId id)
{
    return (id >= 0 && id < USER_SETTING_COUNT) ? &USER_SETTINGS[id] : NULL;
}

int user_setting_find(const char *name)
{
    for (int i = 0; i < USER_SETTING_COUNT; i++)
        if (!strcmp(USER_SETTINGS[i].name, name)) return i;
    return -1;
}

void user_settings_default(UserSettings *s)
{
    for (int i = 0; i < USER_SETTING_COUNT; i++) s->values[i] = USER_SETTINGS[i].def;
}

void user_settings_set(UserSettings *s, UserSettingId id, double value)
{
    const UserSettingSpec *spec = user_setting_spec(id);
    if (!spec || !isfinite(value)) return;
    if (spec->kind == USER_SETTING_BOOL) value = value != 0.0 ? 1.0 : 0.0;
    if (spec->kind == USER_SETTING_INT) value = round(value);
    if (spec->kind == USER_SETTING_NUMBER) value = round(value * 1000.0) / 1000.0; /* no 0.30000000004 */
    s->values[id] = value < spec->min ? spec->min : value > spec->max ? spec->max : value;
}

void user_settings_step(UserSettings *s, UserSettingId id, int steps)
{
    const UserSettingSpec *spec = user_setting_spec(id);
    if (!spec) return;
    if (spec->kind == USER_SETTING_BOOL) {
        if (steps % 2) s->values[id] = s->values[id] != 0.0 ? 0.0 : 1.0;
        return;
    }
    user_settings_set(s, id, s->values[id] + spec->step * steps);
}

void user_settings_format(const UserSettings *s, UserSettingId id, char *out, size_t size)
{
    double v = s->values[id];
    switch (id) {
    case USER_SETTING_VIEW_DISTANCE: snprintf(out, size, "%d chunks", (int)v); break;
    case USER_SETTING_FOV: snprintf(out, size, "%d degrees", (int)v); break;
    case USER_SETTING_GUI_SCALE:
        if (v == 0.0) snprintf(out, size, "Auto");
        else snprintf(out, size, "%dx", (int)v);
        break;
    case USER_SETTING_VOLUME: snprintf(out, size, "%d%%", (int)lround(v * 100.0)); break;
    case USER_SETTING_THREADS:
        if (v == 0.0) snprintf(out, size, "Auto");
        else snprintf(out, size, "%d", (int)v);
        break;
    case USER_SETTING_BRIGHTNESS: snprintf(out, size, "%d%%", (int)lround(v * 100.0)); break;
    case USER_SETTING_MOUSE_SENSITIVITY: snprintf(out, size, "%.1fx", v); break;
    default: snprintf(out, size, "%s", v != 0.0 ? "On" : "Off"); break;
    }
}

StResult user_settings_path(char *out, size_t size)
{
    const char *config = getenv("XDG_CONFIG_HOME");
    if (config && config[0] == '/') {
        snprintf(out, size, "%s/strata/settings.json", config);
        return ST_OK;
    }
    const char *home = getenv("HOME");
    if (!home || !home[0]) return st_fail(ST_ERR_NOT_FOUND, "no settings folder: neither XDG_CONFIG_HOME nor HOME is set");
    snprintf(out, size, "%s/.config/strata/settings.json", home);
    return ST_OK;
}

static StResult user_settings_parse(const char *path, UserSettings *s)
{
    ConfigDoc doc;
    StResult rc = config_load(path, &doc);
    if (rc != ST_OK) return rc;
    if (!cJSON_IsObject(doc.root)) {
        rc = config_fail_field(&doc, "", NULL, "an object of settings", doc.root);
        config_free(&doc);
        return rc;
    }
    UserSettings loaded;
    user_settings_default(&loaded);
    for (int i = 0; i < USER_SETTING_COUNT && rc == ST_OK; i++) {
        const UserSettingSpec *spec = &USER_SETTINGS[i];
        if (spec->kind == USER_SETTING_BOOL) {
            bool b = spec->def != 0.0;
            rc = config_get_bool_opt(&doc, doc.root, "", spec->name, &b);
            loaded.values[i] = b ? 1.0 : 0.0;
        } else if (spec->kind == USER_SETTING_INT) {
            long v = (long)spec->def;
            rc = config_get_int_opt(&doc, doc.root, "", spec->name, (long)spec->min, (long)spec->max, &v);
            loaded.values[i] = (double)v;
        } else {
            rc = config_get_number_opt(&doc, doc.root, "", spec->name, spec->min, spec->max, &loaded.values[i]);
        }
    }
    config_free(&doc);
    if (rc == ST_OK) *s = loaded;
    return rc;
}

StResult user_settings_load(const char *path, UserSettings *s)
{
    user_settings_default(s);
    if (!fileio_exists(path)) return ST_OK;
    StResult rc = user_settings_parse(path, s);
    if (rc == ST_OK) return ST_OK;
    char reason[600];
    snprintf(reason, sizeof reason, "%s", st_error_message());
    user_settings_default(s);
    char bad[1100];
    snprintf(bad, sizeof bad, "%s.bad", path);
    bool kept = rename(path, bad) == 0;
    StResult wrote = user_settings_save(path, s);
    return st_fail(ST_ERR_FORMAT, "%s; the defaults are used%s%s%s", reason, kept ? " and the bad file is kept as " : "",
                   kept ? bad : "", wrote == ST_OK ? "" : " (the defaults could not be written)");
}

StResult user_settings_save(const char *path, const UserSettings *s)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        StResult rc = fileio_make_dirs(dir);
        if (rc != ST_OK) return rc;
    }
    cJSON *root = cJSON_CreateObject();
    bool ok = root != NULL;
    for (int i = 0; ok && i < USER_SETTING_COUNT; i++) {
        const UserSettingSpec *spec = &USER_SETTINGS[i];
        if (spec->kind == USER_SETTING_BOOL) ok = cJSON_AddBoolToObject(root, spec->name, s->values[i] != 0.0) != NULL;
        else ok = cJSON_AddNumberToObject(root, spec->name, s->values[i]) != NULL;
    }
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) return st_fail(ST_ERR_NOMEM, "%s: out of memory writing the settings", path);
    StResult rc = fileio_write_atomic(path, text, strlen(text));
    cJSON_free(text);
    return rc == ST_OK ? ST_OK : st_fail_context(rc, "saving the settings");
}
