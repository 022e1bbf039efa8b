/* app.c — the game's window, GL context and frame loop.
 *
 * Design: app_create does everything that can fail before the first frame, in an order that fails fast
 * and cheap: the assets folder and the block registry, the script's block names, the world (generator,
 * world folder), then SDL, the window, the GL 3.3 core context and the renderer, and last the update
 * worker thread. A frame: events -> mouse look -> script -> actions (dig, place, toggles) -> spawn drop ->
 * fixed 60 Hz physics steps -> time of day and sky light -> update location and state exchange (meshes to
 * the renderer) -> crosshair raycast -> HUD -> draw -> screenshot -> frame probe (dig_visible_within) ->
 * swap. Brightness and season (flags, script, B and N keys) go to the update worker, which remeshes. With
 * --script the loop runs in lockstep (one physics step and 1/60 s of game time per frame), so scripted runs
 * are reproducible. */
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
#include "frame_probe.h"
#include "settings.h"
#include "strata/spawn.h"
#include "strata/error.h"
#include "strata/fileio.h"
#include "strata/log.h"

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

static void exchange_with_worker(App *app);

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

static StResult create_window(App *app)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return st_fail(ST_ERR_GL, "cannot initialise SDL video: %s", SDL_GetError());
    app->sdl_ready = true;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    /* Scripted and --frames runs keep their window size: the settings' fullscreen is for playing. */
    bool driven = app->opts.frames > 0 || app->opts.script_path || app->opts.bench;
    bool fullscreen = app->opts.fullscreen || (!driven && !app->opts.windowed &&
                                               app->settings.values[USER_SETTING_FULLSCREEN] != 0.0);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    app->window = SDL_CreateWindow("Strata", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, app->opts.width,
                                   app->opts.height, flags);
    if (!app->window) return st_fail(ST_ERR_GL, "cannot create the window: %s", SDL_GetError());
    app->gl = SDL_GL_CreateContext(app->window);
    if (!app->gl) return st_fail(ST_ERR_GL, "cannot create an OpenGL 3.3 core context: %s", SDL_GetError());
    bool fast = driven;
    int interval = fast ? 0 : app->settings.values[USER_SETTING_VSYNC] != 0.0;
    if (SDL_GL_SetSwapInterval(interval) != 0)
        log_info(APP_TAG, "swap interval %d unavailable (%s): frames are not synced to the display", interval,
                 SDL_GetError());
    SDL_GL_GetDrawableSize(app->window, &app->drawable_w, &app->drawable_h);
    return ST_OK;
}

/* The settings file, then this run's flags on top (they are not written back). */
static void load_settings(App *app)
{
    CliOptions *o = &app->opts;
    if (user_settings_path(app->settings_path, sizeof app->settings_path) != ST_OK) {
        log_info(APP_TAG, "%s; settings are not saved", st_error_message());
        app->settings_path[0] = 0;
        user_settings_default(&app->settings_file);
    } else if (user_settings_load(app->settings_path, &app->settings_file) != ST_OK) {
        log_warn(APP_TAG, "settings: %s", st_error_message());
    }
    UserSettings *s = &app->settings;
    *s = app->settings_file;
    if (o->view_distance_given) user_settings_set(s, USER_SETTING_VIEW_DISTANCE, o->view_distance);
    else o->view_distance = (int)s->values[USER_SETTING_VIEW_DISTANCE];
    if (o->brightness_given) user_settings_set(s, USER_SETTING_BRIGHTNESS, o->brightness);
    else o->brightness = (float)s->values[USER_SETTING_BRIGHTNESS];
    if (o->fov > 0) user_settings_set(s, USER_SETTING_FOV, o->fov);
    if (o->gui_scale >= 0) user_settings_set(s, USER_SETTING_GUI_SCALE, o->gui_scale);
    if (o->volume >= 0.0f) user_settings_set(s, USER_SETTING_VOLUME, o->volume);
    if (o->threads > 0) user_settings_set(s, USER_SETTING_THREADS, o->threads);
    else o->threads = (int)s->values[USER_SETTING_THREADS]; /* 0: updater_default_threads() */
    if (o->fullscreen || o->windowed) user_settings_set(s, USER_SETTING_FULLSCREEN, o->fullscreen ? 1.0 : 0.0);
}

/* The world half of start-up: open the world, place the player, start the update worker and hand it the
 * first location, so generation runs while the window and renderer start up on the main thread. */
static StResult open_world(App *app)
{
    const CliOptions *opts = &app->opts;
    StResult rc;
    if ((rc = world_session_open(&app->world, opts, app->asset_dir)) != ST_OK) return rc;
    if ((rc = app_structures_load_models(app)) != ST_OK) return rc;
    const WorldMeta *m = &app->world.meta;
    player_init(&app->player, m->player_position[0], m->player_position[1], m->player_position[2]);
    app->player.yaw_deg = camera_wrap_yaw(m->player_yaw);
    app->player.pitch_deg = camera_clamp_pitch(m->player_pitch);
    app->player.flying = opts->fly || (app->world.resumed && m->player_flying);
    app->pending_spawn = !app->world.resumed;
    app->time_of_day = daytime_wrap(m->time_of_day);
    app->sky_light = daytime_sky_light(app->time_of_day);
    app->world.history_bytes = (size_t)app->opts.history_mb << 20;
    app->world.threads = app->opts.threads;
    if ((rc = world_session_start(&app->world, app->sky_light)) != ST_OK) return rc;
    /* Before the first exchange: no chunk exists yet, so nothing is remeshed. */
    app->brightness = opts->brightness;
    app->season = opts->season;
    updater_set_brightness(app->world.updater, app->brightness);
    updater_set_season(app->world.updater, app->season);
    exchange_with_worker(app); /* allocates the first chunks (no mesh can come back yet: no renderer needed) */
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

/* The biome fog's table: a missing file means the plain fog (an assets folder of an older build), a broken one
 * is an error naming the field. */
static StResult load_biomes(App *app)
{
    char path[APP_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/biomes.json", app->asset_dir);
    biome_fog_init(&app->fog);
    if (!fileio_exists(path)) {
        log_warn(APP_TAG, "%s not found: the fog does not follow the biome", path);
        return ST_OK;
    }
    return biome_set_load(path, app->world.blocks, &app->biomes);
}

StResult app_create(const CliOptions *opts, Script *script, App **out)
{
    *out = NULL;
    App *app = calloc(1, sizeof *app);
    if (!app) return st_fail(ST_ERR_NOMEM, "cannot allocate the App");
    *out = app;
    app->launch_counter = SDL_GetPerformanceCounter();
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
    app->show_hud = true;
    app->pointer_scale = 1.0f;

    StResult rc;
    if ((rc = resolve_dirs(app)) != ST_OK) return rc;
    load_settings(app);
    if ((rc = world_session_load_blocks(&app->world, app->asset_dir)) != ST_OK) return rc;
    if ((rc = load_biomes(app)) != ST_OK) return rc;
    if ((rc = script_resolve_blocks(&app->script, app->world.blocks)) != ST_OK) return rc;
    if ((rc = app_structures_init(app)) != ST_OK) return rc;
    const ScriptCommand *save = script_find_op(&app->script, SCRIPT_SAVE);
    if (save && opts->no_save)
        return st_fail(ST_ERR_ARG, "%s:%d: save needs a world folder (run without --no-save)", app->script.path,
                       save->line);
    app->runner.active = app->script.count > 0;

    /* The world opens on a helper thread while this one starts SDL, the window and the renderer: the two
     * touch disjoint parts of the App, and SDL_WaitThread orders them before the first frame. */
    OpenWorldJob job = {.app = app, .rc = ST_OK};
    SDL_Thread *opener = SDL_CreateThread(open_world_thread, "strata-open", &job);
    if (!opener) open_world_thread(&job); /* no thread: one after the other */
    rc = create_window(app);
    RendererConfig rcfg = {
        .asset_dir = app->asset_dir,
        .shader_dir = app->shader_dir,
        .blocks = app->world.blocks,
        .width = app->drawable_w,
        .height = app->drawable_h,
        .view_distance_chunks = opts->view_distance,
    };
    if (rc == ST_OK && (rc = renderer_create(&rcfg, (RenderGetProc)SDL_GL_GetProcAddress, &app->renderer)) != ST_OK)
        rc = st_fail_context(rc, "cannot start the renderer");
    if (opener) SDL_WaitThread(opener, NULL);
    if (job.rc != ST_OK) return st_fail(job.rc, "%s", job.message); /* the world's error comes first */
    if (rc != ST_OK) return rc;
    app_tools_init(app);
    hotbar_default(&app->hotbar);
    if (app->world.serializer && app->world.resumed) {
        StResult hrc = hotbar_load(app->world.dir, app->world.blocks, &app->hotbar);
        if (hrc != ST_OK && hrc != ST_ERR_NOT_FOUND)
            log_warn(APP_TAG, "%s; the default hotbar is used (the file is replaced at the next save)", st_error_message());
    }
    if (opts->far_distance > 0) {
        FarTerrainSettings fs;
        far_terrain_settings_default(&fs);
        fs.far_distance = (float)opts->far_distance;
        fs.load_radius = fs.far_distance;
        fs.unload_radius = fs.far_distance * 1.25f;
        fs.voxel_distance = (float)(opts->view_distance * CHUNK_SIZE_X);
        FarPalette palette;   /* 6 kB, copied by far_terrain_create */
        far_palette_init(&palette, app->world.blocks);
        renderer_far_palette(app->renderer, &palette);
        if ((rc = far_terrain_create(app->world.generator, &palette, &fs, &app->far)) != ST_OK) return rc;
        app->far_ring_chunks = opts->view_distance;
    }

    if ((rc = app_bench_init(app)) != ST_OK) return rc;
    input_init(&app->input);
    if (!opts->script_path && !opts->frames && !opts->bench) input_set_captured(&app->input, true);
    game_audio_start(&app->audio, app->asset_dir, opts->mute);
    app->startup_seconds =
        (double)(SDL_GetPerformanceCounter() - app->launch_counter) / (double)SDL_GetPerformanceFrequency();
    app_loading_begin(app, "launch");
    app->loading.started = app->launch_counter;
    return ST_OK;
}

/* ---- per-frame pieces -------------------------------------------------------------------------------- */

/* The pause menu (and the settings screen) stop the clock and the player. */
bool app_paused(const App *app)
{
    return app->screen == APP_SCREEN_PAUSE || app->screen == APP_SCREEN_SETTINGS;
}

bool app_world_ready(App *app)
{
    if (app->pending_spawn) return false;
    if (!updater_is_ready(app->world.updater, 0)) return false;
    RenderStats rs;
    renderer_get_stats(app->renderer, &rs);
    return rs.uploads_pending == 0;
}

bool app_world_settled(App *app)
{
    if (app->loading.active || !app_world_ready(app)) return false;
    RenderStats rs;
    renderer_get_stats(app->renderer, &rs);
    return rs.chunks_fading == 0;
}

void app_set_brightness(App *app, float brightness)
{
    if (brightness < 0.0f) brightness = 0.0f;
    if (brightness > 1.0f) brightness = 1.0f;
    app->brightness = brightness;
    updater_set_brightness(app->world.updater, brightness);
    log_info(APP_TAG, "brightness %.2f", brightness);
}

void app_set_season(App *app, int season)
{
    if (settings_season_parse(settings_season_name(season)) < 0) return;
    app->season = season;
    updater_set_season(app->world.updater, season);
    log_info(APP_TAG, "season %s", settings_season_name(season));
}

void app_probe_reset(App *app)
{
    FrameProbe *p = &app->probe;
    free(p->reference);
    free(p->current);
    memset(p, 0, sizeof *p);
}

/* After the frame's draw: reads the probe box as the reference, or compares it with the reference. */
static StResult probe_after_draw(App *app)
{
    FrameProbe *p = &app->probe;
    FrameProbeRead what = p->read;
    p->read = PROBE_READ_NONE;
    if (what == PROBE_READ_NONE) return ST_OK;
    if (what == PROBE_READ_REFERENCE) {
        free(p->reference);
        free(p->current);
        frame_probe_box(app->drawable_w, app->drawable_h, &p->x, &p->y, &p->w, &p->h);
        size_t bytes = (size_t)p->w * (size_t)p->h * 4;
        p->reference = malloc(bytes);
        p->current = malloc(bytes);
        if (!p->reference || !p->current)
            return st_fail(ST_ERR_NOMEM, "frame probe: out of memory for %zu bytes", bytes);
        return renderer_read_pixels(app->renderer, p->x, p->y, p->w, p->h, p->reference);
    }
    if (!p->reference) return st_fail(ST_ERR_STATE, "frame probe: no reference frame was read");
    StResult rc = renderer_read_pixels(app->renderer, p->x, p->y, p->w, p->h, p->current);
    if (rc != ST_OK) return rc;
    p->differing = frame_probe_count_differing(p->reference, p->current, p->w * p->h, FRAME_PROBE_CHANNEL_DELTA);
    p->changed = frame_probe_is_notable(p->differing, p->w * p->h);
    return ST_OK;
}

StResult app_save_world(App *app)
{
    if (!app->world.serializer || app->world.read_only) return ST_OK;
    app_sync_meta(app);
    StResult rc = world_session_save_all(&app->world);
    if (rc != ST_OK) return rc;
    return hotbar_save(app->world.dir, app->world.blocks, &app->hotbar);
}

void app_sync_meta(App *app)
{
    WorldMeta *m = &app->world.meta;
    memcpy(m->player_position, app->player.position, sizeof m->player_position);
    m->player_yaw = app->player.yaw_deg;
    m->player_pitch = app->player.pitch_deg;
    m->player_flying = app->player.flying;
    m->time_of_day = app->time_of_day;
}

static void on_mesh_ready(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    renderer_set_chunk_mesh(((App *)user)->renderer, chunk, mesh);
}

static void on_chunk_released(void *user, TerrainChunk *chunk)
{
    renderer_release_chunk(((App *)user)->renderer, chunk);
}

/* Hands the player's position to the update worker and swaps states and meshes with it. */
static void exchange_with_worker(App *app)
{
    UpdateLocation loc = {
        .active = true,
        .x = (float)app->player.position[0],
        .z = (float)app->player.position[2],
        .visibility_chunks = app->opts.view_distance,
        .content_chunks = app->opts.view_distance + 2,
    };
    updater_set_location(app->world.updater, 0, &loc);
    UpdaterCallbacks cb = {app, on_mesh_ready, on_chunk_released};
    updater_exchange(app->world.updater, &cb);
}

/* New worlds: hover (on the loading screen) until the chunks around the start have their contents, then
 * stand on open ground with a view (spawn.h), facing the view; where there is none (all sea, all forest),
 * on natural ground nearby or on the highest solid block. */
static void update_spawn(App *app)
{
    if (!app->pending_spawn) return;
    const Terrain *t = app->world.terrain;
    int x = (int)floor(app->player.position[0]), z = (int)floor(app->player.position[2]);
    SpawnChoice choice;
    SpawnStatus status = spawn_choose_within(t, app->world.blocks, x, z, (app->opts.view_distance + 1) * 16, &choice);
    if (status == SPAWN_NOT_READY) return;
    int ground;
    if (status == SPAWN_FOUND) {
        app->player.position[0] = choice.x + 0.5;
        app->player.position[2] = choice.z + 0.5;
        app->player.yaw_deg = choice.yaw_deg;
        app->player.pitch_deg = APP_SPAWN_PITCH_DEG;
        ground = choice.y;
    } else {
        int gx, gz;
        ground = player_find_ground_column(t, app->world.blocks, x, z, APP_SPAWN_SEARCH_RADIUS, &gx, &gz);
        if (ground >= 0) {
            app->player.position[0] = gx + 0.5;
            app->player.position[2] = gz + 0.5;
        } else {
            ground = player_ground_height(&app->player, t, app->world.blocks);
            if (ground < 0) return;
        }
    }
    app->player.position[1] = ground;
    app->player.velocity[0] = app->player.velocity[1] = app->player.velocity[2] = 0.0;
    app->pending_spawn = false;
    log_info(APP_TAG, "spawned at %.1f %.1f %.1f facing %.0f (view %d blocks)", app->player.position[0],
             app->player.position[1], app->player.position[2], app->player.yaw_deg,
             status == SPAWN_FOUND ? choice.view_blocks : 0);
}

static void apply_actions(App *app, double dt)
{
    InputState *in = &app->input;
    if (in->resized) {
        SDL_GL_GetDrawableSize(app->window, &app->drawable_w, &app->drawable_h);
        renderer_resize(app->renderer, app->drawable_w, app->drawable_h);
    }
    if (in->toggle_fullscreen)
        app_change_setting(app, USER_SETTING_FULLSCREEN, app->settings.values[USER_SETTING_FULLSCREEN] != 0.0 ? 0 : 1);
    if (in->screenshot) app_screenshot_timestamped(app);
    if (app->loading.active) return; /* the loading screen takes no input but quit, resize, F2 and F11 */
    if (in->escape) app_set_screen(app, app->screen == APP_SCREEN_PLAY ? APP_SCREEN_PAUSE : APP_SCREEN_PLAY);
    if (in->toggle_picker) {
        if (app->screen == APP_SCREEN_PLAY) app_set_screen(app, APP_SCREEN_PICKER);
        else if (app->screen == APP_SCREEN_PICKER) app_set_screen(app, APP_SCREEN_PLAY);
    }
    if (in->ui_click && app->screen != APP_SCREEN_PLAY) app_ui_click(app, in->mouse_x, in->mouse_y);
    if (in->wheel != 0 && (app->screen == APP_SCREEN_PLAY || app->screen == APP_SCREEN_PICKER))
        hotbar_scroll(&app->hotbar, in->wheel);
    if (in->select_slot > 0 && (app->screen == APP_SCREEN_PLAY || app->screen == APP_SCREEN_PICKER))
        app_select_slot(app, in->select_slot - 1);
    if (app->screen != APP_SCREEN_PLAY) return; /* menus: no looking, digging or toggles behind them */
    if (in->mouse_captured && (in->look_dx != 0.0f || in->look_dy != 0.0f)) {
        float deg = INPUT_MOUSE_DEG_PER_PIXEL * (float)app->settings.values[USER_SETTING_MOUSE_SENSITIVITY];
        float invert = app->settings.values[USER_SETTING_INVERT_MOUSE] != 0.0 ? -1.0f : 1.0f;
        app->player.yaw_deg = camera_wrap_yaw(app->player.yaw_deg + in->look_dx * deg);
        app->player.pitch_deg = camera_clamp_pitch(app->player.pitch_deg - in->look_dy * deg * invert);
    }
    if (in->toggle_fly) {
        app->player.flying = !app->player.flying;
        app->player.velocity[1] = 0.0;
    }
    if (in->toggle_hud) app->show_hud = !app->show_hud;
    if (in->advance_time) app->time_of_day = daytime_wrap(app->time_of_day + DAYTIME_STEP);
    if (in->cycle_brightness) app_set_brightness(app, settings_brightness_next(app->brightness));
    if (in->cycle_season) app_set_season(app, settings_season_next(app->season));
    if (in->pick) app_pick(app);
    /* A click acts at once (the tool: dig and place with the block tool); held, the button acts again every
     * APP_REPEAT_SECONDS. */
    if (in->dig) { app_apply_tool(app, true); app->dig_repeat = 0.0; }
    else if (in->dig_held && (app->dig_repeat += dt) >= APP_REPEAT_SECONDS) { app_apply_tool(app, true); app->dig_repeat = 0.0; }
    if (in->place) { app_apply_tool(app, false); app->place_repeat = 0.0; }
    else if (in->place_held && (app->place_repeat += dt) >= APP_REPEAT_SECONDS) {
        app_apply_tool(app, false);
        app->place_repeat = 0.0;
    }
    if (in->undo) app_undo(app);
    if (in->redo) app_redo(app);
    if (in->next_tool) app_next_tool(app);
    if (in->radius_delta) app_set_tool_radius(app, app->tool_radius + in->radius_delta);
}

static void step_physics(App *app, const PlayerInput *pin, double dt, bool lockstep)
{
    if (app->pending_spawn || app->loading.active || app_paused(app)) return;
    if (lockstep) {
        player_step(&app->player, pin, app->world.terrain, app->world.blocks, PLAYER_STEP_SECONDS);
        return;
    }
    app->physics_accumulator += dt;
    int steps = 0;
    while (app->physics_accumulator >= PLAYER_STEP_SECONDS && steps < APP_MAX_STEPS_PER_FRAME) {
        player_step(&app->player, pin, app->world.terrain, app->world.blocks, PLAYER_STEP_SECONDS);
        app->physics_accumulator -= PLAYER_STEP_SECONDS;
        steps++;
    }
    if (steps == APP_MAX_STEPS_PER_FRAME) app->physics_accumulator = 0.0; /* a long hitch: drop the backlog */
}

static void update_world(App *app, double dt)
{
    WorldSession *w = &app->world;
    bool stopped = app->loading.active || app_paused(app);
    if (!stopped) w->meta.game_time += dt;
    if (!app->time_frozen && !stopped) app->time_of_day = daytime_advance(app->time_of_day, dt);
    int sky = daytime_sky_light(app->time_of_day);
    if (sky != app->sky_light) {
        app->sky_light = sky;
        updater_set_sky_light(w->updater, sky);
    }
    exchange_with_worker(app);
    app_edit_frame(app, dt);

    if (w->serializer && !w->read_only && app->opts.autosave_seconds > 0) {
        app->autosave_timer += dt;
        if (app->autosave_timer >= app->opts.autosave_seconds) {
            app->autosave_timer = 0.0;
            updater_request_autosave(w->updater);
            app_sync_meta(app);
            if (world_session_save_meta(w) != ST_OK ||
                hotbar_save(w->dir, w->blocks, &app->hotbar) != ST_OK)
                log_error(APP_TAG, "autosave: %s", st_error_message());
        }
    }
}

static StResult draw_frame(App *app, double dt, HudInfo *hud)
{
    app->has_target = !app->loading.active && app_find_target(app, &app->target);
    app_fill_hud(app, hud);
    HudLines lines;
    hud_compose(hud, &lines);

    RenderCamera cam;
    player_eye(&app->player, cam.position);
    cam.yaw_deg = app->player.yaw_deg;
    cam.pitch_deg = app->player.pitch_deg;
    cam.fov_y_deg = (float)app->settings.values[USER_SETTING_FOV];
    RenderFrame frame;
    memset(&frame, 0, sizeof frame);
    frame.time_of_day = app->time_of_day;
    frame.sky_brightness = daytime_light_intensity(app->time_of_day);
    frame.highlight = app->has_target && !app->probe.hide_highlight;
    frame.highlight_cell[0] = app->target.x;
    frame.highlight_cell[1] = app->target.y;
    frame.highlight_cell[2] = app->target.z;
    if (app->has_target)   /* the outline of a snow layer, a torch or a plant is its own box, not its cell */
        block_shape_bounds((BlockShape)app->world.blocks->shape[cell_contents(app->target.value)],
                           frame.highlight_min, frame.highlight_max);
    frame.show_hud = app->show_hud && app->screen == APP_SCREEN_PLAY;
    for (int i = 0; i < lines.count; i++) frame.hud_lines[i] = lines.text[i];
    frame.frame_seconds = (float)dt;
    frame.preview = !app->probe.hide_highlight && !app->loading.active &&
                    app_tool_preview(app, frame.preview_min, frame.preview_max);
    frame.particles = app->particles.draw;
    frame.particle_count = app->probe.hide_highlight ? 0 : app->particles.count; /* the probe watches cells only */
    /* The editing strip (edit_overlay.c) shows only the tool now: the hotbar has its own row (ui/screens.c). */
    if (app->show_hud && app->screen == APP_SCREEN_PLAY && app->tool != APP_TOOL_BLOCK) {
        static const uint8_t tool_color[3] = {230, 200, 60};
        memcpy(frame.strip_colors[0], tool_color, 3);
        frame.strip_count = 1;
        frame.strip_selected = 0;
    } else {
        frame.strip_selected = -1;
    }
    frame.sky_detail = true;
    frame.eye_medium = app_eye_medium(app, cam.position);
    frame.game_seconds = app->world.meta.game_time;
    /* The fog follows the biome at the player, eased; behind a loading screen (launch, teleport) it is taken
     * as it is there, so the world appears in its own fog. */
    biome_fog_update(&app->fog, app->biomes, app->world.generator, cam.position[0], cam.position[2], dt,
                     app->loading.active);
    if (app->fog.started)
        renderer_set_fog(app->renderer, app->fog.current.color, app->fog.current.density);
    if (app->loading.active) {
        frame.upload_ms = APP_LOADING_UPLOAD_MS;
        app_loading_draw(app, &cam, &frame);
    } else {
        /* Inside a fluid the view is tinted (the renderer closes the fog in); inside a block it is dark. */
        static const uint32_t tints[] = {0, 0x2050A060, 0xE0601890, 0x000000FF};
        if (frame.eye_medium != RENDER_MEDIUM_AIR)
            renderer_ui_rect(app->renderer, 0, 0, (float)app->drawable_w, (float)app->drawable_h, tints[frame.eye_medium]);
        app_ui_queue(app);
        /* A screenshot shows every chunk that has geometry, not just those the upload budget reached. */
        bool full = app->screenshot_path[0] || (app->quit && app->opts.screenshot_path);
        if (full) renderer_flush_uploads(app->renderer, &cam);
        /* Far terrain starts once the voxel world is loaded (its worker would slow the loading down). */
        if (app->far) {
            float yaw = cam.yaw_deg * 0.017453292f;
            app_far_follow_view(app);
            if (full) far_terrain_flush(app->far, cam.position[0], cam.position[2]);
            else far_terrain_update(app->far, cam.position[0], cam.position[2], sinf(yaw), -cosf(yaw));
            const FarPatch *const *patches;
            int n = far_terrain_patches(app->far, &patches);
            renderer_set_far_patches(app->renderer, patches, n, (float)app->opts.far_distance);
        }
        renderer_draw(app->renderer, &cam, &frame);
    }

    StResult rc = ST_OK;
    if (app->screenshot_path[0]) {
        if ((rc = renderer_screenshot(app->renderer, app->screenshot_path)) != ST_OK) return rc;
        log_info(APP_TAG, "screenshot %s", app->screenshot_path);
        app->screenshot_path[0] = 0;
    }
    if (app->quit && app->opts.screenshot_path) {
        if ((rc = renderer_screenshot(app->renderer, app->opts.screenshot_path)) != ST_OK) return rc;
        log_info(APP_TAG, "screenshot %s", app->opts.screenshot_path);
    }
    return probe_after_draw(app);
}

/* ---- the loop ------------------------------------------------------------------------------------------ */

/* --frames N quits after N frames; with --screenshot it waits on past N until the world is ready and shown
 * (the loading screen gone, no chunk still fading in), so the picture is of the world, not of the loading
 * screen. It gives up after APP_READY_FRAME_CAP more frames and takes what is there, saying so. */
static bool frames_may_quit(App *app)
{
    if (!app->opts.screenshot_path || app_world_settled(app)) return true;
    if (app->frame_index + 1 < app->opts.frames + APP_READY_FRAME_CAP) return false;
    log_warn(APP_TAG, "--frames %ld --screenshot: the world was not ready after %ld more frames; taking the "
             "screenshot as it is", app->opts.frames, APP_READY_FRAME_CAP);
    return true;
}

int app_run(App *app)
{
    bool lockstep = app->opts.script_path != NULL;
    Uint64 freq = SDL_GetPerformanceFrequency();
    Uint64 prev = SDL_GetPerformanceCounter();
    /* STRATA_FRAME_STATS=1 (scripts/soak.sh): every 5 s a log line with the frame count and longest frame. */
    bool frame_stats = getenv("STRATA_FRAME_STATS") != NULL;
    double stats_timer = 0.0, stats_max = 0.0, trim_timer = 0.0, trim_ms = 0.0, ready_seconds = 0.0;
    long stats_frames = 0;
    while (!app->quit) {
        Uint64 now = SDL_GetPerformanceCounter();
        double real_dt = (double)(now - prev) / (double)freq;
        prev = now;
        fps_meter_add(&app->fps, real_dt);
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
        StResult rc = ST_OK;
        if (app->runner.active) rc = script_runner_frame(app, &pin);
        if (rc != ST_OK) {
            log_error(APP_TAG, "%s", st_error_message());
            app->exit_code = 1;
            app->quit = true;
        }
        if (app->screen == APP_SCREEN_PLAY) input_add_player_input(&app->input, &pin);
        apply_actions(app, dt);
        update_spawn(app);
        if (app->bench) app_bench_before_frame(app, real_dt);
        else step_physics(app, &pin, dt, lockstep);
        update_world(app, dt);
        app_loading_update(app);
        app_update_sounds(app, dt);

        /* Lockstep slows game time, not the renderer's fade-in: it gets real time (at least a step). */
        double render_dt = lockstep ? fmax(PLAYER_STEP_SECONDS, fmin(real_dt, 0.25)) : dt;
        HudInfo hud;
        app->last_render_seconds = render_dt;
        if (draw_frame(app, render_dt, &hud) != ST_OK) {
            log_error(APP_TAG, "%s", st_error_message());
            app->exit_code = 1;
            app->quit = true;
        }
        SDL_GL_SwapWindow(app->window);
        app->frame_index++;
        if (app->bench) app_bench_after_frame(app);
        /* While dig_visible_within counts frames, a frame lasts at least one 60 Hz display refresh (as with
         * vsync), so the count is what a player at 60 FPS sees however fast this machine renders. */
        if (app->runner.probe_phase == 2) {
            double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
            if (spent < APP_PROBE_FRAME_SECONDS) SDL_Delay((Uint32)((APP_PROBE_FRAME_SECONDS - spent) * 1000.0) + 1);
        }
        /* The loading screen leaves the CPU to the update worker between its frames. */
        if (app->loading.active) {
            double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
            if (spent < APP_LOADING_FRAME_SECONDS) SDL_Delay((Uint32)((APP_LOADING_FRAME_SECONDS - spent) * 1000.0));
        }

        /* Chunks, meshes and GL buffers come and go by the hundred when the player travels; glibc keeps the
         * freed pages, so RSS would ratchet up to the largest working set ever seen (defect 9). Every 20 s,
         * while the world is ready, the free pages go back to the system. A trim after a teleport returns a
         * whole area's pages (37 ms seen), so it waits for a light frame: ready for 2 s, no upload waiting
         * (the first frames after a teleport are the heaviest; together they made a 252 ms frame). */
        if (app->storage_notice_seconds > 0.0) app->storage_notice_seconds -= real_dt;
        trim_timer += real_dt;
        ready_seconds = app_world_ready(app) ? ready_seconds + real_dt : 0.0;
        bool uploads_waiting = false;
        if (trim_timer >= APP_TRIM_SECONDS && ready_seconds >= APP_TRIM_SETTLE && trim_timer < APP_TRIM_LATEST) {
            RenderStats rs;
            renderer_get_stats(app->renderer, &rs);
            uploads_waiting = rs.uploads_pending > 0;
        }
        if (trim_timer >= APP_TRIM_SECONDS && ready_seconds >= APP_TRIM_SETTLE && !uploads_waiting) {
            Uint64 t = SDL_GetPerformanceCounter();
            malloc_trim(0);
            trim_ms = 1000.0 * (double)(SDL_GetPerformanceCounter() - t) / (double)freq;
            trim_timer = 0.0;
        }
        if (frame_stats) {
            stats_timer += real_dt;
            stats_frames++;
            if (real_dt > stats_max) stats_max = real_dt;
            if (stats_timer >= 5.0) {
                struct mallinfo2 mi = mallinfo2();
                UpdaterStats us;
                RenderStats rs;
                updater_get_stats(app->world.updater, &us);
                renderer_get_stats(app->renderer, &rs);
                log_info(APP_TAG, "frame stats: %ld frames in %.1f s, longest %.1f ms, world %s; heap %zu KB in use, "
                         "%zu KB held, %zu KB mmapped; %d chunks, %d resident, %ld triangles; last trim %.1f ms",
                         stats_frames, stats_timer, stats_max * 1000.0, app_world_ready(app) ? "ready" : "loading",
                         mi.uordblks >> 10, mi.arena >> 10, mi.hblkhd >> 10, us.allocated, rs.chunks_resident,
                         rs.triangles_drawn, trim_ms);
                stats_timer = stats_max = 0.0;
                stats_frames = 0;
            }
        }
        app->title_timer += real_dt;
        if (app->title_timer >= 1.0) {
            app->title_timer = 0.0;
            char title[128];
            hud_format_title(&hud, title, sizeof title);
            SDL_SetWindowTitle(app->window, title);
        }
    }
    if (app->bench && app_bench_report(app) != ST_OK) {
        log_error(APP_TAG, "%s", st_error_message());
        app->exit_code = 1;
    }
    if (app->world.serializer && !app->world.read_only) {
        if (app_save_world(app) != ST_OK) {
            log_error(APP_TAG, "THE WORLD WAS NOT SAVED (%s): %s; changes since the last successful save are lost",
                      app->world.dir, st_error_message());
            app->exit_code = 1;
        } else {
            log_info(APP_TAG, "saved world %s", app->world.dir);
        }
    }
    return app->exit_code;
}

void app_destroy(App *app)
{
    if (!app) return;
    if (app->input.mouse_captured) input_set_captured(&app->input, false);
    game_audio_stop(&app->audio);
    app_probe_reset(app);
    far_terrain_destroy(app->far);
    app->far = NULL;
    shape_volume_free(&app->tool_volume);
    if (app->renderer) renderer_destroy(app->renderer);
    world_session_close(&app->world);
    if (app->gl) SDL_GL_DeleteContext(app->gl);
    if (app->window) SDL_DestroyWindow(app->window);
    if (app->sdl_ready) SDL_Quit();
    script_free(&app->script);
    app_structures_free(app);
    app_bench_free(app);
    biome_set_destroy(app->biomes);
    free(app);
}
