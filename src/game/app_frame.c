/* app_frame.c — one frame's steps (app.c's loop calls them in order) and the changes that touch several of
 * the App's parts at once: a setting (the view distance reaches the renderer, the brightness the worker, the
 * fullscreen flag the window), a screen (the input's mouse capture).
 *
 * Design: each step builds the scene of the part it calls (ToolsScene, BenchScene, UiScene) from the App and
 * leaves the rules to that part; this file only decides what goes where in a frame. Input acts only when the
 * screen allows it: the loading screen takes quit, resize, F2 and F11; a menu takes its clicks, the wheel and
 * the slot keys, and no looking, digging or toggles behind it. */
#include "app.h"

#include <math.h>
#include <string.h>

#include "camera.h"
#include "daytime.h"
#include "settings.h"
#include "ui/loading.h"
#include "ui/hud_fill.h"
#include "ui/screens.h"

ToolsScene app_tools_scene(App *app)
{
    ToolsScene scene = {&app->world, &app->player, app->view.renderer, &app->audio};
    return scene;
}

BenchScene app_bench_scene(App *app)
{
    BenchScene scene = {&app->world, &app->player, &app->view, &app->opts,
                        app->ui.settings.values[USER_SETTING_FOV]};
    return scene;
}

static bool app_driven(const App *app) { return app->opts.script_path || app->opts.frames > 0; }

void app_set_screen(App *app, UiScreen screen) { game_ui_set_screen(&app->ui, &app->input, screen, app_driven(app)); }

void app_change_setting(App *app, UserSettingId id, double value)
{
    game_ui_store_setting(&app->ui, id, value);
    double v = app->ui.settings.values[id];
    switch (id) {
    case USER_SETTING_VIEW_DISTANCE:
        app->opts.view_distance = (int)v;
        renderer_set_view_distance(app->view.renderer, (int)v);
        break;
    case USER_SETTING_BRIGHTNESS: world_session_set_brightness(&app->world, (float)v); break;
    case USER_SETTING_FULLSCREEN:
        SDL_SetWindowFullscreen(app->view.window, v != 0.0 ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        break;
    case USER_SETTING_VSYNC:
        if (!app_driven(app)) SDL_GL_SetSwapInterval(v != 0.0 ? 1 : 0);
        break;
    default: break; /* read where they are used: fov, mouse, GUI scale, volume */
    }
}

static UiScene app_ui_scene(App *app)
{
    UiScene scene = {app->view.renderer, app->view.window, app->view.drawable_w, app->view.drawable_h,
                     app->world.blocks, &app->tools.hotbar, &app->input};
    return scene;
}

/* What a click on a screen asked for (screens.h). */
static void app_apply_ui_action(App *app, UiAction act)
{
    switch (act.kind) {
    case UI_ACTION_SELECT_SLOT: hotbar_select(&app->tools.hotbar, act.slot); break;
    case UI_ACTION_SET_SLOT: hotbar_set(&app->tools.hotbar, act.slot, act.block); break;
    case UI_ACTION_SCREEN: app_set_screen(app, act.screen); break;
    case UI_ACTION_QUIT: app->quit = true; break; /* app_run saves on the way out */
    case UI_ACTION_SETTING: app_change_setting(app, act.setting, act.value); break;
    case UI_ACTION_NONE: break;
    }
}

/* The screens' keys: Escape, the picker, clicks, the wheel and the slot keys. */
static void app_apply_screen_input(App *app, const InputState *in)
{
    UiScreen screen = app->ui.screen;
    if (in->escape) app_set_screen(app, screen == UI_SCREEN_PLAY ? UI_SCREEN_PAUSE : UI_SCREEN_PLAY);
    if (in->toggle_picker) {
        if (app->ui.screen == UI_SCREEN_PLAY) app_set_screen(app, UI_SCREEN_PICKER);
        else if (app->ui.screen == UI_SCREEN_PICKER) app_set_screen(app, UI_SCREEN_PLAY);
    }
    if (in->ui_click && app->ui.screen != UI_SCREEN_PLAY) {
        UiScene scene = app_ui_scene(app);
        app_apply_ui_action(app, ui_screens_click(&app->ui, &scene, in->mouse_x, in->mouse_y));
    }
    bool hotbar_keys = app->ui.screen == UI_SCREEN_PLAY || app->ui.screen == UI_SCREEN_PICKER;
    if (in->wheel != 0 && hotbar_keys) hotbar_scroll(&app->tools.hotbar, in->wheel);
    if (in->select_slot > 0 && hotbar_keys) hotbar_select(&app->tools.hotbar, in->select_slot - 1);
}

void app_apply_input(App *app, double dt)
{
    InputState *in = &app->input;
    const UserSettings *settings = &app->ui.settings;
    if (in->resized) game_view_resize(&app->view);
    if (in->toggle_fullscreen)
        app_change_setting(app, USER_SETTING_FULLSCREEN, settings->values[USER_SETTING_FULLSCREEN] != 0.0 ? 0 : 1);
    if (in->screenshot) game_view_screenshot_timestamped(&app->view);
    if (app->world.loading.active) return; /* the loading screen takes no input but quit, resize, F2 and F11 */
    app_apply_screen_input(app, in);
    if (app->ui.screen != UI_SCREEN_PLAY) return; /* menus: no looking, digging or toggles behind them */
    Player *p = &app->player;
    if (in->mouse_captured && (in->look_dx != 0.0f || in->look_dy != 0.0f)) {
        float deg = INPUT_MOUSE_DEG_PER_PIXEL * (float)settings->values[USER_SETTING_MOUSE_SENSITIVITY];
        float invert = settings->values[USER_SETTING_INVERT_MOUSE] != 0.0 ? -1.0f : 1.0f;
        p->yaw_deg = camera_wrap_yaw(p->yaw_deg + in->look_dx * deg);
        p->pitch_deg = camera_clamp_pitch(p->pitch_deg - in->look_dy * deg * invert);
    }
    if (in->toggle_fly) {
        p->flying = !p->flying;
        p->velocity[1] = 0.0;
    }
    WorldSession *w = &app->world;
    if (in->toggle_hud) app->view.show_hud = !app->view.show_hud;
    if (in->advance_time) w->time_of_day = daytime_wrap(w->time_of_day + DAYTIME_STEP);
    if (in->cycle_brightness) world_session_set_brightness(w, settings_brightness_next(w->brightness));
    if (in->cycle_season) world_session_set_season(w, settings_season_next(w->season));
    ToolsScene scene = app_tools_scene(app);
    if (in->pick) game_tools_pick(&app->tools, &scene);
    game_tools_press(&app->tools, &scene, in, dt);
}

void app_update_world(App *app, double dt)
{
    WorldSession *w = &app->world;
    world_session_advance(w, dt, w->loading.active || game_ui_paused(&app->ui));
    world_session_exchange(w, &app->player, app->opts.view_distance, app->view.renderer);
    game_tools_frame(&app->tools, w, dt);
    world_session_autosave(w, &app->player, &app->tools.hotbar, dt, app->opts.autosave_seconds);
}

/* While loading, a frame of the loading screen is drawn only every APP_LOADING_FRAME_SECONDS (on llvmpipe a
 * frame is a full-window clear and swap: at 60 Hz its threads took ~0.25 s of CPU from the chunks' threads at
 * view distance 8), but the world does not wait for the next frame: the exchange gives the worker its next
 * chunks to allocate (at most UPDATE_ALLOCATION_AHEAD wait) and takes finished meshes, which go up at once
 * (nothing is drawn meanwhile, so there is no budget to keep). The last upload ends the wait, so the next
 * frame ends the loading screen. */
void app_wait_loading(App *app, uint64_t frame_start, double frame_seconds)
{
    WorldSession *w = &app->world;
    Renderer *r = app->view.renderer;
    double freq = (double)SDL_GetPerformanceFrequency();
    for (;;) {
        double left_ms = (frame_seconds - (double)(SDL_GetPerformanceCounter() - frame_start) / freq) * 1000.0;
        if (left_ms <= 0.0) return;
        SDL_Delay(left_ms < APP_LOADING_POLL_MS ? (Uint32)left_ms + 1 : APP_LOADING_POLL_MS);
        world_session_place_spawn(w, &app->player, app->opts.view_distance);
        world_session_exchange(w, &app->player, app->opts.view_distance, r);
        RenderCamera cam = {0};
        player_eye(&app->player, cam.position);
        renderer_flush_uploads(r, &cam);
        if (world_session_ready(w, r)) return;
    }
}

/* The frame's camera and everything the renderer draws besides the chunks. */
static void app_compose_frame(App *app, double dt, const HudLines *lines, RenderCamera *cam, RenderFrame *frame)
{
    const GameView *v = &app->view;
    const GameTools *t = &app->tools;
    player_eye(&app->player, cam->position);
    cam->yaw_deg = app->player.yaw_deg;
    cam->pitch_deg = app->player.pitch_deg;
    cam->fov_y_deg = (float)app->ui.settings.values[USER_SETTING_FOV];
    memset(frame, 0, sizeof *frame);
    frame->time_of_day = app->world.time_of_day;
    frame->sky_brightness = daytime_light_intensity(app->world.time_of_day);
    frame->highlight = t->has_target && !app->probe.hide_highlight;
    frame->highlight_cell[0] = t->target.x;
    frame->highlight_cell[1] = t->target.y;
    frame->highlight_cell[2] = t->target.z;
    if (t->has_target)   /* the outline of a snow layer, a torch or a plant is its own box, not its cell */
        block_shape_bounds((BlockShape)app->world.blocks->shape[cell_contents(t->target.value)],
                           frame->highlight_min, frame->highlight_max);
    bool playing = app->ui.screen == UI_SCREEN_PLAY;
    frame->show_hud = v->show_hud && playing;
    for (int i = 0; i < lines->count; i++) frame->hud_lines[i] = lines->text[i];
    frame->frame_seconds = (float)dt;
    ToolsScene scene = app_tools_scene(app);
    frame->preview = !app->probe.hide_highlight && !app->world.loading.active &&
                     game_tools_preview(&app->tools, &scene, frame->preview_min, frame->preview_max);
    frame->particles = t->particles.draw;
    frame->particle_count = app->probe.hide_highlight ? 0 : t->particles.count; /* the probe watches cells only */
    /* The editing strip (edit_overlay.c) shows only the tool now: the hotbar has its own row (ui/screens.c). */
    if (v->show_hud && playing && t->tool != GAME_TOOL_BLOCK) {
        static const uint8_t tool_color[3] = {230, 200, 60};
        memcpy(frame->strip_colors[0], tool_color, 3);
        frame->strip_count = 1;
        frame->strip_selected = 0;
    } else {
        frame->strip_selected = -1;
    }
    frame->sky_detail = true;
    frame->eye_medium = world_session_medium_at(&app->world, cam->position);
    frame->game_seconds = app->world.meta.game_time;
}

StResult app_draw_frame(App *app, double dt, HudInfo *hud)
{
    GameView *v = &app->view;
    WorldSession *w = &app->world;
    ToolsScene scene = app_tools_scene(app);
    app->tools.has_target = !w->loading.active && game_tools_find_target(&scene, &app->tools.target);
    hud_fill_info(hud, &app->ui, w, &app->player, &app->tools, v->renderer, fps_meter_fps(&app->fps));
    HudLines lines;
    hud_compose(hud, &lines);
    RenderCamera cam;
    RenderFrame frame;
    app_compose_frame(app, dt, &lines, &cam, &frame);
    /* The fog follows the biome at the player, eased; behind a loading screen (launch, teleport) it is taken
     * as it is there, so the world appears in its own fog. */
    biome_fog_update(&v->fog, v->biomes, w->generator, cam.position[0], cam.position[2], dt, w->loading.active);
    if (v->fog.started) renderer_set_fog(v->renderer, v->fog.current.color, v->fog.current.density);
    if (w->loading.active) {
        frame.upload_ms = APP_LOADING_UPLOAD_MS;
        ui_loading_draw(v->renderer, v->drawable_w, v->drawable_h, w, &app->opts, &cam, &frame);
    } else {
        /* Inside a fluid the view is tinted (the renderer closes the fog in); inside a block it is dark. */
        static const uint32_t tints[] = {0, 0x2050A060, 0xE0601890, 0x000000FF};
        if (frame.eye_medium != RENDER_MEDIUM_AIR)
            renderer_ui_rect(v->renderer, 0, 0, (float)v->drawable_w, (float)v->drawable_h, tints[frame.eye_medium]);
        UiScene ui_scene = app_ui_scene(app);
        ui_screens_queue(&app->ui, &ui_scene);
        /* A screenshot shows every chunk that has geometry, not just those the upload budget reached. */
        bool full = v->screenshot_path[0] || (app->quit && app->opts.screenshot_path);
        if (full) renderer_flush_uploads(v->renderer, &cam);
        /* Far terrain starts once the voxel world is loaded (its worker would slow the loading down). */
        if (v->far) {
            game_view_far_follow(v, app->opts.view_distance, world_session_ready(w, v->renderer));
            game_view_update_far(v, &cam, full, app->opts.far_distance);
        }
        renderer_draw(v->renderer, &cam, &frame);
    }
    StResult rc = game_view_write_screenshots(v, app->quit ? app->opts.screenshot_path : NULL);
    if (rc != ST_OK) return rc;
    return crosshair_probe_after_draw(&app->probe, v->renderer, v->drawable_w, v->drawable_h);
}
