/* chunk_storage.h — ChunkStorage: the interface through which the update worker loads and saves chunks.
 *
 * Ownership: the world layer owns this interface so that store (which implements it: serializer.h) and
 * update (which calls it: update.h) both depend downward on it, never on each other. The struct is a
 * plain value of callbacks; whoever fills it keeps `user` alive while it is in use.
 * Threads: both callbacks run on the update worker; `save` also runs on the main thread from
 * updater_save_all. An implementation serialises its own state. NULL storage: always generate. */
#ifndef STRATA_CHUNK_STORAGE_H
#define STRATA_CHUNK_STORAGE_H

#include "strata/chunk.h"
#include "strata/error.h"

/* Where chunks are stored. Both calls run on the worker thread. NULL storage: always generate. */
typedef struct ChunkStorage {
    void *user;
    /* ST_OK: cells and shafts filled from disk. ST_ERR_NOT_FOUND: never stored (generate it).
     * ST_ERR_IO or ST_ERR_NOMEM: the stored copy could not be read (not damage): the worker leaves the chunk
     * NotLoaded (never generated, never saved) and retries at a later exchange; the storage must refuse a
     * save over a record it could not read. Other errors (ST_ERR_FORMAT): the stored copy is damaged; the
     * worker logs it, generates in memory and sets CHUNK_FLAG_DAMAGED_ON_DISK so it is not written back
     * until the player edits it. */
    StResult (*load)(void *user, TerrainChunk *chunk);
    /* Called for a chunk with modification_counter > 0 being released or autosaved (on the worker, with a
     * snapshot of it), or by updater_save_all (on the main thread). A failure keeps the edits in memory:
     * the chunk is not released and the save is retried at the next autosave / updater_save_all. */
    StResult (*save)(void *user, const TerrainChunk *chunk);
} ChunkStorage;

#endif
