/* test_model_cache_e2e.c — the real game, headless, with a station voxelized from a model through the world's cache.
 *
 * Usage: test_model_cache_e2e STRATA_EXECUTABLE SOURCE_DIR (ctest; SDL_VIDEODRIVER=offscreen).
 * A mod assets folder (the shipped assets linked in, its own stations.json naming bank.glb, copied beside it)
 * plays `station bank` in a flat world:
 * - run 1 (--new): the bank is placed at the model's size (11 x 10 x 10) and <world>/models/<key>.json appears,
 *   logged as "voxelized into the cache";
 * - run 2 (the same world): the cache is read (logged "read from the cache"), the file untouched (same mtime
 *   and bytes);
 * - run 3: the cache deleted, it is rebuilt byte-identical; run 4: a truncated cache file and run 5: one that
 *   is JSON but no template are each rebuilt byte-identical with a warning, the game still places the bank;
 * - run 6: bank.glb replaced by another model: a new key (a second file beside the first);
 * - run 7: --no-save without a world: the cache goes to $XDG_CACHE_HOME/strata/models; run 8: --no-save --world
 *   (read-only) reads that cache and writes nothing beside the world.
 * Returns 77 (skip) when the game cannot get a GL context. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "test_run.h"

static const char *strata, *source_dir;
static char tmp[256], mod[300], world[300], models[320], xdg[300];
static char out_text[65536];

static int run_cmd(const char *const *argv_in)
{
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/out.txt", tmp);
    const char *env[] = {"XDG_CACHE_HOME", xdg, NULL};
    return test_run_capture((char *const *)argv_in, out_path, out_text, sizeof out_text, env);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)len + 1);
    *n = data ? fread(data, 1, (size_t)len, f) : 0;
    fclose(f);
    return data;
}

static int copy_file(const char *from, const char *to)
{
    size_t n;
    char *data = read_file(from, &n);
    FILE *f = data ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f) fclose(f);
    free(data);
    return ok ? 0 : -1;
}

/* The mod: every entry of the shipped assets linked in, but its own stations.json and bank.glb. */
static int make_mod(void)
{
    snprintf(mod, sizeof mod, "%s/mod", tmp);
    if (mkdir(mod, 0755) != 0) return -1;
    DIR *d = opendir(STRATA_ASSET_DIR);
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "stations.json")) continue;
        char from[600], to[600];
        snprintf(from, sizeof from, "%s/%s", STRATA_ASSET_DIR, e->d_name);
        snprintf(to, sizeof to, "%s/%s", mod, e->d_name);
        if (symlink(from, to) != 0) {
            closedir(d);
            return -1;
        }
    }
    closedir(d);
    char from[600], to[600];
    snprintf(from, sizeof from, "%s/examples/seeds/bank.glb", source_dir);
    snprintf(to, sizeof to, "%s/bank.glb", mod);
    if (copy_file(from, to) != 0) return -1;
    snprintf(to, sizeof to, "%s/stations.json", mod);
    write_file(to, "{\"stations\": [{\"type\": \"bank\", \"model\": \"bank.glb\", \"scale\": 1.0,\n"
                   "  \"examine\": \"A bank voxelized from bank.glb.\"}]}\n");
    return 0;
}

/* Plays `station bank`; returns the game's exit status (77: no GL). */
static int play(bool new_world, bool no_save)
{
    char s[300];
    snprintf(s, sizeof s, "%s/bank.script", tmp);
    write_file(s, "wait_ready\nlook 0 -35\nstation bank\nquit\n");
    const char *argv_new[] = {strata, "--assets", mod, "--world", world, "--new", "--flat", "--seed", "7",
                              "--view-distance", "2", "--width", "320", "--height", "200", "--far-distance", "0",
                              "--script", s, NULL};
    const char *argv_old[] = {strata, "--assets", mod, "--world", world, "--view-distance", "2", "--width", "320",
                              "--height", "200", "--far-distance", "0", "--script", s, NULL};
    const char *argv_nosave[] = {strata, "--assets", mod, "--no-save", "--flat", "--seed", "7", "--view-distance",
                                 "2", "--width", "320", "--height", "200", "--far-distance", "0", "--script", s, NULL};
    int rc = run_cmd(no_save ? argv_nosave : new_world ? argv_new : argv_old);
    if (rc == 1 && (strstr(out_text, "cannot create an OpenGL") || strstr(out_text, "cannot initialise SDL video") ||
                    strstr(out_text, "cannot create the window"))) {
        fprintf(stderr, "skip: no GL context here:\n%s\n", out_text);
        return 77;
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_STR_CONTAINS(out_text, "station bank at ");
    CHECK_STR_CONTAINS(out_text, "size 11 10 10");
    if (rc != 0 || !strstr(out_text, "size 11 10 10")) fprintf(stderr, "strata output:\n%s\n", out_text);
    return rc;
}

/* The only .json file in `dir` (its path into `out`); the number of .json files there. */
static int cache_files(const char *dir, char *out, size_t n)
{
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        if (count++ == 0 && out) snprintf(out, n, "%s/%s", dir, e->d_name);
    }
    if (d) closedir(d);
    return count;
}

static bool same_bytes(const char *path, const char *want, size_t want_n)
{
    size_t n = 0;
    char *data = read_file(path, &n);
    bool same = data && n == want_n && memcmp(data, want, n) == 0;
    free(data);
    return same;
}

/* Runs 3-5: the cache file `file` removed or spoiled with `bad`, the game rebuilds it as it was. */
static void rebuilt_from(const char *file, const char *bad, const char *orig, size_t orig_n)
{
    if (bad) write_file(file, bad);
    else CHECK_EQ_INT(unlink(file), 0);
    if (play(false, false) != 0) return;
    CHECK_STR_CONTAINS(out_text, "voxelized into the cache");
    if (bad) CHECK_STR_CONTAINS(out_text, "a bad cache file");
    CHECK(strstr(out_text, "read from the cache") == NULL);
    CHECK(same_bytes(file, orig, orig_n));
}

static int test_cache(void)
{
    snprintf(world, sizeof world, "%s/w", tmp);
    snprintf(models, sizeof models, "%s/models", world);
    int rc = play(true, false);
    if (rc) return rc == 77 ? 77 : 1;
    char file[600];
    CHECK_EQ_INT(cache_files(models, file, sizeof file), 1);
    CHECK_STR_CONTAINS(out_text, "voxelized into the cache");
    CHECK_STR_CONTAINS(out_text, file);
    struct stat st1, st2;
    if (stat(file, &st1) != 0) return 1;
    size_t orig_n = 0;
    char *orig = read_file(file, &orig_n);
    CHECK(orig && strstr(orig, "\"layers\"") != NULL);
    sleep(1);   /* a rewrite would show in the seconds of the mtime too */

    if (play(false, false) != 0) return 1;
    CHECK_STR_CONTAINS(out_text, "read from the cache");
    CHECK(strstr(out_text, "voxelized into the cache") == NULL);
    CHECK(stat(file, &st2) == 0 && st2.st_mtim.tv_sec == st1.st_mtim.tv_sec &&
          st2.st_mtim.tv_nsec == st1.st_mtim.tv_nsec && st2.st_ino == st1.st_ino);
    CHECK(same_bytes(file, orig, orig_n));

    rebuilt_from(file, NULL, orig, orig_n);
    char truncated[64];
    snprintf(truncated, sizeof truncated, "%.40s", orig ? orig : "");
    rebuilt_from(file, truncated, orig, orig_n);
    rebuilt_from(file, "{\"hello\": [1, 2, 3]}\n", orig, orig_n);
    CHECK_EQ_INT(cache_files(models, NULL, 0), 1);

    /* another model under the same name: a new key, the old file stays */
    char from[600], to[600];
    snprintf(from, sizeof from, "%s/examples/seeds/house.glb", source_dir);
    snprintf(to, sizeof to, "%s/bank.glb", mod);
    CHECK_EQ_INT(copy_file(from, to), 0);
    CHECK_EQ_INT(run_cmd((const char *[]){strata, "--assets", mod, "--world", world, "--view-distance", "2",
                                          "--width", "320", "--height", "200", "--far-distance", "0", "--frames",
                                          "1", NULL}), 0);
    CHECK_STR_CONTAINS(out_text, "voxelized into the cache");
    CHECK_EQ_INT(cache_files(models, NULL, 0), 2);
    CHECK(same_bytes(file, orig, orig_n));
    snprintf(from, sizeof from, "%s/examples/seeds/bank.glb", source_dir);
    CHECK_EQ_INT(copy_file(from, to), 0);
    free(orig);
    return 0;
}

/* Without a world folder the user's cache stands in, and nothing beside a world is made. */
static void test_no_world(void)
{
    char dir[400];
    snprintf(dir, sizeof dir, "%s/strata/models", xdg);
    CHECK_EQ_INT(cache_files(dir, NULL, 0), 0);
    if (play(false, true) != 0) return;
    CHECK_EQ_INT(cache_files(dir, NULL, 0), 1);
    CHECK_STR_CONTAINS(out_text, "voxelized into the cache");
    CHECK_STR_CONTAINS(out_text, dir);
    /* a world opened read-only (--no-save --world) is not written into: the user's cache answers */
    CHECK_EQ_INT(run_cmd((const char *[]){strata, "--assets", mod, "--no-save", "--world", world, "--view-distance",
                                          "2", "--width", "320", "--height", "200", "--far-distance", "0",
                                          "--frames", "1", NULL}), 0);
    CHECK_STR_CONTAINS(out_text, "read from the cache");
    CHECK_STR_CONTAINS(out_text, dir);
    CHECK_EQ_INT(cache_files(models, NULL, 0), 2);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_model_cache_e2e STRATA_EXECUTABLE SOURCE_DIR\n");
        return 2;
    }
    strata = argv[1];
    source_dir = argv[2];
    snprintf(tmp, sizeof tmp, "/tmp/strata_model_cache_XXXXXX");
    if (!mkdtemp(tmp)) return 1;
    snprintf(xdg, sizeof xdg, "%s/xdg-cache", tmp);
    int rc = make_mod();
    CHECK_EQ_INT(rc, 0);
    if (rc == 0) {
        rc = test_cache();
        if (rc == 0) test_no_world();
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    if (rc == 77) return 77;
    return check_report();
}
