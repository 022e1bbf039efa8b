/* script_run.c — playing a parsed script, frame by frame.
 *
 * Design: each frame the runner executes commands until one needs frames to pass (wait, wait_ready, move,
 * jump, screenshot). Instant commands (look, teleport, fly, select, time) chain
 * within a frame, so "look 0 -30" followed by "screenshot a.png" shoots the new view; a screenshot ends the
 * frame's commands, so it shows the world as the script has it at that line. The app runs
 * scripted games in lockstep (one 1/60 s physics step per frame), so a script does the same thing on any
 * machine. dig and place wait afterwards until the world is ready again (relit, remeshed, uploaded), so
 * the next screenshot shows the change. wait_ready also lets the fade-in of the last chunks finish. Both
 * give up after APP_READY_FRAME_CAP frames with an error.
 * dig_visible_within measures instead of waiting: frame R reads the crosshair box as the reference (no
 * block outline from then on, since the outline moves as soon as the cell changes), frame R+1 digs before
 * its update and draw (probe frame 0), and every frame after is compared with the reference until one
 * differs notably (frame_probe.h): that frame's number is the latency K (the limit applies to it). The log
 * line also gives how many of those frames began with the world ready again (the worker done with the
 * edit): that count does not grow when a loaded machine slows the worker down. */
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
        case SCRIPT_WAIT_READY: {
            /* Ready, then ready for as long as the fade-in of the last chunks takes (in the renderer's
             * time: the frame_seconds the app hands it, at least 1/60 s a frame). */
            double fade = app_fade_in_seconds(app);
            if (app_world_ready(app)) {
                r->ready_seconds += app->last_render_seconds;
            } else {
                r->ready_seconds = 0.0;
            }
            if (r->ready_seconds < fade) {
                if (++r->counter > APP_READY_FRAME_CAP) return ready_timeout(app, c, "wait_ready");
                return ST_OK;
            }
            log_info(SCRIPT_TAG, "%s:%d: world ready after %ld frames", app->script.path, c->line, r->counter);
            r->ready_seconds = 0.0;
            break;
        }
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
            app_sync_meta(app);
            StResult rc = world_session_save_all(&app->world);
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
