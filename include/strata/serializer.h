/* serializer.h — a world folder on disk: world.json plus Regions/Region X,Z.dat, and the ChunkStorage
 * the update worker loads and saves chunks through.
 *
 * Only chunks the player changed are stored; everything else regenerates from the seed. Region files keep
 * a CRC32 per chunk record and never overwrite a chunk's last good copy before the new one is durable. A
 * damaged blob is reported (file, chunk coords, offset) and left untouched on disk.
 * Threads: serializer_open/close and the world.json calls on the main thread; the ChunkStorage callbacks
 * run on the update worker (the serializer serialises its own file access internally).
 * A world folder is locked (flock on DIR/session.lock) while a serializer has it open: a second
 * serializer_open of the same world, in any process, fails with ST_ERR_STATE. */
#ifndef STRATA_SERIALIZER_H
#define STRATA_SERIALIZER_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/block.h"
#include "strata/chunk_storage.h"
#include "strata/error.h"
#include "strata/region_cache.h"
#include "strata/world_file.h"

typedef struct Serializer Serializer;

/* Opens (or with create=true creates) the world folder `dir`. create=true refuses an existing world
 * (ST_ERR_EXISTS); create=false on a missing world is ST_ERR_NOT_FOUND. On create, `meta` is written;
 * on open, `meta` is filled from world.json. `blocks` validates stored block ids and must outlive it. */
StResult serializer_open(const char *dir, bool create, WorldMeta *meta, const BlockRegistry *blocks,
                         Serializer **out);
/* Flushes and closes region files. NULL is a no-op. */
void serializer_close(Serializer *serializer);

/* The storage interface for UpdaterConfig.storage (valid while the serializer is open). */
const ChunkStorage *serializer_chunk_storage(Serializer *serializer);

/* Writes world.json atomically. */
StResult serializer_save_meta(Serializer *serializer, const WorldMeta *meta);

/* The default worlds folder: $XDG_DATA_HOME/strata/worlds or ~/.local/share/strata/worlds. */
StResult serializer_default_worlds_dir(char *out, size_t size);

/* Counters since serializer_open (any thread; takes the serializer's lock). */
typedef struct SerializerStats {
    long chunks_loaded;          /* loads that returned ST_OK */
    long load_errors;            /* loads that found a damaged copy */
    long load_io_errors;         /* loads that failed to read (the chunk stays NotLoaded and is retried) */
    long chunks_saved;           /* records written */
    long saves_skipped_damaged;  /* saves refused: damaged on disk and never edited */
    long save_errors;
    long long bytes_saved;       /* payload bytes written */
    int regions_open;            /* open region files now (bounded) */
    int region_files;            /* region files in the world */
    RegionRepairs repairs;       /* what opening region files found and mended (region_cache.h) */
} SerializerStats;
void serializer_get_stats(Serializer *serializer, SerializerStats *stats);

/* The world folder this serializer was opened on. */
const char *serializer_dir(const Serializer *serializer);

#endif
