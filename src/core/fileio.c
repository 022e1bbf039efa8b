/* fileio.c — whole-file reads, crash-safe writes, mkdir -p.
 *
 * Design: POSIX calls only (open/read/write/fsync/rename), so every failure has an errno that goes
 * into the message next to the path. fileio_write_atomic writes "<path>.tmp" in the same folder (a
 * rename is only atomic within one file system), fsyncs the data, renames it over the target and then
 * fsyncs the folder so the rename itself is durable: after a crash the reader sees the old file or the
 * new one, never a mix. A failed write removes its tmp file and leaves the target untouched. The tmp file is
 * created with O_EXCL|O_NOFOLLOW (a leftover or a planted symlink is unlinked first, never followed).
 * read_all does not trust st_size alone (pipes and /proc report 0): it reads until EOF, growing the
 * buffer. pread_all (both region readers) retries short reads. All functions are reentrant; EINTR is retried. */
#define _GNU_SOURCE
#include "strata/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ---- */

StResult fileio_read_all(const char *path, char **data, size_t *size)
{
    if (!path || !data) return st_fail(ST_ERR_ARG, "fileio_read_all: NULL path or output");
    *data = NULL;
    if (size) *size = 0;

    int fd;
    do fd = open(path, O_RDONLY | O_CLOEXEC); while (fd < 0 && errno == EINTR);
    if (fd < 0) return st_fail(ST_ERR_IO, "open %s: %s", path, strerror(errno));

    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return st_fail(ST_ERR_IO, "stat %s: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return st_fail(ST_ERR_IO, "read %s: %s", path, strerror(EISDIR));
    }

    size_t cap = (st.st_size > 0 ? (size_t)st.st_size : 4096) + 1;
    size_t len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return st_fail(ST_ERR_NOMEM, "read %s: out of memory for %zu bytes", path, cap);
    }
    for (;;) {
        if (len + 1 >= cap) {
            size_t ncap = cap * 2;
            char *nbuf = realloc(buf, ncap);
            if (!nbuf) {
                free(buf);
                close(fd);
                return st_fail(ST_ERR_NOMEM, "read %s: out of memory for %zu bytes", path, ncap);
            }
            buf = nbuf;
            cap = ncap;
        }
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            close(fd);
            return st_fail(ST_ERR_IO, "read %s: %s", path, strerror(e));
        }
        if (n == 0) break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = 0;
    *data = buf;
    if (size) *size = len;
    return ST_OK;
}

/* ---- writing ---- */

static StResult write_fully(int fd, const char *path, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return st_fail(ST_ERR_IO, "write %s: %s", path, strerror(errno));
        }
        p += n;
        size -= (size_t)n;
    }
    return ST_OK;
}

/* The folder part of `path` ("." when there is none), into out. */
static void folder_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(out, size, ".");
    } else if (slash == path) {
        snprintf(out, size, "/");
    } else {
        snprintf(out, size, "%.*s", (int)(slash - path), path);
    }
}

StResult fileio_create_exclusive(const char *path, int *fd_out)
{
    *fd_out = -1;
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd;
        do fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644); while (fd < 0 && errno == EINTR);
        if (fd >= 0) {
            *fd_out = fd;
            return ST_OK;
        }
        /* A leftover (or a planted symlink): unlink removes the name itself, never what a link points to. */
        if (errno != EEXIST || attempt > 0 || unlink(path) != 0) break;
    }
    return st_fail(ST_ERR_IO, "create %s: %s", path, strerror(errno));
}

StResult fileio_write_atomic(const char *path, const void *data, size_t size)
{
    if (!path || (!data && size > 0)) return st_fail(ST_ERR_ARG, "fileio_write_atomic: NULL path or data");
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return st_fail(ST_ERR_ARG, "write %s: path too long", path);

    int fd;
    StResult created = fileio_create_exclusive(tmp, &fd);
    if (created != ST_OK) return created;

    StResult rc = write_fully(fd, tmp, data, size);
    if (rc == ST_OK && fsync(fd) != 0) rc = st_fail(ST_ERR_IO, "fsync %s: %s", tmp, strerror(errno));
    if (close(fd) != 0 && rc == ST_OK) rc = st_fail(ST_ERR_IO, "close %s: %s", tmp, strerror(errno));
    if (rc == ST_OK && rename(tmp, path) != 0)
        rc = st_fail(ST_ERR_IO, "rename %s to %s: %s", tmp, path, strerror(errno));
    if (rc != ST_OK) {
        unlink(tmp);
        return rc;
    }
    char dir[PATH_MAX];
    folder_of(path, dir, sizeof dir);
    return fileio_sync_dir(dir);
}

/* ---- folders ---- */

StResult fileio_make_dirs(const char *path)
{
    if (!path || !path[0]) return st_fail(ST_ERR_ARG, "make_dirs: empty path");
    char buf[PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof buf) return st_fail(ST_ERR_ARG, "make_dirs %s: path too long", path);
    memcpy(buf, path, len + 1);

    /* Create each prefix that ends before a '/', then the whole path. */
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != 0) continue;
        if (buf[i - 1] == '/') continue; /* "a//b" or a trailing slash */
        char saved = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0755) != 0) {
            int e = errno;
            if (!fileio_is_dir(buf)) {
                if (e == EEXIST)
                    return st_fail(ST_ERR_IO, "mkdir %s (making %s): exists and is not a folder", buf, path);
                return st_fail(ST_ERR_IO, "mkdir %s (making %s): %s", buf, path, strerror(e));
            }
        }
        buf[i] = saved;
    }
    return ST_OK;
}

bool fileio_exists(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0;
}

bool fileio_is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

StResult fileio_sync_dir(const char *dir)
{
    if (!dir) return st_fail(ST_ERR_ARG, "sync_dir: NULL path");
    int fd;
    do fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); while (fd < 0 && errno == EINTR);
    if (fd < 0) return st_fail(ST_ERR_IO, "open folder %s: %s", dir, strerror(errno));
    StResult rc = ST_OK;
    /* Some file systems refuse fsync on a folder (EINVAL); the rename is then as durable as it gets. */
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        rc = st_fail(ST_ERR_IO, "fsync folder %s: %s", dir, strerror(errno));
    close(fd);
    return rc;
}

StResult fileio_pread_all(int fd, const char *path, void *data, size_t size, uint64_t offset, size_t *got)
{
    uint8_t *bytes = data;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(fd, bytes + done, size - done, (off_t)(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return st_fail(ST_ERR_IO, "%s: read of %zu bytes at offset %llu: %s", path, size,
                           (unsigned long long)offset, strerror(errno));
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    *got = done;
    return ST_OK;
}
