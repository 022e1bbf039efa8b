/* region_scan.c — finding chunk records in a region file's data pages without trusting its directory.
 *
 * Design: records always start on a page boundary, so a scan reads the header at every page from
 * REGION_DATA_START and keeps those whose magic, chunk coordinates (inside the region), codec, length (within
 * the file and the record limit) and payload CRC32 all check out; after a valid record it jumps past it. A
 * stale or torn record fails its CRC, so what is reported is a complete record as written (its directory may
 * never have named it). Used at open when a directory copy is invalid (roll-forward, region.c) and by
 * `strata-world recover` on files whose directory is gone. Reads only; reentrant.
 * Also here: roll-forward at open, which only changes the handle's memory (region.c commits the repaired
 * directory). This file is below region.c: it calls nothing there. */
#include "region_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strata/fileio.h"
#include "strata/log.h"

StResult region_scan_fd(int fd, const char *path, uint64_t file_size, int rx, int rz, RegionScanFn fn, void *user)
{
    uint8_t *record = malloc(REGION_MAX_RECORD);
    if (!record) return st_fail(ST_ERR_NOMEM, "%s: out of memory for a record scan", path);
    StResult rc = ST_OK;
    uint64_t offset = REGION_DATA_START;
    while (offset + REGION_RECORD_HEADER_V1 <= file_size) {
        uint8_t h[REGION_RECORD_HEADER];
        size_t got = 0;
        if ((rc = fileio_pread_all(fd, path, h, sizeof h, offset, &got)) != ST_OK) break;
        RegionRecordHeader head;
        bool ok = region_record_parse(h, got, &head) && region_coord_of(head.cx) == rx &&
                  region_coord_of(head.cz) == rz && head.codec == REGION_CODEC_RLE_DEFLATE &&
                  head.length <= REGION_MAX_RECORD - head.header_size &&
                  offset + head.header_size + head.length <= file_size &&
                  (!head.has_generation || head.generation <= REGION_MAX_GENERATION);
        uint32_t size = ok ? head.header_size + head.length : 0;
        if (ok) {
            if ((rc = fileio_pread_all(fd, path, record, size, offset, &got)) != ST_OK) break;
            ok = got == size && region_crc32(record + head.header_size, head.length) == head.crc;
        }
        if (!ok) {
            offset += REGION_PAGE;
            continue;
        }
        RegionRecordInfo info = {head.cx, head.cz, (uint32_t)offset, size, head.crc, head.has_generation,
                                 head.generation};
        fn(user, &info, record + head.header_size, head.length);
        offset = region_round_to_page(offset + size);
    }
    free(record);
    return rc;
}

StResult region_scan_file(const char *path, int rx, int rz, RegionScanFn fn, void *user)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT) return st_fail(ST_ERR_NOT_FOUND, "%s: no such file", path);
        return st_fail(ST_ERR_IO, "%s: open: %s", path, strerror(errno));
    }
    struct stat st;
    StResult rc = fstat(fd, &st) == 0 ? ST_OK : st_fail(ST_ERR_IO, "%s: fstat: %s", path, strerror(errno));
    if (rc == ST_OK) rc = region_scan_fd(fd, path, (uint64_t)st.st_size, rx, rz, fn, user);
    close(fd);
    return rc;
}

/* ---- open-time checks: entries, roll-forward ---- */

StResult region_extent_push(RegionExtent **list, int *count, int *capacity, RegionExtent x, const char *path)
{
    if (*count == *capacity) {
        int grown = *capacity ? *capacity * 2 : 32;
        RegionExtent *p = realloc(*list, sizeof *p * (size_t)grown);
        if (!p) return st_fail(ST_ERR_NOMEM, "%s: out of memory for the free-space map", path);
        *list = p;
        *capacity = grown;
    }
    (*list)[(*count)++] = x;
    return ST_OK;
}

/* The pages an entry may occupy inside the file (a bad entry: clamped; none when it starts past the end). */
bool region_entry_pages(const RegionFile *region, const RegionEntry *e, RegionExtent *out)
{
    if (!e->offset || e->offset >= region->file_size) return false;
    RegionEntry clamped = *e;
    if (clamped.size > REGION_MAX_RECORD) clamped.size = REGION_MAX_RECORD;
    *out = region_entry_extent(&clamped);
    uint64_t end = region_round_to_page(region->file_size);
    if (out->end > end) out->end = end;
    if (out->start < REGION_DATA_START) out->start = REGION_DATA_START;
    return out->start < out->end;
}

typedef struct RollScan {
    RegionFile *region;
    bool found[REGION_SLOTS];
    RegionRecordInfo newest[REGION_SLOTS];
    uint64_t max_generation;
    StResult rc;
} RollScan;

static void region_roll_scan_record(void *user, const RegionRecordInfo *record, const uint8_t *payload, size_t size)
{
    (void)payload; (void)size;
    RollScan *scan = user;
    RegionFile *region = scan->region;
    int slot = region_slot_of(record->cx, record->cz);
    if (region->entries[slot].offset == record->offset) return;   /* the live record itself */
    if (record->has_generation) {
        if (record->generation > scan->max_generation) scan->max_generation = record->generation;
        if (record->generation <= region->generation) return;       /* an older version: dead space */
        RegionRecordInfo *best = &scan->newest[slot];
        if (!scan->found[slot] || record->generation > best->generation ||
            (record->generation == best->generation && record->offset > best->offset)) {
            scan->found[slot] = true;
            *best = *record;
        }
        return;
    }
    /* A version 1 record not named by the live copy: older or newer, nothing says. Keep it untouched. */
    RegionEntry e = {record->offset, record->size, record->crc};
    if (scan->rc == ST_OK)
        scan->rc = region_extent_push(&region->held, &region->held_count, &region->held_capacity, region_entry_extent(&e),
                                      region->path);
    if (region->slot_status[slot] == REGION_SLOT_NORMAL) region->slot_status[slot] = REGION_SLOT_UNCERTAIN;
}

/* A directory copy is invalid: a torn write and a damaged newest copy look alike, so the data pages decide.
 * Records are durable before any directory names them; one newer than the live copy is its chunk's newest
 * version and is rolled forward (unless it overlaps a live record: then it is held and reported). */
StResult region_roll_forward(RegionFile *region)
{
    RollScan *scan = calloc(1, sizeof *scan);
    if (!scan) return st_fail(ST_ERR_NOMEM, "%s: out of memory for a record scan", region->path);
    scan->region = region;
    StResult rc = region_scan_fd(region->fd, region->path, region->file_size, region->region_x, region->region_z,
                                 region_roll_scan_record, scan);
    if (rc == ST_OK) rc = scan->rc;
    for (int slot = 0; rc == ST_OK && slot < REGION_SLOTS; slot++) {
        if (!scan->found[slot]) continue;
        const RegionRecordInfo *rec = &scan->newest[slot];
        RegionEntry candidate = {rec->offset, rec->size, rec->crc};
        RegionExtent x = region_entry_extent(&candidate);
        bool clash = false;
        for (int other = 0; other < REGION_SLOTS && !clash; other++) {
            RegionExtent y;
            if (other == slot || !region_entry_pages(region, &region->entries[other], &y)) continue;
            clash = region_extents_overlap(x, y);
        }
        int cx = rec->cx, cz = rec->cz;
        if (clash) {
            rc = region_extent_push(&region->held, &region->held_count, &region->held_capacity, x, region->path);
            region->slot_status[slot] = REGION_SLOT_UNCERTAIN;
            log_error("store", "%s: chunk %d,%d: a newer record (generation %llu) overlaps a live record; kept untouched, "
                      "the directory's version is used", region->path, cx, cz, (unsigned long long)rec->generation);
            continue;
        }
        /* The replaced version stays reserved until a newer directory commits. */
        RegionExtent old;
        if (region_entry_pages(region, &region->entries[slot], &old))
            rc = region_extent_push(&region->reserved, &region->reserved_count, &region->reserved_capacity, old,
                                    region->path);
        region->entries[slot] = candidate;
        region->slot_status[slot] = REGION_SLOT_ROLLED_FORWARD;
        region->slot_generation[slot] = rec->generation;
        log_warn("store", "%s: chunk %d,%d: rolled forward to its record of generation %llu (the newest valid directory "
                 "is generation %llu; a newer copy was torn or damaged)", region->path, cx, cz,
                 (unsigned long long)rec->generation, (unsigned long long)region->generation);
    }
    if (scan->max_generation > region->last_generation) region->last_generation = scan->max_generation;
    free(scan);
    return rc;
}
