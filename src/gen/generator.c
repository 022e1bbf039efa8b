/* generator.c — the generator registry: world settings, seed parsing, creation and dispatch by terrain
 * mode (the table of generators), destruction, and generator_init, which every generator declares itself
 * through.
 *
 * Design: generator_create validates the settings, loads worldgen.json (the tunables) and hands off to the
 * generator the table names for the mode (gen24 for continent and island, flat). A Generator is immutable
 * afterwards. Generator.version is what a world stores; generator_create_version rebuilds the generator a
 * world was made with, or refuses a version this build does not know. The registry knows the generators
 * (gen_generators.h); they know only the public generator.h. The per-thread GenContext and its caches live
 * in gen_feature.c, the shared math in gen_math.c. */
#include "strata/generator.h"
#include "gen_config.h"
#include "gen_generators.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"

#define WORLDGEN_DEFAULT_PATH STRATA_ASSET_DIR "/worldgen.json"

void world_settings_default(WorldSettings *s)
{
    memset(s, 0, sizeof *s);
    s->seed = 0;
    s->biome_size = 1.0f;
    s->temperature_offset = 0.0f;
    s->humidity_offset = 0.0f;
    s->mode = TERRAIN_MODE_CONTINENT;
    s->island_size_x = 400.0f;
    s->island_size_z = 400.0f;
    s->sea_level_offset = 0;
    s->flat_height = 64;
}

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
        if (negative) {
            char *end;
            long long v = strtoll(text, &end, 10);
            if (errno == 0 && *end == '\0') {
                *seed = (uint64_t)v;
                return ST_OK;
            }
        } else {
            char *end;
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
    switch (mode) {
    case TERRAIN_MODE_CONTINENT: return "continent";
    case TERRAIN_MODE_ISLAND: return "island";
    case TERRAIN_MODE_FLAT: return "flat";
    case TERRAIN_MODE_HEIGHTMAP: return "heightmap";
    }
    return "unknown";
}

StResult terrain_mode_parse(const char *name, TerrainGenerationMode *mode)
{
    static const TerrainGenerationMode modes[] = {TERRAIN_MODE_CONTINENT, TERRAIN_MODE_ISLAND, TERRAIN_MODE_FLAT,
                                                  TERRAIN_MODE_HEIGHTMAP};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (name && strcmp(name, terrain_mode_name(modes[i])) == 0) {
            *mode = modes[i];
            return ST_OK;
        }
    return st_fail(ST_ERR_ARG, "terrain mode: expected continent|island|flat|heightmap, got '%s'", name ? name : "");
}

/* The same ranges world.json accepts (src/store/world_file.c), so every loadable world has a generator. */
static StResult check_settings(const WorldSettings *s)
{
    if (!(s->biome_size >= 0.01f && s->biome_size <= 100.0f))
        return st_fail(ST_ERR_ARG, "world settings: biome_size: expected 0.01..100, got %g", (double)s->biome_size);
    if (!(s->temperature_offset >= -15.0f && s->temperature_offset <= 15.0f))
        return st_fail(ST_ERR_ARG, "world settings: temperature_offset: expected -15..15, got %g",
                       (double)s->temperature_offset);
    if (!(s->humidity_offset >= -15.0f && s->humidity_offset <= 15.0f))
        return st_fail(ST_ERR_ARG, "world settings: humidity_offset: expected -15..15, got %g",
                       (double)s->humidity_offset);
    if (s->mode == TERRAIN_MODE_ISLAND &&
        (!(s->island_size_x >= 1.0f && s->island_size_x <= 1e7f) || !(s->island_size_z >= 1.0f && s->island_size_z <= 1e7f)))
        return st_fail(ST_ERR_ARG, "world settings: island_size: expected 1..10000000 blocks each way, got %gx%g",
                       (double)s->island_size_x, (double)s->island_size_z);
    if (s->sea_level_offset < -64 || s->sea_level_offset > 191)
        return st_fail(ST_ERR_ARG, "world settings: sea_level_offset: expected -64..191, got %d", s->sea_level_offset);
    if (s->mode == TERRAIN_MODE_FLAT && (s->flat_height < 0 || s->flat_height > 255))
        return st_fail(ST_ERR_ARG, "world settings: flat_height: expected 0..255, got %d", s->flat_height);
    return ST_OK;
}

/* The table of generators: which create function builds each terrain mode (heightmap has none yet). */
static const struct {
    TerrainGenerationMode mode;
    GenCreateFn create;
} GENERATORS[] = {
    {TERRAIN_MODE_CONTINENT, gen24_create},
    {TERRAIN_MODE_ISLAND, gen24_create},
    {TERRAIN_MODE_FLAT, gen_flat_create},
};

/* The create function for a mode generator_create has already accepted (so one exists). */
static GenCreateFn create_for_mode(TerrainGenerationMode mode)
{
    for (size_t i = 0; i < sizeof GENERATORS / sizeof GENERATORS[0]; i++)
        if (GENERATORS[i].mode == mode)
            return GENERATORS[i].create;
    return gen24_create; /* unreachable: the mode checks above admit only modes in the table */
}

StResult generator_create_version(const WorldSettings *settings, const BlockRegistry *blocks,
                                  const char *worldgen_path, int version, Generator **out)
{
    *out = NULL;
    if (!settings || !blocks)
        return st_fail(ST_ERR_ARG, "generator_create: settings and blocks are required");
    if (settings->mode == TERRAIN_MODE_HEIGHTMAP)
        return st_fail(ST_ERR_ARG, "terrain mode 'heightmap' needs a heightmap file (not available in this version)");
    if (settings->mode != TERRAIN_MODE_CONTINENT && settings->mode != TERRAIN_MODE_ISLAND &&
        settings->mode != TERRAIN_MODE_FLAT)
        return st_fail(ST_ERR_ARG, "generator_create: unknown terrain mode %d", (int)settings->mode);
    StResult rc = check_settings(settings);
    if (rc != ST_OK)
        return rc;
    WorldgenConfig *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return st_fail(ST_ERR_NOMEM, "generator_create: out of memory");
    rc = worldgen_load(worldgen_path ? worldgen_path : WORLDGEN_DEFAULT_PATH, blocks, cfg);
    if (rc != ST_OK) {
        free(cfg);
        return rc;
    }
    Generator *g = calloc(1, sizeof *g);
    if (!g) {
        free(cfg);
        return st_fail(ST_ERR_NOMEM, "generator_create: out of memory");
    }
    g->settings = *settings;
    g->blocks = blocks;
    rc = create_for_mode(settings->mode)(g, cfg, version);
    free(cfg);
    if (rc != ST_OK) {
        free(g);
        return rc;
    }
    *out = g;
    return ST_OK;
}

StResult generator_create(const WorldSettings *settings, const BlockRegistry *blocks, const char *worldgen_path,
                          Generator **out)
{
    return generator_create_version(settings, blocks, worldgen_path, 0, out);
}

void generator_destroy(Generator *g)
{
    if (!g)
        return;
    if (g->destroy)
        g->destroy(g);
    free(g);
}

void generator_generate_chunk(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    for (int pass = 1; pass <= 4; pass++)
        generator_run_pass(g, pass, chunk, ctx);
}

void generator_init(Generator *g, const GeneratorClass *cls, int version, void *impl)
{
    g->name = cls->name;
    g->version = version;
    g->impl = impl;
    g->ocean_level = cls->ocean_level;
    g->find_coarse_spawn_position = cls->find_coarse_spawn_position;
    g->calculate_ocean_shore_distance = cls->calculate_ocean_shore_distance;
    g->calculate_height = cls->calculate_height;
    g->calculate_temperature = cls->calculate_temperature;
    g->calculate_humidity = cls->calculate_humidity;
    g->calculate_mountain_range_factor = cls->calculate_mountain_range_factor;
    for (int i = 0; i < 4; i++)
        g->pass[i] = cls->pass[i];
    g->destroy = cls->destroy;
}
