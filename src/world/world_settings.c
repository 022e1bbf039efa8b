/* world_settings.c — the one table of world settings and everything driven by it.
 *
 * Design: each setting is a row (name, flag, type, range, default, help, field offsets); defaults,
 * validation, world.json reading/writing and command-line flags are loops over the rows, so adding a
 * setting is one row and a field, and world.json, generator_create and the command lines cannot disagree
 * about a range. The ranges are those world.json has always accepted, so every loadable world has a
 * generator. island_size and flat_height are validated only in the mode that uses them (a continent world
 * may carry any island size it was given). */
#include "strata/world_settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"

#define WS_FIELD(f) offsetof(WorldSettings, f)

const WorldSettingSpec WORLD_SETTINGS[] = {
    {"seed", "--seed", WORLD_SETTING_SEED, 0, 0, 0, -1, "S", "world seed: an integer, or any text (hashed)",
     WS_FIELD(seed), 0},
    {"biome_size", "--biome-size", WORLD_SETTING_FLOAT, 0.01, 100.0, 1.0, -1, "F",
     "biome size 0.01..100, larger = bigger biomes (default 1)", WS_FIELD(biome_size), 0},
    {"temperature_offset", "--temperature-offset", WORLD_SETTING_FLOAT, -15.0, 15.0, 0.0, -1, "F",
     "added to temperature, -15..15 (default 0)", WS_FIELD(temperature_offset), 0},
    {"humidity_offset", "--humidity-offset", WORLD_SETTING_FLOAT, -15.0, 15.0, 0.0, -1, "F",
     "added to humidity, -15..15 (default 0)", WS_FIELD(humidity_offset), 0},
    {"mode", "--mode", WORLD_SETTING_MODE, 0, 0, TERRAIN_MODE_CONTINENT, -1, "M",
     "terrain: continent (default) | island | flat | heightmap (see --heightmap)", WS_FIELD(mode), 0},
    {"island_size", "--island-size", WORLD_SETTING_FLOAT_PAIR, 1.0, 1e7, 400.0, TERRAIN_MODE_ISLAND, "W,H",
     "island mode land size in blocks, 1..10000000 each way (default 400,400)", WS_FIELD(island_size_x),
     WS_FIELD(island_size_z)},
    {"sea_level_offset", "--sea-level-offset", WORLD_SETTING_INT, -64, 191, 0, -1, "N",
     "sea level = 64 + N, -64..191 (default 0)", WS_FIELD(sea_level_offset), 0},
    {"flat_height", "--flat-height", WORLD_SETTING_INT, 0, 255, 64, TERRAIN_MODE_FLAT, "N",
     "flat mode surface height, 0..255 (default 64)", WS_FIELD(flat_height), 0},
    {"heightmap", "--heightmap", WORLD_SETTING_TEXT, 1, WORLD_SETTINGS_PATH_MAX - 1, 0, TERRAIN_MODE_HEIGHTMAP, "FILE",
     "a world built from a heightmap (.raw .r16 .png .exr .sparkterrain), centred on x = z = 0", WS_FIELD(heightmap), 0},
    {"height_range", "--height-range", WORLD_SETTING_FLOAT_PAIR, 0.0, 255.0, 0.0, TERRAIN_MODE_HEIGHTMAP, "MIN,MAX",
     "heightmap: the map's full value range (0..255, 0..65535, float 0..1) becomes these heights,\n                          0..255 (default 40,160)",
     WS_FIELD(height_min), WS_FIELD(height_max)},
    {"map_scale", "--map-scale", WORLD_SETTING_FLOAT, 0.0625, 64.0, 1.0, TERRAIN_MODE_HEIGHTMAP, "N",
     "heightmap: blocks per map pixel, 0.0625..64 (default 1)", WS_FIELD(map_scale), 0},
    {"map_size", "--map-size", WORLD_SETTING_SIZE, 0, 65536, 0, TERRAIN_MODE_HEIGHTMAP, "WxH",
     "heightmap: the size of a .raw or .r16 map in pixels", WS_FIELD(map_width), WS_FIELD(map_height)},
    {"biome_map", "--biome-map", WORLD_SETTING_TEXT, 0, WORLD_SETTINGS_PATH_MAX - 1, 0, TERRAIN_MODE_HEIGHTMAP, "PNG",
     "heightmap: a PNG over the same extent whose colours name biomes (grassland, desert, forest,\n"
     "                          tundra, swamp, mountain; see README)", WS_FIELD(biome_map), 0},
    {"biome_blend", "--biome-blend", WORLD_SETTING_FLOAT, 0.0, 512.0, 32.0, TERRAIN_MODE_HEIGHTMAP, "BLOCKS",
     "heightmap: blocks over which biomes of the biome map blend, 0..512 (default 32)", WS_FIELD(biome_blend), 0},
    {"splat_rules", "--splat-rules", WORLD_SETTING_TEXT, 0, WORLD_SETTINGS_PATH_MAX - 1, 0, TERRAIN_MODE_HEIGHTMAP,
     "JSON", "heightmap: auto-splat rules for the surface blocks (default: the built-in rules)",
     WS_FIELD(splat_rules), 0},
    {"heightmap_hash", NULL, WORLD_SETTING_TEXT, 0, WORLD_SETTINGS_HASH_TEXT - 1, 0, TERRAIN_MODE_HEIGHTMAP, NULL,
     "hash of the map files, recorded when the world is made", WS_FIELD(heightmap_hash), 0},
    {"generator", "--generator", WORLD_SETTING_TEXT, 0, WORLD_SETTINGS_GENERATOR_TEXT - 1, 0, TERRAIN_MODE_CONTINENT,
     "NAME", "continent world type: gen24 (default) | layered (seed 002's layered generator)", WS_FIELD(generator), 0},
};
const int WORLD_SETTING_COUNT = (int)(sizeof WORLD_SETTINGS / sizeof WORLD_SETTINGS[0]);

static const char *const MODE_NAMES[] = {"continent", "island", "flat", "heightmap"};
#define MODE_COUNT ((int)(sizeof MODE_NAMES / sizeof MODE_NAMES[0]))

/* ---- field access by offset ---- */

static float *ws_float(WorldSettings *s, size_t offset) { return (float *)((char *)s + offset); }
static int *ws_int(WorldSettings *s, size_t offset) { return (int *)((char *)s + offset); }
static float ws_get_float(const WorldSettings *s, size_t offset) { return *(const float *)((const char *)s + offset); }
static char *ws_text(WorldSettings *s, size_t offset) { return (char *)s + offset; }
static const char *ws_get_text(const WorldSettings *s, size_t offset) { return (const char *)s + offset; }
static int ws_get_int(const WorldSettings *s, size_t offset) { return *(const int *)((const char *)s + offset); }

const WorldSettingSpec *world_setting_find(const char *name)
{
    for (int i = 0; name && i < WORLD_SETTING_COUNT; i++)
        if (strcmp(WORLD_SETTINGS[i].name, name) == 0) return &WORLD_SETTINGS[i];
    return NULL;
}

const WorldSettingSpec *world_setting_find_flag(const char *flag)
{
    for (int i = 0; flag && i < WORLD_SETTING_COUNT; i++)
        if (WORLD_SETTINGS[i].flag && strcmp(WORLD_SETTINGS[i].flag, flag) == 0) return &WORLD_SETTINGS[i];
    return NULL;
}

/* ---- defaults and validation ---- */

void world_settings_default(WorldSettings *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < WORLD_SETTING_COUNT; i++) {
        const WorldSettingSpec *w = &WORLD_SETTINGS[i];
        switch (w->type) {
        case WORLD_SETTING_SEED: s->seed = (uint64_t)w->default_value; break;
        case WORLD_SETTING_FLOAT: *ws_float(s, w->offset) = (float)w->default_value; break;
        case WORLD_SETTING_INT: *ws_int(s, w->offset) = (int)w->default_value; break;
        case WORLD_SETTING_MODE: s->mode = (TerrainGenerationMode)(int)w->default_value; break;
        case WORLD_SETTING_FLOAT_PAIR:
            *ws_float(s, w->offset) = (float)w->default_value;
            *ws_float(s, w->offset2) = (float)w->default_value;
            break;
        case WORLD_SETTING_SIZE:
            *ws_int(s, w->offset) = (int)w->default_value;
            *ws_int(s, w->offset2) = (int)w->default_value;
            break;
        case WORLD_SETTING_TEXT: break;   /* "" */
        }
    }
    s->height_min = 40.0f;   /* a pair whose halves differ: not expressible as one default_value */
    s->height_max = 160.0f;
}

static bool ws_in_range(const WorldSettingSpec *w, double v) { return v >= w->min && v <= w->max; }

StResult world_settings_validate(const WorldSettings *s)
{
    for (int i = 0; i < WORLD_SETTING_COUNT; i++) {
        const WorldSettingSpec *w = &WORLD_SETTINGS[i];
        if (w->only_in_mode >= 0 && (int)s->mode != w->only_in_mode) continue;
        switch (w->type) {
        case WORLD_SETTING_SEED: break;
        case WORLD_SETTING_FLOAT: {
            float v = ws_get_float(s, w->offset);
            if (!ws_in_range(w, v))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected %.15g..%.15g, got %g", w->name, w->min, w->max,
                               (double)v);
            break;
        }
        case WORLD_SETTING_INT: {
            int v = ws_get_int(s, w->offset);
            if (!ws_in_range(w, v))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected %.15g..%.15g, got %d", w->name, w->min, w->max, v);
            break;
        }
        case WORLD_SETTING_MODE:
            if ((int)s->mode < 0 || (int)s->mode >= MODE_COUNT)
                return st_fail(ST_ERR_ARG, "world settings: %s: expected continent|island|flat|heightmap, got %d", w->name,
                               (int)s->mode);
            break;
        case WORLD_SETTING_FLOAT_PAIR: {
            float a = ws_get_float(s, w->offset), b = ws_get_float(s, w->offset2);
            if (!ws_in_range(w, a) || !ws_in_range(w, b))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected %.15g..%.15g each way, got %gx%g", w->name, w->min,
                               w->max, (double)a, (double)b);
            if (w->offset == WS_FIELD(height_min) && !(a < b))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected MIN below MAX, got %g,%g", w->name, (double)a,
                               (double)b);
            break;
        }
        case WORLD_SETTING_SIZE: {
            int a = ws_get_int(s, w->offset), b = ws_get_int(s, w->offset2);
            if (!ws_in_range(w, a) || !ws_in_range(w, b))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected %.15g..%.15g each way, got %dx%d", w->name, w->min,
                               w->max, a, b);
            break;
        }
        case WORLD_SETTING_TEXT: {
            size_t n = strnlen(ws_get_text(s, w->offset), WORLD_SETTINGS_PATH_MAX);
            if (n < (size_t)w->min)
                return st_fail(ST_ERR_ARG, "world settings: %s: needed in %s mode, got none", w->name,
                               terrain_mode_name((TerrainGenerationMode)w->only_in_mode));
            if (n > (size_t)w->max)
                return st_fail(ST_ERR_ARG, "world settings: %s: at most %.15g characters, got %zu", w->name, w->max, n);
            bool layered;
            if (w->offset == WS_FIELD(generator) && !world_settings_generator_parse(s->generator, &layered))
                return st_fail(ST_ERR_ARG, "world settings: %s: expected gen24|layered, got '%s'", w->name, s->generator);
            break;
        }
        }
    }
    return ST_OK;
}

/* ---- seed and mode ---- */

StResult world_seed_parse(const char *text, uint64_t *seed)
{
    if (!text || !*text)
        return st_fail(ST_ERR_ARG, "seed: expected a number or a text, got an empty string");
    const char *p = text;
    bool negative = *p == '-';
    if (negative)
        p++;
    bool digits = *p != '\0';
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            digits = false;
    if (digits) {
        errno = 0;
        char *end;
        if (negative) {
            long long v = strtoll(text, &end, 10);
            if (errno == 0 && *end == '\0') {
                *seed = (uint64_t)v;
                return ST_OK;
            }
        } else {
            unsigned long long v = strtoull(text, &end, 10);
            if (errno == 0 && *end == '\0') {
                *seed = (uint64_t)v;
                return ST_OK;
            }
        }
        /* out of range: fall through and treat it as text */
    }
    *seed = rng_hash_string(text);
    return ST_OK;
}

const char *terrain_mode_name(TerrainGenerationMode mode)
{
    return (int)mode >= 0 && (int)mode < MODE_COUNT ? MODE_NAMES[mode] : "unknown";
}

StResult terrain_mode_parse(const char *name, TerrainGenerationMode *mode)
{
    for (int i = 0; name && i < MODE_COUNT; i++)
        if (strcmp(name, MODE_NAMES[i]) == 0) {
            *mode = (TerrainGenerationMode)i;
            return ST_OK;
        }
    return st_fail(ST_ERR_ARG, "terrain mode: expected continent|island|flat|heightmap, got '%s'", name ? name : "");
}

bool world_settings_generator_parse(const char *name, bool *layered)
{
    *layered = name && strcmp(name, "layered") == 0;
    return name && (!*name || strcmp(name, "gen24") == 0 || *layered);
}

/* ---- world.json ---- */

StResult world_settings_read(const ConfigDoc *doc, const cJSON *obj, const char *where, WorldSettings *s)
{
    StResult rc = ST_OK;
    for (int i = 0; i < WORLD_SETTING_COUNT && rc == ST_OK; i++) {
        const WorldSettingSpec *w = &WORLD_SETTINGS[i];
        switch (w->type) {
        case WORLD_SETTING_SEED: break;   /* top level, as text: world_file.c */
        case WORLD_SETTING_FLOAT: {
            double v = ws_get_float(s, w->offset);
            if ((rc = config_get_number_opt(doc, obj, where, w->name, w->min, w->max, &v)) == ST_OK)
                *ws_float(s, w->offset) = (float)v;
            break;
        }
        case WORLD_SETTING_INT: {
            long v = ws_get_int(s, w->offset);
            if ((rc = config_get_int_opt(doc, obj, where, w->name, (long)w->min, (long)w->max, &v)) == ST_OK)
                *ws_int(s, w->offset) = (int)v;
            break;
        }
        case WORLD_SETTING_MODE: {
            const cJSON *item = config_get_item(obj, w->name);
            char name[32] = "";
            if (item && (config_get_string_opt(doc, obj, where, w->name, name, sizeof name) != ST_OK ||
                         terrain_mode_parse(name, &s->mode) != ST_OK))
                rc = config_fail_field(doc, where, w->name, "\"continent\", \"island\", \"flat\" or \"heightmap\"", item);
            break;
        }
        case WORLD_SETTING_FLOAT_PAIR: {
            double v[2] = {ws_get_float(s, w->offset), ws_get_float(s, w->offset2)};
            if ((rc = config_get_number_array_opt(doc, obj, where, w->name, 2, 2, w->min, w->max, v, NULL)) == ST_OK) {
                *ws_float(s, w->offset) = (float)v[0];
                *ws_float(s, w->offset2) = (float)v[1];
            }
            break;
        }
        case WORLD_SETTING_SIZE: {
            double v[2] = {ws_get_int(s, w->offset), ws_get_int(s, w->offset2)};
            if ((rc = config_get_number_array_opt(doc, obj, where, w->name, 2, 2, w->min, w->max, v, NULL)) == ST_OK) {
                if (v[0] != floor(v[0]) || v[1] != floor(v[1]))
                    rc = config_fail_field(doc, where, w->name, "two whole numbers", config_get_item(obj, w->name));
                *ws_int(s, w->offset) = (int)v[0];
                *ws_int(s, w->offset2) = (int)v[1];
            }
            break;
        }
        case WORLD_SETTING_TEXT:
            rc = config_get_string_opt(doc, obj, where, w->name, ws_text(s, w->offset), (size_t)w->max + 1);
            break;
        }
    }
    return rc;
}

bool world_settings_write(const WorldSettings *s, cJSON *obj)
{
    bool ok = true;
    for (int i = 0; i < WORLD_SETTING_COUNT; i++) {
        const WorldSettingSpec *w = &WORLD_SETTINGS[i];
        switch (w->type) {
        case WORLD_SETTING_SEED: break;
        case WORLD_SETTING_FLOAT: ok &= config_add_number(obj, w->name, ws_get_float(s, w->offset)); break;
        case WORLD_SETTING_INT: ok &= config_add_number(obj, w->name, ws_get_int(s, w->offset)); break;
        case WORLD_SETTING_MODE: ok &= config_add_string(obj, w->name, terrain_mode_name(s->mode)); break;
        case WORLD_SETTING_FLOAT_PAIR: {
            double v[2] = {ws_get_float(s, w->offset), ws_get_float(s, w->offset2)};
            ok &= config_add_number_array(obj, w->name, v, 2);
            break;
        }
        case WORLD_SETTING_SIZE: {
            double v[2] = {ws_get_int(s, w->offset), ws_get_int(s, w->offset2)};
            if (s->mode == TERRAIN_MODE_HEIGHTMAP || v[0] != 0 || v[1] != 0) ok &= config_add_number_array(obj, w->name, v, 2);
            break;
        }
        case WORLD_SETTING_TEXT:
            if (ws_get_text(s, w->offset)[0]) ok &= config_add_string(obj, w->name, ws_get_text(s, w->offset));
            break;
        }
    }
    return ok;
}

/* ---- command lines ---- */

FlagSpec world_settings_flag_spec(const WorldSettingSpec *w, int id)
{
    FlagSpec f = {w->flag, FLAG_TEXT, 0, 0, w->value_name, w->help, id};
    if (w->type == WORLD_SETTING_SEED) f.kind = FLAG_VALUE;            /* empty: world_seed_parse says why */
    else if (w->type == WORLD_SETTING_FLOAT) f.kind = FLAG_NUMBER;
    else if (w->type == WORLD_SETTING_INT) f.kind = FLAG_INT;
    if (f.kind == FLAG_NUMBER || f.kind == FLAG_INT) {
        f.min = w->min;
        f.max = w->max;
    }
    return f;
}

StResult world_settings_apply_flag(const WorldSettingSpec *w, const char *text, WorldSettings *s)
{
    const char *flag = w->flag ? w->flag : w->name;
    if (w->type == WORLD_SETTING_SEED) {
        if (world_seed_parse(text, &s->seed) != ST_OK)
            return st_fail(ST_ERR_ARG, "%s: expected an integer or some text, got '%s'", flag, text ? text : "");
        return ST_OK;
    }
    if (w->type == WORLD_SETTING_MODE) {
        if (terrain_mode_parse(text, &s->mode) != ST_OK)
            return st_fail(ST_ERR_ARG, "%s: expected continent|island|flat|heightmap, got '%s'", flag, text ? text : "");
        return ST_OK;
    }
    if (w->type == WORLD_SETTING_TEXT) {
        size_t n = text ? strlen(text) : 0;
        if (n < (size_t)(w->min > 0 ? w->min : 1) || n > (size_t)w->max)
            return st_fail(ST_ERR_ARG, "%s: expected %s (1..%.15g characters), got '%s'", flag, w->value_name, w->max,
                           text ? text : "");
        bool layered;
        if (w->offset == WS_FIELD(generator) && !world_settings_generator_parse(text, &layered))
            return st_fail(ST_ERR_ARG, "%s: expected gen24|layered, got '%s'", flag, text);
        memcpy(ws_text(s, w->offset), text, n + 1);
        if (w->offset == WS_FIELD(heightmap)) s->mode = TERRAIN_MODE_HEIGHTMAP;
        return ST_OK;
    }
    if (w->type == WORLD_SETTING_SIZE) {
        int a, b;
        char tail;
        if (!text || sscanf(text, "%dx%d%c", &a, &b, &tail) != 2 || !ws_in_range(w, a) || !ws_in_range(w, b))
            return st_fail(ST_ERR_ARG, "%s: expected %s with each in %.15g..%.15g, got '%s'", flag, w->value_name, w->min,
                           w->max, text ? text : "");
        *ws_int(s, w->offset) = a;
        *ws_int(s, w->offset2) = b;
        return ST_OK;
    }
    if (w->type == WORLD_SETTING_FLOAT_PAIR) {
        float a, b;
        char tail;
        if (!text || sscanf(text, "%f,%f%c", &a, &b, &tail) != 2 || !ws_in_range(w, a) || !ws_in_range(w, b))
            return st_fail(ST_ERR_ARG, "%s: expected %s with each in %.15g..%.15g, got '%s'", flag, w->value_name, w->min,
                           w->max, text ? text : "");
        if (w->offset == WS_FIELD(height_min) && !(a < b))
            return st_fail(ST_ERR_ARG, "%s: expected MIN below MAX, got '%s'", flag, text);
        *ws_float(s, w->offset) = a;
        *ws_float(s, w->offset2) = b;
        return ST_OK;
    }
    FlagSpec f = world_settings_flag_spec(w, 0);
    FlagValue value;
    StResult rc = flags_convert(&f, text ? text : "", &value);
    if (rc != ST_OK) return rc;
    if (w->type == WORLD_SETTING_FLOAT) *ws_float(s, w->offset) = (float)value.number;
    else *ws_int(s, w->offset) = (int)value.integer;
    return ST_OK;
}
