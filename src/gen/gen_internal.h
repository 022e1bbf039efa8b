/* gen_internal.h — private to src/gen: the worldgen.json tunables, the chunk-clipped brush, the gen24
 * generator's private state and the per-thread GenContext caches.
 *
 * Purity rule (the whole module lives by it): every cell a pass writes is a function of the seed, the
 * settings, the tunables and the chunk coordinates. Features that cross chunk borders (caves, veins,
 * pockets, trees) are derived per *source chunk* from the seed; every chunk they touch re-derives them
 * and paints only its own cells. Caches (GenContext) only memoise such pure derivations; the result never
 * depends on what is cached. Nothing here is shared mutable state: a Generator is immutable after
 * creation, a GenContext belongs to one thread. */
#ifndef STRATA_GEN_INTERNAL_H
#define STRATA_GEN_INTERNAL_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/brush.h"
#include "strata/chunk.h"
#include "strata/config.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/noise.h"
#include "strata/rng.h"

#define GEN_TAG "gen"

/* ------------------------------------------------------------------------------------------------ */
/* worldgen.json                                                                                    */
/* ------------------------------------------------------------------------------------------------ */

#define GEN_MAX_VEINS 24          /* ore and pocket kinds each */
#define GEN_MAX_TREE_TYPES 8
#define GEN_MAX_TREE_BRUSHES 24
#define GEN_MAX_FLUID_SIZES 6
#define GEN_MAX_FLOWERS 8

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

/* Survivalcraft's RangeProbability trapezoid: 0 below a, rising to 1 at b, 1 to c, falling to 0 at d. */
typedef struct GenTrapezoid { float a, b, c, d; } GenTrapezoid;

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
    uint64_t text_hash;                /* hash of the file's text: part of the cache key */
} WorldgenConfig;

/* Loads and validates worldgen.json; block names resolve through `blocks`. ST_ERR_IO / ST_ERR_FORMAT with
 * a message naming the file and field. */
StResult worldgen_load(const char *path, const BlockRegistry *blocks, WorldgenConfig *out);
StResult worldgen_parse(const char *path, const char *text, const BlockRegistry *blocks, WorldgenConfig *out);

/* ------------------------------------------------------------------------------------------------ */
/* gen24                                                                                            */
/* ------------------------------------------------------------------------------------------------ */

#define GEN24_COARSE_LEVELS 33      /* density samples every 8 blocks, y 0..256 */
#define GEN24_CAVE_TYPES_MAX 12
#define GEN24_CAVE_VARIANTS_MAX 6

typedef struct Gen24 {
    WorldgenConfig cfg;
    const BlockRegistry *blocks;
    uint64_t key;                 /* gen_generator_key: identifies the inputs for the context caches */
    int ocean_level;
    bool island;
    float island_x, island_z;
    float biome_scaling;
    float shore_fluctuations, shore_fluctuations_scaling;
    float temperature_offset, humidity_offset;

    /* one seeded noise table per term: no term is shared between worlds */
    NoiseTable n_temperature, n_humidity, n_mountains, n_ocean_slope, n_shore_x, n_shore_z;
    NoiseTable n_biome1, n_biome2, n_hills, n_mountain_detail, n_rivers, n_turbulence;
    NoiseTable n_bedrock, n_forest, n_ice, n_ore_count;

    /* per-feature seeds */
    uint64_t seed_caves, seed_veins, seed_pockets, seed_surface, seed_trees, seed_plants, seed_cacti,
             seed_pumpkins, seed_forest, seed_snow;

    /* prebuilt brushes (built from the seed at creation) */
    int cave_types, cave_variants;
    CompiledBrush cave_brushes[GEN24_CAVE_TYPES_MAX * GEN24_CAVE_VARIANTS_MAX];
    CompiledBrush ore_brushes[GEN_MAX_VEINS][16];
    CompiledBrush pocket_brushes[GEN_MAX_VEINS][16];
    CompiledBrush water_brushes[GEN_MAX_FLUID_SIZES * 4];
    CompiledBrush magma_brushes[GEN_MAX_FLUID_SIZES * 4];
    CompiledBrush tree_brushes[GEN_MAX_TREE_TYPES][GEN_MAX_TREE_BRUSHES];

    /* how many chunks away a feature's source may lie and still touch a chunk (from brush bounds) */
    int cave_range, vein_range, fluid_range, tree_range;

    uint8_t replaceable_by_trees[BLOCK_MAX];
    uint8_t plant_block[BLOCK_MAX];
    uint8_t supports_snow[BLOCK_MAX];
    int snow_cover;             /* what pass 4 lays on frozen tops: BLOCK_SNOW_LAYER (version 1: BLOCK_SNOW) */
    bool plants_in_snow;        /* version 1: frozen columns grow plants too (and then carry no snow) */
} Gen24;

/* The 2D fields at a lattice point (world x, z multiples of 4): the raw noise values behind temperature,
 * humidity and the mountain range factor. Columns between lattice points interpolate them bilinearly
 * (gen24_field_bilerp) — the fields are far smoother than 4 blocks — so a chunk needs 25 samples, not 256,
 * and the public functions use the same interpolation, so shafts equal calculate_temperature exactly. */
typedef struct Gen24Lattice {
    float temperature, humidity, mountain;
} Gen24Lattice;

/* A sampled coarse density column at a lattice point, with its fields. */
typedef struct Gen24Coarse {
    float density[GEN24_COARSE_LEVELS];
    Gen24Lattice fields;
    float height, turbulence;   /* the inputs of every level: height and turbulence strength */
} Gen24Coarse;

/* Survivalcraft's OctavedNoise over our simplex, calibrated: Survivalcraft's formulas (thresholds like
 * "3n - 1.1", squish bands) were tuned against its simplex, whose 2D output is narrower and 3D output wider
 * than ours (ours is scaled to its exact maximum). Rescaling the deviation from 0.5 by the measured ratio
 * of standard deviations (2D 0.2219 / 0.2762, 3D 0.2133 / 0.1960, over 2e5 samples) gives the fields the
 * distribution those formulas expect. */
#define GEN_SC_SCALE_2D 0.8034f
#define GEN_SC_SCALE_3D 1.0883f
static inline float gen_noise2(const NoiseTable *t, float x, float z, float frequency, int octaves, float frequency_step,
                               float amplitude_step)
{
    float n = noise_octaved2(t, x, z, frequency, octaves, frequency_step, amplitude_step, false);
    return 0.5f + (n - 0.5f) * GEN_SC_SCALE_2D;
}
static inline float gen_noise3(const NoiseTable *t, float x, float y, float z, float frequency, int octaves,
                               float frequency_step, float amplitude_step)
{
    float n = noise_octaved3(t, x, y, z, frequency, octaves, frequency_step, amplitude_step, false);
    n = 0.5f + (n - 0.5f) * GEN_SC_SCALE_3D;
    return n < 0.0f ? 0.0f : (n > 1.0f ? 1.0f : n);
}

/* Sine and cosine from plain arithmetic (range reduction and a degree-9 polynomial, |error| < 4e-6):
 * libm picks FMA or non-FMA variants of sinf/powf by CPU, which may round differently, and a world must
 * have the same bits on every machine. */
static inline float gen_sin(float x)
{
    float k = floorf(x * 0.159154943f + 0.5f);
    float r = x - k * 6.28318531f;
    if (r > 1.57079633f) r = 3.14159265f - r;
    else if (r < -1.57079633f) r = -3.14159265f - r;
    float r2 = r * r;
    return r * (1.0f + r2 * (-0.166666667f + r2 * (0.00833333333f + r2 * (-0.000198412698f + r2 * 2.75573192e-6f))));
}
static inline float gen_cos(float x) { return gen_sin(x + 1.57079633f); }

/* The highest y <= from whose cell is not air (-1 if none), skipping 8 air cells at a time. */
static inline int gen_column_top(const int32_t *column, int from)
{
    int y = from;
    while (y >= 7 && !((column[y] | column[y - 1] | column[y - 2] | column[y - 3] | column[y - 4] | column[y - 5] |
                        column[y - 6] | column[y - 7]) & CELL_CONTENTS_MASK))
        y -= 8;
    while (y >= 0 && !(column[y] & CELL_CONTENTS_MASK))
        y--;
    return y;
}

/* gen24_fields.c */
float gen24_shore_x(const Gen24 *g, float z);
float gen24_shore_z(const Gen24 *g, float x);
/* Shore distance from the shore lines: sx = shore_x(z), sz = shore_z(x); island mode also the far lines
 * sx_far = shore_x(z + 1000), sz_far = shore_z(x + 1000) (ignored otherwise). */
float gen24_shore_combine(const Gen24 *g, float x, float z, float sx, float sz, float sx_far, float sz_far);
float gen24_shore_distance(const Gen24 *g, float x, float z);
/* Survivalcraft's ridged mountain range factor, exactly at (x, z) (used by the height). */
float gen24_mountain_raw(const Gen24 *g, float x, float z);
void gen24_lattice(const Gen24 *g, int wx, int wz, Gen24Lattice *out);
float gen24_field_bilerp(float v00, float v10, float v01, float v11, float fx, float fz);
int gen24_temperature_of(const Gen24 *g, float raw);
int gen24_humidity_of(const Gen24 *g, float raw);
/* Lattice-interpolated fields at any point (the public interface). */
float gen24_mountain_factor(const Gen24 *g, float x, float z);
int gen24_temperature(const Gen24 *g, float x, float z);
int gen24_humidity(const Gen24 *g, float x, float z);
float gen24_height(const Gen24 *g, float x, float z);
float gen24_forest_density(const Gen24 *g, int cx, int cz);
void gen24_find_spawn(const Gen24 *g, int *x, int *z);
static inline float gen_squish(float v, float zero, float one)
{
    float t = (v - zero) / (one - zero);
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}
static inline float gen_saturate(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }
static inline float gen_lerp(float a, float b, float t) { return a + (b - a) * t; }
float gen_range_probability(float v, GenTrapezoid t);
/* Survivalcraft's temperature change with altitude. */
int gen_temperature_adjustment(int y);
static inline bool gen_is_place_frozen(int temperature, int y)
{
    return temperature + gen_temperature_adjustment(y) <= 0;
}
/* The frozen-column rule of pass 4, shared by plants and snow: a column whose top ground cell lies at
 * `ground_y` (the cell a plant or the snow cover would stand on) is frozen when that cell's place is. Such a
 * column gets snow cover and (generator version 2) no plant. Note that frozen(y) implies frozen(y + 1): the
 * altitude adjustment never rises with y. */
static inline bool gen_is_column_frozen(int temperature, int ground_y)
{
    return gen_is_place_frozen(temperature, ground_y);
}

/* gen24_fill.c: the density field, shared by pass 1 and by anything that must know the base fill of a
 * column purely (tree placement, water next to a cave). */
/* The coarse column at lattice point (wx, wz): densities of levels below max_level, and (if `fields`) the
 * lattice fields. */
void gen24_coarse_column(const Gen24 *g, int wx, int wz, int max_level, bool fields, Gen24Coarse *out);
/* The height, turbulence strength and (if `fields`) lattice fields of a coarse column, without levels. */
void gen24_coarse_base(const Gen24 *g, int wx, int wz, bool fields, Gen24Coarse *out);
/* The density of level l (y = 8 l) of a coarse column whose base is known. */
float gen24_coarse_level(const Gen24 *g, const Gen24Coarse *c, int wx, int wz, int l);
/* Bilinear interpolation of one level's four corner densities (the one expression every user shares). */
static inline float gen24_level_bilerp(float d00, float d10, float d01, float d11, float fx, float fz)
{
    float a = d00 + (d10 - d00) * fx;
    float b = d01 + (d11 - d01) * fx;
    return a + (b - a) * fz;
}
/* Interpolated densities of world column (wx, wz) from the four coarse columns around it, for y in
 * [0, y_end). The corners are the coarse columns at (wx & ~3, wz & ~3) and +4 in x and z. */
void gen24_column_density(const Gen24Coarse *c00, const Gen24Coarse *c10, const Gen24Coarse *c01,
                          const Gen24Coarse *c11, int wx, int wz, int y_end, float *out);
/* Temperature, humidity and mountain factor of world column (wx, wz) from the lattice fields of the
 * four coarse columns around it (equal to gen24_temperature & co. at that column). */
void gen24_column_fields(const Gen24 *g, const Gen24Coarse *c00, const Gen24Coarse *c10, const Gen24Coarse *c01,
                         const Gen24Coarse *c11, int wx, int wz, int *temperature, int *humidity, float *mountain);
/* The rock for a solid cell at density d: sandstone, granite or basalt. */
typedef struct Gen24RockRule { float sandstone_below, basalt_from; bool sandstone; } Gen24RockRule;
Gen24RockRule gen24_rock_rule(const Gen24 *g, float shore_distance, float mountain, int temperature, int humidity);
static inline int gen24_rock(Gen24RockRule r, float d)
{
    if (r.sandstone && d < r.sandstone_below) return BLOCK_SANDSTONE;
    return d < r.basalt_from ? BLOCK_GRANITE : BLOCK_BASALT;
}
void gen24_pass1(const Generator *gen, TerrainChunk *chunk, GenContext *ctx);

/* gen_surface.c */
void gen24_pass2(const Generator *gen, TerrainChunk *chunk, GenContext *ctx);
/* The surface layer rule for a column whose topmost ground cell is `top_block` at `top_y`: writes the
 * block and how many cells deep it goes (0: bare). Pure in (x, z) and its arguments. */
void gen24_surface_layer(const Gen24 *g, int wx, int wz, int top_y, int top_block, int above_block,
                         int temperature, int humidity, float mountain, int *block, int *depth);
void gen24_fluids_down(const Gen24 *g, TerrainChunk *chunk);
void gen24_snow_and_ice(const Gen24 *g, TerrainChunk *chunk);
void gen24_bedrock_and_air(const Gen24 *g, TerrainChunk *chunk);

/* gen_caves.c */
StResult gen24_build_cave_brushes(Gen24 *g, uint64_t seed);
void gen24_caves(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);
/* May local cell (x, y, z) become air without touching water? Not if it or the cell above is water, nor
 * if a horizontal neighbour is: inside the chunk read from the chunk, outside it from the pure base fill.
 * Call ctx->ring_sides = 0 once at the start of each pass 3. */
bool gen24_carve_allowed(const Gen24 *g, GenContext *ctx, const TerrainChunk *chunk, int x, int y, int z);

/* gen_minerals.c */
StResult gen24_build_mineral_brushes(Gen24 *g, uint64_t seed);
void gen24_pockets(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);
void gen24_minerals(const Gen24 *g, TerrainChunk *chunk);

/* gen_trees.c */
StResult gen24_build_tree_brushes(Gen24 *g, uint64_t seed);
void gen24_trees(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);

/* gen_plants.c */
void gen24_grass_and_plants(const Gen24 *g, TerrainChunk *chunk);
void gen24_cacti(const Gen24 *g, TerrainChunk *chunk);
void gen24_pumpkins(const Gen24 *g, TerrainChunk *chunk);

/* gen24.c: create and the interface */
StResult gen24_create(Generator *gen, const WorldgenConfig *cfg, int version);
/* gen_flat.c */
StResult gen_flat_create(Generator *gen, const WorldgenConfig *cfg, int version);

/* ------------------------------------------------------------------------------------------------ */
/* GenContext: per-thread scratch and memo caches (generator.c)                                     */
/* ------------------------------------------------------------------------------------------------ */

typedef struct GenCaveStroke { int32_t x, y, z; int32_t brush; } GenCaveStroke;

typedef struct GenTreePlacement { int32_t x, y, z; int16_t type, brush; } GenTreePlacement;

/* One memoised derivation for a source chunk. `key` identifies the generator's inputs (seed, settings,
 * tunables), so two equal generators may share entries and a different one never hits. */
typedef struct GenCacheEntry {
    bool valid;
    uint64_t key;
    int sx, sz;
    uint64_t stamp;
    int min_x, max_x, min_z, max_z;  /* world bounds of everything painted (for quick rejects) */
    int count, cap;
    void *items;                     /* GenCaveStroke[] or GenTreePlacement[] */
} GenCacheEntry;

#define GEN_CACHE_ENTRIES 256

typedef struct GenCache {
    uint64_t tags[GEN_CACHE_ENTRIES];    /* hash of (key, sx, sz) per valid entry, 0 = empty: a fast scan */
    GenCacheEntry entries[GEN_CACHE_ENTRIES];
    uint64_t clock;
    size_t item_size;
    long hits, misses;
} GenCache;

struct GenContext {
    GenCache caves;
    GenCache trees;
    /* pass-3 scratch: base-fill water in the ring of columns just outside the chunk, per side, computed
     * when first needed (ring_sides: bit per side valid) */
    unsigned ring_sides;
    int ring_levels;                                    /* cells y < ring_levels are covered */
    uint8_t ring_water[4][16][256];                     /* side (-x, +x, -z, +z), along-edge index, y */
};

/* Finds the entry for (key, sx, sz); on a miss returns the least recently used entry reset to (key, sx,
 * sz) with count 0 and *hit false. Never NULL. */
GenCacheEntry *gen_cache_lookup(GenCache *cache, uint64_t key, int sx, int sz, bool *hit);
/* Ensures room for `n` more items; false when out of memory (the entry is then marked invalid, so the
 * truncated derivation is never reused). */
bool gen_cache_reserve(GenCache *cache, GenCacheEntry *e, int n);

/* The key that identifies a generator's inputs (generator.c). */
uint64_t gen_generator_key(const Generator *g, uint64_t worldgen_hash);

/* Random helpers over Rng. */
typedef struct GenVec3 { float x, y, z; } GenVec3;
GenVec3 gen_rng_direction(Rng *rng);              /* uniform on the unit sphere */
static inline GenVec3 gen_vec3(float x, float y, float z) { GenVec3 v = {x, y, z}; return v; }
GenVec3 gen_vec3_normalize(GenVec3 v);

#endif
