/* script.h — scripted input: a text file of commands, parsed and validated before the window opens.
 *
 * One command a line; '#' starts a comment (at the start of a line or after a space); blank lines are fine.
 *   wait_ready                 until every chunk within the view distance is Valid and uploaded
 *   wait FRAMES                FRAMES >= 0
 *   teleport X Y Z             feet position in blocks
 *   look YAW PITCH             degrees; yaw 0 looks toward -Z (north), 90 toward +X; pitch -90..90 (-90 = down)
 *   move FORWARD RIGHT UP FRAMES   walk (or fly) input, each -1..1, for FRAMES >= 1 frames
 *   jump | fly on|off | dig | place BLOCK | select BLOCK | screenshot PATH | time T (0..1) | save | quit
 *   brightness B (0..1) | season spring|summer|autumn|winter | hud on|off
 *   dig_visible_within FRAMES  dig now; fail unless a frame among the next FRAMES (>= 1) shows it
 *   menu open|close|picker|settings   the pause menu (open), the block picker, the settings screen; close
 *   hotbar SLOT BLOCK          put BLOCK in hotbar slot SLOT (1..9) | select_slot N (1..9)
 *   pick                       the targeted block into the hotbar (middle click)
 *   setting NAME VALUE         change a setting as the settings screen does (saved): NAME from
 *                              user_settings.h ("fov"), VALUE a number or on|off
 * Editing, each at the targeted block like dig (script_edit.c; sizes per shape in README's script table):
 *   brush sphere|box|cylinder|cone|torus|plane|rock|tree SIZE... BLOCK [hollow] [replace|air|solid]
 *         [axis=x|y|z] [yaw=DEG]
 *   raise R DELTA [falloff] | flatten R HEIGHT [strength] | smooth R [strength] [iterations]
 *   paint R BLOCK [opacity] [falloff] | undo | redo | tick N       (R in 1..64, falloff none|linear|smooth)
 *   brush_visible_within FRAMES SHAPE SIZE... BLOCK [options]  once the world is ready, a brush stroke as
 *         `brush`; fail unless every chunk it changed is remeshed and uploaded within FRAMES (>= 1) frames
 * Structures (session/game_structures.c):
 *   goto_structure settlement|dungeon   teleport to the nearest one (on the plaza / at the dungeon's entrance)
 *   station TYPE               place a station of assets/stations.json at the targeted spot (one undo)
 * Errors are ST_ERR_ARG with "FILE:LINE: what" (e.g. "a.script:2: unknown command 'fly_to_the_moon'").
 * Block names are checked against the registry in a second step (script_resolve_blocks), also before
 * any window exists. Pure: no SDL, no GL. Ownership: script_free releases what a parse allocated. */
#ifndef STRATA_GAME_SCRIPT_H
#define STRATA_GAME_SCRIPT_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/station.h"

#define SCRIPT_TEXT_MAX 512
#define SCRIPT_MAX_FRAMES 100000000L

typedef enum ScriptMenu { SCRIPT_MENU_CLOSE = 0, SCRIPT_MENU_OPEN, SCRIPT_MENU_PICKER, SCRIPT_MENU_SETTINGS } ScriptMenu;

typedef enum ScriptOp {
    SCRIPT_WAIT_READY = 0,
    SCRIPT_WAIT,
    SCRIPT_TELEPORT,
    SCRIPT_LOOK,
    SCRIPT_MOVE,
    SCRIPT_JUMP,
    SCRIPT_FLY,
    SCRIPT_DIG,
    SCRIPT_PLACE,
    SCRIPT_SELECT,
    SCRIPT_SCREENSHOT,
    SCRIPT_TIME,
    SCRIPT_SAVE,
    SCRIPT_QUIT,
    SCRIPT_BRIGHTNESS,
    SCRIPT_SEASON,
    SCRIPT_DIG_VISIBLE_WITHIN,
    SCRIPT_HUD,
    SCRIPT_MENU,
    SCRIPT_HOTBAR,
    SCRIPT_SELECT_SLOT,
    SCRIPT_PICK,
    SCRIPT_SETTING,
    SCRIPT_BRUSH,
    SCRIPT_RAISE,
    SCRIPT_FLATTEN,
    SCRIPT_SMOOTH,
    SCRIPT_PAINT,
    SCRIPT_UNDO,
    SCRIPT_REDO,
    SCRIPT_TICK,
    SCRIPT_BRUSH_VISIBLE_WITHIN,
    SCRIPT_GOTO_STRUCTURE,
    SCRIPT_STATION,
    SCRIPT_OP_COUNT
} ScriptOp;

typedef struct ScriptCommand {
    ScriptOp op;
    int line;                   /* 1-based line in the file */
    double args[3];             /* teleport x y z; look yaw pitch; move forward right up; time t; brightness b */
    long frames;                /* wait, move, dig_visible_within, brush_visible_within */
    int season;                 /* season: MESHER_SEASON_* */
    int menu;                   /* menu: SCRIPT_MENU_* */
    int slot;                   /* hotbar, select_slot: 1..9; setting: the UserSettingId */
    bool on;                    /* fly, hud */
    int block;                  /* place, select: block id after script_resolve_blocks (-1 before) */
    char text[SCRIPT_TEXT_MAX]; /* place/select/hotbar/brush/paint: block name; screenshot: path */
    /* editing (script_edit.c) */
    int shape;                  /* brush: ShapeKind */
    double sizes[3];            /* brush: the shape's sizes */
    int size_count;
    bool hollow;
    int paint_mode;             /* brush: BrushPaintMode-like 0 replace, 1 air, 2 solid */
    int axis;                   /* brush: 0 x, 1 y (default), 2 z */
    double yaw_deg;             /* brush */
    int radius;                 /* raise, flatten, smooth, paint */
    double amount;              /* raise DELTA, flatten HEIGHT, smooth strength, paint opacity */
    double strength;            /* flatten strength */
    int iterations;             /* smooth */
    int falloff;                /* raise, paint: ToolFalloff */
    long ticks;                 /* tick */
    /* structures */
    int structure;              /* goto_structure: GeneratorStructureType */
    int station;                /* station: index in the manifest after script_resolve_stations (-1 before) */
} ScriptCommand;

typedef struct Script {
    char path[SCRIPT_TEXT_MAX];
    ScriptCommand *commands;
    int count, capacity;
} Script;

/* Parses `text` (`path` is used in messages). On error *out is left empty (nothing to free). */
StResult script_parse_text(const char *path, const char *text, Script *out);
/* Reads and parses the file; a missing file is ST_ERR_IO naming it. */
StResult script_load(const char *path, Script *out);
/* Looks up every place/select block name; an unknown one is ST_ERR_ARG "FILE:LINE: unknown block 'x'". */
StResult script_resolve_blocks(Script *script, const BlockRegistry *blocks);
/* Looks up every station TYPE in the manifest; an unknown one is ST_ERR_ARG "FILE:LINE: station: unknown
 * station type 'x' (known: ...)". */
StResult script_resolve_stations(Script *script, const StationManifest *stations);
/* The first command with this op, or NULL. */
const ScriptCommand *script_find_op(const Script *script, ScriptOp op);
void script_free(Script *script);

/* script_edit.c: parses the words of brush/raise/flatten/smooth/paint (w[0] the command, w[1..n]). */
StResult script_parse_edit(const char *path, int line, ScriptCommand *c, char **w, int n);

/* The command's name as written in scripts ("wait_ready"). */
const char *script_op_name(ScriptOp op);
/* The command's usage as the parser states it ("teleport X Y Z"); --help lists these. "?" out of range. */
const char *script_op_usage(ScriptOp op);

#endif
