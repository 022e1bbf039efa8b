/* history.c — the circular undo/redo history.
 *
 * Design. Entries live in a ring of HISTORY_MAX_ENTRIES slots: `first` is the oldest, `count` the entries
 * held, `cursor` how many of them are done (the rest, cursor..count-1, are the redo branch). Each entry owns
 * a growing array of HistoryCell; `bytes` sums the capacity of every array plus a fixed cost per entry, and
 * is what the bound limits. Recording into the newest entry that pushes `bytes` over the bound drops the
 * oldest entries first; when the newest is all that is left and still too big, it is marked lost (its cells
 * freed, further records ignored) and removed at history_end: an action bigger than the bound cannot be
 * undone, but the older ones were dropped only because it needed their room. Batches open lazily: an
 * action that changes nothing leaves no entry. */
#include "strata/history.h"

#include <stdlib.h>
#include <string.h>

#define HISTORY_ENTRY_COST 64  /* bytes counted per entry besides its cells */

typedef struct HistoryEntry {
    HistoryCell *items;
    int count, capacity;
    uint32_t serial;        /* the action's number (never 0), for history_done_serial */
    bool lost;
} HistoryEntry;

struct EditHistory {
    HistoryEntry ring[HISTORY_MAX_ENTRIES];
    int first, count, cursor;
    int depth;              /* history_begin nesting */
    bool open;              /* the newest entry belongs to the open batch */
    size_t bytes, max_bytes;
    long dropped;
    uint32_t last_serial;   /* the serial given to the newest entry made */
};

static HistoryEntry *entry_at(EditHistory *h, int i) { return &h->ring[(h->first + i) % HISTORY_MAX_ENTRIES]; }

static size_t entry_bytes(const HistoryEntry *e)
{
    return HISTORY_ENTRY_COST + (size_t)e->capacity * sizeof(HistoryCell);
}

static void entry_free(EditHistory *h, HistoryEntry *e)
{
    h->bytes -= entry_bytes(e);
    free(e->items);
    memset(e, 0, sizeof *e);
}

StResult history_create(size_t max_bytes, EditHistory **out)
{
    *out = NULL;
    if (max_bytes < 4096) return st_fail(ST_ERR_ARG, "history: a bound of %zu bytes is too small (at least 4096)", max_bytes);
    EditHistory *h = calloc(1, sizeof *h);
    if (!h) return st_fail(ST_ERR_NOMEM, "history: out of memory");
    h->max_bytes = max_bytes;
    *out = h;
    return ST_OK;
}

void history_destroy(EditHistory *h)
{
    if (!h) return;
    history_clear(h);
    free(h);
}

static void drop_oldest(EditHistory *h)
{
    entry_free(h, entry_at(h, 0));
    h->first = (h->first + 1) % HISTORY_MAX_ENTRIES;
    h->count--;
    if (h->cursor > 0) h->cursor--;
    h->dropped++;
}

/* Drops the redo branch and opens a new, empty entry at the end. */
static HistoryEntry *push_entry(EditHistory *h)
{
    while (h->count > h->cursor) {
        entry_free(h, entry_at(h, h->count - 1));
        h->count--;
    }
    if (h->count == HISTORY_MAX_ENTRIES) drop_oldest(h);
    HistoryEntry *e = entry_at(h, h->count);
    memset(e, 0, sizeof *e);
    if (++h->last_serial == 0) h->last_serial = 1;
    e->serial = h->last_serial;
    h->bytes += entry_bytes(e);
    h->count++;
    h->cursor = h->count;
    return e;
}

static void append(EditHistory *h, HistoryEntry *e, int x, int y, int z, int32_t old_value, int32_t new_value)
{
    if (e->lost) return;
    if (e->count == e->capacity) {
        int cap = e->capacity ? e->capacity * 2 : 16;
        size_t grow = (size_t)(cap - e->capacity) * sizeof(HistoryCell);
        while (h->bytes + grow > h->max_bytes && h->count > 1) drop_oldest(h);
        HistoryCell *n = h->bytes + grow > h->max_bytes ? NULL : realloc(e->items, (size_t)cap * sizeof *n);
        if (!n) {
            /* Too big for the bound (or no memory): this action cannot be undone. */
            h->bytes -= entry_bytes(e);
            free(e->items);
            e->items = NULL;
            e->count = e->capacity = 0;
            h->bytes += entry_bytes(e);
            e->lost = true;
            return;
        }
        h->bytes += grow;
        e->items = n;
        e->capacity = cap;
    }
    HistoryCell *c = &e->items[e->count++];
    c->x = x;
    c->y = y;
    c->z = z;
    c->old_value = old_value;
    c->new_value = new_value;
}

/* Removes the newest entry if it was lost. */
static void settle_newest(EditHistory *h)
{
    if (h->count == 0) return;
    HistoryEntry *e = entry_at(h, h->count - 1);
    if (!e->lost) return;
    entry_free(h, e);
    h->count--;
    h->cursor = h->count;
    h->dropped++;
}

void history_begin(EditHistory *h)
{
    if (h->depth++ == 0) h->open = false;
}

void history_end(EditHistory *h)
{
    if (h->depth == 0) return;
    if (--h->depth == 0) {
        if (h->open) settle_newest(h);
        h->open = false;
    }
}

bool history_in_batch(const EditHistory *h) { return h->depth > 0; }

void history_record(EditHistory *h, int x, int y, int z, int32_t old_value, int32_t new_value)
{
    if (h->depth > 0) {
        if (!h->open) {
            push_entry(h);
            h->open = true;
        }
        append(h, entry_at(h, h->count - 1), x, y, z, old_value, new_value);
        return;
    }
    append(h, push_entry(h), x, y, z, old_value, new_value);
    settle_newest(h);
}

bool history_record_follow_up(EditHistory *h, int x, int y, int z, int32_t old_value, int32_t new_value)
{
    if (h->depth > 0) {
        history_record(h, x, y, z, old_value, new_value);
        return true;
    }
    if (h->count == 0 || h->cursor != h->count) return false;
    HistoryEntry *e = entry_at(h, h->count - 1);
    if (e->lost) return false;
    append(h, e, x, y, z, old_value, new_value);
    bool kept = !e->lost;
    settle_newest(h);
    return kept;
}

uint32_t history_done_serial(const EditHistory *h)
{
    if (h->cursor == 0) return 0;
    return h->ring[(h->first + h->cursor - 1) % HISTORY_MAX_ENTRIES].serial;
}

const HistoryCell *history_undo(EditHistory *h, int *count)
{
    *count = 0;
    if (h->depth > 0 || h->cursor == 0) return NULL;
    HistoryEntry *e = entry_at(h, --h->cursor);
    *count = e->count;
    return e->items;
}

const HistoryCell *history_redo(EditHistory *h, int *count)
{
    *count = 0;
    if (h->depth > 0 || h->cursor == h->count) return NULL;
    HistoryEntry *e = entry_at(h, h->cursor++);
    *count = e->count;
    return e->items;
}

void history_clear(EditHistory *h)
{
    while (h->count > 0) {
        entry_free(h, entry_at(h, h->count - 1));
        h->count--;
    }
    h->first = h->cursor = 0;
    h->open = false;
}

int history_undo_count(const EditHistory *h) { return h->cursor; }
int history_redo_count(const EditHistory *h) { return h->count - h->cursor; }
size_t history_bytes_used(const EditHistory *h) { return h->bytes; }
size_t history_max_bytes(const EditHistory *h) { return h->max_bytes; }
long history_dropped_entries(const EditHistory *h) { return h->dropped; }
