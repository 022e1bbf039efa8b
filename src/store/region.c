/* region.c — the region file format: a double-buffered directory and copy-on-write chunk records.
 *
 * Design (see region.h for the layout): durability comes from ordering, not from a journal. A chunk write
 * (1) picks pages that no record of the live directory touches, (2) writes the record there and fdatasyncs,
 * (3) writes the complete new directory into the directory copy that is NOT live, with a higher generation
 * and its own CRC32, and fdatasyncs. Until (3) is durable the live copy still names the old record, which was
 * never touched; a torn (3) fails its CRC and the reader falls back to the old copy. Records are aligned to
 * whole pages so a torn page write can only hit free space. Free space is derived from the live directory
 * (first fit over the gaps between live records), so an older copy's records are reused only after the
 * newer directory is durable. A directory write that fails may still reach the disk (an fdatasync error
 * says nothing about what was written), so the pages that attempt named stay reserved until a later commit
 * succeeds, and generations count past every attempt: a stale copy never outranks a good one. Every record
 * is checked against its directory entry (bounds, magic, chunk coordinates, length, codec, CRC32) before its
 * payload is handed out; a failure is reported with the file, chunk and offset, and the file is never
 * modified because of it (compaction refuses such files). Reads go through fileio_pread_all; region_scan.c (the
 * page scan and roll-forward) sits below this file. */
#include "strata/region.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strata/fileio.h"
#include "strata/log.h"
#include "region_format.h"

static void region_check_entries(RegionFile *region);



/* ---- little-endian helpers (region_format.h) ---- */

#define put_u32 region_put_u32
#define get_u32 region_get_u32
#define put_u64 region_put_u64
#define get_u64 region_get_u64
#define round_to_page region_round_to_page

/* ---- names ---- */

StResult region_file_path(char *out, size_t size, const char *regions_dir, int rx, int rz)
{
    int n = snprintf(out, size, "%s/Region %d,%d.dat", regions_dir, rx, rz);
    if (n < 0 || (size_t)n >= size) return st_fail(ST_ERR_ARG, "region path for %d,%d in %s is too long", rx, rz, regions_dir);
    return ST_OK;
}

bool region_parse_file_name(const char *name, int *rx, int *rz)
{
    int x, z, consumed = 0;
    if (sscanf(name, "Region %d,%d.dat%n", &x, &z, &consumed) != 2 || consumed == 0 || name[consumed] != 0) return false;
    char canonical[64];
    snprintf(canonical, sizeof canonical, "Region %d,%d.dat", x, z);
    if (strcmp(canonical, name) != 0) return false;   /* "Region +1,01.dat" is not ours */
    /* Its chunk coordinates (x * 16 + 0..15) must fit in an int, as every chunk coordinate does. */
    if (x < INT_MIN / REGION_CHUNKS || x > INT_MAX / REGION_CHUNKS || z < INT_MIN / REGION_CHUNKS ||
        z > INT_MAX / REGION_CHUNKS)
        return false;
    *rx = x;
    *rz = z;
    return true;
}

/* ---- raw file I/O ---- */

static StResult region_pwrite_all(int fd, const char *path, const uint8_t *data, size_t size, uint64_t offset)
{
    while (size > 0) {
        ssize_t n = pwrite(fd, data, size, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            return st_fail(ST_ERR_IO, "%s: write of %zu bytes at offset %llu: %s", path, size,
                           (unsigned long long)offset, strerror(errno));
        }
        data += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return ST_OK;
}

static StResult region_sync(int fd, const char *path)
{
    if (fdatasync(fd) != 0) return st_fail(ST_ERR_IO, "%s: fdatasync: %s", path, strerror(errno));
    return ST_OK;
}

/* fsync of the folder holding `path` (after a rename in it). */
static StResult region_sync_parent(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) slash[1] = 0;
    else *slash = 0;
    return fileio_sync_dir(dir);
}

static StResult region_reserve_buffer(RegionFile *region, size_t size)
{
    if (size <= region->buffer_capacity) return ST_OK;
    size_t capacity = region->buffer_capacity ? region->buffer_capacity : 16384;
    while (capacity < size) capacity *= 2;
    uint8_t *buffer = realloc(region->buffer, capacity);
    if (!buffer) return st_fail(ST_ERR_NOMEM, "%s: out of memory for a %zu-byte record", region->path, size);
    region->buffer = buffer;
    region->buffer_capacity = capacity;
    return ST_OK;
}

/* ---- directory copies ---- */

static void region_encode_directory(uint8_t page[REGION_PAGE], int rx, int rz, uint64_t generation,
                                    const RegionEntry entries[REGION_SLOTS])
{
    memset(page, 0, REGION_PAGE);
    memcpy(page, "SRG1", 4);
    put_u32(page + 4, REGION_FORMAT_VERSION);
    put_u32(page + 8, (uint32_t)rx);
    put_u32(page + 12, (uint32_t)rz);
    put_u64(page + 16, generation);
    for (int i = 0; i < REGION_SLOTS; i++) {
        uint8_t *e = page + 24 + i * 12;
        put_u32(e, entries[i].offset);
        put_u32(e + 4, entries[i].size);
        put_u32(e + 8, entries[i].crc);
    }
    put_u32(page + REGION_DIRECTORY_BYTES, region_crc32(page, REGION_DIRECTORY_BYTES));
}

/* Validates one directory copy; on failure writes the reason into `why`. */
static bool region_decode_directory(const uint8_t *page, int rx, int rz, uint64_t *generation,
                                    RegionEntry entries[REGION_SLOTS], char *why, size_t why_size)
{
    if (memcmp(page, "SRG1", 4) != 0) {
        snprintf(why, why_size, "no SRG1 magic");
        return false;
    }
    if (get_u32(page + REGION_DIRECTORY_BYTES) != region_crc32(page, REGION_DIRECTORY_BYTES)) {
        snprintf(why, why_size, "directory CRC mismatch");
        return false;
    }
    uint32_t version = get_u32(page + 4);
    if (version != 1 && version != REGION_FORMAT_VERSION) {
        snprintf(why, why_size, "format version %u (this build reads 1..%d)", version, REGION_FORMAT_VERSION);
        return false;
    }
    int file_rx = (int)get_u32(page + 8), file_rz = (int)get_u32(page + 12);
    if (file_rx != rx || file_rz != rz) {
        snprintf(why, why_size, "holds region %d,%d, expected %d,%d", file_rx, file_rz, rx, rz);
        return false;
    }
    *generation = get_u64(page + 16);
    if (*generation > REGION_MAX_GENERATION) {
        snprintf(why, why_size, "implausible generation %llu", (unsigned long long)*generation);
        return false;
    }
    for (int i = 0; i < REGION_SLOTS; i++) {
        const uint8_t *e = page + 24 + i * 12;
        entries[i].offset = get_u32(e);
        entries[i].size = get_u32(e + 4);
        entries[i].crc = get_u32(e + 8);
    }
    return true;
}

/* Creates an empty region file atomically: both copies valid and empty (generations 0 and 1). */
static StResult region_create_file(const char *path, int rx, int rz)
{
    static const RegionEntry empty[REGION_SLOTS];
    uint8_t *header = calloc(1, REGION_DATA_START);
    if (!header) return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    region_encode_directory(header, rx, rz, 0, empty);
    region_encode_directory(header + REGION_PAGE, rx, rz, 1, empty);
    StResult rc = fileio_write_atomic(path, header, REGION_DATA_START);
    free(header);
    return rc;
}

/* ---- open / close ---- */

StResult region_open(const char *path, int rx, int rz, RegionOpenMode mode, RegionFile **out)
{
    *out = NULL;
    if (strlen(path) >= PATH_MAX - 8) return st_fail(ST_ERR_ARG, "region path too long: %s", path);
    int flags = (mode == REGION_OPEN_READ ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOFOLLOW;   /* no symlinks */
    int fd = open(path, flags);
    if (fd < 0 && errno == ENOENT && mode == REGION_OPEN_CREATE) {
        StResult rc = region_create_file(path, rx, rz);
        if (rc != ST_OK) return rc;
        fd = open(path, flags);
    }
    if (fd < 0) {
        if (errno == ENOENT) return st_fail(ST_ERR_NOT_FOUND, "%s: no such region file", path);
        return st_fail(ST_ERR_IO, "%s: open: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        StResult rc = st_fail(ST_ERR_IO, "%s: fstat: %s", path, strerror(errno));
        close(fd);
        return rc;
    }

    RegionFile *region = calloc(1, sizeof *region);
    uint8_t *header = malloc(REGION_DATA_START);
    if (!region || !header) {
        free(region);
        free(header);
        close(fd);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    }
    snprintf(region->path, sizeof region->path, "%s", path);
    region->fd = fd;
    region->region_x = rx;
    region->region_z = rz;
    region->mode = mode;
    region->file_size = (uint64_t)st.st_size;
    region->compact_min_bytes = REGION_COMPACT_MIN_BYTES;

    size_t got = 0;
    StResult rc = fileio_pread_all(fd, path, header, REGION_DATA_START, 0, &got);
    if (rc != ST_OK) goto fail;
    memset(header + got, 0, REGION_DATA_START - got);

    RegionEntry copies[2][REGION_SLOTS];
    uint64_t generations[2] = {0, 0};
    char why[2][128];
    for (int c = 0; c < 2; c++)
        region->copy_valid[c] = region_decode_directory(header + c * REGION_PAGE, rx, rz, &generations[c], copies[c],
                                                        why[c], sizeof why[c]);
    if (!region->copy_valid[0] && !region->copy_valid[1]) {
        rc = st_fail(ST_ERR_FORMAT, "%s: no valid directory (copy 0: %s; copy 1: %s; file is %llu bytes)", path, why[0],
                     why[1], (unsigned long long)region->file_size);
        goto fail;
    }
    int live = !region->copy_valid[0] ? 1 : !region->copy_valid[1] ? 0 : (generations[1] > generations[0] ? 1 : 0);
    region->live_copy = live;
    region->generation = generations[live];
    region->last_generation = region->generation;
    memcpy(region->entries, copies[live], sizeof region->entries);
    if (!region->copy_valid[1 - live])
        log_info("store", "%s: directory copy %d is invalid (%s); using copy %d and checking the data pages for newer "
                 "records", path, 1 - live, why[1 - live], live);
    region_check_entries(region);
    /* Pages named by either readable copy stay reserved until a newer directory commits. */
    for (int c = 0; c < 2; c++) {
        if (!region->copy_valid[c]) continue;
        for (int slot = 0; slot < REGION_SLOTS && rc == ST_OK; slot++) {
            RegionExtent x;
            if (c != live && region_entry_pages(region, &copies[c][slot], &x))
                rc = region_extent_push(&region->reserved, &region->reserved_count, &region->reserved_capacity, x, path);
        }
    }
    if (rc == ST_OK && !region->copy_valid[1 - live]) rc = region_roll_forward(region);
    if (rc != ST_OK) goto fail;
    RegionInfo info;
    region_get_info(region, &info);
    if (info.rolled_forward > 0 && mode != REGION_OPEN_READ) {
        RegionEntry repaired[REGION_SLOTS];
        memcpy(repaired, region->entries, sizeof repaired);
        if (region_commit_directory(region, repaired) != ST_OK)
            log_warn("store", "%s: the repaired directory could not be written yet: %s", path, st_error_message());
    }
    free(header);
    *out = region;
    return ST_OK;

fail:
    free(header);
    free(region->reserved);
    free(region->held);
    free(region);
    close(fd);
    return rc;
}

void region_close(RegionFile *region)
{
    if (!region) return;
    if (region->fd >= 0) close(region->fd);
    free(region->buffer);
    free(region->reserved);
    free(region->held);
    free(region);
}

const char *region_path(const RegionFile *region) { return region->path; }

static bool region_owns_chunk(const RegionFile *region, int cx, int cz)
{
    return region_coord_of(cx) == region->region_x && region_coord_of(cz) == region->region_z;
}

bool region_has_chunk(const RegionFile *region, int cx, int cz)
{
    return region_owns_chunk(region, cx, cz) && region->entries[region_slot_of(cx, cz)].offset != 0;
}

RegionEntry region_get_entry(const RegionFile *region, int slot)
{
    RegionEntry none = {0, 0, 0};
    return slot >= 0 && slot < REGION_SLOTS ? region->entries[slot] : none;
}

void region_get_info(const RegionFile *region, RegionInfo *info)
{
    memset(info, 0, sizeof *info);
    info->region_x = region->region_x;
    info->region_z = region->region_z;
    info->generation = region->generation;
    info->live_copy = region->live_copy;
    info->copy_valid[0] = region->copy_valid[0];
    info->copy_valid[1] = region->copy_valid[1];
    info->file_size = region->file_size;
    info->used_bytes = REGION_DATA_START;
    info->compactions = region->compactions;
    for (int i = 0; i < REGION_SLOTS; i++) {
        info->rolled_forward += region->slot_status[i] == REGION_SLOT_ROLLED_FORWARD;
        info->bad_entries += region->slot_status[i] == REGION_SLOT_BAD_ENTRY;
        info->uncertain += region->slot_status[i] == REGION_SLOT_UNCERTAIN;
        if (!region->entries[i].offset) continue;
        info->chunk_count++;
        if (region->slot_status[i] == REGION_SLOT_BAD_ENTRY) continue;
        info->record_bytes += region->entries[i].size;
        info->used_bytes += round_to_page(region->entries[i].size);
    }
}

RegionSlotStatus region_get_slot_status(const RegionFile *region, int slot, uint64_t *generation)
{
    if (slot < 0 || slot >= REGION_SLOTS) return REGION_SLOT_NORMAL;
    if (generation) *generation = region->slot_generation[slot];
    return (RegionSlotStatus)region->slot_status[slot];
}

void region_set_compact_min_bytes(RegionFile *region, uint64_t bytes) { region->compact_min_bytes = bytes; }

void region_test_fail_directory_commits(RegionFile *region, int count, bool bytes_reach_disk)
{
    region->test_commit_failures = count > 0 ? count : 0;
    region->test_failure_writes = bytes_reach_disk;
}

/* ---- reading ---- */

static StResult region_damaged(RegionFile *region, int cx, int cz, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static StResult region_damaged(RegionFile *region, int cx, int cz, uint32_t offset, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    region->damage_seen = true;
    return st_fail(ST_ERR_FORMAT, "%s: chunk %d,%d at offset %u: %s", region->path, cx, cz, offset, what);
}

/* Reads and checks the record an entry names (bounds, magic, coordinates, length, codec, CRC32). */
StResult region_check_record(RegionFile *region, int cx, int cz, RegionEntry entry, const uint8_t **payload,
                                    size_t *size)
{
    if (entry.offset < REGION_DATA_START)
        return region_damaged(region, cx, cz, entry.offset, "directory points into the header");
    if (entry.size < REGION_RECORD_HEADER_V1 || entry.size > REGION_MAX_RECORD)
        return region_damaged(region, cx, cz, entry.offset, "directory gives a record size of %u bytes (expected %d..%u)",
                              entry.size, REGION_RECORD_HEADER_V1, REGION_MAX_RECORD);
    if ((uint64_t)entry.offset + entry.size > region->file_size)
        return region_damaged(region, cx, cz, entry.offset, "%u-byte record extends past the end of the file (%llu bytes)",
                              entry.size, (unsigned long long)region->file_size);
    StResult rc = region_reserve_buffer(region, entry.size);
    if (rc != ST_OK) return rc;
    size_t got = 0;
    rc = fileio_pread_all(region->fd, region->path, region->buffer, entry.size, entry.offset, &got);
    if (rc != ST_OK) return rc;
    if (got != entry.size)
        return region_damaged(region, cx, cz, entry.offset, "record truncated (%zu of %u bytes)", got, entry.size);

    const uint8_t *h = region->buffer;
    RegionRecordHeader head;
    if (!region_record_parse(h, got, &head)) return region_damaged(region, cx, cz, entry.offset, "no record magic");
    if (head.cx != cx || head.cz != cz)
        return region_damaged(region, cx, cz, entry.offset, "record holds chunk %d,%d", head.cx, head.cz);
    if (head.length != entry.size - head.header_size)
        return region_damaged(region, cx, cz, entry.offset, "record length %u disagrees with the directory (%u)",
                              head.length, entry.size - head.header_size);
    if (head.codec != REGION_CODEC_RLE_DEFLATE)
        return region_damaged(region, cx, cz, entry.offset, "unknown codec %u", head.codec);
    if (head.crc != entry.crc)
        return region_damaged(region, cx, cz, entry.offset, "record CRC %08x disagrees with the directory (%08x)",
                              head.crc, entry.crc);
    if (region_crc32(h + head.header_size, head.length) != head.crc)
        return region_damaged(region, cx, cz, entry.offset, "CRC mismatch");
    *payload = h + head.header_size;
    *size = head.length;
    return ST_OK;
}

/* Every live entry must lie in the data pages with a sane size; overlapping entries are settled by reading
 * their records (only one can hold its own chunk with a matching CRC). Failures become BAD_ENTRY slots. */
static void region_check_entries(RegionFile *region)
{
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        const RegionEntry *e = &region->entries[slot];
        if (!e->offset) continue;
        if (e->offset < REGION_DATA_START || e->size < REGION_RECORD_HEADER_V1 || e->size > REGION_MAX_RECORD ||
            (uint64_t)e->offset + e->size > region->file_size)
            region->slot_status[slot] = REGION_SLOT_BAD_ENTRY;
    }
    for (int a = 0; a < REGION_SLOTS; a++) {
        if (!region->entries[a].offset || region->slot_status[a] == REGION_SLOT_BAD_ENTRY) continue;
        RegionExtent xa = region_entry_extent(&region->entries[a]);
        for (int b = a + 1; b < REGION_SLOTS; b++) {
            if (!region->entries[b].offset || region->slot_status[b] == REGION_SLOT_BAD_ENTRY) continue;
            if (!region_extents_overlap(xa, region_entry_extent(&region->entries[b]))) continue;
            int pair[2] = {a, b};
            for (int k = 0; k < 2; k++) {
                int slot = pair[k];
                int cx = region->region_x * REGION_CHUNKS + (slot & 15), cz = region->region_z * REGION_CHUNKS + (slot >> 4);
                const uint8_t *payload;
                size_t size;
                if (region_check_record(region, cx, cz, region->entries[slot], &payload, &size) == ST_ERR_FORMAT)
                    region->slot_status[slot] = REGION_SLOT_BAD_ENTRY;
            }
        }
    }
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        if (region->slot_status[slot] != REGION_SLOT_BAD_ENTRY) continue;
        region->damage_seen = true;
        log_error("store", "%s: chunk %d,%d: directory entry (offset %u, %u bytes) is out of range or overlaps another "
                  "record; the chunk is damaged", region->path, region->region_x * REGION_CHUNKS + (slot & 15),
                  region->region_z * REGION_CHUNKS + (slot >> 4), region->entries[slot].offset, region->entries[slot].size);
    }
}

StResult region_read_chunk(RegionFile *region, int cx, int cz, const uint8_t **payload, size_t *size)
{
    if (!region_owns_chunk(region, cx, cz))
        return st_fail(ST_ERR_ARG, "%s: chunk %d,%d is not in region %d,%d", region->path, cx, cz, region->region_x,
                       region->region_z);
    if (region->fd < 0) return st_fail(ST_ERR_STATE, "%s: file is closed after a failed compaction", region->path);
    int slot = region_slot_of(cx, cz);
    RegionEntry entry = region->entries[slot];
    if (entry.offset == 0) return st_fail(ST_ERR_NOT_FOUND, "%s: chunk %d,%d is not stored", region->path, cx, cz);
    StResult rc = region_check_record(region, cx, cz, entry, payload, size);
    if (rc == ST_OK && region->slot_status[slot] == REGION_SLOT_BAD_ENTRY)   /* overlapping, settled otherwise */
        return region_damaged(region, cx, cz, entry.offset, "directory entry overlaps another record");
    return rc;
}

/* ---- writing ---- */

static int region_extent_compare(const void *a, const void *b)
{
    const RegionExtent *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* First fit over the gaps between the pages of live records (every live record, the chunk's own included,
 * so its current copy is never overwritten) and the pages reserved by failed directory writes (a copy that
 * may have reached the disk with a higher generation than the live one, so it may be the one read at the
 * next open). */
static StResult region_allocate(const RegionFile *region, uint64_t bytes, uint64_t *offset)
{
    RegionExtent local[REGION_SLOTS];
    RegionExtent *extents = local;
    if (region->reserved_count + region->held_count > 0) {
        extents = malloc(sizeof *extents * (size_t)(REGION_SLOTS + region->reserved_count + region->held_count));
        if (!extents) return st_fail(ST_ERR_NOMEM, "%s: out of memory for the free-space map", region->path);
    }
    int n = 0;
    for (int i = 0; i < REGION_SLOTS; i++)
        if (region_entry_pages(region, &region->entries[i], &extents[n])) n++;
    for (int i = 0; i < region->reserved_count; i++) extents[n++] = region->reserved[i];
    for (int i = 0; i < region->held_count; i++) extents[n++] = region->held[i];
    qsort(extents, (size_t)n, sizeof extents[0], region_extent_compare);
    uint64_t cursor = REGION_DATA_START;
    for (int i = 0; i < n; i++) {
        if (extents[i].start >= cursor + bytes) break;
        if (extents[i].end > cursor) cursor = extents[i].end;
    }
    if (extents != local) free(extents);
    *offset = cursor;
    return ST_OK;
}

/* Entries of an attempted directory that the live directory does not hold (the pages it would newly name). */
static bool region_entry_is_new(const RegionFile *region, const RegionEntry entries[REGION_SLOTS], int slot)
{
    const RegionEntry *e = &entries[slot], *live = &region->entries[slot];
    return e->offset != 0 && (e->offset != live->offset || e->size != live->size);
}

/* Writes the new directory into the copy that is not live, syncs, and makes it live. Its generation passes
 * every earlier attempt's. When the write or sync fails the copy may still reach the disk and win at the
 * next open, so the pages it newly names stay reserved (region_allocate skips them) until a commit
 * succeeds; that commit rewrites the same copy, so every failed attempt is then gone. */
StResult region_commit_directory(RegionFile *region, const RegionEntry entries[REGION_SLOTS])
{
    /* Room to remember this attempt's pages, claimed before anything is written. */
    int added = 0;
    for (int i = 0; i < REGION_SLOTS; i++) added += region_entry_is_new(region, entries, i);
    if (region->reserved_count + added > region->reserved_capacity) {
        int capacity = region->reserved_count + added + 16;
        RegionExtent *reserved = realloc(region->reserved, sizeof *reserved * (size_t)capacity);
        if (!reserved) return st_fail(ST_ERR_NOMEM, "%s: out of memory for the directory update", region->path);
        region->reserved = reserved;
        region->reserved_capacity = capacity;
    }

    uint8_t page[REGION_PAGE];
    int target = 1 - region->live_copy;
    if (region->last_generation >= REGION_MAX_GENERATION)
        return st_fail(ST_ERR_FORMAT, "%s: directory generation %llu is at its limit", region->path,
                       (unsigned long long)region->last_generation);
    uint64_t generation = region->last_generation + 1;
    region_encode_directory(page, region->region_x, region->region_z, generation, entries);
    StResult rc;
    if (region->test_commit_failures > 0) {
        region->test_commit_failures--;
        rc = region->test_failure_writes
                 ? region_pwrite_all(region->fd, region->path, page, REGION_PAGE, (uint64_t)target * REGION_PAGE)
                 : ST_OK;
        if (rc == ST_OK) rc = st_fail(ST_ERR_IO, "%s: fdatasync: injected failure (test)", region->path);
    } else {
        rc = region_pwrite_all(region->fd, region->path, page, REGION_PAGE, (uint64_t)target * REGION_PAGE);
        if (rc == ST_OK) rc = region_sync(region->fd, region->path);
    }
    if (rc != ST_OK) {
        region->copy_valid[target] = false;   /* unknown state on disk: it is rewritten before it is trusted */
        region->last_generation = generation;
        for (int i = 0; i < REGION_SLOTS; i++) {
            if (!region_entry_is_new(region, entries, i)) continue;
            RegionExtent x = region_entry_extent(&entries[i]);
            bool known = false;
            for (int j = 0; j < region->reserved_count && !known; j++)
                known = region->reserved[j].start == x.start && region->reserved[j].end == x.end;
            if (!known) region->reserved[region->reserved_count++] = x;
        }
        return rc;
    }
    for (int i = 0; i < REGION_SLOTS; i++)
        if (memcmp(&entries[i], &region->entries[i], sizeof entries[i]) != 0) region->slot_status[i] = REGION_SLOT_NORMAL;
    memcpy(region->entries, entries, sizeof region->entries);
    region->generation = region->last_generation = generation;
    region->live_copy = target;
    region->copy_valid[target] = true;
    region->reserved_count = 0;
    return ST_OK;
}

static void region_maybe_compact(RegionFile *region)
{
    RegionInfo info;
    region_get_info(region, &info);
    uint64_t dead = info.file_size > info.used_bytes ? info.file_size - info.used_bytes : 0;
    if (info.file_size < region->compact_min_bytes || dead * 2 <= info.file_size - REGION_DATA_START) return;
    if (region->damage_seen || region->held_count > 0) return;
    if (region_compact(region) != ST_OK)
        log_warn("store", "compaction skipped: %s", st_error_message());
}

StResult region_write_chunk(RegionFile *region, int cx, int cz, const uint8_t *payload, size_t size)
{
    if (region->mode == REGION_OPEN_READ) return st_fail(ST_ERR_STATE, "%s: opened read-only", region->path);
    if (region->fd < 0) return st_fail(ST_ERR_STATE, "%s: file is closed after a failed compaction", region->path);
    if (!region_owns_chunk(region, cx, cz))
        return st_fail(ST_ERR_ARG, "%s: chunk %d,%d is not in region %d,%d", region->path, cx, cz, region->region_x,
                       region->region_z);
    if (size > REGION_MAX_RECORD - REGION_RECORD_HEADER)
        return st_fail(ST_ERR_ARG, "%s: chunk %d,%d: %zu-byte payload exceeds the %u-byte record limit", region->path, cx,
                       cz, size, REGION_MAX_RECORD);
    size_t record_size = REGION_RECORD_HEADER + size;
    uint64_t offset = 0;
    StResult rc = region_allocate(region, round_to_page(record_size), &offset);
    if (rc != ST_OK) return rc;
    if (offset + record_size > REGION_MAX_FILE_SIZE)
        return st_fail(ST_ERR_IO, "%s: file would exceed %u MiB", region->path, REGION_MAX_FILE_SIZE >> 20);
    rc = region_reserve_buffer(region, record_size);
    if (rc != ST_OK) return rc;

    if (region->last_generation >= REGION_MAX_GENERATION)
        return st_fail(ST_ERR_FORMAT, "%s: directory generation %llu is at its limit", region->path,
                       (unsigned long long)region->last_generation);
    uint32_t crc = region_crc32(payload, size);
    uint8_t *h = region->buffer;
    memcpy(h, "CHK3", 4);
    put_u32(h + 4, (uint32_t)cx);
    put_u32(h + 8, (uint32_t)cz);
    put_u32(h + 12, (uint32_t)size);
    put_u32(h + 16, crc);
    put_u32(h + 20, REGION_CODEC_RLE_DEFLATE);
    put_u64(h + 24, region->last_generation + 1);   /* the commit that will name it */
    memcpy(h + REGION_RECORD_HEADER, payload, size);
    rc = region_pwrite_all(region->fd, region->path, h, record_size, offset);
    if (rc == ST_OK) rc = region_sync(region->fd, region->path);
    if (rc != ST_OK) return rc;
    if (offset + record_size > region->file_size) region->file_size = offset + record_size;

    RegionEntry entries[REGION_SLOTS];
    memcpy(entries, region->entries, sizeof entries);
    int slot = region_slot_of(cx, cz);
    entries[slot] = (RegionEntry){(uint32_t)offset, (uint32_t)record_size, crc};
    rc = region_commit_directory(region, entries);
    if (rc != ST_OK) return rc;
    /* The slot names the record just written, even when its entry equals the old one byte for byte (a bad
     * entry past the end of the file, whose pages were free): whatever the open-time checks said is stale. */
    region->slot_status[slot] = REGION_SLOT_NORMAL;
    region_maybe_compact(region);
    return ST_OK;
}

StResult region_delete_chunk(RegionFile *region, int cx, int cz)
{
    if (region->mode == REGION_OPEN_READ) return st_fail(ST_ERR_STATE, "%s: opened read-only", region->path);
    if (region->fd < 0) return st_fail(ST_ERR_STATE, "%s: file is closed after a failed compaction", region->path);
    if (!region_owns_chunk(region, cx, cz))
        return st_fail(ST_ERR_ARG, "%s: chunk %d,%d is not in region %d,%d", region->path, cx, cz, region->region_x,
                       region->region_z);
    int slot = region_slot_of(cx, cz);
    if (!region->entries[slot].offset) return ST_OK;
    RegionEntry entries[REGION_SLOTS];
    memcpy(entries, region->entries, sizeof entries);
    entries[slot] = (RegionEntry){0, 0, 0};
    return region_commit_directory(region, entries);
}

/* ---- compaction ---- */

StResult region_compact(RegionFile *region)
{
    if (region->mode == REGION_OPEN_READ) return st_fail(ST_ERR_STATE, "%s: opened read-only", region->path);
    if (region->fd < 0) return st_fail(ST_ERR_STATE, "%s: file is closed after a failed compaction", region->path);

    if (region->held_count > 0)
        return st_fail(ST_ERR_STATE, "%s: holds records of uncertain age; not compacted", region->path);
    /* Check every record first: a damaged file is left exactly as it is. */
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        if (!region->entries[slot].offset) continue;
        int cx = region->region_x * REGION_CHUNKS + (slot & 15), cz = region->region_z * REGION_CHUNKS + (slot >> 4);
        const uint8_t *payload;
        size_t size;
        StResult rc = region_read_chunk(region, cx, cz, &payload, &size);
        if (rc != ST_OK) return rc;
    }

    char tmp_path[PATH_MAX + 8];
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", region->path);
    int fd = -1;
    StResult created = fileio_create_exclusive(tmp_path, &fd);
    if (created != ST_OK) return created;

    RegionEntry entries[REGION_SLOTS];
    memset(entries, 0, sizeof entries);
    uint64_t cursor = REGION_DATA_START;
    StResult rc = ST_OK;
    for (int slot = 0; slot < REGION_SLOTS && rc == ST_OK; slot++) {
        RegionEntry e = region->entries[slot];
        if (!e.offset) continue;
        size_t got = 0;
        rc = region_reserve_buffer(region, e.size);
        if (rc == ST_OK) rc = fileio_pread_all(region->fd, region->path, region->buffer, e.size, e.offset, &got);
        if (rc == ST_OK && got != e.size) rc = st_fail(ST_ERR_IO, "%s: record at %u shrank during compaction", region->path, e.offset);
        if (rc == ST_OK) rc = region_pwrite_all(fd, tmp_path, region->buffer, e.size, cursor);
        entries[slot] = (RegionEntry){(uint32_t)cursor, e.size, e.crc};
        cursor = round_to_page(cursor + e.size);
    }
    uint8_t header[REGION_DATA_START];
    uint64_t base = region->last_generation;
    region_encode_directory(header, region->region_x, region->region_z, base + 1, entries);
    region_encode_directory(header + REGION_PAGE, region->region_x, region->region_z, base + 2, entries);
    if (rc == ST_OK) rc = region_pwrite_all(fd, tmp_path, header, sizeof header, 0);
    if (rc == ST_OK && fsync(fd) != 0) rc = st_fail(ST_ERR_IO, "%s: fsync: %s", tmp_path, strerror(errno));
    if (close(fd) != 0 && rc == ST_OK) rc = st_fail(ST_ERR_IO, "%s: close: %s", tmp_path, strerror(errno));
    if (rc == ST_OK && rename(tmp_path, region->path) != 0)
        rc = st_fail(ST_ERR_IO, "rename %s -> %s: %s", tmp_path, region->path, strerror(errno));
    if (rc != ST_OK) {
        unlink(tmp_path);
        return rc;
    }
    /* The rename is done: the new file is the region now, whatever happens next (no failed copy in it). */
    region->reserved_count = 0;
    region->generation = region->last_generation = base + 2;
    close(region->fd);
    region->fd = open(region->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    StResult sync_rc = region_sync_parent(region->path);
    if (region->fd < 0) return st_fail(ST_ERR_IO, "%s: reopen after compaction: %s", region->path, strerror(errno));
    memcpy(region->entries, entries, sizeof entries);
    region->live_copy = 1;
    region->copy_valid[0] = region->copy_valid[1] = true;
    uint64_t before = region->file_size;
    region->file_size = cursor > REGION_DATA_START ? cursor : REGION_DATA_START;
    {
        /* The last record's slack is not written: the file ends at the last record's end. */
        struct stat st;
        if (fstat(region->fd, &st) == 0) region->file_size = (uint64_t)st.st_size;
    }
    region->compactions++;
    log_info("store", "%s: compacted %llu -> %llu bytes", region->path, (unsigned long long)before,
             (unsigned long long)region->file_size);
    return sync_rc;
}
