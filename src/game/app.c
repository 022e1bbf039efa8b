/* app.c — the App's start-up, frame loop and teardown: it owns the parts (app.h) and hands each step the
 * parts it needs.
 *
 * Design: app_create does everything that can fail before the first frame, in an order that fails fast
 * and cheap: the assets folder and the block registry, the script's block names and station types, the
 * world (generator, world folder, the update worker) on a helper thread while this one opens SDL, the
 * window, the GL 3.3 core context and the renderer. A frame (loop_frame; the steps are app_frame.c's):
 * events -> script -> input (looks, toggles, the hands) -> spawn drop -> fixed 60 Hz physics steps -> the
 * clock, the exchange with the worker (meshes to the renderer), the editor -> loading -> sounds -> target,
 * HUD, draw, screenshot, crosshair probe -> swap -> memory trim. With --script the loop runs in lockstep (one
 * physics step and 1/60 s of game time per frame), so scripted runs are reproducible. Teardown frees every
 * part in its own module, everything holding GL objects before the context. */
#include "app.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "daytime.h"
#include "session/game_structures.h"
#include "strata/error.h"
#include "strata/fileio.h"
#include "strata/huge_pages.h"
#include "strata/log.h"
#include "view/game_sound.h"

#define APP_TAG "game"
#define APP_TRIM_SECONDS 20.0   /* malloc_trim period while the world is ready */
#define APP_TRIM_SETTLE 2.0     /* ... and has been for this long, with no mesh waiting for upload */
#define APP_TRIM_LATEST 60.0    /* ... or, if uploads never drain (a long flight), at the latest after this */

_Static_assert(HUD_MAX_LINES <= RENDER_HUD_LINES, "the HUD composes more lines than the renderer draws");

/* ---- start-up ---------------------------------------------------------------------------------------- */

/* SIGHUP (the terminal closed) ends the game like SIGTERM and SIGINT, which SDL turns into a quit event: the
 * loop ends and the world is saved. A signal handler can only set a lock-free atomic: the one global here. */
static atomic_int app_hangup;

static void app_on_hangup(int signal_number)
{
    (void)signal_number;
    atomic_store(&app_hangup, 1);
}

/* The folder the executable is in, with a trailing slash, or "" (SDL_GetBasePath needs no SDL_Init). */
static void executable_dir(char *out, size_t size)
{
    out[0] = 0;
    char *base = SDL_GetBasePath();
    if (base) {
        snprintf(out, size, "%s", base);
        SDL_free(base);
    }
}

/* Copies a path, refusing one that does not fit. */
static StResult copy_path(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size) return st_fail(ST_ERR_ARG, "path too long (%zu characters, at most %zu): %s", n, size - 1, src);
    memcpy(dst, src, n + 1);
    return ST_OK;
}

static StResult resolve_dirs(App *app)
{
    char exe[APP_PATH_MAX];
    executable_dir(exe, sizeof exe);
    char beside[APP_PATH_MAX + 16];
    snprintf(beside, sizeof beside, "%s../assets", exe);
    const char *assets = NULL;
    if (app->opts.asset_dir) {
        if (!fileio_is_dir(app->opts.asset_dir))
            return st_fail(ST_ERR_IO, "assets folder not found: %s (from --assets)", app->opts.asset_dir);
        assets = app->opts.asset_dir;
    } else if (fileio_is_dir(STRATA_ASSET_DIR)) {
        assets = STRATA_ASSET_DIR;
    } else if (exe[0] && fileio_is_dir(beside)) {
        assets = beside;
    } else {
        return st_fail(ST_ERR_IO, "assets folder not found: looked in %s and %s (use --assets DIR)", STRATA_ASSET_DIR,
                       exe[0] ? beside : "(executable folder unknown)");
    }
    StResult rc = copy_path(app->asset_dir, sizeof app->asset_dir, assets);
    if (rc != ST_OK) return rc;

    char sibling[APP_PATH_MAX + 16];
    snprintf(sibling, sizeof sibling, "%s/../shaders", app->asset_dir);
    if (fileio_is_dir(STRATA_SHADER_DIR)) return copy_path(app->shader_dir, sizeof app->shader_dir, STRATA_SHADER_DIR);
    if (fileio_is_dir(sibling)) return copy_path(app->shader_dir, sizeof app->shader_dir, sibling);
    return st_fail(ST_ERR_IO, "shaders folder not found: looked in %s and %s", STRATA_SHADER_DIR, sibling);
}

/* The game's default job pool (no --threads, settings' "threads" 0): a thread a core. The loading screen sleeps
 * between its few frames (app_wait_loading), so the updater's default of cores - 1 left a core idle while the
 * world loaded (the engine alone reaches view distance 8 in ~0.63 s with 2 threads here, ~0.89 s with 1); in
 * play the pool threads run niced (thread_priority.h), so the main thread and llvmpipe's still come first.
 * STRATA_THREADS (tests, sanitizer runs) keeps the updater's own rule. */
static int app_default_threads(void)
{
    if (getenv("STRATA_THREADS")) return 0;
    int cores = SDL_GetCPUCount();
    return cores > 1 ? cores : 1;
}

/* The world half of start-up: open the world, place the player, start the update worker and hand it the
 * first location, so generation runs while the window and renderer start up on the main thread. */
static StResult open_world(App *app)
{
    const CliOptions *opts = &app->opts;
    StResult rc;
    if ((rc = world_session_open(&app->world, opts, app->asset_dir)) != ST_OK) return rc;
    if ((rc = game_structures_load_models(app->world.structures, app->asset_dir, &app->world)) != ST_OK) return rc;
    WorldSession *w = &app->world;
    const WorldMeta *m = &w->meta;
    player_init(&app->player, m->player_position[0], m->player_position[1], m->player_position[2]);
    app->player.yaw_deg = camera_wrap_yaw(m->player_yaw);
    app->player.pitch_deg = camera_clamp_pitch(m->player_pitch);
    app->player.flying = opts->fly || (w->resumed && m->player_flying);
    w->spawn_pending = !w->resumed;
    w->time_of_day = daytime_wrap(m->time_of_day);
    w->sky_light = daytime_sky_light(w->time_of_day);
    w->history_bytes = (size_t)app->opts.history_mb << 20;
    w->threads = app->opts.threads > 0 ? app->opts.threads : app_default_threads();
    if ((rc = world_session_start(w, w->sky_light)) != ST_OK) return rc;
    /* Before the first exchange: no chunk exists yet, so nothing is remeshed. */
    w->brightness = opts->brightness;
    w->season = opts->season;
    updater_set_brightness(w->updater, w->brightness);
    updater_set_season(w->updater, w->season);
    /* allocates the first chunks (no mesh can come back yet: no renderer needed) */
    world_session_exchange(w, &app->player, opts->view_distance, NULL);
    return ST_OK;
}

typedef struct OpenWorldJob {
    App *app;
    StResult rc;
    char message[512];            /* st_error_message() is per thread: the job's copy */
} OpenWorldJob;

static int open_world_thread(void *user)
{
    OpenWorldJob *job = user;
    job->rc = open_world(job->app);
    if (job->rc != ST_OK) snprintf(job->message, sizeof job->message, "%s", st_error_message());
    return 0;
}

StResult app_create(const CliOptions *opts, Script *script, App **out)
{
    *out = NULL;
    App *app = calloc(1, sizeof *app);
    if (!app) return st_fail(ST_ERR_NOMEM, "cannot allocate the App");
    *out = app;
    /* Launch times count from the first start, before huge_pages.h's re-execution. */
    app->world.loading.launch_counter =
        SDL_GetPerformanceCounter() - (Uint64)(process_start_head_seconds() * (double)SDL_GetPerformanceFrequency());
    struct sigaction hangup;
    memset(&hangup, 0, sizeof hangup);
    hangup.sa_handler = app_on_hangup;
    sigemptyset(&hangup.sa_mask);
    sigaction(SIGHUP, &hangup, NULL);
    /* A file size limit (ulimit -f) must not kill the game mid-save: the write fails with EFBIG instead and is
     * reported like any other write error (edits stay in memory, the save is retried). */
    signal(SIGXFSZ, SIG_IGN);
    app->opts = *opts;
    app->script = *script;
    memset(script, 0, sizeof *script);
    app->view.show_hud = true;

    StResult rc;
    if ((rc = resolve_dirs(app)) != ST_OK) return rc;
    game_ui_load_settings(&app->ui, &app->opts);
    WorldSession *w = &app->world;
    if ((rc = world_session_load_blocks(w, app->asset_dir)) != ST_OK) return rc;
    if ((rc = game_view_load_biomes(&app->view, app->asset_dir, w->blocks)) != ST_OK) return rc;
    if ((rc = script_resolve_blocks(&app->script, w->blocks)) != ST_OK) return rc;
    if ((rc = game_structures_create(app->asset_dir, w->blocks, &app->script, &w->structures)) != ST_OK) return rc;
    const ScriptCommand *save = script_find_op(&app->script, SCRIPT_SAVE);
    if (save && opts->no_save)
        return st_fail(ST_ERR_ARG, "%s:%d: save needs a world folder (run without --no-save)", app->script.path,
                       save->line);
    app->runner.active = app->script.count > 0;

    /* The world opens on a helper thread while this one starts SDL, the window and the renderer: the two
     * touch disjoint parts of the App (the world session and the player there, the view here), and
     * SDL_WaitThread orders them before the first frame. */
    OpenWorldJob job = {.app = app, .rc = ST_OK};
    SDL_Thread *opener = SDL_CreateThread(open_world_thread, "strata-open", &job);
    if (!opener) open_world_thread(&job); /* no thread: one after the other */
    rc = game_view_open_window(&app->view, &app->opts, &app->ui.settings);
    if (rc == ST_OK)
        rc = game_view_start_renderer(&app->view, app->asset_dir, app->shader_dir, w->blocks, app->opts.view_distance);
    if (opener) SDL_WaitThread(opener, NULL);
    if (job.rc != ST_OK) return st_fail(job.rc, "%s", job.message); /* the world's error comes first */
    if (rc != ST_OK) return rc;
    game_tools_init(&app->tools, w, app->view.renderer);
    if (w->serializer && w->resumed) {
        StResult hrc = hotbar_load(w->dir, w->blocks, &app->tools.hotbar);
        if (hrc != ST_OK && hrc != ST_ERR_NOT_FOUND)
            log_warn(APP_TAG, "%s; the default hotbar is used (the file is replaced at the next save)", st_error_message());
    }
    if (app->opts.far_distance > 0 &&
        (rc = game_view_start_far(&app->view, w->generator, w->blocks, app->opts.far_distance,
                                  app->opts.view_distance)) != ST_OK)
        return rc;

    if ((rc = game_bench_create(&app->opts, app->view.drawable_w, app->view.drawable_h, &app->bench)) != ST_OK)
        return rc;
    input_init(&app->input);
    if (!opts->script_path && !opts->frames && !opts->bench) input_set_captured(&app->input, true);
    game_audio_start(&app->audio, app->asset_dir, opts->mute);
    w->loading.startup_seconds = (double)(SDL_GetPerformanceCounter() - w->loading.launch_counter) /
                                 (double)SDL_GetPerformanceFrequency();
    world_session_loading_begin(w, "launch");
    w->loading.started = w->loading.launch_counter;
    return ST_OK;
}

/* ---- the loop ------------------------------------------------------------------------------------------ */

/* What the loop keeps between frames for its own bookkeeping (memory trims, STRATA_FRAME_STATS, the title). */
typedef struct LoopClock {
    Uint64 freq;
    bool frame_stats;
    double stats_timer, stats_max, trim_timer, trim_ms, ready_seconds, title_timer;
    long stats_frames;
} LoopClock;

/* Chunks, meshes and GL buffers come and go by the hundred when the player travels; glibc keeps the freed pages, so RSS
 * would ratchet up to the largest working set ever seen (defect 9). Every 20 s, while the world is ready, the free
 * pages go back to the system; the first time as soon as the first load has settled (the loading's scratch, meshes and
 * hot chunks left ~30 MB of free pages at view distance 8). A trim after a teleport returns a whole area's pages (37 ms
 * seen), so it waits for a light frame: ready for 2 s, no upload waiting (the first frames after a teleport are the
 * heaviest; together they made a 252 ms frame). */
static void loop_trim_memory(App *app, LoopClock *lc, double real_dt)
{
    lc->trim_timer += real_dt;
    lc->ready_seconds = world_session_ready(&app->world, app->view.renderer) ? lc->ready_seconds + real_dt : 0.0;
    bool due = lc->trim_timer >= APP_TRIM_SECONDS && lc->ready_seconds >= APP_TRIM_SETTLE;
    bool uploads_waiting = false;
    if (due && lc->trim_timer < APP_TRIM_LATEST) {
        RenderStats rs;
        renderer_get_stats(app->view.renderer, &rs);
        uploads_waiting = rs.uploads_pending > 0;
    }
    if (!due || uploads_waiting) return;
    Uint64 t = SDL_GetPerformanceCounter();
    malloc_trim(0);
    lc->trim_ms = 1000.0 * (double)(SDL_GetPerformanceCounter() - t) / (double)lc->freq;
    lc->trim_timer = 0.0;
}

/* STRATA_FRAME_STATS=1 (scripts/soak.sh): every 5 s a log line with the frame count and longest frame. */
static void loop_frame_stats(App *app, LoopClock *lc, double real_dt)
{
    if (!lc->frame_stats) return;
    lc->stats_timer += real_dt;
    lc->stats_frames++;
    if (real_dt > lc->stats_max) lc->stats_max = real_dt;
    if (lc->stats_timer < 5.0) return;
    struct mallinfo2 mi = mallinfo2();
    UpdaterStats us;
    RenderStats rs;
    updater_get_stats(app->world.updater, &us);
    renderer_get_stats(app->view.renderer, &rs);
    log_info(APP_TAG, "frame stats: %ld frames in %.1f s, longest %.1f ms, world %s; heap %zu KB in use, "
             "%zu KB held, %zu KB mmapped; %d chunks, %d resident, %ld triangles; last trim %.1f ms",
             lc->stats_frames, lc->stats_timer, lc->stats_max * 1000.0,
             world_session_ready(&app->world, app->view.renderer) ? "ready" : "loading", mi.uordblks >> 10,
             mi.arena >> 10, mi.hblkhd >> 10, us.allocated, rs.chunks_resident, rs.triangles_drawn, lc->trim_ms);
    lc->stats_timer = lc->stats_max = 0.0;
    lc->stats_frames = 0;
}

/* Fixed 60 Hz physics steps (one per frame in lockstep); none while hovering, loading or paused. */
static void step_physics(App *app, const PlayerInput *pin, double dt, bool lockstep)
{
    WorldSession *w = &app->world;
    if (w->spawn_pending || w->loading.active || game_ui_paused(&app->ui)) return;
    if (lockstep) {
        player_step(&app->player, pin, w->terrain, w->blocks, PLAYER_STEP_SECONDS);
        return;
    }
    app->physics_accumulator += dt;
    int steps = 0;
    while (app->physics_accumulator >= PLAYER_STEP_SECONDS && steps < APP_MAX_STEPS_PER_FRAME) {
        player_step(&app->player, pin, w->terrain, w->blocks, PLAYER_STEP_SECONDS);
        app->physics_accumulator -= PLAYER_STEP_SECONDS;
        steps++;
    }
    if (steps == APP_MAX_STEPS_PER_FRAME) app->physics_accumulator = 0.0; /* a long hitch: drop the backlog */
}

/* --frames N quits after N frames; with --screenshot it waits on past N until the world is ready and shown
 * (the loading screen gone, no chunk still fading in), so the picture is of the world, not of the loading
 * screen. It gives up after SCRIPT_READY_FRAME_CAP more frames and takes what is there, saying so. */
static bool frames_may_quit(App *app)
{
    if (!app->opts.screenshot_path || world_session_settled(&app->world, app->view.renderer)) return true;
    if (app->frame_index + 1 < app->opts.frames + SCRIPT_READY_FRAME_CAP) return false;
    log_warn(APP_TAG, "--frames %ld --screenshot: the world was not ready after %ld more frames; taking the "
             "screenshot as it is", app->opts.frames, SCRIPT_READY_FRAME_CAP);
    return true;
}

/* Events, the script, input, physics, the world, the draw and the swap: one frame. */
static void loop_frame(App *app, LoopClock *lc, Uint64 now, double real_dt, bool lockstep)
{
    double dt = lockstep ? PLAYER_STEP_SECONDS : (real_dt > 0.25 ? 0.25 : real_dt);
    input_begin_frame(&app->input);
    SDL_Event e;
    while (SDL_PollEvent(&e)) input_handle_event(&app->input, &e);
    if (app->input.quit) app->quit = true;
    if (atomic_load(&app_hangup)) {
        log_info(APP_TAG, "hangup: saving and quitting");
        app->quit = true;
    }
    if (app->opts.frames > 0 && app->frame_index + 1 >= app->opts.frames && frames_may_quit(app)) app->quit = true;

    PlayerInput pin = {0};
    if (app->runner.active && script_runner_frame(app, &pin) != ST_OK) {
        log_error(APP_TAG, "%s", st_error_message());
        app->exit_code = 1;
        app->quit = true;
    }
    if (app->ui.screen == UI_SCREEN_PLAY) input_add_player_input(&app->input, &pin);
    app_apply_input(app, dt);
    world_session_place_spawn(&app->world, &app->player, app->opts.view_distance);
    BenchScene bench = app_bench_scene(app);
    if (app->bench) game_bench_before_frame(app->bench, &bench, real_dt);
    else step_physics(app, &pin, dt, lockstep);
    app_update_world(app, dt);
    if (world_session_loading_update(&app->world, app->view.renderer, &app->player, app->opts.view_distance,
                                     app->frame_index))
        game_ui_check_storage(&app->ui, &app->world); /* what loading the files found shows as the world appears */
    game_sound_frame(&app->audio, &app->player, &app->world, (float)app->ui.settings.values[USER_SETTING_VOLUME],
                     game_ui_paused(&app->ui), dt);

    /* Lockstep slows game time, not the renderer's fade-in: it gets real time (at least a step). */
    double render_dt = lockstep ? fmax(PLAYER_STEP_SECONDS, fmin(real_dt, 0.25)) : dt;
    HudInfo hud;
    if (app_draw_frame(app, render_dt, &hud) != ST_OK) {
        log_error(APP_TAG, "%s", st_error_message());
        app->exit_code = 1;
        app->quit = true;
    }
    SDL_GL_SwapWindow(app->view.window);
    app->frame_index++;
    if (app->bench && game_bench_after_frame(app->bench, &bench)) app->quit = true;
    /* While dig_visible_within counts frames, a frame lasts at least one 60 Hz display refresh (as with
     * vsync), so the count is what a player at 60 FPS sees however fast this machine renders; the loading
     * screen draws a few frames a second and leaves the CPU to the chunks' threads, polling the world between
     * them (app_wait_loading). */
    if (app->runner.probe_phase == 2) {
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)lc->freq;
        if (spent < APP_PROBE_FRAME_SECONDS) SDL_Delay((Uint32)((APP_PROBE_FRAME_SECONDS - spent) * 1000.0) + 1);
    } else if (app->world.loading.active && !app->quit) {
        app_wait_loading(app, now, APP_LOADING_FRAME_SECONDS);
    }

    if (app->ui.storage_notice_seconds > 0.0) app->ui.storage_notice_seconds -= real_dt;
    loop_trim_memory(app, lc, real_dt);
    loop_frame_stats(app, lc, real_dt);
    lc->title_timer += real_dt;
    if (lc->title_timer >= 1.0) {
        lc->title_timer = 0.0;
        char title[128];
        hud_format_title(&hud, title, sizeof title);
        SDL_SetWindowTitle(app->view.window, title);
    }
}

int app_run(App *app)
{
    bool lockstep = app->opts.script_path != NULL;
    LoopClock lc = {.freq = SDL_GetPerformanceFrequency(), .frame_stats = getenv("STRATA_FRAME_STATS") != NULL,
                    .trim_timer = APP_TRIM_SECONDS};
    Uint64 prev = SDL_GetPerformanceCounter();
    while (!app->quit) {
        Uint64 now = SDL_GetPerformanceCounter();
        double real_dt = (double)(now - prev) / (double)lc.freq;
        prev = now;
        fps_meter_add(&app->fps, real_dt);
        loop_frame(app, &lc, now, real_dt, lockstep);
    }
    BenchScene bench = app_bench_scene(app);
    if (app->bench && game_bench_report(app->bench, &bench) != ST_OK) {
        log_error(APP_TAG, "%s", st_error_message());
        app->exit_code = 1;
    }
    WorldSession *w = &app->world;
    if (w->serializer && !w->read_only) {
        if (world_session_save_game(w, &app->player, &app->tools.hotbar) != ST_OK) {
            log_error(APP_TAG, "THE WORLD WAS NOT SAVED (%s): %s; changes since the last successful save are lost",
                      w->dir, st_error_message());
            app->exit_code = 1;
        } else {
            log_info(APP_TAG, "saved world %s", w->dir);
        }
    }
    return app->exit_code;
}

/* Every part is freed by its own module, and everything that may hold GL objects (the renderer, the far
 * terrain, the world session's meshes, the structures, the bench) goes before the GL context. */
void app_destroy(App *app)
{
    if (!app) return;
    if (app->input.mouse_captured) input_set_captured(&app->input, false);
    game_audio_stop(&app->audio);
    crosshair_probe_reset(&app->probe);
    game_tools_free(&app->tools);
    game_view_stop_renderer(&app->view);
    world_session_close(&app->world);   /* the structures too */
    game_bench_destroy(app->bench);
    app->bench = NULL;
    game_view_close_window(&app->view);
    script_free(&app->script);
    free(app);
}
