/* region_cache.h — a bounded set of open region files, plus which exist on disk.
 *
 * The cache knows every region file in the folder (scanned once at creation, then kept up to date), so a
 * chunk whose region was never written is answered without a system call. At most `max_open` files are
 * open at once; the least recently used is closed first. A region file whose directory is unreadable is
 * remembered as damaged (its error is replayed, the file is not reopened and never modified); a write into
 * such a region first moves the damaged file aside to "<name>.damaged" (kept byte for byte) and starts a
 * fresh one. Ownership: the cache owns every RegionFile it returns; a returned pointer is valid until the
 * next region_cache_get or region_cache_destroy. Threads: one thread at a time (the serializer locks). */
#ifndef STRATA_REGION_CACHE_H
#define STRATA_REGION_CACHE_H

#include <stdbool.h>
#include "strata/error.h"
#include "strata/region.h"

#define REGION_CACHE_DEFAULT_OPEN 16

typedef struct RegionCache RegionCache;

/* Scans `regions_dir` (which must exist) for "Region X,Z.dat" files. */
StResult region_cache_create(const char *regions_dir, int max_open, RegionCache **out);
/* Closes every open file. NULL is a no-op. */
void region_cache_destroy(RegionCache *cache);

/* The open region (rx, rz). create=false: ST_ERR_NOT_FOUND when there is no file, ST_ERR_FORMAT for a damaged
 * one. create=true: creates a missing file, replaces a damaged one as described above. */
StResult region_cache_get(RegionCache *cache, int rx, int rz, bool create, RegionFile **out);

/* Whether a region file exists on disk (damaged or not). */
bool region_cache_exists(const RegionCache *cache, int rx, int rz);
int region_cache_open_count(const RegionCache *cache);
/* Region files known on disk. */
int region_cache_file_count(const RegionCache *cache);

/* What opening the world's region files found and mended, counted once per file (a reopen after an LRU
 * eviction adds nothing), so that the game can tell the player (not only a log line). */
typedef struct RegionRepairs {
    int rolled_forward;    /* chunks rolled forward to a record newer than the directory (nothing lost) */
    int uncertain;         /* chunks with another record of unknown age: the live one is used, both kept */
    int bad_entries;       /* directory entries that failed the open checks: damaged chunks */
    int damaged_regions;   /* region files with no valid directory (kept untouched, or set aside) */
    int set_aside;         /* damaged region files moved aside to "<name>.damaged" */
    int last_rx, last_rz;  /* the region of the latest report */
} RegionRepairs;
void region_cache_get_repairs(const RegionCache *cache, RegionRepairs *out);

#endif
