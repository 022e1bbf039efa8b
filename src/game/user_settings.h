/* user_settings.h — the player's settings file: $XDG_CONFIG_HOME/strata/settings.json (else
 * ~/.config/strata/settings.json).
 *
 * One table (USER_SETTING_*) gives each setting its name in the file, its kind, range, step on the settings
 * screen and default, so loading, validating, saving, the settings screen and `setting NAME VALUE` in scripts
 * agree. Loading validates every field: a file that does not parse or has a bad field is reported, kept as
 * settings.json.bad and replaced by the defaults; a missing file means the defaults (nothing is written until
 * a setting changes). Command-line flags override a setting for one run (the app keeps the file's values
 * apart). Pure (no SDL, no GL). Threads: main thread. */
#ifndef STRATA_GAME_USER_SETTINGS_H
#define STRATA_GAME_USER_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/error.h"

typedef enum UserSettingId {
    USER_SETTING_VIEW_DISTANCE = 0,
    USER_SETTING_FOV,
    USER_SETTING_MOUSE_SENSITIVITY,
    USER_SETTING_INVERT_MOUSE,
    USER_SETTING_BRIGHTNESS,
    USER_SETTING_FULLSCREEN,
    USER_SETTING_VSYNC,
    USER_SETTING_GUI_SCALE,
    USER_SETTING_VOLUME,
    USER_SETTING_THREADS,        /* threads that run the update worker's steps; 0: cores - 1 (next world) */
    USER_SETTING_COUNT
} UserSettingId;

typedef enum UserSettingKind { USER_SETTING_INT, USER_SETTING_NUMBER, USER_SETTING_BOOL } UserSettingKind;

typedef struct UserSettingSpec {
    const char *name;            /* the key in settings.json and in scripts: "view_distance" */
    const char *label;           /* on the settings screen: "View distance" */
    UserSettingKind kind;
    double min, max, step, def;  /* bools: 0..1 */
} UserSettingSpec;

typedef struct UserSettings {
    double values[USER_SETTING_COUNT];
} UserSettings;

const UserSettingSpec *user_setting_spec(UserSettingId id);
/* The id of a setting by its name, or -1. */
int user_setting_find(const char *name);
void user_settings_default(UserSettings *s);
/* Sets a value clamped to the setting's range (bools: nonzero = 1; ints rounded). */
void user_settings_set(UserSettings *s, UserSettingId id, double value);
/* Steps a value by `steps` of its step (bools toggle), clamped. */
void user_settings_step(UserSettings *s, UserSettingId id, int steps);
/* "8 chunks", "70", "on", "Auto" (gui_scale 0), "80%" (volume): the settings screen's text. */
void user_settings_format(const UserSettings *s, UserSettingId id, char *out, size_t size);

/* The settings file's path in out; ST_ERR_NOT_FOUND when neither XDG_CONFIG_HOME nor HOME is set. */
StResult user_settings_path(char *out, size_t size);
/* Loads `path`. A missing file: defaults, ST_OK, *status "defaults". A bad file: defaults, the file renamed
 * to PATH.bad and the defaults written in its place; returns ST_ERR_FORMAT with the reason (the caller
 * reports it). */
StResult user_settings_load(const char *path, UserSettings *s);
/* Writes `path` (its folder is created). */
StResult user_settings_save(const char *path, const UserSettings *s);

#endif
