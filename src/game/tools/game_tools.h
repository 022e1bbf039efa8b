/* game_tools.h — the player's hands: the hotbar they hold, the block they point at, the editing tool under
 * them (block, shapes, raise, flatten, smooth, paint) and its radius, what a held button repeats, the
 * particles edits throw and the history's notice. One GameTools per game.
 *
 * Every call that touches the world takes a ToolsScene: the world session (Terrain, registry, Editor), the
 * player (eye, reach), the renderer (edited chunks upload first) and the sounds. Threads: main thread. */
#ifndef STRATA_GAME_TOOLS_H
#define STRATA_GAME_TOOLS_H

#include <stdbool.h>

#include "audio.h"
#include "hotbar.h"
#include "input.h"
#include "particles.h"
#include "player.h"
#include "script.h"
#include "session/world_session.h"
#include "strata/render.h"
#include "strata/shapes.h"

#define GAME_TOOL_RADIUS_DEFAULT 4
#define GAME_TOOL_REPEAT_SECONDS 0.25   /* a held mouse button digs or places this often */

/* Tab cycles, [ ] and the wheel set the radius. */
typedef enum GameTool {
    GAME_TOOL_BLOCK = 0,                          /* dig and place single blocks */
    GAME_TOOL_SHAPE_FIRST,                        /* one per ShapeKind: left paints, right carves */
    GAME_TOOL_RAISE = GAME_TOOL_SHAPE_FIRST + SHAPE_KIND_COUNT, /* left raises, right lowers */
    GAME_TOOL_FLATTEN,                            /* to the targeted block's height */
    GAME_TOOL_SMOOTH,
    GAME_TOOL_PAINT,                              /* the selected block onto the surface */
    GAME_TOOL_COUNT
} GameTool;

typedef struct GameTools {
    Hotbar hotbar;
    bool has_target;              /* this frame's crosshair target (the HUD, the highlight) */
    RaycastHit target;
    GameTool tool;
    int radius;                   /* 1..64 */
    ShapeVolume volume;           /* the shape tool's compiled volume, cached */
    int volume_key;               /* tool, radius and block it was compiled for (-1: none) */
    double dig_repeat, place_repeat; /* seconds a held button has waited since its last dig / place */
    Particles particles;
    long history_dropped_seen;    /* the HUD says when the history drops old entries */
    double history_notice_seconds;
    int edited_last[2];           /* the listener's last marked chunk */
    Renderer *renderer;           /* the listener marks edited chunks here */
} GameTools;

typedef struct ToolsScene {
    WorldSession *world;
    Player *player;
    Renderer *renderer;
    GameAudio *audio;
} ToolsScene;

/* The block tool, radius 4, the default hotbar; wires the Editor's change listener to the renderer (marks
 * edited chunks for urgent upload). free: the cached volume. */
void game_tools_init(GameTools *t, WorldSession *ws, Renderer *renderer);
void game_tools_free(GameTools *t);
const char *game_tools_name(GameTool tool);
void game_tools_next(GameTools *t);
void game_tools_set_radius(GameTools *t, int radius);

/* The block under the crosshair within the hand's reach; dig it; place a block onto its face (interact.h
 * does the work, a sound goes with it); pick the targeted block into the hotbar (false if none). */
bool game_tools_find_target(const ToolsScene *scene, RaycastHit *hit);
bool game_tools_dig(const ToolsScene *scene);
bool game_tools_place(const ToolsScene *scene, int block);
bool game_tools_pick(GameTools *t, const ToolsScene *scene);
/* Applies the current tool at the target (primary: the left button); false when nothing changed. */
bool game_tools_apply(GameTools *t, const ToolsScene *scene, bool primary);
/* This frame's buttons: a click acts at once, a held button again every GAME_TOOL_REPEAT_SECONDS; undo, redo,
 * the next tool and the radius keys. */
void game_tools_press(GameTools *t, const ToolsScene *scene, const InputState *in, double dt);
/* The wireframe box of what the tool would touch at the target; false when none. */
bool game_tools_preview(GameTools *t, const ToolsScene *scene, int min[3], int max[3]);
/* Undo / redo the last action (Ctrl+Z / Ctrl+Y, script undo / redo). */
bool game_tools_undo(Editor *editor);
bool game_tools_redo(Editor *editor);
/* Per frame: editor bookkeeping after the exchange, behaviour ticks for dt, particle events, the history's
 * notice. */
void game_tools_frame(GameTools *t, WorldSession *ws, double dt);
/* Runs a script's editing command (brush, raise, flatten, smooth, paint, undo, redo, tick) at the target.
 * *changed: the world changed (the runner waits until it is ready again). */
StResult game_tools_run_command(GameTools *t, const ToolsScene *scene, const ScriptCommand *c,
                                const char *script_path, bool *changed);

#endif
