/* test_fileio.c — round trips, atomic overwrite, mkdir -p, and error messages that name the path. */
#define _GNU_SOURCE
#include "check.h"
#include "strata/fileio.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void path_in(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", root, name);
}

static void test_round_trip(void)
{
    char p[512];
    path_in(p, sizeof p, "round.bin");
    unsigned char blob[70000];
    for (size_t i = 0; i < sizeof blob; i++) blob[i] = (unsigned char)(i * 131u + (i >> 8));
    CHECK_EQ_INT(fileio_write_atomic(p, blob, sizeof blob), ST_OK);
    CHECK(fileio_exists(p));
    CHECK(!fileio_is_dir(p));
    char *data = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fileio_read_all(p, &data, &size), ST_OK);
    CHECK_EQ_INT(size, sizeof blob);
    CHECK(data && memcmp(data, blob, sizeof blob) == 0);
    CHECK(data && data[size] == 0);
    free(data);

    /* The tmp file is gone after a successful write. */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    CHECK(!fileio_exists(tmp));

    /* Empty files read back as "" with size 0. */
    path_in(p, sizeof p, "empty.txt");
    CHECK_EQ_INT(fileio_write_atomic(p, NULL, 0), ST_OK);
    CHECK_EQ_INT(fileio_read_all(p, &data, &size), ST_OK);
    CHECK_EQ_INT(size, 0);
    CHECK(data && data[0] == 0);
    free(data);
}

static void test_atomic_overwrite(void)
{
    char p[512];
    path_in(p, sizeof p, "over.txt");
    CHECK_EQ_INT(fileio_write_atomic(p, "first version", 13), ST_OK);
    CHECK_EQ_INT(fileio_write_atomic(p, "second", 6), ST_OK);
    char *data = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fileio_read_all(p, &data, &size), ST_OK);
    CHECK_EQ_INT(size, 6);
    CHECK(data && strcmp(data, "second") == 0);
    free(data);

    /* A failing write (its tmp path is blocked by a folder) leaves the old content in place. */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    CHECK_EQ_INT(fileio_make_dirs(tmp), ST_OK);
    StResult rc = fileio_write_atomic(p, "third", 5);
    CHECK_EQ_INT(rc, ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "over.txt.tmp");
    CHECK_EQ_INT(fileio_read_all(p, &data, &size), ST_OK);
    CHECK(data && strcmp(data, "second") == 0);
    free(data);
    rmdir(tmp);
}

static void test_make_dirs(void)
{
    char p[512];
    path_in(p, sizeof p, "a/b//c/d/");
    CHECK_EQ_INT(fileio_make_dirs(p), ST_OK);
    path_in(p, sizeof p, "a/b/c/d");
    CHECK(fileio_is_dir(p));
    CHECK(fileio_exists(p));
    CHECK_EQ_INT(fileio_make_dirs(p), ST_OK); /* existing is fine */
    CHECK_EQ_INT(fileio_sync_dir(p), ST_OK);

    /* A file in the way is an error naming it. */
    char f[512];
    path_in(f, sizeof f, "a/file");
    CHECK_EQ_INT(fileio_write_atomic(f, "x", 1), ST_OK);
    path_in(p, sizeof p, "a/file/sub");
    CHECK_EQ_INT(fileio_make_dirs(p), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "a/file");
    CHECK(!fileio_is_dir(p));
    CHECK_EQ_INT(fileio_make_dirs(""), ST_ERR_ARG);
}

static void test_errors(void)
{
    char p[512];
    path_in(p, sizeof p, "no/such/file.json");
    char *data = (char *)1;
    size_t size = 99;
    CHECK_EQ_INT(fileio_read_all(p, &data, &size), ST_ERR_IO);
    CHECK(data == NULL);
    CHECK_EQ_INT(size, 0);
    CHECK_STR_CONTAINS(st_error_message(), p);
    CHECK_STR_CONTAINS(st_error_message(), "No such file");
    CHECK(!fileio_exists(p));
    CHECK(!fileio_is_dir(p));

    /* Writing into a missing folder fails and names the path. */
    CHECK_EQ_INT(fileio_write_atomic(p, "x", 1), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "no/such/file.json");

    /* Reading a folder is an error, not an empty file. */
    CHECK_EQ_INT(fileio_read_all(root, &data, &size), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), root);
    CHECK_EQ_INT(fileio_sync_dir(p), ST_ERR_IO);
}

static void remove_tree(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

/* A symlink planted at "<path>.tmp" is never followed: the file it points to keeps its bytes. */
static void test_tmp_symlink(void)
{
    char victim[400], target[400], tmp[420];
    snprintf(victim, sizeof victim, "%s/victim.txt", root);
    snprintf(target, sizeof target, "%s/world.json", root);
    snprintf(tmp, sizeof tmp, "%s.tmp", target);
    CHECK_EQ_INT(fileio_write_atomic(victim, "precious", 8), ST_OK);
    CHECK_EQ_INT(symlink(victim, tmp), 0);
    CHECK_EQ_INT(fileio_write_atomic(target, "{}", 2), ST_OK);
    char *data = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fileio_read_all(victim, &data, &size), ST_OK);
    CHECK(data && size == 8 && memcmp(data, "precious", 8) == 0);
    free(data);
    CHECK_EQ_INT(fileio_read_all(target, &data, &size), ST_OK);
    CHECK(data && size == 2);
    free(data);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/strata_test_fileio_XXXXXX");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    RUN(test_round_trip);
    RUN(test_atomic_overwrite);
    RUN(test_make_dirs);
    RUN(test_errors);
    RUN(test_tmp_symlink);
    remove_tree();
    return check_report();
}
