/* test_serializer.c — the world folder and its ChunkStorage: create / open / refuse (existing world, missing
 * world, newer format, a world already open), chunks saved and loaded across regions and reopen (real
 * generated chunks with edits), damaged copies reported with file, chunk and offset and never written
 * over until the chunk is edited, the default worlds folder, and the whole path through the real update
 * worker: an edited chunk is saved when released and comes back from disk with the edit. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "test_util.h"
#include "strata/edit.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/region.h"
#include "strata/serializer.h"

static char root[256];
static BlockRegistry *blocks;
static Generator *generator;
static GenContext *gen_ctx;
static TerrainChunk chunk_a, chunk_b;

static void world_path(const char *name, char *out, size_t size) { snprintf(out, size, "%s/%s", root, name); }

static WorldMeta new_meta(uint64_t seed)
{
    WorldMeta m;
    memset(&m, 0, sizeof m);
    world_settings_default(&m.settings);
    m.settings.seed = seed;
    snprintf(m.generator_name, sizeof m.generator_name, "gen24");
    m.generator_version = 1;
    m.player_position[1] = 80;
    m.time_of_day = 0.25f;
    return m;
}

/* A generated chunk with a player's edits (modification counter > 0). */
static void make_edited_chunk(TerrainChunk *c, int cx, int cz, int stamp)
{
    chunk_reset(c, cx, cz);
    generator_generate_chunk(generator, c, gen_ctx);
    for (int i = 0; i < 30; i++) {
        int x = (stamp * 7 + i * 3) & 15, z = (stamp * 5 + i) & 15, y = 40 + (stamp + i) % 40;
        chunk_set_cell(c, x, y, z, i % 3 ? 0 : cell_make(BLOCK_PLANKS, stamp & 3));
    }
    chunk_set_cell(c, 1, 1, 1, cell_replace_light(cell_make(BLOCK_TORCH, 0), 12));
    c->modification_counter = 1;
}

static bool same_contents(const TerrainChunk *a, const TerrainChunk *b)
{
    const int32_t *ca = chunk_cell_view_const(a).cells, *cb = chunk_cell_view_const(b).cells;
    for (int i = 0; i < CHUNK_CELLS; i++)
        if (cell_replace_light(ca[i], 0) != cb[i]) return false;
    for (int i = 0; i < CHUNK_SHAFTS; i++)
        if (shaft_temperature(a->shafts[i]) != shaft_temperature(b->shafts[i]) ||
            shaft_humidity(a->shafts[i]) != shaft_humidity(b->shafts[i]))
            return false;
    return true;
}

static StResult load_into(const ChunkStorage *st, TerrainChunk *c, int cx, int cz)
{
    chunk_reset(c, cx, cz);
    return st->load(st->user, c);
}

static uint8_t *file_bytes(const char *path, size_t *size)
{
    char *data = NULL;
    if (fileio_read_all(path, &data, size) != ST_OK) return NULL;
    return (uint8_t *)data;
}

static void test_default_worlds_dir(void)
{
    char out[512];
    const char *old_xdg = getenv("XDG_DATA_HOME");
    char saved_xdg[512] = "";
    if (old_xdg) snprintf(saved_xdg, sizeof saved_xdg, "%s", old_xdg);
    setenv("XDG_DATA_HOME", "/data/me", 1);
    CHECK_EQ_INT(serializer_default_worlds_dir(out, sizeof out), ST_OK);
    CHECK(strcmp(out, "/data/me/strata/worlds") == 0);
    setenv("XDG_DATA_HOME", "relative/ignored", 1);   /* the XDG spec: relative values are ignored */
    setenv("HOME", "/home/tester", 1);
    CHECK_EQ_INT(serializer_default_worlds_dir(out, sizeof out), ST_OK);
    CHECK(strcmp(out, "/home/tester/.local/share/strata/worlds") == 0);
    unsetenv("XDG_DATA_HOME");
    CHECK_EQ_INT(serializer_default_worlds_dir(out, sizeof out), ST_OK);
    CHECK(strcmp(out, "/home/tester/.local/share/strata/worlds") == 0);
    CHECK_EQ_INT(serializer_default_worlds_dir(out, 8), ST_ERR_ARG);
    if (saved_xdg[0]) setenv("XDG_DATA_HOME", saved_xdg, 1);
}

static void test_create_open_refuse(void)
{
    char dir[400], path[500];
    world_path("w1", dir, sizeof dir);
    WorldMeta meta = new_meta(99), loaded;
    Serializer *s = NULL, *other = NULL;

    CHECK_EQ_INT(serializer_open(dir, false, &loaded, blocks, &s), ST_ERR_NOT_FOUND);
    CHECK(!fileio_exists(dir));   /* opening never creates */
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    snprintf(path, sizeof path, "%s/Regions", dir);
    CHECK(fileio_is_dir(path));
    CHECK(strcmp(serializer_dir(s), dir) == 0);

    /* One process at a time. */
    CHECK_EQ_INT(serializer_open(dir, false, &loaded, blocks, &other), ST_ERR_STATE);
    CHECK_STR_CONTAINS(st_error_message(), "open in another process");
    meta.player_position[0] = 12.5;
    meta.game_time = 77;
    CHECK_EQ_INT(serializer_save_meta(s, &meta), ST_OK);
    serializer_close(s);

    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_ERR_EXISTS);
    CHECK_STR_CONTAINS(st_error_message(), "already exists");
    CHECK_EQ_INT(serializer_open(dir, false, &loaded, blocks, &s), ST_OK);
    CHECK(loaded.settings.seed == 99 && loaded.player_position[0] == 12.5 && loaded.game_time == 77);
    CHECK_EQ_INT(loaded.format_version, WORLD_FORMAT_VERSION);
    serializer_close(s);
    serializer_close(NULL);

    /* A world from a newer build is refused, untouched. */
    char newer[400];
    world_path("newer", newer, sizeof newer);
    fileio_make_dirs(newer);
    snprintf(path, sizeof path, "%s/world.json", newer);
    const char *text = "{\"format_version\": 2, \"seed\": \"5\"}";
    fileio_write_atomic(path, text, strlen(text));
    CHECK_EQ_INT(serializer_open(newer, false, &loaded, blocks, &s), ST_ERR_VERSION);
    CHECK_STR_CONTAINS(st_error_message(), "format version 2 is newer");
    CHECK_EQ_INT(serializer_open(newer, true, &meta, blocks, &s), ST_ERR_EXISTS);

    /* Region files without a world.json: refuse to create a world over them. */
    char orphan[400];
    world_path("orphan/Regions", orphan, sizeof orphan);
    fileio_make_dirs(orphan);
    snprintf(path, sizeof path, "%s/Region 0,0.dat", orphan);
    fileio_write_atomic(path, "x", 1);
    world_path("orphan", orphan, sizeof orphan);
    CHECK_EQ_INT(serializer_open(orphan, true, &meta, blocks, &s), ST_ERR_EXISTS);
}

static void test_save_load(void)
{
    char dir[400];
    world_path("w2", dir, sizeof dir);
    WorldMeta meta = new_meta(7);
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    const ChunkStorage *st = serializer_chunk_storage(s);
    CHECK_EQ_INT(load_into(st, &chunk_b, 0, 0), ST_ERR_NOT_FOUND);

    const int coords[][2] = {{0, 0}, {15, 15}, {16, 0}, {-1, -1}, {-16, -17}, {300, -700}, {5, 5}};
    const int n = (int)(sizeof coords / sizeof coords[0]);
    for (int i = 0; i < n; i++) {
        make_edited_chunk(&chunk_a, coords[i][0], coords[i][1], i);
        CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    }
    /* A rewrite of a stored chunk replaces it. */
    make_edited_chunk(&chunk_a, 5, 5, 100);
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    SerializerStats stats;
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.chunks_saved, n + 1);
    CHECK_EQ_INT(stats.region_files, 5);
    CHECK(stats.regions_open <= 16);
    serializer_close(s);

    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    st = serializer_chunk_storage(s);
    int good = 0;
    for (int i = 0; i < n; i++) {
        make_edited_chunk(&chunk_a, coords[i][0], coords[i][1], i == n - 1 ? 100 : i);
        if (load_into(st, &chunk_b, coords[i][0], coords[i][1]) == ST_OK && same_contents(&chunk_a, &chunk_b)) good++;
    }
    CHECK_EQ_INT(good, n);
    CHECK_EQ_INT(load_into(st, &chunk_b, 1, 0), ST_ERR_NOT_FOUND);      /* same region, never stored */
    CHECK_EQ_INT(load_into(st, &chunk_b, 1000, 1000), ST_ERR_NOT_FOUND);/* no region file at all */
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.chunks_loaded, n);
    serializer_close(s);
}

/* Defect 2: a load that could not read (EMFILE while opening the region file) is ST_ERR_IO, not damage, and
 * no save goes over that record until a load has read it. */
static void test_io_error_is_not_damage(void)
{
    char dir[400];
    world_path("w_io", dir, sizeof dir);
    WorldMeta meta = new_meta(9);
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    make_edited_chunk(&chunk_a, 3, 3, 1);
    CHECK_EQ_INT(serializer_chunk_storage(s)->save(serializer_chunk_storage(s)->user, &chunk_a), ST_OK);
    serializer_close(s);

    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    const ChunkStorage *st = serializer_chunk_storage(s);
    struct rlimit saved, tight;
    getrlimit(RLIMIT_NOFILE, &saved);
    int fd = dup(0);   /* the lowest free descriptor: with this limit no file can be opened */
    close(fd);
    tight = saved;
    tight.rlim_cur = (rlim_t)fd;
    log_set_level(LOG_SILENT);
    CHECK_EQ_INT(setrlimit(RLIMIT_NOFILE, &tight), 0);
    StResult rc = load_into(st, &chunk_b, 3, 3);
    setrlimit(RLIMIT_NOFILE, &saved);
    CHECK_EQ_INT(rc, ST_ERR_IO);
    /* The file is readable again, but this record was never read: an edit made over a generated chunk must
     * not replace it. */
    make_edited_chunk(&chunk_a, 3, 3, 2);
    CHECK(st->save(st->user, &chunk_a) != ST_OK);
    log_set_level(LOG_INFO);
    make_edited_chunk(&chunk_a, 3, 3, 1);
    CHECK_EQ_INT(load_into(st, &chunk_b, 3, 3), ST_OK);
    CHECK(same_contents(&chunk_a, &chunk_b));
    /* Once read, saves go through again. */
    make_edited_chunk(&chunk_a, 3, 3, 3);
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    CHECK_EQ_INT(load_into(st, &chunk_b, 3, 3), ST_OK);
    CHECK(same_contents(&chunk_a, &chunk_b));
    serializer_close(s);
}

static void test_damaged(void)
{
    char dir[400], region[500];
    world_path("w3", dir, sizeof dir);
    WorldMeta meta = new_meta(8);
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    const ChunkStorage *st = serializer_chunk_storage(s);
    make_edited_chunk(&chunk_a, 3, -17, 1);
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    make_edited_chunk(&chunk_a, 4, -17, 2);
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    serializer_close(s);

    /* Flip a payload byte of chunk 3,-17 (the first record, at 8192). */
    snprintf(region, sizeof region, "%s/Regions/Region 0,-2.dat", dir);
    FILE *f = fopen(region, "r+b");
    fseek(f, REGION_DATA_START + REGION_RECORD_HEADER + 100, SEEK_SET);
    int c = fgetc(f);
    fseek(f, REGION_DATA_START + REGION_RECORD_HEADER + 100, SEEK_SET);
    fputc(c ^ 0xFF, f);
    fclose(f);
    size_t size_before, size_after;
    uint8_t *before = file_bytes(region, &size_before);

    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    st = serializer_chunk_storage(s);
    CHECK_EQ_INT(load_into(st, &chunk_b, 3, -17), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "Regions/Region 0,-2.dat: chunk 3,-17 at offset 8192: CRC mismatch");
    CHECK_EQ_INT(load_into(st, &chunk_b, 4, -17), ST_OK);

    /* The worker regenerates it in memory and marks it: an unedited save must not touch the file. */
    chunk_reset(&chunk_a, 3, -17);
    generator_generate_chunk(generator, &chunk_a, gen_ctx);
    chunk_a.flags |= CHUNK_FLAG_DAMAGED_ON_DISK;
    chunk_a.modification_counter = 0;
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    SerializerStats stats;
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.saves_skipped_damaged, 1);
    CHECK_EQ_INT(stats.load_errors, 1);
    uint8_t *after = file_bytes(region, &size_after);
    CHECK(before && after && size_before == size_after && memcmp(before, after, size_before) == 0);
    free(after);

    /* Once the player edits it, the new version is written (copy-on-write) and wins. */
    make_edited_chunk(&chunk_a, 3, -17, 9);
    chunk_a.flags |= CHUNK_FLAG_DAMAGED_ON_DISK;
    CHECK_EQ_INT(st->save(st->user, &chunk_a), ST_OK);
    CHECK_EQ_INT(load_into(st, &chunk_b, 3, -17), ST_OK);
    CHECK(same_contents(&chunk_a, &chunk_b));
    serializer_close(s);
    free(before);

    /* A record whose CRC is right but whose payload is not a chunk: reported with the same prefix. */
    RegionFile *r = NULL;
    CHECK_EQ_INT(region_open(region, 0, -2, REGION_OPEN_WRITE, &r), ST_OK);
    if (r) {
        const uint8_t junk[] = {1, 2, 3, 4, 5, 6, 7, 8};
        CHECK_EQ_INT(region_write_chunk(r, 4, -17, junk, sizeof junk), ST_OK);
        region_close(r);
    }
    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    st = serializer_chunk_storage(s);
    CHECK_EQ_INT(load_into(st, &chunk_b, 4, -17), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "Region 0,-2.dat: chunk 4,-17 at offset");
    CHECK_STR_CONTAINS(st_error_message(), "chunk blob:");
    serializer_close(s);
}

/* The real update worker (non-threaded) with the serializer as its storage. */
static int count_valid(TerrainUpdater *u)
{
    UpdaterStats stats;
    updater_get_stats(u, &stats);
    return stats.valid;
}

static void run_until_idle(TerrainUpdater *u)
{
    for (int i = 0; i < 2000; i++) {
        updater_exchange(u, NULL);
        if (updater_run_steps(u, 400) == 0) {
            updater_exchange(u, NULL);
            if (updater_run_steps(u, 400) == 0) return;
        }
    }
}

static void test_with_updater(void)
{
    char dir[400];
    world_path("w4", dir, sizeof dir);
    WorldMeta meta = new_meta(12345);
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    Terrain *terrain = terrain_create();
    UpdaterConfig cfg = {.terrain = terrain, .generator = generator, .blocks = blocks,
                         .storage = serializer_chunk_storage(s), .sky_light = 15, .threaded = false};
    TerrainUpdater *u = NULL;
    CHECK_EQ_INT(updater_create(&cfg, &u), ST_OK);
    if (!u) return;
    UpdateLocation here = {.active = true, .x = 8, .z = 8, .visibility_chunks = 1, .content_chunks = 3};
    updater_set_location(u, 0, &here);
    run_until_idle(u);
    CHECK(count_valid(u) >= 9);

    /* Dig into the chunk at the origin (its state is at least InvalidLight now). */
    int32_t placed = cell_make(BLOCK_BRICKS, 0);
    CHECK(edit_change_cell(terrain, u, 5, 100, 6, placed));
    CHECK(edit_change_cell(terrain, u, 6, 100, 6, placed));
    run_until_idle(u);

    /* Walk far away: the chunk is released and saved; come back: it is loaded from disk. */
    UpdateLocation away = here;
    away.x = 8 + 16 * 40;
    updater_set_location(u, 0, &away);
    run_until_idle(u);
    CHECK(terrain_get_chunk(terrain, 0, 0) == NULL);
    SerializerStats stats;
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.chunks_saved, 1);
    updater_set_location(u, 0, &here);
    run_until_idle(u);
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.chunks_loaded, 1);
    CHECK_EQ_INT(terrain_get_cell_value(terrain, 5, 100, 6) & ~CELL_LIGHT_MASK, placed);
    CHECK_EQ_INT(terrain_get_cell_value(terrain, 6, 100, 6) & ~CELL_LIGHT_MASK, placed);
    TerrainChunk *origin = terrain_get_chunk(terrain, 0, 0);
    CHECK(origin && (origin->flags & CHUNK_FLAG_LOADED));

    /* Edit again and save everything on quit. */
    CHECK(edit_change_cell(terrain, u, 7, 100, 6, placed));
    CHECK_EQ_INT(updater_save_all(u), ST_OK);
    serializer_get_stats(s, &stats);
    CHECK_EQ_INT(stats.chunks_saved, 2);
    updater_destroy(u);
    terrain_destroy(terrain);
    serializer_close(s);

    /* A fresh session finds all three edits. */
    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    const ChunkStorage *st = serializer_chunk_storage(s);
    CHECK_EQ_INT(load_into(st, &chunk_b, 0, 0), ST_OK);
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 7, 100, 6), placed);
    CHECK_EQ_INT(chunk_get_cell(&chunk_b, 5, 100, 6), placed);
    serializer_close(s);
}

/* Threaded worker: the main thread edits and asks for autosaves while the worker loads, generates and
 * saves; on quit everything is saved. Run under TSan this checks the storage's locking. */
static void test_with_threaded_updater(void)
{
    char dir[400];
    world_path("w5", dir, sizeof dir);
    WorldMeta meta = new_meta(777);
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(dir, true, &meta, blocks, &s), ST_OK);
    if (!s) return;
    Terrain *terrain = terrain_create();
    UpdaterConfig cfg = {.terrain = terrain, .generator = generator, .blocks = blocks,
                         .storage = serializer_chunk_storage(s), .sky_light = 15, .threaded = true};
    TerrainUpdater *u = NULL;
    CHECK_EQ_INT(updater_create(&cfg, &u), ST_OK);
    if (!u) return;
    UpdateLocation here = {.active = true, .x = 8, .z = 8, .visibility_chunks = 1, .content_chunks = 3};
    updater_set_location(u, 0, &here);
    int edits = 0;
    int32_t placed = cell_make(BLOCK_GLASS, 0);
    for (int frame = 0; frame < 4000 && edits < 40; frame++) {
        updater_exchange(u, NULL);
        if (updater_is_ready(u, 0)) {
            if (edit_change_cell(terrain, u, -8 + edits % 32, 120 + edits / 32, (edits * 5) % 16, placed)) edits++;
            if (edits % 10 == 0) updater_request_autosave(u);
        }
        usleep(1000);
    }
    CHECK_EQ_INT(edits, 40);
    CHECK_EQ_INT(updater_save_all(u), ST_OK);
    updater_destroy(u);
    terrain_destroy(terrain);
    serializer_close(s);

    CHECK_EQ_INT(serializer_open(dir, false, &meta, blocks, &s), ST_OK);
    if (!s) return;
    const ChunkStorage *st = serializer_chunk_storage(s);
    int found = 0;
    for (int e = 0; e < 40; e++) {
        int x = -8 + e % 32, z = (e * 5) % 16;
        if (load_into(st, &chunk_b, chunk_coord_of(x), 0) == ST_OK &&
            chunk_get_cell(&chunk_b, chunk_local_of(x), 120 + e / 32, z) == placed)
            found++;
    }
    CHECK_EQ_INT(found, 40);
    serializer_close(s);
}

int main(void)
{
    if (!test_make_temp_dir("serializer", root, sizeof root)) return 1;
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 12345;
    if (generator_create(&settings, blocks, STRATA_ASSET_DIR "/worldgen.json", &generator) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    gen_ctx = gen_context_create();
    log_set_level(LOG_WARN);
    RUN(test_default_worlds_dir);
    RUN(test_create_open_refuse);
    RUN(test_save_load);
    log_set_level(LOG_SILENT);
    RUN(test_io_error_is_not_damage);
    RUN(test_damaged);
    log_set_level(LOG_WARN);
    RUN(test_with_updater);
    RUN(test_with_threaded_updater);
    gen_context_destroy(gen_ctx);
    generator_destroy(generator);
    block_registry_destroy(blocks);
    test_remove_tree(root);
    return check_report();
}
