/* serializer.h — a world folder on disk: world.json plus Regions/Region X,Z.dat, and the ChunkStorage
 * the update worker loads and saves chunks through.
 *
 * Only chunks the player changed are stored; everything else regenerates from the seed. Region files keep
 * a CRC32 per chunk record and never overwrite a chunk's last good copy before the new one is durable. A
 * damaged blob is reported (file, chunk coords, offset) and left untouched on disk.
 * Threads: serializer_open/close and the world.json calls on the main thread; the ChunkStorage callbacks
 * run on the update worker (the serializer serialises its own file access internally). */
#ifndef STRATA_SERIALIZER_H
#define STRATA_SERIALIZER_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/update.h"
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

#endif
