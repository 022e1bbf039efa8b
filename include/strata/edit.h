/* edit.h — changing the world: ChangeCell / DestroyCell, the Editor (history, behaviours, events) and the
 * block raycast.
 *
 * edit_change_cell is the raw change: bounds (y 0..255, a chunk whose contents exist: state >=
 * InvalidLight), compare (light bits ignored), set (relaxed atomic store, light cleared), modification
 * counter, and the downgrade of the 3x3 chunk neighbourhood to InvalidLight so light and geometry are
 * redone. It records nothing and notifies no one: tests and the benchmark use it, the game goes through
 * the Editor.
 * The Editor is ChangeCell in full: editor_change_cell does the raw change, records the cell in the undo
 * history (history.h) and in the list of modified cells, whose neighbours' block behaviours
 * (behaviour.h) are notified once a frame (editor_frame) and before each behaviour tick. It also tells an
 * optional listener which cell changed (the game marks the chunks for urgent upload). editor_destroy_cell
 * is Survivalcraft's DestroyCell: the change plus a drop and a particle burst as events the game drains.
 * Undo and redo write cells through the same raw change; a cell whose chunk is not loaded at that moment
 * (walked away, released after a save) is kept as a pending write and applied as soon as the chunk's
 * contents are back (editor_frame), so the world ends exactly as recorded. Pending writes live as long as
 * the Editor (they are not saved: the history is not kept across a relaunch).
 * editor_brush_world is the Editor seen as a BrushWorld (brush.h): get_cell is editor_get_cell, set_cell is
 * editor_change_cell, so a TerrainBrush painted through it (brush_paint) is ChangeCell in full;
 * editor_paint_brush is a brush stroke: that paint bracketed as one history entry.
 * edit_raycast walks the voxel grid (Amanatides-Woo DDA) to the first cell whose block is not air and
 * not a fluid. Threads: main thread only. Ownership: editor_create allocates, editor_destroy frees (NULL
 * ok); the Editor borrows the Terrain, updater and registry, which must outlive it. */
#ifndef STRATA_EDIT_H
#define STRATA_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/brush.h"
#include "strata/error.h"
#include "strata/history.h"
#include "strata/terrain.h"
#include "strata/update.h"

/* Returns true if the cell was changed. updater may be NULL (states are then lowered directly). */
bool edit_change_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t value);
/* The cell's value if its chunk's contents exist (state >= InvalidLight) and y is in 0..255, else -1. */
int32_t edit_get_cell(const Terrain *terrain, int x, int y, int z);

typedef enum EditEventKind {
    EDIT_EVENT_PARTICLES = 0,   /* a burst of the block's colours at the cell */
    EDIT_EVENT_DROP             /* the block `block` drops at the cell (no inventory yet: the game logs it) */
} EditEventKind;

typedef struct EditEvent {
    EditEventKind kind;
    int x, y, z;
    int block;
} EditEvent;

#define EDIT_EVENT_QUEUE 256    /* events kept until drained; older ones are dropped */

typedef struct EditorConfig {
    Terrain *terrain;
    TerrainUpdater *updater;        /* may be NULL (tests) */
    const BlockRegistry *blocks;
    size_t history_bytes;           /* 0: HISTORY_DEFAULT_BYTES */
} EditorConfig;

typedef struct EditorStats {
    int undo_entries, redo_entries;
    size_t history_bytes, history_max_bytes;
    long history_dropped;           /* oldest entries dropped at the bound */
    int pending_writes;             /* undo/redo writes waiting for their chunk */
    int scheduled;                  /* behaviour updates waiting */
    long ticks;                     /* behaviour ticks run */
    long behaviour_changes;         /* cells changed by behaviours */
} EditorStats;

typedef struct Editor Editor;
/* Called after each cell an Editor changes (x, y, z world cell). */
typedef void (*EditChangeListener)(void *user, int x, int y, int z);

StResult editor_create(const EditorConfig *config, Editor **out);
void editor_destroy(Editor *editor);
void editor_set_listener(Editor *editor, EditChangeListener listener, void *user);

/* ChangeCell in full (see above). true if the cell changed. */
bool editor_change_cell(Editor *editor, int x, int y, int z, int32_t value);
/* DestroyCell: sets the cell to new_value; unless no_drop queues a drop of the block's drop (tool_level is
 * kept for blocks that need a tool: none do yet), unless no_particles a particle burst. Bedrock is not
 * destroyed. true if the cell changed. */
bool editor_destroy_cell(Editor *editor, int tool_level, int x, int y, int z, int32_t new_value, bool no_drop,
                         bool no_particles);
/* The cell's value, or -1 (see edit_get_cell). */
int32_t editor_get_cell(const Editor *editor, int x, int y, int z);

/* The Editor as a BrushWorld (see above); valid while the Editor lives. */
BrushWorld editor_brush_world(Editor *editor);
/* A brush stroke: brush_paint_where(brush, editor_brush_world(editor), x, y, z, only, user) as one history
 * entry. Returns the cells changed. */
int editor_paint_brush(Editor *editor, const CompiledBrush *brush, int x, int y, int z, BrushMatch only, void *user);

/* BeginBatch / EndBatch: every change in between is one history entry (they nest). */
void editor_begin_action(Editor *editor);
void editor_end_action(Editor *editor);
/* Undo / redo the newest / next action; false when there is none. */
bool editor_undo(Editor *editor);
bool editor_redo(Editor *editor);
void editor_clear_history(Editor *editor);

/* Once a frame: applies pending writes whose chunk is back, and delivers the neighbour notifications. */
void editor_frame(Editor *editor);
/* Moves up to max events into out (oldest first); returns how many. */
int editor_take_events(Editor *editor, EditEvent *out, int max);
void editor_get_stats(const Editor *editor, EditorStats *stats);
const BlockRegistry *editor_blocks(const Editor *editor);
Terrain *editor_terrain(const Editor *editor);

typedef struct RaycastHit {
    int x, y, z;            /* the hit cell */
    int face;               /* BlockFace of the hit cell that the ray entered through */
    int place_x, place_y, place_z; /* the empty cell in front of that face (where placing puts a block) */
    float distance;
    int32_t value;
} RaycastHit;

/* Casts from `origin` along `direction` (need not be normalised) up to max_distance blocks. Returns
 * true and fills *hit on a hit. */
bool edit_raycast(const Terrain *terrain, const BlockRegistry *blocks, const float origin[3],
                  const float direction[3], float max_distance, RaycastHit *hit);

#endif
