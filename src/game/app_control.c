/* app_control.c — the App's control surface: what input handling and the script runner may change.
 *
 * Design: the script runner (script_run.c) and the input code act on the game only through these calls, so
 * the rules that go with a change live in one place (a teleport also stops the player and ends the spawn
 * hover; a look clamps the pitch; setting the time freezes the clock). Hands-on-the-world actions (dig,
 * place, target) build an Interaction from the App's world and renderer and call interact.c, which never
 * sees the App. */
#include "app.h"

#include <stdio.h>

#include "camera.h"
#include "daytime.h"
#include "interact.h"

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
    return interact_dig(&world, &app->player);
}

bool app_place(App *app, int block)
{
    Interaction world = app_interaction(app);
    return interact_place(&world, &app->player, block);
}

void app_select_block(App *app, int block)
{
    app->selected_block = block;
    app->selected_slot = 0;
    for (int i = 0; i < APP_HOTBAR_SLOTS; i++)
        if (app->hotbar[i] == block) { app->selected_slot = i + 1; break; }
}

void app_teleport(App *app, double x, double y, double z)
{
    app->player.position[0] = x;
    app->player.position[1] = y;
    app->player.position[2] = z;
    app->player.velocity[0] = app->player.velocity[1] = app->player.velocity[2] = 0.0;
    app->pending_spawn = false;
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

double app_fade_in_seconds(const App *app)
{
    return renderer_fade_in_seconds(app->renderer) + APP_FADE_MARGIN_SECONDS;
}

void app_probe_request(App *app, FrameProbeRead read)
{
    app->probe.hide_highlight = true;
    app->probe.read = read;
}
