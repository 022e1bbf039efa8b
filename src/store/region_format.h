/* region_format.h — private to src/store: the RegionFile handle, byte helpers and the record header shared
 * by region.c (open, read, write, compaction) and region_scan.c (record scans, open-time checks). See strata/region.h for the layout.
 * Pure functions; any thread. */
#ifndef STRATA_REGION_FORMAT_H
#define STRATA_REGION_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <zlib.h>

#include "strata/region.h"

#define REGION_DIRECTORY_BYTES (24 + REGION_SLOTS * 12)   /* before the directory CRC */

typedef struct RegionExtent { uint64_t start, end; } RegionExtent;   /* whole pages, [start, end) */

struct RegionFile {
    char path[PATH_MAX];
    int fd;
    int region_x, region_z;
    RegionOpenMode mode;
    RegionEntry entries[REGION_SLOTS];
    uint64_t generation;       /* of the live copy */
    uint64_t last_generation;  /* highest generation either copy may hold on disk (failed writes included) */
    int live_copy;
    bool copy_valid[2];
    uint64_t file_size;
    uint64_t compact_min_bytes;
    bool damage_seen;          /* a record failed its checks: never compact this file */
    long compactions;
    uint8_t *buffer;           /* record scratch for reads and writes */
    size_t buffer_capacity;
    RegionExtent *reserved;    /* pages named by failed directory writes only; kept until a commit succeeds */
    int reserved_count, reserved_capacity;
    RegionExtent *held;        /* pages of records whose age could not be told: never reused by this handle */
    int held_count, held_capacity;
    uint8_t slot_status[REGION_SLOTS];      /* RegionSlotStatus, from the open-time checks */
    uint64_t slot_generation[REGION_SLOTS]; /* of a rolled-forward record */
    int test_commit_failures;  /* region_test_fail_directory_commits */
    bool test_failure_writes;
};



static inline void region_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t region_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void region_put_u64(uint8_t *p, uint64_t v)
{
    region_put_u32(p, (uint32_t)v);
    region_put_u32(p + 4, (uint32_t)(v >> 32));
}
static inline uint64_t region_get_u64(const uint8_t *p)
{
    return (uint64_t)region_get_u32(p) | ((uint64_t)region_get_u32(p + 4) << 32);
}

static inline uint32_t region_crc32(const uint8_t *data, size_t size)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (size > 0) {
        uInt n = size > (1u << 30) ? (1u << 30) : (uInt)size;
        crc = crc32(crc, data, n);
        data += n;
        size -= n;
    }
    return (uint32_t)crc;
}

static inline uint64_t region_round_to_page(uint64_t n)
{
    return (n + REGION_PAGE - 1) & ~(uint64_t)(REGION_PAGE - 1);
}

/* A parsed record header: "CHK3" (32 bytes, with the directory generation it was written for) or the older
 * "CHK2" (24 bytes, no generation). */
typedef struct RegionRecordHeader {
    int cx, cz;
    uint32_t header_size;      /* 24 or 32 */
    uint32_t length, crc, codec;
    bool has_generation;
    uint64_t generation;
} RegionRecordHeader;

/* Parses the header at h (at least REGION_RECORD_HEADER bytes readable, or `avail`); false: no record magic. */
static inline bool region_record_parse(const uint8_t *h, size_t avail, RegionRecordHeader *out)
{
    if (avail < REGION_RECORD_HEADER_V1) return false;
    bool v2 = memcmp(h, "CHK3", 4) == 0;
    if (!v2 && memcmp(h, "CHK2", 4) != 0) return false;
    if (v2 && avail < REGION_RECORD_HEADER) return false;
    out->cx = (int)region_get_u32(h + 4);
    out->cz = (int)region_get_u32(h + 8);
    out->length = region_get_u32(h + 12);
    out->crc = region_get_u32(h + 16);
    out->codec = region_get_u32(h + 20);
    out->header_size = v2 ? REGION_RECORD_HEADER : REGION_RECORD_HEADER_V1;
    out->has_generation = v2;
    out->generation = v2 ? region_get_u64(h + 24) : 0;
    return true;
}

/* The whole pages an entry touches (a damaged unaligned entry: all of them too). */
static inline RegionExtent region_entry_extent(const RegionEntry *e)
{
    RegionExtent x = {e->offset & ~(uint64_t)(REGION_PAGE - 1),
                      region_round_to_page((uint64_t)e->offset + (e->size ? e->size : 1))};
    return x;
}

static inline bool region_extents_overlap(RegionExtent a, RegionExtent b) { return a.start < b.end && b.start < a.end; }

/* Calls fn for every CRC-valid record of region (rx, rz) in the data pages of an open file (region_scan.c).
 * Reads only; ST_ERR_IO when a read fails, ST_ERR_NOMEM. */
StResult region_scan_fd(int fd, const char *path, uint64_t file_size, int rx, int rz, RegionScanFn fn, void *user);

/* region.c */
StResult region_commit_directory(RegionFile *region, const RegionEntry entries[REGION_SLOTS]);
StResult region_check_record(RegionFile *region, int cx, int cz, RegionEntry entry, const uint8_t **payload, size_t *size);
/* region_scan.c: open-time helpers and roll-forward */
StResult region_extent_push(RegionExtent **list, int *count, int *capacity, RegionExtent x, const char *path);
bool region_entry_pages(const RegionFile *region, const RegionEntry *e, RegionExtent *out);
StResult region_roll_forward(RegionFile *region);

#endif
