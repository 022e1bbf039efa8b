/* test_world_settings.c — the world settings table: defaults, validation messages (field, range, value),
 * world.json read/write through the table (round trip, a bad field named), flags built from the table, and
 * the shared flag parser's forms and messages (flags.h). */
#define _GNU_SOURCE
#include "check.h"
#include "strata/config.h"
#include "strata/flags.h"
#include "strata/world_settings.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static void test_defaults_and_table(void)
{
    WorldSettings s;
    world_settings_default(&s);
    CHECK(s.seed == 0 && s.biome_size == 1.0f && s.temperature_offset == 0.0f && s.humidity_offset == 0.0f);
    CHECK(s.mode == TERRAIN_MODE_CONTINENT && s.island_size_x == 400.0f && s.island_size_z == 400.0f);
    CHECK(s.sea_level_offset == 0 && s.flat_height == 64);
    CHECK_EQ_INT(world_settings_validate(&s), ST_OK);
    CHECK(world_setting_find("biome_size") != NULL);
    CHECK(world_setting_find_flag("--seed") == world_setting_find("seed"));
    CHECK(world_setting_find("no_such") == NULL);
    for (int i = 0; i < WORLD_SETTING_COUNT; i++) CHECK(WORLD_SETTINGS[i].name && WORLD_SETTINGS[i].help);
}

static void test_validate(void)
{
    WorldSettings s;
    world_settings_default(&s);
    s.biome_size = 0.0f;
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "world settings: biome_size: expected 0.01..100, got 0");
    world_settings_default(&s);
    s.sea_level_offset = 200;
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "sea_level_offset: expected -64..191, got 200");
    /* island_size and flat_height only matter in their own mode */
    world_settings_default(&s);
    s.island_size_x = 0.0f;
    s.flat_height = 999;
    CHECK_EQ_INT(world_settings_validate(&s), ST_OK);
    s.mode = TERRAIN_MODE_ISLAND;
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "island_size");
    s.mode = TERRAIN_MODE_FLAT;
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "flat_height: expected 0..255, got 999");
    s.mode = (TerrainGenerationMode)9;
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
}

static void test_json_round_trip(void)
{
    WorldSettings s, back;
    world_settings_default(&s);
    s.biome_size = 2.5f;
    s.humidity_offset = -3.0f;
    s.mode = TERRAIN_MODE_ISLAND;
    s.island_size_x = 120.0f;
    s.island_size_z = 90.0f;
    s.sea_level_offset = -5;
    s.flat_height = 30;
    cJSON *obj = cJSON_CreateObject();
    CHECK(world_settings_write(&s, obj));
    char *text = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    CHECK(text && strstr(text, "\"mode\":\"island\"") && strstr(text, "\"island_size\":[120,90]"));
    CHECK(text && !strstr(text, "seed"));
    ConfigDoc doc;
    CHECK_EQ_INT(config_parse("t.json", text, &doc), ST_OK);
    free(text);
    world_settings_default(&back);
    CHECK_EQ_INT(world_settings_read(&doc, doc.root, "settings", &back), ST_OK);
    config_free(&doc);
    CHECK(back.biome_size == s.biome_size && back.humidity_offset == s.humidity_offset && back.mode == s.mode);
    CHECK(back.island_size_x == 120.0f && back.island_size_z == 90.0f);
    CHECK(back.sea_level_offset == -5 && back.flat_height == 30);

    /* a bad field names the file and the field; a missing one keeps its value */
    CHECK_EQ_INT(config_parse("w.json", "{\"mode\": \"volcano\"}", &doc), ST_OK);
    CHECK_EQ_INT(world_settings_read(&doc, doc.root, "settings", &back), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "w.json: field 'settings.mode'");
    CHECK_STR_CONTAINS(st_error_message(), "\"volcano\"");
    config_free(&doc);
    CHECK_EQ_INT(config_parse("w.json", "{\"island_size\": [1, 2, 3]}", &doc), ST_OK);
    CHECK_EQ_INT(world_settings_read(&doc, doc.root, "settings", &back), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "settings.island_size': expected an array of 2 numbers in 1..10000000");
    config_free(&doc);
    CHECK(back.island_size_x == 120.0f);
}

typedef struct Seen {
    long width;
    double level;
    const char *name;
    bool fast;
    WorldSettings settings;
} Seen;

enum { T_WIDTH, T_LEVEL, T_NAME, T_FAST, T_HELP, T_SETTING };

static StResult apply(void *user, const FlagSpec *f, const FlagValue *v)
{
    Seen *seen = user;
    if (f->id >= T_SETTING) return world_settings_apply_flag(&WORLD_SETTINGS[f->id - T_SETTING], v->text, &seen->settings);
    if (f->id == T_WIDTH) seen->width = v->integer;
    if (f->id == T_LEVEL) seen->level = v->number;
    if (f->id == T_NAME) seen->name = v->text;
    if (f->id == T_FAST) seen->fast = true;
    return ST_OK;
}

static FlagsStatus parse(Seen *seen, int argc, const char **argv)
{
    FlagSpec specs[32] = {
        {"--width", FLAG_INT, 1, 100, "W", "width", T_WIDTH},
        {"--level", FLAG_NUMBER, 0, 1, "L", "level", T_LEVEL},
        {"--name", FLAG_TEXT, 0, 0, "NAME", "name", T_NAME},
        {"--fast", FLAG_SWITCH, 0, 0, NULL, "fast", T_FAST},
        {"--help", FLAG_HELP, 0, 0, NULL, "help", T_HELP},
    };
    int n = 5;
    for (int i = 0; i < WORLD_SETTING_COUNT; i++)
        if (WORLD_SETTINGS[i].flag) specs[n++] = world_settings_flag_spec(&WORLD_SETTINGS[i], T_SETTING + i);
    memset(seen, 0, sizeof *seen);
    world_settings_default(&seen->settings);
    return flags_parse(specs, n, argc, (char *const *)argv, apply, seen);
}

#define PARSE(seen, ...) parse(seen, (int)(sizeof((const char *[]){"prog", __VA_ARGS__}) / sizeof(const char *)), \
                               (const char *[]){"prog", __VA_ARGS__})

static void test_flags(void)
{
    Seen s;
    CHECK_EQ_INT(PARSE(&s, "--width", "7", "--level=0.25", "--name", "x", "--fast"), FLAGS_OK);
    CHECK(s.width == 7 && s.level == 0.25 && s.name && !strcmp(s.name, "x") && s.fast);
    CHECK_EQ_INT(PARSE(&s, "--width", "0"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--width: expected an integer in 1..100, got '0'");
    CHECK_EQ_INT(PARSE(&s, "--level", "2"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--level: expected a number in 0..1, got '2'");
    CHECK_EQ_INT(PARSE(&s, "--name="), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--name: expected a NAME, got an empty value");
    CHECK_EQ_INT(PARSE(&s, "--fast=1"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--fast takes no value");
    CHECK_EQ_INT(PARSE(&s, "--width"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--width: missing value (expected --width W)");
    CHECK_EQ_INT(PARSE(&s, "--help", "--nope"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "unknown flag '--nope'");
    CHECK_EQ_INT(PARSE(&s, "--help"), FLAGS_HELP);

    /* world setting flags from the table */
    CHECK_EQ_INT(PARSE(&s, "--seed", "-7", "--mode", "island", "--island-size", "120,90", "--biome-size=2",
                       "--sea-level-offset", "-3"), FLAGS_OK);
    CHECK(s.settings.seed == (uint64_t)-7 && s.settings.mode == TERRAIN_MODE_ISLAND);
    CHECK(s.settings.island_size_x == 120.0f && s.settings.island_size_z == 90.0f);
    CHECK(s.settings.biome_size == 2.0f && s.settings.sea_level_offset == -3);
    CHECK_EQ_INT(PARSE(&s, "--biome-size", "0"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--biome-size: expected a number in 0.01..100, got '0'");
    CHECK_EQ_INT(PARSE(&s, "--mode", "volcano"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--mode: expected continent|island|flat|heightmap, got 'volcano'");
    CHECK_EQ_INT(PARSE(&s, "--island-size", "3"), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--island-size: expected W,H");
    CHECK_EQ_INT(PARSE(&s, "--seed", ""), FLAGS_ERROR);
    CHECK_STR_CONTAINS(st_error_message(), "--seed: expected an integer or some text, got ''");

    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL);
    if (!f) return;
    FlagSpec spec = world_settings_flag_spec(world_setting_find("flat_height"), 0);
    flags_print_table(f, &spec, 1, 20);
    fclose(f);
    CHECK_STR_CONTAINS(buf, "  --flat-height N       flat mode surface height");
}

int main(void)
{
    RUN(test_defaults_and_table);
    RUN(test_validate);
    RUN(test_json_round_trip);
    RUN(test_flags);
    return check_report();
}
