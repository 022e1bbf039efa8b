/* app.h — the App: the game's parts side by side, each with one owner, and the frame loop that drives them.
 * main() creates one and passes it down; no globals.
 *
 * The parts (each in its own header, each app_*.c and part file takes only the parts it needs):
 *   world   session/world_session.h  the registry, generator, Terrain, worker, serializer, Editor,
 *                                    structures, clock and light, spawn hover, loading state
 *   player  player.h                 position, look, physics (strata_game_logic)
 *   tools   tools/game_tools.h       the hands: hotbar, target, editing tool, particles
 *   view    view/game_view.h         window, GL context, renderer, far terrain, fog, screenshots
 *   ui      ui/game_ui.h             the open screen, settings, the world files' notice
 *   audio   audio.h                  the sound device; input: input.h; script: script.h
 *   runner, probe, bench             script_run.h, bench/crosshair_probe.h, bench/game_bench.h
 * Only the files that drive the frame include this header: app.c (create, destroy, the loop), app_frame.c
 * (one frame's steps), script_run.c (the scripted player) and main.c.
 *
 * Lifetime: app_create (everything up to the first frame; the script must already be parsed), app_run
 * (the loop; returns the exit code), app_destroy (saves a world folder, joins the worker, frees; NULL ok).
 * Errors from app_create: ST_ERR_ARG for a bad script argument found against the registry (exit 2),
 * anything else is a start-up failure (exit 1); st_error_message() says what.
 * Threads: main thread only. */
#ifndef STRATA_GAME_APP_H
#define STRATA_GAME_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "audio.h"
#include "bench/crosshair_probe.h"
#include "bench/game_bench.h"
#include "cli.h"
#include "hud.h"
#include "input.h"
#include "player.h"
#include "script.h"
#include "script_run.h"
#include "session/world_session.h"
#include "tools/game_tools.h"
#include "ui/game_ui.h"
#include "view/game_view.h"

#define APP_PATH_MAX 1024
#define APP_MAX_STEPS_PER_FRAME 15   /* physics catch-up cap (a quarter second) */
#define APP_LOADING_FRAME_SECONDS (1.0 / 15.0) /* the loading screen's frames last at least this long: each
                                                * costs llvmpipe a full-window clear and swap, CPU the
                                                * chunks' threads want (app_wait_loading polls between) */
#define APP_LOADING_POLL_MS 4                  /* between loading frames: the world is polled this often */
#define APP_LOADING_UPLOAD_MS 24.0f            /* upload time a loading frame may spend */
#define APP_PROBE_FRAME_SECONDS (1.0 / 60.0)   /* dig_visible_within: a frame is at least a 60 Hz refresh */

typedef struct App {
    CliOptions opts;
    char asset_dir[APP_PATH_MAX];
    char shader_dir[APP_PATH_MAX];

    WorldSession world;
    Player player;
    GameTools tools;
    GameView view;
    GameUi ui;
    GameAudio audio;
    InputState input;
    Script script;
    ScriptRunner runner;
    CrosshairProbe probe;
    GameBench *bench;             /* NULL unless a benchmark runs */

    bool quit;
    int exit_code;
    long frame_index;
    double physics_accumulator;   /* real time not yet stepped by physics (app.c) */
    FpsMeter fps;
} App;

/* Takes ownership of *script (its commands; the caller's copy is emptied). */
StResult app_create(const CliOptions *opts, Script *script, App **out);
int app_run(App *app);
void app_destroy(App *app);

/* ---- app_frame.c: one frame's steps, and the changes that touch several parts ---- */

/* The scenes the parts act in, built from the App. */
ToolsScene app_tools_scene(App *app);
BenchScene app_bench_scene(App *app);
/* Opens a screen (the mouse is freed) or returns to play (the mouse is captured unless a script or --frames
 * drives the game). Opening the pause menu stops the clock and physics. */
void app_set_screen(App *app, UiScreen screen);
/* Changes a setting as the settings screen does: in effect and in the file (saved now), applied at once. */
void app_change_setting(App *app, UserSettingId id, double value);
/* Input: resize, screens, looking, toggles and the hands (dig, place, tools). */
void app_apply_input(App *app, double dt);
/* The clock, the exchange with the worker, the editor's frame, the autosave. */
void app_update_world(App *app, double dt);
/* The rest of a loading frame that began at `frame_start` (SDL performance counter) and lasts at least
 * `frame_seconds`: every APP_LOADING_POLL_MS the spawn, the exchange and the uploads, as a frame has them,
 * without a draw; it ends early once the world is ready. */
void app_wait_loading(App *app, uint64_t frame_start, double frame_seconds);
/* Target, HUD, the world (or the loading screen), the UI, the far terrain, screenshots, the probe. */
StResult app_draw_frame(App *app, double dt, HudInfo *hud);

#endif
