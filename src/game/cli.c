/* cli.c — command line parsing for the game.
 *
 * Design: a table of flags (flags.h: switch, integer with a range, number, text), parsed by the shared
 * table-driven parser, which accepts "--flag value" and "--flag=value" and names the flag, what was
 * expected and what was given in every failure, so main() can print it above the usage and exit 2 before
 * any window opens. --seed is the world settings table's (world_settings.h). Cross-flag rules (--no-save
 * excludes --world) are checked after the loop. */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "strata/error.h"
#include "strata/flags.h"
#include "strata/world_settings.h"

typedef enum CliFlag {
    CLI_FLAG_SEED, CLI_FLAG_VIEW_DISTANCE, CLI_FLAG_FLAT, CLI_FLAG_WIDTH, CLI_FLAG_HEIGHT, CLI_FLAG_FRAMES,
    CLI_FLAG_SCREENSHOT, CLI_FLAG_SCRIPT, CLI_FLAG_FLY, CLI_FLAG_ASSETS, CLI_FLAG_WORLD, CLI_FLAG_NEW, CLI_FLAG_NO_SAVE,
    CLI_FLAG_AUTOSAVE, CLI_FLAG_BRIGHTNESS, CLI_FLAG_SEASON, CLI_FLAG_HISTORY_MB, CLI_FLAG_HELP, CLI_FLAG_VERSION
} CliFlag;

/* The --seed row is replaced by the world settings table's spec (cli_flags); only its help is the game's. */
static const FlagSpec FLAGS[] = {
    {"--seed", FLAG_VALUE, 0, 0, "S", "world seed: an integer, or any text (hashed); default: random", CLI_FLAG_SEED},
    {"--view-distance", FLAG_INT, CLI_VIEW_DISTANCE_MIN, CLI_VIEW_DISTANCE_MAX, "N",
     "voxel view distance in chunks, 2..32 (default 8)", CLI_FLAG_VIEW_DISTANCE},
    {"--flat", FLAG_SWITCH, 0, 0, NULL, "flat world instead of the standard generator", CLI_FLAG_FLAT},
    {"--width", FLAG_INT, CLI_SIZE_MIN, CLI_SIZE_MAX, "W", "window width in pixels (default 1280)", CLI_FLAG_WIDTH},
    {"--height", FLAG_INT, CLI_SIZE_MIN, CLI_SIZE_MAX, "H", "window height in pixels (default 720)", CLI_FLAG_HEIGHT},
    {"--frames", FLAG_INT, 1, FLAG_NO_MAX, "N", "quit after N frames", CLI_FLAG_FRAMES},
    {"--screenshot", FLAG_TEXT, 0, 0, "PATH", "write the last frame before quitting as PNG", CLI_FLAG_SCREENSHOT},
    {"--script", FLAG_TEXT, 0, 0, "FILE", "play a script of commands (see below)", CLI_FLAG_SCRIPT},
    {"--fly", FLAG_SWITCH, 0, 0, NULL, "start flying", CLI_FLAG_FLY},
    {"--assets", FLAG_TEXT, 0, 0, "DIR", "assets folder (blocks.json, worldgen.json, textures/)", CLI_FLAG_ASSETS},
    {"--world", FLAG_TEXT, 0, 0, "DIR", "world folder to load and save (a bare name lives in the worlds folder);\n"
     "                          default: seed-S (seed-S-flat) in the worlds folder", CLI_FLAG_WORLD},
    {"--new", FLAG_SWITCH, 0, 0, NULL, "create the world folder; refuse one that exists", CLI_FLAG_NEW},
    {"--no-save", FLAG_SWITCH, 0, 0, NULL, "play without a world folder: nothing is read or written", CLI_FLAG_NO_SAVE},
    {"--autosave", FLAG_INT, 0, CLI_AUTOSAVE_MAX, "SECONDS", "save modified chunks every SECONDS (0 = off, default 60)",
     CLI_FLAG_AUTOSAVE},
    {"--brightness", FLAG_NUMBER, 0, 1, "B", "brightness 0..1: lifts the darkest light levels (default 0.5)",
     CLI_FLAG_BRIGHTNESS},
    {"--season", FLAG_TEXT, 0, 0, "NAME", "spring, summer, autumn or winter: grass, leaf and water tints\n"
     "                          (default summer)", CLI_FLAG_SEASON},
    {"--history-mb", FLAG_INT, 1, CLI_HISTORY_MB_MAX, "MB", "memory for undo/redo; the oldest actions are dropped\n"
     "                          past it (default 64)", CLI_FLAG_HISTORY_MB},
    {"--help", FLAG_HELP, 0, 0, NULL, "show this help", CLI_FLAG_HELP},
    {"--version", FLAG_VERSION, 0, 0, NULL, "show the version", CLI_FLAG_VERSION},
};
#define FLAG_COUNT ((int)(sizeof FLAGS / sizeof FLAGS[0]))

/* The game's flags with the world settings' rows filled in from their table. */
static void cli_flags(FlagSpec out[FLAG_COUNT])
{
    for (int i = 0; i < FLAG_COUNT; i++) {
        out[i] = FLAGS[i];
        if (FLAGS[i].id == CLI_FLAG_SEED) {
            out[i] = world_settings_flag_spec(world_setting_find("seed"), CLI_FLAG_SEED);
            out[i].help = FLAGS[i].help;
        }
    }
}

void cli_options_default(CliOptions *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->view_distance = CLI_VIEW_DISTANCE_DEFAULT;
    opts->width = CLI_WIDTH_DEFAULT;
    opts->height = CLI_HEIGHT_DEFAULT;
    opts->autosave_seconds = CLI_AUTOSAVE_DEFAULT;
    opts->history_mb = CLI_HISTORY_MB_DEFAULT;
    opts->brightness = SETTINGS_BRIGHTNESS_DEFAULT;
    opts->season = SETTINGS_SEASON_DEFAULT;
}

static StResult cli_apply(void *user, const FlagSpec *f, const FlagValue *value)
{
    CliOptions *opts = user;
    int v = (int)value->integer;
    switch ((CliFlag)f->id) {
    case CLI_FLAG_SEED: {
        WorldSettings settings;
        world_settings_default(&settings);
        StResult rc = world_settings_apply_flag(world_setting_find("seed"), value->text, &settings);
        if (rc != ST_OK) return rc;
        opts->seed = settings.seed;
        opts->seed_given = true;
        opts->seed_text = value->text;
        break;
    }
    case CLI_FLAG_VIEW_DISTANCE: opts->view_distance = v; break;
    case CLI_FLAG_FLAT: opts->flat = true; break;
    case CLI_FLAG_WIDTH: opts->width = v; break;
    case CLI_FLAG_HEIGHT: opts->height = v; break;
    case CLI_FLAG_FRAMES: opts->frames = value->integer; break;
    case CLI_FLAG_SCREENSHOT: opts->screenshot_path = value->text; break;
    case CLI_FLAG_SCRIPT: opts->script_path = value->text; break;
    case CLI_FLAG_FLY: opts->fly = true; break;
    case CLI_FLAG_ASSETS: opts->asset_dir = value->text; break;
    case CLI_FLAG_WORLD: opts->world_dir = value->text; break;
    case CLI_FLAG_NEW: opts->new_world = true; break;
    case CLI_FLAG_NO_SAVE: opts->no_save = true; break;
    case CLI_FLAG_AUTOSAVE: opts->autosave_seconds = v; opts->autosave_given = true; break;
    case CLI_FLAG_BRIGHTNESS: opts->brightness = (float)value->number; break;
    case CLI_FLAG_HISTORY_MB: opts->history_mb = v; break;
    case CLI_FLAG_SEASON: {
        int season = settings_season_parse(value->text);
        if (season < 0)
            return st_fail(ST_ERR_ARG, "--season: expected %s, got '%s'", settings_season_choices(), value->text);
        opts->season = season;
        break;
    }
    case CLI_FLAG_HELP:
    case CLI_FLAG_VERSION: break;
    }
    return ST_OK;
}

CliStatus cli_parse(int argc, char *const argv[], CliOptions *opts)
{
    cli_options_default(opts);
    FlagSpec flags[FLAG_COUNT];
    cli_flags(flags);
    FlagsStatus status = flags_parse(flags, FLAG_COUNT, argc, argv, cli_apply, opts);
    if (status == FLAGS_ERROR) return CLI_ERROR;
    if (status == FLAGS_HELP) return CLI_HELP;
    if (status == FLAGS_VERSION) return CLI_VERSION;
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
    FlagSpec flags[FLAG_COUNT];
    cli_flags(flags);
    flags_print_table(out, flags, FLAG_COUNT, 22);
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
