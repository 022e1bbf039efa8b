/* fileio.h — file helpers: read a whole file, write a file atomically, make folders.
 *
 * fileio_write_atomic writes `path.tmp`, fsyncs it, renames it over `path` and fsyncs the folder, so a
 * crash leaves either the old or the new file, never a torn one. Errors are ST_ERR_IO with the path and
 * strerror. Thread safety: all functions are reentrant. */
#ifndef STRATA_FILEIO_H
#define STRATA_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/error.h"

/* Reads the whole file into a NUL-terminated malloc'd buffer (*size excludes the NUL). Caller frees. */
StResult fileio_read_all(const char *path, char **data, size_t *size);
/* Creates `path` for writing (0644) with O_CREAT|O_EXCL|O_NOFOLLOW: a file or symlink already there is
 * unlinked (never followed) and the create retried once. *fd gets the descriptor (caller closes). ST_ERR_IO. */
StResult fileio_create_exclusive(const char *path, int *fd);
StResult fileio_write_atomic(const char *path, const void *data, size_t size);
/* Creates the folder and its parents (like mkdir -p). Existing folders are fine. */
StResult fileio_make_dirs(const char *path);
bool fileio_exists(const char *path);
bool fileio_is_dir(const char *path);
/* fsync of a folder (after a rename in it). */
StResult fileio_sync_dir(const char *dir);
/* Reads up to `size` bytes at `offset` of an open file, retrying short reads and EINTR; *got < size means the
 * file ended first (not an error). ST_ERR_IO names `path`, the size and the offset. */
StResult fileio_pread_all(int fd, const char *path, void *data, size_t size, uint64_t offset, size_t *got);

#endif
