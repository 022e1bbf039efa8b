/* app_control.c — the App's control surface: what input handling and the script runner may change.
 *
 * Design: the script runner (script_run.c) and the input code act on the game only through these calls, so
 * the rules that go with a change live in one place (a teleport also stops the player and ends the spawn
 * hover; a look clamps the pitch; setting the time freezes the clock). Hands-on-the-world actions (dig,
 * place, target) build an Interaction from the App's world and renderer and call interact.c, which never
 * sees the App. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "camera.h"
#include "daytime.h"
#include "tools/interact.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/serializer.h"

static Interaction app_interaction(App *app)
{
    Interaction world = { app->world.terrain, app->world.updater, app->world.blocks, app->renderer, app->world.editor };
    return world;
}

bool app_find_target(App *app, RaycastHit *hit)
{
    Interaction world = app_interaction(app);
    return interact_find_target(&world, &app->player, hit);
}

bool app_dig(App *app)
{
    Interaction world = app_interaction(app);
    RaycastHit hit;
    int id = app_find_target(app, &hit) ? cell_contents(hit.value) : BLOCK_AIR;
    if (!interact_dig(&world, &app->player)) return false;
    if (block_is_defined(app->world.blocks, id))
        game_audio_play(&app->audio, audio_dig_sound(audio_material_of(&app->world.blocks->defs[id])), 0.8f);
    return true;
}

bool app_place(App *app, int block)
{
    Interaction world = app_interaction(app);
    if (!interact_place(&world, &app->player, block)) return false;
    game_audio_play(&app->audio, AUDIO_PLACE, 0.7f);
    return true;
}

void app_select_block(App *app, int block) { hotbar_pick(&app->hotbar, block); }

void app_set_hotbar(App *app, int slot, int block) { hotbar_set(&app->hotbar, slot, block); }

void app_select_slot(App *app, int slot) { hotbar_select(&app->hotbar, slot); }

bool app_pick(App *app)
{
    RaycastHit hit;
    if (!app_find_target(app, &hit)) return false;
    hotbar_pick(&app->hotbar, cell_contents(hit.value));
    return true;
}

void app_set_screen(App *app, AppScreen screen)
{
    if (app->screen == screen) return;
    app->screen = screen;
    app->input.ui_open = screen != APP_SCREEN_PLAY;
    app->input.dig_held = app->input.place_held = false;
    bool driven = app->opts.script_path || app->opts.frames > 0;
    if (screen != APP_SCREEN_PLAY) input_set_captured(&app->input, false);
    else if (!driven) input_set_captured(&app->input, true);
}

void app_teleport(App *app, double x, double y, double z)
{
    app->player.position[0] = x;
    app->player.position[1] = y;
    app->player.position[2] = z;
    app->player.velocity[0] = app->player.velocity[1] = app->player.velocity[2] = 0.0;
    app->pending_spawn = false;
    const TerrainChunk *c = terrain_get_chunk_at_cell(app->world.terrain, (int)floor(x), (int)floor(z));
    if (!c || c->state != CHUNK_STATE_VALID) app_loading_begin(app, "teleport");
}

void app_look(App *app, float yaw_deg, float pitch_deg)
{
    app->player.yaw_deg = camera_wrap_yaw(yaw_deg);
    app->player.pitch_deg = camera_clamp_pitch(pitch_deg);
}

void app_set_flying(App *app, bool flying) { app->player.flying = flying; }

void app_set_time(App *app, double time_of_day)
{
    app->time_of_day = daytime_wrap(time_of_day);
    app->time_frozen = true;
}

void app_set_hud(App *app, bool show) { app->show_hud = show; }

void app_request_screenshot(App *app, const char *path)
{
    snprintf(app->screenshot_path, sizeof app->screenshot_path, "%s", path);
}

void app_request_quit(App *app) { app->quit = true; }

void app_probe_request(App *app, FrameProbeRead read)
{
    app->probe.hide_highlight = true;
    app->probe.read = read;
}

/* ---- settings ---- */

void app_change_setting(App *app, UserSettingId id, double value)
{
    user_settings_set(&app->settings_file, id, value);
    user_settings_set(&app->settings, id, value);
    double v = app->settings.values[id];
    switch (id) {
    case USER_SETTING_VIEW_DISTANCE:
        app->opts.view_distance = (int)v;
        renderer_set_view_distance(app->renderer, (int)v);
        break;
    case USER_SETTING_BRIGHTNESS: app_set_brightness(app, (float)v); break;
    case USER_SETTING_FULLSCREEN:
        SDL_SetWindowFullscreen(app->window, v != 0.0 ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        break;
    case USER_SETTING_VSYNC:
        if (!app->opts.script_path && app->opts.frames == 0) SDL_GL_SetSwapInterval(v != 0.0 ? 1 : 0);
        break;
    default: break; /* read where they are used: fov, mouse, GUI scale, volume */
    }
    if (app->settings_path[0] && user_settings_save(app->settings_path, &app->settings_file) != ST_OK)
        log_warn("game", "%s", st_error_message());
}

void app_far_follow_view(App *app)
{
    int want = app->opts.view_distance;
    if (!app->far || want == app->far_ring_chunks) return;
    if (want > app->far_ring_chunks && !app_world_ready(app)) return;
    far_terrain_set_voxel_distance(app->far, (float)(want * CHUNK_SIZE_X));
    log_info("game", "far terrain follows view distance %d (was %d)", want, app->far_ring_chunks);
    app->far_ring_chunks = want;
}

void app_screenshot_timestamped(App *app)
{
    char worlds[APP_PATH_MAX];
    if (serializer_default_worlds_dir(worlds, sizeof worlds) != ST_OK) {
        log_warn("game", "screenshot: %s", st_error_message());
        return;
    }
    char *slash = strrchr(worlds, '/');
    if (slash) *slash = 0;
    char dir[APP_PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/screenshots", worlds);
    if (fileio_make_dirs(dir) != ST_OK) {
        log_warn("game", "screenshot: %s", st_error_message());
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d_%H.%M.%S", &tm);
    char path[SCRIPT_TEXT_MAX];
    snprintf(path, sizeof path, "%.400s/strata_%s.png", dir, stamp);
    for (int n = 2; fileio_exists(path) && n < 100; n++)
        snprintf(path, sizeof path, "%.400s/strata_%s_%d.png", dir, stamp, n);
    app_request_screenshot(app, path);
}

int app_block_at(const App *app, int x, int y, int z)
{
    /* edit_get_cell reads only chunks whose contents exist (state >= InvalidLight), with a relaxed atomic
     * load: a chunk the worker is still generating is never touched from the main thread */
    int32_t v = edit_get_cell(app->world.terrain, x, y, z);
    return v < 0 ? BLOCK_AIR : cell_contents(v);
}
