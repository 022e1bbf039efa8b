/* history.h — the undo/redo history of the player's actions: a circular list of entries bounded in memory.
 *
 * Each entry is one action (a dig, a placement, a brush stroke, a tool application, a script command) and
 * holds the old and new value of every cell it changed, in the order they changed. history_begin /
 * history_end bracket an action (they nest; the outermost pair makes the entry); a cell recorded outside
 * any batch is an entry of its own. history_record_follow_up appends a change that an action caused later
 * (a block behaviour: falling sand, flowing water) to the newest entry, so one undo takes back the action
 * and its consequences; with nothing to append to (no entry, or entries undone) it records nothing. A new
 * entry drops every undone entry (the redo branch). When the cells held pass max_bytes the oldest entries
 * are dropped (history_dropped_entries counts them, for the HUD); an action larger than the whole bound
 * is dropped as it is recorded and cannot be undone.
 * history_undo / history_redo only move the cursor and hand back the entry's cells: the caller writes the
 * old values in reverse order (undo) or the new values in order (redo). The history knows no world.
 * Ownership: history_create allocates, history_destroy frees (NULL ok). Threads: main thread only. */
#ifndef STRATA_HISTORY_H
#define STRATA_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/error.h"

#define HISTORY_DEFAULT_BYTES (64u * 1024u * 1024u)
#define HISTORY_MAX_ENTRIES 4096  /* entries kept at most, whatever their size */

typedef struct HistoryCell {
    int32_t x, y, z;
    int32_t old_value, new_value;  /* light bits cleared */
} HistoryCell;

typedef struct EditHistory EditHistory;

/* ST_ERR_ARG if max_bytes is under 4 KiB. */
StResult history_create(size_t max_bytes, EditHistory **out);
void history_destroy(EditHistory *history);

void history_begin(EditHistory *history);
void history_end(EditHistory *history);
bool history_in_batch(const EditHistory *history);

/* Records one changed cell (into the open batch, or as an entry of its own). */
void history_record(EditHistory *history, int x, int y, int z, int32_t old_value, int32_t new_value);
/* Records a consequence of the newest action (see above); returns false when nothing was recorded. */
bool history_record_follow_up(EditHistory *history, int x, int y, int z, int32_t old_value, int32_t new_value);

/* The serial number of the newest entry not undone (the one history_undo would take back), 0 when there
 * is none. Every entry gets its own (1, 2, ...), so a caller can tag what an action set in motion (the
 * behaviour updates it scheduled) and cancel exactly that when the action is undone. */
uint32_t history_done_serial(const EditHistory *history);

/* Moves the cursor one entry back / forward and returns that entry's cells (count in *count), or NULL when
 * there is nothing to undo / redo. The pointer is valid until the next call that changes the history. */
const HistoryCell *history_undo(EditHistory *history, int *count);
const HistoryCell *history_redo(EditHistory *history, int *count);
void history_clear(EditHistory *history);

int history_undo_count(const EditHistory *history);   /* entries that can be undone */
int history_redo_count(const EditHistory *history);   /* entries that can be redone */
size_t history_bytes_used(const EditHistory *history);
size_t history_max_bytes(const EditHistory *history);
long history_dropped_entries(const EditHistory *history); /* dropped at the bound since creation */

#endif
