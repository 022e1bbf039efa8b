/* edit.c — ChangeCell / DestroyCell, the Editor's history, pending writes and events.
 *
 * Design. The raw change writes the cell with a relaxed atomic store (the worker may be lighting or meshing
 * this chunk or a neighbour right now), with its light bits cleared: light is recomputed because the 3x3
 * chunk neighbourhood is downgraded to InvalidLight and marked as edited, so the worker redoes those chunks
 * before anything else; a change that can only raise light (edit_only_brightens: digging, a torch) sends
 * the 8 neighbours only to InvalidPropagatedLight, as their own light cannot change. Only chunks whose contents exist (main state >= InvalidLight) are edited; below
 * that the worker is still loading or generating them. An edit bumps the modification counter (the chunk
 * is saved when released, on quit or by autosave) and clears CHUNK_FLAG_DAMAGED_ON_DISK: once the player
 * changes a chunk whose stored copy was unreadable, the player's version wins and may replace it.
 * The Editor adds the bookkeeping around it: the history record (a follow-up when a behaviour made the
 * change), the modified-cell list behind OnNeighborBlockChanged, and the listener. Undo and redo write
 * with the raw change and notify no behaviour: they restore a state that was already settled. A write
 * whose chunk is away becomes a PendingWrite, applied in order by editor_frame once the chunk is back. */
#include "edit_internal.h"

#include <stdlib.h>
#include <string.h>

#include "strata/behaviour.h"
#include "strata/log.h"

#define EDIT_TAG "edit"

int32_t edit_get_cell(const Terrain *terrain, int x, int y, int z) { return edit_read_cell(terrain, x, y, z); }

/* Set and count, without the downgrade; the chunk changed, or NULL. *old_block: the contents it replaced. */
static TerrainChunk *edit_write_cell(Terrain *terrain, int x, int y, int z, int32_t value, int *old_block)
{
    TerrainChunk *chunk = edit_chunk(terrain, x, y, z);
    if (!chunk) return NULL;
    int lx = chunk_local_of(x), lz = chunk_local_of(z);
    int32_t block = cell_replace_light(value, 0);
    int32_t old = cell_replace_light(chunk_get_cell_shared(chunk, lx, y, lz), 0);
    if (old == block) return NULL;
    chunk_set_cell_shared(chunk, lx, y, lz, block);
    chunk->modification_counter++;
    chunk->flags &= ~CHUNK_FLAG_DAMAGED_ON_DISK;
    if (old_block) *old_block = cell_contents(old);
    return chunk;
}

/* Whether replacing block `from` by `to` can only raise the world's light: it lets as much light through
 * (attenuation; opaque blocks have 15) and emits at least as much. Then no light anywhere goes down, and the
 * light the neighbour chunks hold is still at least their own light and at most their new final light: they
 * need no new own light (a sunlight step reads their whole cells), only the light that crosses their
 * borders (light_propagate, light_propagate.c). Their "final light" mark is cleared with the downgrade (the
 * exchange), so propagation floods into them again. */
static bool edit_only_brightens(const BlockRegistry *blocks, int from, int to)
{
    return blocks && blocks->attenuation[to] <= blocks->attenuation[from] && blocks->emission[to] >= blocks->emission[from];
}

/* Sends the 3x3 chunks around an edited one back to be lit and meshed again: the edited chunk to its own
 * light (InvalidLight), its neighbours too unless the edit only brightens (then to InvalidPropagatedLight). */
static void edit_downgrade_around(Terrain *terrain, TerrainUpdater *updater, const TerrainChunk *chunk,
                                  bool brightens)
{
    for (int dz = -1; dz <= 1; dz++) {
        for (int dx = -1; dx <= 1; dx++) {
            TerrainChunk *n = terrain_get_chunk(terrain, chunk->coord_x + dx, chunk->coord_z + dz);
            if (!n) continue;
            ChunkState state = brightens && (dx || dz) ? CHUNK_STATE_INVALID_PROPAGATED_LIGHT : CHUNK_STATE_INVALID_LIGHT;
            if (updater) updater_downgrade_chunk_edited(updater, n, state);
            else if (n->state > CHUNK_STATE_INVALID_LIGHT) n->state = CHUNK_STATE_INVALID_LIGHT;
        }
    }
}

bool edit_change_cell(Terrain *terrain, TerrainUpdater *updater, int x, int y, int z, int32_t value)
{
    int old = 0;
    TerrainChunk *chunk = edit_write_cell(terrain, x, y, z, value, &old);
    if (!chunk) return false;
    const BlockRegistry *blocks = updater ? updater_blocks(updater) : NULL;
    edit_downgrade_around(terrain, updater, chunk, edit_only_brightens(blocks, old, cell_contents(value)));
    return true;
}


void editor_defer_end(Editor *e)
{
    if (e->defer_depth == 0 || --e->defer_depth > 0) return;
    for (int i = 0; i < e->touched_count; i++) {
        TerrainChunk *c = terrain_get_chunk(e->terrain, e->touched[2 * i], e->touched[2 * i + 1]);
        if (c) edit_downgrade_around(e->terrain, e->updater, c, false);
    }
    e->touched_count = 0;
}

/* Remembers a chunk changed while deferring (the last one is checked first: strokes stay in a chunk). */
static void editor_touch(Editor *e, const TerrainChunk *c)
{
    for (int i = e->touched_count - 1; i >= 0; i--)
        if (e->touched[2 * i] == c->coord_x && e->touched[2 * i + 1] == c->coord_z) return;
    int cap = e->touched_cap * 2;
    if (!edit_grow((void **)&e->touched, &cap, 2 * (e->touched_count + 1), sizeof(int32_t))) {
        edit_downgrade_around(e->terrain, e->updater, c, false);
        return;
    }
    e->touched_cap = cap / 2;
    e->touched[2 * e->touched_count] = c->coord_x;
    e->touched[2 * e->touched_count + 1] = c->coord_z;
    e->touched_count++;
}

/* ---- the Editor ----------------------------------------------------------------------------------- */

static bool host_break_cell(Editor *e, int x, int y, int z)
{
    return editor_destroy_cell(e, 0, x, y, z, cell_make(BLOCK_AIR, 0), false, false);
}

/* What behaviour.c may do back up here (edit_internal.h). */
static const BehaviourHost EDIT_BEHAVIOUR_HOST = {editor_change_cell, host_break_cell, editor_defer_end};

StResult editor_create(const EditorConfig *config, Editor **out)
{
    *out = NULL;
    Editor *e = calloc(1, sizeof *e);
    if (!e) return st_fail(ST_ERR_NOMEM, "editor: out of memory");
    e->host = &EDIT_BEHAVIOUR_HOST;
    e->terrain = config->terrain;
    e->updater = config->updater;
    e->blocks = config->blocks;
    StResult rc = history_create(config->history_bytes ? config->history_bytes : HISTORY_DEFAULT_BYTES, &e->history);
    if (rc != ST_OK) {
        free(e);
        return rc;
    }
    *out = e;
    return ST_OK;
}

void editor_destroy(Editor *e)
{
    if (!e) return;
    if (e->pending_count > 0)
        log_warn(EDIT_TAG, "%d undo/redo writes never reached their chunk (it was not loaded again)",
                 e->pending_count);
    history_destroy(e->history);
    behaviour_free(e);
    free(e->modified);
    free(e->pending);
    free(e->touched);
    free(e);
}

void editor_set_listener(Editor *e, EditChangeListener listener, void *user)
{
    e->listener = listener;
    e->listener_user = user;
}

const BlockRegistry *editor_blocks(const Editor *e) { return e->blocks; }
Terrain *editor_terrain(const Editor *e) { return e->terrain; }

int32_t editor_get_cell(const Editor *e, int x, int y, int z) { return edit_get_cell(e->terrain, x, y, z); }

static bool editor_write(Editor *e, int x, int y, int z, int32_t value, bool notify)
{
    int old = 0;
    TerrainChunk *chunk = edit_write_cell(e->terrain, x, y, z, value, &old);
    if (!chunk) return false;
    if (e->defer_depth > 0) editor_touch(e, chunk);
    else edit_downgrade_around(e->terrain, e->updater, chunk, edit_only_brightens(e->blocks, old, cell_contents(value)));
    if (notify && edit_grow((void **)&e->modified, &e->modified_cap, e->modified_count + 1, sizeof(EditCellPos))) {
        EditCellPos *p = &e->modified[e->modified_count++];
        p->x = x;
        p->y = y;
        p->z = z;
        p->origin = 0;
    }
    if (e->listener) e->listener(e->listener_user, x, y, z);
    return true;
}

bool editor_change_cell(Editor *e, int x, int y, int z, int32_t value)
{
    int32_t old = edit_get_cell(e->terrain, x, y, z);
    if (old < 0) return false;
    int32_t block = cell_replace_light(value, 0);
    int notified = e->modified_count;
    if (!editor_write(e, x, y, z, block, true)) return false;
    bool recorded = true;
    if (e->in_behaviour) {
        recorded = history_record_follow_up(e->history, x, y, z, old, block);
        e->behaviour_changes++;
    } else {
        history_record(e->history, x, y, z, old, block);
    }
    if (e->modified_count > notified) /* the updates this change schedules belong to the entry that holds it */
        e->modified[e->modified_count - 1].origin = recorded ? history_done_serial(e->history) : 0;
    return true;
}

static void editor_push_event(Editor *e, EditEventKind kind, int x, int y, int z, int block)
{
    if (e->event_count == EDIT_EVENT_QUEUE) {
        e->event_first = (e->event_first + 1) % EDIT_EVENT_QUEUE;
        e->event_count--;
    }
    EditEvent *ev = &e->events[(e->event_first + e->event_count++) % EDIT_EVENT_QUEUE];
    ev->kind = kind;
    ev->x = x;
    ev->y = y;
    ev->z = z;
    ev->block = block;
}

bool editor_destroy_cell(Editor *e, int tool_level, int x, int y, int z, int32_t new_value, bool no_drop,
                         bool no_particles)
{
    (void)tool_level;
    int32_t old = edit_get_cell(e->terrain, x, y, z);
    if (old < 0 || cell_contents(old) == BLOCK_BEDROCK) return false;
    if (!editor_change_cell(e, x, y, z, new_value)) return false;
    int block = cell_contents(old);
    if (!no_drop && block_is_defined(e->blocks, block) && e->blocks->defs[block].drop != BLOCK_AIR)
        editor_push_event(e, EDIT_EVENT_DROP, x, y, z, e->blocks->defs[block].drop);
    if (!no_particles && block != BLOCK_AIR) editor_push_event(e, EDIT_EVENT_PARTICLES, x, y, z, block);
    return true;
}

int editor_take_events(Editor *e, EditEvent *out, int max)
{
    int n = 0;
    while (n < max && e->event_count > 0) {
        out[n++] = e->events[e->event_first];
        e->event_first = (e->event_first + 1) % EDIT_EVENT_QUEUE;
        e->event_count--;
    }
    return n;
}

/* ---- history ---------------------------------------------------------------------------------------- */

void editor_begin_action(Editor *e)
{
    history_begin(e->history);
    editor_defer_begin(e);
}

void editor_end_action(Editor *e)
{
    history_end(e->history);
    editor_defer_end(e);
}
void editor_clear_history(Editor *e) { history_clear(e->history); }

static void editor_apply_pending(Editor *e);

/* Writes a restored value now, or keeps it for when the chunk is back. Pending writes of loaded chunks were
 * applied just before (editor_undo / editor_redo), so order per cell is kept. */
static void editor_restore(Editor *e, int x, int y, int z, int32_t value)
{
    if (y < 0 || y >= CHUNK_SIZE_Y) return;
    if (edit_chunk(e->terrain, x, y, z)) {
        editor_write(e, x, y, z, value, false);
        return;
    }
    if (!edit_grow((void **)&e->pending, &e->pending_cap, e->pending_count + 1, sizeof(PendingWrite))) {
        log_error(EDIT_TAG, "out of memory keeping an undo write for cell %d %d %d", x, y, z);
        return;
    }
    PendingWrite *w = &e->pending[e->pending_count++];
    w->x = x;
    w->y = y;
    w->z = z;
    w->value = value;
}

bool editor_undo(Editor *e)
{
    editor_frame(e);
    uint32_t serial = history_done_serial(e->history);
    int n = 0;
    const HistoryCell *cells = history_undo(e->history, &n);
    if (!cells) return false;
    /* What the action set in motion and has not happened yet goes with it: a support check it scheduled would
     * otherwise run on the restored world (a generated snow layer over air next to the edit) and change it
     * with nothing recorded, since follow-ups of an undone action have no entry to go to. */
    behaviour_cancel(e, serial);
    editor_defer_begin(e);
    for (int i = n - 1; i >= 0; i--) editor_restore(e, cells[i].x, cells[i].y, cells[i].z, cells[i].old_value);
    editor_defer_end(e);
    return true;
}

bool editor_redo(Editor *e)
{
    editor_frame(e);
    int n = 0;
    const HistoryCell *cells = history_redo(e->history, &n);
    if (!cells) return false;
    editor_defer_begin(e);
    for (int i = 0; i < n; i++) editor_restore(e, cells[i].x, cells[i].y, cells[i].z, cells[i].new_value);
    editor_defer_end(e);
    return true;
}

/* Applies, in order, the pending writes whose chunk has its contents again. A chunk still away keeps all
 * its writes (and their order). */
static void editor_apply_pending(Editor *e)
{
    int kept = 0;
    editor_defer_begin(e);
    for (int i = 0; i < e->pending_count; i++) {
        PendingWrite w = e->pending[i];
        if (edit_chunk(e->terrain, w.x, w.y, w.z)) {
            editor_write(e, w.x, w.y, w.z, w.value, false);
        } else {
            e->pending[kept++] = w;
        }
    }
    e->pending_count = kept;
    editor_defer_end(e);
}

void editor_frame(Editor *e)
{
    if (e->pending_count > 0) editor_apply_pending(e);
    behaviour_deliver(e);
}

void editor_get_stats(const Editor *e, EditorStats *s)
{
    memset(s, 0, sizeof *s);
    s->undo_entries = history_undo_count(e->history);
    s->redo_entries = history_redo_count(e->history);
    s->history_bytes = history_bytes_used(e->history);
    s->history_max_bytes = history_max_bytes(e->history);
    s->history_dropped = history_dropped_entries(e->history);
    s->pending_writes = e->pending_count;
    s->scheduled = e->scheduled_count;
    s->ticks = e->tick;
    s->behaviour_changes = e->behaviour_changes;
}
