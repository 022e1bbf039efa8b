/* edit_internal.h — the Editor's state, shared by edit.c (ChangeCell, history, pending writes) and
 * behaviour.c (the behaviour scheduler). Private to src/edit. */
#ifndef STRATA_EDIT_INTERNAL_H
#define STRATA_EDIT_INTERNAL_H

#include "strata/edit.h"
#include "strata/history.h"

/* `origin`: the history serial of the action whose entry holds the change (history_done_serial), 0 when the
 * change is in no entry; the updates a change schedules carry it, and undoing that action cancels them. */
typedef struct EditCellPos { int32_t x, y, z; uint32_t origin; } EditCellPos;
typedef struct PendingWrite { int32_t x, y, z, value; } PendingWrite;
typedef struct ScheduledCell { int32_t x, y, z; uint32_t origin; long due; } ScheduledCell;

struct Editor {
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

void editor_defer_begin(Editor *editor);
void editor_defer_end(Editor *editor);

/* behaviour.c: delivers the pending notifications (schedules the cells with a behaviour). */
void behaviour_deliver(Editor *editor);
/* behaviour.c: drops the scheduled updates (and undelivered notifications) of the action `origin` (not 0). */
void behaviour_cancel(Editor *editor, uint32_t origin);
void behaviour_free(Editor *editor);
/* edit.c */
bool edit_grow(void **array, int *cap, int need, size_t item);

#endif
