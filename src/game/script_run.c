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
 * give up after SCRIPT_READY_FRAME_CAP frames with an error.
 * dig_visible_within measures instead of waiting: frame R reads the crosshair box as the reference (no
 * block outline from then on, since the outline moves as soon as the cell changes), frame R+1 digs before
 * its update and draw (probe frame 0), and every frame after is compared with the reference until one
 * differs notably (frame_probe.h): that frame's number is the latency K (the limit applies to it). The log
 * line also gives how many of those frames began with the world ready again (the worker done with the
 * edit): that count does not grow when a loaded machine slows the worker down.
 * brush_visible_within measures a stroke's whole latency: once the world is ready, the brush is painted at
 * the start of a frame (frame 0); the first frame whose runner finds the world ready again (every chunk the
 * stroke downgraded relit, remeshed and uploaded by the previous frame's draw) gives K = that frame - 1, the
 * frame that put the last changed chunk on screen. Frames are paced at 60 Hz meanwhile, as for the dig.
 * The commands are a table, SCRIPT_COMMANDS, indexed by ScriptOp like script.c's names and argument specs
 * (the parser's side): each entry is the command's handler, which says how the runner goes on (the next
 * command in this frame, the next frame, stay on this command, or stop). */
#include "script_run.h"

#include "app.h"
#include "camera.h"
#include "session/game_structures.h"
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
                   app->script.path, c->line, what, SCRIPT_READY_FRAME_CAP, st.allocated, st.valid,
                   app->player.position[0], app->player.position[1], app->player.position[2]);
}

/* One frame of dig_visible_within. *done: the dig showed within the limit (go on with the next command). */
static StResult dig_visible_frame(App *app, const ScriptCommand *c, bool *done)
{
    ScriptRunner *r = &app->runner;
    const CrosshairProbe *p = &app->probe;
    const char *path = app->script.path;
    *done = false;
    switch (r->probe_phase) {
    case 0:
        crosshair_probe_reset(&app->probe);
        crosshair_probe_request(&app->probe, PROBE_READ_REFERENCE);
        r->probe_phase = 1;
        return ST_OK;
    case 1:
        ToolsScene scene = app_tools_scene(app);
        if (!game_tools_dig(&scene)) {
            crosshair_probe_reset(&app->probe);
            return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within: no block within reach to dig", path, c->line);
        }
        r->probe_frame = 0;
        r->probe_ready_frame = -1;
        r->probe_phase = 2;
        crosshair_probe_request(&app->probe, PROBE_READ_COMPARE);
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
        crosshair_probe_reset(&app->probe);
        if (k > c->frames)
            return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within %ld: the dig showed after %ld frames", path,
                           c->line, c->frames, k);
        *done = true;
        return ST_OK;
    }
    if (r->probe_frame >= c->frames + SCRIPT_PROBE_EXTRA_FRAMES) {
        crosshair_probe_reset(&app->probe);
        return st_fail(ST_ERR_STATE, "%s:%d: dig_visible_within %ld: the dig did not show within %ld frames", path,
                       c->line, c->frames, r->probe_frame);
    }
    r->probe_frame++;
    /* Frames that begin with the world ready (relit, remeshed, uploaded) count apart: how many of them pass
     * before the dig shows depends on the main thread only, not on how fast the worker got there. */
    if (r->probe_ready_frame < 0 && world_session_ready(&app->world, app->view.renderer)) r->probe_ready_frame = r->probe_frame;
    crosshair_probe_request(&app->probe, PROBE_READ_COMPARE);
    return ST_OK;
}

/* One frame of brush_visible_within. *done: the stroke showed within the limit. */
static StResult brush_visible_frame(App *app, const ScriptCommand *c, bool *done)
{
    ScriptRunner *r = &app->runner;
    const char *path = app->script.path;
    *done = false;
    if (r->probe_phase == 0) {
        if (!world_session_ready(&app->world, app->view.renderer)) {
            if (++r->counter > SCRIPT_READY_FRAME_CAP) return ready_timeout(app, c, "brush_visible_within");
            return ST_OK;
        }
        ScriptCommand stroke = *c;
        stroke.op = SCRIPT_BRUSH;
        bool changed = false;
        ToolsScene scene = app_tools_scene(app);
        StResult rc = game_tools_run_command(&app->tools, &scene, &stroke, path, &changed);
        if (rc != ST_OK) return rc;
        if (!changed)
            return st_fail(ST_ERR_STATE, "%s:%d: brush_visible_within: the stroke changed no cell (no block within "
                           "reach?)", path, c->line);
        r->probe_frame = 0;
        r->probe_phase = 2;
        return ST_OK;
    }
    r->probe_frame++;
    if (world_session_ready(&app->world, app->view.renderer)) {
        long k = r->probe_frame - 1;
        log_info(SCRIPT_TAG, "%s:%d: brush visible after %ld frames", path, c->line, k);
        r->probe_phase = 0;
        if (k > c->frames)
            return st_fail(ST_ERR_STATE, "%s:%d: brush_visible_within %ld: the stroke showed after %ld frames", path,
                           c->line, c->frames, k);
        *done = true;
        return ST_OK;
    }
    if (r->probe_frame > SCRIPT_READY_FRAME_CAP) return ready_timeout(app, c, "brush_visible_within");
    return ST_OK;
}

/* ---- the command table ---- */

/* How the runner goes on after a command's handler. */
typedef enum ScriptStep {
    STEP_NEXT = 0,                /* done: the next command, in this frame */
    STEP_NEXT_FRAME,              /* done: the next command, next frame (the frame must pass first) */
    STEP_HOLD,                    /* not done: this command again next frame */
    STEP_STOP,                    /* done, and the script ends */
} ScriptStep;

typedef StResult (*ScriptHandler)(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step);

/* After a command that may change the world: when it did, wait until the world is ready again. */
static void settle_after(App *app, bool changed)
{
    if (changed) app->runner.settle = true;
    app->runner.settle_frames = 0;
}

static const char *script_path(const App *app) { return app->script.path; }

static StResult run_wait_ready(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input;
    ScriptRunner *r = &app->runner;
    /* Ready, no loading screen, and no chunk still fading in (the first load ends all fades). */
    if (!world_session_settled(&app->world, app->view.renderer)) {
        if (++r->counter > SCRIPT_READY_FRAME_CAP) return ready_timeout(app, c, "wait_ready");
        *step = STEP_HOLD;
        return ST_OK;
    }
    log_info(SCRIPT_TAG, "%s:%d: world ready after %ld frames", script_path(app), c->line, r->counter);
    return ST_OK;
}

static StResult run_wait(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input;
    if (app->runner.counter < c->frames) {
        app->runner.counter++;
        *step = STEP_HOLD;
    }
    return ST_OK;
}

static StResult run_teleport(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    world_session_teleport(&app->world, &app->player, c->args[0], c->args[1], c->args[2]);
    return ST_OK;
}

static StResult run_look(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    app->player.yaw_deg = camera_wrap_yaw((float)c->args[0]);
    app->player.pitch_deg = camera_clamp_pitch((float)c->args[1]);
    return ST_OK;
}

static StResult run_move(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    ScriptRunner *r = &app->runner;
    if (r->counter >= c->frames) return ST_OK;
    input->forward = (float)c->args[0];
    input->right = (float)c->args[1];
    input->up = (float)c->args[2];
    r->counter++;
    *step = r->counter < c->frames ? STEP_HOLD : STEP_NEXT_FRAME;
    return ST_OK;
}

static StResult run_jump(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)app; (void)c;
    input->jump = true;
    *step = STEP_NEXT_FRAME;
    return ST_OK;
}

static StResult run_fly(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    app->player.flying = c->on;
    return ST_OK;
}

static StResult run_dig(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    ToolsScene scene = app_tools_scene(app);
    bool dug = game_tools_dig(&scene);
    if (!dug) log_warn(SCRIPT_TAG, "%s:%d: dig: no block within reach", script_path(app), c->line);
    settle_after(app, dug);
    return ST_OK;
}

static StResult run_place(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    ToolsScene scene = app_tools_scene(app);
    bool placed = game_tools_place(&scene, c->block);
    if (!placed) log_warn(SCRIPT_TAG, "%s:%d: place %s: no free face within reach", script_path(app), c->line, c->text);
    settle_after(app, placed);
    return ST_OK;
}

static StResult run_select(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    hotbar_pick(&app->tools.hotbar, c->block);
    return ST_OK;
}

static StResult run_screenshot(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input;
    /* The frame is drawn and saved now: later commands wait for the next frame. */
    game_view_request_screenshot(&app->view, c->text);
    *step = STEP_NEXT_FRAME;
    return ST_OK;
}

static StResult run_time(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    world_session_set_time(&app->world, c->args[0]);
    return ST_OK;
}

static StResult run_save(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    StResult rc = world_session_save_game(&app->world, &app->player, &app->tools.hotbar);
    if (rc != ST_OK) return st_fail_context(rc, "%s:%d: save", script_path(app), c->line);
    log_info(SCRIPT_TAG, "%s:%d: saved world %s", script_path(app), c->line, app->world.dir);
    return ST_OK;
}

static StResult run_quit(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)c; (void)input;
    app->quit = true;
    *step = STEP_STOP;
    return ST_OK;
}

static StResult run_brightness(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    world_session_set_brightness(&app->world, (float)c->args[0]);
    return ST_OK;
}

static StResult run_season(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    world_session_set_season(&app->world, c->season);
    return ST_OK;
}

static StResult run_hud(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    app->view.show_hud = c->on;
    return ST_OK;
}

static StResult run_dig_visible(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input;
    bool done = false;
    StResult rc = dig_visible_frame(app, c, &done);
    if (rc != ST_OK) return rc;
    if (!done) *step = STEP_HOLD;
    else app->runner.probe_phase = 0;
    return ST_OK;
}

static StResult run_brush_visible(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input;
    bool done = false;
    StResult rc = brush_visible_frame(app, c, &done);
    if (rc != ST_OK) return rc;
    if (!done) *step = STEP_HOLD;
    return ST_OK;
}

static StResult run_menu(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    static const UiScreen screens[] = {UI_SCREEN_PLAY, UI_SCREEN_PAUSE, UI_SCREEN_PICKER, UI_SCREEN_SETTINGS};
    app_set_screen(app, screens[c->menu]);
    return ST_OK;
}

static StResult run_hotbar(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    hotbar_set(&app->tools.hotbar, c->slot - 1, c->block);
    return ST_OK;
}

static StResult run_select_slot(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    hotbar_select(&app->tools.hotbar, c->slot - 1);
    return ST_OK;
}

static StResult run_pick(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    ToolsScene scene = app_tools_scene(app);
    if (!game_tools_pick(&app->tools, &scene))
        log_warn(SCRIPT_TAG, "%s:%d: pick: no block within reach", script_path(app), c->line);
    return ST_OK;
}

static StResult run_setting(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    app_change_setting(app, (UserSettingId)c->slot, c->args[0]);
    return ST_OK;
}

/* brush, raise, flatten, smooth, paint, undo, redo, tick (game_tools.c) */
static StResult run_edit(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    bool changed = false;
    ToolsScene scene = app_tools_scene(app);
    StResult rc = game_tools_run_command(&app->tools, &scene, c, script_path(app), &changed);
    if (rc != ST_OK) return rc;
    settle_after(app, changed);
    return ST_OK;
}

static StResult run_goto_structure(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    double dest[3];
    StResult rc = game_structures_find(&app->world, &app->player, c, script_path(app), dest);
    if (rc != ST_OK) return rc;
    world_session_teleport(&app->world, &app->player, dest[0], dest[1], dest[2]);
    settle_after(app, false);
    return ST_OK;
}

static StResult run_station(App *app, const ScriptCommand *c, PlayerInput *input, ScriptStep *step)
{
    (void)input; (void)step;
    bool changed = game_structures_place_station(app->world.structures, &app->world, &app->player, c->station);
    if (!changed) log_warn(SCRIPT_TAG, "%s:%d: station %s: nothing placed", script_path(app), c->line, c->text);
    settle_after(app, changed);
    return ST_OK;
}

/* One handler per command, indexed by ScriptOp (script.h; the names and argument specs are script.c's). */
static const ScriptHandler SCRIPT_COMMANDS[SCRIPT_OP_COUNT] = {
    [SCRIPT_WAIT_READY] = run_wait_ready,
    [SCRIPT_WAIT] = run_wait,
    [SCRIPT_TELEPORT] = run_teleport,
    [SCRIPT_LOOK] = run_look,
    [SCRIPT_MOVE] = run_move,
    [SCRIPT_JUMP] = run_jump,
    [SCRIPT_FLY] = run_fly,
    [SCRIPT_DIG] = run_dig,
    [SCRIPT_PLACE] = run_place,
    [SCRIPT_SELECT] = run_select,
    [SCRIPT_SCREENSHOT] = run_screenshot,
    [SCRIPT_TIME] = run_time,
    [SCRIPT_SAVE] = run_save,
    [SCRIPT_QUIT] = run_quit,
    [SCRIPT_BRIGHTNESS] = run_brightness,
    [SCRIPT_SEASON] = run_season,
    [SCRIPT_HUD] = run_hud,
    [SCRIPT_DIG_VISIBLE_WITHIN] = run_dig_visible,
    [SCRIPT_MENU] = run_menu,
    [SCRIPT_HOTBAR] = run_hotbar,
    [SCRIPT_SELECT_SLOT] = run_select_slot,
    [SCRIPT_PICK] = run_pick,
    [SCRIPT_SETTING] = run_setting,
    [SCRIPT_BRUSH_VISIBLE_WITHIN] = run_brush_visible,
    [SCRIPT_BRUSH] = run_edit,
    [SCRIPT_RAISE] = run_edit,
    [SCRIPT_FLATTEN] = run_edit,
    [SCRIPT_SMOOTH] = run_edit,
    [SCRIPT_PAINT] = run_edit,
    [SCRIPT_UNDO] = run_edit,
    [SCRIPT_REDO] = run_edit,
    [SCRIPT_TICK] = run_edit,
    [SCRIPT_GOTO_STRUCTURE] = run_goto_structure,
    [SCRIPT_STATION] = run_station,
};

StResult script_runner_frame(App *app, PlayerInput *input)
{
    ScriptRunner *r = &app->runner;
    while (r->active) {
        if (r->settle) {
            /* Ready again, and the particles of the edit have fallen (screenshots show the world). */
            if (world_session_ready(&app->world, app->view.renderer) && app->tools.particles.count == 0) {
                r->settle = false;
            } else {
                if (++r->settle_frames > SCRIPT_READY_FRAME_CAP)
                    return ready_timeout(app, &app->script.commands[r->pc - 1], "after the edit");
                return ST_OK;
            }
        }
        if (r->pc >= app->script.count) {
            r->active = false;
            log_info(SCRIPT_TAG, "%s: finished without quit; running on", script_path(app));
            break;
        }
        const ScriptCommand *c = &app->script.commands[r->pc];
        ScriptHandler run = c->op >= 0 && c->op < SCRIPT_OP_COUNT ? SCRIPT_COMMANDS[c->op] : NULL;
        if (!run)
            return st_fail(ST_ERR_STATE, "%s:%d: %s: the runner has no handler for this command", script_path(app),
                           c->line, script_op_name(c->op));
        ScriptStep step = STEP_NEXT;
        StResult rc = run(app, c, input, &step);
        if (rc != ST_OK) return rc;
        if (step == STEP_HOLD) return ST_OK;
        r->pc++;
        r->counter = 0;
        if (step == STEP_STOP) r->active = false;
        if (step != STEP_NEXT) return ST_OK;
    }
    return ST_OK;
}
