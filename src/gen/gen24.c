/* gen24.c — the standard generator: creation (seeded noise tables, prebuilt brushes) and the interface
 * (a struct of function pointers, generator.h).
 *
 * Design: after TerrainContentsGenerator24. Pass 1: shafts and the density fill (gen24_fill.c). Pass 2:
 * surface layers by biome (gen_surface.c). Pass 3: pockets, caves, ore veins, fluids falling down
 * (pockets first, so that caves, which never carve next to water, also keep clear of pocket water).
 * Pass 4: grass and plants, trees, cacti, pumpkins, snow and ice, bedrock and the air ceiling. The
 * generator is immutable after creation and used from any thread; per-thread scratch is the GenContext.
 * Every term and feature gets its own seed from rng_derive(world seed, name). */
#include "gen24_internal.h"
#include "gen_feature.h"
#include "gen_generators.h"
#include "gen_heightmap.h"
#include "structures/gen_structures.h"
#include "strata/scatter.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Version 2: snow cover is the thin snow_layer, and frozen columns grow no plant (the layer lies there instead).
 * Version 1 (worlds made before) covered frozen ground, leaves and ice with full snow cubes and grew plants in
 * frozen columns; it is still built on request, so such a world's new chunks match its old. */
#define GEN24_VERSION 5
#define GEN24_VERSION_FULL_SNOW 1
/* Version 3: structures (src/gen/structures): settlements of stations on flat zones that level pass 1's
 * density, vegetation cleared on them, WFC dungeons carved in pass 3 with an entrance shaft to a flat zone.
 * Version 2 worlds are still built exactly as before (no structures). */
#define GEN24_VERSION_STRUCTURES 3
/* Version 4 (GEN24_VERSION_CLIMATE, gen24_internal.h): the climate review of where gen24 departed from seed
 * 000's text, each rule selectable in worldgen.json's "climate" object and mapped both ways in docs/review/
 * (seeds 1 and 2, x, z 0..2048):
 * - cold: the seed's flowchart calls temperature <= 8 cold (climate.frozen_at_or_below 8). Kept Survivalcraft's
 *   IsPlaceFrozen (altitude-adjusted temperature <= 0, gen24_place_frozen): with <= 8 snow covers 67% of the
 *   land of seed 1 and 60% of seed 2 (24% and 21% now), forests and grassland shrink to islands, and deserts
 *   border snowfields with nothing between (review/frozen_s*_le8.png against review/baseline_s*.png).
 * - alpine ice: above height 120, as the seed says (170 before; climate.alpine_ice_above). Frozen mountain tops
 *   from 121 up become ice (which carries no snow layer), so a glacier runs from the icy peaks down the cold
 *   valleys to ~120 instead of stopping at 170 (review/ice_s*_120.png against baseline_s*.png, and the close-up
 *   ice_s1_closeup.png: 170, 120, changed columns in red): the maps still look right, so the seed's rule stands.
 * - mountain ranges: kept the folded octave sum (gen24_fields.c says why; review/mountain_s*_*.png).
 * Versions 1..3 keep IsPlaceFrozen, ice above 170 and the folded sum, whatever worldgen.json says. */
/* Version 5 (GEN24_VERSION_SNOW_LAST): pass 4 lays snow and ice after the structures. Before, the snow fell
 * first and a settlement then cleared its trees, so in frozen land the snow that lay on their leaves floated
 * over the plaza; now it lies on the cleared ground, and the stations' roofs carry it too. Versions 1..4 are
 * still built exactly as before (their worlds' new chunks match their old ones). */
/* Version 4 also (GEN24_VERSION_SCATTER, gen24_internal.h): pass 4's trees and plants (grass, flowers, bushes,
 * cacti, pumpkins) come from the scatter rules of assets/scatter.json (gen_scatter.c): order-independent
 * spacing, density maps, exclusions, biome layers. Versions 1..3 are still built exactly as before. */

static const Gen24 *impl(const Generator *g) { return g->impl; }

static int g24_ocean_level(const Generator *g) { return impl(g)->ocean_level; }

static void g24_spawn(const Generator *g, int *x, int *z) { gen24_find_spawn(impl(g), x, z); }

static float g24_shore(const Generator *g, float x, float z) { return gen24_shore_distance(impl(g), x, z); }

static float g24_height(const Generator *g, float x, float z)
{
    const Gen24 *gi = impl(g);
    float h = gen24_height(gi, x, z);
    return gi->structures ? gen_structures_height(gi->structures, x, z, h) : h;
}

static float g24_procedural_height(const void *gen24, float x, float z) { return gen24_height(gen24, x, z); }

static int g24_temperature(const Generator *g, float x, float z) { return gen24_temperature(impl(g), x, z); }

static int g24_humidity(const Generator *g, float x, float z) { return gen24_humidity(impl(g), x, z); }

static float g24_mountain(const Generator *g, float x, float z) { return gen24_mountain_factor(impl(g), x, z); }

static int g24_surface_block(const Generator *g, float x, float z, float height, int temperature, int humidity)
{
    int ocean = impl(g)->ocean_level;
    return gen24_surface_block(impl(g), (int)floorf(x), (int)floorf(z),
                               height < (float)ocean + 0.5f ? ocean - 1 : (int)floorf(height), temperature, humidity);
}

static float g24_tree_cover(const Generator *g, float x, float z, int *leaves)
{
    return gen24_tree_cover(impl(g), (int)floorf(x), (int)floorf(z), leaves);
}

static void g24_pass3(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    const Gen24 *g = impl(gen);
    ctx->ring_sides = 0;
    gen24_pockets(g, chunk, ctx);
    gen24_caves(g, chunk, ctx);
    gen24_minerals(g, chunk);
    if (g->structures)
        gen_structures_pass3(g->structures, ctx, chunk);
    gen24_fluids_down(g, chunk);
}

static void g24_pass4(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    const Gen24 *g = impl(gen);
    if (g->scatter) {
        gen24_scatter_plants(g, chunk);
        gen24_scatter_objects(g, chunk, ctx);
    } else {
        gen24_grass_and_plants(g, chunk);
        gen24_trees(g, chunk, ctx);
        gen24_cacti(g, chunk);
        gen24_pumpkins(g, chunk);
    }
    if (!g->snow_last)
        gen24_snow_and_ice(g, chunk);
    if (g->structures)
        gen_structures_pass4(g->structures, chunk);
    if (g->snow_last)
        gen24_snow_and_ice(g, chunk);
    gen24_bedrock_and_air(g, chunk);
}

static void free_brushes(CompiledBrush *b, int n)
{
    for (int i = 0; i < n; i++)
        brush_compiled_free(b + i);
}

static void g24_destroy(Generator *gen)
{
    Gen24 *g = gen->impl;
    if (!g)
        return;
    gen_heightmap_free(g->hm);
    free_brushes(g->cave_brushes, GEN24_CAVE_TYPES_MAX * GEN24_CAVE_VARIANTS_MAX);
    for (int k = 0; k < GEN_MAX_VEINS; k++) {
        free_brushes(g->ore_brushes[k], 16);
        free_brushes(g->pocket_brushes[k], 16);
    }
    gen_structures_destroy(g->structures);
    gen24_scatter_destroy(g);
    free_brushes(g->water_brushes, GEN_MAX_FLUID_SIZES * 4);
    free_brushes(g->magma_brushes, GEN_MAX_FLUID_SIZES * 4);
    for (int k = 0; k < GEN_MAX_TREE_TYPES; k++)
        free_brushes(g->tree_brushes[k], GEN_MAX_TREE_BRUSHES);
    free(g);
    gen->impl = NULL;
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void init_tables(Gen24 *g, uint64_t seed)
{
    struct { NoiseTable *t; const char *name; } terms[] = {
        {&g->n_temperature, "temperature"}, {&g->n_humidity, "humidity"},     {&g->n_mountains, "mountains"},
        {&g->n_ocean_slope, "ocean_slope"}, {&g->n_shore_x, "shore_x"},       {&g->n_shore_z, "shore_z"},
        {&g->n_biome1, "height_biome1"},    {&g->n_biome2, "height_biome2"},  {&g->n_hills, "hills"},
        {&g->n_mountain_detail, "mountain_detail"}, {&g->n_rivers, "rivers"}, {&g->n_turbulence, "turbulence"},
        {&g->n_bedrock, "bedrock"},         {&g->n_forest, "forest"},         {&g->n_ice, "ice"},
        {&g->n_ore_count, "ore_count"},
    };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        noise_table_init(terms[i].t, rng_derive(seed, terms[i].name));
    g->seed_caves = rng_derive(seed, "caves");
    g->seed_veins = rng_derive(seed, "veins");
    g->seed_pockets = rng_derive(seed, "pockets");
    g->seed_surface = rng_derive(seed, "surface");
    g->seed_trees = rng_derive(seed, "trees");
    g->seed_plants = rng_derive(seed, "plants");
    g->seed_cacti = rng_derive(seed, "cacti");
    g->seed_pumpkins = rng_derive(seed, "pumpkins");
    g->seed_forest = rng_derive(seed, "forest_patches");
    g->seed_snow = rng_derive(seed, "snow_on_ice");
    g->seed_scatter = rng_derive(seed, "scatter");
}

static void init_block_tables(Gen24 *g)
{
    const BlockRegistry *reg = g->blocks;
    g->replaceable_by_trees[BLOCK_AIR] = 1;
    g->replaceable_by_trees[BLOCK_TALL_GRASS] = 1;
    g->replaceable_by_trees[BLOCK_RED_FLOWER] = 1;
    g->replaceable_by_trees[BLOCK_YELLOW_FLOWER] = 1;
    g->replaceable_by_trees[BLOCK_PURPLE_FLOWER] = 1;
    g->replaceable_by_trees[BLOCK_DRY_BUSH] = 1;
    g->replaceable_by_trees[BLOCK_SNOW] = 1;
    g->replaceable_by_trees[BLOCK_SNOW_LAYER] = 1;
    for (int k = 0; k < g->cfg.tree_type_count; k++)
        g->replaceable_by_trees[g->cfg.trees[k].leaves] = 1;
    for (int i = 0; i < g->cfg.plants.flower_count; i++)
        g->replaceable_by_trees[g->cfg.plants.flowers[i].block] = 1;
    for (int id = 0; id < BLOCK_MAX; id++) {
        bool leaves = reg->layer[id] == BLOCK_LAYER_ALPHA_TESTED && reg->shape[id] == BLOCK_SHAPE_CUBE;
        g->supports_snow[id] = (uint8_t)((reg->opaque_cube[id] || leaves) && id != BLOCK_SNOW && id != BLOCK_ICE);
    }
}

static const GeneratorClass GEN24_CLASS = {
    .name = "gen24",
    .ocean_level = g24_ocean_level,
    .find_coarse_spawn_position = g24_spawn,
    .calculate_ocean_shore_distance = g24_shore,
    .calculate_height = g24_height,
    .calculate_temperature = g24_temperature,
    .calculate_humidity = g24_humidity,
    .calculate_mountain_range_factor = g24_mountain,
    .surface_block = g24_surface_block,
    .tree_cover = g24_tree_cover,
    .pass = {gen24_pass1, gen24_pass2, g24_pass3, g24_pass4},
    .destroy = g24_destroy,
};

StResult gen24_create(Generator *gen, const WorldgenConfig *cfg, int version)
{
    if (version != 0 && (version < GEN24_VERSION_FULL_SNOW || version > GEN24_VERSION))
        return st_fail(ST_ERR_VERSION, "generator 'gen24' version %d is not known to this build (it has versions "
                       "%d..%d)", version, GEN24_VERSION_FULL_SNOW, GEN24_VERSION);
    if (version == 0)
        version = GEN24_VERSION;
    Gen24 *g = calloc(1, sizeof *g);
    if (!g)
        return st_fail(ST_ERR_NOMEM, "gen24: out of memory");
    const WorldSettings *s = &gen->settings;
    g->cfg = *cfg;
    g->blocks = gen->blocks;
    g->ocean_level = cfg->sea_level + s->sea_level_offset;
    g->island = s->mode == TERRAIN_MODE_ISLAND;
    g->island_x = s->island_size_x;
    g->island_z = s->island_size_z;
    g->biome_scaling = (g->island ? cfg->terrain.island_biome_scaling : cfg->terrain.continent_biome_scaling) *
                       s->biome_size;
    float island_min = g->island ? (s->island_size_x < s->island_size_z ? s->island_size_x : s->island_size_z) : FLT_MAX;
    g->shore_fluctuations = clampf(2.0f * island_min, 0.0f, 150.0f);
    g->shore_fluctuations_scaling = clampf(0.04f * island_min, 0.5f, 3.0f);
    g->temperature_offset = s->temperature_offset;
    g->humidity_offset = s->humidity_offset;
    init_tables(g, s->seed);
    init_block_tables(g);
    g->snow_cover = version == GEN24_VERSION_FULL_SNOW ? BLOCK_SNOW : BLOCK_SNOW_LAYER;
    g->plants_in_snow = version == GEN24_VERSION_FULL_SNOW;
    g->snow_last = version >= GEN24_VERSION_SNOW_LAST;
    if (version >= GEN24_VERSION_CLIMATE) {
        g->climate = cfg->climate;
    } else {
        g->climate.frozen_at_or_below = 0;
        g->climate.alpine_ice_above = 170;
        g->climate.mountain_ridged_octaves = false;
    }

    generator_init(gen, &GEN24_CLASS, version, g);
    g->key = gen_generator_key(gen, cfg->text_hash);

    StResult rc = gen24_build_cave_brushes(g, rng_derive(s->seed, "cave_brushes"));
    if (rc == ST_OK)
        rc = gen24_build_mineral_brushes(g, rng_derive(s->seed, "mineral_brushes"));
    if (rc == ST_OK)
        rc = gen24_build_tree_brushes(g, rng_derive(s->seed, "tree_brushes"));
    if (rc == ST_OK && version >= GEN24_VERSION_STRUCTURES)
        rc = gen_structures_create(g->blocks, s->seed, g->key, g->ocean_level, g24_procedural_height, g, &g->structures);
    if (rc == ST_OK && version >= GEN24_VERSION_SCATTER) {
        rc = gen24_scatter_create(g, cfg->scatter_path);
        if (rc == ST_OK) /* the rules are part of the inputs: the feature caches must not mix two sets */
            g->key = gen_generator_key(gen, cfg->text_hash ^ g->scatter->text_hash);
    }
    if (rc != ST_OK) {
        g24_destroy(gen);
        return rc;
    }
    return ST_OK;
}

/* ---- heightmap worlds ---- */

/* Version 1: gen24 version 2's passes over the map's height, climate and splat rules. A world records it, and
 * a later change to what a heightmap world generates bumps it, as for gen24. Version 2: pass 1's sandstone
 * makes sand only on the beach or in a painted desert (GenHeightmap.sand_by_sea_only), not up the slopes. */
#define GEN_HEIGHTMAP_VERSION 2
#define GEN_HEIGHTMAP_VERSION_SAND_ANYWHERE 1
#define GEN_HEIGHTMAP_GEN24_VERSION 2

StResult gen_heightmap_create(Generator *gen, const WorldgenConfig *cfg, int version)
{
    if (version != 0 && (version < GEN_HEIGHTMAP_VERSION_SAND_ANYWHERE || version > GEN_HEIGHTMAP_VERSION))
        return st_fail(ST_ERR_VERSION, "generator 'heightmap' version %d is not known to this build (it has versions "
                       "%d..%d)", version, GEN_HEIGHTMAP_VERSION_SAND_ANYWHERE, GEN_HEIGHTMAP_VERSION);
    if (version == 0)
        version = GEN_HEIGHTMAP_VERSION;
    GenHeightmap *hm = NULL;
    WorldSettings *s = &gen->settings;
    StResult rc = gen_heightmap_load(s, gen->blocks, cfg->sea_level + s->sea_level_offset, &hm);
    if (rc != ST_OK) return rc;
    char hash[WORLD_SETTINGS_HASH_TEXT];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)hm->hash);
    if (s->heightmap_hash[0] && strcmp(s->heightmap_hash, hash) != 0) {
        gen_heightmap_free(hm);
        return st_fail(ST_ERR_STATE,
                       "%s changed since this world was made (map files hash %s, now %s): its new chunks would not "
                       "match the old ones; restore the map (and biome map / splat rules) it was made with",
                       s->heightmap, s->heightmap_hash, hash);
    }
    snprintf(s->heightmap_hash, sizeof s->heightmap_hash, "%s", hash);   /* recorded in world.json, */
    s->map_width = hm->map.width;                                          /* with the map's size */
    s->map_height = hm->map.height;
    if ((rc = gen24_create(gen, cfg, GEN_HEIGHTMAP_GEN24_VERSION)) != ST_OK) {
        gen_heightmap_free(hm);
        return rc;
    }
    Gen24 *g = gen->impl;
    g->hm = hm;
    hm->sand_by_sea_only = version >= 2;
    gen->name = "heightmap";
    gen->version = version;
    g->key = gen_generator_key(gen, cfg->text_hash ^ hm->hash);
    return ST_OK;
}

/* ---- structures, for tools and the game (generator.h) ---- */

