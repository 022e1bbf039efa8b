/* game_tools.c — the player's hands: the block under the crosshair, dig, place and pick, the tool selector,
 * radius, shape and height tools at the crosshair, undo/redo, behaviour ticks, particles and the script's
 * editing commands.
 *
 * Design: every tool is one Editor action (one undo). Shape tools compile their volume once per (tool,
 * radius, block) and keep it, so both the stroke and its wireframe preview cost no recompile per frame.
 * Sizes follow the radius: sphere/rock R, box 2R, cylinder and cone R x 2R, torus R x R/3, plane 1 x 2R+1,
 * tree 3 iterations of length R. The editor's change listener marks the 3x3 chunks around a change for
 * urgent upload (skipping repeats of the last chunk: strokes stay in one chunk for many cells). Scripts run
 * in lockstep, so behaviours tick at 20 Hz of game time: 3 frames a tick. Tools and brushes (and their
 * script commands) target up to TOOL_REACH blocks away, so a player can shape a hill from outside it. */
#include "tools/game_tools.h"

#include <stdio.h>
#include <string.h>

#include "camera.h"
#include "strata/behaviour.h"
#include "strata/log.h"
#include "strata/rng.h"
#include "strata/terrain_tools.h"
#include "tools/interact.h"

#define TOOLS_TAG "edit"
#define TOOL_REACH 96.0f   /* terrain tools and brushes reach farther than the hand (PLAYER_REACH) */


/* The block under the crosshair within TOOL_REACH (the block tool keeps the hand's reach). */
static bool tool_target(const ToolsScene *scene, RaycastHit *hit)
{
    double eye[3];
    player_eye(scene->player, eye);
    float origin[3] = {(float)eye[0], (float)eye[1], (float)eye[2]}, dir[3];
    camera_look_direction(scene->player->yaw_deg, scene->player->pitch_deg, dir);
    return edit_raycast(scene->world->terrain, scene->world->blocks, origin, dir, TOOL_REACH, hit);
}

/* ---- the hand: target, dig, place, pick ---- */

static Interaction tools_interaction(const ToolsScene *scene)
{
    WorldSession *w = scene->world;
    Interaction world = {w->terrain, w->updater, w->blocks, scene->renderer, w->editor};
    return world;
}

bool game_tools_find_target(const ToolsScene *scene, RaycastHit *hit)
{
    Interaction world = tools_interaction(scene);
    return interact_find_target(&world, scene->player, hit);
}

bool game_tools_dig(const ToolsScene *scene)
{
    Interaction world = tools_interaction(scene);
    const BlockRegistry *b = scene->world->blocks;
    RaycastHit hit;
    int id = game_tools_find_target(scene, &hit) ? cell_contents(hit.value) : BLOCK_AIR;
    if (!interact_dig(&world, scene->player)) return false;
    if (block_is_defined(b, id))
        game_audio_play(scene->audio, audio_dig_sound(audio_material_of(&b->defs[id])), 0.8f);
    return true;
}

bool game_tools_place(const ToolsScene *scene, int block)
{
    Interaction world = tools_interaction(scene);
    if (!interact_place(&world, scene->player, block)) return false;
    game_audio_play(scene->audio, AUDIO_PLACE, 0.7f);
    return true;
}

bool game_tools_pick(GameTools *t, const ToolsScene *scene)
{
    RaycastHit hit;
    if (!game_tools_find_target(scene, &hit)) return false;
    hotbar_pick(&t->hotbar, cell_contents(hit.value));
    return true;
}

/* ---- the tools ---- */

static const char *const TOOL_NAMES[GAME_TOOL_COUNT] = {
    "block", "sphere", "box", "cylinder", "cone", "torus", "plane", "rock", "tree", "raise", "flatten", "smooth", "paint",
};

const char *game_tools_name(GameTool tool) { return tool >= 0 && tool < GAME_TOOL_COUNT ? TOOL_NAMES[tool] : "?"; }

static void on_cell_changed(void *user, int x, int y, int z)
{
    (void)y;
    GameTools *t = user;
    int cx = chunk_coord_of(x), cz = chunk_coord_of(z);
    if (cx == t->edited_last[0] && cz == t->edited_last[1]) return;
    t->edited_last[0] = cx;
    t->edited_last[1] = cz;
    if (!t->renderer) return;
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) renderer_mark_edited(t->renderer, cx + dx, cz + dz);
}

void game_tools_init(GameTools *t, WorldSession *ws, Renderer *renderer)
{
    t->tool = GAME_TOOL_BLOCK;
    t->radius = GAME_TOOL_RADIUS_DEFAULT;
    t->volume_key = -1;
    t->edited_last[0] = t->edited_last[1] = 0x7fffffff;
    t->renderer = renderer;
    hotbar_default(&t->hotbar);
    if (ws->editor) editor_set_listener(ws->editor, on_cell_changed, t);
}

void game_tools_free(GameTools *t)
{
    shape_volume_free(&t->volume);
    t->volume_key = -1;
}

void game_tools_next(GameTools *t)
{
    t->tool = (GameTool)((t->tool + 1) % GAME_TOOL_COUNT);
    log_info(TOOLS_TAG, "tool %s, radius %d", game_tools_name(t->tool), t->radius);
}

void game_tools_set_radius(GameTools *t, int radius)
{
    t->radius = radius < 1 ? 1 : radius > TERRAIN_TOOL_MAX_RADIUS ? TERRAIN_TOOL_MAX_RADIUS : radius;
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
static const ShapeVolume *tool_volume(GameTools *t, const BlockRegistry *blocks, int block)
{
    int key = (t->tool * 128 + t->radius) * 1024 + block;
    if (t->volume_key == key) return &t->volume;
    shape_volume_free(&t->volume);
    t->volume_key = -1;
    ShapeSpec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = (ShapeKind)(t->tool - GAME_TOOL_SHAPE_FIRST);
    sp.axis = 1;
    sp.block = block;
    sp.leaves = leaves_for(blocks, block);
    sp.seed = 7;
    spec_from_radius(sp.kind, t->radius, &sp);
    if (shape_compile(&sp, &t->volume) != ST_OK) {
        log_warn(TOOLS_TAG, "%s", st_error_message());
        return NULL;
    }
    t->volume_key = key;
    return &t->volume;
}

static bool is_shape_tool(GameTool t) { return t >= GAME_TOOL_SHAPE_FIRST && t < GAME_TOOL_SHAPE_FIRST + SHAPE_KIND_COUNT; }

bool game_tools_apply(GameTools *t, const ToolsScene *scene, bool primary)
{
    if (t->tool == GAME_TOOL_BLOCK) return primary ? game_tools_dig(scene) : game_tools_place(scene, hotbar_block(&t->hotbar));
    RaycastHit hit;
    if (!tool_target(scene, &hit)) return false;
    Editor *ed = scene->world->editor;
    int r = t->radius, changed = 0;
    StResult rc = ST_OK;
    switch (t->tool) {
    case GAME_TOOL_RAISE:
        rc = terrain_tool_modify_height(ed, hit.x, hit.z, r, (primary ? 1 : -1) * (r / 4 > 1 ? r / 4 : 1),
                                        TOOL_FALLOFF_SMOOTH, &changed);
        break;
    case GAME_TOOL_FLATTEN: rc = terrain_tool_flatten(ed, hit.x, hit.z, r, hit.y, 1.0f, &changed); break;
    case GAME_TOOL_SMOOTH: rc = terrain_tool_smooth(ed, hit.x, hit.z, r, 1.0f, 2, &changed); break;
    case GAME_TOOL_PAINT:
        rc = terrain_tool_paint_layer(ed, hit.x, hit.z, r, hotbar_block(&t->hotbar), 1.0f, TOOL_FALLOFF_LINEAR,
                                      rng_hash3(0x9a17, hit.x, hit.y, hit.z), &changed);
        break;
    default:
        if (is_shape_tool(t->tool)) {
            const ShapeVolume *v = tool_volume(t, scene->world->blocks, primary ? hotbar_block(&t->hotbar) : BLOCK_AIR);
            if (v) changed = shape_paint(ed, v, primary ? SHAPE_PAINT_REPLACE : SHAPE_PAINT_SOLID, hit.x, hit.y, hit.z);
        }
        break;
    }
    if (rc != ST_OK) log_warn(TOOLS_TAG, "%s", st_error_message());
    return changed > 0;
}

void game_tools_press(GameTools *t, const ToolsScene *scene, const InputState *in, double dt)
{
    if (in->dig) {
        game_tools_apply(t, scene, true);
        t->dig_repeat = 0.0;
    } else if (in->dig_held && (t->dig_repeat += dt) >= GAME_TOOL_REPEAT_SECONDS) {
        game_tools_apply(t, scene, true);
        t->dig_repeat = 0.0;
    }
    if (in->place) {
        game_tools_apply(t, scene, false);
        t->place_repeat = 0.0;
    } else if (in->place_held && (t->place_repeat += dt) >= GAME_TOOL_REPEAT_SECONDS) {
        game_tools_apply(t, scene, false);
        t->place_repeat = 0.0;
    }
    if (in->undo) game_tools_undo(scene->world->editor);
    if (in->redo) game_tools_redo(scene->world->editor);
    if (in->next_tool) game_tools_next(t);
    if (in->radius_delta) game_tools_set_radius(t, t->radius + in->radius_delta);
}

bool game_tools_preview(GameTools *t, const ToolsScene *scene, int min[3], int max[3])
{
    RaycastHit target;
    if (t->tool == GAME_TOOL_BLOCK || !tool_target(scene, &target)) return false;
    const RaycastHit *h = &target;
    int r = t->radius;
    if (is_shape_tool(t->tool)) {
        const ShapeVolume *v = tool_volume(t, scene->world->blocks, hotbar_block(&t->hotbar));
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

bool game_tools_undo(Editor *editor)
{
    bool ok = editor_undo(editor);
    log_info(TOOLS_TAG, ok ? "undone" : "nothing to undo");
    return ok;
}

bool game_tools_redo(Editor *editor)
{
    bool ok = editor_redo(editor);
    log_info(TOOLS_TAG, ok ? "redone" : "nothing to redo");
    return ok;
}

void game_tools_frame(GameTools *t, WorldSession *ws, double dt)
{
    Editor *ed = ws->editor;
    t->edited_last[0] = t->edited_last[1] = 0x7fffffff;
    editor_frame(ed);
    editor_advance(ed, dt);
    EditEvent ev[64];
    int n;
    while ((n = editor_take_events(ed, ev, 64)) > 0)
        for (int i = 0; i < n; i++) {
            if (ev[i].kind != EDIT_EVENT_PARTICLES) continue;
            const BlockRegistry *b = ws->blocks;
            if (block_is_defined(b, ev[i].block))
                particles_burst(&t->particles, ev[i].x, ev[i].y, ev[i].z, b->defs[ev[i].block].map_color);
        }
    particles_step(&t->particles, (float)dt);
    EditorStats st;
    editor_get_stats(ed, &st);
    if (st.history_dropped != t->history_dropped_seen) {
        t->history_dropped_seen = st.history_dropped;
        t->history_notice_seconds = 5.0;
        log_warn(TOOLS_TAG, "history full (%zu MiB): the oldest actions can no longer be undone",
                 st.history_max_bytes >> 20);
    }
    if (t->history_notice_seconds > 0.0) t->history_notice_seconds -= dt;
}

StResult game_tools_run_command(GameTools *t, const ToolsScene *scene, const ScriptCommand *c,
                                const char *script_path, bool *changed)
{
    (void)t;
    *changed = false;
    Editor *ed = scene->world->editor;
    const char *path = script_path;
    if (c->op == SCRIPT_UNDO) { *changed = game_tools_undo(ed); return ST_OK; }
    if (c->op == SCRIPT_REDO) { *changed = game_tools_redo(ed); return ST_OK; }
    if (c->op == SCRIPT_TICK) {
        editor_tick(ed, (int)c->ticks);
        *changed = true;
        return ST_OK;
    }
    RaycastHit hit;
    if (!tool_target(scene, &hit)) {
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
        sp.leaves = leaves_for(scene->world->blocks, c->block);
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
