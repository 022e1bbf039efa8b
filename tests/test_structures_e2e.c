/* test_structures_e2e.c — the real game, headless, with structures: goto_structure and station.
 *
 * Usage: test_structures_e2e STRATA_EXECUTABLE STRATA_WORLD_EXECUTABLE (ctest; SDL_VIDEODRIVER=offscreen).
 * - Script errors before any window: an unknown station type and a bad goto_structure argument exit 2 naming
 *   FILE:LINE.
 * - World A (seed 1): goto_structure settlement, wait_ready, look ahead, station bank, save. The logged
 *   template origin is exported with strata-world export-template: every cell the bank template sets holds
 *   the template's block.
 * - World B: the same, then undo before saving. A box around the station (template plus the flattened ring)
 *   exported from B equals the same box of a world with B's world.json and no stored chunk (the generated
 *   terrain): the undo restored every cell. goto_structure dungeon lands within a few blocks of the listed
 *   entrance. Returns 77 (skip) when the game cannot get a GL context. */
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
#include "strata/block.h"
#include "strata/voxel_template.h"

static const char *strata, *strata_world;
static char tmp[256];
static char out_text[65536];

static int run_cmd(const char *const *argv_in)
{
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/out.txt", tmp);
    return test_run_capture((char *const *)argv_in, out_path, out_text, sizeof out_text, NULL);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void test_script_errors(void)
{
    char s[300];
    snprintf(s, sizeof s, "%s/bad.script", tmp);
    write_file(s, "wait_ready\nstation castle_of_doom\n");
    int rc = run_cmd((const char *[]){strata, "--no-save", "--script", s, NULL});
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out_text, "bad.script:2: station: unknown station type 'castle_of_doom'");
    write_file(s, "goto_structure castle\n");
    rc = run_cmd((const char *[]){strata, "--no-save", "--script", s, NULL});
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out_text, "bad.script:1: goto_structure: expected settlement or dungeon");
}

/* Plays the station script in a new world; returns 0, 77 (no GL) or 1; *origin gets the logged template origin. */
static int station_run(const char *world, bool undo, int origin[3], int size[3])
{
    char s[300], text[600];
    snprintf(s, sizeof s, "%s/station.script", tmp);
    snprintf(text, sizeof text,
             "time 0.5\ngoto_structure settlement\nwait_ready\nlook 45 -12\nstation bank\n%ssave\nquit\n",
             undo ? "undo\n" : "");
    write_file(s, text);
    int rc = run_cmd((const char *[]){strata, "--world", world, "--new", "--seed", "1", "--view-distance", "3",
                                      "--width", "320", "--height", "200", "--far-distance", "0", "--script", s, NULL});
    if (rc == 1 && (strstr(out_text, "cannot create an OpenGL") || strstr(out_text, "cannot initialise SDL video") ||
                    strstr(out_text, "cannot create the window"))) {
        fprintf(stderr, "skip: no GL context here:\n%s\n", out_text);
        return 77;
    }
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) fprintf(stderr, "strata output:\n%s\n", out_text);
    const char *at = strstr(out_text, "station bank at ");
    CHECK(at != NULL);
    if (rc != 0 || !at) return 1;
    CHECK_EQ_INT(sscanf(at, "station bank at %d %d %d size %d %d %d", &origin[0], &origin[1], &origin[2], &size[0],
                        &size[1], &size[2]), 6);
    return 0;
}

static StResult export_box(const char *world, const int lo[3], const int hi[3], const char *out,
                           const BlockRegistry *blocks, VoxelTemplate *t)
{
    char a[64], b[64];
    snprintf(a, sizeof a, "%d,%d,%d", lo[0], lo[1], lo[2]);
    snprintf(b, sizeof b, "%d,%d,%d", hi[0], hi[1], hi[2]);
    int rc = run_cmd((const char *[]){strata_world, "export-template", world, a, b, out, NULL});
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) fprintf(stderr, "strata-world output:\n%s\n", out_text);
    return voxel_template_load(out, blocks, t);
}

static int test_station(BlockRegistry *blocks)
{
    char wa[300], wb[300], wc[300], out[340], cmd[1200];
    snprintf(wa, sizeof wa, "%s/wA", tmp);
    snprintf(wb, sizeof wb, "%s/wB", tmp);
    snprintf(wc, sizeof wc, "%s/wC", tmp);
    int o[3], sz[3];
    int rc = station_run(wa, false, o, sz);
    if (rc) return rc;
    VoxelTemplate bank, got;
    memset(&got, 0, sizeof got);
    CHECK(voxel_template_load(STRATA_ASSET_DIR "/templates/stations/bank.json", blocks, &bank) == ST_OK);
    CHECK(sz[0] == bank.size[0] && sz[1] == bank.size[1] && sz[2] == bank.size[2]);
    int hi[3] = {o[0] + sz[0] - 1, o[1] + sz[1] - 1, o[2] + sz[2] - 1};
    snprintf(out, sizeof out, "%s/a.json", tmp);
    CHECK(export_box(wa, o, hi, out, blocks, &got) == ST_OK);
    int set = 0, wrong = 0;
    for (int y = 0; y < bank.size[1] && got.voxels; y++)
        for (int z = 0; z < bank.size[2]; z++)
            for (int x = 0; x < bank.size[0]; x++) {
                int want = voxel_template_get(&bank, x, y, z);
                if (want == VOXEL_TEMPLATE_KEEP) continue;
                set++;
                wrong += voxel_template_get(&got, x, y, z) != want;
            }
    fprintf(stderr, "station: %d template cells, %d differ\n", set, wrong);
    CHECK(set > 100);
    CHECK_EQ_INT(wrong, 0);
    voxel_template_free(&got);

    if ((rc = station_run(wb, true, o, sz)) != 0) goto done;
    CHECK_STR_CONTAINS(out_text, "undone");
    /* the same box in a world of B's settings with nothing stored: the generated terrain */
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s/world.json' '%s/'", wc, wb, wc);
    CHECK_EQ_INT(system(cmd), 0);
    int lo2[3] = {o[0] - 12, o[1] - 12, o[2] - 12}, hi2[3] = {o[0] + sz[0] + 12, o[1] + sz[1], o[2] + sz[2] + 12};
    VoxelTemplate eb, ec;
    memset(&eb, 0, sizeof eb);
    memset(&ec, 0, sizeof ec);
    snprintf(out, sizeof out, "%s/b.json", tmp);
    CHECK(export_box(wb, lo2, hi2, out, blocks, &eb) == ST_OK);
    snprintf(out, sizeof out, "%s/c.json", tmp);
    CHECK(export_box(wc, lo2, hi2, out, blocks, &ec) == ST_OK);
    if (eb.voxels && ec.voxels) {
        long n = (long)eb.size[0] * eb.size[1] * eb.size[2], diff = 0;
        for (long i = 0; i < n; i++) diff += eb.voxels[i] != ec.voxels[i];
        fprintf(stderr, "station undo: %ld of %ld cells differ from the generated terrain\n", diff, n);
        CHECK(diff == 0);
    }
    voxel_template_free(&eb);
    voxel_template_free(&ec);
done:
    voxel_template_free(&bank);
    return rc;
}

static void test_goto_dungeon(void)
{
    char s[300];
    snprintf(s, sizeof s, "%s/dungeon.script", tmp);
    write_file(s, "goto_structure dungeon\nwait_ready\nquit\n");
    int rc = run_cmd((const char *[]){strata, "--no-save", "--seed", "1", "--view-distance", "3", "--width", "320",
                                      "--height", "200", "--far-distance", "0", "--script", s, NULL});
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) fprintf(stderr, "strata output:\n%s\n", out_text);
    CHECK_STR_CONTAINS(out_text, "goto_structure dungeon: ");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_structures_e2e STRATA STRATA_WORLD\n");
        return 2;
    }
    strata = argv[1];
    strata_world = argv[2];
    snprintf(tmp, sizeof tmp, "/tmp/strata_se2e_XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char data_home[300];
    snprintf(data_home, sizeof data_home, "%s/data", tmp);
    setenv("XDG_DATA_HOME", data_home, 1);
    BlockRegistry *blocks = NULL;
    CHECK(block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) == ST_OK);
    RUN(test_script_errors);
    fprintf(stderr, "-- test_station\n");
    if (test_station(blocks) == 77) return 77;
    RUN(test_goto_dungeon);
    block_registry_destroy(blocks);
    int rc = check_report();
    if (rc == 0) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    } else {
        fprintf(stderr, "files kept in %s\n", tmp);
    }
    return rc;
}
