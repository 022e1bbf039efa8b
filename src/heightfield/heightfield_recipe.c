/* heightfield_recipe.c — built-in recipe presets and recipe evaluation.
 *
 * Design: one NoiseTable per layer and per warp, seeded from the generation seed, the layer's name and
 * its own seed number (so adding a layer does not reshuffle the others). Each sample runs the recipe's
 * warp chain on its coordinates, then sums the layers (each with its own optional warp); the map is then
 * normalised (min..max -> 0..1) or biased, scaled, offset and clamped. Presets live here as structs and
 * are shipped as JSON under assets/recipes/ (the test checks the two agree). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"
#include "strata/heightfield_recipe.h"
#include "strata/noise.h"
#include "strata/rng.h"

static HeightLayer layer(const char *name, HeightLayerKind kind, float frequency, float amplitude, int octaves, uint32_t seed)
{
    HeightLayer l = {.kind = kind, .frequency = frequency, .amplitude = amplitude, .lacunarity = 2.0f, .persistence = 0.5f,
                     .octaves = octaves, .seed = seed};
    snprintf(l.name, sizeof l.name, "%s", name);
    return l;
}

static void preset_default(HeightRecipe *r)
{
    snprintf(r->name, sizeof r->name, "default");
    r->warp_count = 1;
    r->warps[0] = (HeightWarp){.frequency = 0.003f, .strength = 40.0f, .octaves = 2, .seed = 11};
    r->layer_count = 3;
    r->layers[0] = layer("base", HEIGHT_LAYER_FBM, 0.004f, 1.0f, 5, 1);
    r->layers[1] = layer("mountains", HEIGHT_LAYER_RIDGED, 0.006f, 0.8f, 5, 2);
    r->layers[2] = layer("hills", HEIGHT_LAYER_SIMPLEX, 0.03f, 0.08f, 2, 3);
    r->layers[2].warp = (HeightWarp){.frequency = 0.02f, .strength = 6.0f, .octaves = 1, .seed = 4};
    r->normalize = true;
    r->scale = 180.0f;
    r->offset = 20.0f;
}

/* Seed 004: five Perlin layers, normalised to [0, 1], then scaled. */
static void preset_stations(HeightRecipe *r)
{
    snprintf(r->name, sizeof r->name, "stations");
    r->layer_count = 5;
    r->layers[0] = layer("continent", HEIGHT_LAYER_PERLIN, 0.002f, 0.35f, 1, 1);
    r->layers[1] = layer("ridge", HEIGHT_LAYER_PERLIN, 0.008f, 0.15f, 1, 2);
    r->layers[2] = layer("hill", HEIGHT_LAYER_PERLIN, 0.02f, 0.25f, 1, 3);
    r->layers[3] = layer("erosion", HEIGHT_LAYER_PERLIN, 0.04f, 0.10f, 1, 4);
    r->layers[4] = layer("detail", HEIGHT_LAYER_PERLIN, 0.1f, 0.08f, 1, 5);
    r->normalize = true;
    r->scale = 160.0f;
    r->offset = 40.0f;
}

/* Seed 002: (base(0.01) + detail(0.1) x 0.3 + 1) x 32 + 64, clamped to 1..255. */
static void preset_layered(HeightRecipe *r)
{
    snprintf(r->name, sizeof r->name, "layered");
    r->layer_count = 2;
    r->layers[0] = layer("base", HEIGHT_LAYER_PERLIN, 0.01f, 1.0f, 1, 1);
    r->layers[1] = layer("detail", HEIGHT_LAYER_PERLIN, 0.1f, 0.3f, 1, 2);
    r->normalize = false;
    r->bias = 1.0f;
    r->scale = 32.0f;
    r->offset = 64.0f;
    r->clamp = true;
    r->clamp_min = 1.0f;
    r->clamp_max = 255.0f;
}

StResult height_recipe_preset(const char *name, const char *asset_dir, HeightRecipe *out)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(name, "default")) preset_default(out);
    else if (!strcmp(name, "stations")) preset_stations(out);
    else if (!strcmp(name, "layered")) preset_layered(out);
    else return st_fail(ST_ERR_NOT_FOUND, "unknown recipe preset '%s' (presets: default, stations, layered)", name);
    if (asset_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/recipes/%s.json", asset_dir, name);
        if (fileio_exists(path)) return height_recipe_load(path, out);
    }
    return ST_OK;
}

/* ---- evaluation ---- */

typedef struct LayerState {
    NoiseTable table, warp_table;
} LayerState;

static float octave_sum(const NoiseTable *t, const HeightLayer *l, float x, float y)
{
    float f = l->frequency, a = 1.0f, sum = 0.0f, norm = 0.0f;
    for (int o = 0; o < l->octaves; o++) {
        float v;
        /* shift each octave so octaves do not share the lattice origin */
        float ox = x * f + (float)o * 17.13f, oy = y * f + (float)o * 31.71f;
        switch (l->kind) {
        case HEIGHT_LAYER_SIMPLEX: v = noise_simplex2(t, ox, oy); break;
        case HEIGHT_LAYER_WORLEY: v = noise_worley2(t, ox, oy).f1; break;
        default: v = noise_perlin2(t, ox, oy); break;
        }
        sum += v * a;
        norm += a;
        f *= l->lacunarity;
        a *= l->persistence;
    }
    return norm > 0.0f ? sum / norm : 0.0f;
}

static float layer_value(const LayerState *s, const HeightLayer *l, float x, float y)
{
    if (l->warp.strength > 0.0f) noise_warp2(&s->warp_table, &x, &y, l->warp.frequency, l->warp.strength, l->warp.octaves);
    switch (l->kind) {
    case HEIGHT_LAYER_FBM:
        return noise_fbm2(&s->table, x * l->frequency, y * l->frequency, l->octaves, l->lacunarity, l->persistence);
    case HEIGHT_LAYER_RIDGED:
        return noise_ridged2(&s->table, x * l->frequency, y * l->frequency, l->octaves, l->lacunarity, 2.0f, 1.0f);
    default:
        return octave_sum(&s->table, l, x, y);
    }
}

StResult height_recipe_generate(const HeightRecipe *recipe, uint64_t seed, int width, int height, Heightfield *out)
{
    if (recipe->layer_count < 1 || recipe->layer_count > HEIGHT_RECIPE_MAX_LAYERS || recipe->warp_count < 0 ||
        recipe->warp_count > HEIGHT_RECIPE_MAX_WARPS)
        return st_fail(ST_ERR_ARG, "recipe '%s': %d layers / %d warps out of bounds", recipe->name, recipe->layer_count, recipe->warp_count);
    StResult rc = heightfield_init(out, width, height);
    if (rc != ST_OK) return rc;
    LayerState *layers = malloc(sizeof(LayerState) * (size_t)recipe->layer_count);
    NoiseTable *warps = malloc(sizeof(NoiseTable) * (size_t)(recipe->warp_count + 1));
    if (!layers || !warps) {
        free(layers);
        free(warps);
        heightfield_free(out);
        return st_fail(ST_ERR_NOMEM, "recipe '%s': out of memory", recipe->name);
    }
    for (int i = 0; i < recipe->layer_count; i++) {
        const HeightLayer *l = &recipe->layers[i];
        uint64_t base = rng_derive(seed, l->name);
        noise_table_init(&layers[i].table, rng_hash2(base, (int32_t)l->seed, 0));
        noise_table_init(&layers[i].warp_table, rng_hash2(base, (int32_t)l->warp.seed, 1));
    }
    for (int i = 0; i < recipe->warp_count; i++) noise_table_init(&warps[i], rng_hash2(rng_derive(seed, "warp"), (int32_t)recipe->warps[i].seed, i));
    for (int y = 0; y < height; y++) {
        float *row = out->heights + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            float px = (float)x, py = (float)y;
            for (int k = 0; k < recipe->warp_count; k++)
                noise_warp2(&warps[k], &px, &py, recipe->warps[k].frequency, recipe->warps[k].strength, recipe->warps[k].octaves);
            float sum = 0.0f;
            for (int i = 0; i < recipe->layer_count; i++)
                sum += layer_value(&layers[i], &recipe->layers[i], px, py) * recipe->layers[i].amplitude;
            row[x] = sum;
        }
    }
    free(layers);
    free(warps);
    if (recipe->normalize) {
        HeightfieldStats s = heightfield_stats(out);
        heightfield_remap(out, s.min, s.max, 0.0f, 1.0f);
        heightfield_remap(out, 0.0f, 1.0f, recipe->offset, recipe->offset + recipe->scale);
    } else {
        size_t n = (size_t)width * (size_t)height;
        for (size_t i = 0; i < n; i++) out->heights[i] = (out->heights[i] + recipe->bias) * recipe->scale + recipe->offset;
    }
    if (recipe->clamp) heightfield_clamp(out, recipe->clamp_min, recipe->clamp_max);
    return ST_OK;
}
