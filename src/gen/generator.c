/* generator.c — the generator registry: creation and dispatch by terrain mode (the table of generators),
 * destruction (generator_init, which every generator declares itself through, is in generator_class.c).
 *
 * Design: generator_create validates the settings (world_settings.h), loads worldgen.json (the tunables) and hands off to the
 * generator the table names for the mode (gen24 for continent and island, flat), or to seed 002's layered
 * generator (src/gen/layered) when a continent world's `generator` setting says "layered". A Generator is immutable
 * afterwards. Generator.version is what a world stores; generator_create_version rebuilds the generator a
 * world was made with, or refuses a version this build does not know. The registry knows the generators
 * (gen_generators.h); they know only the public generator.h. The per-thread GenContext and its caches live
 * in gen_feature.c, the shared math in gen_math.c. */
#include "strata/generator.h"
#include "gen_config.h"
#include "gen_generators.h"

#include <stdlib.h>
#include <string.h>

#define WORLDGEN_DEFAULT_PATH STRATA_ASSET_DIR "/worldgen.json"

/* The table of generators: which create function builds each terrain mode. */
static const struct {
    TerrainGenerationMode mode;
    GenCreateFn create;
} GENERATORS[] = {
    {TERRAIN_MODE_CONTINENT, gen24_create},
    {TERRAIN_MODE_ISLAND, gen24_create},
    {TERRAIN_MODE_FLAT, gen_flat_create},
    {TERRAIN_MODE_HEIGHTMAP, gen_heightmap_create},
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
    if (settings->mode != TERRAIN_MODE_CONTINENT && settings->mode != TERRAIN_MODE_ISLAND &&
        settings->mode != TERRAIN_MODE_FLAT && settings->mode != TERRAIN_MODE_HEIGHTMAP)
        return st_fail(ST_ERR_ARG, "generator_create: unknown terrain mode %d", (int)settings->mode);
    StResult rc = world_settings_validate(settings);
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
    bool layered = false;
    world_settings_generator_parse(settings->generator, &layered);
    if (layered && settings->mode != TERRAIN_MODE_CONTINENT) {
        /* the generator setting is a continent world's type: other modes keep their own generator */
        layered = false;
    }
    rc = (layered ? gen_layered_create : create_for_mode(settings->mode))(g, cfg, version);
    free(cfg);
    if (rc != ST_OK) {
        free(g);
        return rc;
    }
    *out = g;
    return ST_OK;
}

StResult generator_create_for_world(const WorldSettings *settings, const char *name, int version,
                                    const BlockRegistry *blocks, const char *worldgen_path, Generator **out)
{
    StResult rc = generator_create_version(settings, blocks, worldgen_path, version, out);
    if (rc != ST_OK) return st_fail_context(rc, "cannot rebuild generator %s v%d", name ? name : "?", version);
    if (name && strcmp(name, (*out)->name) != 0) {
        rc = st_fail(ST_ERR_FORMAT, "the world names generator '%s' but its mode (%s) gives '%s'", name,
                     terrain_mode_name(settings->mode), (*out)->name);
        generator_destroy(*out);
        *out = NULL;
    }
    return rc;
}

StResult generator_check_worldgen(const char *path, const char *text, const BlockRegistry *blocks)
{
    WorldgenConfig cfg;
    return worldgen_parse(path, text, blocks, &cfg);
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
