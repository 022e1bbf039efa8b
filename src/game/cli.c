/* cli.c — command line parsing for the game.
 *
 * Design: a table of flags, each with a kind (switch, integer with a range, text, seed); one loop walks
 * argv accepting "--flag value" and "--flag=value". Every failure is an st_fail message that names the
 * flag, what was expected and what was given, so main() can print it above the usage and exit 2 before
 * any window opens. Cross-flag rules (--new needs --world) are checked after the loop. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "strata/error.h"
#include "strata/generator.h"

typedef enum FlagKind {
    FLAG_SWITCH, FLAG_INT, FLAG_LONG, FLAG_UNIT, FLAG_TEXT, FLAG_SEED, FLAG_HELP, FLAG_VERSION
} FlagKind;

typedef struct FlagSpec {
    const char *name;
    FlagKind kind;
    long min, max;
    const char *value_name;
    const char *help;
} FlagSpec;

static const FlagSpec FLAGS[] = {
    {"--seed", FLAG_SEED, 0, 0, "S", "world seed: an integer, or any text (hashed); default: random"},
    {"--view-distance", FLAG_INT, CLI_VIEW_DISTANCE_MIN, CLI_VIEW_DISTANCE_MAX, "N",
     "voxel view distance in chunks, 2..32 (default 8)"},
    {"--flat", FLAG_SWITCH, 0, 0, NULL, "flat world instead of the standard generator"},
    {"--width", FLAG_INT, CLI_SIZE_MIN, CLI_SIZE_MAX, "W", "window width in pixels (default 1280)"},
    {"--height", FLAG_INT, CLI_SIZE_MIN, CLI_SIZE_MAX, "H", "window height in pixels (default 720)"},
    {"--frames", FLAG_LONG, 1, LONG_MAX, "N", "quit after N frames"},
    {"--screenshot", FLAG_TEXT, 0, 0, "PATH", "write the last frame before quitting as PNG"},
    {"--script", FLAG_TEXT, 0, 0, "FILE", "play a script of commands (see below)"},
    {"--fly", FLAG_SWITCH, 0, 0, NULL, "start flying"},
    {"--assets", FLAG_TEXT, 0, 0, "DIR", "assets folder (blocks.json, worldgen.json, textures/)"},
    {"--world", FLAG_TEXT, 0, 0, "DIR", "world folder to load and save (a bare name lives in the worlds folder);\n"
     "                          default: seed-S (seed-S-flat) in the worlds folder"},
    {"--new", FLAG_SWITCH, 0, 0, NULL, "create the world folder; refuse one that exists"},
    {"--no-save", FLAG_SWITCH, 0, 0, NULL, "play without a world folder: nothing is read or written"},
    {"--autosave", FLAG_INT, 0, CLI_AUTOSAVE_MAX, "SECONDS", "save modified chunks every SECONDS (0 = off, default 60)"},
    {"--brightness", FLAG_UNIT, 0, 0, "B", "brightness 0..1: lifts the darkest light levels (default 0.5)"},
    {"--season", FLAG_TEXT, 0, 0, "NAME", "spring, summer, autumn or winter: grass, leaf and water tints\n"
     "                          (default summer)"},
    {"--help", FLAG_HELP, 0, 0, NULL, "show this help"},
    {"--version", FLAG_VERSION, 0, 0, NULL, "show the version"},
};
#define FLAG_COUNT ((int)(sizeof FLAGS / sizeof FLAGS[0]))

void cli_options_default(CliOptions *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->view_distance = CLI_VIEW_DISTANCE_DEFAULT;
    opts->width = CLI_WIDTH_DEFAULT;
    opts->height = CLI_HEIGHT_DEFAULT;
    opts->autosave_seconds = CLI_AUTOSAVE_DEFAULT;
    opts->brightness = SETTINGS_BRIGHTNESS_DEFAULT;
    opts->season = SETTINGS_SEASON_DEFAULT;
}

static const FlagSpec *find_flag(const char *name, size_t len)
{
    for (int i = 0; i < FLAG_COUNT; i++)
        if (strlen(FLAGS[i].name) == len && strncmp(FLAGS[i].name, name, len) == 0) return &FLAGS[i];
    return NULL;
}

static StResult parse_long(const FlagSpec *f, const char *text, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == 0 || *end != 0 || errno == ERANGE || v < f->min || v > f->max) {
        if (f->max == LONG_MAX)
            return st_fail(ST_ERR_ARG, "%s: expected an integer >= %ld, got '%s'", f->name, f->min, text);
        return st_fail(ST_ERR_ARG, "%s: expected an integer in %ld..%ld, got '%s'", f->name, f->min, f->max, text);
    }
    *out = v;
    return ST_OK;
}

/* A number in 0..1 (the whole text, finite). */
static StResult parse_unit(const FlagSpec *f, const char *text, float *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (text[0] == 0 || *end != 0 || errno == ERANGE || !(v >= 0.0 && v <= 1.0))
        return st_fail(ST_ERR_ARG, "%s: expected a number in 0..1, got '%s'", f->name, text);
    *out = (float)v;
    return ST_OK;
}

static StResult apply_flag(const FlagSpec *f, const char *value, CliOptions *opts)
{
    const char *n = f->name;
    long v = 0;
    StResult rc;
    if (f->kind == FLAG_INT || f->kind == FLAG_LONG) {
        if ((rc = parse_long(f, value, &v)) != ST_OK) return rc;
    }
    float unit = 0.0f;
    if (f->kind == FLAG_UNIT && (rc = parse_unit(f, value, &unit)) != ST_OK) return rc;
    if (f->kind == FLAG_TEXT && value[0] == 0) return st_fail(ST_ERR_ARG, "%s: expected a %s, got an empty value", n, f->value_name);

    if (!strcmp(n, "--seed")) {
        uint64_t seed;
        if (world_seed_parse(value, &seed) != ST_OK)
            return st_fail(ST_ERR_ARG, "--seed: expected an integer or some text, got '%s'", value);
        opts->seed = seed;
        opts->seed_given = true;
        opts->seed_text = value;
    } else if (!strcmp(n, "--view-distance")) opts->view_distance = (int)v;
    else if (!strcmp(n, "--flat")) opts->flat = true;
    else if (!strcmp(n, "--width")) opts->width = (int)v;
    else if (!strcmp(n, "--height")) opts->height = (int)v;
    else if (!strcmp(n, "--frames")) opts->frames = v;
    else if (!strcmp(n, "--screenshot")) opts->screenshot_path = value;
    else if (!strcmp(n, "--script")) opts->script_path = value;
    else if (!strcmp(n, "--fly")) opts->fly = true;
    else if (!strcmp(n, "--assets")) opts->asset_dir = value;
    else if (!strcmp(n, "--world")) opts->world_dir = value;
    else if (!strcmp(n, "--new")) opts->new_world = true;
    else if (!strcmp(n, "--no-save")) opts->no_save = true;
    else if (!strcmp(n, "--autosave")) { opts->autosave_seconds = (int)v; opts->autosave_given = true; }
    else if (!strcmp(n, "--brightness")) opts->brightness = unit;
    else if (!strcmp(n, "--season")) {
        int season = settings_season_parse(value);
        if (season < 0)
            return st_fail(ST_ERR_ARG, "--season: expected %s, got '%s'", settings_season_choices(), value);
        opts->season = season;
    }
    return ST_OK;
}

CliStatus cli_parse(int argc, char *const argv[], CliOptions *opts)
{
    cli_options_default(opts);
    CliStatus early = CLI_RUN;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == 0) {
            st_fail(ST_ERR_ARG, "unexpected argument '%s' (flags start with --)", arg);
            return CLI_ERROR;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const FlagSpec *f = find_flag(arg, name_len);
        if (!f) {
            st_fail(ST_ERR_ARG, "unknown flag '%.*s'", (int)name_len, arg);
            return CLI_ERROR;
        }
        bool takes_value = f->kind == FLAG_INT || f->kind == FLAG_LONG || f->kind == FLAG_UNIT ||
                           f->kind == FLAG_TEXT || f->kind == FLAG_SEED;
        const char *value = NULL;
        if (takes_value) {
            if (eq) value = eq + 1;
            else if (i + 1 < argc) value = argv[++i];
            else {
                st_fail(ST_ERR_ARG, "%s: missing value (expected %s %s)", f->name, f->name, f->value_name);
                return CLI_ERROR;
            }
        } else if (eq) {
            st_fail(ST_ERR_ARG, "%s takes no value, got '%s'", f->name, eq + 1);
            return CLI_ERROR;
        }
        if (f->kind == FLAG_HELP) { if (early == CLI_RUN) early = CLI_HELP; continue; }
        if (f->kind == FLAG_VERSION) { if (early == CLI_RUN) early = CLI_VERSION; continue; }
        if (apply_flag(f, value, opts) != ST_OK) return CLI_ERROR;
    }
    if (early != CLI_RUN) return early;
    if (opts->no_save && (opts->world_dir || opts->new_world || opts->autosave_given)) {
        st_fail(ST_ERR_ARG, "--no-save cannot be combined with %s (an unsaved world has no folder)",
                opts->world_dir ? "--world" : opts->new_world ? "--new" : "--autosave");
        return CLI_ERROR;
    }
    return CLI_RUN;
}

int cli_exit_code(CliStatus status)
{
    return status == CLI_ERROR ? 2 : 0;
}

void cli_print_usage(FILE *out, const char *program)
{
    fprintf(out, "Usage: %s [flags]\n\nStrata %s, a voxel sandbox.\n\nFlags:\n", program ? program : "strata",
            STRATA_VERSION);
    for (int i = 0; i < FLAG_COUNT; i++) {
        char left[40];
        if (FLAGS[i].value_name) snprintf(left, sizeof left, "%s %s", FLAGS[i].name, FLAGS[i].value_name);
        else snprintf(left, sizeof left, "%s", FLAGS[i].name);
        fprintf(out, "  %-22s  %s\n", left, FLAGS[i].help);
    }
    fputs("\nControls: WASD walk, mouse look, Space jump (flying: up), Shift/C down (flying), F fly,\n"
          "  left mouse dig, right mouse place, 1-9 choose block, Esc free the mouse, F3 HUD, T time of day,\n"
          "  B brightness (0, 0.25, 0.5, 0.75, 1), N season.\n"
          "\nScript commands (one a line, # comments):\n"
          "  wait_ready | wait FRAMES | teleport X Y Z | look YAW PITCH | move FORWARD RIGHT UP FRAMES\n"
          "  jump | fly on|off | dig | place BLOCK | select BLOCK | screenshot PATH | time T | save | quit\n"
          "  brightness B | season spring|summer|autumn|winter | dig_visible_within FRAMES | hud on|off\n"
          "\nExit codes: 0 ok, 1 start-up or runtime error, 2 bad flag, value or script.\n", out);
}

void cli_print_version(FILE *out)
{
    fprintf(out, "strata %s\n", STRATA_VERSION);
}
