/* script_run.c — playing a parsed script, frame by frame.
 *
 * Design: each frame the runner executes commands until one needs frames to pass (wait, wait_ready, move,
 * jump, screenshot). Instant commands (look, teleport, fly, select, time) chain
 * within a frame, so "look 0 -30" followed by "screenshot a.png" shoots the new view; a screenshot ends the
 * frame's commands, so it shows the world as the script has it at that line. The app runs
 * scripted games in lockstep (one 1/60 s physics step per frame), so a script does the same thing on any
 * machine. dig and place wait afterwards until the world is ready again (relit, remeshed, uploaded), so
 * the next screenshot shows the change. wait_ready also waits for the loading screen to end and for the fade-in
 * of the last chunks to finish. Both
 * give up after APP_READY_FRAME_CAP frames with an error.
 * dig_visible_within measures instead of waiting: frame R reads the crosshair box as the reference (no
 * block outline from then on, since the outline moves as soon as the cell changes), frame R+1 digs before
 * its update and draw (probe frame 0), and every frame after is compared with the reference until one
 * differs notably (frame_probe.h): that frame's number is the latency K (the limit applies to it). The log
 * line also gives how many of those frames began with the world ready again (the worker done with the
 * edit): that count does not grow when a loaded machine slows the worker down.
 * brush_visible_within measures a stroke's whole latency: once the world is ready, the brush is painted at
 * the start of a frame (frame 0); the first frame whose runner finds the world ready again (every chunk the
 * stroke downgraded relit, remeshed and uploaded by the previous frame's draw) gives K = that frame - 1, the
 * frame that put the last changed chunk on screen. Frames are paced at 60 Hz meanwhile, as for the dig. */
#include "app.h"

#include "settings.h"
#include "strata/error.h"
#include "strata/log.h"

#define SCRIPT_TAG "script"

static StResult ready_timeout(App *app, const ScriptCommand *c, const char *what)
{
    UpdaterStats st;
    updater_get_stats(app->world.updater, &st);
    return st_fail(ST_ERR_STATE,
                   "%s:%d: %s: the world was not ready after %ld frames (%d chunks allocated, %d valid; player at "
                   "%.1f %.1f %.1f)",
                   app->script.path, c->line, what, APP_READY_FRAME_CAP, st.allocated, st.valid,
                   app->player.position[0], app->player.position[1], app->player.position[2]);
}

/* One frame of dig_visible_within. *done: the dig showed within the limit (go on with the next command). */
static StResult dig_visible_frame(App *app, const ScriptCommand *c, bool *done)
{
    ScriptRunner *r = &app->runner;
    const FrameProbe *p = &app->probe;
    const char *path = app->script.path;
    *done = false;
    switch (r->probe_phase) {
    case 0:
        app_probe_reset(app);
        app_probe_request(app, PROBE_READ_REFERENCE);
        r->probe_phase = 1;
        return ST_OK;
    case 1:
        if (!app_dig(app)) {
            app_probe_reset(app);
            return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within: no block within reach to dig", path, c->line);
        }
        r->probe_frame = 0;
        r->probe_ready_frame = -1;
        r->probe_phase = 2;
        app_probe_request(app, PROBE_READ_COMPARE);
        return ST_OK;
    default:
        break;
    }
    if (p->changed) {
        long k = r->probe_frame;
        long after_worker = r->probe_ready_frame >= 0 && r->probe_ready_frame <= k ? k - r->probe_ready_frame + 1 : 0;
        int pixels = p->w * p->h;
        log_info(SCRIPT_TAG,
                 "%s:%d: dig visible after %ld frames, %ld after the worker finished (%.1f%% of the %dx%d crosshair box "
                 "changed)",
                 path, c->line, k, after_worker, pixels ? 100.0 * p->differing / pixels : 0.0, p->w, p->h);
        app_probe_reset(app);
        if (k > c->frames)
            return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within %ld: the dig showed after %ld frames", path,
                           c->line, c->frames, k);
        *done = true;
        return ST_OK;
    }
    if (r->probe_frame >= c->frames + APP_PROBE_EXTRA_FRAMES) {
        app_probe_reset(app);
        return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within %ld: the dig did not show within %ld frames", path,
                       c->line, c->frames, r->probe_frame);
    }
    r->probe_frame++;
    /* Frames that begin with the world ready (relit, remeshed, uploaded) count apart: how many of them pass
     * before the dig shows depends on the main thread only, not on how fast the worker got there. */
    if (r->probe_ready_frame < 0 && app_world_ready(app)) r->probe_ready_frame = r->probe_frame;
    app_probe_request(app, PROBE_READ_COMPARE);
    return ST_OK;
}

/* One frame of brush_visible_within. *done: the stroke showed within the limit. */
static StResult brush_visible_frame(App *app, const ScriptCommand *c, bool *done)
{
    ScriptRunner *r = &app->runner;
    const char *path = app->script.path;
    *done = false;
    if (r->probe_phase == 0) {
        if (!app_world_ready(app)) {
            if (++r->counter > APP_READY_FRAME_CAP) return ready_timeout(app, c, "brush_visible_within");
            return ST_OK;
        }
        ScriptCommand stroke = *c;
        stroke.op = SCRIPT_BRUSH;
        bool changed = false;
        StResult rc = app_run_edit_command(app, &stroke, &changed);
        if (rc != ST_OK) return rc;
        if (!changed)
            return st_fail(ST_ERR_STATE, "%s:%d: brush_visible_within: the stroke changed no cell (no block within "
                           "reach?)", path, c->line);
        r->probe_frame = 0;
        r->probe_phase = 2;
        return ST_OK;
    }
    r->probe_frame++;
    if (app_world_ready(app)) {
        long k = r->probe_frame - 1;
        log_info(SCRIPT_TAG, "%s:%d: brush visible after %ld frames", path, c->line, k);
        r->probe_phase = 0;
        if (k > c->frames)
            return st_fail(ST_ERR_STATE, "%s:%d: brush_visible_within %ld: the stroke showed after %ld frames", path,
                           c->line, c->frames, k);
        *done = true;
        return ST_OK;
    }
    if (r->probe_frame > APP_READY_FRAME_CAP) return ready_timeout(app, c, "brush_visible_within");
    return ST_OK;
}

/* goto_structure and station (app_structures.c). */
static StResult script_run_structure(App *app, const ScriptCommand *c, bool *changed)
{
    *changed = false;
    if (c->op == SCRIPT_GOTO_STRUCTURE) return app_goto_structure(app, c);
    return app_run_station_command(app, c, changed);
}

StResult script_runner_frame(App *app, PlayerInput *input)
{
    ScriptRunner *r = &app->runner;
    while (r->active) {
        if (r->settle) {
            /* Ready again, and the particles of the edit have fallen (screenshots show the world). */
            if (app_world_ready(app) && app->particles.count == 0) {
                r->settle = false;
            } else {
                if (++r->settle_frames > APP_READY_FRAME_CAP)
                    return ready_timeout(app, &app->script.commands[r->pc - 1], "after the edit");
                return ST_OK;
            }
        }
        if (r->pc >= app->script.count) {
            r->active = false;
            log_info(SCRIPT_TAG, "%s: finished without quit; running on", app->script.path);
            break;
        }
        const ScriptCommand *c = &app->script.commands[r->pc];
        switch (c->op) {
        case SCRIPT_WAIT_READY:
            /* Ready, no loading screen, and no chunk still fading in (the first load ends all fades). */
            if (!app_world_settled(app)) {
                if (++r->counter > APP_READY_FRAME_CAP) return ready_timeout(app, c, "wait_ready");
                return ST_OK;
            }
            log_info(SCRIPT_TAG, "%s:%d: world ready after %ld frames", app->script.path, c->line, r->counter);
            break;
        case SCRIPT_WAIT:
            if (r->counter < c->frames) { r->counter++; return ST_OK; }
            break;
        case SCRIPT_TELEPORT:
            app_teleport(app, c->args[0], c->args[1], c->args[2]);
            break;
        case SCRIPT_LOOK:
            app_look(app, (float)c->args[0], (float)c->args[1]);
            break;
        case SCRIPT_MOVE:
            if (r->counter < c->frames) {
                input->forward = (float)c->args[0];
                input->right = (float)c->args[1];
                input->up = (float)c->args[2];
                r->counter++;
                if (r->counter < c->frames) return ST_OK;
                r->pc++;
                r->counter = 0;
                return ST_OK;
            }
            break;
        case SCRIPT_JUMP:
            input->jump = true;
            r->pc++;
            r->counter = 0;
            return ST_OK;
        case SCRIPT_FLY:
            app_set_flying(app, c->on);
            break;
        case SCRIPT_DIG:
            if (app_dig(app)) r->settle = true;
            else log_warn(SCRIPT_TAG, "%s:%d: dig: no block within reach", app->script.path, c->line);
            r->settle_frames = 0;
            break;
        case SCRIPT_PLACE:
            if (app_place(app, c->block)) r->settle = true;
            else log_warn(SCRIPT_TAG, "%s:%d: place %s: no free face within reach", app->script.path, c->line, c->text);
            r->settle_frames = 0;
            break;
        case SCRIPT_SELECT:
            app_select_block(app, c->block);
            break;
        case SCRIPT_SCREENSHOT:
            /* The frame is drawn and saved now: later commands wait for the next frame. */
            app_request_screenshot(app, c->text);
            r->pc++;
            r->counter = 0;
            return ST_OK;
        case SCRIPT_TIME:
            app_set_time(app, c->args[0]);
            break;
        case SCRIPT_SAVE: {
            StResult rc = app_save_world(app);
            if (rc != ST_OK) return st_fail_context(rc, "%s:%d: save", app->script.path, c->line);
            log_info(SCRIPT_TAG, "%s:%d: saved world %s", app->script.path, c->line, app->world.dir);
            break;
        }
        case SCRIPT_BRIGHTNESS:
            app_set_brightness(app, (float)c->args[0]);
            break;
        case SCRIPT_SEASON:
            app_set_season(app, c->season);
            break;
        case SCRIPT_HUD:
            app_set_hud(app, c->on);
            break;
        case SCRIPT_DIG_VISIBLE_WITHIN: {
            bool done = false;
            StResult rc = dig_visible_frame(app, c, &done);
            if (rc != ST_OK) return rc;
            if (!done) return ST_OK;
            r->probe_phase = 0;
            break;
        }
        case SCRIPT_MENU: {
            static const AppScreen screens[] = {APP_SCREEN_PLAY, APP_SCREEN_PAUSE, APP_SCREEN_PICKER,
                                                APP_SCREEN_SETTINGS};
            app_set_screen(app, screens[c->menu]);
            break;
        }
        case SCRIPT_HOTBAR:
            app_set_hotbar(app, c->slot - 1, c->block);
            break;
        case SCRIPT_SELECT_SLOT:
            app_select_slot(app, c->slot - 1);
            break;
        case SCRIPT_PICK:
            if (!app_pick(app)) log_warn(SCRIPT_TAG, "%s:%d: pick: no block within reach", app->script.path, c->line);
            break;
        case SCRIPT_SETTING:
            app_change_setting(app, (UserSettingId)c->slot, c->args[0]);
            break;
        case SCRIPT_BRUSH_VISIBLE_WITHIN: {
            bool done = false;
            StResult rc = brush_visible_frame(app, c, &done);
            if (rc != ST_OK) return rc;
            if (!done) return ST_OK;
            break;
        }
        case SCRIPT_BRUSH:
        case SCRIPT_RAISE:
        case SCRIPT_FLATTEN:
        case SCRIPT_SMOOTH:
        case SCRIPT_PAINT:
        case SCRIPT_UNDO:
        case SCRIPT_REDO:
        case SCRIPT_TICK: {
            bool changed = false;
            StResult rc = app_run_edit_command(app, c, &changed);
            if (rc != ST_OK) return rc;
            if (changed) r->settle = true;
            r->settle_frames = 0;
            break;
        }
        case SCRIPT_GOTO_STRUCTURE:
        case SCRIPT_STATION: {
            bool changed = false;
            StResult rc = script_run_structure(app, c, &changed);
            if (rc != ST_OK) return rc;
            if (changed) r->settle = true;
            r->settle_frames = 0;
            break;
        }
        case SCRIPT_QUIT:
            app_request_quit(app);
            r->active = false;
            r->pc++;
            return ST_OK;
        case SCRIPT_OP_COUNT:
            break;
        }
        r->pc++;
        r->counter = 0;
    }
    return ST_OK;
}
