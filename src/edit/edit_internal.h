/* edit_internal.h — the Editor's state, shared by edit.c (ChangeCell, history, pending writes) and
 * behaviour.c (the behaviour scheduler). Private to src/edit. */
#ifndef STRATA_EDIT_INTERNAL_H
#define STRATA_EDIT_INTERNAL_H

#include <stdlib.h>

#include "strata/edit.h"
#include "strata/history.h"

/* `origin`: the history serial of the action whose entry holds the change (history_done_serial), 0 when the
 * change is in no entry; the updates a change schedules carry it, and undoing that action cancels them. */
typedef struct EditCellPos { int32_t x, y, z; uint32_t origin; } EditCellPos;
typedef struct PendingWrite { int32_t x, y, z, value; } PendingWrite;
typedef struct ScheduledCell { int32_t x, y, z; uint32_t origin; long due; } ScheduledCell;

/* The narrow way back from behaviour.c up to edit.c: the rules' writes (ChangeCell in full, recorded as
 * follow-ups of the newest action; a block that lost its support is destroyed) and the end of a tick's deferred
 * downgrades. editor_create points the Editor at edit.c's table; behaviour.c calls nothing in edit.c by name,
 * so the two files form no loop (edit.c calls down into behaviour.c: deliver, cancel, free). */
typedef struct BehaviourHost {
    bool (*write_cell)(Editor *editor, int x, int y, int z, int32_t value);
    bool (*break_cell)(Editor *editor, int x, int y, int z);
    void (*downgrades_end)(Editor *editor);
} BehaviourHost;

struct Editor {
    const BehaviourHost *host;
    Terrain *terrain;
    TerrainUpdater *updater;
    const BlockRegistry *blocks;
    EditHistory *history;
    EditChangeListener listener;
    void *listener_user;

    EditCellPos *modified;          /* changed since the last notification delivery */
    int modified_count, modified_cap;
    PendingWrite *pending;          /* undo/redo writes waiting for their chunk */
    int pending_count, pending_cap;
    EditEvent events[EDIT_EVENT_QUEUE];
    int event_first, event_count;

    /* behaviours */
    bool in_behaviour;              /* changes are follow-ups of the newest action */
    ScheduledCell *scheduled;
    int scheduled_count, scheduled_cap;
    uint64_t *sched_keys;           /* open-addressing set of scheduled positions (0 = empty) */
    int sched_key_cap;
    long tick;                      /* the next tick to run */
    double tick_accumulator;
    long behaviour_changes;

    /* Downgrades are deferred while an action, tick, undo or redo runs: one per touched chunk at its end. */
    int defer_depth;
    int32_t *touched;               /* pairs cx, cz */
    int touched_count, touched_cap; /* in pairs */
};

void editor_defer_end(Editor *editor);
static inline void editor_defer_begin(Editor *editor) { editor->defer_depth++; }

/* behaviour.c: delivers the pending notifications (schedules the cells with a behaviour). */
void behaviour_deliver(Editor *editor);
/* behaviour.c: drops the scheduled updates (and undelivered notifications) of the action `origin` (not 0). */
void behaviour_cancel(Editor *editor, uint32_t origin);
void behaviour_free(Editor *editor);
/* Grows *array to hold `need` items of `item` bytes (doubling from 64); false when out of memory. */
static inline bool edit_grow(void **array, int *cap, int need, size_t item)
{
    if (need <= *cap) return true;
    int n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *p = realloc(*array, (size_t)n * item);
    if (!p) return false;
    *array = p;
    *cap = n;
    return true;
}

/* The chunk holding a cell when its contents exist (state >= InvalidLight), else NULL. */
static inline TerrainChunk *edit_chunk(const Terrain *terrain, int x, int y, int z)
{
    if (y < 0 || y >= CHUNK_SIZE_Y) return NULL;
    TerrainChunk *chunk = terrain_get_chunk_at_cell(terrain, x, z);
    if (!chunk || chunk->state < CHUNK_STATE_INVALID_LIGHT) return NULL;
    return chunk;
}

/* edit_get_cell (edit.h) for both files: the cell without its light, or -1 where its chunk is away. */
static inline int32_t edit_read_cell(const Terrain *terrain, int x, int y, int z)
{
    const TerrainChunk *chunk = edit_chunk(terrain, x, y, z);
    if (!chunk) return -1;
    return cell_replace_light(chunk_get_cell_shared(chunk, chunk_local_of(x), y, chunk_local_of(z)), 0);
}

#endif
