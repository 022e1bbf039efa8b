/* layered_internal.h — private to src/gen/layered: seed 002's layered generator (Hytale-style stages mapped
 * onto Strata's four passes) and its configuration, assets/worldgen/chunk_config.yaml.
 *
 * Ownership: a LayeredConfig is a plain value; a Layered (Generator.impl) is immutable after creation and
 * shared by threads. */
#ifndef STRATA_GEN_LAYERED_INTERNAL_H
#define STRATA_GEN_LAYERED_INTERNAL_H

#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/noise.h"

#define LAYERED_ORE_MAX 16
#define LAYERED_VEIN_SIZE_MAX 16   /* a vein walks at most 15 cells from its start: the 3x3 source loop covers it */

typedef struct LayeredOre {
    int block;                     /* block id (by name in the YAML) */
    int min_y, max_y;              /* vein starts, inclusive */
    int veins_per_chunk;
    int vein_size;                 /* cells walked by +-1 steps */
} LayeredOre;

typedef struct LayeredConfig {
    int octaves;                   /* HeightNoise.Octaves */
    float persistence;             /* HeightNoise.Persistence */
    float scale;                   /* HeightNoise.Scale: the base noise's frequency (the seed's 0.01) */
    int sea_level;                 /* SeaLevel */
    int bedrock_layers;            /* BedrockLayers */
    int ore_count;
    LayeredOre ores[LAYERED_ORE_MAX];
} LayeredConfig;

/* Reads and validates `path` (ST_ERR_IO when unreadable; ST_ERR_FORMAT "FILE:LINE: ..." for a YAML syntax
 * error, an unknown key, a wrong type, a value out of range or an unknown block name). */
StResult layered_config_load(const char *path, const BlockRegistry *blocks, LayeredConfig *out);

typedef enum LayeredBiome { LAYERED_PLAINS = 0, LAYERED_DESERT, LAYERED_FOREST, LAYERED_TUNDRA } LayeredBiome;

typedef struct Layered {
    LayeredConfig cfg;
    uint64_t seed;
    int sea_level;                 /* cfg.sea_level + settings.sea_level_offset, clamped 1..254 */
    float temperature_offset, humidity_offset, biome_size;
    NoiseTable base, detail, temperature, humidity, caves;
    uint64_t ore_seed, tree_seed, plant_seed;
} Layered;

/* Pure functions of the generator and world position (generator_layered.c). */
float layered_height(const Layered *l, float x, float z);           /* the seed's formula, clamped 1..255 */
int layered_ground(const Layered *l, int x, int z);                 /* top solid cell y of a column */
int layered_temperature(const Layered *l, float x, float z);        /* 0..15 */
int layered_humidity(const Layered *l, float x, float z);           /* 0..15 */
LayeredBiome layered_biome(int temperature, int humidity);

/* Passes 3 and 4 (layered_features.c). */
void layered_pass3(const Generator *g, TerrainChunk *chunk, GenContext *ctx);
void layered_pass4(const Generator *g, TerrainChunk *chunk, GenContext *ctx);

#endif
