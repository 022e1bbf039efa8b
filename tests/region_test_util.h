/* region_test_util.h — what the region file tests share (test_region.c, test_region_cache.c): a temp
 * root, a seeded generator, payloads that name their chunk and version, and whole-file reads.
 * Header-only, static inline: each test program gets its own copy. Not thread-safe (tests are single-threaded). */
#ifndef STRATA_REGION_TEST_UTIL_H
#define STRATA_REGION_TEST_UTIL_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"
#include "strata/region.h"

static char root[256];

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static inline uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static inline void make_dir(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", root, name);
    fileio_make_dirs(out);
}

/* A payload that names its chunk and version: size and bytes follow from (cx, cz, version). */
static inline size_t payload_make(uint8_t *buf, int cx, int cz, int version, size_t size)
{
    uint32_t s = (uint32_t)cx * 73856093u ^ (uint32_t)cz * 19349663u ^ (uint32_t)version * 83492791u;
    for (size_t i = 0; i < size; i++) {
        s = s * 1103515245u + 12345u;
        buf[i] = (uint8_t)(s >> 16);
    }
    return size;
}

static inline bool payload_check(RegionFile *r, int cx, int cz, int version, size_t size)
{
    static uint8_t want[1 << 20];
    const uint8_t *got;
    size_t got_size;
    if (region_read_chunk(r, cx, cz, &got, &got_size) != ST_OK) {
        fprintf(stderr, "  read %d,%d: %s\n", cx, cz, st_error_message());
        return false;
    }
    payload_make(want, cx, cz, version, size);
    return got_size == size && memcmp(got, want, size) == 0;
}

static inline uint8_t *file_bytes(const char *path, size_t *size)
{
    char *data = NULL;
    if (fileio_read_all(path, &data, size) != ST_OK) return NULL;
    return (uint8_t *)data;
}

static uint8_t buffer[1 << 20];

static inline int count_open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

#endif
