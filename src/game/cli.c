/* cli.c — command line parsing for the game.
 *
 * Design: a table of flags (flags.h: switch, integer with a range, number, text), parsed by the shared
 * table-driven parser, which accepts "--flag value" and "--flag=value" and names the flag, what was
 * expected and what was given in every failure, so main() can print it after a short usage hint and exit 2 before
 * any window opens. --seed is the world settings table's (world_settings.h). Cross-flag rules (--no-save
 * excludes --new and --autosave; --fullscreen excludes --windowed) are checked after the loop. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "settings.h"
#include "strata/error.h"
#include "strata/flags.h"
#include "strata/world_settings.h"

typedef enum CliFlag {
    CLI_FLAG_SEED, CLI_FLAG_VIEW_DISTANCE, CLI_FLAG_FLAT, CLI_FLAG_WIDTH, CLI_FLAG_HEIGHT, CLI_FLAG_FRAMES,
    CLI_FLAG_SCREENSHOT, CLI_FLAG_SCRIPT, CLI_FLAG_FLY, CLI_FLAG_ASSETS, CLI_FLAG_WORLD, CLI_FLAG_NEW, CLI_FLAG_NO_SAVE,
    CLI_FLAG_AUTOSAVE, CLI_FLAG_BRIGHTNESS, CLI_FLAG_SEASON, CLI_FLAG_FOV, CLI_FLAG_GUI_SCALE, CLI_FLAG_VOLUME,
    CLI_FLAG_MUTE, CLI_FLAG_FULLSCREEN, CLI_FLAG_WINDOWED, CLI_FLAG_HISTORY_MB, CLI_FLAG_FAR_DISTANCE, CLI_FLAG_HELP,
    CLI_FLAG_VERSION, CLI_FLAG_THREADS, CLI_FLAG_BENCH_FLIGHT, CLI_FLAG_BENCH_FRAMES, CLI_FLAG_BENCH_SECONDS, CLI_FLAG_JSON,
    CLI_FLAG_WORLD_SETTING   /* + index in WORLD_SETTINGS: the heightmap world's settings */
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
    {"--screenshot", FLAG_TEXT, 0, 0, "PATH", "write the last frame before quitting as PNG (with --frames: once the\n"
     "                          world is ready)", CLI_FLAG_SCREENSHOT},
    {"--script", FLAG_TEXT, 0, 0, "FILE", "play a script of commands (see below)", CLI_FLAG_SCRIPT},
    {"--far-distance", FLAG_INT, 0, CLI_FAR_DISTANCE_MAX, "BLOCKS",
     "far terrain beyond the voxel chunks up to BLOCKS away, 0 = off (default 2048)", CLI_FLAG_FAR_DISTANCE},
    {"--fly", FLAG_SWITCH, 0, 0, NULL, "start flying", CLI_FLAG_FLY},
    {"--assets", FLAG_TEXT, 0, 0, "DIR", "assets folder (blocks.json, worldgen.json, textures/)", CLI_FLAG_ASSETS},
    {"--world", FLAG_TEXT, 0, 0, "DIR", "world folder to load and save (a bare name lives in the worlds folder);\n"
     "                          default: seed-S (seed-S-flat) in the worlds folder", CLI_FLAG_WORLD},
    {"--new", FLAG_SWITCH, 0, 0, NULL, "create the world folder; refuse one that exists", CLI_FLAG_NEW},
    {"--no-save", FLAG_SWITCH, 0, 0, NULL, "nothing is written: a throwaway world, or with --world a world opened read-only", CLI_FLAG_NO_SAVE},
    {"--autosave", FLAG_INT, 0, CLI_AUTOSAVE_MAX, "SECONDS", "save modified chunks every SECONDS (0 = off, default 60)",
     CLI_FLAG_AUTOSAVE},
    {"--brightness", FLAG_NUMBER, 0, 1, "B", "brightness 0..1: lifts the darkest light levels (default 0.5)",
     CLI_FLAG_BRIGHTNESS},
    {"--season", FLAG_TEXT, 0, 0, "NAME", "spring, summer, autumn or winter: grass, leaf and water tints\n"
     "                          (default summer)", CLI_FLAG_SEASON},
    {"--fov", FLAG_INT, 50, 110, "DEG", "vertical field of view in degrees, 50..110 (default: settings, 75)",
     CLI_FLAG_FOV},
    {"--gui-scale", FLAG_INT, 0, 4, "N", "size of menus and the hotbar, 1..4, 0 = from the window height",
     CLI_FLAG_GUI_SCALE},
    {"--volume", FLAG_NUMBER, 0, 1, "V", "sound volume 0..1 (default: settings, 0.8)", CLI_FLAG_VOLUME},
    {"--mute", FLAG_SWITCH, 0, 0, NULL, "no sound this run", CLI_FLAG_MUTE},
    {"--fullscreen", FLAG_SWITCH, 0, 0, NULL, "fullscreen this run", CLI_FLAG_FULLSCREEN},
    {"--windowed", FLAG_SWITCH, 0, 0, NULL, "in a window this run", CLI_FLAG_WINDOWED},
    {"--threads", FLAG_INT, 1, CLI_THREADS_MAX, "N", "threads that generate, light and mesh chunks (default: the\n"
     "                          settings' \"threads\", else one a core)", CLI_FLAG_THREADS},
    {"--history-mb", FLAG_INT, 1, CLI_HISTORY_MB_MAX, "MB", "memory for undo/redo; the oldest actions are dropped\n"
     "                          past it (default 64)", CLI_FLAG_HISTORY_MB},
    {"--bench-flight", FLAG_SWITCH, 0, 0, NULL, "benchmark: fly a fixed path at 20 blocks/s (seed 1 unless --seed,\n"
     "                          30 s) and report frame times, CPU, draw calls, backlog and holes", CLI_FLAG_BENCH_FLIGHT},
    {"--bench-frames", FLAG_SWITCH, 0, 0, NULL, "benchmark: stand at the spawn (seed 42 unless --seed, 10 s) and\n"
     "                          report the frame rate", CLI_FLAG_BENCH_FRAMES},
    {"--bench-seconds", FLAG_INT, 1, CLI_BENCH_SECONDS_MAX, "S", "length of the benchmark's measured part",
     CLI_FLAG_BENCH_SECONDS},
    {"--json", FLAG_TEXT, 0, 0, "PATH", "the benchmark's report as JSON to PATH (- for stdout)", CLI_FLAG_JSON},
    {"--help", FLAG_HELP, 0, 0, NULL, "show this help", CLI_FLAG_HELP},
    {"--version", FLAG_VERSION, 0, 0, NULL, "show the version", CLI_FLAG_VERSION},
};
#define FLAG_COUNT ((int)(sizeof FLAGS / sizeof FLAGS[0]))
#define CLI_FLAG_MAX (FLAG_COUNT + 16)

/* The game's own flags come from its table, except that a world setting's row (--seed) comes from the world
 * settings table (only its help is the game's); the heightmap world's settings follow, from their table,
 * before --help and --version. Returns the count. */
static int cli_flags(FlagSpec out[CLI_FLAG_MAX])
{
    int n = 0;
    for (int i = 0; i < FLAG_COUNT; i++) {
        if (FLAGS[i].id == CLI_FLAG_HELP)
            for (int k = 0; k < WORLD_SETTING_COUNT && n < CLI_FLAG_MAX - 2; k++)
                if (WORLD_SETTINGS[k].flag && (WORLD_SETTINGS[k].only_in_mode == TERRAIN_MODE_HEIGHTMAP ||
                                               WORLD_SETTINGS[k].only_in_mode == TERRAIN_MODE_CONTINENT))
                    out[n++] = world_settings_flag_spec(&WORLD_SETTINGS[k], CLI_FLAG_WORLD_SETTING + k);
        out[n] = FLAGS[i];
        if (FLAGS[i].id == CLI_FLAG_SEED) {
            out[n] = world_settings_flag_spec(world_setting_find("seed"), CLI_FLAG_SEED);
            out[n].help = FLAGS[i].help;
        }
        n++;
    }
    return n;
}

void cli_options_default(CliOptions *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->view_distance = CLI_VIEW_DISTANCE_DEFAULT;
    opts->far_distance = CLI_FAR_DISTANCE_DEFAULT;
    opts->width = CLI_WIDTH_DEFAULT;
    opts->height = CLI_HEIGHT_DEFAULT;
    opts->autosave_seconds = CLI_AUTOSAVE_DEFAULT;
    opts->history_mb = CLI_HISTORY_MB_DEFAULT;
    opts->brightness = SETTINGS_BRIGHTNESS_DEFAULT;
    opts->season = SETTINGS_SEASON_DEFAULT;
    opts->gui_scale = -1;
    opts->volume = -1.0f;
    world_settings_default(&opts->world_settings);
}

/* A --seed of digits (and a leading minus) is a number: one that does not fit 64 bits is an error, not text
 * silently hashed. */
static StResult cli_check_numeric_seed(const char *text)
{
    const char *p = text[0] == '-' ? text + 1 : text;
    if (!*p) return ST_OK;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9') return ST_OK;
    errno = 0;
    char *end;
    if (text[0] == '-') (void)strtoll(text, &end, 10);
    else (void)strtoull(text, &end, 10);
    if (errno == ERANGE)
        return st_fail(ST_ERR_ARG, "--seed: %s does not fit a 64-bit seed (%s..%s); use a smaller number or a text",
                       text, "-9223372036854775808", "18446744073709551615");
    return ST_OK;
}

static StResult cli_apply(void *user, const FlagSpec *f, const FlagValue *value)
{
    CliOptions *opts = user;
    int v = (int)value->integer;
    switch ((CliFlag)f->id) {
    case CLI_FLAG_SEED: {
        StResult src = cli_check_numeric_seed(value->text);
        if (src != ST_OK) return src;
        WorldSettings settings;
        world_settings_default(&settings);
        StResult rc = world_settings_apply_flag(world_setting_find("seed"), value->text, &settings);
        if (rc != ST_OK) return rc;
        opts->seed = settings.seed;
        opts->seed_given = true;
        opts->seed_text = value->text;
        break;
    }
    case CLI_FLAG_VIEW_DISTANCE: opts->view_distance = v; opts->view_distance_given = true; break;
    case CLI_FLAG_FLAT: opts->flat = true; break;
    case CLI_FLAG_WIDTH: opts->width = v; break;
    case CLI_FLAG_HEIGHT: opts->height = v; break;
    case CLI_FLAG_FRAMES: opts->frames = value->integer; break;
    case CLI_FLAG_SCREENSHOT: opts->screenshot_path = value->text; break;
    case CLI_FLAG_SCRIPT: opts->script_path = value->text; break;
    case CLI_FLAG_FLY: opts->fly = true; break;
    case CLI_FLAG_FAR_DISTANCE: opts->far_distance = v; break;
    case CLI_FLAG_ASSETS: opts->asset_dir = value->text; break;
    case CLI_FLAG_WORLD: opts->world_dir = value->text; break;
    case CLI_FLAG_NEW: opts->new_world = true; break;
    case CLI_FLAG_NO_SAVE: opts->no_save = true; break;
    case CLI_FLAG_AUTOSAVE: opts->autosave_seconds = v; opts->autosave_given = true; break;
    case CLI_FLAG_BRIGHTNESS: opts->brightness = (float)value->number; opts->brightness_given = true; break;
    case CLI_FLAG_FOV: opts->fov = v; break;
    case CLI_FLAG_GUI_SCALE: opts->gui_scale = v; break;
    case CLI_FLAG_VOLUME: opts->volume = (float)value->number; break;
    case CLI_FLAG_MUTE: opts->mute = true; break;
    case CLI_FLAG_FULLSCREEN: opts->fullscreen = true; break;
    case CLI_FLAG_WINDOWED: opts->windowed = true; break;
    case CLI_FLAG_HISTORY_MB: opts->history_mb = v; break;
    case CLI_FLAG_THREADS: opts->threads = v; break;
    case CLI_FLAG_BENCH_FLIGHT: opts->bench = CLI_BENCH_FLIGHT; break;
    case CLI_FLAG_BENCH_FRAMES: opts->bench = CLI_BENCH_FRAMES; break;
    case CLI_FLAG_BENCH_SECONDS: opts->bench_seconds = v; break;
    case CLI_FLAG_JSON: opts->json_path = value->text; break;
    case CLI_FLAG_SEASON: {
        int season = settings_season_parse(value->text);
        if (season < 0)
            return st_fail(ST_ERR_ARG, "--season: expected %s, got '%s'", settings_season_choices(), value->text);
        opts->season = season;
        break;
    }
    case CLI_FLAG_HELP:
    case CLI_FLAG_VERSION: break;
    default:
        if (f->id >= CLI_FLAG_WORLD_SETTING && f->id < CLI_FLAG_WORLD_SETTING + WORLD_SETTING_COUNT) {
            StResult rc = world_settings_apply_flag(&WORLD_SETTINGS[f->id - CLI_FLAG_WORLD_SETTING], value->text,
                                                    &opts->world_settings);
            if (rc != ST_OK) return rc;
            if (WORLD_SETTINGS[f->id - CLI_FLAG_WORLD_SETTING].only_in_mode == TERRAIN_MODE_HEIGHTMAP)
                opts->world_settings_given = true;   /* --generator is a continent world's; checked below */
        }
        break;
    }
    return ST_OK;
}

CliStatus cli_parse(int argc, char *const argv[], CliOptions *opts)
{
    cli_options_default(opts);
    FlagSpec flags[CLI_FLAG_MAX];
    int count = cli_flags(flags);
    FlagsStatus status = flags_parse(flags, count, argc, argv, cli_apply, opts);
    if (status == FLAGS_ERROR) return CLI_ERROR;
    if (status == FLAGS_HELP) return CLI_HELP;
    if (status == FLAGS_VERSION) return CLI_VERSION;
    if (opts->fullscreen && opts->windowed) {
        st_fail(ST_ERR_ARG, "--fullscreen and --windowed exclude each other");
        return CLI_ERROR;
    }
    if (opts->no_save && (opts->new_world || opts->autosave_given)) {
        st_fail(ST_ERR_ARG, "--no-save cannot be combined with %s (nothing is written)",
                opts->new_world ? "--new" : "--autosave");
        return CLI_ERROR;
    }
    if (opts->world_settings_given && opts->world_settings.mode != TERRAIN_MODE_HEIGHTMAP) {
        st_fail(ST_ERR_ARG, "--height-range, --map-scale, --map-size, --biome-map and --splat-rules go with --heightmap FILE");
        return CLI_ERROR;
    }
    if (opts->flat && opts->world_settings_given) {
        st_fail(ST_ERR_ARG, "--flat cannot be combined with --heightmap");
        return CLI_ERROR;
    }
    if (opts->bench != CLI_BENCH_NONE) {
        /* a benchmark plays a throwaway world of its seed and drives itself */
        if (opts->world_dir || opts->script_path || opts->frames) {
            st_fail(ST_ERR_ARG, "--bench-flight and --bench-frames run alone: not with --world, --script or --frames");
            return CLI_ERROR;
        }
        if (!opts->seed_given) {
            opts->seed = opts->bench == CLI_BENCH_FLIGHT ? CLI_BENCH_FLIGHT_SEED : CLI_BENCH_FRAMES_SEED;
            opts->seed_given = true;
        }
        if (!opts->view_distance_given) {   /* the benchmarks' view distance, whatever the settings file says */
            opts->view_distance = CLI_VIEW_DISTANCE_DEFAULT;
            opts->view_distance_given = true;
        }
        if (opts->bench_seconds == 0)
            opts->bench_seconds = opts->bench == CLI_BENCH_FLIGHT ? CLI_BENCH_FLIGHT_SECONDS : CLI_BENCH_FRAMES_SECONDS;
        opts->no_save = true;
    } else if (opts->bench_seconds || opts->json_path) {
        st_fail(ST_ERR_ARG, "--bench-seconds and --json go with --bench-flight or --bench-frames");
        return CLI_ERROR;
    }
    bool layered = false;
    world_settings_generator_parse(opts->world_settings.generator, &layered);
    if (layered && (opts->flat || opts->world_settings.mode != TERRAIN_MODE_CONTINENT)) {
        st_fail(ST_ERR_ARG, "--generator layered makes a continent world: not with --flat, --mode or --heightmap");
        return CLI_ERROR;
    }
    return CLI_RUN;
}

int cli_exit_code(CliStatus status)
{
    return status == CLI_ERROR ? 2 : 0;
}

/* Every script command's usage from the script's own table (script.c), " | " between them, lines up to 110. */
static void cli_print_script_commands(FILE *out)
{
    int column = 0;
    for (int op = 0; op < SCRIPT_OP_COUNT; op++) {
        const char *usage = script_op_usage((ScriptOp)op);
        int len = (int)strlen(usage);
        if (column > 0 && column + 3 + len > 110) {
            fputc('\n', out);
            column = 0;
        }
        column += fprintf(out, "%s%s", column ? " | " : "  ", usage);
    }
    fputc('\n', out);
}

void cli_print_usage(FILE *out, const char *program)
{
    fprintf(out, "Usage: %s [flags]\n\nStrata %s, a voxel sandbox.\n\nFlags:\n", program ? program : "strata",
            STRATA_VERSION);
    FlagSpec flags[CLI_FLAG_MAX];
    int count = cli_flags(flags);
    flags_print_table(out, flags, count, 22);
    fputs("\nControls: WASD walk (double-tap W or Ctrl: sprint), mouse look, Space jump (flying: up),\n"
          "  Shift/C down (flying), F fly, left mouse dig, right mouse place (hold: repeat), middle mouse pick,\n"
          "  1-9 or wheel choose a hotbar slot, E block picker, Esc pause menu (settings, save and quit),\n  Tab next editing tool, [ ] or Ctrl+wheel tool radius, Ctrl+Z/Ctrl+Y undo/redo,\n"
          "  F2 screenshot, F3 HUD, F11 fullscreen, T time of day, B brightness, N season.\n"
          "\nScript commands (one a line, # comments):\n", out);
    cli_print_script_commands(out);
    fputs("\nExit codes: 0 ok, 1 start-up or runtime error, 2 bad flag, value or script.\n", out);
}

void cli_print_usage_hint(FILE *out, const char *program)
{
    fprintf(out, "Usage: %s [flags]   (%s --help lists the flags, controls and script commands)\n",
            program ? program : "strata", program ? program : "strata");
}

void cli_print_version(FILE *out)
{
    fprintf(out, "strata %s\n", STRATA_VERSION);
}
