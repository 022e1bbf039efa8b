/* test_world_tool.c — strata-world against a real world folder: info prints the settings and counts,
 * verify exits 0 on a sound world and 1 listing each damaged chunk (file, chunk, offset) after a byte of a
 * record and a whole region directory are damaged, and 2 on a folder that is not a world.
 * Usage: test_world_tool PATH_TO_STRATA_WORLD */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "test_util.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/region.h"
#include "strata/serializer.h"

static char root[256], world[320], output[400];
static const char *tool;
static TerrainChunk chunk;

/* Runs the tool, returns its exit status; its stdout+stderr is left in a malloc'd string. */
static int run_tool(const char *command, const char *dir, char **text)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(output, "w", stdout)) _exit(126);
        dup2(fileno(stdout), 2);
        execl(tool, tool, command, dir, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    size_t size;
    *text = NULL;
    fileio_read_all(output, text, &size);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void save_chunk(const ChunkStorage *st, int cx, int cz)
{
    chunk_reset(&chunk, cx, cz);
    int32_t *cells = chunk_cell_view(&chunk).cells;
    for (int i = 0; i < CHUNK_CELLS; i++) cells[i] = (i & 255) < 60 + (cx & 7) ? cell_make(BLOCK_STONE, 0) : 0;
    chunk_set_cell(&chunk, 3, 61, 4, cell_make(BLOCK_BRICKS, 0));
    chunk.modification_counter = 1;
    CHECK_EQ_INT(st->save(st->user, &chunk), ST_OK);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_world_tool PATH_TO_STRATA_WORLD\n");
        return 2;
    }
    tool = argv[1];
    if (!test_make_temp_dir("world-tool", root, sizeof root)) return 1;
    snprintf(world, sizeof world, "%s/world", root);
    snprintf(output, sizeof output, "%s/out.txt", root);
    log_set_level(LOG_WARN);

    WorldMeta meta;
    memset(&meta, 0, sizeof meta);
    world_settings_default(&meta.settings);
    meta.settings.seed = 424242;
    snprintf(meta.generator_name, sizeof meta.generator_name, "gen24");
    meta.generator_version = 1;
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(world, true, &meta, NULL, &s), ST_OK);
    if (!s) return check_report();
    const ChunkStorage *st = serializer_chunk_storage(s);
    save_chunk(st, 3, -17);
    save_chunk(st, 4, -17);
    save_chunk(st, 20, 20);
    serializer_close(s);

    char *text = NULL;
    CHECK_EQ_INT(run_tool("info", world, &text), 0);
    CHECK_STR_CONTAINS(text, "seed: 424242");
    CHECK_STR_CONTAINS(text, "2 files, 3 stored chunks");
    free(text);
    CHECK_EQ_INT(run_tool("verify", world, &text), 0);
    CHECK_STR_CONTAINS(text, "3 chunks in 2 region files checked: all sound");
    free(text);

    char region[500];
    snprintf(region, sizeof region, "%s/Regions/Region 0,-2.dat", world);
    test_flip_byte(region, REGION_DATA_START + REGION_RECORD_HEADER + 10, 0x40);
    snprintf(region, sizeof region, "%s/Regions/Region 1,1.dat", world);
    test_flip_byte(region, 40, 0x40);
    test_flip_byte(region, REGION_PAGE + 40, 0x40);
    CHECK_EQ_INT(run_tool("verify", world, &text), 1);
    CHECK_STR_CONTAINS(text, "DAMAGED");
    CHECK_STR_CONTAINS(text, "Regions/Region 0,-2.dat: chunk 3,-17 at offset 8192: CRC mismatch");
    CHECK_STR_CONTAINS(text, "Region 1,1.dat: no valid directory");
    CHECK_STR_CONTAINS(text, "2 damaged");
    free(text);

    CHECK_EQ_INT(run_tool("verify", root, &text), 2);
    CHECK_STR_CONTAINS(text, "not a world folder");
    free(text);
    CHECK_EQ_INT(run_tool("frobnicate", world, &text), 2);
    free(text);

    /* Defect 6: a region with no valid directory, set aside as .damaged by the game: verify counts it, recover
     * restores its intact records into a fresh region file, never over the newer copy the game wrote. */
    snprintf(world, sizeof world, "%s/world6", root);
    CHECK_EQ_INT(serializer_open(world, true, &meta, NULL, &s), ST_OK);
    if (!s) return check_report();
    st = serializer_chunk_storage(s);
    save_chunk(st, 20, 20);
    save_chunk(st, 21, 20);
    serializer_close(s);
    char aside[560];
    snprintf(region, sizeof region, "%s/Regions/Region 1,1.dat", world);
    snprintf(aside, sizeof aside, "%s.damaged", region);
    test_flip_byte(region, 40, 0x40);
    test_flip_byte(region, REGION_PAGE + 40, 0x40);
    CHECK_EQ_INT(rename(region, aside), 0);
    CHECK_EQ_INT(serializer_open(world, false, &meta, NULL, &s), ST_OK);   /* the game saves chunk 21,20 again */
    if (!s) return check_report();
    save_chunk(serializer_chunk_storage(s), 21, 20);
    serializer_close(s);
    CHECK_EQ_INT(run_tool("verify", world, &text), 1);
    CHECK_STR_CONTAINS(text, "Region 1,1.dat.damaged");
    CHECK_STR_CONTAINS(text, "1 damaged");
    free(text);
    CHECK_EQ_INT(run_tool("recover", world, &text), 0);
    CHECK_STR_CONTAINS(text, "restored");
    CHECK_STR_CONTAINS(text, "chunk 20,20");
    CHECK_STR_CONTAINS(text, "kept");
    CHECK_STR_CONTAINS(text, "1 chunks restored, 1 kept");
    free(text);
    CHECK_EQ_INT(run_tool("verify", world, &text), 0);
    CHECK_STR_CONTAINS(text, "2 chunks in 1 region files checked: all sound");
    free(text);

    /* Defect 7: verify refuses what the game refuses (one shared rule, generator_create_for_world): a generator
     * version this build does not know, a generator name the mode does not give, a heightmap world whose map
     * is gone. */
    static const struct { const char *name; int version; int mode; const char *why; } refused[] = {
        {"gen24", 2147483647, TERRAIN_MODE_CONTINENT, "version 2147483647"},
        {"flat", 1, TERRAIN_MODE_CONTINENT, "names generator 'flat'"},
        {"heightmap", 1, TERRAIN_MODE_HEIGHTMAP, "/nonexistent/map.png"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        WorldMeta bad;
        CHECK_EQ_INT(world_meta_load(world, &bad), ST_OK);
        WorldMeta good = bad;
        snprintf(bad.generator_name, sizeof bad.generator_name, "%s", refused[k].name);
        bad.generator_version = refused[k].version;
        bad.settings.mode = (TerrainGenerationMode)refused[k].mode;
        if (refused[k].mode == TERRAIN_MODE_HEIGHTMAP)
            snprintf(bad.settings.heightmap, sizeof bad.settings.heightmap, "/nonexistent/map.png");
        CHECK_EQ_INT(world_meta_save(world, &bad), ST_OK);
        CHECK_EQ_INT(run_tool("verify", world, &text), 1);
        CHECK_STR_CONTAINS(text, "REFUSED");
        CHECK_STR_CONTAINS(text, refused[k].why);
        free(text);
        CHECK_EQ_INT(world_meta_save(world, &good), ST_OK);
    }
    CHECK_EQ_INT(run_tool("verify", world, &text), 0);
    free(text);

    test_remove_tree(root);
    return check_report();
}
