/* app.h — the App: one struct that owns the window, the GL context, the world, the renderer and the
 * player, and runs the frame loop. main() creates one and passes pointers down; no globals.
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
#include <SDL.h>

#include "cli.h"
#include "hud.h"
#include "input.h"
#include "player.h"
#include "script.h"
#include "world_session.h"
#include "strata/edit.h"
#include "strata/render.h"

#define APP_PATH_MAX 1024
#define APP_HOTBAR_SLOTS 9
#define APP_READY_FRAME_CAP 20000L   /* wait_ready gives up after this many frames */
#define APP_MAX_STEPS_PER_FRAME 15   /* physics catch-up cap (a quarter second) */
#define APP_SPAWN_SEARCH_RADIUS 12   /* blocks around the coarse spawn searched for open ground */
/* After the world is ready, wait_ready also waits until the fade-in of new chunks has finished (the
 * renderer says how long that takes: renderer_fade_in_seconds), plus this margin. */
#define APP_FADE_MARGIN_SECONDS 0.1
/* dig_visible_within keeps watching this many frames past its limit, to report how late the dig showed. */
#define APP_PROBE_EXTRA_FRAMES 600L
#define APP_PROBE_FRAME_SECONDS (1.0 / 60.0)   /* dig_visible_within: a frame is at least a 60 Hz refresh */

typedef struct ScriptRunner {
    bool active;                  /* a script is loaded and not finished */
    int pc;                       /* next command */
    long counter;                 /* frames spent in the current command */
    double ready_seconds;         /* wait_ready: render time the world has been ready for */
    bool settle;                  /* after dig/place: wait until the world is ready again */
    long settle_frames;
    int probe_phase;              /* dig_visible_within: 0 start, 1 reference read, 2 dug and watching */
    long probe_frame;             /* frames rendered since the frame of the dig (that one is 0) */
} ScriptRunner;

typedef enum FrameProbeRead { PROBE_READ_NONE = 0, PROBE_READ_REFERENCE, PROBE_READ_COMPARE } FrameProbeRead;

/* The crosshair box of the frame probe (frame_probe.h), read back after a frame's draw when asked. */
typedef struct FrameProbe {
    FrameProbeRead read;          /* what to do with this frame's box */
    bool hide_highlight;          /* no block outline while measuring: it moves as soon as the cell changes */
    int x, y, w, h;               /* the box, from the top-left */
    uint8_t *reference, *current; /* w * h RGBA each */
    bool changed;                 /* the last compared box differed notably from the reference */
    int differing;                /* pixels that differed in the last comparison */
} FrameProbe;

typedef struct App {
    CliOptions opts;
    char asset_dir[APP_PATH_MAX];
    char shader_dir[APP_PATH_MAX];

    SDL_Window *window;
    SDL_GLContext gl;
    bool sdl_ready;
    int drawable_w, drawable_h;
    Renderer *renderer;

    WorldSession world;
    Player player;
    bool pending_spawn;           /* hovering until the ground under the player is Valid */
    InputState input;
    Script script;
    ScriptRunner runner;

    float time_of_day;
    bool time_frozen;             /* a script set the time */
    float brightness;             /* 0..1, baked into the vertices by the worker's mesher */
    int season;                   /* MESHER_SEASON_* */
    FrameProbe probe;
    int sky_light;
    int hotbar[APP_HOTBAR_SLOTS];
    int selected_block;
    int selected_slot;            /* 1-based, 0 when the block is not on the hotbar */
    bool show_hud;

    bool has_target;
    RaycastHit target;

    bool quit;
    int exit_code;
    char screenshot_path[SCRIPT_TEXT_MAX]; /* requested for this frame by the script, "" if none */
    long frame_index;
    double physics_accumulator;
    double last_render_seconds;   /* frame_seconds handed to the last renderer_draw */
    double autosave_timer;
    double title_timer;
    FpsMeter fps;
    /* F3's memory line, sampled once a second (app.c): process RSS, chunk bytes and hot chunks */
    Uint32 memory_sampled_ms;
    double memory_rss_mb, memory_chunks_mb;
    int memory_hot_chunks;
} App;

/* Takes ownership of *script (its commands; the caller's copy is emptied). */
StResult app_create(const CliOptions *opts, Script *script, App **out);
int app_run(App *app);
void app_destroy(App *app);

/* true when the player stands on loaded ground and every chunk within the view distance is Valid with
 * its geometry uploaded. */
bool app_world_ready(App *app);

/* Look settings: remember the value, hand it to the update worker (which remeshes every chunk, nearest
 * first) and log it. */
void app_set_brightness(App *app, float brightness);
void app_set_season(App *app, int season);
/* Frees the probe's buffers and ends its effects (the highlight shows again). */
void app_probe_reset(App *app);
/* Asks the frame probe to read the crosshair box after this frame's draw (a reference or a comparison),
 * with the block outline hidden until app_probe_reset. */
void app_probe_request(App *app, FrameProbeRead read);

/* Copies the player and the time into world.meta (before saving world.json). */
void app_sync_meta(App *app);

/* app_control.c: what input and the script runner may change (the App is written nowhere else outside
 * app.c). The block under the crosshair; dig it; place a block onto its face (interact.h does the work). */
bool app_find_target(App *app, RaycastHit *hit);
bool app_dig(App *app);
bool app_place(App *app, int block);
void app_select_block(App *app, int block);
/* Moves the player's feet to (x, y, z), stopped, and ends the spawn hover. */
void app_teleport(App *app, double x, double y, double z);
/* Faces a direction (yaw wrapped to 0..360, pitch clamped to the camera's range). */
void app_look(App *app, float yaw_deg, float pitch_deg);
void app_set_flying(App *app, bool flying);
/* Sets the time of day (wrapped to 0..1) and freezes the clock there. */
void app_set_time(App *app, double time_of_day);
void app_set_hud(App *app, bool show);
/* The next drawn frame is written as PNG to `path` (copied). */
void app_request_screenshot(App *app, const char *path);
void app_request_quit(App *app);
/* Seconds wait_ready lets the fade-in of the last chunks take: the renderer's fade-in time plus a margin. */
double app_fade_in_seconds(const App *app);

/* script_run.c: runs the script's commands for this frame, adding movement to *input. Returns ST_OK, or
 * an error (wait_ready cap, a screenshot that could not be written) that ends the run with exit code 1. */
StResult script_runner_frame(App *app, PlayerInput *input);

#endif
