/* test_util.h — file helpers shared by the tests that write worlds and region files: a private temporary
 * folder, its recursive removal, and flipping a byte to simulate damage on disk.
 *
 * Header-only (static functions); a test includes it after defining _GNU_SOURCE (for nftw and mkdtemp).
 * Ownership: the folder name is written into the caller's buffer; the caller removes the folder.
 * Threads: main thread of a test only. */
#ifndef STRATA_TEST_UTIL_H
#define STRATA_TEST_UTIL_H

#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Creates $TMPDIR/strata-<name>-XXXXXX (TMPDIR defaults to /tmp) and writes its path into out. False (with
 * a perror message) if it could not be made. */
static inline bool test_make_temp_dir(const char *name, char *out, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, size, "%s/strata-%s-XXXXXX", tmp ? tmp : "/tmp", name);
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        return false;
    }
    return true;
}

static inline int test_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

/* Removes `dir` and everything under it (symlinks are removed, not followed). 0 on success. */
static inline int test_remove_tree(const char *dir)
{
    return nftw(dir, test_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* XORs the byte at `offset` of the file with `mask` (damage on disk); a missing file is a no-op. */
static inline void test_flip_byte(const char *path, long offset, int mask)
{
    FILE *f = fopen(path, "r+b");
    if (!f) return;
    fseek(f, offset, SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc((c ^ mask) & 0xFF, f);
    fclose(f);
}

#endif
