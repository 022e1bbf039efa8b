/* update_save.c — the save path in one room: what the exchange hands over (a chunk's edits, merged into a
 * queued save of it), the autosave it queues and the failed saves it gives back; the worker's background
 * write through a snapshot with the lock dropped; updater_save_all, which writes every modified chunk on the
 * main thread with the worker idle; and the summary of chunks that cannot be written.
 *
 * Design: a chunk's modification counter moves into its AutosaveEntry when its save is queued and back when
 * the save fails, so an edit is never counted as saved before the storage said so; a chunk nobody wants
 * whose save failed stays in the Terrain (SAVE_FAILED) until a save succeeds. The exchange (update_exchange.c)
 * and the worker (worker.c) call down into this file; it calls neither. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "strata/log.h"
#include "update_internal.h"

static AutosaveEntry *save_find(TerrainUpdater *u, const TerrainChunk *chunk)
{
    for (int i = 0; i < u->autosave.count; i++) {
        AutosaveEntry *e = &UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, i);
        if (e->chunk == chunk) return e;
    }
    return NULL;
}

/* Hands the chunk's edits to the worker for a background save (merged into a queued save of it if there
 * is one): the counter moves into the entry. false when out of memory (nothing changed). */
bool update_save_hand_over(TerrainUpdater *u, TerrainChunk *chunk)
{
    AutosaveEntry *e = save_find(u, chunk);
    if (!e) {
        /* Room for every queued save, and the one in flight, to fail: the worker cannot then lose one. */
        int room = u->failed_saves.count + u->autosave.count + 2;
        if (!update_array_reserve(&u->failed_saves, sizeof(AutosaveEntry), room)) return false;
        e = update_array_push(&u->autosave, sizeof *e);
        if (!e) return false;
        e->chunk = chunk;
        e->counter = 0;
    }
    e->counter += chunk->modification_counter;
    e->flags = chunk->flags;
    chunk->modification_counter = 0;
    return true;
}

/* Whether a save of the chunk is queued or being written (its edits are then not in its counter). */
bool update_save_in_flight(TerrainUpdater *u, const TerrainChunk *chunk)
{
    return (u->io_busy && u->saving == chunk) || save_find(u, chunk) != NULL;
}

/* Gives the counters of failed saves back to their chunks (still in the Terrain: see exchange_release).
 * A chunk that no location wants any more is marked SAVE_FAILED: kept, retried at the next autosave. */
void update_save_restore_failed(TerrainUpdater *u)
{
    for (int i = 0; i < u->failed_saves.count; i++) {
        const AutosaveEntry *e = &UPDATE_ARRAY_AT(&u->failed_saves, AutosaveEntry, i);
        e->chunk->modification_counter += e->counter;
        if (!update_chunk_wanted(u, e->chunk, 1)) e->chunk->worker_schedule |= UPDATE_WORKER_FLAG_SAVE_FAILED;
    }
    u->failed_saves.count = 0;
}

void update_save_queue_all(TerrainUpdater *u)
{
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (!updater_chunk_needs_save(chunk)) continue;
        if (!update_save_hand_over(u, chunk)) {
            log_error("update", "out of memory queueing autosaves; the rest are saved later");
            return;
        }
    }
}

/* Once per autosave: says how many chunks nobody wants are kept only because they cannot be written. */
void update_save_report_unsaved(const TerrainUpdater *u)
{
    if (u->unsaved_kept > UPDATE_UNSAVED_ALARM_CHUNKS)
        log_error("update", "THE WORLD CANNOT BE SAVED: %d chunks with edits (one at %d,%d) failed to save and are "
                  "held in memory, none is dropped; last storage error: %s. Free disk space or make the world "
                  "folder writable; they are saved at the next autosave or save",
                  u->unsaved_kept, u->unsaved_example_x, u->unsaved_example_z, u->last_save_error);
    else if (u->unsaved_kept > 0)
        log_warn("update", "%d chunks with edits (one at %d,%d) could not be saved and are held in memory; "
                 "retrying now; last storage error: %s",
                 u->unsaved_kept, u->unsaved_example_x, u->unsaved_example_z, u->last_save_error);
}

void updater_request_autosave(TerrainUpdater *u)
{
    u->autosave_requested = true;
}

/* Saves one chunk on the main thread (lock held, worker idle); remembers the first failure. A chunk nobody
 * wants whose save fails stays in the Terrain, marked SAVE_FAILED (see exchange_release). */
static void save_all_one(TerrainUpdater *u, TerrainChunk *chunk, StResult *first, char *first_message, size_t size)
{
    StResult rc = u->storage->save(u->storage->user, chunk);
    if (rc == ST_OK) {
        chunk->modification_counter = 0;
        chunk->worker_schedule &= ~UPDATE_WORKER_FLAG_SAVE_FAILED;
        u->chunks_saved++;
        return;
    }
    snprintf(u->last_save_error, sizeof u->last_save_error, "%s", st_error_message());
    log_error("update", "saving chunk %d,%d failed (%s): %s; its edits stay in memory", chunk->coord_x,
              chunk->coord_z, st_result_name(rc), u->last_save_error);
    if (!update_chunk_wanted(u, chunk, 1)) chunk->worker_schedule |= UPDATE_WORKER_FLAG_SAVE_FAILED;
    if (*first == ST_OK) {
        *first = rc;
        snprintf(first_message, size, "saving chunk %d,%d: %s", chunk->coord_x, chunk->coord_z, u->last_save_error);
    }
}

StResult updater_save_all(TerrainUpdater *u)
{
    if (!u->storage || !u->storage->save) return ST_OK;
    update_main_lock(u);
    while (u->io_busy) pthread_cond_wait(&u->io_cond, &u->mutex);
    /* Jobs write cells, shafts and light of the chunks about to be written: none runs meanwhile. */
    if (u->pool.threads > 1) update_pool_pause(u);

    /* Everything handed to the worker but not yet written comes back to its chunk first. */
    update_save_restore_failed(u);
    for (int i = 0; i < u->autosave.count; i++) {
        const AutosaveEntry *e = &UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, i);
        e->chunk->modification_counter += e->counter;
    }
    u->autosave.count = 0;

    /* Every modified chunk in the Terrain, including those kept because an earlier save failed. Released
     * chunks never need a write (exchange_release detaches only saved ones). */
    StResult first = ST_OK;
    char message[512] = "";
    for (int i = 0, n = terrain_chunk_count(u->terrain); i < n; i++) {
        TerrainChunk *chunk = terrain_chunk_at(u->terrain, i);
        if (updater_chunk_needs_save(chunk)) save_all_one(u, chunk, &first, message, sizeof message);
    }
    u->stats.chunks_saved = u->chunks_saved;
    if (u->pool.threads > 1) update_pool_resume(u);
    update_main_unlock(u);
    return first == ST_OK ? ST_OK : st_fail(first, "%s", message);
}

/* Writes `snapshot` (a copy of the live chunk `live`) with the lock dropped. A failure is logged once
 * here, with its reason, and remembered for the exchange's summary. */
static StResult save_unlocked(TerrainUpdater *u, const TerrainChunk *live, const TerrainChunk *snapshot)
{
    u->io_busy = true;
    u->saving = live;
    pthread_mutex_unlock(&u->mutex);
    StResult rc = u->storage->save(u->storage->user, snapshot);
    char reason[sizeof u->last_save_error] = "";
    if (rc != ST_OK) {
        snprintf(reason, sizeof reason, "%s", st_error_message());
        log_error("update", "saving chunk %d,%d failed (%s): %s; its edits stay in memory and the save is "
                  "retried at the next autosave or save", snapshot->coord_x, snapshot->coord_z,
                  st_result_name(rc), reason);
    }
    pthread_mutex_lock(&u->mutex);
    u->io_busy = false;
    u->saving = NULL;
    pthread_cond_broadcast(&u->io_cond);
    if (rc == ST_OK) u->chunks_saved++;
    else memcpy(u->last_save_error, reason, sizeof reason);
    return rc;
}

bool update_save_possible(const TerrainUpdater *u)
{
    return u->storage && u->storage->save;
}

/* A background save of a live chunk (an autosave, or the save of a chunk being released), through a
 * snapshot. */
bool update_save_autosave_one(TerrainUpdater *u)
{
    /* The first one whose chunk has no job in flight (a job may be writing its shafts or light). */
    int at = 0;
    while (at < u->autosave.count && update_chunk_in_flight(u, UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, at).chunk))
        at++;
    if (at == u->autosave.count) return false;
    AutosaveEntry entry = UPDATE_ARRAY_AT(&u->autosave, AutosaveEntry, at);
    memmove((AutosaveEntry *)u->autosave.data + at, (AutosaveEntry *)u->autosave.data + at + 1,
            (size_t)(u->autosave.count - at - 1) * sizeof(AutosaveEntry));
    u->autosave.count--;

    TerrainChunk *snap = u->snapshot;
    const TerrainChunk *live = entry.chunk;
    snap->coord_x = live->coord_x;
    snap->coord_z = live->coord_z;
    snap->origin_x = live->origin_x;
    snap->origin_z = live->origin_z;
    snap->state = CHUNK_STATE_VALID;
    snap->thread_state = live->thread_state;
    snap->modification_counter = entry.counter;
    snap->flags = entry.flags;
    memcpy(snap->shafts, live->shafts, sizeof snap->shafts); /* shafts are written only by the worker */
    chunk_copy_cells_out(live, chunk_cell_view(snap).cells);   /* relaxed loads: main may be editing live */

    if (save_unlocked(u, live, snap) == ST_OK) return true;
    /* Main gives the counter back at the next exchange. The chunk is still in the Terrain: main never
     * detaches a chunk while `saving` names it. The exchange reserved room for this record when it
     * queued the save, so the push cannot fail. */
    AutosaveEntry *failed = update_array_push(&u->failed_saves, sizeof *failed);
    if (failed) *failed = entry;
    else log_error("update", "out of memory recording the failed save of chunk %d,%d", live->coord_x, live->coord_z);
    return true;
}
