/* test_region.c — region files: all 256 slots written and read back (across reopen), copy-on-write
 * placement (no overlaps, page aligned, the old record untouched), damaged records reported with file,
 * chunk and offset while the file stays byte-identical, torn directory copies, compaction, limits, and
 * failed directory commits (the failed copy's pages stay reserved, a later commit outranks it), and a save
 * whose entry equals a bad entry's byte for byte (it reads back at once). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "test_util.h"
#include "region_test_util.h"
#include "strata/region_cache.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/region.h"

/* Live records never overlap, start on pages, and lie after the header. */
static bool layout_ok(RegionFile *r)
{
    for (int i = 0; i < REGION_SLOTS; i++) {
        RegionEntry a = region_get_entry(r, i);
        if (!a.offset) continue;
        if (a.offset % REGION_PAGE || a.offset < REGION_DATA_START) return false;
        for (int j = i + 1; j < REGION_SLOTS; j++) {
            RegionEntry b = region_get_entry(r, j);
            if (!b.offset) continue;
            uint64_t a_end = ((uint64_t)a.offset + a.size + REGION_PAGE - 1) / REGION_PAGE * REGION_PAGE;
            uint64_t b_end = ((uint64_t)b.offset + b.size + REGION_PAGE - 1) / REGION_PAGE * REGION_PAGE;
            if (a.offset < b_end && b.offset < a_end) return false;
        }
    }
    return true;
}

static int versions[REGION_SLOTS];
static size_t sizes[REGION_SLOTS];

static void test_names(void)
{
    int x, z;
    CHECK(region_parse_file_name("Region 0,-1.dat", &x, &z) && x == 0 && z == -1);
    CHECK(region_parse_file_name("Region -12,345.dat", &x, &z) && x == -12 && z == 345);
    CHECK(!region_parse_file_name("Region 0,-1.dat.tmp", &x, &z));
    CHECK(!region_parse_file_name("Region 0,-1.dat.damaged", &x, &z));
    CHECK(!region_parse_file_name("Region +1,01.dat", &x, &z));
    CHECK(!region_parse_file_name("Region 1 ,2.dat", &x, &z));
    CHECK(!region_parse_file_name("world.json", &x, &z));
    /* Regions whose chunk coordinates (region * 16 + 0..15) do not fit in an int are no region of ours. */
    CHECK(region_parse_file_name("Region 134217727,-134217728.dat", &x, &z) && x == 134217727 && z == -134217728);
    CHECK(!region_parse_file_name("Region 134217728,0.dat", &x, &z));
    CHECK(!region_parse_file_name("Region 0,-134217729.dat", &x, &z));
    char path[64];
    CHECK_EQ_INT(region_file_path(path, sizeof path, "W/Regions", -3, 7), ST_OK);
    CHECK(strcmp(path, "W/Regions/Region -3,7.dat") == 0);
    CHECK_EQ_INT(region_file_path(path, 10, "W/Regions", -3, 7), ST_ERR_ARG);
    CHECK_EQ_INT(region_coord_of(-1), -1);
    CHECK_EQ_INT(region_coord_of(-16), -1);
    CHECK_EQ_INT(region_coord_of(-17), -2);
    CHECK_EQ_INT(region_slot_of(-1, -16), 15);
    CHECK_EQ_INT(region_slot_of(17, 2), 1 + 32);
}

static void test_all_slots(void)
{
    char dir[300], path[400];
    make_dir("all", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, -1, 2);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, -1, 2, REGION_OPEN_WRITE, &r), ST_ERR_NOT_FOUND);
    CHECK_EQ_INT(region_open(path, -1, 2, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    RegionInfo info;
    region_get_info(r, &info);
    CHECK_EQ_INT(info.chunk_count, 0);
    CHECK(info.copy_valid[0] && info.copy_valid[1]);
    CHECK_EQ_INT(info.file_size, REGION_DATA_START);

    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        int cx = -16 + (slot & 15), cz = 32 + (slot >> 4);
        versions[slot] = 1;
        sizes[slot] = 1 + rng_next() % 9000;
        payload_make(buffer, cx, cz, 1, sizes[slot]);
        CHECK_EQ_INT(region_write_chunk(r, cx, cz, buffer, sizes[slot]), ST_OK);
    }
    int good = 0;
    for (int slot = 0; slot < REGION_SLOTS; slot++) good += payload_check(r, -16 + (slot & 15), 32 + (slot >> 4), 1, sizes[slot]);
    CHECK_EQ_INT(good, REGION_SLOTS);
    region_get_info(r, &info);
    CHECK_EQ_INT(info.chunk_count, REGION_SLOTS);
    CHECK(layout_ok(r));
    CHECK_EQ_INT(info.generation, 1 + REGION_SLOTS);
    region_close(r);

    /* Reopen: everything is there. Rewrite half the slots with other sizes, copy-on-write. */
    CHECK_EQ_INT(region_open(path, -1, 2, REGION_OPEN_WRITE, &r), ST_OK);
    if (!r) return;
    good = 0;
    for (int slot = 0; slot < REGION_SLOTS; slot++) good += payload_check(r, -16 + (slot & 15), 32 + (slot >> 4), 1, sizes[slot]);
    CHECK_EQ_INT(good, REGION_SLOTS);
    for (int slot = 0; slot < REGION_SLOTS; slot += 2) {
        int cx = -16 + (slot & 15), cz = 32 + (slot >> 4);
        RegionEntry before = region_get_entry(r, slot);
        versions[slot] = 2;
        sizes[slot] = 1 + rng_next() % 20000;
        payload_make(buffer, cx, cz, 2, sizes[slot]);
        CHECK_EQ_INT(region_write_chunk(r, cx, cz, buffer, sizes[slot]), ST_OK);
        CHECK(region_get_entry(r, slot).offset != before.offset);   /* never in place */
    }
    CHECK(layout_ok(r));
    region_close(r);
    CHECK_EQ_INT(region_open(path, -1, 2, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    good = 0;
    for (int slot = 0; slot < REGION_SLOTS; slot++)
        good += payload_check(r, -16 + (slot & 15), 32 + (slot >> 4), versions[slot], sizes[slot]);
    CHECK_EQ_INT(good, REGION_SLOTS);
    /* Read-only handles refuse writes; foreign chunks and empty payload limits. */
    CHECK_EQ_INT(region_write_chunk(r, -16, 32, buffer, 10), ST_ERR_STATE);
    const uint8_t *p;
    size_t n;
    CHECK_EQ_INT(region_read_chunk(r, 0, 32, &p, &n), ST_ERR_ARG);
    region_close(r);
}

static void test_not_found_and_limits(void)
{
    char dir[300], path[400];
    make_dir("limits", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, 0);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    const uint8_t *p;
    size_t n;
    CHECK_EQ_INT(region_read_chunk(r, 3, 4, &p, &n), ST_ERR_NOT_FOUND);
    CHECK(!region_has_chunk(r, 3, 4));
    CHECK_EQ_INT(region_write_chunk(r, 3, 4, buffer, REGION_MAX_RECORD - REGION_RECORD_HEADER + 1), ST_ERR_ARG);
    payload_make(buffer, 3, 4, 1, REGION_MAX_RECORD - REGION_RECORD_HEADER);
    CHECK_EQ_INT(region_write_chunk(r, 3, 4, buffer, REGION_MAX_RECORD - REGION_RECORD_HEADER), ST_OK);
    CHECK(payload_check(r, 3, 4, 1, REGION_MAX_RECORD - REGION_RECORD_HEADER));
    CHECK_EQ_INT(region_write_chunk(r, 5, 5, buffer, 0), ST_OK);   /* an empty payload is a record too */
    CHECK(payload_check(r, 5, 5, 0, 0));
    CHECK_EQ_INT(region_write_chunk(r, 16, 0, buffer, 10), ST_ERR_ARG);
    CHECK_EQ_INT(region_delete_chunk(r, 3, 4), ST_OK);
    CHECK_EQ_INT(region_read_chunk(r, 3, 4, &p, &n), ST_ERR_NOT_FOUND);
    region_close(r);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    CHECK(!region_has_chunk(r, 3, 4));
    CHECK(region_has_chunk(r, 5, 5));
    region_close(r);
    /* The file belongs to region 0,0: opening it as another region is a format error. */
    CHECK_EQ_INT(region_open(path, 1, 0, REGION_OPEN_READ, &r), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "holds region 0,0, expected 1,0");
    region_close(NULL);
}

/* A damaged record: reported with file, chunk and offset; the file is left byte for byte as it was. */
static void test_damaged_record(void)
{
    char dir[300], path[400];
    make_dir("damaged", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, -2);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, -2, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, 3, -17, 1, 5000);
    CHECK_EQ_INT(region_write_chunk(r, 3, -17, buffer, 5000), ST_OK);
    payload_make(buffer, 4, -17, 1, 3000);
    CHECK_EQ_INT(region_write_chunk(r, 4, -17, buffer, 3000), ST_OK);
    CHECK_EQ_INT(region_get_entry(r, region_slot_of(3, -17)).offset, REGION_DATA_START);
    region_close(r);

    test_flip_byte(path, REGION_DATA_START + REGION_RECORD_HEADER + 1234, 0x5A);
    size_t size_before, size_after;
    uint8_t *before = file_bytes(path, &size_before);

    CHECK_EQ_INT(region_open(path, 0, -2, REGION_OPEN_WRITE, &r), ST_OK);
    if (!r) return;
    const uint8_t *p;
    size_t n;
    CHECK_EQ_INT(region_read_chunk(r, 3, -17, &p, &n), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "Region 0,-2.dat: chunk 3,-17 at offset 8192: CRC mismatch");
    CHECK(payload_check(r, 4, -17, 1, 3000));   /* its neighbour is fine */
    CHECK_EQ_INT(region_compact(r), ST_ERR_FORMAT);   /* never rewrites a damaged file */
    region_close(r);
    uint8_t *after = file_bytes(path, &size_after);
    CHECK(before && after && size_before == size_after && memcmp(before, after, size_before) == 0);
    free(after);

    /* Header damage: magic, coordinates. */
    CHECK_EQ_INT(region_open(path, 0, -2, REGION_OPEN_WRITE, &r), ST_OK);
    RegionEntry second = region_get_entry(r, region_slot_of(4, -17));
    region_close(r);
    test_flip_byte(path, second.offset + 5, 0x5A);   /* chunk x field */
    CHECK_EQ_INT(region_open(path, 0, -2, REGION_OPEN_WRITE, &r), ST_OK);
    CHECK_EQ_INT(region_read_chunk(r, 4, -17, &p, &n), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "chunk 4,-17 at offset");
    CHECK_STR_CONTAINS(st_error_message(), "record holds chunk");

    /* The player edits the damaged chunk: the new copy goes elsewhere, the damaged bytes stay until then. */
    payload_make(buffer, 3, -17, 2, 6000);
    CHECK_EQ_INT(region_write_chunk(r, 3, -17, buffer, 6000), ST_OK);
    CHECK(region_get_entry(r, region_slot_of(3, -17)).offset != REGION_DATA_START);
    CHECK(payload_check(r, 3, -17, 2, 6000));
    region_close(r);
    free(before);
}

/* A torn directory write: the reader falls back to the other copy; both bad is a format error. */
static void test_torn_directory(void)
{
    char dir[300], path[400];
    make_dir("torn", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 7, 7);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, 112, 112, 1, 4000);
    CHECK_EQ_INT(region_write_chunk(r, 112, 112, buffer, 4000), ST_OK);
    payload_make(buffer, 112, 112, 2, 7000);
    CHECK_EQ_INT(region_write_chunk(r, 112, 112, buffer, 7000), ST_OK);
    RegionInfo info;
    region_get_info(r, &info);
    int live = info.live_copy;
    region_close(r);

    test_flip_byte(path, (long)live * REGION_PAGE + 100, 0x5A);   /* as if the last directory write was torn */
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    region_get_info(r, &info);
    CHECK_EQ_INT(info.live_copy, 1 - live);
    CHECK(!info.copy_valid[live]);
    /* The record of version 2 was durable before its directory: it is rolled forward, not lost. */
    CHECK_EQ_INT(info.rolled_forward, 1);
    CHECK_EQ_INT(region_get_slot_status(r, region_slot_of(112, 112), NULL), REGION_SLOT_ROLLED_FORWARD);
    CHECK(payload_check(r, 112, 112, 2, 7000));
    region_close(r);
    /* A writable open commits the repaired directory at once. */
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_WRITE, &r), ST_OK);
    log_set_level(LOG_INFO);
    if (!r) return;
    region_get_info(r, &info);
    CHECK(info.copy_valid[0] && info.copy_valid[1]);
    CHECK(payload_check(r, 112, 112, 2, 7000));
    /* The next write repairs the torn copy. */
    payload_make(buffer, 112, 112, 3, 100);
    CHECK_EQ_INT(region_write_chunk(r, 112, 112, buffer, 100), ST_OK);
    region_get_info(r, &info);
    CHECK(info.copy_valid[0] && info.copy_valid[1]);
    region_close(r);
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_READ, &r), ST_OK);
    if (r) CHECK(payload_check(r, 112, 112, 3, 100));
    region_close(r);

    size_t size_before, size_after;
    test_flip_byte(path, 100, 0x5A);
    test_flip_byte(path, REGION_PAGE + 100, 0x5A);
    uint8_t *before = file_bytes(path, &size_before);
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_WRITE, &r), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "no valid directory");
    uint8_t *after = file_bytes(path, &size_after);
    CHECK(before && after && size_before == size_after && memcmp(before, after, size_before) == 0);
    free(before);
    free(after);

    /* A file shorter than its header. */
    FILE *f = fopen(path, "wb");
    fputs("SRG1", f);
    fclose(f);
    CHECK_EQ_INT(region_open(path, 7, 7, REGION_OPEN_READ, &r), ST_ERR_FORMAT);
}

static void test_compaction(void)
{
    char dir[300], path[400];
    make_dir("compact", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, 0);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    region_set_compact_min_bytes(r, 64 * 1024);
    log_set_level(LOG_WARN);
    for (int slot = 0; slot < 32; slot++) versions[slot] = 0;
    /* Chunks grow, then shrink (a player flattening the land): the file's tail turns into dead pages. */
    for (int round = 1; round <= 30; round++) {
        for (int slot = 0; slot < 32; slot++) {
            versions[slot] = round;
            sizes[slot] = (size_t)(round <= 20 ? round * 600 + (int)(rng_next() % 2000) : 100 + (int)(rng_next() % 500));
            payload_make(buffer, slot & 15, slot >> 4, round, sizes[slot]);
            CHECK_EQ_INT(region_write_chunk(r, slot & 15, slot >> 4, buffer, sizes[slot]), ST_OK);
        }
    }
    RegionInfo info;
    region_get_info(r, &info);
    fprintf(stderr, "  after growth: file %llu bytes, used %llu, %ld compactions\n", (unsigned long long)info.file_size, (unsigned long long)info.used_bytes, info.compactions);
    CHECK(info.compactions > 0);
    CHECK(layout_ok(r));
    int good = 0;
    for (int slot = 0; slot < 32; slot++) good += payload_check(r, slot & 15, slot >> 4, versions[slot], sizes[slot]);
    CHECK_EQ_INT(good, 32);

    /* An explicit compaction leaves no dead pages but the last record's tail. */
    CHECK_EQ_INT(region_compact(r), ST_OK);
    region_get_info(r, &info);
    CHECK(info.file_size <= info.used_bytes && info.file_size + REGION_PAGE > info.used_bytes);
    region_close(r);
    log_set_level(LOG_INFO);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    good = 0;
    for (int slot = 0; slot < 32; slot++) good += payload_check(r, slot & 15, slot >> 4, versions[slot], sizes[slot]);
    CHECK_EQ_INT(good, 32);
    region_close(r);
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(!fileio_exists(tmp));
}

/* ---- failed directory commits (injected through region_test_fail_directory_commits) ---- */

/* The entry of `slot` in directory copy `copy` as it is on disk, and that copy's generation. */
static RegionEntry disk_entry(const char *path, int copy, int slot, uint64_t *generation)
{
    RegionEntry e = {0, 0, 0};
    size_t size = 0;
    uint8_t *data = file_bytes(path, &size);
    if (data && size >= REGION_DATA_START) {
        const uint8_t *page = data + (size_t)copy * REGION_PAGE;
        const uint8_t *p = page + 24 + slot * 12;
        e.offset = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        e.size = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        if (generation) {
            *generation = 0;
            for (int i = 7; i >= 0; i--) *generation = *generation << 8 | page[16 + i];
        }
    }
    free(data);
    return e;
}

static bool extents_overlap(RegionEntry a, RegionEntry b)
{
    uint64_t a_end = ((uint64_t)a.offset + a.size + REGION_PAGE - 1) & ~(uint64_t)(REGION_PAGE - 1);
    uint64_t b_end = ((uint64_t)b.offset + b.size + REGION_PAGE - 1) & ~(uint64_t)(REGION_PAGE - 1);
    return a.offset < b_end && b.offset < a_end;
}

/* Which of the versions first..last (sizes[v]) the chunk holds; 0 if it is absent, -1 if it is damaged. */
static int chunk_version(RegionFile *r, int cx, int cz, int first, int last, const size_t *version_sizes)
{
    const uint8_t *got;
    size_t got_size;
    StResult rc = region_read_chunk(r, cx, cz, &got, &got_size);
    if (rc == ST_ERR_NOT_FOUND) return 0;
    if (rc != ST_OK) {
        fprintf(stderr, "  read %d,%d: %s\n", cx, cz, st_error_message());
        return -1;
    }
    for (int v = first; v <= last; v++)
        if (payload_check(r, cx, cz, v, version_sizes[v])) return v;
    return -1;
}

static void test_failed_commit(void)
{
    static const size_t a_sizes[] = {0, 5000, 6000, 7000, 300};
    static const size_t b_sizes[] = {0, 3000, 9000};
    const int ax = 48, az = -32, bx = 49, bz = -32;   /* region 3,-2 */
    const int a_slot = region_slot_of(ax, az), b_slot = region_slot_of(bx, bz);
    char dir[300], path[400];
    make_dir("failed_commit", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 3, -2);
    RegionFile *r = NULL;
    log_set_level(LOG_ERROR);

    /* 1. A v1 saved; A v2's directory write fails after its page reached the disk; then B's record is
     *    written and the process dies before B's directory write. Every chunk must read back valid. */
    CHECK_EQ_INT(region_open(path, 3, -2, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, ax, az, 1, a_sizes[1]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[1]), ST_OK);
    RegionInfo info;
    region_get_info(r, &info);
    uint64_t g = info.generation;
    int live = info.live_copy;
    RegionEntry a1 = region_get_entry(r, a_slot);

    region_test_fail_directory_commits(r, 1, true);
    payload_make(buffer, ax, az, 2, a_sizes[2]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[2]), ST_ERR_IO);
    CHECK(payload_check(r, ax, az, 1, a_sizes[1]));   /* in memory the old version stays live */
    uint64_t stale_generation = 0;
    RegionEntry a2 = disk_entry(path, 1 - live, a_slot, &stale_generation);
    CHECK(a2.offset != 0 && !extents_overlap(a1, a2));
    CHECK(stale_generation > g);                      /* the failed copy could win at the next open */

    region_test_fail_directory_commits(r, 1, false);
    payload_make(buffer, bx, bz, 1, b_sizes[1]);
    CHECK_EQ_INT(region_write_chunk(r, bx, bz, buffer, b_sizes[1]), ST_ERR_IO);
    region_close(r);   /* the crash: nothing more is written */

    CHECK_EQ_INT(region_open(path, 3, -2, REGION_OPEN_WRITE, &r), ST_OK);
    if (!r) return;
    int a_version = chunk_version(r, ax, az, 1, 2, a_sizes);
    int b_version = chunk_version(r, bx, bz, 1, 1, b_sizes);
    CHECK(a_version == 1 || a_version == 2);
    CHECK(b_version == 0 || b_version == 1);
    /* The file keeps working: both chunks saved again, then read back across a reopen. */
    payload_make(buffer, bx, bz, 2, b_sizes[2]);
    CHECK_EQ_INT(region_write_chunk(r, bx, bz, buffer, b_sizes[2]), ST_OK);
    payload_make(buffer, ax, az, 3, a_sizes[3]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[3]), ST_OK);
    CHECK(layout_ok(r));
    region_close(r);
    CHECK_EQ_INT(region_open(path, 3, -2, REGION_OPEN_READ, &r), ST_OK);
    if (r) {
        CHECK(payload_check(r, ax, az, 3, a_sizes[3]));
        CHECK(payload_check(r, bx, bz, 2, b_sizes[2]));
    }
    region_close(r);
    remove(path);

    /* 2. After a failed commit, a successful save must not reuse the failed directory's pages, and its
     *    generation must pass the failed copy's, so the stale copy can never win over it. */
    CHECK_EQ_INT(region_open(path, 3, -2, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, ax, az, 1, a_sizes[1]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[1]), ST_OK);
    region_get_info(r, &info);
    g = info.generation;
    live = info.live_copy;
    a1 = region_get_entry(r, a_slot);
    /* Two failed saves in a row: the copy on disk may hold either attempt. */
    region_test_fail_directory_commits(r, 2, true);
    payload_make(buffer, ax, az, 2, a_sizes[2]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[2]), ST_ERR_IO);
    a2 = disk_entry(path, 1 - live, a_slot, NULL);
    payload_make(buffer, ax, az, 3, a_sizes[3]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[3]), ST_ERR_IO);
    RegionEntry a3 = disk_entry(path, 1 - live, a_slot, &stale_generation);
    CHECK(!extents_overlap(a1, a2) && !extents_overlap(a1, a3) && !extents_overlap(a2, a3));
    region_get_info(r, &info);
    CHECK(info.generation == g && !info.copy_valid[1 - live]);

    payload_make(buffer, bx, bz, 1, b_sizes[1]);
    CHECK_EQ_INT(region_write_chunk(r, bx, bz, buffer, b_sizes[1]), ST_OK);
    RegionEntry b1 = region_get_entry(r, b_slot);
    CHECK(!extents_overlap(b1, a1) && !extents_overlap(b1, a2) && !extents_overlap(b1, a3));
    region_get_info(r, &info);
    CHECK(info.generation > stale_generation);
    CHECK(info.copy_valid[0] && info.copy_valid[1]);
    uint64_t good_generation = info.generation;
    /* Once a commit succeeded the failed attempts' pages are free again: a small record reuses A v2's page. */
    payload_make(buffer, ax, az, 4, a_sizes[4]);
    CHECK_EQ_INT(region_write_chunk(r, ax, az, buffer, a_sizes[4]), ST_OK);
    RegionEntry a4 = region_get_entry(r, a_slot);
    CHECK_EQ_INT(a4.offset, a2.offset);
    CHECK(layout_ok(r));
    region_close(r);
    CHECK_EQ_INT(region_open(path, 3, -2, REGION_OPEN_READ, &r), ST_OK);
    if (r) {
        region_get_info(r, &info);
        CHECK(info.generation == good_generation + 1);
        CHECK(payload_check(r, ax, az, 4, a_sizes[4]));
        CHECK(payload_check(r, bx, bz, 1, b_sizes[1]));
    }
    region_close(r);
    log_set_level(LOG_INFO);
}

static void set_copy_generation(const char *path, int copy, uint64_t generation)
{
    size_t size;
    uint8_t *bytes = file_bytes(path, &size);
    if (!bytes) return;
    uint8_t *page = bytes + copy * REGION_PAGE;
    for (int i = 0; i < 8; i++) page[16 + i] = (uint8_t)(generation >> (8 * i));
    uint32_t crc = (uint32_t)crc32(0L, page, 24 + REGION_SLOTS * 12);
    for (int i = 0; i < 4; i++) page[24 + REGION_SLOTS * 12 + i] = (uint8_t)(crc >> (8 * i));
    FILE *f = fopen(path, "r+b");
    fwrite(bytes, 1, REGION_PAGE * 2, f);
    fclose(f);
    free(bytes);
}

static void write_bytes_at(const char *path, long offset, const void *data, size_t size)
{
    FILE *f = fopen(path, "r+b");
    fseek(f, offset, SEEK_SET);
    fwrite(data, 1, size, f);
    fclose(f);
}

/* Defect 1: the newest directory copy damaged (page zeroed, or one bit flipped in its entries). The chunk
 * written last must come back (rolled forward from its record), and the next save must not reuse its pages. */
static void test_damaged_newest_copy(void)
{
    for (int variant = 0; variant < 2; variant++) {
        char dir[300], path[400];
        make_dir(variant ? "newest_flip" : "newest_zero", dir, sizeof dir);
        region_file_path(path, sizeof path, dir, 0, 0);
        RegionFile *r = NULL;
        CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
        if (!r) return;
        payload_make(buffer, 1, 1, 1, 3000);
        CHECK_EQ_INT(region_write_chunk(r, 1, 1, buffer, 3000), ST_OK);
        payload_make(buffer, 2, 2, 1, 3000);
        CHECK_EQ_INT(region_write_chunk(r, 2, 2, buffer, 3000), ST_OK);
        payload_make(buffer, 1, 1, 2, 5000);
        CHECK_EQ_INT(region_write_chunk(r, 1, 1, buffer, 5000), ST_OK);
        RegionInfo info;
        region_get_info(r, &info);
        CHECK_EQ_INT(info.live_copy, 0);
        region_close(r);
        if (variant == 0) {
            static const uint8_t zero[REGION_PAGE];
            write_bytes_at(path, 0, zero, sizeof zero);
        } else {
            test_flip_byte(path, 24 + region_slot_of(1, 1) * 12 + 5, 0x5A);   /* one byte of chunk 1,1's entry */
        }
        log_set_level(LOG_SILENT);
        CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_WRITE, &r), ST_OK);
        log_set_level(LOG_INFO);
        if (!r) return;
        CHECK(payload_check(r, 1, 1, 2, 5000));   /* the last committed version, not version 1 */
        CHECK(payload_check(r, 2, 2, 1, 3000));
        /* New saves never land on the rolled-forward record. */
        for (int i = 0; i < 6; i++) {
            payload_make(buffer, 3 + i, 0, 1, 4000);
            CHECK_EQ_INT(region_write_chunk(r, 3 + i, 0, buffer, 4000), ST_OK);
        }
        CHECK(payload_check(r, 1, 1, 2, 5000));
        region_close(r);
        CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &r), ST_OK);
        if (!r) return;
        CHECK(payload_check(r, 1, 1, 2, 5000));
        CHECK(payload_check(r, 2, 2, 1, 3000));
        for (int i = 0; i < 6; i++) CHECK(payload_check(r, 3 + i, 0, 1, 4000));
        region_close(r);
    }
}

/* Defect 4: a CRC-valid live copy with generation 2^64-1 must not make the next commit wrap to 0. */
static void test_generation_wrap(void)
{
    char dir[300], path[400];
    make_dir("wrap", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, 0);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, 5, 5, 1, 2000);
    CHECK_EQ_INT(region_write_chunk(r, 5, 5, buffer, 2000), ST_OK);
    RegionInfo info;
    region_get_info(r, &info);
    int live = info.live_copy;
    region_close(r);
    set_copy_generation(path, live, UINT64_MAX);
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_WRITE, &r), ST_OK);
    log_set_level(LOG_INFO);
    if (!r) return;
    region_get_info(r, &info);
    CHECK(info.generation < 1000);
    payload_make(buffer, 5, 5, 2, 2500);
    CHECK_EQ_INT(region_write_chunk(r, 5, 5, buffer, 2500), ST_OK);
    region_close(r);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    CHECK(payload_check(r, 5, 5, 2, 2500));
    region_get_info(r, &info);
    CHECK(info.generation < 1000);
    region_close(r);
}

/* Defect 5: one CRC-valid entry with an absurd size or an offset past the file: that chunk is reported
 * damaged, every other chunk reads, and saves to the region keep working. */
static void test_bad_entries(void)
{
    for (int variant = 0; variant < 3; variant++) {
        char dir[300], path[400], name[32];
        snprintf(name, sizeof name, "bad_entry%d", variant);
        make_dir(name, dir, sizeof dir);
        region_file_path(path, sizeof path, dir, 0, 0);
        RegionFile *r = NULL;
        CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
        if (!r) return;
        for (int i = 0; i < 3; i++) {
            payload_make(buffer, i, 0, 1, 3000);
            CHECK_EQ_INT(region_write_chunk(r, i, 0, buffer, 3000), ST_OK);
        }
        RegionInfo info;
        region_get_info(r, &info);
        int live = info.live_copy;
        RegionEntry e0 = region_get_entry(r, region_slot_of(0, 0));
        region_close(r);
        /* Patch chunk 1,0's entry in both copies (then both are CRC-valid, the damage is the entry itself). */
        for (int copy = 0; copy < 2; copy++) {
            long at = (long)copy * REGION_PAGE + 24 + region_slot_of(1, 0) * 12;
            uint8_t e[8];
            uint32_t offset = variant == 1 ? 0x7FFFF000u : e0.offset + (variant == 2 ? 0u : 0u);
            uint32_t size = variant == 0 ? 0xFFFFFFFFu : variant == 1 ? 4000u : e0.size;
            for (int i = 0; i < 4; i++) e[i] = (uint8_t)(offset >> (8 * i)), e[4 + i] = (uint8_t)(size >> (8 * i));
            write_bytes_at(path, at, e, sizeof e);
            size_t fsz;
            uint8_t *bytes = file_bytes(path, &fsz);
            uint64_t g = 0;
            for (int i = 0; i < 8; i++) g |= (uint64_t)bytes[copy * REGION_PAGE + 16 + i] << (8 * i);
            free(bytes);
            set_copy_generation(path, copy, g);   /* fixes the CRC */
        }
        (void)live;
        log_set_level(LOG_SILENT);
        CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_WRITE, &r), ST_OK);
        if (!r) {
            log_set_level(LOG_INFO);
            continue;
        }
        const uint8_t *p;
        size_t n;
        CHECK_EQ_INT(region_read_chunk(r, 1, 0, &p, &n), ST_ERR_FORMAT);
        CHECK_STR_CONTAINS(st_error_message(), "chunk 1,0");
        CHECK(payload_check(r, 0, 0, 1, 3000));
        CHECK(payload_check(r, 2, 0, 1, 3000));
        for (int i = 0; i < 4; i++) {
            payload_make(buffer, 4 + i, 4, 1, 6000);
            StResult rc = region_write_chunk(r, 4 + i, 4, buffer, 6000);
            CHECK_EQ_INT(rc, ST_OK);
            if (rc != ST_OK) fprintf(stderr, "  %s\n", st_error_message());
        }
        /* The damaged chunk itself can be saved again (the player edited it). */
        payload_make(buffer, 1, 0, 5, 3000);
        CHECK_EQ_INT(region_write_chunk(r, 1, 0, buffer, 3000), ST_OK);
        CHECK(payload_check(r, 1, 0, 5, 3000));
        CHECK(payload_check(r, 0, 0, 1, 3000));
        CHECK(payload_check(r, 2, 0, 1, 3000));
        for (int i = 0; i < 4; i++) CHECK(payload_check(r, 4 + i, 4, 1, 6000));
        log_set_level(LOG_INFO);
        region_close(r);
    }
}

/* A bad entry past the end of the file names the very pages, size and CRC that the chunk's next save gets
 * (fuzz_region found it): the directory entry does not change, yet the saved chunk must read back at once,
 * and the intact chunk beside it must stay as it was. */
static void test_save_matches_bad_entry(void)
{
    char dir[300], path[400];
    make_dir("bad_entry_same", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, 0);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, 0, 0, 1, 3000);
    CHECK_EQ_INT(region_write_chunk(r, 0, 0, buffer, 3000), ST_OK);
    RegionEntry e0 = region_get_entry(r, region_slot_of(0, 0));
    region_close(r);
    CHECK_EQ_INT(e0.offset, REGION_DATA_START);
    /* Chunk 1,0's entry: the page after chunk 0,0's record (past the end of the file), the next save's size
     * and CRC; in both copies (their CRCs fixed). */
    const size_t size = 500;
    payload_make(buffer, 1, 0, 2, size);
    uint32_t offset = REGION_DATA_START + REGION_PAGE, record = REGION_RECORD_HEADER + (uint32_t)size;
    uint32_t crc = (uint32_t)crc32(0L, buffer, (uInt)size);
    for (int copy = 0; copy < 2; copy++) {
        uint8_t e[12];
        for (int i = 0; i < 4; i++)
            e[i] = (uint8_t)(offset >> (8 * i)), e[4 + i] = (uint8_t)(record >> (8 * i)), e[8 + i] = (uint8_t)(crc >> (8 * i));
        write_bytes_at(path, (long)copy * REGION_PAGE + 24 + region_slot_of(1, 0) * 12, e, sizeof e);
        uint64_t g = 0;
        disk_entry(path, copy, 0, &g);
        set_copy_generation(path, copy, g);   /* fixes the CRC */
    }
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_WRITE, &r), ST_OK);
    log_set_level(LOG_INFO);
    if (!r) return;
    const uint8_t *p;
    size_t n;
    CHECK_EQ_INT(region_get_slot_status(r, region_slot_of(1, 0), NULL), REGION_SLOT_BAD_ENTRY);
    CHECK_EQ_INT(region_read_chunk(r, 1, 0, &p, &n), ST_ERR_FORMAT);
    CHECK_EQ_INT(region_write_chunk(r, 1, 0, buffer, size), ST_OK);
    RegionEntry e1 = region_get_entry(r, region_slot_of(1, 0));
    CHECK(e1.offset == offset && e1.size == record && e1.crc == crc);   /* the same entry as before */
    CHECK_EQ_INT(region_get_slot_status(r, region_slot_of(1, 0), NULL), REGION_SLOT_NORMAL);
    CHECK(payload_check(r, 1, 0, 2, size));
    CHECK(payload_check(r, 0, 0, 1, 3000));
    CHECK(layout_ok(r));
    region_close(r);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &r), ST_OK);
    if (!r) return;
    CHECK(payload_check(r, 1, 0, 2, size));
    CHECK(payload_check(r, 0, 0, 1, 3000));
    region_close(r);
}

/* Defect 3: compaction's "<path>.tmp" and the region file itself never follow a planted symlink. */
static void test_symlinks(void)
{
    char dir[300], path[400], tmp[420], victim[420], link[420];
    make_dir("symlinks", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 0, 0);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    CHECK_EQ_INT(fileio_write_atomic(victim, "precious", 8), ST_OK);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    for (int i = 0; i < 4; i++) {
        payload_make(buffer, i, 0, 1, 3000);
        CHECK_EQ_INT(region_write_chunk(r, i, 0, buffer, 3000), ST_OK);
    }
    CHECK_EQ_INT(symlink(victim, tmp), 0);
    CHECK_EQ_INT(region_compact(r), ST_OK);
    region_close(r);
    size_t size;
    uint8_t *bytes = file_bytes(victim, &size);
    CHECK(bytes && size == 8 && memcmp(bytes, "precious", 8) == 0);
    free(bytes);
    /* A region file that is a symlink is not opened through the link. */
    region_file_path(link, sizeof link, dir, 1, 0);
    CHECK_EQ_INT(symlink(path, link), 0);
    CHECK(region_open(link, 1, 0, REGION_OPEN_WRITE, &r) != ST_OK);
}


int main(void)
{
    if (!test_make_temp_dir("region", root, sizeof root)) return 1;
    RUN(test_names);
    RUN(test_all_slots);
    RUN(test_not_found_and_limits);
    RUN(test_damaged_record);
    RUN(test_torn_directory);
    RUN(test_compaction);
    RUN(test_failed_commit);
    RUN(test_damaged_newest_copy);
    RUN(test_generation_wrap);
    RUN(test_bad_entries);
    RUN(test_save_matches_bad_entry);
    RUN(test_symlinks);
    test_remove_tree(root);
    return check_report();
}
