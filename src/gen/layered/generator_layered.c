/* generator_layered.c — seed 002's layered generator (world type "layered", version 1): the class, the height map,
 * the climate and biomes, and passes 1 and 2.
 *
 * Design: the seed's five stages map onto the four passes. Pass 1 = HeightMapGenerator + the rock of the
 * TerrainFiller: height = (base + detail + 1) * 32 + 64 with base = fbm (HeightNoise octaves, persistence,
 * 2x lacunarity) at HeightNoise.Scale (0.01) and detail = simplex at 0.1 times 0.3, clamped to 1..255;
 * bedrock (BedrockLayers) at the bottom, stone up to the height, water up to SeaLevel; shafts get the
 * climate. Pass 2 = the TerrainFiller's biome layers: the biome's subsurface (3 cells) and surface block
 * (plains/forest: dirt + grass, desert: sand + sand, tundra: dirt + snow; beaches and sea floor: sand).
 * Pass 3 = carving + OreGenerator and pass 4 = SurfaceDecorator (layered_features.c). Every noise table is
 * seeded from the world seed by purpose (rng_derive(seed, "layered.base"), ...), so a chunk is a pure
 * function of (seed, settings, config, chunk coordinates). The config is worldgen/chunk_config.yaml
 * (generator_layered_config.c), read once at creation; the Generator is immutable afterwards. */
#include "layered_internal.h"
#include "gen_generators.h"

#include <math.h>
#include <stdlib.h>

#include "strata/rng.h"

#define LAYERED_VERSION 1
#define LAYERED_CONFIG_PATH STRATA_ASSET_DIR "/worldgen/chunk_config.yaml"
#define LAYERED_SUBSURFACE 3

static const Layered *impl(const Generator *g) { return g->impl; }

float layered_height(const Layered *l, float x, float z)
{
    float base = noise_fbm2(&l->base, x * l->cfg.scale, z * l->cfg.scale, l->cfg.octaves, 2.0f, l->cfg.persistence);
    float detail = noise_simplex2(&l->detail, x * 0.1f, z * 0.1f) * 0.3f;
    float h = (base + detail + 1.0f) * 32.0f + 64.0f;
    return h < 1.0f ? 1.0f : (h > 255.0f ? 255.0f : h);
}

int layered_ground(const Layered *l, int x, int z)
{
    int h = (int)layered_height(l, (float)x, (float)z);
    return h > 254 ? 254 : h;
}

static int climate(const NoiseTable *t, float x, float z, float biome_size, float offset)
{
    float f = 0.004f / biome_size;
    float n = noise_fbm2(t, x * f, z * f, 2, 2.0f, 0.5f);   /* [-1, 1] */
    int v = (int)floorf((n * 0.5f + 0.5f) * 16.0f + offset);
    return v < 0 ? 0 : (v > 15 ? 15 : v);
}

int layered_temperature(const Layered *l, float x, float z)
{
    return climate(&l->temperature, x, z, l->biome_size, l->temperature_offset);
}

int layered_humidity(const Layered *l, float x, float z)
{
    return climate(&l->humidity, x, z, l->biome_size, l->humidity_offset);
}

LayeredBiome layered_biome(int temperature, int humidity)
{
    if (temperature < 5) return LAYERED_TUNDRA;
    if (temperature > 9 && humidity < 7) return LAYERED_DESERT;
    if (humidity > 8) return LAYERED_FOREST;
    return LAYERED_PLAINS;
}

/* ---- class methods ---- */

static int layered_ocean_level(const Generator *g) { return impl(g)->sea_level; }

static float layered_calc_height(const Generator *g, float x, float z) { return layered_height(impl(g), x, z); }

static int layered_calc_temperature(const Generator *g, float x, float z) { return layered_temperature(impl(g), x, z); }

static int layered_calc_humidity(const Generator *g, float x, float z) { return layered_humidity(impl(g), x, z); }

static float layered_shore(const Generator *g, float x, float z)
{
    /* no continents: the signed height above the sea, in blocks, stands in for the shore distance */
    return (layered_height(impl(g), x, z) - (float)impl(g)->sea_level) * 8.0f;
}

static float layered_mountain(const Generator *g, float x, float z)
{
    float m = (layered_height(impl(g), x, z) - 96.0f) / 40.0f;
    return m < 0.0f ? 0.0f : (m > 1.0f ? 1.0f : m);
}

static void layered_spawn(const Generator *g, int *out_x, int *out_z)
{
    const Layered *l = impl(g);
    /* a square spiral of 8-block steps from the origin: the first dry, gentle column */
    int x = 0, z = 0, dx = 8, dz = 0, leg = 1, steps = 0, turns = 0;
    for (int i = 0; i < 4096; i++) {
        int h = layered_ground(l, x, z);
        if (h > l->sea_level + 1 && abs(layered_ground(l, x + 2, z) - h) <= 2 && abs(layered_ground(l, x, z + 2) - h) <= 2) {
            *out_x = x;
            *out_z = z;
            return;
        }
        x += dx;
        z += dz;
        if (++steps == leg) {
            steps = 0;
            int t = dx;
            dx = -dz;
            dz = t;
            if (++turns % 2 == 0) leg++;
        }
    }
    *out_x = 0;
    *out_z = 0;
}

static void layered_pass1(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)ctx;
    const Layered *l = impl(g);
    CellView view = chunk_cell_view(chunk);
    const int32_t bedrock = cell_make(BLOCK_BEDROCK, 0), stone = cell_make(BLOCK_STONE, 0),
                  water = cell_make(BLOCK_WATER, 0);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int wx = chunk->origin_x + x, wz = chunk->origin_z + z;
            int h = layered_ground(l, wx, wz);
            int32_t *c = cell_view_column(view, x, z);
            for (int y = 0; y < CHUNK_SIZE_Y; y++)
                c[y] = y < l->cfg.bedrock_layers ? bedrock : y <= h ? stone : y <= l->sea_level ? water : 0;
            int i = CHUNK_SHAFT_INDEX(x, z);
            int32_t s = shaft_set_temperature(chunk->shafts[i], layered_temperature(l, (float)wx, (float)wz));
            chunk->shafts[i] = shaft_set_humidity(s, layered_humidity(l, (float)wx, (float)wz));
        }
}

/* The biome layers of pass 2 for ground whose top cell is h: the surface block, and what lies under it. */
static int layered_surface(const Layered *l, int h, LayeredBiome biome, int *subsurface)
{
    *subsurface = BLOCK_DIRT;
    if (h <= l->sea_level + 1 || biome == LAYERED_DESERT) {   /* beaches and the sea floor, deserts */
        *subsurface = BLOCK_SAND;
        return BLOCK_SAND;
    }
    return biome == LAYERED_TUNDRA ? BLOCK_SNOW : BLOCK_GRASS;
}

/* Generator.surface_block: water over ground under the sea level, else pass 2's surface block; a forest's
 * grass (about 5 trees a chunk, 5 x 5 leaves each: nearly half the ground, layered_features.c) shows as its
 * canopy. */
static int layered_surface_block(const Generator *g, float x, float z, float height, int temperature, int humidity)
{
    (void)x; (void)z;
    const Layered *l = impl(g);
    int h = height > 254.0f ? 254 : (int)height, subsurface;   /* layered_ground */
    if (h < l->sea_level) return BLOCK_WATER;
    LayeredBiome biome = layered_biome(temperature, humidity);
    int top = layered_surface(l, h, biome, &subsurface);
    return top == BLOCK_GRASS && biome == LAYERED_FOREST ? BLOCK_OAK_LEAVES : top;
}

static void layered_pass2(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)ctx;
    const Layered *l = impl(g);
    CellView view = chunk_cell_view(chunk);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int h = layered_ground(l, chunk->origin_x + x, chunk->origin_z + z);
            int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(x, z)];
            LayeredBiome biome = layered_biome(shaft_temperature(shaft), shaft_humidity(shaft));
            int subsurface, surface = layered_surface(l, h, biome, &subsurface);
            int32_t *c = cell_view_column(view, x, z);
            for (int y = h; y > h - 1 - LAYERED_SUBSURFACE && y >= l->cfg.bedrock_layers; y--)
                c[y] = cell_make(y == h ? surface : subsurface, 0);
        }
}

static void layered_destroy(Generator *g)
{
    free(g->impl);
    g->impl = NULL;
}

static const GeneratorClass LAYERED_CLASS = {
    .name = "layered",
    .ocean_level = layered_ocean_level,
    .find_coarse_spawn_position = layered_spawn,
    .calculate_ocean_shore_distance = layered_shore,
    .calculate_height = layered_calc_height,
    .calculate_temperature = layered_calc_temperature,
    .calculate_humidity = layered_calc_humidity,
    .calculate_mountain_range_factor = layered_mountain,
    .surface_block = layered_surface_block,
    .pass = {layered_pass1, layered_pass2, layered_pass3, layered_pass4},
    .destroy = layered_destroy,
};

static StResult layered_create_from(Generator *gen, const char *config_path, int version);

StResult gen_layered_create(Generator *gen, const WorldgenConfig *cfg, int version)
{
    (void)cfg;   /* gen24's tunables; the layered generator has its own YAML */
    return layered_create_from(gen, LAYERED_CONFIG_PATH, version);
}

StResult generator_create_layered(const WorldSettings *settings, const BlockRegistry *blocks, const char *config_path,
                                  Generator **out)
{
    *out = NULL;
    StResult rc = world_settings_validate(settings);
    if (rc != ST_OK) return rc;
    Generator *g = calloc(1, sizeof *g);
    if (!g) return st_fail(ST_ERR_NOMEM, "layered generator: out of memory");
    g->settings = *settings;
    g->blocks = blocks;
    if ((rc = layered_create_from(g, config_path, 0)) != ST_OK) {
        free(g);
        return rc;
    }
    *out = g;
    return ST_OK;
}

static StResult layered_create_from(Generator *gen, const char *config_path, int version)
{
    if (version != 0 && version != LAYERED_VERSION)
        return st_fail(ST_ERR_VERSION, "generator 'layered' version %d is not known to this build (it has version %d)",
                       version, LAYERED_VERSION);
    Layered *l = calloc(1, sizeof *l);
    if (!l) return st_fail(ST_ERR_NOMEM, "layered generator: out of memory");
    StResult rc = layered_config_load(config_path, gen->blocks, &l->cfg);
    if (rc != ST_OK) {
        free(l);
        return rc;
    }
    const WorldSettings *s = &gen->settings;
    l->seed = s->seed;
    int sea = l->cfg.sea_level + s->sea_level_offset;
    l->sea_level = sea < 1 ? 1 : (sea > 254 ? 254 : sea);
    l->temperature_offset = s->temperature_offset;
    l->humidity_offset = s->humidity_offset;
    l->biome_size = s->biome_size;
    noise_table_init(&l->base, rng_derive(s->seed, "layered.base"));
    noise_table_init(&l->detail, rng_derive(s->seed, "layered.detail"));
    noise_table_init(&l->temperature, rng_derive(s->seed, "layered.temperature"));
    noise_table_init(&l->humidity, rng_derive(s->seed, "layered.humidity"));
    noise_table_init(&l->caves, rng_derive(s->seed, "layered.caves"));
    l->ore_seed = rng_derive(s->seed, "layered.ores");
    l->tree_seed = rng_derive(s->seed, "layered.trees");
    l->plant_seed = rng_derive(s->seed, "layered.plants");
    generator_init(gen, &LAYERED_CLASS, LAYERED_VERSION, l);
    return ST_OK;
}
