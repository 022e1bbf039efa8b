/* cli.h — the game's command line: flags into a CliOptions, with messages that say what was wrong.
 *
 * Pure parsing (no SDL, no GL): part of the strata_game_logic library that the tests link.
 * cli_parse never prints and never exits; main() prints the usage and turns the status into an exit code
 * (0 for --help/--version, 2 for a bad flag or value). Strings in CliOptions point into argv.
 * Threads: any (st_fail's message is per thread). */
#ifndef STRATA_GAME_CLI_H
#define STRATA_GAME_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "strata/world_settings.h"

#define CLI_VIEW_DISTANCE_MIN 2
#define CLI_VIEW_DISTANCE_MAX 32
#define CLI_VIEW_DISTANCE_DEFAULT 8
#define CLI_FAR_DISTANCE_DEFAULT 2048   /* blocks: a player sees about 2 km */
#define CLI_FAR_DISTANCE_MAX 16384
#define CLI_WIDTH_DEFAULT 1280
#define CLI_HEIGHT_DEFAULT 720
#define CLI_SIZE_MIN 32
#define CLI_SIZE_MAX 16384
#define CLI_AUTOSAVE_DEFAULT 60
#define CLI_AUTOSAVE_MAX 86400
#define CLI_HISTORY_MB_DEFAULT 64
#define CLI_HISTORY_MB_MAX 4096
#define CLI_THREADS_MAX 64
#define CLI_BENCH_FLIGHT_SECONDS 30     /* --bench-flight: seconds of flight (--bench-seconds) */
#define CLI_BENCH_FRAMES_SECONDS 10     /* --bench-frames: seconds standing still */
#define CLI_BENCH_SECONDS_MAX 3600
#define CLI_BENCH_FLIGHT_SEED 1         /* the benchmark worlds, unless --seed says otherwise */
#define CLI_BENCH_FRAMES_SEED 42

typedef enum CliBench { CLI_BENCH_NONE = 0, CLI_BENCH_FLIGHT, CLI_BENCH_FRAMES } CliBench;

typedef enum CliStatus {
    CLI_RUN = 0,      /* start the game with these options */
    CLI_HELP,         /* --help: print the usage to stdout, exit 0 */
    CLI_VERSION,      /* --version: print the version, exit 0 */
    CLI_ERROR         /* bad flag or value: st_error_message() says what; usage to stderr, exit 2 */
} CliStatus;

typedef struct CliOptions {
    bool seed_given;
    uint64_t seed;                /* from world_seed_parse (an integer, or text hashed) */
    const char *seed_text;
    int view_distance;            /* chunks, CLI_VIEW_DISTANCE_MIN..MAX */
    int far_distance;             /* blocks of far terrain, 0 = off (CLI_FAR_DISTANCE_DEFAULT) */
    bool flat;
    int width, height;
    long frames;                  /* quit after this many frames; 0 = run until closed */
    const char *screenshot_path;  /* PNG of the last frame, or NULL */
    const char *script_path;      /* or NULL */
    bool fly;
    const char *asset_dir;        /* NULL = the default (resolved by the app) */
    const char *world_dir;        /* NULL = the default world of the seed (unless no_save) */
    bool new_world;               /* --new: refuse an existing world */
    bool no_save;                 /* --no-save: an unsaved session world */
    int autosave_seconds;         /* 0 = off */
    bool autosave_given;
    float brightness;             /* 0..1 (SETTINGS_BRIGHTNESS_DEFAULT) */
    int season;                   /* MESHER_SEASON_* (SETTINGS_SEASON_DEFAULT) */
    /* Given on the command line: these override the settings file for this run only. */
    bool view_distance_given, brightness_given;
    int fov;                      /* degrees; 0 = not given */
    int gui_scale;                /* 0 = auto; -1 = not given */
    float volume;                 /* 0..1; -1 = not given */
    bool mute;                    /* --mute: no sound this run */
    bool fullscreen, windowed;    /* --fullscreen / --windowed */
    int history_mb;               /* undo history bound, MiB (CLI_HISTORY_MB_DEFAULT) */
    int threads;                  /* --threads: update worker threads; 0: the setting, else the default */
    /* --heightmap and its companions (a new world's settings; the seed is above) */
    WorldSettings world_settings;
    bool world_settings_given;
    /* --bench-flight / --bench-frames (bench/game_bench.c): a throwaway world, measured frames, a report */
    CliBench bench;
    int bench_seconds;            /* 0 = the mode's default */
    const char *json_path;        /* --json: the report as JSON, or NULL (the summary goes to stdout) */
} CliOptions;

void cli_options_default(CliOptions *opts);

/* Parses argv[1..argc-1] ("--flag value" or "--flag=value"). On CLI_ERROR the reason is in
 * st_error_message(), naming the flag and what was expected. */
CliStatus cli_parse(int argc, char *const argv[], CliOptions *opts);

/* 0 for CLI_RUN/CLI_HELP/CLI_VERSION, 2 for CLI_ERROR. */
int cli_exit_code(CliStatus status);

void cli_print_usage(FILE *out, const char *program);
/* After a bad flag: two lines pointing at --help (the error itself is printed last, by main). */
void cli_print_usage_hint(FILE *out, const char *program);
void cli_print_version(FILE *out);

#endif
