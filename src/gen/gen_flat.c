/* gen_flat.c — the flat world: bedrock, stone, three layers of dirt and grass on top at
 * settings.flat_height, constant temperature and humidity from the settings' offsets (Survivalcraft's
 * flat generator: 12 + offset, clamped). Same interface as gen24: everything happens in pass 1; passes
 * 2-4 have nothing to add. It lays no water, so it has no sea: its sea level is the bedrock floor (0), under
 * every column, and far terrain, the spawn and maps see the dry grass it is (with worldgen.json's sea level,
 * 64, at its grass, far terrain drew a sea around the voxel chunks). */
#include "gen_config.h"
#include "gen_generators.h"

#include <stdlib.h>

#define GEN_FLAT_VERSION 1

typedef struct GenFlat {
    int height;
    int temperature, humidity;
} GenFlat;

static const GenFlat *flat(const Generator *g) { return g->impl; }

static int flat_ocean_level(const Generator *g)
{
    (void)g;
    return 0;
}

static void flat_spawn(const Generator *g, int *x, int *z)
{
    (void)g;
    *x = 0;
    *z = 0;
}

static float flat_shore(const Generator *g, float x, float z)
{
    (void)g; (void)x; (void)z;
    return 1000000.0f; /* no ocean anywhere */
}

static float flat_height(const Generator *g, float x, float z)
{
    (void)x; (void)z;
    return (float)flat(g)->height;
}

static int flat_temperature(const Generator *g, float x, float z)
{
    (void)x; (void)z;
    return flat(g)->temperature;
}

static int flat_humidity(const Generator *g, float x, float z)
{
    (void)x; (void)z;
    return flat(g)->humidity;
}

static float flat_mountain(const Generator *g, float x, float z)
{
    (void)g; (void)x; (void)z;
    return 0.0f;
}

static int flat_surface_block(const Generator *g, float x, float z, float height, int temperature, int humidity)
{
    (void)g; (void)x; (void)z; (void)height; (void)temperature; (void)humidity;
    return BLOCK_GRASS;
}

static void flat_pass1(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    CellView view = chunk_cell_view(chunk);
    (void)ctx;
    const GenFlat *f = flat(gen);
    int32_t column[256];
    for (int y = 0; y < 256; y++) {
        int b = BLOCK_AIR;
        if (y == 0) b = BLOCK_BEDROCK;
        else if (y < f->height - 3) b = BLOCK_STONE;
        else if (y < f->height) b = BLOCK_DIRT;
        else if (y == f->height) b = BLOCK_GRASS;
        column[y] = cell_make(b, 0);
    }
    column[255] = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t *c = cell_view_column(view, x, z);
            for (int y = 0; y < 256; y++)
                c[y] = column[y];
            int i = CHUNK_SHAFT_INDEX(x, z);
            chunk->shafts[i] = shaft_set_humidity(shaft_set_temperature(chunk->shafts[i], f->temperature), f->humidity);
        }
}

static void flat_nothing(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    (void)gen; (void)chunk; (void)ctx;
}

static void flat_destroy(Generator *gen)
{
    free(gen->impl);
    gen->impl = NULL;
}

static const GeneratorClass FLAT_CLASS = {
    .name = "flat",
    .ocean_level = flat_ocean_level,
    .find_coarse_spawn_position = flat_spawn,
    .calculate_ocean_shore_distance = flat_shore,
    .calculate_height = flat_height,
    .calculate_temperature = flat_temperature,
    .calculate_humidity = flat_humidity,
    .calculate_mountain_range_factor = flat_mountain,
    .surface_block = flat_surface_block,
    .pass = {flat_pass1, flat_nothing, flat_nothing, flat_nothing},
    .destroy = flat_destroy,
};

static int clamp15(int v) { return v < 0 ? 0 : (v > 15 ? 15 : v); }

StResult gen_flat_create(Generator *gen, const WorldgenConfig *cfg, int version)
{
    (void)cfg;   /* worldgen.json's tunables are gen24's */
    if (version != 0 && version != GEN_FLAT_VERSION)
        return st_fail(ST_ERR_VERSION, "generator 'flat' version %d is not known to this build (it has version %d)",
                       version, GEN_FLAT_VERSION);
    GenFlat *f = calloc(1, sizeof *f);
    if (!f)
        return st_fail(ST_ERR_NOMEM, "flat generator: out of memory");
    const WorldSettings *s = &gen->settings;
    f->height = s->flat_height;
    f->temperature = clamp15(12 + (int)s->temperature_offset);
    f->humidity = clamp15(12 + (int)s->humidity_offset);
    generator_init(gen, &FLAT_CLASS, GEN_FLAT_VERSION, f);
    return ST_OK;
}
