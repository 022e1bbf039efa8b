/* test_world_file.c — world.json: exact round trip of every field (the full u64 seed range included),
 * defaults for fields an older file lacks, a newer format version refused with ST_ERR_VERSION naming the
 * file and both versions, malformed fields refused with ST_ERR_FORMAT naming the file and the field, and
 * the atomic write (no temp file left, an old file replaced whole). */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "test_util.h"
#include "strata/fileio.h"
#include "strata/world_file.h"

static char root[256];

static void write_text(const char *dir, const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/world.json", dir);
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static WorldMeta sample_meta(void)
{
    WorldMeta m;
    memset(&m, 0, sizeof m);
    m.format_version = WORLD_FORMAT_VERSION;
    world_settings_default(&m.settings);
    m.settings.seed = 18446744073709551615ull;
    m.settings.biome_size = 2.5f;
    m.settings.temperature_offset = -3.25f;
    m.settings.humidity_offset = 7.0f;
    m.settings.mode = TERRAIN_MODE_ISLAND;
    m.settings.island_size_x = 321.5f;
    m.settings.island_size_z = 654.0f;
    m.settings.sea_level_offset = -12;
    m.settings.flat_height = 80;
    snprintf(m.generator_name, sizeof m.generator_name, "gen24");
    m.generator_version = 3;
    m.player_position[0] = -12345.678901234;
    m.player_position[1] = 71.0625;
    m.player_position[2] = 1e7 + 0.1;
    m.player_yaw = 271.3f;
    m.player_pitch = -45.7f;
    m.player_flying = true;
    m.time_of_day = 0.7321f;
    m.game_time = 98765.4321;
    return m;
}

static bool meta_equal(const WorldMeta *a, const WorldMeta *b)
{
    const WorldSettings *x = &a->settings, *y = &b->settings;
    return a->format_version == b->format_version && x->seed == y->seed && x->biome_size == y->biome_size &&
           x->temperature_offset == y->temperature_offset && x->humidity_offset == y->humidity_offset &&
           x->mode == y->mode && x->island_size_x == y->island_size_x && x->island_size_z == y->island_size_z &&
           x->sea_level_offset == y->sea_level_offset && x->flat_height == y->flat_height &&
           strcmp(a->generator_name, b->generator_name) == 0 && a->generator_version == b->generator_version &&
           a->player_position[0] == b->player_position[0] && a->player_position[1] == b->player_position[1] &&
           a->player_position[2] == b->player_position[2] && a->player_yaw == b->player_yaw &&
           a->player_pitch == b->player_pitch && a->player_flying == b->player_flying &&
           a->time_of_day == b->time_of_day && a->game_time == b->game_time;
}

static void test_round_trip(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/rt", root);
    fileio_make_dirs(dir);
    WorldMeta m = sample_meta(), loaded;
    CHECK_EQ_INT(world_meta_save(dir, &m), ST_OK);
    memset(&loaded, 0x7F, sizeof loaded);
    CHECK_EQ_INT(world_meta_load(dir, &loaded), ST_OK);
    CHECK(meta_equal(&m, &loaded));

    /* Seeds across the range, stored as text. */
    const uint64_t seeds[] = {0, 1, 9007199254740993ull, 0x8000000000000000ull, 18446744073709551614ull};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        m.settings.seed = seeds[i];
        m.settings.mode = (TerrainGenerationMode)(i % 4);
        CHECK_EQ_INT(world_meta_save(dir, &m), ST_OK);
        CHECK_EQ_INT(world_meta_load(dir, &loaded), ST_OK);
        CHECK(loaded.settings.seed == seeds[i]);
        CHECK_EQ_INT(loaded.settings.mode, (int)(i % 4));
    }
    char path[400], tmp[420];
    snprintf(path, sizeof path, "%s/world.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(!fileio_exists(tmp));
    char *text = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fileio_read_all(path, &text, &size), ST_OK);
    CHECK_STR_CONTAINS(text, "\"seed\":\t\"18446744073709551614\"");
    CHECK_STR_CONTAINS(text, "\"format_version\":\t1");
    free(text);

    /* Not finite numbers are refused before anything is written. */
    m.player_position[1] = NAN;
    CHECK_EQ_INT(world_meta_save(dir, &m), ST_ERR_ARG);
    CHECK_EQ_INT(world_meta_load(dir, &loaded), ST_OK);
    CHECK(loaded.settings.seed == seeds[4]);
}

static void test_defaults(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/minimal", root);
    fileio_make_dirs(dir);
    write_text(dir, "{\"format_version\": 1, \"seed\": \"42\", \"generator\": {\"name\": \"gen24\", \"version\": 1}}");
    WorldMeta m;
    CHECK_EQ_INT(world_meta_load(dir, &m), ST_OK);
    WorldSettings d;
    world_settings_default(&d);
    CHECK(m.settings.seed == 42);
    CHECK(m.settings.biome_size == d.biome_size && m.settings.mode == d.mode && m.settings.flat_height == d.flat_height);
    CHECK_NEAR(m.time_of_day, 0.5, 1e-9);
    CHECK(m.player_position[0] == 0 && !m.player_flying);
    CHECK_EQ_INT(m.generator_version, 1);
}

static void test_newer_version(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/newer", root);
    fileio_make_dirs(dir);
    write_text(dir, "{\"format_version\": 7, \"seed\": 42, \"something_new\": {}}");
    WorldMeta m;
    CHECK_EQ_INT(world_meta_load(dir, &m), ST_ERR_VERSION);
    CHECK_STR_CONTAINS(st_error_message(), "newer/world.json: format version 7 is newer than this build reads (1)");
}

static void expect_format_error(const char *text, const char *field)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/bad", root);
    fileio_make_dirs(dir);
    write_text(dir, text);
    WorldMeta m;
    StResult rc = world_meta_load(dir, &m);
    CHECK_EQ_INT(rc, ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "bad/world.json");
    CHECK_STR_CONTAINS(st_error_message(), field);
}

static void test_malformed(void)
{
    const char *gen = "\"generator\": {\"name\": \"gen24\", \"version\": 1}";
    char text[512];
    expect_format_error("{\"format_version\": 1, \"seed\": \"42\"", "JSON syntax error");
    expect_format_error("[1, 2]", "a JSON object");
    snprintf(text, sizeof text, "{\"seed\": \"42\", %s}", gen);
    expect_format_error(text, "format_version");
    snprintf(text, sizeof text, "{\"format_version\": 0, \"seed\": \"42\", %s}", gen);
    expect_format_error(text, "format_version");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": 42, %s}", gen);
    expect_format_error(text, "'seed'");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"-5\", %s}", gen);
    expect_format_error(text, "'seed'");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"18446744073709551616\", %s}", gen);
    expect_format_error(text, "'seed'");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"12abc\", %s}", gen);
    expect_format_error(text, "'seed'");
    expect_format_error("{\"format_version\": 1, \"seed\": \"1\"}", "generator");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"settings\": {\"mode\": \"moon\"}}", gen);
    expect_format_error(text, "settings.mode");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"settings\": {\"biome_size\": \"big\"}}", gen);
    expect_format_error(text, "settings.biome_size");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"settings\": {\"island_size\": [1]}}", gen);
    expect_format_error(text, "settings.island_size");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"player\": {\"position\": [0, \"y\", 0]}}", gen);
    expect_format_error(text, "player.position");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"player\": {\"flying\": 1}}", gen);
    expect_format_error(text, "player.flying");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"time_of_day\": 2}", gen);
    expect_format_error(text, "time_of_day");
    snprintf(text, sizeof text, "{\"format_version\": 1, \"seed\": \"1\", %s, \"player\": []}", gen);
    expect_format_error(text, "player");

    WorldMeta m;
    char missing[300];
    snprintf(missing, sizeof missing, "%s/nowhere", root);
    CHECK_EQ_INT(world_meta_load(missing, &m), ST_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(st_error_message(), "nowhere/world.json");
}

int main(void)
{
    if (!test_make_temp_dir("world-file", root, sizeof root)) return 1;
    RUN(test_round_trip);
    RUN(test_defaults);
    RUN(test_newer_version);
    RUN(test_malformed);
    test_remove_tree(root);
    return check_report();
}
