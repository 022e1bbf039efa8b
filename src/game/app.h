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

#include "audio.h"
#include "biome_fog.h"
#include "cli.h"
#include "hotbar.h"
#include "hud.h"
#include "user_settings.h"
#include "input.h"
#include "particles.h"
#include "player.h"
#include "script.h"
#include "session/world_session.h"
#include "strata/edit.h"
#include "strata/far_terrain.h"
#include "strata/render.h"
#include "strata/serializer.h"
#include "strata/shapes.h"

#define APP_PATH_MAX 1024
#define APP_REPEAT_SECONDS 0.25      /* a held mouse button digs or places this often */
#define APP_READY_FRAME_CAP 20000L   /* wait_ready gives up after this many frames */
#define APP_MAX_STEPS_PER_FRAME 15   /* physics catch-up cap (a quarter second) */
#define APP_SPAWN_SEARCH_RADIUS 12   /* fallback: blocks around the coarse spawn searched for natural ground */
#define APP_SPAWN_PITCH_DEG -8.0f    /* a new world's first look: the view, a little down */
#define APP_LOADING_FRAME_SECONDS (1.0 / 60.0) /* the loading screen's frames last at least this long */
#define APP_LOADING_UPLOAD_MS 24.0f            /* upload time a loading frame may spend */
/* dig_visible_within keeps watching this many frames past its limit, to report how late the dig showed. */
#define APP_PROBE_EXTRA_FRAMES 600L
#define APP_PROBE_FRAME_SECONDS (1.0 / 60.0)   /* dig_visible_within: a frame is at least a 60 Hz refresh */

/* The tool under the player's hands (app_tools.c): Tab cycles, [ ] and the wheel set the radius. */
typedef enum AppTool {
    APP_TOOL_BLOCK = 0,                          /* dig and place single blocks */
    APP_TOOL_SHAPE_FIRST,                        /* one per ShapeKind: left paints, right carves */
    APP_TOOL_RAISE = APP_TOOL_SHAPE_FIRST + SHAPE_KIND_COUNT, /* left raises, right lowers */
    APP_TOOL_FLATTEN,                            /* to the targeted block's height */
    APP_TOOL_SMOOTH,
    APP_TOOL_PAINT,                              /* the selected block onto the surface */
    APP_TOOL_COUNT
} AppTool;
#define APP_TOOL_RADIUS_DEFAULT 4

typedef struct ScriptRunner {
    bool active;                  /* a script is loaded and not finished */
    int pc;                       /* next command */
    long counter;                 /* frames spent in the current command */
    bool settle;                  /* after dig/place: wait until the world is ready again */
    long settle_frames;
    int probe_phase;              /* dig_visible_within: 0 start, 1 reference read, 2 dug and watching */
    long probe_frame;             /* frames rendered since the frame of the dig (that one is 0) */
    long probe_ready_frame;       /* the first of them that began with the world ready (worker done), or -1 */
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

typedef enum AppScreen { APP_SCREEN_PLAY = 0, APP_SCREEN_PAUSE, APP_SCREEN_PICKER, APP_SCREEN_SETTINGS } AppScreen;

/* The loading screen (ui/loading.c). */
typedef struct AppLoading {
    bool active;                  /* no world drawn, no input, no physics, the clock stopped */
    Uint64 started;               /* performance counter when this loading began */
    double valid_seconds;         /* when every chunk was Valid (before the last uploads); -1 until then */
    int ready, needed;            /* chunks of the view square Valid and uploaded / all of them */
    char reason[32];              /* "launch", "teleport" */
} AppLoading;

typedef struct AppStructures AppStructures; /* app_structures.c: station manifest, runtime zones and stations */
typedef struct AppBench AppBench;           /* app_bench.c: --bench-flight / --bench-frames */

typedef struct App {
    CliOptions opts;
    char asset_dir[APP_PATH_MAX];
    char shader_dir[APP_PATH_MAX];

    SDL_Window *window;
    SDL_GLContext gl;
    bool sdl_ready;
    int drawable_w, drawable_h;
    Renderer *renderer;
    FarTerrain *far;              /* NULL when --far-distance 0 */
    int far_ring_chunks;          /* the view distance the far terrain's inner edge follows now */
    BiomeSet *biomes;             /* assets/biomes.json; NULL when the assets have none (plain fog) */
    BiomeFogEase fog;             /* the biome fog at the player, eased (biome_fog.h) */

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
    Hotbar hotbar;
    AppScreen screen;             /* what is in front of the world: nothing, the pause menu, picker, settings */
    double dig_repeat, place_repeat; /* seconds a held button has waited since its last dig / place */
    float pointer_scale;          /* framebuffer pixels per window pixel (HiDPI), for clicks */
    UserSettings settings;        /* in effect: the file's, with this run's flags on top */
    UserSettings settings_file;   /* as in settings.json: what the settings screen changes and saves */
    char settings_path[APP_PATH_MAX]; /* "" when there is no settings folder */
    GameAudio audio;
    bool show_hud;

    bool has_target;
    RaycastHit target;
    AppTool tool;
    int tool_radius;              /* 1..64 */
    ShapeVolume tool_volume;      /* the shape tool's compiled volume, cached */
    int tool_volume_key;          /* tool, radius and block it was compiled for (-1: none) */
    Particles particles;
    long history_dropped_seen;    /* the HUD says when the history drops old entries */
    double history_notice_seconds;
    /* What the world's files told (rolled-forward, damaged or unreadable chunks), shown on screen for a while:
     * the counters last seen, the sentence and its remaining time. */
    SerializerStats storage_seen;
    char storage_notice[256];
    double storage_notice_seconds;
    int edited_last[2];           /* the listener's last marked chunk */
    AppStructures *structures;
    AppBench *bench;              /* NULL unless a benchmark runs */

    AppLoading loading;
    bool first_load_done;
    Uint64 launch_counter;        /* app_create's first line: launch-to-ready counts from here */
    double startup_seconds;       /* launch until the window, renderer and worker were up */

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
/* app_world_ready, no loading screen up and no chunk still fading in: what wait_ready waits for. */
bool app_world_settled(App *app);

/* Look settings: remember the value, hand it to the update worker (which remeshes every chunk, nearest
 * first) and log it. */
void app_set_brightness(App *app, float brightness);
void app_set_season(App *app, int season);
/* Frees the probe's buffers and ends its effects (the highlight shows again). */
void app_probe_reset(App *app);
/* Asks the frame probe to read the crosshair box after this frame's draw (a reference or a comparison),
 * with the block outline hidden until app_probe_reset. */
void app_probe_request(App *app, FrameProbeRead read);

/* With a world folder: every modified chunk, world.json and the hotbar (hotbar.json). ST_OK without one. */
StResult app_save_world(App *app);
/* Copies the player and the time into world.meta (before saving world.json). */
void app_sync_meta(App *app);

/* app_control.c: what input and the script runner may change (the App is written nowhere else outside
 * app.c). The block under the crosshair; dig it; place a block onto its face (interact.h does the work). */
bool app_find_target(App *app, RaycastHit *hit);
bool app_dig(App *app);
bool app_place(App *app, int block);
/* Hotbar: the block into the hotbar (the slot that has it is selected, else the selected slot takes it);
 * set a slot (0..8); select a slot (0..8); pick the targeted block (middle click; false if none). */
void app_select_block(App *app, int block);
void app_set_hotbar(App *app, int slot, int block);
void app_select_slot(App *app, int slot);
bool app_pick(App *app);
/* Opens a screen (the mouse is freed) or returns to play (APP_SCREEN_PLAY: the mouse is captured unless
 * a script or --frames drives the game). Opening the pause menu stops the clock and physics. */
void app_set_screen(App *app, AppScreen screen);
/* Moves the player's feet to (x, y, z), stopped, and ends the spawn hover; a destination whose chunk is not
 * Valid yet (far away) brings up the loading screen. */
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
/* The block at a world cell, for main-thread looks at the world (the eye's medium, footsteps, the roof over
 * the player): BLOCK_AIR where the chunk's contents do not exist yet or y is outside 0..255. */
int app_block_at(const App *app, int x, int y, int z);
/* Whether a menu pauses the game (app.c). */
bool app_paused(const App *app);
/* app_sound.c: this frame's footsteps, splash and ambience. */
void app_update_sounds(App *app, double dt);
/* app_hud.c: the overlay's text for this frame; the medium around the eye (RENDER_MEDIUM_*). */
void app_fill_hud(App *app, HudInfo *hud);
/* Turns anything new in the serializer's counters (rolled-forward, damaged, unreadable chunks) into the
 * on-screen notice; app_fill_hud calls it once a second and the loading screen when the world is ready. */
void app_check_storage(App *app);
int app_eye_medium(const App *app, const double eye[3]);

/* ui/loading.c: the loading screen. begin: show it from this frame (no-op when it is up); update: count
 * the chunks ready and end it (fade-ins ended, the time logged) once app_world_ready; draw: compose it and
 * draw it with renderer_draw_loading (instead of the world). */
void app_loading_begin(App *app, const char *reason);
void app_loading_update(App *app);
void app_loading_draw(App *app, const RenderCamera *cam, const RenderFrame *frame);

/* Once a frame, before the far terrain's update: its inner edge follows a changed view distance, at once when
 * the view shrinks (the ring fills what the voxel chunks give up), once the world is ready when it grows (the
 * far patches stay until the new voxel chunks are there). */
void app_far_follow_view(App *app);
/* Changes a setting as the settings screen does: in effect and in the file (saved now), applied at once. */
void app_change_setting(App *app, UserSettingId id, double value);
/* F2: the next frame goes to the screenshots folder (beside the worlds folder) with a timestamped name. */
void app_screenshot_timestamped(App *app);

/* ui/screens.c: the hotbar, picker, pause menu and settings screen. queue: add this frame's UI quads
 * (before the draw); click: a left click at window pixel (x, y) on the open screen. */
void app_ui_queue(App *app);
void app_ui_click(App *app, int x, int y);

/* app_tools.c: the editing tools. Applies the current tool at the target (primary: left button); false when
 * nothing changed. */
bool app_apply_tool(App *app, bool primary);
void app_next_tool(App *app);
void app_set_tool_radius(App *app, int radius);
const char *app_tool_name(AppTool tool);
/* Per frame: editor bookkeeping after the exchange, behaviour ticks for dt, particle events. */
void app_edit_frame(App *app, double dt);
/* The wireframe box of what the tool would touch at the target; false when none. */
bool app_tool_preview(App *app, int min[3], int max[3]);
/* Undo / redo the last action (Ctrl+Z / Ctrl+Y, script undo / redo). */
bool app_undo(App *app);
bool app_redo(App *app);
/* Runs a script's editing command (brush, raise, flatten, smooth, paint, undo, redo, tick) at the target.
 * *changed: the world changed (the runner waits until it is ready again). */
StResult app_run_edit_command(App *app, const ScriptCommand *c, bool *changed);
/* Wires the editor's change listener to the renderer (marks edited chunks for urgent upload). */
void app_tools_init(App *app);

/* app_structures.c: loads the station manifest and resolves the script's station types (before the window);
 * frees. goto_structure teleports to the nearest structure of the command's type (ST_ERR_STATE "FILE:LINE: ..."
 * when there is none within range). app_place_station places station `type` at the crosshair as one undoable
 * action (false when nothing changed). app_station_examine: the examine text of the runtime station whose
 * block `cell` at (x, y, z) is, or NULL. */
StResult app_structures_init(App *app);
void app_structures_free(App *app);
StResult app_goto_structure(App *app, const ScriptCommand *c);
bool app_place_station(App *app, int type);
StResult app_run_station_command(App *app, const ScriptCommand *c, bool *changed);
const char *app_station_examine(const App *app, int x, int y, int z, int32_t cell);

/* app_bench.c: the benchmark modes. init: nothing without opts.bench (ST_ERR_NOMEM otherwise); before_frame
 * (after the script's place in the loop, before physics): waits for the world, then places the camera;
 * after_frame (after the swap): records the frame and quits when the time is up; report: the summary on
 * stdout and the JSON (--json), ST_ERR_STATE when no frame was measured, ST_ERR_IO when the file fails. */
StResult app_bench_init(App *app);
void app_bench_before_frame(App *app, double real_dt);
void app_bench_after_frame(App *app);
StResult app_bench_report(App *app);
void app_bench_free(App *app);

/* script_run.c: runs the script's commands for this frame, adding movement to *input. Returns ST_OK, or
 * an error (wait_ready cap, a screenshot that could not be written) that ends the run with exit code 1. */
StResult script_runner_frame(App *app, PlayerInput *input);

#endif
