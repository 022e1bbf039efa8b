/* world_settings.h — WorldSettings: what a world is generated from, described once in a table.
 *
 * WORLD_SETTINGS lists every setting with its world.json name, its command-line flag (where there is one),
 * type, range, default and help. Everything that reads or writes settings goes through it: the defaults,
 * world_settings_validate (generator_create), world.json (world_file.c: world_settings_read/write) and
 * command lines (world_settings_flag_spec + world_settings_apply_flag, on flags.h). The seed is in the table
 * too; world.json keeps it at the top level as decimal text (world_file.c), not in "settings".
 * Ownership: WorldSettings is a plain value. Threads: any (messages via st_fail are per thread). */
#ifndef STRATA_WORLD_SETTINGS_H
#define STRATA_WORLD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/config.h"
#include "strata/error.h"
#include "strata/flags.h"

typedef enum TerrainGenerationMode {
    TERRAIN_MODE_CONTINENT = 0,
    TERRAIN_MODE_ISLAND,
    TERRAIN_MODE_FLAT,
    TERRAIN_MODE_HEIGHTMAP
} TerrainGenerationMode;

#define WORLD_SETTINGS_PATH_MAX 512
#define WORLD_SETTINGS_HASH_TEXT 20   /* "0123456789abcdef" + NUL */
#define WORLD_SETTINGS_GENERATOR_TEXT 16   /* "gen24" | "layered" + NUL */

typedef struct WorldSettings {
    uint64_t seed;
    float biome_size;            /* 1.0 default; larger = bigger biomes */
    float temperature_offset;    /* added to temperature (-15..15) */
    float humidity_offset;       /* added to humidity (-15..15) */
    TerrainGenerationMode mode;
    float island_size_x, island_size_z; /* island mode: land bounds in blocks */
    int sea_level_offset;        /* sea level = 64 + offset */
    int flat_height;             /* flat mode: surface height */
    /* heightmap mode (the map's centre lies at world x = z = 0) */
    char heightmap[WORLD_SETTINGS_PATH_MAX];   /* the map file (.raw .r16 .png .exr .sparkterrain) */
    float height_min, height_max; /* the map's nominal range [0, 255 | 65535 | 1] becomes these heights */
    float map_scale;             /* blocks per map pixel */
    int map_width, map_height;   /* .raw / .r16: the map's size in pixels (0: not given) */
    char biome_map[WORLD_SETTINGS_PATH_MAX];   /* optional PNG whose colours name biomes */
    float biome_blend;           /* blocks over which neighbouring biomes blend */
    char splat_rules[WORLD_SETTINGS_PATH_MAX]; /* optional auto-splat rules JSON ("" = the built-in rules) */
    char heightmap_hash[WORLD_SETTINGS_HASH_TEXT]; /* recorded at creation: hash of the map files' bytes */
    /* continent mode: the world type, "gen24" or "layered" (seed 002's generator); "" means gen24 and is not
     * written to world.json, so gen24 worlds keep their world.json unchanged */
    char generator[WORLD_SETTINGS_GENERATOR_TEXT];
} WorldSettings;

typedef enum WorldSettingType {
    WORLD_SETTING_SEED,      /* uint64_t: an integer, or text hashed (world_seed_parse) */
    WORLD_SETTING_FLOAT,     /* float in min..max */
    WORLD_SETTING_INT,       /* int in min..max */
    WORLD_SETTING_MODE,      /* TerrainGenerationMode by name */
    WORLD_SETTING_FLOAT_PAIR, /* two floats in min..max ("W,H" on a command line, [w, h] in world.json) */
    WORLD_SETTING_SIZE,      /* two ints in min..max ("WxH" on a command line, [w, h] in world.json) */
    WORLD_SETTING_TEXT       /* a char[WORLD_SETTINGS_PATH_MAX] (at most max chars; min 1: required in its mode);
                              * written to world.json only when not empty */
} WorldSettingType;

typedef struct WorldSettingSpec {
    const char *name;         /* the key in world.json "settings" (and in messages) */
    const char *flag;         /* "--biome-size", or NULL without one */
    WorldSettingType type;
    double min, max;          /* FLOAT, INT, FLOAT_PAIR */
    double default_value;     /* FLOAT, INT, MODE (the enum value), FLOAT_PAIR (both) */
    int only_in_mode;         /* validated only in this mode (island_size, flat_height, heightmap), or -1 */
    const char *value_name;   /* the flag's value in the usage ("F", "W,H") */
    const char *help;
    size_t offset, offset2;   /* offsetof(WorldSettings, ...); offset2 for the pair's second value */
} WorldSettingSpec;

extern const WorldSettingSpec WORLD_SETTINGS[];
extern const int WORLD_SETTING_COUNT;

/* The spec named `name` (world.json key) or with flag `flag`; NULL if none. */
const WorldSettingSpec *world_setting_find(const char *name);
const WorldSettingSpec *world_setting_find_flag(const char *flag);

/* Survivalcraft's defaults: seed 0, biome_size 1, offsets 0, continent, island 400x400, sea offset 0, flat 64. */
void world_settings_default(WorldSettings *settings);
/* Every setting in its range (the ranges world.json accepts). ST_ERR_ARG naming the field, the range and the
 * value: "world settings: biome_size: expected 0.01..100, got 0". A mode that is not a TerrainGenerationMode
 * is ST_ERR_ARG too; whether a generator supports a mode is the generator's business. */
StResult world_settings_validate(const WorldSettings *settings);

/* Parses a --seed value: an integer (decimal, optionally negative) is that number; any other text is
 * hashed with rng_hash_string. Empty text is ST_ERR_ARG. */
StResult world_seed_parse(const char *text, uint64_t *seed);
const char *terrain_mode_name(TerrainGenerationMode mode);
/* "continent" | "island" | "flat" | "heightmap" -> mode; ST_ERR_ARG otherwise. */
StResult terrain_mode_parse(const char *name, TerrainGenerationMode *mode);

/* The generator setting: true for "", "gen24" and "layered"; *layered says which. */
bool world_settings_generator_parse(const char *name, bool *layered);

/* world.json: reads the optional fields of the "settings" object `obj` (path `where` for messages) into
 * *settings, keeping the current value of a missing field; a present field of the wrong type or range is
 * ST_ERR_FORMAT naming the file and field (config.h). The seed is not read here. */
StResult world_settings_read(const ConfigDoc *doc, const cJSON *obj, const char *where, WorldSettings *settings);
/* Adds every setting but the seed to `obj`; false when out of memory. */
bool world_settings_write(const WorldSettings *settings, cJSON *obj);

/* Command lines: the FlagSpec for a setting's flag (kind, range, value name and help from the table; `id` as
 * given). The spec must have a flag. */
FlagSpec world_settings_flag_spec(const WorldSettingSpec *spec, int id);
/* Applies a flag's text to *settings: ST_ERR_ARG naming the flag, what was expected and what was given.
 * --heightmap also sets the mode to heightmap. */
StResult world_settings_apply_flag(const WorldSettingSpec *spec, const char *text, WorldSettings *settings);

#endif
