/* serializer.c — a world folder: world.json, a world lock, and the ChunkStorage over region files.
 *
 * Design: the update worker is the only caller of load/save in the game, but updater_save_all runs saves on
 * the main thread while the worker waits, so file access is still serialised by one mutex (uncontended: a
 * few tens of nanoseconds per chunk). A chunk whose region file does not exist is answered from the region
 * cache's in-memory table, without a system call. A decode failure is reported with the same
 * "<file>: chunk X,Z at offset N: ..." prefix as a region-level failure, so the player can find the damage.
 * Saves skip a chunk marked CHUNK_FLAG_DAMAGED_ON_DISK that was never edited: its damaged copy stays on
 * disk for the player (or strata-world) to inspect. A load that could not read (ST_ERR_IO, ST_ERR_NOMEM: not
 * damage) remembers the chunk, and every save of it is refused until a load reads it. A process-wide advisory lock (flock on session.lock)
 * keeps two processes from writing one world. */
#include "strata/serializer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "strata/chunk_codec.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/region.h"
#include "strata/region_cache.h"

struct Serializer {
    char dir[PATH_MAX];
    char regions_dir[PATH_MAX];
    int lock_fd;
    const BlockRegistry *blocks;
    RegionCache *regions;
    ChunkCodec *codec;
    ChunkStorage storage;
    pthread_mutex_t mutex;
    bool mutex_ready;
    SerializerStats stats;
    int (*unread)[2];          /* chunks whose load could not read their record: no save may replace it */
    int unread_count, unread_capacity;
};

/* ---- records that could not be read ---- */

static int serializer_unread_find(const Serializer *s, int cx, int cz)
{
    for (int i = 0; i < s->unread_count; i++)
        if (s->unread[i][0] == cx && s->unread[i][1] == cz) return i;
    return -1;
}

static void serializer_unread_mark(Serializer *s, int cx, int cz, bool unread)
{
    int i = serializer_unread_find(s, cx, cz);
    if (!unread) {
        if (i >= 0) memcpy(s->unread[i], s->unread[--s->unread_count], sizeof s->unread[i]);
        return;
    }
    if (i >= 0) return;
    if (s->unread_count == s->unread_capacity) {
        int capacity = s->unread_capacity ? s->unread_capacity * 2 : 16;
        int (*grown)[2] = realloc(s->unread, sizeof *grown * (size_t)capacity);
        if (!grown) return;   /* the worker keeps such a chunk NotLoaded anyway */
        s->unread = grown;
        s->unread_capacity = capacity;
    }
    s->unread[s->unread_count][0] = cx;
    s->unread[s->unread_count][1] = cz;
    s->unread_count++;
}

/* ---- chunk storage ---- */

static StResult serializer_load_locked(Serializer *s, TerrainChunk *chunk)
{
    int cx = chunk->coord_x, cz = chunk->coord_z;
    int rx = region_coord_of(cx), rz = region_coord_of(cz);
    if (!region_cache_exists(s->regions, rx, rz))
        return st_fail(ST_ERR_NOT_FOUND, "chunk %d,%d is not stored", cx, cz);
    RegionFile *region = NULL;
    StResult rc = region_cache_get(s->regions, rx, rz, false, &region);
    if (rc != ST_OK) return rc;
    if (!region_has_chunk(region, cx, cz)) return st_fail(ST_ERR_NOT_FOUND, "chunk %d,%d is not stored", cx, cz);
    const uint8_t *payload = NULL;
    size_t size = 0;
    if ((rc = region_read_chunk(region, cx, cz, &payload, &size)) != ST_OK) return rc;
    rc = chunk_codec_decode(s->codec, s->blocks, payload, size, chunk);
    if (rc != ST_OK) {
        RegionEntry entry = region_get_entry(region, region_slot_of(cx, cz));
        char what[768];
        snprintf(what, sizeof what, "%s", st_error_message());
        return st_fail(rc, "%s: chunk %d,%d at offset %u: %s", region_path(region), cx, cz, entry.offset, what);
    }
    return ST_OK;
}

static StResult serializer_load(void *user, TerrainChunk *chunk)
{
    Serializer *s = user;
    pthread_mutex_lock(&s->mutex);
    StResult rc = serializer_load_locked(s, chunk);
    serializer_unread_mark(s, chunk->coord_x, chunk->coord_z, rc == ST_ERR_IO || rc == ST_ERR_NOMEM);
    if (rc == ST_OK) s->stats.chunks_loaded++;
    else if (rc == ST_ERR_IO || rc == ST_ERR_NOMEM) s->stats.load_io_errors++;
    else if (rc != ST_ERR_NOT_FOUND) s->stats.load_errors++;
    pthread_mutex_unlock(&s->mutex);
    return rc;
}

static StResult serializer_save_locked(Serializer *s, const TerrainChunk *chunk)
{
    int cx = chunk->coord_x, cz = chunk->coord_z;
    if ((chunk->flags & CHUNK_FLAG_DAMAGED_ON_DISK) && chunk->modification_counter <= 0) {
        s->stats.saves_skipped_damaged++;
        log_info("store", "chunk %d,%d: not saved, its stored copy is damaged and it was not edited", cx, cz);
        return ST_OK;
    }
    if (serializer_unread_find(s, cx, cz) >= 0)
        return st_fail(ST_ERR_STATE, "chunk %d,%d: its stored copy could not be read; not saving over it until it "
                       "loads", cx, cz);
    const uint8_t *bytes = NULL;
    size_t size = 0;
    StResult rc = chunk_codec_encode(s->codec, chunk, &bytes, &size);
    if (rc != ST_OK) return rc;
    RegionFile *region = NULL;
    rc = region_cache_get(s->regions, region_coord_of(cx), region_coord_of(cz), true, &region);
    if (rc == ST_OK) rc = region_write_chunk(region, cx, cz, bytes, size);
    if (rc == ST_OK) {
        s->stats.chunks_saved++;
        s->stats.bytes_saved += size;
    }
    return rc;
}

static StResult serializer_save(void *user, const TerrainChunk *chunk)
{
    Serializer *s = user;
    pthread_mutex_lock(&s->mutex);
    StResult rc = serializer_save_locked(s, chunk);
    if (rc != ST_OK) s->stats.save_errors++;
    pthread_mutex_unlock(&s->mutex);
    return rc;
}

const ChunkStorage *serializer_chunk_storage(Serializer *serializer) { return &serializer->storage; }

void serializer_get_stats(Serializer *serializer, SerializerStats *stats)
{
    pthread_mutex_lock(&serializer->mutex);
    *stats = serializer->stats;
    stats->regions_open = region_cache_open_count(serializer->regions);
    stats->region_files = region_cache_file_count(serializer->regions);
    region_cache_get_repairs(serializer->regions, &stats->repairs);
    pthread_mutex_unlock(&serializer->mutex);
}

/* ---- open / close ---- */

static StResult serializer_lock_world(Serializer *s)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/session.lock", s->dir);
    s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (s->lock_fd < 0) return st_fail(ST_ERR_IO, "%s: %s", path, strerror(errno));
    if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(s->lock_fd);
        s->lock_fd = -1;
        if (e == EWOULDBLOCK) return st_fail(ST_ERR_STATE, "world %s is open in another process", s->dir);
        return st_fail(ST_ERR_IO, "%s: flock: %s", path, strerror(e));
    }
    return ST_OK;
}

/* Removes "*.tmp" leftovers of interrupted atomic writes and compactions (we hold the world lock). */
static void serializer_remove_leftovers(const char *regions_dir)
{
    DIR *dir = opendir(regions_dir);
    if (!dir) return;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n <= 4 || strcmp(e->d_name + n - 4, ".tmp") != 0 || strncmp(e->d_name, "Region ", 7) != 0) continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", regions_dir, e->d_name);
        if (unlink(path) == 0) log_info("store", "removed %s, left by an interrupted write", path);
    }
    closedir(dir);
}

/* true when the folder holds any region file (a world without its world.json). */
static bool serializer_has_region_files(const char *regions_dir)
{
    DIR *dir = opendir(regions_dir);
    if (!dir) return false;
    bool found = false;
    int rx, rz;
    for (struct dirent *e; !found && (e = readdir(dir)) != NULL;) found = region_parse_file_name(e->d_name, &rx, &rz);
    closedir(dir);
    return found;
}

StResult serializer_open(const char *dir, bool create, WorldMeta *meta, const BlockRegistry *blocks, Serializer **out)
{
    *out = NULL;
    if (!dir || !dir[0]) return st_fail(ST_ERR_ARG, "serializer_open: empty world folder");
    Serializer *s = calloc(1, sizeof *s);
    if (!s) return st_fail(ST_ERR_NOMEM, "serializer: out of memory");
    s->lock_fd = -1;
    s->blocks = blocks;
    StResult rc = ST_OK;
    int n1 = snprintf(s->dir, sizeof s->dir, "%s", dir);
    int n2 = snprintf(s->regions_dir, sizeof s->regions_dir, "%s/Regions", dir);
    char world_json[PATH_MAX + 16];
    snprintf(world_json, sizeof world_json, "%s/world.json", dir);
    if (n1 < 0 || n2 < 0 || (size_t)n2 >= sizeof s->regions_dir) rc = st_fail(ST_ERR_ARG, "world folder path too long: %s", dir);

    if (rc == ST_OK && pthread_mutex_init(&s->mutex, NULL) != 0) rc = st_fail(ST_ERR_NOMEM, "serializer: mutex init failed");
    else s->mutex_ready = rc == ST_OK;

    if (rc == ST_OK && create) {
        if (fileio_exists(world_json))
            rc = st_fail(ST_ERR_EXISTS, "%s already exists; refusing to overwrite that world", world_json);
        if (rc == ST_OK) rc = fileio_make_dirs(dir);
        if (rc == ST_OK) rc = serializer_lock_world(s);
        if (rc == ST_OK && fileio_exists(world_json))
            rc = st_fail(ST_ERR_EXISTS, "%s already exists; refusing to overwrite that world", world_json);
        if (rc == ST_OK && serializer_has_region_files(s->regions_dir))
            rc = st_fail(ST_ERR_EXISTS, "%s holds region files but no world.json; refusing to mix worlds", s->regions_dir);
        if (rc == ST_OK) rc = fileio_make_dirs(s->regions_dir);
        if (rc == ST_OK) {
            meta->format_version = WORLD_FORMAT_VERSION;
            rc = world_meta_save(dir, meta);
        }
    } else if (rc == ST_OK) {
        if (!fileio_is_dir(dir)) rc = st_fail(ST_ERR_NOT_FOUND, "no world folder %s", dir);
        else if (!fileio_exists(world_json)) rc = st_fail(ST_ERR_NOT_FOUND, "%s: no world.json (not a world folder)", dir);
        if (rc == ST_OK) rc = serializer_lock_world(s);
        if (rc == ST_OK) rc = world_meta_load(dir, meta);
        if (rc == ST_OK) rc = fileio_make_dirs(s->regions_dir);
        if (rc == ST_OK) serializer_remove_leftovers(s->regions_dir);
    }

    if (rc == ST_OK) rc = region_cache_create(s->regions_dir, REGION_CACHE_DEFAULT_OPEN, &s->regions);
    if (rc == ST_OK && !(s->codec = chunk_codec_create())) rc = st_fail(ST_ERR_NOMEM, "serializer: cannot create the chunk codec");
    if (rc != ST_OK) {
        serializer_close(s);
        return rc;
    }
    s->storage = (ChunkStorage){.user = s, .load = serializer_load, .save = serializer_save};
    log_info("store", "%s world %s (%d region files)", create ? "created" : "opened", dir,
             region_cache_file_count(s->regions));
    *out = s;
    return ST_OK;
}

void serializer_close(Serializer *serializer)
{
    if (!serializer) return;
    region_cache_destroy(serializer->regions);
    chunk_codec_destroy(serializer->codec);
    if (serializer->lock_fd >= 0) close(serializer->lock_fd);   /* releases the flock */
    if (serializer->mutex_ready) pthread_mutex_destroy(&serializer->mutex);
    free(serializer->unread);
    free(serializer);
}

StResult serializer_save_meta(Serializer *serializer, const WorldMeta *meta)
{
    return world_meta_save(serializer->dir, meta);
}

const char *serializer_dir(const Serializer *serializer) { return serializer->dir; }

StResult serializer_default_worlds_dir(char *out, size_t size)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    int n;
    if (xdg && xdg[0] == '/') {
        n = snprintf(out, size, "%s/strata/worlds", xdg);
    } else {
        const char *home = getenv("HOME");
        if (!home || !home[0])
            return st_fail(ST_ERR_NOT_FOUND, "no data folder: neither XDG_DATA_HOME nor HOME is set (use --world DIR)");
        n = snprintf(out, size, "%s/.local/share/strata/worlds", home);
    }
    if (n < 0 || (size_t)n >= size) return st_fail(ST_ERR_ARG, "default worlds folder path too long");
    return ST_OK;
}
