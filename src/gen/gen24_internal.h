/* gen24_internal.h — private to src/gen: the gen24 generator (continent and island terrain) — its state
 * (Gen24), the density fill, the 2D fields and climate rules, and the entry points of its passes and
 * features, which live in gen24*.c, gen_surface.c, gen_caves.c, gen_minerals.c, gen_trees.c, gen_plants.c.
 *
 * A Gen24 is immutable after gen24_create (gen_generators.h) and may be read from any thread; per-thread
 * scratch is the GenContext (gen_feature.h). Every function here is pure in its arguments.
 * Dependencies: gen24.c (creation, the class) calls the pass files; the pass files depend on this header's
 * types and on the fields and fill (gen24_fields.c, gen24_fill.c), never on gen24.c. */
#ifndef STRATA_GEN24_INTERNAL_H
#define STRATA_GEN24_INTERNAL_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/brush.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/noise.h"
#include "gen_config.h"
#include "gen_math.h"

#define GEN24_COARSE_LEVELS 33      /* density samples every 8 blocks, y 0..256 */

/* Generator versions (gen24.c describes each). Version 4 is the climate review of seed 000's rules and the
 * scatter rules (src/gen/structures); version 5 lays the snow after the structures; versions 1..4 still
 * generate exactly as they did. */
#define GEN24_VERSION_SCATTER 4
#define GEN24_VERSION_CLIMATE 4
#define GEN24_VERSION_SNOW_LAST 5

struct GenHeightmap; /* gen_heightmap.h */

typedef struct Gen24 {
    WorldgenConfig cfg;
    /* heightmap worlds: the map that replaces the height, shore, climate (with a biome map) and surface
     * rules; NULL for gen24's own worlds */
    struct GenHeightmap *hm;
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
    bool snow_last;             /* version 5: pass 4 lays the snow after the structures, not before */
    struct GenStructures *structures; /* version 3: settlements, flat zones, dungeons (NULL before) */
    GenClimateConfig climate;   /* version 4: cfg.climate; before: frozen at <= 0, ice above 170, folded sum */
    int tree_ext;               /* the widest reach of a tree brush from its trunk, blocks */
    /* version 4: pass 4's trees and plants from scatter rules (gen_scatter.c; NULL before) */
    struct ScatterConfig *scatter;
    struct GenScatterRules *scatter_rules;
    uint64_t seed_scatter;
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
/* Inline (here, not in gen24_fields.c): pass 4's scatter rules evaluate them for every candidate. */
static inline float gen24_field_bilerp(float v00, float v10, float v01, float v11, float fx, float fz)
{
    float a = v00 + (v10 - v00) * fx;
    float b = v01 + (v11 - v01) * fx;
    return a + (b - a) * fz;
}
static inline int gen24_field_0_15(float v)
{
    int i = (int)(gen_saturate(v) * 16.0f);
    return i < 0 ? 0 : (i > 15 ? 15 : i);
}
static inline int gen24_temperature_of(const Gen24 *g, float raw)
{
    return gen24_field_0_15(3.0f * raw - 1.1f + g->temperature_offset / 16.0f);
}
static inline int gen24_humidity_of(const Gen24 *g, float raw)
{
    return gen24_field_0_15(3.0f * raw - 0.9f + g->humidity_offset / 16.0f);
}
/* Lattice-interpolated fields at any point (the public interface). */
float gen24_mountain_factor(const Gen24 *g, float x, float z);
int gen24_temperature(const Gen24 *g, float x, float z);
int gen24_humidity(const Gen24 *g, float x, float z);
float gen24_height(const Gen24 *g, float x, float z);
float gen24_forest_density(const Gen24 *g, int cx, int cz);
/* gen_scatter.c: Generator.tree_cover (the tree rules' density at (wx, wz), the densest rule's leaves); 0
 * without scatter rules. Pure. */
float gen24_tree_cover(const Gen24 *g, int wx, int wz, int *leaves);
void gen24_find_spawn(const Gen24 *g, int *x, int *z);
/* Survivalcraft's temperature change with altitude. */
static inline int gen_temperature_adjustment(int y)
{
    float a = y > 64 ? -0.0008f * (float)((y - 64) * (y - 64)) : 0.1f * (float)(64 - y);
    return (int)lrintf(a); /* round half to even, like Math.Round */
}
static inline bool gen_is_place_frozen(int temperature, int y)
{
    return temperature + gen_temperature_adjustment(y) <= 0;
}
/* A generator's frozen rule: Survivalcraft's IsPlaceFrozen (altitude-adjusted temperature <= 0), or with
 * worldgen.json climate.frozen_at_or_below a higher threshold on the same adjusted temperature (8: seed 000's
 * "cold at temperature <= 8"). Version 4 keeps IsPlaceFrozen: the seed's threshold freezes about two thirds
 * of the land (gen24.c, docs/review/frozen_*.png). */
static inline bool gen24_place_frozen(const Gen24 *g, int temperature, int y)
{
    return temperature + gen_temperature_adjustment(y) <= g->climate.frozen_at_or_below;
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
/* The block column (wx, wz) shows from above, its ground cell at `top_y` (water where that is under the sea
 * level) and its climate `temperature`, `humidity`: the rules of passes 1, 2 and 4 for that cell alone,
 * without plants or buildings, and oak leaves for woodland (what Generator.surface_block gives far
 * terrain). Pure. */
int gen24_surface_block(const Gen24 *g, int wx, int wz, int top_y, int temperature, int humidity);
void gen24_bedrock_and_air(const Gen24 *g, TerrainChunk *chunk);

/* gen_caves.c */
StResult gen24_build_cave_brushes(Gen24 *g, uint64_t seed);
void gen24_caves(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);
/* May local cell (x, y, z) become air without touching water? Not if it or the cell above is water, nor
 * if a horizontal neighbour is: inside the chunk read from the chunk (through `view`, the chunk's
 * CellView), outside it from the pure base fill. Call ctx->ring_sides = 0 once at the start of each pass 3. */
bool gen24_carve_allowed(const Gen24 *g, GenContext *ctx, const TerrainChunk *chunk, CellView view, int x, int y,
                         int z);

/* gen_minerals.c */
StResult gen24_build_mineral_brushes(Gen24 *g, uint64_t seed);
void gen24_pockets(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);
void gen24_minerals(const Gen24 *g, TerrainChunk *chunk);

/* gen_trees.c */
StResult gen24_build_tree_brushes(Gen24 *g, uint64_t seed);
/* The pure base fill of a source chunk (origin ox, oz), evaluated lazily, from local -4 to 19 in x and z:
 * what trees and scatter objects test their ground on (never the chunk's cells). */
typedef struct GenSourceFill {
    const Gen24 *g;
    int ox, oz;
    bool have[7][7];             /* coarse column (cx, cz), cx in -1..5: [cz + 1][cx + 1] */
    uint64_t levels[7][7];       /* bit l: density[l] computed */
    Gen24Coarse coarse[7][7];
} GenSourceFill;
void gen_source_fill_init(GenSourceFill *s, const Gen24 *g, int ox, int oz);
const Gen24Coarse *gen_source_coarse(GenSourceFill *s, int cx, int cz);
/* The interpolated density of local cell (x, y, z), as pass 1 computes it. */
float gen_source_density(GenSourceFill *s, int x, int y, int z);
/* The topmost non-air cell of local column (x, z) (solid, or water at or below `ocean`), -1 if none; *density
 * gets its density (negative: water). */
int gen_source_top(GenSourceFill *s, int x, int z, int ocean, float *density);
void gen24_trees(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);

/* gen_scatter.c (version 4) */
StResult gen24_scatter_create(Gen24 *g, const char *path);
void gen24_scatter_destroy(Gen24 *g);
/* Pass 4 in version 4: grass tops, the plant layers (per chunk), then the object layers (trees, boulders,
 * rocks, templates: a GenFeature). */
void gen24_scatter_plants(const Gen24 *g, TerrainChunk *chunk);
void gen24_scatter_objects(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx);
/* generator_list_scatter for gen24 */
int gen24_scatter_list(const Gen24 *g, GenContext *ctx, int x0, int z0, int x1, int z1, GeneratorScatterPoint *out,
                       int max);

/* gen_plants.c */
void gen24_grass_and_plants(const Gen24 *g, TerrainChunk *chunk);
void gen24_cacti(const Gen24 *g, TerrainChunk *chunk);
void gen24_pumpkins(const Gen24 *g, TerrainChunk *chunk);

#endif
