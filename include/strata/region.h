/* region.h — region files: `Regions/Region X,Z.dat`, 16x16 chunks each, crash-safe.
 *
 * Layout (all integers little-endian):
 *   two directory copies, one 4096-byte page each (offsets 0 and 4096):
 *     "SRG1", u32 version (2; version 1 files are read too), i32 region x, i32 region z, u64 generation,
 *     256 entries {u32 offset, u32 record size, u32 payload CRC32} (slot = (cx & 15) + (cz & 15) * 16,
 *     offset 0 = no record), u32 CRC32 of everything before it in the copy
 *   chunk records from byte 8192, each starting on a 4096-byte page (the rest of its last page is slack):
 *     "CHK3", i32 chunk x, i32 chunk z, u32 payload length, u32 payload CRC32, u32 codec (1),
 *     u64 generation of the directory commit the record was written for, payload. Records of version 1
 *     files ("CHK2", the same without the generation, 24-byte header) are read, never written.
 * Updates are copy-on-write: a record is written into space that the live directory does not use (never over
 * the chunk's current record, never sharing a page with a live record), fdatasync'd, then the directory is
 * written as a whole into the *other* copy with a higher generation and fdatasync'd (a failed directory
 * write keeps the pages it named reserved until a later commit succeeds, whose generation passes it). A
 * reader takes the valid copy with the highest generation, so a crash at any point leaves either the old or
 * the new chunk version. Free space is derived from the live directory at open. When dead space passes half
 * of a file of at least REGION_COMPACT_MIN_BYTES, the file is rewritten to `<path>.tmp` and renamed over it
 * (fsync, rename, fsync folder); a file holding a damaged record is never compacted (damaged bytes are left
 * untouched).
 * Opening checks every live entry (in the file, sane size, no overlap with a valid record): a bad entry is
 * a damaged chunk (its reads fail with ST_ERR_FORMAT), the rest of the region stays readable and writable.
 * When a directory copy is invalid (torn, or damaged: the two look alike), the data pages are scanned: a
 * CRC-valid record whose generation is newer than the live directory is rolled forward (its chunk's newest
 * version; in a writable open the repaired directory is committed at once); a record whose age cannot be
 * told (a version 1 record, or one that overlaps a live record) marks its chunk REGION_SLOT_UNCERTAIN and
 * its pages are never reused through this handle. Until a newer directory commits, the pages named by
 * either readable copy are reserved too. A generation above REGION_MAX_GENERATION is damage (never wraps).
 *
 * Errors: ST_ERR_NOT_FOUND (no file / no record), ST_ERR_IO (an OS call failed, with path and strerror),
 * ST_ERR_FORMAT (damage, message "<path>: chunk X,Z at offset N: <what>"; the file is not modified).
 * Ownership: region_open allocates a RegionFile holding one descriptor; region_close closes it (NULL no-op).
 * Threads: a RegionFile is used by one thread at a time (the serializer's worker); files are not locked
 * against other processes (the serializer holds a world lock). */
#ifndef STRATA_REGION_H
#define STRATA_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/error.h"

#define REGION_CHUNKS          16              /* chunks per region side */
#define REGION_SLOTS           256
#define REGION_PAGE            4096            /* allocation unit and directory copy size */
#define REGION_DATA_START      (2 * REGION_PAGE)
#define REGION_RECORD_HEADER   32              /* "CHK3" records, written by this build */
#define REGION_RECORD_HEADER_V1 24             /* "CHK2" records of version 1 files */
#define REGION_MAX_RECORD      (1u << 20)      /* 1 MiB per chunk record, header included */
#define REGION_MAX_FILE_SIZE   (256u << 20)    /* 256 MiB */
#define REGION_COMPACT_MIN_BYTES (256u << 10)  /* files smaller than this are never compacted */
#define REGION_FORMAT_VERSION  2              /* written; 1 is read too */
#define REGION_MAX_GENERATION  (1ull << 48)     /* a copy claiming more is damage (2^48 commits: never) */
#define REGION_CODEC_RLE_DEFLATE 1

typedef struct RegionFile RegionFile;

typedef enum RegionOpenMode {
    REGION_OPEN_READ = 0,   /* read only (tools): writes fail with ST_ERR_STATE */
    REGION_OPEN_WRITE,      /* read and write an existing file */
    REGION_OPEN_CREATE      /* read and write, creating an empty file (atomically) if missing */
} RegionOpenMode;

typedef struct RegionEntry {
    uint32_t offset;        /* 0: no record */
    uint32_t size;          /* record size, header included */
    uint32_t crc;           /* CRC32 of the payload */
} RegionEntry;

typedef struct RegionInfo {
    int region_x, region_z;
    int chunk_count;        /* slots holding a record */
    uint64_t generation;    /* of the live directory copy */
    int live_copy;          /* 0 or 1 */
    bool copy_valid[2];     /* false: torn or damaged copy (an interrupted directory write; not data loss) */
    uint64_t file_size;
    uint64_t record_bytes;  /* sum of live record sizes */
    uint64_t used_bytes;    /* header pages + pages held by live records */
    long compactions;       /* compactions done through this handle */
    int rolled_forward;     /* chunks whose newer record was rolled forward at open */
    int bad_entries;        /* live entries that failed the open-time checks (damaged chunks) */
    int uncertain;          /* chunks with a record whose age could not be told (see region_get_slot_status) */
} RegionInfo;

typedef enum RegionSlotStatus {
    REGION_SLOT_NORMAL = 0,
    REGION_SLOT_ROLLED_FORWARD,   /* its newest record was named by no valid directory copy: rolled forward */
    REGION_SLOT_BAD_ENTRY,        /* the live entry is out of range or overlaps: the chunk is damaged */
    REGION_SLOT_UNCERTAIN         /* another CRC-valid record of it exists whose age cannot be told: the live
                                   * entry is used, that record's pages stay untouched; report it */
} RegionSlotStatus;

/* A CRC-valid record found by scanning data pages (region_scan_file). */
typedef struct RegionRecordInfo {
    int cx, cz;
    uint32_t offset, size;  /* size: header included */
    uint32_t crc;
    bool has_generation;    /* false: a version 1 ("CHK2") record */
    uint64_t generation;
} RegionRecordInfo;

/* Called for each record found; `payload` is valid during the call only. */
typedef void (*RegionScanFn)(void *user, const RegionRecordInfo *record, const uint8_t *payload, size_t size);

/* Region of a chunk coordinate, and the chunk's slot in its region. */
static inline int region_coord_of(int chunk_coord) { return chunk_coord >> 4; }
static inline int region_slot_of(int cx, int cz) { return (cx & 15) + ((cz & 15) << 4); }

/* "<regions_dir>/Region X,Z.dat". ST_ERR_ARG if it does not fit in `size`. */
StResult region_file_path(char *out, size_t size, const char *regions_dir, int rx, int rz);
/* Parses a file name "Region X,Z.dat" (no folder); false for anything else. */
bool region_parse_file_name(const char *name, int *rx, int *rz);

/* Opens the region file at `path` holding region (rx, rz). A file whose directory copies are both invalid,
 * or that belongs to another region, is ST_ERR_FORMAT (file untouched). */
StResult region_open(const char *path, int rx, int rz, RegionOpenMode mode, RegionFile **out);
void region_close(RegionFile *region);

const char *region_path(const RegionFile *region);
bool region_has_chunk(const RegionFile *region, int cx, int cz);
/* The live directory entry of a slot (0..255). */
RegionEntry region_get_entry(const RegionFile *region, int slot);
void region_get_info(const RegionFile *region, RegionInfo *info);
/* What opening found about a slot (0..255); for a rolled-forward slot *generation gets the record's. */
RegionSlotStatus region_get_slot_status(const RegionFile *region, int slot, uint64_t *generation);

/* Reads the file at `path` (read-only, whatever its directories say) and calls fn for every CRC-valid record
 * of region (rx, rz) in its data pages. For recovery tools. ST_ERR_IO / ST_ERR_NOT_FOUND when unreadable. */
StResult region_scan_file(const char *path, int rx, int rz, RegionScanFn fn, void *user);

/* Reads and checks a chunk's record (bounds, magic, coordinates, length, codec, CRC32). On ST_OK *payload
 * points into the region's buffer, valid until the next call on this region. The chunk must lie in this
 * region (ST_ERR_ARG otherwise). */
StResult region_read_chunk(RegionFile *region, int cx, int cz, const uint8_t **payload, size_t *size);

/* Stores a chunk's payload durably (copy-on-write, see above); may compact the file afterwards. */
StResult region_write_chunk(RegionFile *region, int cx, int cz, const uint8_t *payload, size_t size);

/* Removes a chunk's record (it regenerates from the seed); the directory update is atomic. */
StResult region_delete_chunk(RegionFile *region, int cx, int cz);

/* Rewrites the file without dead space. ST_ERR_FORMAT (nothing changed) if any record is damaged. */
StResult region_compact(RegionFile *region);

/* Dead-space threshold for automatic compaction (tests lower it); default REGION_COMPACT_MIN_BYTES. */
void region_set_compact_min_bytes(RegionFile *region, uint64_t bytes);

/* For tests: the next `count` directory commits of this handle fail with ST_ERR_IO. With `bytes_reach_disk`
 * the directory page is written first and only its fdatasync "fails" (the copy may still be on disk, as
 * after a real fdatasync error); without it the write itself "fails" and nothing is written (as if the
 * process died just before the directory write). count 0 turns it off. */
void region_test_fail_directory_commits(RegionFile *region, int count, bool bytes_reach_disk);

#endif
