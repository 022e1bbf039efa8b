/* test_region_cache.c — the bounded cache of open region files (region_cache.h): LRU bound on open files and
 * descriptors, files found on disk by a fresh cache, a damaged file reported, remembered and moved aside (bytes
 * kept, never overwritten), and the repairs it counts once per file for the game's on-screen notice. */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "test_util.h"
#include "region_test_util.h"
#include "strata/log.h"
#include "strata/region_cache.h"

static void test_cache(void)
{
    char dir[300];
    make_dir("cache", dir, sizeof dir);
    int fds_before = count_open_fds();
    RegionCache *cache = NULL;
    CHECK_EQ_INT(region_cache_create(dir, 4, &cache), ST_OK);
    if (!cache) return;
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_cache_get(cache, 0, 0, false, &r), ST_ERR_NOT_FOUND);
    for (int i = 0; i < 10; i++) {
        CHECK_EQ_INT(region_cache_get(cache, i, -i, true, &r), ST_OK);
        payload_make(buffer, i * 16, -i * 16, 1, 500);
        CHECK_EQ_INT(region_write_chunk(r, i * 16, -i * 16, buffer, 500), ST_OK);
        CHECK(region_cache_open_count(cache) <= 4);
    }
    CHECK_EQ_INT(region_cache_open_count(cache), 4);
    CHECK_EQ_INT(region_cache_file_count(cache), 10);
    int good = 0;
    for (int k = 0; k < 30; k++) {
        int i = (int)(rng_next() % 10);
        if (region_cache_get(cache, i, -i, false, &r) == ST_OK) good += payload_check(r, i * 16, -i * 16, 1, 500);
    }
    CHECK_EQ_INT(good, 30);
    CHECK(count_open_fds() - fds_before <= 4);
    region_cache_destroy(cache);
    CHECK_EQ_INT(count_open_fds(), fds_before);

    /* A fresh cache sees the files on disk. */
    CHECK_EQ_INT(region_cache_create(dir, 2, &cache), ST_OK);
    if (!cache) return;
    CHECK_EQ_INT(region_cache_file_count(cache), 10);
    CHECK(region_cache_exists(cache, 9, -9));
    CHECK(!region_cache_exists(cache, 9, 9));

    /* A damaged region file: reported, remembered, then moved aside (bytes kept) when a chunk is saved. */
    char path[400], aside[420];
    region_file_path(path, sizeof path, dir, 3, -3);
    test_flip_byte(path, 50, 0x5A);
    test_flip_byte(path, REGION_PAGE + 50, 0x5A);
    size_t size_before, size_after;
    uint8_t *before = file_bytes(path, &size_before);
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(region_cache_get(cache, 3, -3, false, &r), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "Region 3,-3.dat: no valid directory");
    CHECK_EQ_INT(region_cache_get(cache, 3, -3, false, &r), ST_ERR_FORMAT);
    CHECK_EQ_INT(region_cache_get(cache, 3, -3, true, &r), ST_OK);
    log_set_level(LOG_INFO);
    if (r) {
        CHECK(!region_has_chunk(r, 48, -48));
        payload_make(buffer, 48, -48, 2, 700);
        CHECK_EQ_INT(region_write_chunk(r, 48, -48, buffer, 700), ST_OK);
    }
    snprintf(aside, sizeof aside, "%s.damaged", path);
    uint8_t *after = file_bytes(aside, &size_after);
    CHECK(before && after && size_before == size_after && memcmp(before, after, size_before) == 0);
    free(before);
    free(after);
    region_cache_destroy(cache);
    region_cache_destroy(NULL);
}

/* ---- Step 12 regressions ---- */

/* The cache counts what opening found, once per file however often the LRU reopens it, for the game's
 * on-screen notice: a rolled-forward chunk, then a damaged file and its move aside. */
static void test_cache_repairs(void)
{
    char dir[300], path[400];
    make_dir("repairs", dir, sizeof dir);
    region_file_path(path, sizeof path, dir, 1, 2);
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(path, 1, 2, REGION_OPEN_CREATE, &r), ST_OK);
    if (!r) return;
    payload_make(buffer, 16, 32, 1, 3000);
    CHECK_EQ_INT(region_write_chunk(r, 16, 32, buffer, 3000), ST_OK);
    payload_make(buffer, 16, 32, 2, 5000);
    CHECK_EQ_INT(region_write_chunk(r, 16, 32, buffer, 5000), ST_OK);
    RegionInfo info;
    region_get_info(r, &info);
    int live = info.live_copy;
    region_close(r);
    test_flip_byte(path, (long)live * REGION_PAGE + 100, 0x5A);
    for (int i = 0; i < 3; i++) {   /* two more regions to evict the first from a cache of one */
        char other[400];
        region_file_path(other, sizeof other, dir, 5 + i, 5);
        CHECK_EQ_INT(region_open(other, 5 + i, 5, REGION_OPEN_CREATE, &r), ST_OK);
        region_close(r);
    }

    log_set_level(LOG_SILENT);
    RegionCache *cache = NULL;
    CHECK_EQ_INT(region_cache_create(dir, 1, &cache), ST_OK);
    if (!cache) return;
    RegionRepairs rep;
    region_cache_get_repairs(cache, &rep);
    CHECK_EQ_INT(rep.rolled_forward, 0);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(region_cache_get(cache, 1, 2, false, &r), ST_OK);
        if (r) CHECK(payload_check(r, 16, 32, 2, 5000));
        CHECK_EQ_INT(region_cache_get(cache, 5 + k, 5, false, &r), ST_OK);
    }
    region_cache_get_repairs(cache, &rep);
    CHECK_EQ_INT(rep.rolled_forward, 1);
    CHECK_EQ_INT(rep.last_rx, 1);
    CHECK_EQ_INT(rep.last_rz, 2);
    CHECK_EQ_INT(rep.damaged_regions, 0);
    region_cache_destroy(cache);

    /* A file with no valid directory: one damaged region however many loads ask, then set aside once. */
    region_file_path(path, sizeof path, dir, 6, 5);
    test_flip_byte(path, 50, 0x5A);
    test_flip_byte(path, REGION_PAGE + 50, 0x5A);
    CHECK_EQ_INT(region_cache_create(dir, 2, &cache), ST_OK);
    if (!cache) return;
    for (int k = 0; k < 3; k++) CHECK_EQ_INT(region_cache_get(cache, 6, 5, false, &r), ST_ERR_FORMAT);
    region_cache_get_repairs(cache, &rep);
    CHECK_EQ_INT(rep.damaged_regions, 1);
    CHECK_EQ_INT(rep.last_rx, 6);
    CHECK_EQ_INT(rep.set_aside, 0);
    CHECK_EQ_INT(region_cache_get(cache, 6, 5, true, &r), ST_OK);
    region_cache_get_repairs(cache, &rep);
    CHECK_EQ_INT(rep.set_aside, 1);
    CHECK_EQ_INT(rep.damaged_regions, 1);
    region_cache_destroy(cache);
    log_set_level(LOG_INFO);
}

int main(void)
{
    if (!test_make_temp_dir("region_cache", root, sizeof root)) return 1;
    RUN(test_cache);
    RUN(test_cache_repairs);
    test_remove_tree(root);
    return check_report();
}
