/* app_tools.c — the editing tools in the game: the tool selector, radius, shape and height tools at the
 * crosshair, undo/redo, behaviour ticks, particles and the script's editing commands.
 *
 * Design: every tool is one Editor action (one undo). Shape tools compile their volume once per (tool,
 * radius, block) and keep it, so both the stroke and its wireframe preview cost no recompile per frame.
 * Sizes follow the radius: sphere/rock R, box 2R, cylinder and cone R x 2R, torus R x R/3, plane 1 x 2R+1,
 * tree 3 iterations of length R. The editor's change listener marks the 3x3 chunks around a change for
 * urgent upload (skipping repeats of the last chunk: strokes stay in one chunk for many cells). Scripts run
 * in lockstep, so behaviours tick at 20 Hz of game time: 3 frames a tick. Tools and brushes (and their
 * script commands) target up to TOOL_REACH blocks away, so a player can shape a hill from outside it. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "strata/behaviour.h"
#include "strata/log.h"
#include "strata/rng.h"
#include "strata/terrain_tools.h"

#define TOOLS_TAG "edit"
#define TOOL_REACH 96.0f   /* terrain tools and brushes reach farther than the hand (PLAYER_REACH) */

#include "camera.h"

/* The block under the crosshair within TOOL_REACH (the block tool keeps the hand's reach). */
static bool tool_target(App *app, RaycastHit *hit)
{
    double eye[3];
    player_eye(&app->player, eye);
    float origin[3] = {(float)eye[0], (float)eye[1], (float)eye[2]}, dir[3];
    camera_look_direction(app->player.yaw_deg, app->player.pitch_deg, dir);
    return edit_raycast(app->world.terrain, app->world.blocks, origin, dir, TOOL_REACH, hit);
}

static const char *const TOOL_NAMES[APP_TOOL_COUNT] = {
    "block", "sphere", "box", "cylinder", "cone", "torus", "plane", "rock", "tree", "raise", "flatten", "smooth", "paint",
};

const char *app_tool_name(AppTool tool) { return tool >= 0 && tool < APP_TOOL_COUNT ? TOOL_NAMES[tool] : "?"; }

static void on_cell_changed(void *user, int x, int y, int z)
{
    (void)y;
    App *app = user;
    int cx = chunk_coord_of(x), cz = chunk_coord_of(z);
    if (cx == app->edited_last[0] && cz == app->edited_last[1]) return;
    app->edited_last[0] = cx;
    app->edited_last[1] = cz;
    if (!app->renderer) return;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) renderer_mark_edited(app->renderer, cx + dx, cz + dz);
}

void app_tools_init(App *app)
{
    app->tool = APP_TOOL_BLOCK;
    app->tool_radius = APP_TOOL_RADIUS_DEFAULT;
    app->tool_volume_key = -1;
    app->edited_last[0] = app->edited_last[1] = 0x7fffffff;
    if (app->world.editor) editor_set_listener(app->world.editor, on_cell_changed, app);
}

void app_next_tool(App *app)
{
    app->tool = (AppTool)((app->tool + 1) % APP_TOOL_COUNT);
    log_info(TOOLS_TAG, "tool %s, radius %d", app_tool_name(app->tool), app->tool_radius);
}

void app_set_tool_radius(App *app, int radius)
{
    app->tool_radius = radius < 1 ? 1 : radius > TERRAIN_TOOL_MAX_RADIUS ? TERRAIN_TOOL_MAX_RADIUS : radius;
}

static int leaves_for(const BlockRegistry *b, int trunk)
{
    char name[BLOCK_NAME_MAX + 8];
    const char *n = b->defs[trunk].name;
    const char *suffix = strstr(n, "_trunk");
    if (suffix) {
        snprintf(name, sizeof name, "%.*s_leaves", (int)(suffix - n), n);
        int id = block_registry_find(b, name);
        if (id > 0) return id;
    }
    return BLOCK_OAK_LEAVES;
}

static void spec_from_radius(ShapeKind kind, int r, ShapeSpec *sp)
{
    float R = (float)r;
    float sizes[SHAPE_KIND_COUNT][3] = {
        {R, 0, 0}, {2 * R, 2 * R, 2 * R}, {R, 2 * R, 0}, {R, 2 * R, 0}, {R, R / 3 < 1 ? 1 : R / 3, 0},
        {1, 2 * R + 1 > 64 ? 64 : 2 * R + 1, 0}, {R, 0, 0}, {3, R, 0},
    };
    for (int i = 0; i < 3; i++) sp->sizes[i] = sizes[kind][i] > 64 ? 64 : sizes[kind][i];
}

/* The cached volume for the current shape tool and the selected block (or air for carving). */
static const ShapeVolume *tool_volume(App *app, int block)
{
    int key = (app->tool * 128 + app->tool_radius) * 1024 + block;
    if (app->tool_volume_key == key) return &app->tool_volume;
    shape_volume_free(&app->tool_volume);
    app->tool_volume_key = -1;
    ShapeSpec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = (ShapeKind)(app->tool - APP_TOOL_SHAPE_FIRST);
    sp.axis = 1;
    sp.block = block;
    sp.leaves = leaves_for(app->world.blocks, block);
    sp.seed = 7;
    spec_from_radius(sp.kind, app->tool_radius, &sp);
    if (shape_compile(&sp, &app->tool_volume) != ST_OK) {
        log_warn(TOOLS_TAG, "%s", st_error_message());
        return NULL;
    }
    app->tool_volume_key = key;
    return &app->tool_volume;
}

static bool is_shape_tool(AppTool t) { return t >= APP_TOOL_SHAPE_FIRST && t < APP_TOOL_SHAPE_FIRST + SHAPE_KIND_COUNT; }

bool app_apply_tool(App *app, bool primary)
{
    if (app->tool == APP_TOOL_BLOCK) return primary ? app_dig(app) : app_place(app, hotbar_block(&app->hotbar));
    RaycastHit hit;
    if (!tool_target(app, &hit)) return false;
    Editor *ed = app->world.editor;
    int r = app->tool_radius, changed = 0;
    StResult rc = ST_OK;
    switch (app->tool) {
    case APP_TOOL_RAISE:
        rc = terrain_tool_modify_height(ed, hit.x, hit.z, r, (primary ? 1 : -1) * (r / 4 > 1 ? r / 4 : 1),
                                        TOOL_FALLOFF_SMOOTH, &changed);
        break;
    case APP_TOOL_FLATTEN: rc = terrain_tool_flatten(ed, hit.x, hit.z, r, hit.y, 1.0f, &changed); break;
    case APP_TOOL_SMOOTH: rc = terrain_tool_smooth(ed, hit.x, hit.z, r, 1.0f, 2, &changed); break;
    case APP_TOOL_PAINT:
        rc = terrain_tool_paint_layer(ed, hit.x, hit.z, r, hotbar_block(&app->hotbar), 1.0f, TOOL_FALLOFF_LINEAR,
                                      rng_hash3(0x9a17, hit.x, hit.y, hit.z), &changed);
        break;
    default:
        if (is_shape_tool(app->tool)) {
            const ShapeVolume *v = tool_volume(app, primary ? hotbar_block(&app->hotbar) : BLOCK_AIR);
            if (v) changed = shape_paint(ed, v, primary ? SHAPE_PAINT_REPLACE : SHAPE_PAINT_SOLID, hit.x, hit.y, hit.z);
        }
        break;
    }
    if (rc != ST_OK) log_warn(TOOLS_TAG, "%s", st_error_message());
    return changed > 0;
}

bool app_tool_preview(App *app, int min[3], int max[3])
{
    RaycastHit target;
    if (app->tool == APP_TOOL_BLOCK || !tool_target(app, &target)) return false;
    const RaycastHit *h = &target;
    int r = app->tool_radius;
    if (is_shape_tool(app->tool)) {
        const ShapeVolume *v = tool_volume(app, hotbar_block(&app->hotbar));
        if (!v || v->count == 0) return false;
        int at[3] = {h->x, h->y, h->z};
        for (int a = 0; a < 3; a++) {
            min[a] = at[a] + v->min[a];
            max[a] = at[a] + v->max[a];
        }
        return true;
    }
    min[0] = h->x - r;
    max[0] = h->x + r;
    min[2] = h->z - r;
    max[2] = h->z + r;
    min[1] = h->y - (r / 4 > 1 ? r / 4 : 1);
    max[1] = h->y + (r / 4 > 1 ? r / 4 : 1);
    return true;
}

bool app_undo(App *app)
{
    bool ok = editor_undo(app->world.editor);
    log_info(TOOLS_TAG, ok ? "undone" : "nothing to undo");
    return ok;
}

bool app_redo(App *app)
{
    bool ok = editor_redo(app->world.editor);
    log_info(TOOLS_TAG, ok ? "redone" : "nothing to redo");
    return ok;
}

void app_edit_frame(App *app, double dt)
{
    Editor *ed = app->world.editor;
    app->edited_last[0] = app->edited_last[1] = 0x7fffffff;
    editor_frame(ed);
    editor_advance(ed, dt);
    EditEvent ev[64];
    int n;
    while ((n = editor_take_events(ed, ev, 64)) > 0)
        for (int i = 0; i < n; i++) {
            if (ev[i].kind != EDIT_EVENT_PARTICLES) continue;
            const BlockRegistry *b = app->world.blocks;
            if (block_is_defined(b, ev[i].block))
                particles_burst(&app->particles, ev[i].x, ev[i].y, ev[i].z, b->defs[ev[i].block].map_color);
        }
    particles_step(&app->particles, (float)dt);
    EditorStats st;
    editor_get_stats(ed, &st);
    if (st.history_dropped != app->history_dropped_seen) {
        app->history_dropped_seen = st.history_dropped;
        app->history_notice_seconds = 5.0;
        log_warn(TOOLS_TAG, "history full (%zu MiB): the oldest actions can no longer be undone",
                 st.history_max_bytes >> 20);
    }
    if (app->history_notice_seconds > 0.0) app->history_notice_seconds -= dt;
}

StResult app_run_edit_command(App *app, const ScriptCommand *c, bool *changed)
{
    *changed = false;
    Editor *ed = app->world.editor;
    const char *path = app->script.path;
    if (c->op == SCRIPT_UNDO) { *changed = app_undo(app); return ST_OK; }
    if (c->op == SCRIPT_REDO) { *changed = app_redo(app); return ST_OK; }
    if (c->op == SCRIPT_TICK) {
        editor_tick(ed, (int)c->ticks);
        *changed = true;
        return ST_OK;
    }
    RaycastHit hit;
    if (!tool_target(app, &hit)) {
        log_warn(TOOLS_TAG, "%s:%d: %s: no block within reach", path, c->line, script_op_name(c->op));
        return ST_OK;
    }
    StResult rc = ST_OK;
    int n = 0;
    switch (c->op) {
    case SCRIPT_BRUSH: {
        ShapeSpec sp;
        memset(&sp, 0, sizeof sp);
        sp.kind = (ShapeKind)c->shape;
        for (int i = 0; i < 3; i++) sp.sizes[i] = (float)c->sizes[i];
        sp.yaw_deg = (float)c->yaw_deg;
        sp.axis = c->axis;
        sp.block = c->block;
        sp.leaves = leaves_for(app->world.blocks, c->block);
        sp.hollow = c->hollow;
        sp.mode = (ShapePaintMode)c->paint_mode;
        sp.seed = rng_hash3(0x5ba9e, hit.x, hit.y, hit.z);
        ShapeVolume v;
        if ((rc = shape_compile(&sp, &v)) != ST_OK) break;
        n = shape_paint(ed, &v, sp.mode, hit.x, hit.y, hit.z);
        shape_volume_free(&v);
        break;
    }
    case SCRIPT_RAISE:
        rc = terrain_tool_modify_height(ed, hit.x, hit.z, c->radius, (int)c->amount, (ToolFalloff)c->falloff, &n);
        break;
    case SCRIPT_FLATTEN:
        rc = terrain_tool_flatten(ed, hit.x, hit.z, c->radius, (int)c->amount, (float)c->strength, &n);
        break;
    case SCRIPT_SMOOTH:
        rc = terrain_tool_smooth(ed, hit.x, hit.z, c->radius, (float)c->amount, c->iterations, &n);
        break;
    case SCRIPT_PAINT:
        rc = terrain_tool_paint_layer(ed, hit.x, hit.z, c->radius, c->block, (float)c->amount, (ToolFalloff)c->falloff,
                                      rng_hash3(0x9a17, hit.x, hit.y, hit.z), &n);
        break;
    default:
        break;
    }
    if (rc != ST_OK) return st_fail_context(rc, "%s:%d: %s", path, c->line, script_op_name(c->op));
    log_info(TOOLS_TAG, "%s:%d: %s at %d %d %d: %d cells", path, c->line, script_op_name(c->op), hit.x, hit.y, hit.z, n);
    *changed = n > 0;
    return ST_OK;
}
