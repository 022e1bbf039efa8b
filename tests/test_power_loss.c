/* test_power_loss.c — power loss, not only a kill: writes that were never fsynced may be lost or torn.
 *
 * Design: the test links with -Wl,--wrap=open,--wrap=pwrite,--wrap=write,--wrap=fsync,--wrap=fdatasync,
 * --wrap=rename,--wrap=unlink (tests/store.cmake), so every such call of strata_core goes through the
 * wrappers below. While recording, a wrapper passes the call on and appends it to an operation log (with a
 * copy of the data written). The scenario writes world.json and chunk records of one region file (with a
 * low compaction threshold, so compactions happen too), and notes which scenario step each operation
 * belongs to. Then, for every cut point k (every operation index), crash images are built from the first k
 * operations in the way a disk may leave them after a power cut:
 *   - a file holds what it held at its last fsync/fdatasync, plus a choice of the writes made since: none,
 *     all with the last one torn at a random byte, or a random subset of their pages;
 *   - the folder holds the names as of its last fsync, plus a prefix of the creates/renames/unlinks since
 *     (none, all, or a random prefix).
 * Each image is written into a fresh folder (/dev/shm when present) and checked: world.json loads and is the
 * version before or after the step in progress at the cut; the region opens, and every chunk reads back as
 * its version before or after that step (or absent when that is one of them); opening it for writing keeps
 * every chunk as read, and a new write then reads back with all others unchanged.
 * Usage: test_power_loss [STEPS] (default 100: about 440 cut points, 3 crash images each, ~1 s). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "strata/log.h"
#include "strata/region.h"
#include "strata/world_file.h"

/* ---- the recording layer ---- */

int __real_open(const char *path, int flags, ...);
ssize_t __real_pwrite(int fd, const void *buf, size_t count, off_t offset);
ssize_t __real_write(int fd, const void *buf, size_t count);
int __real_fsync(int fd);
int __real_fdatasync(int fd);
int __real_rename(const char *from, const char *to);
int __real_unlink(const char *path);
int __wrap_open(const char *path, int flags, ...);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t count, off_t offset);
ssize_t __wrap_write(int fd, const void *buf, size_t count);
int __wrap_fsync(int fd);
int __wrap_fdatasync(int fd);
int __wrap_rename(const char *from, const char *to);
int __wrap_unlink(const char *path);

typedef enum OpKind { OP_CREATE, OP_WRITE, OP_SYNC, OP_RENAME, OP_UNLINK, OP_DIRSYNC } OpKind;

typedef struct Op {
    OpKind kind;
    int inode;              /* model inode (CREATE, WRITE, SYNC) */
    char name[64], to[64];  /* CREATE, UNLINK: name; RENAME: name -> to */
    uint64_t offset;
    uint8_t *data;
    size_t size;
    int step;               /* the scenario step that issued it */
} Op;

#define MAX_OPS 4096
#define MAX_INODES 256
static Op ops[MAX_OPS];
static int op_count;
static bool recording;
static int current_step;
static ino_t inode_ino[MAX_INODES];   /* model inode -> st_ino at recording time */
static int inode_count;

static Op *op_push(OpKind kind)
{
    if (op_count >= MAX_OPS) {
        fprintf(stderr, "power loss: operation log full\n");
        abort();
    }
    Op *op = &ops[op_count++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->step = current_step;
    return op;
}

static void base_name(char *out, const char *path)
{
    const char *slash = strrchr(path, '/');
    snprintf(out, 64, "%s", slash ? slash + 1 : path);
}

/* The model inode of a descriptor (-1: not one this recording created). */
static int inode_of(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    for (int i = inode_count - 1; i >= 0; i--)
        if (inode_ino[i] == st.st_ino) return i;
    return -1;
}

int __wrap_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    int fd = __real_open(path, flags, mode);
    if (recording && fd >= 0 && (flags & O_CREAT)) {
        if (flags & O_TRUNC) {
            fprintf(stderr, "power loss: O_TRUNC is not modelled (%s)\n", path);
            abort();
        }
        if (inode_of(fd) < 0) {
            struct stat st;
            if (fstat(fd, &st) != 0 || inode_count >= MAX_INODES) abort();
            inode_ino[inode_count] = st.st_ino;
            Op *op = op_push(OP_CREATE);
            op->inode = inode_count++;
            base_name(op->name, path);
        }
    }
    return fd;
}

static void record_write(int fd, const void *buf, ssize_t n, uint64_t offset)
{
    if (!recording || n <= 0) return;
    int inode = inode_of(fd);
    if (inode < 0) {
        fprintf(stderr, "power loss: a write to a file the recording did not create\n");
        abort();
    }
    Op *op = op_push(OP_WRITE);
    op->inode = inode;
    op->offset = offset;
    op->size = (size_t)n;
    op->data = malloc((size_t)n);
    if (!op->data) abort();
    memcpy(op->data, buf, (size_t)n);
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    ssize_t n = __real_pwrite(fd, buf, count, offset);
    record_write(fd, buf, n, (uint64_t)offset);
    return n;
}

ssize_t __wrap_write(int fd, const void *buf, size_t count)
{
    off_t at = recording ? lseek(fd, 0, SEEK_CUR) : 0;
    ssize_t n = __real_write(fd, buf, count);
    if (at >= 0) record_write(fd, buf, n, (uint64_t)at);
    return n;
}

static void record_sync(int fd)
{
    if (!recording) return;
    struct stat st;
    if (fstat(fd, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        op_push(OP_DIRSYNC);
        return;
    }
    int inode = inode_of(fd);
    if (inode >= 0) op_push(OP_SYNC)->inode = inode;
}

int __wrap_fsync(int fd)
{
    int rc = __real_fsync(fd);
    if (rc == 0) record_sync(fd);
    return rc;
}

int __wrap_fdatasync(int fd)
{
    int rc = __real_fdatasync(fd);
    if (rc == 0) record_sync(fd);
    return rc;
}

int __wrap_rename(const char *from, const char *to)
{
    int rc = __real_rename(from, to);
    if (rc == 0 && recording) {
        Op *op = op_push(OP_RENAME);
        base_name(op->name, from);
        base_name(op->to, to);
    }
    return rc;
}

int __wrap_unlink(const char *path)
{
    int rc = __real_unlink(path);
    if (rc == 0 && recording) base_name(op_push(OP_UNLINK)->name, path);
    return rc;
}

/* ---- the scenario ---- */

#define CHUNKS 6
#define MAX_STEPS 256
static const int chunk_x[CHUNKS] = {0, 1, 5, 15, 7, 0};
static const int chunk_z[CHUNKS] = {0, 0, 3, 15, 9, 12};

typedef struct Step {
    bool world;      /* a world.json save (version = value) */
    int chunk;       /* else: the chunk written (value = version; 0 = deleted) */
    int value;
} Step;

static Step steps[MAX_STEPS];
static int step_count;
/* state_before[s][i]: the version of chunk i (i < CHUNKS) or world.json (i == CHUNKS) before step s. */
static int state_before[MAX_STEPS + 1][CHUNKS + 1];

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* Chunk i's payload at version v (v >= 1): its size varies from 1 to 3 pages. */
static size_t payload_make(int i, int v, uint8_t *out)
{
    size_t size = 16 + (size_t)(mix((uint64_t)i * 1000 + (uint64_t)v) % 9000);
    for (size_t k = 0; k < size; k++) out[k] = (uint8_t)mix(((uint64_t)i << 40) ^ ((uint64_t)v << 20) ^ k);
    out[0] = (uint8_t)i;
    out[1] = (uint8_t)v;
    return size;
}

static char record_dir[256];

static StResult world_save_version(const char *dir, int version)
{
    WorldMeta meta;
    memset(&meta, 0, sizeof meta);
    meta.format_version = WORLD_FORMAT_VERSION;
    world_settings_default(&meta.settings);
    meta.settings.seed = 42;
    snprintf(meta.generator_name, sizeof meta.generator_name, "gen24");
    meta.generator_version = 1;
    meta.time_of_day = 0.5f;
    meta.game_time = version;
    return world_meta_save(dir, &meta);
}

static bool run_scenario(int wanted)
{
    char path[512];
    snprintf(path, sizeof path, "%s/Region 0,0.dat", record_dir);
    RegionFile *region = NULL;
    int state[CHUNKS + 1] = {0};
    int next_world = 1;
    uint8_t payload[10000];
    uint64_t rng = 7;
    recording = true;
    for (int s = 0; s < wanted && s < MAX_STEPS; s++) {
        memcpy(state_before[s], state, sizeof state);
        current_step = s;
        Step st = {0};
        rng = mix(rng + (uint64_t)s);
        if (s == 0 || rng % 9 == 0) {
            st.world = true;
            st.value = next_world++;
            if (world_save_version(record_dir, st.value) != ST_OK) return false;
            state[CHUNKS] = st.value;
        } else {
            st.chunk = (int)((rng >> 8) % CHUNKS);
            bool remove = state[st.chunk] > 0 && (rng >> 16) % 11 == 0;
            if (!region) {
                if (region_open(path, 0, 0, REGION_OPEN_CREATE, &region) != ST_OK) return false;
                region_set_compact_min_bytes(region, 24 << 10);
            }
            if (remove) {
                st.value = 0;
                if (region_delete_chunk(region, chunk_x[st.chunk], chunk_z[st.chunk]) != ST_OK) return false;
            } else {
                /* Versions count per chunk; they fit the payload's version byte. */
                int v = 1;
                for (int p = 0; p < s; p++)
                    if (!steps[p].world && steps[p].chunk == st.chunk && steps[p].value >= v) v = steps[p].value + 1;
                st.value = v;
                size_t size = payload_make(st.chunk, v, payload);
                if (region_write_chunk(region, chunk_x[st.chunk], chunk_z[st.chunk], payload, size) != ST_OK)
                    return false;
            }
            state[st.chunk] = st.value;
        }
        steps[s] = st;
        step_count = s + 1;
    }
    recording = false;
    memcpy(state_before[step_count], state, sizeof state);
    RegionInfo info;
    region_get_info(region, &info);
    printf("scenario: %d steps, %d operations, %ld compactions\n", step_count, op_count, info.compactions);
    region_close(region);
    return info.compactions > 0;
}

/* ---- crash images ---- */

typedef struct Buf { uint8_t *data; size_t size, capacity; } Buf;
typedef struct Name { char name[64]; int inode; } Name;

static void buf_write(Buf *b, uint64_t offset, const uint8_t *data, size_t size)
{
    size_t end = (size_t)offset + size;
    if (end > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < end) cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data) abort();
        memset(b->data + b->capacity, 0, cap - b->capacity);
        b->capacity = cap;
    }
    memcpy(b->data + offset, data, size);
    if (end > b->size) b->size = end;
}

static int name_find(const Name *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i].name, name) == 0) return i;
    return -1;
}

static void ns_apply(Name *names, int *count, const Op *op)
{
    int at;
    switch (op->kind) {
    case OP_CREATE:
        snprintf(names[*count].name, 64, "%s", op->name);
        names[(*count)++].inode = op->inode;
        break;
    case OP_RENAME:
        at = name_find(names, *count, op->name);
        if (at < 0) break;
        {
            int old = name_find(names, *count, op->to);
            int inode = names[at].inode;
            if (old >= 0) names[old] = names[--*count];
            at = name_find(names, *count, op->name);
            snprintf(names[at].name, 64, "%s", op->to);
            names[at].inode = inode;
        }
        break;
    case OP_UNLINK:
        at = name_find(names, *count, op->name);
        if (at >= 0) names[at] = names[--*count];
        break;
    default:
        break;
    }
}

static uint64_t rng_state;
static uint64_t rnd(void) { return rng_state = mix(rng_state + 0x9e3779b97f4a7c15ull); }

/* Builds the crash image of the first `cut` operations in `dir` (variant 0: nothing unsynced survives,
 * 1: everything but a torn last write, 2: random pages and a random prefix of folder changes). */
static void image_build(const char *dir, int cut, int variant)
{
    static Buf durable[MAX_INODES];
    static int pending[MAX_INODES][MAX_OPS / 4];
    static int pending_count[MAX_INODES];
    static int ns_pending[MAX_OPS];
    static Name names[MAX_INODES];
    int name_count = 0, ns_pending_count = 0;
    for (int i = 0; i < MAX_INODES; i++) {
        durable[i].size = 0;
        if (durable[i].data) memset(durable[i].data, 0, durable[i].capacity);
        pending_count[i] = 0;
    }
    rng_state = (uint64_t)cut * 3 + (uint64_t)variant + 1;
    for (int i = 0; i < cut; i++) {
        const Op *op = &ops[i];
        switch (op->kind) {
        case OP_CREATE: case OP_RENAME: case OP_UNLINK:
            ns_pending[ns_pending_count++] = i;
            break;
        case OP_WRITE:
            pending[op->inode][pending_count[op->inode]++] = i;
            break;
        case OP_SYNC:
            for (int p = 0; p < pending_count[op->inode]; p++) {
                const Op *w = &ops[pending[op->inode][p]];
                buf_write(&durable[op->inode], w->offset, w->data, w->size);
            }
            pending_count[op->inode] = 0;
            break;
        case OP_DIRSYNC:
            for (int p = 0; p < ns_pending_count; p++) ns_apply(names, &name_count, &ops[ns_pending[p]]);
            ns_pending_count = 0;
            break;
        }
    }
    /* What the power cut leaves of the unsynced state. */
    int ns_keep = variant == 0 ? 0 : variant == 1 ? ns_pending_count : (int)(rnd() % (uint64_t)(ns_pending_count + 1));
    for (int p = 0; p < ns_keep; p++) ns_apply(names, &name_count, &ops[ns_pending[p]]);
    for (int inode = 0; inode < inode_count; inode++) {
        for (int p = 0; p < pending_count[inode]; p++) {
            const Op *w = &ops[pending[inode][p]];
            if (variant == 1) {
                size_t size = p == pending_count[inode] - 1 ? (size_t)(rnd() % (w->size + 1)) : w->size;
                buf_write(&durable[inode], w->offset, w->data, size);
            } else if (variant == 2) {
                for (size_t at = 0; at < w->size; at += REGION_PAGE) {
                    size_t n = w->size - at < REGION_PAGE ? w->size - at : REGION_PAGE;
                    if (rnd() % 2) buf_write(&durable[inode], w->offset + at, w->data + at, n);
                }
            }
        }
    }
    for (int i = 0; i < name_count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%.63s", dir, names[i].name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) abort();
        const Buf *b = &durable[names[i].inode];
        if (b->size && write(fd, b->data, b->size) != (ssize_t)b->size) abort();
        close(fd);
    }
}

static void dir_clear(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

/* The version chunk i reads back as (0: absent), or -1 when it does not read back intact. */
static int chunk_version(RegionFile *region, int i)
{
    const uint8_t *payload;
    size_t size;
    StResult rc = region_read_chunk(region, chunk_x[i], chunk_z[i], &payload, &size);
    if (rc == ST_ERR_NOT_FOUND) return 0;
    if (rc != ST_OK || size < 2 || payload[0] != i || payload[1] == 0) return -1;
    static uint8_t expect[10000];
    size_t want = payload_make(i, payload[1], expect);
    if (want != size || memcmp(expect, payload, size) != 0) return -1;
    return payload[1];
}

/* The step in progress at the cut may have left its old or its new version; a finished step only its new. */
static bool cut_complete;

static bool version_ok(int version, int step, int i)
{
    return (!cut_complete && version == state_before[step][i]) || version == state_before[step + 1][i];
}

static int failures;

static void image_fail(int cut, int variant, const char *what, int i, int got, int step)
{
    if (++failures <= 10)
        fprintf(stderr, "cut %d (variant %d, step %d): %s %d read back as %d, expected %d or %d\n", cut, variant, step,
                what, i, got, state_before[step][i], state_before[step + 1][i]);
}

static void image_check(const char *dir, int cut, int variant)
{
    int step = cut > 0 ? ops[cut - 1].step : 0;
    cut_complete = cut > 0 && (cut == op_count || ops[cut].step != step);
    /* world.json */
    WorldMeta meta;
    StResult rc = world_meta_load(dir, &meta);
    int world = rc == ST_OK ? (int)meta.game_time : rc == ST_ERR_NOT_FOUND ? 0 : -1;
    if (!version_ok(world, step, CHUNKS)) image_fail(cut, variant, "world.json", CHUNKS, world, step);
    CHECK(version_ok(world, step, CHUNKS));

    char path[512];
    snprintf(path, sizeof path, "%s/Region 0,0.dat", dir);
    RegionFile *region = NULL;
    rc = region_open(path, 0, 0, REGION_OPEN_READ, &region);
    int seen[CHUNKS];
    for (int i = 0; i < CHUNKS; i++) {
        seen[i] = rc == ST_OK ? chunk_version(region, i) : rc == ST_ERR_NOT_FOUND ? 0 : -1;
        if (!version_ok(seen[i], step, i)) image_fail(cut, variant, "chunk", i, seen[i], step);
        CHECK(version_ok(seen[i], step, i));
    }
    region_close(region);
    if (rc != ST_OK) return;

    /* Writable: the repair (if any) keeps every chunk as read, and a new write loses nothing. */
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_WRITE, &region), ST_OK);
    if (!region) return;
    for (int i = 0; i < CHUNKS; i++) CHECK_EQ_INT(chunk_version(region, i), seen[i]);
    int target = cut % CHUNKS;
    uint8_t payload[10000];
    size_t size = payload_make(target, 200, payload);
    CHECK_EQ_INT(region_write_chunk(region, chunk_x[target], chunk_z[target], payload, size), ST_OK);
    region_close(region);
    CHECK_EQ_INT(region_open(path, 0, 0, REGION_OPEN_READ, &region), ST_OK);
    if (!region) return;
    for (int i = 0; i < CHUNKS; i++) CHECK_EQ_INT(chunk_version(region, i), i == target ? 200 : seen[i]);
    region_close(region);
}

int main(int argc, char **argv)
{
    int wanted = argc > 1 ? atoi(argv[1]) : 100;
    log_set_level(LOG_WARN);
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(record_dir, sizeof record_dir, "%s/strata-power-XXXXXX", base);
    char image_dir[256];
    snprintf(image_dir, sizeof image_dir, "%s/strata-power-image-XXXXXX", base);
    if (!mkdtemp(record_dir) || !mkdtemp(image_dir)) {
        perror("mkdtemp");
        return 1;
    }
    bool ran = run_scenario(wanted);
    CHECK(ran);   /* every step succeeded and the scenario compacted at least once */
    log_set_level(LOG_SILENT);
    int images = 0;
    for (int cut = 0; cut <= op_count; cut++) {
        for (int variant = 0; variant < 3; variant++) {
            dir_clear(image_dir);
            image_build(image_dir, cut, variant);
            image_check(image_dir, cut, variant);
            images++;
        }
    }
    printf("power loss: %d cut points, %d crash images checked, %d failures\n", op_count + 1, images, failures);
    dir_clear(image_dir);
    dir_clear(record_dir);
    rmdir(image_dir);
    rmdir(record_dir);
    for (int i = 0; i < op_count; i++) free(ops[i].data);
    CHECK_EQ_INT(failures, 0);
    return check_report();
}
