/* heightfield_recipe.h — noise recipes: layered noise (Perlin, simplex, Worley, FBM, ridged) with domain
 * warps, read from JSON, evaluated into a Heightfield.
 *
 * A recipe is a list of layers summed at each sample, optionally preceded by a chain of domain warps
 * (each warp displaces the sample point before the next). Each layer: kind, frequency (per sample),
 * amplitude, octaves, lacunarity, persistence, seed (added to the generation seed), and its own optional
 * warp (warp_strength, warp_frequency, warp_octaves). Then the sum is post-processed:
 *   normalize: true  -> remap the map's min..max to [0, 1] (seed 004), then h = sum x scale + offset;
 *   normalize: false -> h = (sum + bias) x scale + offset (seed 002: bias 1, scale 32, offset 64);
 * and finally clamped to [clamp_min, clamp_max] when clamp is set.
 * Presets (assets/recipes/<name>.json; also built in): "default", "stations" (seed 004's five Perlin
 * layers), "layered" (seed 002's height formula). JSON format: see assets/recipes/default.json.
 * Ownership: a HeightRecipe is a plain value (no heap). Thread safety: evaluation is reentrant. */
#ifndef STRATA_HEIGHTFIELD_RECIPE_H
#define STRATA_HEIGHTFIELD_RECIPE_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/error.h"
#include "strata/heightfield.h"

#define HEIGHT_RECIPE_MAX_LAYERS 16
#define HEIGHT_RECIPE_MAX_WARPS 8

typedef enum HeightLayerKind {
    HEIGHT_LAYER_PERLIN = 0,  /* Perlin, octaves summed and normalised to [-1, 1] */
    HEIGHT_LAYER_SIMPLEX,     /* simplex, same */
    HEIGHT_LAYER_WORLEY,      /* Worley F1 distance (0..~1.2), octaves summed */
    HEIGHT_LAYER_FBM,         /* noise_fbm2 [-1, 1] */
    HEIGHT_LAYER_RIDGED       /* noise_ridged2 [0, 1] */
} HeightLayerKind;

typedef struct HeightWarp {
    float frequency;   /* per sample */
    float strength;    /* samples */
    int octaves;
    uint32_t seed;
} HeightWarp;

typedef struct HeightLayer {
    char name[32];
    HeightLayerKind kind;
    float frequency, amplitude, lacunarity, persistence;
    int octaves;
    uint32_t seed;
    HeightWarp warp;   /* strength 0: none */
} HeightLayer;

typedef struct HeightRecipe {
    char name[64];
    int layer_count;
    HeightLayer layers[HEIGHT_RECIPE_MAX_LAYERS];
    int warp_count;
    HeightWarp warps[HEIGHT_RECIPE_MAX_WARPS];  /* chained, applied in order */
    bool normalize;
    float bias, scale, offset;
    bool clamp;
    float clamp_min, clamp_max;
} HeightRecipe;

/* Kind from/to its JSON name ("perlin", "simplex", "worley", "fbm", "ridged"); -1 if unknown. */
int height_layer_kind_from_name(const char *name);
const char *height_layer_kind_name(HeightLayerKind kind);

/* Parses a recipe from JSON text (`path` names it in errors: "<path>: field 'layers[1].kind': ..."). */
StResult height_recipe_parse(const char *path, const char *json, HeightRecipe *out);
/* Loads a recipe file. */
StResult height_recipe_load(const char *path, HeightRecipe *out);
/* A recipe by preset name ("default", "stations", "layered"): reads <asset_dir>/recipes/<name>.json when
 * asset_dir is non-NULL and the file exists, else the built-in copy. ST_ERR_NOT_FOUND for other names. */
StResult height_recipe_preset(const char *name, const char *asset_dir, HeightRecipe *out);
/* Serialises a recipe to JSON (malloc'd, caller frees) — the built-in presets are written this way. */
StResult height_recipe_to_json(const HeightRecipe *recipe, char **json);

/* Evaluates the recipe for `seed` into *out (width x height, spacing 1). */
StResult height_recipe_generate(const HeightRecipe *recipe, uint64_t seed, int width, int height, Heightfield *out);

#endif
