/* gen_config.h — private to src/gen: the generator's tunables, loaded from assets/worldgen.json
 * (gen_worldgen.c) into a WorldgenConfig.
 *
 * A WorldgenConfig is a plain value: the registry loads it once per generator_create and the generator
 * copies what it keeps, so nothing here is shared or mutable after creation. */
#ifndef STRATA_GEN_CONFIG_H
#define STRATA_GEN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "gen_math.h"

#define GEN_MAX_VEINS 24          /* ore and pocket kinds each */
#define GEN_MAX_TREE_TYPES 8
#define GEN_MAX_TREE_BRUSHES 24
#define GEN_MAX_FLUID_SIZES 6
#define GEN_MAX_FLOWERS 8
#define GEN24_CAVE_TYPES_MAX 12     /* caves.brush_sizes */
#define GEN24_CAVE_VARIANTS_MAX 6   /* caves.brush_variants */

typedef struct GenTerrainConfig {
    float ocean_corner_x, ocean_corner_z;
    float ocean_slope, ocean_slope_variation, islands_frequency;
    float density_bias, height_bias, rivers_strength;
    float mountains_strength, mountain_range_frequency, mountains_percentage;
    float mountains_detail_frequency, mountains_detail_persistence;
    int mountains_detail_octaves;
    float hills_percentage, hills_strength, hills_frequency, hills_persistence;
    int hills_octaves;
    float turbulence_strength, turbulence_frequency, turbulence_persistence;
    int turbulence_octaves;
    float min_turbulence, turbulence_zero, surface_multiplier;
    float temperature_frequency, humidity_frequency;
    float continent_biome_scaling, island_biome_scaling;
    float beach_distance;
} GenTerrainConfig;

typedef struct GenCaveConfig {
    bool enabled;
    float probability;
    int length_min, length_max;
    int branch_length_min, branch_length_max;
    int max_branches;
    float max_distance, turn_distance;
    int brush_sizes, brush_variants;
} GenCaveConfig;

/* An ore vein or a solid pocket: `count` brushes per source chunk, painted only over `host`. */
typedef struct GenVeinConfig {
    char name[32];
    int block, host;
    int y_min, y_max;
    float count_base, count_mountain;  /* per source chunk: base + mountain * m * noise (ores) */
    int veins_min, veins_max;          /* strokes per brush */
    int steps_min, steps_max;          /* cells per stroke */
    float vertical;                    /* vertical spread of stroke directions (1 = isotropic) */
} GenVeinConfig;

/* Water or magma pockets: a basin of `block` under an air bubble, painted unconditionally. */
typedef struct GenFluidPocketConfig {
    int block;
    float probability_base, probability_mountain;
    int y_min, y_max;
    int count_min, count_max;
    int size_count;
    int sizes[GEN_MAX_FLUID_SIZES];
    bool deep;                         /* magma: the basin reaches size+2 down */
} GenFluidPocketConfig;

typedef enum GenTreeShape {
    GEN_TREE_OAK = 0, GEN_TREE_BIRCH, GEN_TREE_SPRUCE, GEN_TREE_TALL_SPRUCE, GEN_TREE_MIMOSA, GEN_TREE_POPLAR,
    GEN_TREE_SHAPE_COUNT
} GenTreeShape;

typedef struct GenTreeConfig {
    char name[32];
    GenTreeShape shape;
    int trunk, leaves;
    float probability_scale;
    GenTrapezoid probability_temperature, probability_humidity, probability_height;
    float density_scale;
    GenTrapezoid density_temperature, density_humidity, density_height;
    int size_count;
    float sizes[GEN_MAX_TREE_BRUSHES]; /* heights (mimosa: crown size), one brush each */
} GenTreeConfig;

typedef struct GenFlowerConfig { int block; float probability; } GenFlowerConfig;

typedef struct GenPlantConfig {
    int grass_humidity_min;            /* tall grass needs humidity >= this */
    float grass_humidity_divisor;      /* p(tall grass) = humidity / divisor */
    int flower_count;
    GenFlowerConfig flowers[GEN_MAX_FLOWERS];
    float dry_bush_probability;        /* on dry dirt */
    float sand_bush_probability;       /* on dry sand */
    float cactus_chunk_probability;
    float pumpkin_chunk_probability;
} GenPlantConfig;

/* Gen24 version 4's climate rules: where gen24 departs from seed 000's text, each rule is selectable so both
 * can be mapped (docs/review/); the defaults are the rules version 4 keeps (gen24.c says why). Versions 1..3
 * ignore this and keep 0, 170, false. */
typedef struct GenClimateConfig {
    int frozen_at_or_below;     /* a place is frozen when temperature + altitude adjustment <= this (0: IsPlaceFrozen) */
    int alpine_ice_above;       /* frozen tops above this height get an ice surface layer */
    bool mountain_ridged_octaves; /* fold each octave of the mountain range noise (else the octave sum) */
} GenClimateConfig;

typedef struct WorldgenConfig {
    int version;
    int sea_level;
    GenTerrainConfig terrain;
    GenCaveConfig caves;
    int ore_count;
    GenVeinConfig ores[GEN_MAX_VEINS];
    int pocket_count;
    GenVeinConfig pockets[GEN_MAX_VEINS];
    GenFluidPocketConfig water_pockets, magma_pockets;
    int trees_max_per_chunk, trees_tries, trees_min_y;
    int tree_type_count;
    GenTreeConfig trees[GEN_MAX_TREE_TYPES];
    GenPlantConfig plants;
    GenClimateConfig climate;          /* optional "climate" object; defaults when absent */
    uint64_t text_hash;                /* hash of the file's text: part of the cache key */
    char scatter_path[512];            /* worldgen_load: scatter.json beside the file, else assets/scatter.json */
} WorldgenConfig;

/* Loads and validates worldgen.json; block names resolve through `blocks`. ST_ERR_IO / ST_ERR_FORMAT with
 * a message naming the file and field. */
StResult worldgen_load(const char *path, const BlockRegistry *blocks, WorldgenConfig *out);
StResult worldgen_parse(const char *path, const char *text, const BlockRegistry *blocks, WorldgenConfig *out);
/* Version 4's climate rules, as a file without a "climate" object gets them. */
void worldgen_climate_default(GenClimateConfig *c);

#endif
