/* region_cache.c — bounded open region files (LRU) and the set of region files on disk.
 *
 * Design: the set of known files is an open-addressing hash of region coordinates (no deletions: a file is
 * only ever added, or marked damaged and later healthy again), filled by one readdir at creation. Open
 * handles live in a small array scanned linearly (max_open is ~16); a use stamp picks the LRU victim. A
 * damaged file's open error is kept in its hash entry so that 256 chunk loads of one broken region cost one
 * open and produce the same clear message, and the damaged bytes are never written (see region_cache.h). */
#include "strata/region_cache.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"
#include "strata/log.h"

typedef enum KnownState { KNOWN_EMPTY = 0, KNOWN_PRESENT, KNOWN_DAMAGED } KnownState;

typedef struct KnownRegion {
    int rx, rz;
    KnownState state;
    char *damage;              /* the open error of a damaged file */
    bool reported;             /* its repairs were counted (once per file) */
    bool damage_reported;
} KnownRegion;

typedef struct OpenRegion {
    RegionFile *file;          /* NULL: free slot */
    int rx, rz;
    uint64_t last_use;
} OpenRegion;

struct RegionCache {
    char dir[PATH_MAX];
    KnownRegion *known;
    int known_capacity;        /* power of two */
    int known_count;
    OpenRegion *open;
    int max_open;
    uint64_t clock;
    RegionRepairs repairs;
};

static uint32_t region_hash(int rx, int rz)
{
    uint64_t h = ((uint64_t)(uint32_t)rx << 32) | (uint32_t)rz;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (uint32_t)h;
}

static KnownRegion *known_find(const RegionCache *cache, int rx, int rz)
{
    uint32_t mask = (uint32_t)cache->known_capacity - 1;
    for (uint32_t i = region_hash(rx, rz) & mask;; i = (i + 1) & mask) {
        KnownRegion *k = &cache->known[i];
        if (k->state == KNOWN_EMPTY) return NULL;
        if (k->rx == rx && k->rz == rz) return k;
    }
}

static StResult known_insert(RegionCache *cache, int rx, int rz, KnownRegion **out)
{
    KnownRegion *existing = known_find(cache, rx, rz);
    if (existing) {
        *out = existing;
        return ST_OK;
    }
    if ((cache->known_count + 1) * 2 > cache->known_capacity) {
        int capacity = cache->known_capacity * 2;
        KnownRegion *table = calloc((size_t)capacity, sizeof *table);
        if (!table) return st_fail(ST_ERR_NOMEM, "%s: out of memory for the region table", cache->dir);
        KnownRegion *old = cache->known;
        int old_capacity = cache->known_capacity;
        cache->known = table;
        cache->known_capacity = capacity;
        for (int i = 0; i < old_capacity; i++) {
            if (old[i].state == KNOWN_EMPTY) continue;
            uint32_t mask = (uint32_t)capacity - 1, j = region_hash(old[i].rx, old[i].rz) & mask;
            while (table[j].state != KNOWN_EMPTY) j = (j + 1) & mask;
            table[j] = old[i];
        }
        free(old);
    }
    uint32_t mask = (uint32_t)cache->known_capacity - 1, i = region_hash(rx, rz) & mask;
    while (cache->known[i].state != KNOWN_EMPTY) i = (i + 1) & mask;
    cache->known[i] = (KnownRegion){.rx = rx, .rz = rz, .state = KNOWN_PRESENT};
    cache->known_count++;
    *out = &cache->known[i];
    return ST_OK;
}

StResult region_cache_create(const char *regions_dir, int max_open, RegionCache **out)
{
    *out = NULL;
    if (max_open < 1) return st_fail(ST_ERR_ARG, "region cache: max_open %d must be at least 1", max_open);
    RegionCache *cache = calloc(1, sizeof *cache);
    if (!cache) return st_fail(ST_ERR_NOMEM, "region cache: out of memory");
    int n = snprintf(cache->dir, sizeof cache->dir, "%s", regions_dir);
    cache->known_capacity = 64;
    cache->known = calloc((size_t)cache->known_capacity, sizeof *cache->known);
    cache->open = calloc((size_t)max_open, sizeof *cache->open);
    cache->max_open = max_open;
    StResult rc = ST_OK;
    if (n < 0 || (size_t)n >= sizeof cache->dir) rc = st_fail(ST_ERR_ARG, "regions folder path too long: %s", regions_dir);
    else if (!cache->known || !cache->open) rc = st_fail(ST_ERR_NOMEM, "region cache: out of memory");
    DIR *dir = rc == ST_OK ? opendir(regions_dir) : NULL;
    if (rc == ST_OK && !dir) rc = st_fail(ST_ERR_IO, "%s: cannot list folder: %s", regions_dir, strerror(errno));
    for (struct dirent *e; rc == ST_OK && (e = readdir(dir)) != NULL;) {
        int rx, rz;
        KnownRegion *k;
        if (region_parse_file_name(e->d_name, &rx, &rz)) rc = known_insert(cache, rx, rz, &k);
    }
    if (dir) closedir(dir);
    if (rc != ST_OK) {
        region_cache_destroy(cache);
        return rc;
    }
    *out = cache;
    return ST_OK;
}

void region_cache_destroy(RegionCache *cache)
{
    if (!cache) return;
    if (cache->open)
        for (int i = 0; i < cache->max_open; i++) region_close(cache->open[i].file);
    if (cache->known)
        for (int i = 0; i < cache->known_capacity; i++) free(cache->known[i].damage);
    free(cache->open);
    free(cache->known);
    free(cache);
}

bool region_cache_exists(const RegionCache *cache, int rx, int rz) { return known_find(cache, rx, rz) != NULL; }

int region_cache_open_count(const RegionCache *cache)
{
    int n = 0;
    for (int i = 0; i < cache->max_open; i++) n += cache->open[i].file != NULL;
    return n;
}

int region_cache_file_count(const RegionCache *cache) { return cache->known_count; }

/* Renames a damaged region file to "<path>.damaged" (".damaged.N" if taken) so its bytes survive. */
static StResult region_cache_move_aside(const char *path)
{
    char target[PATH_MAX + 32];
    for (int n = 0; n < 1000; n++) {
        if (n == 0) snprintf(target, sizeof target, "%s.damaged", path);
        else snprintf(target, sizeof target, "%s.damaged.%d", path, n);
        if (fileio_exists(target)) continue;
        if (rename(path, target) != 0 && errno != ENOENT)
            return st_fail(ST_ERR_IO, "rename %s -> %s: %s", path, target, strerror(errno));
        log_warn("store", "%s is damaged; kept as %s, a new region file takes its place", path, target);
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = 0;
        return slash ? fileio_sync_dir(dir) : ST_OK;
    }
    return st_fail(ST_ERR_IO, "%s: too many .damaged copies", path);
}

static StResult region_cache_get_once(RegionCache *cache, int rx, int rz, bool create, bool may_retry, RegionFile **out)
{
    *out = NULL;
    cache->clock++;
    OpenRegion *victim = &cache->open[0];
    for (int i = 0; i < cache->max_open; i++) {
        OpenRegion *o = &cache->open[i];
        if (o->file && o->rx == rx && o->rz == rz) {
            o->last_use = cache->clock;
            *out = o->file;
            return ST_OK;
        }
        if (!o->file ? victim->file != NULL : (victim->file && o->last_use < victim->last_use)) victim = o;
    }

    KnownRegion *known = known_find(cache, rx, rz);
    if (!known && !create) return st_fail(ST_ERR_NOT_FOUND, "region %d,%d is not stored", rx, rz);
    char path[PATH_MAX];
    StResult rc = region_file_path(path, sizeof path, cache->dir, rx, rz);
    if (rc != ST_OK) return rc;
    if (known && known->state == KNOWN_DAMAGED) {
        if (!create) return st_fail(ST_ERR_FORMAT, "%s", known->damage);
        if ((rc = region_cache_move_aside(path)) != ST_OK) return rc;
        cache->repairs.set_aside++;
        free(known->damage);
        known->damage = NULL;
        known->state = KNOWN_PRESENT;
    }

    RegionFile *file = NULL;
    rc = region_open(path, rx, rz, create ? REGION_OPEN_CREATE : REGION_OPEN_WRITE, &file);
    if (rc == ST_ERR_FORMAT) {
        /* Remember the damage; with create, move the file aside and start over once. */
        if (!known && (rc = known_insert(cache, rx, rz, &known)) != ST_OK) return rc;
        known->state = KNOWN_DAMAGED;
        if (!known->damage_reported) {
            known->damage_reported = true;
            cache->repairs.damaged_regions++;
            cache->repairs.last_rx = rx;
            cache->repairs.last_rz = rz;
        }
        free(known->damage);
        known->damage = strdup(st_error_message());
        log_error("store", "%s", st_error_message());
        if (!create || !may_retry) return st_fail(ST_ERR_FORMAT, "%s", known->damage ? known->damage : path);
        return region_cache_get_once(cache, rx, rz, true, false, out);
    }
    if (rc == ST_ERR_NOT_FOUND && !create) return rc;   /* deleted behind our back */
    if (rc != ST_OK) return rc;
    if (!known && (rc = known_insert(cache, rx, rz, &known)) != ST_OK) {
        region_close(file);
        return rc;
    }
    if (!known->reported) {
        known->reported = true;
        RegionInfo info;
        region_get_info(file, &info);
        RegionRepairs *r = &cache->repairs;
        r->rolled_forward += info.rolled_forward;
        r->uncertain += info.uncertain;
        r->bad_entries += info.bad_entries;
        if (info.rolled_forward + info.uncertain + info.bad_entries > 0) {
            r->last_rx = rx;
            r->last_rz = rz;
        }
    }
    region_close(victim->file);
    *victim = (OpenRegion){file, rx, rz, cache->clock};
    *out = file;
    return ST_OK;
}

StResult region_cache_get(RegionCache *cache, int rx, int rz, bool create, RegionFile **out)
{
    return region_cache_get_once(cache, rx, rz, create, true, out);
}

void region_cache_get_repairs(const RegionCache *cache, RegionRepairs *out) { *out = cache->repairs; }
